"""``cardtable vision``: read a frame, watch a table, check a table's calibration; and the training's commands
(train the model, join classifiers, enrol a deck, fit its confidence: :mod:`vision.train.cli`).

Heavy imports (OpenCV, onnxruntime, torch) happen inside the handlers only."""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

from bus.credentials import add_options
from cardtable.lang import FAILED, REFUSED, refuse
from referee.catalogue import said, say
from vision.advice import detail_note
from vision.options import fail, frame_size, positive, rulebook, stoppable, table_game, whole
from vision.train.cli import add_parsers

NOT_CALIBRATED = 2  # exit status of `read` and `calibrate` for a frame without the four markers


SURE_HELP = ("the confidence calibration to read with (default: index.sure.json beside the classifier); a deck's (an "
             "enrolled venue's, models/hall.sure.json) marks sure only reads that look like that deck")


def add_parser(sub: argparse._SubParsersAction) -> None:
    vision = sub.add_parser("vision", help="the camera: read a frame, watch a table, check calibration, train the model")
    verbs = vision.add_subparsers(dest="verb", required=True)
    read = verbs.add_parser("read", help="print the cards on the table in one image (JSON, shared/table-layout.md)")
    read.add_argument("image", metavar="IMAGE", help="a picture of the table from its camera (PNG, JPEG)")
    read.add_argument("--model", type=Path, default=None, help="the ONNX model (default models/cards.onnx)")
    read.add_argument("--sure", type=Path, default=None, metavar="FILE", help=SURE_HELP)
    read.set_defaults(func=cmd_read)
    watch = verbs.add_parser("watch", help="watch a table and publish its plays (observed) over MQTT")
    watch.add_argument("--table", required=True, help="the table id, e.g. t07")
    watch.add_argument("--source", required=True,
                       help="a camera index (0) or device path (/dev/v4l/by-id/...), a stream URL (rtsp://...) or a video file")
    add_options(watch, "camera-TABLE")
    watch.add_argument("--name", default=None, help="the camera's name in message ids (default cam-TABLE)")
    watch.add_argument("--rulebook", type=rulebook, default=None, help="the table's rulebook id: its decks, and whether its seats play "
                       "again within a trick (the climbing games); default: a Tractor table of --decks")
    watch.add_argument("--decks", type=whole(1), default=None, help="decks in play (for the copies check; default the "
                       "rulebook's, else 3)")
    watch.add_argument("--settle", type=positive, default=0.8, help="seconds cards must lie still (default 0.8)")
    watch.add_argument("--fps", type=positive, default=10.0, help="frames read per second (default 10)")
    watch.add_argument("--model", type=Path, default=None, help="the ONNX model (default models/cards.onnx)")
    watch.add_argument("--sure", type=Path, default=None, metavar="FILE", help=SURE_HELP)
    watch.add_argument("--size", type=frame_size, default=None, metavar="WxH",
                       help="ask the camera (by index) for this frame size, e.g. 2560x1920 (default: its own)")
    watch.set_defaults(func=cmd_watch)
    cal = verbs.add_parser("calibrate", help="write a PNG of the table, seat zones and cards the camera sees")
    cal.add_argument("--source", required=True, help="a camera index or device path, a stream URL, a video or an image file")
    cal.add_argument("--out", type=Path, default=Path("calibration.png"), help="the PNG to write (default calibration.png)")
    cal.add_argument("--frames", type=whole(1), default=100, help="frames to try before giving up (default 100)")
    cal.add_argument("--model", type=Path, default=None, help="the ONNX model (default models/cards.onnx)")
    cal.add_argument("--sure", type=Path, default=None, metavar="FILE", help=SURE_HELP)
    cal.add_argument("--size", type=frame_size, default=None, metavar="WxH",
                     help="ask the camera (by index) for this frame size (default: its own)")
    cal.set_defaults(func=cmd_calibrate)
    add_parsers(verbs)
    for verb in verbs.choices.values():  # Ctrl-C in any of them is said in words, as what it leaves is
        verb.set_defaults(func=stoppable(verb.get_default("func")))


def _model(path: Path | None, sure: Path | None = None):
    from vision.model import DEFAULT_MODEL, Model

    return Model(path or DEFAULT_MODEL, sure=sure)


