"""``cardtable vision``: read a frame, watch a table, check a table's calibration, train the model.

Heavy imports (OpenCV, onnxruntime, torch) happen inside the handlers only."""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

from bus.credentials import add_options
from referee.catalogue import cli_lang, said, say

NOT_CALIBRATED = 2  # exit status of `read` and `calibrate` for a frame without the four markers
SURE_HELP = ("the confidence calibration to read with (default: index.sure.json beside the classifier); a deck's (an "
             "enrolled venue's, models/hall.sure.json) marks sure only reads that look like that deck")


def add_parser(sub: argparse._SubParsersAction) -> None:
    vision = sub.add_parser("vision", help="the camera: read a frame, watch a table, check calibration, train the model")
    verbs = vision.add_subparsers(dest="verb", required=True)
    read = verbs.add_parser("read", help="print the cards on the table in one image (JSON, shared/table-layout.md)")
    read.add_argument("image", metavar="IMAGE")
    read.add_argument("--model", type=Path, default=None, help="the ONNX model (default models/cards.onnx)")
    read.add_argument("--sure", type=Path, default=None, metavar="FILE", help=SURE_HELP)
    read.set_defaults(func=cmd_read)
    watch = verbs.add_parser("watch", help="watch a table and publish its plays (observed) over MQTT")
    watch.add_argument("--table", required=True, help="the table id, e.g. t07")
    watch.add_argument("--source", required=True, help="a camera index (0), a stream URL (rtsp://...) or a video file")
    add_options(watch, "camera-TABLE")
    watch.add_argument("--name", default=None, help="the camera's name in message ids (default cam-TABLE)")
    watch.add_argument("--decks", type=whole(1), default=3, help="decks in play (for the copies check, default 3)")
    watch.add_argument("--settle", type=positive, default=0.8, help="seconds cards must lie still (default 0.8)")
    watch.add_argument("--fps", type=positive, default=10.0, help="frames read per second (default 10)")
    watch.add_argument("--model", type=Path, default=None)
    watch.add_argument("--sure", type=Path, default=None, metavar="FILE", help=SURE_HELP)
    watch.add_argument("--size", type=frame_size, default=None, metavar="WxH",
                       help="ask the camera (by index) for this frame size, e.g. 2560x1920 (default: its own)")
    watch.set_defaults(func=cmd_watch)
    cal = verbs.add_parser("calibrate", help="write a PNG of the table, seat zones and cards the camera sees")
    cal.add_argument("--source", required=True, help="a camera index, a stream URL, a video or an image file")
    cal.add_argument("--out", type=Path, default=Path("calibration.png"))
    cal.add_argument("--frames", type=whole(1), default=100, help="frames to try before giving up (default 100)")
    cal.add_argument("--model", type=Path, default=None)
    cal.add_argument("--sure", type=Path, default=None, metavar="FILE", help=SURE_HELP)
    cal.add_argument("--size", type=frame_size, default=None, metavar="WxH",
                     help="ask the camera (by index) for this frame size (default: its own)")
    cal.set_defaults(func=cmd_calibrate)
    train = verbs.add_parser("train", help="train the recognition model from a seed (needs the train extra: torch)")
    train.add_argument("--part", choices=["detector", "index", "both"], default="both",
                       help="which network (default both)")
    train.add_argument("--seed", type=int, default=2026)
    length = train.add_mutually_exclusive_group()
    length.add_argument("--steps", type=whole(1), default=None, help="default: 4000 (detector), 3000 (index)")
    length.add_argument("--minutes", type=positive, default=None, help="train each network for this long instead")
    train.add_argument("--batch", type=whole(2), default=None, help="default: 32 tiles (detector), 96 patches (index)")
    train.add_argument("--width", type=positive, default=None,
                       help="the classifier's channels, times (default 1.5, as shipped; with --from, its own: a "
                            "greater one widens it, reading as before)")
    train.add_argument("--workers", type=whole(0), default=0, help="processes making the data (0: this one)")
    train.add_argument("--device", default="cpu", help="torch device, e.g. cuda (default cpu)")
    train.add_argument("--threads", type=whole(1), default=1, help="torch threads on the CPU")
    train.add_argument("--from", dest="start", type=Path, default=None, metavar="ONNX",
                       help="train one network further from this cards.onnx (--part detector) or index.onnx "
                            "(--part index; its width is kept unless --width is greater)")
    train.add_argument("--lr", type=positive, default=None, help="peak learning rate (default 3e-3)")
    train.add_argument("--decks", type=whole(0), default=0, metavar="N",
                       help="also train on N decks drawn from seeds (vision/train/synth/decks.py: needs Pillow and the "
                            "fonts listed in models/README.md; default 0: the committed art only)")
    train.add_argument("--checkpoint", type=Path, default=None, metavar="DIR",
                       help="save the run's state here as it goes (cards.ckpt, index.ckpt); the same command run "
                            "again goes on where it stopped")
    train.add_argument("--out", type=Path, default=Path("models"), help="the folder for cards.onnx and index.onnx")
    train.set_defaults(func=cmd_train)
    join = verbs.add_parser("join", help="make one index classifier of several: the mean of their probabilities "
                                         "(vision/train/join.py)")
    join.add_argument("classifiers", type=Path, nargs="+", metavar="INDEX_ONNX", help="two or more index.onnx files")
    join.add_argument("--out", type=Path, required=True, help="the joined classifier's file")
    join.add_argument("--rule", choices=("mean", "product"), default="mean",
                      help="mean: their probabilities' mean (default); product: their normalised geometric mean")
    join.set_defaults(func=cmd_join)
    deck = verbs.add_parser("deck", help="enrol a venue's deck: its faces become art the classifier is trained "
                                         "further on (needs the train extra: torch)")
    given = deck.add_mutually_exclusive_group(required=True)
    given.add_argument("--layout", type=Path, nargs="+", metavar="PHOTO",
                       help="1-4 photos by the table's camera of the 54 cards laid out in the order --order prints")
    given.add_argument("--faces", type=Path, metavar="DIR",
                       help="54 images named by card (SA.png .. C2.png, BJ.png, LJ.png): scans cropped to the card, "
                            "or photos of each card alone on a darker surface")
    given.add_argument("--order", action="store_true", help="print the order to lay the deck out in, and stop")
    deck.add_argument("--out", type=Path, metavar="DIR",
                      help="the venue's model folder (cards.onnx, index.onnx, the deck's art, the check pictures); "
                           "cameras then run with --model DIR/cards.onnx")
    deck.add_argument("--model", type=Path, default=None, help="the models to start from (default models/cards.onnx)")
    length = deck.add_mutually_exclusive_group()
    length.add_argument("--budget", type=positive, default=10.0,
                        help="minutes for the whole enrolment, training as long as that leaves (default 10)")
    length.add_argument("--steps", type=whole(1), default=None, help="train this many steps instead")
    deck.add_argument("--share", type=float, default=0.5, help="the deck's share of the patches (default 0.5)")
    deck.add_argument("--seed", type=int, default=2026)
    deck.add_argument("--lr", type=positive, default=5e-4, help="peak learning rate (default 5e-4)")
    deck.add_argument("--workers", type=whole(0), default=1, help="processes making the data (default 1)")
    deck.add_argument("--device", default="cpu", help="torch device, e.g. cuda (default cpu)")
    deck.add_argument("--camera", type=frame_size, default=None, metavar="WxH",
                      help="the venue's camera size, to train and fit the confidence at (default: the photos' own; "
                           "with --faces, 2560x1920 for the confidence and both 1280x960 and 2560x1920 to train)")
    deck.add_argument("--sure-frames", type=whole(1), default=None, metavar="N",
                      help="tables of the deck read to fit the confidence on (default: until each kind of read has "
                           "3,000, or its share of the budget passes: 1.5-4.5 minutes)")
    deck.add_argument("--sure-workers", type=whole(0), default=2, help="processes drawing and reading them (default 2)")
    deck.set_defaults(func=cmd_deck)
    sure = verbs.add_parser("sure", help="fit a classifier's confidence on reads of the deck it reads (a venue's "
                                         "enrolled deck, read longer than the enrolment could; a hall's decks)")
    sure.add_argument("--deck", required=True, metavar="STYLES",
                      help="the deck's art: an enrolled deck's folder (VENUE/deck) or art style names, comma separated")
    sure.add_argument("--model", type=Path, default=None,
                      help="the detector, the classifier index.onnx beside it (default models/cards.onnx)")
    sure.add_argument("--camera", type=frame_size, default=(2560, 1920), metavar="WxH",
                      help="the venue's camera size (default 2560x1920)")
    sure.add_argument("--detail", type=float, default=None, metavar="D",
                      help="the venue camera's detail, as `cardtable vision calibrate` prints it (camera px per "
                           "canonical px): the tables are photographed at it or up to 1.3 times finer, so the "
                           "calibration holds at it (default: as a camera of --camera size falls)")
    length = sure.add_mutually_exclusive_group()
    length.add_argument("--frames", type=whole(1), default=None, help="tables to read (default: until each kind of read "
                                                                  "has 9,000, enough to vouch for 0.05%%)")
    length.add_argument("--minutes", type=positive, default=None, help="read tables for this long instead")
    sure.add_argument("--seed", type=int, default=2027)
    sure.add_argument("--workers", type=whole(0), default=2, help="processes drawing and reading tables (default 2)")
    sure.add_argument("--check", type=int, default=None, metavar="N",
                      help="then read N fresh tables, never the fit's, and keep what it marks sure only if they "
                           "vouch for it (its own reads cannot: sure was chosen on them); where they do not, it marks "
                           "nothing sure and the command exits 1 (default: as many tables as the fit read; 0: no "
                           "check, the calibration kept unvouched; 500 tables hold about 18,000 reads); each check is kept "
                           "beside the calibration, and each after the first at its camera size must vouch at a "
                           "higher level (97.5%%, 98.75%%...)")
    sure.add_argument("--only-check", action="store_true",
                      help="fit nothing: check the calibration there now (an enrolment's) on fresh tables, at the "
                           "detail it records (--check N, default 500), keep it where they vouch for it and mark "
                           "nothing sure where they do not")
    sure.add_argument("--out", type=Path, default=None,
                      help="the calibration file (default: index.sure.json beside the classifier)")
    sure.set_defaults(func=cmd_sure)


