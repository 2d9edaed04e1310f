"""Several index classifiers made one (``cardtable vision join``): one ONNX graph that runs each on the same
patches and gives the mean of their probabilities (``rule="mean"``) or their normalised geometric mean
(``rule="product"``: a class counts only as far as every member finds it likely), so that the runtime
(``vision.model``), the calibrations (one file's hash) and the deck's fingerprint (the first member's penultimate
layer: ``model.FEATURES`` names the first fully connected layer's input) see one classifier. Training further from
a joined file trains its first member (``vision.train.index.from_onnx``). Needs only ``onnx``.

>>> import tempfile, numpy as np, onnxruntime as ort
>>> from onnx import TensorProto, helper, numpy_helper
>>> def member(path, w):
...     g = helper.make_graph([helper.make_node("Flatten", ["patch"], ["flat"]),
...                            helper.make_node("Gemm", ["flat", "w", "b"], ["logits"], transB=1),
...                            helper.make_node("Softmax", ["logits"], ["probs"], axis=1)], "m",
...                           [helper.make_tensor_value_info("patch", TensorProto.FLOAT, ["n", 2])],
...                           [helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["n", 2])],
...                           [numpy_helper.from_array(np.array(w, np.float32), "w"),
...                            numpy_helper.from_array(np.zeros(2, np.float32), "b")])
...     onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), path)
>>> d = Path(tempfile.mkdtemp())
>>> member(d / "a.onnx", [[9, 0], [0, 0]]); member(d / "b.onnx", [[0, 0], [0, 9]])
>>> join([d / "a.onnx", d / "b.onnx"], d / "j.onnx")
>>> def run(name, x):
...     s = ort.InferenceSession(str(d / name), providers=["CPUExecutionProvider"])
...     return np.round(s.run(None, {"patch": x})[0], 3).tolist()
>>> x = np.array([[1, 0], [0, 1]], np.float32)
>>> run("a.onnx", x), run("b.onnx", x)
([[1.0, 0.0], [0.5, 0.5]], [[0.5, 0.5], [0.0, 1.0]])
>>> run("j.onnx", x)
[[0.75, 0.25], [0.25, 0.75]]
>>> join([d / "a.onnx", d / "b.onnx"], d / "g.onnx", rule="product")
>>> [[round(v, 3) for v in row] for row in run("g.onnx", x)]  # sqrt(0.9999 * 0.5) : sqrt(0.0001 * 0.5), normalised
[[0.989, 0.011], [0.011, 0.989]]
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import helper, numpy_helper

from vision.whole import whole

INPUT, OUTPUT = "patch", "probs"
RULES = ("mean", "product")
TINY = 1e-6  # the least probability the product takes a member's at (a zero would veto a class outright)


def _load(path: Path) -> onnx.ModelProto:
    """The ONNX file ``path``; :class:`ModelError`, naming it, for one that is not there, damaged or not ONNX at all
    (``vision.model.load_onnx``)."""
    from vision.model import ModelError, load_onnx

    if not Path(path).is_file():
        raise ModelError("no_classifier", path=path)
    return load_onnx(path)


def join(paths: list[Path], out: Path, rule: str = "mean") -> None:
    """Write to ``out`` one classifier of the ``paths`` (each an ``index.onnx``: input ``patch``, output ``probs``
    over the same classes): their probabilities' mean, or by ``rule="product"`` their normalised geometric mean.
    :class:`vision.model.ModelError`, saying which, for a file that is not one."""
    if len(paths) < 2:
        raise ValueError("join takes two classifiers or more")
    if rule not in RULES:
        raise ValueError(f"join's rule is one of {', '.join(RULES)}, not {rule!r}")
    models = [_load(path) for path in paths]
    nodes, inits = [], []
    for i, (path, m) in enumerate(zip(paths, models)):
        g = m.graph
        if [x.name for x in g.input] != [INPUT] or [x.name for x in g.output] != [OUTPUT]:
            raise ValueError(f"{path}: not an index classifier (input {INPUT!r}, output {OUTPUT!r})")
        own = {t.name for t in g.initializer} | {o for n in g.node for o in n.output}

        def name(x: str, i=i, own=own) -> str:
            return f"m{i}/{x}" if x in own else x

        for n in g.node:
            copy = onnx.NodeProto()
            copy.CopyFrom(n)
            copy.name = f"m{i}/{n.name or n.op_type}"
            copy.input[:] = [name(x) for x in n.input]
            copy.output[:] = [name(x) for x in n.output]
            nodes.append(copy)
        for t in g.initializer:
            inits.append(numpy_helper.from_array(numpy_helper.to_array(t), name(t.name)))
    inits.append(numpy_helper.from_array(np.array(1 / len(paths), np.float32), "share"))
    if rule == "mean":
        nodes += [helper.make_node("Sum", [f"m{i}/{OUTPUT}" for i in range(len(paths))], ["summed"], name="sum"),
                  helper.make_node("Mul", ["summed", "share"], [OUTPUT], name="mean")]
    else:  # softmax of the members' mean log-probability: their geometric mean, normalised
        inits.append(numpy_helper.from_array(np.array(TINY, np.float32), "tiny"))
        for i in range(len(paths)):
            nodes += [helper.make_node("Max", [f"m{i}/{OUTPUT}", "tiny"], [f"m{i}/floored"], name=f"m{i}/floor"),
                      helper.make_node("Log", [f"m{i}/floored"], [f"m{i}/log"], name=f"m{i}/log")]
        nodes += [helper.make_node("Sum", [f"m{i}/log" for i in range(len(paths))], ["summed"], name="sum"),
                  helper.make_node("Mul", ["summed", "share"], ["meanlog"], name="mean"),
                  helper.make_node("Softmax", ["meanlog"], [OUTPUT], name="product", axis=1)]
    first = models[0].graph
    graph = helper.make_graph(nodes, f"joined {len(paths)}", list(first.input), list(first.output), inits)
    opset = max(o.version for m in models for o in m.opset_import if o.domain in ("", "ai.onnx"))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = max(m.ir_version for m in models)
    onnx.checker.check_model(model)
    whole(out, lambda to: onnx.save(model, to))  # a kill while it writes leaves the classifier there before
