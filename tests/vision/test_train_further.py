"""Training a shipped classifier further starts from exactly the model shipped (needs the train extra: torch)."""

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
ort = pytest.importorskip("onnxruntime")

from vision.model import ALL_CARDS, UNREADABLE  # noqa: E402
from vision.patch import PATCH_H, PATCH_W, SCALE  # noqa: E402
from vision.train.index import IndexClassifier, export, from_onnx, widened, with_unreadable  # noqa: E402

MODELS = Path(__file__).resolve().parents[2] / "models"


def beliefs(path: Path, x: np.ndarray) -> np.ndarray:
    return ort.InferenceSession(str(path)).run(None, {"patch": x})[0]


def test_a_classifier_read_back_gives_the_same_beliefs(tmp_path):
    net = from_onnx(MODELS / "candidate" / "index.onnx").eval()
    export(net, tmp_path / "again.onnx")
    x = np.random.default_rng(0).random((16, 3, PATCH_H, PATCH_W), dtype=np.float32)
    first, again = beliefs(MODELS / "candidate" / "index.onnx", x), beliefs(tmp_path / "again.onnx", x)
    assert np.abs(first - again).max() < 1e-5 and first.argmax(1).tolist() == again.argmax(1).tolist()
    with pytest.raises(ValueError, match="not an index classifier"):
        from_onnx(MODELS / "cards.onnx")


def test_a_shipped_classifier_widened_reads_as_before_and_its_copies_can_part(tmp_path):
    """Widened to width 2 (``vision train --from F --width 2``), the second member of the shipped classifier gives
    the same beliefs as its file; with noise on the copies, close to them (so training can tell the copies apart).
    A narrower width, or a network with batch norm, is refused."""
    net = from_onnx(MODELS / "candidate" / "index.onnx").eval()
    x = np.random.default_rng(3).random((32, 3, PATCH_H, PATCH_W), dtype=np.float32)
    shipped = beliefs(MODELS / "candidate" / "index.onnx", x)
    export(widened(net, 2.0).eval(), tmp_path / "wide.onnx")
    export(widened(net, 2.0, seed=5, noise=0.01).eval(), tmp_path / "noisy.onnx")
    wide, noisy = beliefs(tmp_path / "wide.onnx", x), beliefs(tmp_path / "noisy.onnx", x)
    assert ort.InferenceSession(str(tmp_path / "wide.onnx")).get_inputs()[0].shape[1:] == [3, PATCH_H, PATCH_W]
    assert from_onnx(tmp_path / "wide.onnx").fc.in_features == 192
    assert np.abs(wide - shipped).max() < 1e-5
    assert 1e-5 < np.abs(noisy - shipped).max() < 0.05 and (noisy.argmax(1) == shipped.argmax(1)).all()
    with pytest.raises(ValueError, match="narrower"):
        widened(net, 1.0)
    with pytest.raises(ValueError, match="batch norm"):
        widened(IndexClassifier(2.0), 3.0)


def test_the_shipped_joined_classifier_read_back_gives_its_first_and_joins_again_to_itself(tmp_path):
    """``models/index.onnx`` is two classifiers joined (``vision.train.join``): read back, it gives its first; that
    joined again with the second (``models/candidate/index.onnx``) believes what the shipped file believes."""
    from vision.train.join import join

    export(from_onnx(MODELS / "index.onnx").eval(), tmp_path / "first.onnx")
    join([tmp_path / "first.onnx", MODELS / "candidate" / "index.onnx"], tmp_path / "joined.onnx")
    x = np.random.default_rng(1).random((16, 3, PATCH_H, PATCH_W), dtype=np.float32)
    first, shipped = beliefs(tmp_path / "first.onnx", x), beliefs(MODELS / "index.onnx", x)
    assert np.abs(shipped - beliefs(tmp_path / "joined.onnx", x)).max() < 1e-5
    assert np.abs(shipped - first).max() > 0.01  # the second member counts