def _model(path: Path | None, sure: Path | None = None):
    from vision.model import DEFAULT_MODEL, Model

    return Model(path or DEFAULT_MODEL, sure=sure)


def _fail(lang: str, key: str, status: int = 1, **values: object) -> int:
    """Say the catalogue's ``vision.<key>`` (an error) on stderr; the exit status."""
    print(f"cardtable vision: {say(lang, f'vision.{key}', **values)}", file=sys.stderr)
    return status


def _failed(lang: str, error: Exception, status: int = 1) -> int:
    """Say an error raised below (a model, a camera, a deck, the broker's address or credentials) on stderr."""
    print(f"cardtable vision: {said(error, lang)}", file=sys.stderr)
    return status


def cmd_read(args: argparse.Namespace) -> int:
    import cv2

    from vision.model import ModelError
    from vision.read import read_frame
    from vision.watch import coarse_said

    path = Path(args.image)
    if not path.is_file():
        return _fail(args.lang, "no_image", path=path)
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        return _fail(args.lang, "not_image", path=path)
    try:
        model = _model(args.model, args.sure)
        reading = read_frame(image, model)
    except (ModelError, ValueError) as e:
        return _failed(args.lang, e)
    print(reading.to_json())
    if not reading.calibrated:
        return _fail(args.lang, "not_calibrated_pixels", NOT_CALIBRATED, problem=said(reading.problem, args.lang))
    if reading.coarse:
        print(f"cardtable vision: {coarse_said(reading, model, args.lang)}", file=sys.stderr)
    return 0


