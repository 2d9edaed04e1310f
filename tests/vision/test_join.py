"""``cardtable vision join``: several index classifiers made one (``vision/train/join.py``). Needs only onnx and
onnxruntime (the training extra's tests, with torch, are in test_train_further.py)."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort

from vision.patch import PATCH_H, PATCH_W

CANDIDATES = Path(__file__).resolve().parents[2] / "models" / "candidate"


def beliefs(path: Path, x: np.ndarray) -> np.ndarray:
    return ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, {"patch": x})[0]


def joined(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardtable", "vision", "join", *args], capture_output=True, text=True,
                          timeout=120)


def test_a_product_join_is_the_members_normalised_geometric_mean(tmp_path):
    """``--rule product``: a class counts only as far as every member finds it likely."""
    a, b = CANDIDATES / "index.onnx", CANDIDATES / "gpu.onnx"
    done = joined(str(a), str(b), "--rule", "product", "--out", str(tmp_path / "g.onnx"), "--lang", "zh")
    assert done.returncode == 0 and "几何平均" in done.stdout
    x = np.random.default_rng(3).random((6, 3, PATCH_H, PATCH_W), dtype=np.float32) * 255
    pa, pb = beliefs(a, x), beliefs(b, x)
    geometric = np.sqrt(np.maximum(pa, 1e-6) * np.maximum(pb, 1e-6))
    got = beliefs(tmp_path / "g.onnx", x)
    assert np.abs(got - geometric / geometric.sum(1, keepdims=True)).max() < 1e-4
    assert np.abs(got - (pa + pb) / 2).max() > 1e-3  # not the mean
    mean = joined(str(a), str(b), "--out", str(tmp_path / "m.onnx"), "--lang", "en")
    assert mean.returncode == 0 and "the mean of their probabilities" in mean.stdout
    assert np.abs(beliefs(tmp_path / "m.onnx", x) - (pa + pb) / 2).max() < 1e-5


def test_an_unknown_rule_is_refused_and_writes_nothing(tmp_path):
    done = joined(str(CANDIDATES / "index.onnx"), str(CANDIDATES / "gpu.onnx"), "--rule", "max", "--out",
                  str(tmp_path / "j.onnx"))
    assert done.returncode == 2 and "max" in done.stderr and not (tmp_path / "j.onnx").exists()
