"""A venue's classifier and its base (``Model.base``, ``vision.read``): under the venue deck's calibration, the cards
that do not look like that deck are named by the classifier the venue's was trained from, exactly as it reads out
of the box; the venue's own cards keep the venue's classifier, and cost nothing more; a base missing, changed or
damaged is refused in words.

The venue here is made to be told apart: its classifier is the shipped one with spades and hearts swapped in its
last layer (a real network, its looks the shipped one's), calibrated for the hall's decks with the hall's
fingerprint (its cards renamed alike), its base the shipped classifier. A card it names is the base's name with
spades and hearts swapped; a card the base names is not."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from dataclasses import replace
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.catalogue import said
from vision import confidence
from vision.model import ALL_CARDS, DEFAULT_INDEX, DEFAULT_MODEL, UNREADABLE, Model, ModelError, base_path, keep_base
from vision.read import read_frame
from vision.train import sure
from vision.train.synth.render import random_camera, render_frame

HALL = DEFAULT_MODEL.with_name("hall.sure.json")
HALL_DECKS = ["letele", "sans", "serif"]
SWAP = {k: {"S": "H", "H": "S"}.get(k[0], k[0]) + k[1:] if k[0] in "SH" else k for k in ALL_CARDS}


def swapped_classifier(path: Path) -> None:
    """The shipped classifier with the spades' and hearts' outputs swapped (in each of its joined classifiers' last
    layers): it names SA what the shipped one names HA, and the other way round."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(DEFAULT_INDEX))
    weights = {x for n in model.graph.node if n.op_type == "Gemm" for x in n.input[1:]}
    order = [ALL_CARDS.index(SWAP[k]) for k in ALL_CARDS] + [UNREADABLE]
    for init in model.graph.initializer:
        if init.name in weights:
            init.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(init)[order], init.name))
    onnx.save(model, str(path))


@pytest.fixture(scope="module")
def venue(tmp_path_factory) -> Path:
    """A venue's folder as an enrolment leaves it: the detector, the venue's classifier, its deck calibration with
    the deck's fingerprint, and its base kept beside it (``keep_base``, as ``cardtable vision deck`` does)."""
    out = tmp_path_factory.mktemp("venue")
    shutil.copy(DEFAULT_MODEL, out / "cards.onnx")
    swapped_classifier(out / "index.onnx")
    hall = json.loads(HALL.read_text())
    hall["deck"]["centres"] = {SWAP[k]: v for k, v in hall["deck"]["centres"].items()}
    hall["classifier_sha256"] = confidence.digest(out / "index.onnx")
    (out / "index.sure.json").write_text(json.dumps(hall))
    assert keep_base(DEFAULT_INDEX, out / "index.onnx") == out / "base" / "index.onnx"
    return out


def the_three(venue: Path) -> tuple[Model, Model, Model]:
    """The venue's model, the same without its base, and its base as it reads out of the box."""
    return (Model(venue / "cards.onnx"), Model(venue / "cards.onnx", with_base=False),
            Model(venue / "cards.onnx", venue / "base" / "index.onnx"))


def watched(model: Model) -> list[int]:
    """Each batch of indices the model's base is shown, as it is shown them."""
    shown: list[int] = []
    look = model.base.look
    model.base.look = lambda patches: shown.append(len(patches)) or look(patches)
    return shown


def seen(reading) -> list[tuple]:
    return [(c.name, c.seat, c.centre, c.confidence, c.corners) for c in reading.cards]


@cache
def hall_table(mixed: str | None = None):
    """A table of the hall's decks no fit or check draws; ``mixed``: two of its cards in that other deck's art."""
    rng = sure.drawn("base test", 1, 0)
    scene = sure.table(rng, HALL_DECKS)
    if mixed:
        scene = replace(scene, cards=tuple(replace(c, style=mixed) if i in (3, 17) else c
                                           for i, c in enumerate(scene.cards)))
    return scene, render_frame(scene, random_camera(rng, (2560, 1920)))


def held_out_style(tmp: Path) -> str:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from eval_sure import foreign_style

    return foreign_style("cabin-deep", tmp)


def test_a_frame_of_another_deck_is_read_exactly_as_out_of_the_box(venue, tmp_path):
    from bench.heldout.decks import FAMILIES
    from bench.heldout.table import frame

    mine, without, base = the_three(venue)
    shot = frame(random.Random("base test 0"), FAMILIES["cabin-deep"], (2560, 1920))
    reading = read_frame(shot.image, mine)
    assert len(reading.cards) >= 10 and all(c.foreign for c in reading.cards)  # the frame shows another deck
    out_of_box = read_frame(shot.image, base)
    assert seen(reading) == seen(out_of_box)  # names, seats, places, confidence: the base's, as it reads alone
    alone = read_frame(shot.image, without)  # without its base, the venue's classifier names them itself
    assert all(c.foreign for c in alone.cards) and all(c.confidence < 0.9 for c in alone.cards)
    assert [(SWAP[c.name], c.seat, c.centre) for c in alone.cards] == [(c.name, c.seat, c.centre)
                                                                        for c in out_of_box.cards]
    assert sum(c.name[0] in "SH" for c in reading.cards) >= 4  # where the two differ