def cmd_watch(args: argparse.Namespace) -> int:
    from vision.model import ModelError
    from vision.watch import SourceError, watch

    from bus.credentials import broker_url
    from cardtable.logs import setup_logging

    setup_logging()  # the client's reconnections; the plays sent are the command's output
    try:
        url = broker_url(args.broker, args.credentials, f"camera-{args.table}")
        return watch(args.source, args.table, url, _model(args.model, args.sure), name=args.name, decks=args.decks,
                     settle_s=args.settle, fps=args.fps, size=args.size, log=lambda line: print(line, flush=True),
                     lang=args.lang)
    except (ModelError, SourceError, ConnectionError, TimeoutError, ValueError) as e:
        return _failed(args.lang, e)


def cmd_calibrate(args: argparse.Namespace) -> int:
    import cv2

    from vision.calibrate import NotCalibrated, calibrate
    from vision.model import ModelError
    from vision.overlay import draw
    from vision.read import read_frame
    from vision.watch import IMAGE_SUFFIXES, SourceError, coarse_said, nothing_sure_said, open_source

    try:
        model = _model(args.model, args.sure)
        if Path(args.source).suffix.lower() in IMAGE_SUFFIXES:
            image = cv2.imread(args.source, cv2.IMREAD_COLOR)
            if image is None:
                return _fail(args.lang, "not_image", path=args.source)
            frames = [image]
        else:
            cap, _ = open_source(args.source, args.size)
            frames = (f for ok, f in (cap.read() for _ in range(args.frames)) if ok)
    except (ModelError, SourceError) as e:
        return _failed(args.lang, e)
    problem = say(args.lang, "vision.no_frame")
    for frame in frames:
        try:
            calibration = calibrate(frame)
        except NotCalibrated as e:
            problem = said(e, args.lang)
            continue
        reading = read_frame(frame, model, calibration)
        if not cv2.imwrite(str(args.out), draw(frame, calibration, reading)):
            return _fail(args.lang, "cannot_write", path=args.out)
        print(say(args.lang, "vision.calibrated", path=args.out, markers=sorted(calibration.markers),
                  seats=", ".join(f"{s} {len(v)}" for s, v in reading.seats().items())))
        print(detail_note(frame, calibration, args.lang))
        if reading.coarse:  # the deck's calibration was fitted on finer frames: at this camera nothing is sure
            print(coarse_said(reading, model, args.lang))
        if nothing := nothing_sure_said(model, args.lang):
            print(nothing)
        return 0
    return _fail(args.lang, "not_calibrated", NOT_CALIBRATED, problem=problem)


def whole(low: int):
    """An argparse type: a whole number of at least ``low``, else an error in words.

    >>> whole(1)("3"), whole(0)("0")
    (3, 0)
    """
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if value < low:
            raise argparse.ArgumentTypeError(say(cli_lang(), "vision.whole_number", low=low, value=repr(text)))
        return value
    return parse


def positive(text: str) -> float:
    """An argparse type: a finite number above 0, else an error in words.

    >>> positive("0.5")
    0.5
    """
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(say(cli_lang(), "vision.positive", value=repr(text)))
    return value


def frame_size(text: str) -> tuple[int, int]:
    w, x, h = text.lower().partition("x")
    if not (x and w.isdigit() and h.isdigit() and int(w) >= 32 and int(h) >= 32):
        raise argparse.ArgumentTypeError(say(cli_lang(), "vision.frame_size", size=repr(text)))
    return int(w), int(h)


# Below this detail even a deck enrolled at the venue's own camera is read worse (``models/README.md``, "An enrolled
# deck on more tables, and by the detail of the frame"): at 1920 x 1080 it missed 4% of its cards below 0.85, 1-2% up
# to this, and about 0.5% above it (0.54% on 300 fresh tables under cameras at 1.05-1.27, the twenty-fifth
# session's "An enrolled deck at 1920 x 1080 under a camera mounted as asked"; 1 of 766 on fewer, before)
ENROLLED_DETAIL = 1.05


