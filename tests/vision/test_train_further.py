"""Training a shipped classifier further starts from exactly the model shipped (needs the train extra: torch)."""

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
ort = pytest.importorskip("onnxruntime")

from vision.index_train import export, from_onnx  # noqa: E402

MODELS = Path(__file__).resolve().parents[2] / "models"


def test_the_shipped_classifier_read_back_gives_the_same_beliefs(tmp_path):
    net = from_onnx(MODELS / "index.onnx").eval()
    export(net, tmp_path / "again.onnx")
    x = np.random.default_rng(0).random((16, 3, 32, 20), dtype=np.float32)
    shipped = ort.InferenceSession(str(MODELS / "index.onnx")).run(None, {"patch": x})[0]
    again = ort.InferenceSession(str(tmp_path / "again.onnx")).run(None, {"patch": x})[0]
    assert np.abs(shipped - again).max() < 1e-5 and shipped.argmax(1).tolist() == again.argmax(1).tolist()
    with pytest.raises(ValueError, match="not an index classifier"):
        from_onnx(MODELS / "cards.onnx")
