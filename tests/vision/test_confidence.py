"""Confidence that means something (``vision/confidence.py``): a read is sure only where reads of held-out decks
vouch, at 95%, that it is wrong at most 0.2% of the time; a calibration belongs to one classifier; a damaged or
foreign one is refused."""

from __future__ import annotations


import pytest

from vision import confidence
from vision.model import Model, ModelError
from vision.read import read_frame
from vision.sanity import SURE
from vision_frames import frame, play, shipped_networks


@pytest.fixture()
def models(tmp_path):
    shipped_networks(tmp_path)
    return tmp_path


def test_fit_finds_where_reads_vouch_for_the_target():
    right = [(1 - k * 1e-6, True, 2) for k in range(3000)]
    reads = right[:2000] + [(1 - 1999.5e-6, False, 2)] + right[2000:] + [(0.9, False, 1)] + [(0.99, True, 1)] * 1600
    sure_at = confidence.fit(reads, 0.002)
    assert sure_at["2"] == pytest.approx(1 - 2999e-6)  # 1 wrong of 3,001: seen at most 1.7% of the time at 0.2%
    assert confidence.fit(reads, 0.0015)["2"] == pytest.approx(1 - 1999e-6)  # only the 2,000 above the wrong one
    assert sure_at["1"] == 0.99  # 1,600 right vouch for 0.2% (1,497 do); with the wrong one at 0.9, too many wrong
    assert confidence.fit([(0.99, True, 1)] * 1400, 0.002)["1"] is None  # 1,400 are too few to vouch for 0.2%
    assert confidence.fit([(0.99, True, 1)] * 600, 0.002)["1"] is None  # (the point rule took 600: (0 + 1) / n)
    assert sure_at == confidence.fit(list(reversed(reads)), 0.002)


def test_a_calibrated_model_marks_sure_only_past_its_threshold(models):
    reads = [(0.999, True, 2)] * 1500 + [(0.98, True, 1)] * 1500 + [(0.9, False, 1)]
    calibration = confidence.Calibration(confidence.fit(reads), confidence.TARGET, "test")
    confidence.path_for(models / "index.onnx").write_text(calibration.to_json(models / "index.onnx"))
    model = Model(models / "cards.onnx")
    f = frame(play("S", ["SA", "HK", "D7"], "row", 3) + play("N", ["C9"], "fan", 4))
    cards = read_frame(f.image, model).cards
    assert cards and all(c.raw is not None and 0 <= c.confidence <= 1 for c in cards)
    for c in cards:
        assert (c.confidence >= SURE) == (c.raw >= calibration.sure_at["2" if c.corners >= 2 and not c.conflict else "1"])


def test_the_shipped_calibration_leaves_no_read_sure_the_shipped_classifier_cannot_vouch_for():
    """The shipped classifier read held-out decks wrongly even at a doubt of 1e-10: nothing of it is sure."""
    model = Model()
    assert model.calibration is not None and set(model.calibration.sure_at.values()) == {None}
    cards = read_frame(frame(play("S", ["SA", "HK", "D7"], "row", 3)).image, model).cards
    assert cards and all(c.confidence < SURE for c in cards) and any(c.raw >= SURE for c in cards)


def test_a_calibration_of_another_classifier_or_a_damaged_one_is_refused(models):
    other = confidence.Calibration({"2": 0.99, "1": None}, confidence.TARGET, "test")
    confidence.path_for(models / "index.onnx").write_text(other.to_json(models / "cards.onnx"))  # another file's hash
    with pytest.raises(ModelError) as e:
        Model(models / "cards.onnx")
    assert "calibrates another classifier" in e.value.text("en") and "校准的不是" in str(e.value)
    confidence.path_for(models / "index.onnx").write_text('{"sure_at": {"2": 0.9}}')
    with pytest.raises(ModelError) as e:
        Model(models / "cards.onnx")
    assert "damaged confidence calibration" in e.value.text("en") and "已损坏" in str(e.value)
    assert "缺少 `1` 这一项" in str(e.value) and "the field `1` is missing" in e.value.text("en")  # not a bare '1'
    confidence.path_for(models / "index.onnx").write_text('{"sure_at": {"1": "x", "2": null}, "target": 0.002}')
    with pytest.raises(ModelError) as e:  # Python's "could not convert string to float" was said inside Chinese
        Model(models / "cards.onnx")
    assert str(e.value).endswith('已损坏：`sure_at.1` 的值 "x" 不是它该有的数') and "could not" not in e.value.text("en")
    confidence.path_for(models / "index.onnx").unlink()
    assert Model(models / "cards.onnx").calibration is None  # never calibrated: raw beliefs, as before


def test_a_calibration_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    """A disk full or a process killed while ``cardtable vision sure`` writes a venue's calibration leaves the one
    there before, whole: the camera goes on with it instead of stopping at a damaged file."""
    from pathlib import Path

    classifier = tmp_path / "index.onnx"
    classifier.write_bytes(b"a classifier")
    path = confidence.path_for(classifier)
    before = confidence.Calibration({"2": 0.99, "1": None}, confidence.TARGET, "before")
    before.write(path, classifier)
    after = confidence.Calibration({"2": 0.9, "1": 0.95}, confidence.TARGET, "after")
    real = Path.write_text

    def disk_full(self, text, *args, **kwargs):
        real(self, text[: len(text) // 2])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_text", disk_full)
    with pytest.raises(OSError):
        after.write(path, classifier)
    monkeypatch.undo()
    assert confidence.load(classifier) == before
    after.write(path, classifier)
    assert confidence.load(classifier) == after  # and the part left by the failed write is gone with it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index.onnx", "index.sure.json"]


def test_a_model_is_written_whole_or_not_at_all(tmp_path):
    """A run killed while it exports (``cardtable vision train --out models`` writes over the shipped model every two
    minutes) leaves the model there before whole; an export that ends puts the new one in its place."""
    from pathlib import Path

    from vision.whole import whole

    path = tmp_path / "index.onnx"
    path.write_bytes(b"the shipped model")

    class Killed(Exception):
        pass

    def killed(to: str) -> None:
        Path(to).write_bytes(b"the first half of")
        raise Killed

    with pytest.raises(Killed):
        whole(path, killed)
    assert path.read_bytes() == b"the shipped model"
    whole(path, lambda to: Path(to).write_bytes(b"the trained model"))
    assert path.read_bytes() == b"the trained model" and [p.name for p in tmp_path.iterdir()] == ["index.onnx"]