def detail_note(frame, calibration, lang: str = "zh") -> str:
    """How finely the camera sees the cards: its px per canonical px at the table's centre (``vision/README.md``),
    and what a venue loses below 1.6 (a deck never seen) and ``ENROLLED_DETAIL`` (an enrolled deck too)."""
    px = calibration.detail
    h, w = frame.shape[:2]
    note = say(lang, "vision.detail", width=w, height=h, px=f"{px:.2f}")
    return note + (say(lang, "vision.detail_low") if px < 1.6 else "") + enrolled_advice(px, lang)


# Below this detail an enrolled deck's confidence was seldom vouched for by fresh tables (`models/README.md`, "Sure
# only where fresh tables vouch for it"): at 1920 x 1080 (1.05-1.3) 1 check in 6 vouched, at 2560 x 1920 (about 2) 5
# in 6; where none does, nothing is sure and every play goes to a person
VOUCHED_DETAIL = 1.6


def enrolled_advice(px: float, lang: str = "zh") -> str:
    """What a venue whose camera shows the table at ``px`` loses with an enrolled deck, and what to do; "" from
    ``VOUCHED_DETAIL`` up."""
    if px < ENROLLED_DETAIL:
        return say(lang, "vision.detail_enrolled_low", least=ENROLLED_DETAIL)
    return say(lang, "vision.detail_unvouched", finer=VOUCHED_DETAIL) if px < VOUCHED_DETAIL else ""


def cmd_train(args: argparse.Namespace) -> int:
    try:
        from vision.train import detector, index
    except ImportError as e:
        return _fail(args.lang, "train_extra", error=e)
    if args.start and args.part == "both":
        return _fail(args.lang, "from_part")
    if args.start and not args.start.is_file():
        return _fail(args.lang, "from_missing", path=args.start)
    if args.start:
        part = detector if args.part == "detector" else index
        try:
            own = part.from_onnx(args.start)
        except Exception:  # not ONNX at all, or another network
            what = say(args.lang, f"vision.part_{'detector' if part is detector else 'classifier'}")
            return _fail(args.lang, "from_not", path=args.start, what=what, part=args.part)
        if part is index and args.width and round(24 * args.width) < own.body[0][0].out_channels:
            return _fail(args.lang, "from_narrower", width=f"{args.width:g}", own=f"{own.fc.in_features / 96:g}")
    args.out.mkdir(parents=True, exist_ok=True)

    def log(line: str) -> None:
        print(line, flush=True)

    from vision.train.synth import decks
    from vision.train.synth.scene import TRAIN_STYLES

    if args.checkpoint:
        args.checkpoint.mkdir(parents=True, exist_ok=True)
    common = {"seed": args.seed, "minutes": args.minutes, "workers": args.workers, "device": args.device,
              "threads": args.threads, "styles": [*TRAIN_STYLES, *decks.names(0, args.decks)],
              "log": log} | ({"lr": args.lr} if args.lr else {})

    def checkpoint(name: str) -> Path | None:
        return args.checkpoint / name if args.checkpoint else None

    if args.part in ("detector", "both"):
        steps = None if args.minutes else args.steps or 4000
        log(str(detector.train(args.out / "cards.onnx", steps=steps, batch=args.batch or 32, start=args.start,
                            checkpoint=checkpoint("cards.ckpt"), **common)))
    if args.part in ("index", "both"):
        steps = None if args.minutes else args.steps or 3000
        log(str(index.train(args.out / "index.onnx", steps=steps, batch_size=args.batch or 96,
                                  width=args.width or (None if args.start else 1.5), start=args.start, checkpoint=checkpoint("index.ckpt"), **common)))
    return 0


def cmd_join(args: argparse.Namespace) -> int:
    from vision.train.join import join

    try:
        join(args.classifiers, args.out, args.rule)
    except (ValueError, OSError) as e:
        return _fail(args.lang, "join", error=e)
    rule = say(args.lang, {"mean": "vision.rule_mean", "product": "vision.rule_product"}[args.rule])
    print(say(args.lang, "vision.joined", out=args.out, n=len(args.classifiers), rule=rule))
    return 0


RESERVE_MIN = 1.5  # of an enrolment's budget, kept for the check at its end (reading the photos back, the pictures)
# and before that, for reading tables of the deck to fit the enrolled classifier's confidence on: what ``sure.WANT``
# reads of each kind take on this machine (``sure.pace``), within these minutes
SURE_MIN = (1.5, 4.5)


