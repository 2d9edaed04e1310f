"""An index mostly covered is not read: the classifier's ``UNREADABLE`` class drops it, and the renderer's truth
says how much of each index's rank and suit halves shows (what that class is taught from)."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from vision_frames import frame, play
from vision.geometry import CARD_H
from vision.model import ALL_CARDS, DEFAULT_MODEL, UNREADABLE, Model
from vision.patch import PATCH_H, PATCH_W
from vision.read import read_frame
from vision.train.synth.render import render_table
from vision.train.synth.scene import PlacedCard, Scene

TRICK = play("S", ["SA", "HK"], "row", 1) + play("N", ["D7", "C2"], "row", 3)


def constant_classifier(path, classes: int, answer: int):
    """A real ONNX classifier of the shipped interface that answers ``answer`` for every patch."""
    bias = np.full(classes, -10.0, np.float32)
    bias[answer] = 10.0
    graph = helper.make_graph(
        [helper.make_node("GlobalAveragePool", ["patch"], ["mean"]),
         helper.make_node("Flatten", ["mean"], ["flat"]),
         helper.make_node("Gemm", ["flat", "w", "b"], ["logits"]),
         helper.make_node("Softmax", ["logits"], ["probs"], axis=1)],
        "constant", [helper.make_tensor_value_info("patch", TensorProto.FLOAT, ["n", 3, PATCH_H, PATCH_W])],
        [helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["n", classes])],
        [helper.make_tensor("w", TensorProto.FLOAT, (3, classes), np.zeros(3 * classes, np.float32)),
         helper.make_tensor("b", TensorProto.FLOAT, (classes,), bias)])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    return Model(DEFAULT_MODEL, index_path=path)


def test_an_index_the_classifier_finds_unreadable_is_not_read(tmp_path):
    image = frame(TRICK).image
    assert read_frame(image, constant_classifier(tmp_path / "hk.onnx", UNREADABLE + 1, ALL_CARDS.index("HK"))).seats() \
        == {"S": ["HK", "HK"], "E": [], "N": ["HK", "HK"], "W": []}
    reading = read_frame(image, constant_classifier(tmp_path / "none.onnx", UNREADABLE + 1, UNREADABLE))
    assert reading.calibrated and reading.cards == ()


def test_a_classifier_of_before_the_class_believes_it_nowhere(tmp_path):
    model = constant_classifier(tmp_path / "old.onnx", len(ALL_CARDS), ALL_CARDS.index("D7"))
    probs = model.classify(np.zeros((3, PATCH_H, PATCH_W, 3), np.uint8))
    assert probs.shape == (3, UNREADABLE + 1) and probs[:, UNREADABLE].tolist() == [0, 0, 0]
    assert probs.argmax(1).tolist() == [ALL_CARDS.index("D7")] * 3
    assert read_frame(frame(TRICK).image, model).seats()["N"] == ["D7", "D7"]


def test_the_truth_says_how_much_of_each_half_of_an_index_shows():
    """A card laid over another's lower part covers the suit half of its top index more than the index as a whole,
    and its bottom index entirely."""
    under = PlacedCard("SA", "sans", 0.5, 0.5, 0.0)
    over = PlacedCard("HK", "sans", 0.5, 0.5 + 0.22 * CARD_H, 0.0)  # its top edge at 22% of the card below
    _, (a, b) = render_table(Scene((under, over)), 800)
    assert a.indices[0][2] == pytest.approx(1 - 0.08 / 0.30, abs=0.04)
    assert a.halves[0] == pytest.approx(1 - 0.08 / 0.15, abs=0.06)
    assert a.indices[1][2] == a.halves[1] == 0.0
    assert [v for *_, v in b.indices] == list(b.halves) == [1.0, 1.0]