def test_a_classifier_of_the_canonical_scale_becomes_one_of_the_finer_patches_exactly(tmp_path):
    """The earlier design read 32 x 20 patches with a 3 x 3 first convolution: read back, it gives a patch enlarged
    twice (each pixel a 2 x 2 block) the beliefs it gave the patch itself."""
    torch.manual_seed(0)
    old = IndexClassifier(1.0, norm=False, classes=54)
    old.body[0][0] = torch.nn.Conv2d(3, 24, 3, 1, 1)
    old.eval()
    small = (PATCH_H // SCALE, PATCH_W // SCALE)
    torch.onnx.export(old, torch.zeros(1, 3, *small), str(tmp_path / "old.onnx"), input_names=["patch"],
                      output_names=["probs"], dynamic_axes={"patch": {0: "n"}}, opset_version=17, dynamo=False)
    export(from_onnx(tmp_path / "old.onnx").eval(), tmp_path / "new.onnx")
    x = np.random.default_rng(1).random((8, 3, *small), dtype=np.float32)
    logits = beliefs(tmp_path / "old.onnx", x)
    old_beliefs = np.exp(logits - logits.max(1, keepdims=True))
    old_beliefs /= old_beliefs.sum(1, keepdims=True)
    new = beliefs(tmp_path / "new.onnx", x.repeat(SCALE, 2).repeat(SCALE, 3))
    assert new.shape == (8, 54) and np.abs(new - old_beliefs).max() < 1e-5


def test_a_classifier_of_the_54_cards_is_given_the_unreadable_class_and_keeps_the_cards():
    torch.manual_seed(2)
    old = IndexClassifier(1.0, classes=54).eval()
    x = torch.rand(4, 3, PATCH_H, PATCH_W)
    with torch.no_grad():
        before = old(x)
        new = with_unreadable(old)
        after = new(x)
    assert new.fc.out_features == UNREADABLE + 1 and torch.equal(after[:, :UNREADABLE], before)
    assert torch.equal(after[:, UNREADABLE], torch.zeros(4)) and with_unreadable(new) is new


def test_the_training_modules_examples():
    import doctest

    import vision.train.fit
    import vision.train.index

    assert doctest.testmod(vision.train.index).failed == 0 and doctest.testmod(vision.train.fit).failed == 0


def test_an_index_is_taught_by_how_much_of_its_ink_shows():
    """A card lying just under a whole suit sign covers a third of the index's box, none of the sign: taught by its
    name. One over the suit sign's lower half: ``UNREADABLE``."""
    from vision.train.index import index_shown, taught
    from vision.train.synth.render import art

    card = art("mono", "C4")
    h = card.shape[0]

    def under(row_fraction):
        covered = np.zeros(card.shape[:2], bool)
        covered[round(row_fraction * h):] = True
        return index_shown(card, covered)

    assert index_shown(card, np.zeros(card.shape[:2], bool)) == (1.0, 1.0)
    k = ALL_CARDS.index("C4")
    assert taught(k, *under(0.25)) == k
    assert taught(k, *under(0.19)) == UNREADABLE


@pytest.mark.parametrize("name", ["cards.onnx", "candidate/cards-drawn.onnx"])
def test_a_detector_read_back_gives_the_same_heat_and_offsets(tmp_path, name):
    """The shipped detector, and the candidate trained further from it (which a next run starts from)."""
    from vision.train import detector

    net = detector.from_onnx(MODELS / name).eval()
    detector.export(net, tmp_path / "again.onnx")
    x = np.random.default_rng(3).random((1, 3, 96, 128), dtype=np.float32)
    kept, again = (ort.InferenceSession(str(p)).run(None, {"image": x})
                   for p in (MODELS / name, tmp_path / "again.onnx"))
    assert all(a.shape == b.shape and np.abs(a - b).max() < 1e-4 for a, b in zip(kept, again))


def test_a_classifier_is_not_read_back_as_a_detector():
    from vision.train import detector

    with pytest.raises(ValueError, match="not a corner-index detector"):
        detector.from_onnx(MODELS / "index.onnx")


def test_train_further_names_one_network(tmp_path, capsys):
    from cardtable.cli import main

    assert main(["vision", "train", "--from", str(MODELS / "cards.onnx"), "--out", str(tmp_path)]) != 0
    assert "请给 `--part detector` 或 `--part index`" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def test_detector_tiles_centre_on_jokers_and_crowded_indices_more_often():
    from vision.train.detector import CROWD, CROWD_WEIGHT, JOKER_WEIGHT, SEEN, focus_weights

    lone, joker, covered = (100.0, 100.0, 0, 1.0, 0, 0), (300.0, 100.0, ALL_CARDS.index("LJ"), 0.9, 0, 0), (
        500.0, 100.0, 5, 0.5, 0, 0)
    crowded = [(500.0 + CROWD - 1, 100.0, 7, SEEN, 0, 0)]
    seen, weights = focus_weights([lone, joker, covered, *crowded])
    assert seen == [lone, joker, *crowded]  # the covered index is never a tile's centre, only a neighbour
    assert weights == [1.0, JOKER_WEIGHT, CROWD_WEIGHT]
    far = [(500.0 + CROWD + 1, 100.0, 7, SEEN, 0, 0)]
    assert focus_weights([covered, *far])[1] == [1.0]


def test_joining_refuses_in_words_what_is_not_two_classifiers(tmp_path):
    import subprocess
    import sys

    def joined(*paths: Path, lang: str = "en") -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "cardtable", "vision", "join", *map(str, paths), "--out",
                               str(tmp_path / "j.onnx"), "--lang", lang], capture_output=True, text=True, timeout=120)

    one = joined(MODELS / "candidate" / "index.onnx")
    assert one.returncode == 2 and "two classifiers or more" in one.stderr
    detector = joined(MODELS / "candidate" / "index.onnx", MODELS / "cards.onnx", lang="zh")
    assert detector.returncode == 2 and "无法合并" in detector.stderr and "cards.onnx" in detector.stderr
    assert not (tmp_path / "j.onnx").exists()
    done = joined(MODELS / "candidate" / "index.onnx", MODELS / "candidate" / "index.onnx")
    assert done.returncode == 0 and "one classifier of 2" in done.stdout
    x = np.random.default_rng(2).random((4, 3, PATCH_H, PATCH_W), dtype=np.float32)
    assert np.abs(beliefs(tmp_path / "j.onnx", x) - beliefs(MODELS / "candidate" / "index.onnx", x)).max() < 1e-5


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_train_further_refuses_another_network_or_a_narrower_width_in_words(tmp_path, capsys, lang):
    """Training further from the wrong file (the other network, a text file) or to a narrower classifier was a
    traceback after the output folder had been made. It is said in words, and nothing is made."""
    from cardtable.cli import main

    out = tmp_path / "out"
    cases = [(["--part", "detector", "--from", str(MODELS / "index.onnx")], "corner-index detector", "角标检测器"),
             (["--part", "index", "--from", str(MODELS / "cards.onnx")], "index classifier", "角标分类器"),
             (["--part", "index", "--from", str(MODELS / "README.md")], "index classifier", "角标分类器"),
             (["--part", "index", "--from", str(MODELS / "index.onnx"), "--width", "1"], "(width 1.5)", "（宽度 1.5）")]
    for args, en, zh in cases:
        assert main(["--lang", lang, "vision", "train", *args, "--steps", "1", "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert (en if lang == "en" else zh) in err and "Traceback" not in err
        assert not out.exists()