def cmd_deck(args: argparse.Namespace) -> int:
    import fcntl
    import shutil
    import time

    from vision.model import DEFAULT_MODEL
    from vision.train import tries
    from vision.train.deck import DeckError, read_faces

    started = time.time()
    if args.order:
        from vision.train.enrol import order_text

        print(order_text())
        return 0
    if args.out is None:
        return _fail(args.lang, "out_needed")
    args.out = Path(os.path.abspath(args.out))  # `--out .` too has a name to build beside (``_publish``)
    detector = Path(args.model or DEFAULT_MODEL)
    classifier = detector.with_name("index.onnx")
    if not (detector.is_file() and classifier.is_file()):
        return _fail(args.lang, "no_model", detector=detector, classifier=classifier)
    if args.out.resolve() == detector.parent.resolve():
        return _fail(args.lang, "out_own")
    if not 0 < args.share < 1:
        return _fail(args.lang, "share")
    if args.budget < RESERVE_MIN + SURE_MIN[1] + 2:
        return _fail(args.lang, "budget", budget=args.budget, least=RESERVE_MIN + SURE_MIN[1] + 2)
    if not _replaceable(args.out):
        return _fail(args.lang, "out_taken", path=args.out)
    frames, laid = [], []
    try:
        if args.layout:
            faces, frames, laid = _laid_faces(args.layout)
        else:
            faces = read_faces(args.faces)
    except DeckError as e:
        return _fail(args.lang, "faces", faces=args.faces or "--layout", error=said(e, args.lang))  # names its file
    final = args.out
    lock = final.with_name(final.name + ".enrolling.lock")  # one enrolment at a time into a folder
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
        held = open(lock, "w")
    except OSError as e:
        return _fail(args.lang, "write_folder", path=final, error=e)
    with held:
        try:
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)  # let go by the system however this process ends
        except BlockingIOError:
            return _fail(args.lang, "out_busy", path=final)
        checks = None  # a venue's folder enrolled before: no `vision sure` may check its confidence meanwhile, and
        if (final / "index.sure.json").is_file():  # none may be checking it now (it would write into the new folder)
            try:
                checks = tries.hold(final / "index.sure.json")
            except tries.Busy:
                return _fail(args.lang, "sure_busy", path=final / "index.sure.json")
            except OSError as e:
                return _fail(args.lang, "write_folder", path=final, error=e)
        args.out = final.with_name(final.name + ".enrolling")  # built here, then moved
        try:
            return _enrol(args, final, detector, classifier, faces, frames, laid, started)
        finally:
            shutil.rmtree(args.out, ignore_errors=True)  # what a failed run built; a run killed leaves it to the next
            lock.unlink(missing_ok=True)
            if checks is not None:
                checks.close()


def _replaceable(out: Path) -> bool:
    """Whether an enrolment may put its folder at ``out``: nothing there, an empty folder, or a venue's folder
    enrolled before (``index.base.json``), which the new one replaces only once it is whole (``_publish``)."""
    from vision.model import base_path

    return not out.exists() or out.is_dir() and (not any(out.iterdir()) or base_path(out / "index.onnx").is_file())


def _publish(work: Path, out: Path) -> None:
    """The enrolment's whole folder ``work`` becomes ``out``: the folder there before (``_replaceable``) is set
    aside, ``work`` renamed into its place (the same filesystem: the venue's folder is the old one or the new one,
    whole, never part of either), and the old one removed. The checks of the old one's confidence (``tries``) go on
    into the new one's ledger: enrolling again and checking again is another try, not a first."""
    import shutil

    from vision.train import tries

    old = out.with_name(out.name + ".replaced")
    shutil.rmtree(old, ignore_errors=True)
    ledger = tries.ledger_of(out / "index.sure.json")
    if ledger.is_file():
        shutil.copyfile(ledger, work / ledger.name)
    if out.exists():
        out.rename(old)
    work.rename(out)
    shutil.rmtree(old, ignore_errors=True)


def _enrol(args, final: Path, detector: Path, classifier: Path, faces, frames, laid, started: float) -> int:
    """``cmd_deck`` once its input is read: the venue's folder built in ``args.out`` and moved to ``final``."""
    import math
    import shutil

    from vision.model import keep_base
    from vision.train.deck import DeckError, write_style
    from vision.train.enrol import photos_detail

    try:
        from vision.train import index
        from vision.train.synth.scene import TRAIN_STYLES
    except ImportError as e:
        return _fail(args.lang, "train_extra", error=e)
    try:
        shutil.rmtree(args.out, ignore_errors=True)  # a run killed before left its part here
        style = str(write_style(faces, args.out / "deck"))
        shutil.copyfile(detector, args.out / "cards.onnx")
        keep_base(classifier, args.out / "index.onnx")  # names the cards unlike the deck's (``Model.base``)
    except (DeckError, OSError) as e:
        return _fail(args.lang, "write_folder", path=final, error=said(e, args.lang))
    copies = math.ceil(args.share * len(TRAIN_STYLES) / (1 - args.share))  # the deck drawn at about --share
    camera = args.camera or ((frames[0].shape[1], frames[0].shape[0]) if frames else (2560, 1920))
    detail = photos_detail(frames)  # the calibration's tables are photographed at the venue camera's detail
    if detail is not None:  # and a camera too far for an enrolled deck is told now, not after the evening
        print(say(args.lang, "vision.photos_detail", px=f"{detail:.2f}") + enrolled_advice(detail, args.lang), flush=True)
    sure_by = until = None
    line = say(args.lang, "vision.training_steps", steps=args.steps)
    if not args.steps:
        from vision.train import sure

        sure_s = min(max(sure.pace(detector, classifier, [style], camera, seed=args.seed, workers=args.sure_workers,
                                   detail=detail), SURE_MIN[0] * 60), SURE_MIN[1] * 60)
        sure_by = started + (args.budget - RESERVE_MIN) * 60
        until = sure_by - sure_s
        line = say(args.lang, "vision.training_until", minute=f"{(until - started) / 60:.1f}", sure=f"{sure_s / 60:.1f}")
    print(line, flush=True)
    run = index.train(args.out / "index.onnx", seed=args.seed, steps=args.steps, until=until,
                            workers=args.workers, device=args.device, start=classifier, lr=args.lr,
                            styles=[*TRAIN_STYLES, *[style] * copies], own=style,
                            camera=camera if args.camera or frames else None,  # trained as the venue's camera sees
                            log=progress(args.steps, until, sure_by, started, args.lang))
    print(run, flush=True)
    return _fit_sure(args, final, style, camera, frames, laid, sure_by, started, detail)