def cmd_read(args: argparse.Namespace) -> int:
    import cv2

    from vision.model import ModelError
    from vision.read import read_frame
    from vision.watch import coarse_said

    path = Path(args.image)
    if not path.is_file():
        return fail(args, "no_image", path=path)
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        return fail(args, "not_image", path=path)
    try:
        model = _model(args.model, args.sure)
        reading = read_frame(image, model)
    except (ModelError, ValueError) as e:
        return refuse(args, e)
    print(reading.to_json())
    if not reading.calibrated:
        return fail(args, "not_calibrated_pixels", NOT_CALIBRATED, problem=said(reading.problem, args.lang))
    if reading.coarse:
        print(f"{args.prog}: {coarse_said(reading, model, args.lang)}", file=sys.stderr)
    return 0


def _interrupted(signum, frame) -> None:
    raise KeyboardInterrupt  # the watch stops as on Ctrl-C, between two frames


def cmd_watch(args: argparse.Namespace) -> int:
    from vision.model import ModelError
    from vision.watch import SourceError, watch

    from bus.credentials import broker_url
    from bus.mqtt import TAKEN_OVER_EXIT
    from cardtable.logs import setup_logging

    setup_logging()  # the client's reconnections; the plays sent are the command's output
    for stop in (signal.SIGTERM, signal.SIGINT):  # a service stopped (systemd's SIGTERM), or Ctrl-C, even where the
        signal.signal(stop, _interrupted)  # shell started it with SIGINT ignored: camera/status says offline, its own
    try:
        url = broker_url(args.broker, args.credentials, f"camera-{args.table}")
        game, decks = table_game(args.rulebook, args.decks)  # a rulebook of ours: the option's type checked it
        return watch(args.source, args.table, url, _model(args.model, args.sure), name=args.name, decks=decks, game=game,
                     settle_s=args.settle, fps=args.fps, size=args.size, log=lambda line: print(line, flush=True),
                     lang=args.lang)
    except SourceError as e:  # taken over: a status of its own, which the hall's unit does not restart into a fight
        return refuse(args, e, TAKEN_OVER_EXIT if e.key == "vision.error.taken_over" else FAILED)
    except ModelError as e:  # a damaged or wrong model: started again it would fail again, so its unit waits for a person
        return refuse(args, e, REFUSED)
    except (ConnectionError, TimeoutError, ValueError) as e:
        return refuse(args, e, FAILED)


def cmd_calibrate(args: argparse.Namespace) -> int:
    import cv2

    from vision.calibrate import NotCalibrated, UnusableFrame, calibrate
    from vision.model import ModelError
    from vision.overlay import draw
    from vision.read import read_frame
    from vision.watch import IMAGE_SUFFIXES, SourceError, coarse_said, nothing_sure_said, open_source
    from vision.whole import whole as write_whole

    try:
        model = _model(args.model, args.sure)
        if Path(args.source).suffix.lower() in IMAGE_SUFFIXES:
            if not Path(args.source).is_file():  # said before OpenCV's own warning in English
                return fail(args, "no_image", path=args.source)
            image = cv2.imread(args.source, cv2.IMREAD_COLOR)
            if image is None:
                return fail(args, "not_image", path=args.source)
            frames = [image]
        else:
            cap = open_source(args.source, args.size)
            frames = (f for ok, f in (cap.read() for _ in range(args.frames)) if ok)
    except (ModelError, SourceError) as e:
        return refuse(args, e)
    problem = say(args.lang, "vision.no_frame")
    for frame in frames:
        try:
            calibration = calibrate(frame)
        except (NotCalibrated, UnusableFrame) as e:
            problem = said(e, args.lang)
            continue
        reading = read_frame(frame, model, calibration)
        png = cv2.imencode(".png", draw(frame, calibration, reading))[1].tobytes()  # a PNG whatever --out's suffix
        try:  # whole or not at all: a full disk leaves the picture there before as it was
            write_whole(args.out, lambda to: Path(to).write_bytes(png))
        except OSError as e:
            return fail(args, "cannot_write", path=args.out, error=e)
        print(say(args.lang, "vision.calibrated", path=args.out, markers=sorted(calibration.markers),
                  seats=", ".join(f"{s} {len(v)}" for s, v in reading.seats().items())))
        print(detail_note(frame, calibration, args.lang))
        if reading.coarse:  # the deck's calibration was fitted on finer frames: at this camera nothing is sure
            print(coarse_said(reading, model, args.lang))
        if nothing := nothing_sure_said(model, args.lang):
            print(nothing)
        return 0
    return fail(args, "not_calibrated", NOT_CALIBRATED, problem=problem)