def test_the_venues_own_deck_keeps_the_venues_classifier_and_costs_no_more(venue):
    """A table of the venue's own deck: what looks like the deck is named by the venue's classifier, as without a
    base; the base runs only on the indices of what does not (a read or two of a table: 1-2% of a deck's own reads,
    mostly partly covered indices, look unlike it and are flagged)."""
    mine, without, base = the_three(venue)
    shown = watched(mine)
    _, shot = hall_table()
    reading = read_frame(shot.image, mine)
    far = [c for c in reading.cards if c.foreign]
    ours = [c for c in reading.cards if not c.foreign]
    assert len(far) <= 2 and len(ours) >= 20
    assert all(s in seen(read_frame(shot.image, without)) for s in seen(replace(reading, cards=tuple(ours))))
    assert bool(shown) == bool(far) and (not shown or shown[0] <= 2 * len(far))  # the base saw their indices alone
    assert sum(c.confidence >= 0.9 for c in ours) >= 20  # the deck's calibration: sure reads
    out_of_box = [(c.name, c.seat, c.centre) for c in read_frame(shot.image, base).cards]
    assert all((SWAP[c.name], c.seat, c.centre) in out_of_box for c in ours)
    assert sum(c.name[0] in "SH" for c in ours) >= 5  # where the two differ


def test_a_stranger_among_the_venues_cards_is_named_by_the_base_and_the_others_are_not(venue, tmp_path):
    mine, without, base = the_three(venue)
    shown = watched(mine)
    scene, shot = hall_table(held_out_style(tmp_path))
    reading = read_frame(shot.image, mine)
    far = [c for c in reading.cards if c.foreign]
    ours = [c for c in reading.cards if not c.foreign]
    assert 1 <= len(far) <= 4 and len(ours) >= 20  # the strangers' own looks; the frame shows the hall's decks
    assert 1 <= len(shown) <= 2 and shown[0] <= 2 * len(far) <= 8  # the base saw the strangers' indices alone
    alone, out_of_box = seen(read_frame(shot.image, without)), read_frame(shot.image, base).cards
    assert all(s in alone for s in seen(replace(reading, cards=tuple(ours))))
    for c in far:  # as the base reads the whole frame: its belief to float rounding (the base's batch of indices is
        # not the whole frame's), its centre within sure.REACH (15 mm: a card read by one corner gets its centre from
        # the frame's own index span where the whole frame is read, from the detector's offset where only it is)
        assert any((o.name, o.seat) == (c.name, c.seat) and abs(o.confidence - c.confidence) < 1e-6
                   and np.hypot(o.centre[0] - c.centre[0], o.centre[1] - c.centre[1]) < sure.REACH
                   for o in out_of_box), c


def refused(venue: Path) -> tuple[str, str]:
    with pytest.raises(ModelError) as e:
        Model(venue / "cards.onnx")
    return said(e.value, "zh"), said(e.value, "en")


def test_a_base_missing_changed_or_damaged_is_refused_in_words(venue, tmp_path):
    def copy() -> Path:
        shutil.rmtree(tmp_path / "v", ignore_errors=True)
        return Path(shutil.copytree(venue, tmp_path / "v"))

    moved = Path(shutil.copytree(venue, tmp_path / "moved"))  # the folder is whole wherever it is copied
    assert Model(moved / "cards.onnx").base.index_path == moved / "base" / "index.onnx"
    (copy() / "base" / "index.onnx").unlink()
    zh, en = refused(tmp_path / "v")
    assert "这个文件却不在" in zh and "index.base.json" in zh and "there is no such file" in en
    shutil.copy(venue / "index.onnx", copy() / "base" / "index.onnx")  # another classifier in its place
    zh, en = refused(tmp_path / "v")
    assert "不是" in zh and "记下的训练底本" in zh and "is not the classifier" in en
    (copy() / "base" / "index.onnx").write_bytes((venue / "base" / "index.onnx").read_bytes()[:-10])
    assert "记下的训练底本" in refused(tmp_path / "v")[0]
    for damage in ("{", json.dumps({"base": "base/index.onnx"}), "[]"):
        base_path(copy() / "index.onnx").write_text(damage)
        zh, en = refused(tmp_path / "v")
        assert "分类器底本的记录" in zh and "已损坏" in zh and "damaged record" in en
    (copy() / "base" / "index.sure.json").write_text("{}")
    zh, en = refused(tmp_path / "v")
    assert "分类器的底本" in zh and "不能用" in zh and "置信度校准" in zh and "cannot be used" in en
    image = tmp_path / "frame.png"
    (copy() / "base" / "index.onnx").unlink()
    cv2.imwrite(str(image), np.full((480, 640, 3), 90, np.uint8))
    for lang, words in (("zh", "这个文件却不在"), ("en", "there is no such file")):
        done = subprocess.run([sys.executable, "-m", "cardtable", "vision", "read", str(image), "--model",
                               str(tmp_path / "v" / "cards.onnx"), "--lang", lang], capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 2 and words in done.stderr and not done.stdout, done.stderr