def _fit_sure(args, final: Path, style: str, camera: tuple[int, int], frames, laid, sure_by: float | None,
              started: float, detail: float | None = None) -> int:
    """The end of an enrolment: the enrolled classifier's confidence fitted on reads of the deck (tables of it drawn
    at ``camera`` size, and at the laid-out photos' ``detail`` when they show the markers, and the laid-out photos
    read back), then the check pictures."""
    import time

    import cv2

    from vision import confidence
    from vision.fingerprint import FingerprintError
    from vision.model import Model
    from vision.sanity import SURE
    from vision.train import enrol, sure

    classifier = args.out / "index.onnx"
    print(say(args.lang, "vision.sure_fitting", camera=f"{camera[0]}x{camera[1]}"), flush=True)
    looked: list = []
    reads = sure.reads(args.out / "cards.onnx", classifier, [style], camera, seed=args.seed + 1, want=sure.WANT,
                       frames=args.sure_frames, until=sure_by, workers=args.sure_workers,
                       log=_sure_progress(args.lang, "  "), looks=looked, detail=detail)
    model = Model(args.out / "cards.onnx", calibrated=False)
    readings, wrong, laid_reads = enrol.read_back(frames, laid, model) if laid else ([], {}, [])
    try:
        cal = sure.calibration(reads + laid_reads, f"the enrolled deck at {camera[0]}x{camera[1]}, "
                                                   f"{len(laid_reads)} of them from the laid-out photos", looked=looked,
                               vouch=False)  # too few reads within the budget to vouch: a check does (bench_enrol)
    except FingerprintError as e:
        return _fail(args.lang, "few_reads", error=e)
    cal.write(confidence.path_for(classifier), classifier)
    print(_sure_said(args.lang, sure.outcome(reads + laid_reads, cal)), flush=True)
    print(_deck_said(args.lang, cal.deck), flush=True)
    if cal.detail is not None:
        print(_detail_said(args.lang, cal), flush=True)
    if laid:
        shown = enrol.pictures(frames, laid, readings,
                               lambda c: cal.confidence(c.raw, c.corners) >= SURE and (cal.deck is None or cal.deck.ours(c.name, c.looks)))
        for i, picture in enumerate(shown):
            cv2.imwrite(str(args.out / f"check-{i + 1}.png"), picture)
    try:
        _publish(args.out, final)
    except OSError as e:
        return _fail(args.lang, "write_folder", path=final, error=e)
    if laid:
        misread = [say(args.lang, "vision.misread", card=card, got=got) if got else say(args.lang, "vision.missed", card=card)
                   for card, got in wrong.items()]
        print(say(args.lang, "vision.check", right=len(laid) - len(wrong), laid=len(laid), path=final,
                  misread=", ".join(misread) or say(args.lang, "vision.none")))
    print(say(args.lang, "vision.took", minutes=f"{(time.time() - started) / 60:.1f}"))
    print(say(args.lang, "vision.enrolled", model=final / "cards.onnx"))
    print(say(args.lang, "vision.enrolled_unvouched", deck=final / "deck", model=final / "cards.onnx",
              camera=f"{camera[0]}x{camera[1]}"))
    return 0


def cmd_sure(args: argparse.Namespace) -> int:
    import time

    from vision import confidence
    from vision.model import DEFAULT_MODEL
    from vision.train import tries
    from vision.train.synth.render import art

    detector = Path(args.model or DEFAULT_MODEL)
    classifier = detector.with_name("index.onnx")
    if not (detector.is_file() and classifier.is_file()):
        return _fail(args.lang, "sure_no_model", detector=detector, classifier=classifier)
    styles = [str(Path(s).resolve()) if Path(s).is_dir() else s for s in args.deck.split(",") if s.strip()]
    if not styles:
        return _fail(args.lang, "no_deck", deck=repr(args.deck), error=say(args.lang, "vision.deck_empty"))
    for style in styles:
        try:
            art(style, "SA")
        except (FileNotFoundError, ValueError) as e:
            return _fail(args.lang, "no_deck", deck=style, error=e)
    out = args.out or confidence.path_for(classifier)
    started = time.time()
    if args.detail is not None and not 0.1 <= args.detail <= 10:
        return _fail(args.lang, "bad_detail", detail=args.detail)
    if args.check is not None and args.check < 0:
        return _fail(args.lang, "bad_check", n=args.check)
    if args.only_check and (args.frames or args.minutes or args.check == 0):
        return _fail(args.lang, "only_check_args")
    if args.only_check and not out.is_file():
        return _fail(args.lang, "only_check_none", path=out)
    try:
        held = tries.hold(out)  # one run at a time fits or checks the calibrations of this folder
    except tries.Busy:
        return _fail(args.lang, "sure_busy", path=out)
    except OSError:
        return _fail(args.lang, "cannot_write", path=tries.ledger_of(out))
    with held:
        if args.only_check:
            return _only_check(args, detector, styles, out, started)
        return _fit_and_check(args, detector, styles, out, started)


