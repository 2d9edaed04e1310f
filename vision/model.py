"""The recognition model, run with onnxruntime: the canonical view (or any image at that scale) in, corner-index heat
and offsets to the card centre out (every 4 px); upright corner indices in, card probabilities out."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from referee import cards
from referee.catalogue import Refusal
from vision import confidence

DEFAULT_MODEL = Path(__file__).resolve().parent.parent / "models" / "cards.onnx"
DEFAULT_INDEX = DEFAULT_MODEL.with_name("index.onnx")
STRIDE = 4
ALL_CARDS = tuple(card.code for card in cards.ALL_CARDS)  # the classifier's classes: the 54 faces, the kernel's order
OFFSET_SCALE = 64.0
FEATURES = "features"  # the classifier's penultimate layer (``Model.look``)
# The index classifier's last class, after the 54 cards: what it is shown is not an index it can read (one mostly
# covered by a card or a hand). A classifier trained before this class existed answers 0 for it.
UNREADABLE = len(ALL_CARDS)


class ModelError(Refusal, RuntimeError):
    """The model file is missing or cannot be loaded (the catalogue's ``vision.error.*``)."""

    section = "vision.error"


def _graph(path: Path, inputs: list[str], outputs: list[str]) -> bytes:
    """The model cut down to what ``outputs`` need: the detector's ``cls`` head (probabilities over the 54 cards at
    every 4 px, a helper task of its training) took ~40% of its run time and nothing reads it. ``FEATURES`` names
    the input of the classifier's last layer (what it sees in an index, before it names a card)."""
    from onnx.shape_inference import infer_shapes
    from onnx.utils import Extractor

    model = infer_shapes(load_onnx(path))
    last = next((n.input[0] for n in model.graph.node if n.op_type == "Gemm"), None)
    has = {i.name for i in model.graph.input} | {o.name for o in model.graph.output}
    if not has >= {*inputs, *outputs} - {FEATURES} or (FEATURES in outputs and last is None):
        # another model (the classifier given as --model): onnx's English said names of value_infos
        if FEATURES in outputs:
            raise ModelError("not_classifier", path=path)
        raise ModelError("not_detector", path=path)
    outputs = [last if name == FEATURES else name for name in outputs]
    return Extractor(model).extract_model(inputs, outputs).SerializeToString()


def load_onnx(path: Path):
    """The ONNX model in the file ``path`` (the reader says one not there in its own words); :class:`ModelError` in
    the catalogue's words for one that is no ONNX (another command's file, a damaged one: protobuf's are English)."""
    import onnx
    from google.protobuf.message import DecodeError

    try:
        return onnx.load(str(path))
    except DecodeError:
        raise ModelError("not_onnx", path=path) from None


def _session(path: Path, threads: int, inputs: list[str], outputs: list[str]):
    import onnxruntime as ort

    if not Path(path).is_file():
        raise ModelError("no_model", path=path)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    # Workers that spin after a run took the CPU from the frame's other work (warps, masks): 2x slower per frame.
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return ort.InferenceSession(_graph(path, inputs, outputs), opts, providers=["CPUExecutionProvider"])
    except ModelError:  # no ONNX: said as it is (load_onnx)
        raise
    except Exception as e:  # onnx and onnxruntime raise their own exception types
        raise ModelError("cannot_load", path=path, error=e) from e


class Model:
    """The corner-index detector (``cards.onnx``) and the index classifier (``index.onnx``), with the calibration of
    the classifier's confidence when there is one (``index.sure.json`` beside it, or the file ``sure``: one fitted
    for the decks a hall plays with; ``calibrated=False``: the raw beliefs, to fit a calibration on or to test the
    pipeline's logic). A classifier trained from another (a venue's, enrolled from the shipped one) records that one,
    its ``base``, beside it (``index.base.json``, ``keep_base``): under a deck's calibration, what does not look like
    the deck is named by the base, under the base's own calibration (``vision.read``); ``base`` is None otherwise."""

    def __init__(self, path: Path = DEFAULT_MODEL, index_path: Path | None = None, threads: int = 2,
                 calibrated: bool = True, sure: Path | None = None, with_base: bool = True,
                 detector: Model | None = None) -> None:
        self.path = Path(path)
        self.index_path = Path(index_path) if index_path else self.path.with_name("index.onnx")
        # ``detector``: a model whose detector session this one shares (a base names the peaks its venue model found)
        self.session = detector.session if detector else _session(self.path, threads, ["image"], ["heat", "offset"])
        self.index_session = _session(self.index_path, threads, ["patch"], ["probs", FEATURES])
        try:  # what its beliefs mean on decks it never saw (``vision.confidence``); None: raw beliefs
            self.calibration = confidence.load(self.index_path, sure) if calibrated else None
            if calibrated and self.calibration is None and base_path(self.index_path).is_file():
                # an enrolled classifier (``keep_base``) is read only with the calibration fitted on its deck: raw
                # beliefs of one trained further would pass for sure
                raise confidence.CalibrationError("no_calibration", path=confidence.path_for(self.index_path))
            deck = self.calibration.deck if self.calibration else None
            given = self.index_session.get_outputs()[1].shape[1]
            if deck is not None and deck.size != given:
                raise confidence.CalibrationError("fingerprint_size", path=sure or confidence.path_for(self.index_path),
                                                  size=deck.size, classifier=self.index_path, given=given)
        except confidence.CalibrationError as e:
            raise ModelError("calibration", error=e) from e
        self.base = base_of(self, threads) if calibrated and with_base else None

    def __call__(self, crop: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``crop``: H x W x 3 BGR uint8, H and W multiples of 8. Returns heat (h, w) and offsets in px (2, h, w) at
        stride 4."""
        x = np.ascontiguousarray(crop.transpose(2, 0, 1))[None].astype(np.float32) * np.float32(1 / 255)
        heat, off = self.session.run(None, {"image": x})
        return heat[0, 0], off[0] * OFFSET_SCALE

    def classify(self, patches: np.ndarray) -> np.ndarray:
        """``patches``: N x 64 x 40 x 3 BGR uint8 upright indices (``vision.patch``) -> N x 55 probabilities: the 54
        cards (``ALL_CARDS``), then ``UNREADABLE``."""
        return self.look(patches)[0]

    def look(self, patches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``classify``, and what the classifier saw in each index: N x F, its penultimate layer (the deck's
        fingerprint compares them, ``vision.deck``)."""
        x = (patches.astype(np.float32) * (1 / 255)).transpose(0, 3, 1, 2)
        probs, features = self.index_session.run(None, {"patch": np.ascontiguousarray(x)})
        return (probs if probs.shape[1] > UNREADABLE else np.pad(probs, ((0, 0), (0, 1)))), features

    def __repr__(self) -> str:
        return f"Model({str(self.path)!r}, {str(self.index_path)!r})"


def base_path(classifier: Path) -> Path:
    """Where a classifier's record of its base lies: ``index.onnx`` -> ``index.base.json``."""
    return Path(classifier).with_suffix(".base.json")


def keep_base(base: Path, classifier: Path) -> Path:
    """Record ``base`` as the classifier ``classifier`` is trained from (an enrolment's start): a copy of it, with
    its calibration, in the classifier's folder (``base/index.onnx``: the folder stays whole wherever it is copied,
    whatever classifier is shipped later), and beside the classifier its path from there and its SHA-256
    (``index.base.json``). Returns the copy."""
    import shutil

    kept = Path(classifier).parent / "base" / "index.onnx"
    kept.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(base, kept)
    confidence.path_for(kept).unlink(missing_ok=True)
    if confidence.path_for(base).is_file():
        shutil.copyfile(confidence.path_for(base), confidence.path_for(kept))
    base_path(classifier).write_text(json.dumps({"base": "base/index.onnx", "sha256": confidence.digest(kept)},
                                                indent=1) + "\n")
    return kept


def base_of(model: Model, threads: int) -> Model | None:
    """The model ``model``'s classifier's recorded base makes with ``model``'s detector (its session shared, not
    loaded again; the base calibrated by its own ``index.sure.json``), None when there is no record; a damaged
    record, a base missing, changed since it was recorded or that cannot be loaded is refused (``ModelError``),
    never passed over."""
    record = base_path(model.index_path)
    if not record.is_file():
        return None
    try:
        data = json.loads(record.read_text())
        path, sha = record.parent / str(data["base"]), str(data["sha256"])
    except (ValueError, KeyError, TypeError, OSError) as e:
        raise ModelError("damaged_base", path=record, error=e) from e
    if not path.is_file():
        raise ModelError("no_base", path=path, record=record)
    if confidence.digest(path) != sha:
        raise ModelError("other_base", path=path, record=record)
    try:
        return Model(model.path, path, threads, with_base=False, detector=model)
    except ModelError as e:
        raise ModelError("unusable_base", path=path, error=e) from e