def _fit_and_check(args: argparse.Namespace, detector: Path, styles: list[str], out: Path, started: float) -> int:
    """`vision sure`: the calibration fitted on reads of the deck's tables, then checked (``_vouched_write``)."""
    from vision.fingerprint import FingerprintError
    from vision.train import sure

    classifier = detector.with_name("index.onnx")
    looked: list = []
    reads = sure.reads(detector, classifier, styles, args.camera, seed=args.seed,
                       want=None if args.frames or args.minutes else sure.VOUCH_WANT, frames=args.frames,
                       until=started + args.minutes * 60 if args.minutes else None, workers=args.workers,
                       log=_sure_progress(args.lang, "", args.frames), looks=looked, detail=args.detail)
    size = f"{args.camera[0]}x{args.camera[1]}"
    try:
        cal = sure.calibration(reads, f"{args.deck} at {size}, seed {args.seed}", looked=looked)
    except FingerprintError as e:
        return _fail(args.lang, "few_reads", error=e)
    print(_sure_said(args.lang, sure.outcome(reads, cal)), flush=True)
    print(_deck_said(args.lang, cal.deck))
    if cal.detail is not None:
        print(_detail_said(args.lang, cal))
    tables = len({frame for _, _, frame, *_ in looked}) if args.check is None else args.check
    return _vouched_write(args, cal, tables, detector, styles, out, started)


def _only_check(args: argparse.Namespace, detector: Path, styles: list[str], out: Path, started: float) -> int:
    """`vision sure --only-check`: the calibration at ``out`` checked as it is, on fresh tables drawn at the detail
    it records (``_vouched_write``)."""
    from vision import confidence

    try:
        cal = confidence.load(detector.with_name("index.onnx"), out)
    except confidence.CalibrationError as e:
        return _failed(args.lang, e)
    args.detail = cal.detail if args.detail is None else args.detail
    return _vouched_write(args, cal, ONLY_CHECK if args.check is None else args.check, detector, styles, out, started)


ONLY_CHECK = 500  # tables `vision sure --only-check` reads by default (about 18,000 reads at 2560 x 1920)
# A check whose reads the calibration would mark sure by its thresholds are mostly unlike its deck or coarser than its
# frames was given the tables of another deck or camera (a slip of `--deck`, `--camera`): at least this many such
# reads and more than this share of them refuse it, changing nothing. On four tables under the hall's calibration: its
# own decks 0 of 163; `mono` (a font deck much like `sans`) 8 of 158, not refused; `dingbats` 131 of 160, refused.
OTHER_TABLES = (50, 0.5)


def _vouched_write(args: argparse.Namespace, cal, tables: int, detector: Path, styles: list[str], out: Path,
                   started: float) -> int:
    """The end of `vision sure`: ``cal`` checked on ``tables`` fresh tables (none: kept unvouched, and said so), kept
    where they vouch for it and written marking nothing sure where they do not (``sure.vouched_by``), then written to
    ``out`` once, whole: a run killed before leaves the file there before. 0 when it stands vouched or unchecked."""
    import time

    from vision.confidence import upper
    from vision.train import sure, tries

    vouched = not tables  # unchecked (`--check 0`): kept as fitted, and said so
    if tables and not cal.marks_sure():
        print(say(args.lang, "vision.sure_nothing_to_check"))  # every read to a person already: nothing to vouch for
    elif tables:
        level = _check_level(args, out)
        print(say(args.lang, "vision.sure_checking", tables=tables), flush=True)
        fig = sure.checked(detector, styles, args.camera, tables, args.seed, cal, workers=args.workers,
                           detail=args.detail, log=_sure_progress(args.lang, "  ", tables))["all"]
        before = fig["sure"] + fig["unlike"]  # what its thresholds alone mark sure
        if before >= OTHER_TABLES[0] and fig["unlike"] > OTHER_TABLES[1] * before:  # another deck, or camera: refused
            return _fail(args.lang, "sure_other_tables", share=f"{fig['unlike'] / before:.0%}", path=out)
        cal = sure.vouched_by(cal, {"all": fig}, tables, level)
        vouched = cal.marks_sure()
        bound = upper(fig["sure_wrong"], fig["sure"], level)
        try:  # the try counted before the calibration is written: killed between, it stays counted
            tries.record(out, {"camera": f"{args.camera[0]}x{args.camera[1]}", "deck": args.deck, "seed": args.seed,
                               "tables": tables, "sure": fig["sure"], "wrong": fig["sure_wrong"], "level": level,
                               "vouched": vouched, "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})
        except OSError:
            return _fail(args.lang, "cannot_write", path=tries.ledger_of(out))
        verdict = say(args.lang, "vision.sure_vouched" if vouched else "vision.sure_not_vouched",
                      target=f"{cal.target:.2%}")
        print(say(args.lang, "vision.sure_checked", tables=tables, wrong=fig["sure_wrong"], sure=fig["sure"],
                  share=f"{fig['sure_wrong_share']:.3%}", bound=f"{bound:.3%}", level=f"{level * 100:.4g}%",
                  flagged=f"{fig['flagged']:.1%}", verdict=verdict))
    classifier = detector.with_name("index.onnx")
    try:
        cal.write(out, classifier)
    except OSError:
        return _fail(args.lang, "cannot_write", path=out)
    print(say(args.lang, "vision.sure_wrote", path=out, minutes=f"{(time.time() - started) / 60:.1f}"))
    if not tables:
        print(say(args.lang, "vision.sure_unchecked"))
    return 0 if vouched else 1


def _check_level(args: argparse.Namespace, out: Path) -> float:
    """The level this check of ``out`` vouches at, after the checks of it before at this camera (``tries``), said
    where it is not the first."""
    from vision.train import tries

    camera, ledger = f"{args.camera[0]}x{args.camera[1]}", tries.ledger_of(out)
    before, unread = tries.tries_before(out, camera)  # its folder held by this run (``tries.hold``)
    if unread:
        print(say(args.lang, "vision.sure_ledger_unread", n=unread, ledger=ledger))
    level = tries.level(before)
    if before:
        print(say(args.lang, "vision.sure_try", n=before + 1, path=out, camera=camera, ledger=ledger,
                  level=f"{level * 100:.4g}%"))
    return level


def _sure_progress(lang: str, indent: str = "", tables: int | None = None):
    """A log for ``sure.reads``: how many frames and reads of each kind, in words; with ``tables`` (how many it will
    read), also about how many minutes are left, at the pace so far."""
    import time

    started = time.time()

    def log(frames: int, both: int, one: int) -> None:
        line = say(lang, "vision.sure_progress", frames=frames, both=both, one=one)
        if tables:
            left = (time.time() - started) / frames * max(0, tables - frames) / 60
            line += say(lang, "vision.sure_left", tables=tables, minutes=f"{left:.1f}")
        print(indent + line, flush=True)
    return log


def _sure_said(lang: str, outcome: dict[str, dict]) -> str:
    """``sure.outcome`` in words: per kind of read, how many, and where sure begins or that none can be sure."""
    parts = []
    for kind, f in outcome.items():
        name = say(lang, f"vision.corners_{kind}")
        parts.append(say(lang, "vision.sure_none", kind=name, reads=f["reads"]) if f["at"] is None else
                     say(lang, "vision.sure_from", kind=name, reads=f["reads"], at=f"{f['at']:.6f}", sure=f["sure"],
                         right=f["right_sure"], rights=f["right"], wrong=f["sure"] - f["right_sure"]))
    return say(lang, "vision.sure_sep").join(parts)


def _deck_said(lang: str, deck) -> str:
    """What a deck's fingerprint holds, in words (None: too few reads fitted one, and nothing is sure)."""
    if deck is None:
        return say(lang, "vision.fingerprint_none")
    said = say(lang, "vision.fingerprint", cards=len(deck.centres), reach=f"{deck.reach:.3f}")
    if deck.apart is None:
        return said
    near, far = deck.apart
    return said + "\n" + say(lang, "vision.fingerprint_apart", near=f"{1 - near:.1%}", far=f"{far - 1:.1%}")


def _detail_said(lang: str, cal) -> str:
    """How fine a frame a deck's calibration holds for (``Calibration.holds_at``), in words."""
    from vision.confidence import DETAIL_SLACK

    return say(lang, "vision.sure_detail", least=f"{cal.detail:.2f}", slack=f"{DETAIL_SLACK:.0%}")


def _laid_faces(photos: list[Path]):
    """The faces of a deck laid out in ``photos`` (art, by card), the frames and the cards found in them."""
    import cv2

    from vision.train.deck import DeckError, art_width, face_art
    from vision.train.enrol import laid_out

    frames = []
    for path in photos:
        if not Path(path).is_file():
            raise DeckError("no_photo", file=path)
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise DeckError("not_image", file=path)
        frames.append(image)
    laid = laid_out(frames)
    width = art_width([c.face for c in laid])
    return {c.card: face_art(c.face, width) for c in laid}, frames, laid


def progress(steps: int | None, until: float | None, sure_by: float | None, started: float, lang: str = "zh"):
    """A training log that says, in words, how far the enrolment is and how long is left (training ends after
    ``steps``, or at the time ``until``; the confidence's fit by ``sure_by``)."""
    import json
    import time

    def log(line: str) -> None:
        entry = json.loads(line) if line.startswith("{") else {}
        if "step" in entry:
            now = time.time()
            per_step = entry["s"] / max(entry["step"], 1)
            left = (steps - entry["step"]) * per_step if steps else max(0.0, until - now)
            done = entry["step"] / steps if steps else 1 - left / max(until - started, 1)
            left += (sure_by - until if until else 0) + 30  # the confidence's fit and the check after training
            print(say(lang, "vision.progress", done=f"{done:.0%}", left=f"{left / 60:.1f}", loss=entry["loss"],
                      so_far=f"{(now - started) / 60:.1f}"), flush=True)
        elif "start_up_s" in entry:
            print(say(lang, "vision.data_ready", s=entry["start_up_s"]), flush=True)

    return log
