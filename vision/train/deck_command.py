"""``cardtable vision deck``: a venue's deck enrolled, from its faces or from photos of it laid out on the table
(:mod:`vision.train.deck`, :mod:`vision.train.enrol`), in a folder built apart and put in place whole. Heavy imports
happen inside the handlers only."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from referee.catalogue import said, say
from vision.advice import enrolled_advice
from vision.options import fail
from vision.train.sure_command import deck_said, detail_said, sure_progress, sure_said

RESERVE_MIN = 1.5  # of an enrolment's budget, kept for the check at its end (reading the photos back, the pictures)


# and before that, for reading tables of the deck to fit the enrolled classifier's confidence on: what ``sure.WANT``
# reads of each kind take on this machine (``sure.pace``), within these minutes
SURE_MIN = (1.5, 4.5)


def cmd_deck(args: argparse.Namespace) -> int:
    import shutil
    import time

    from bus.lock import Held, hold_file
    from vision.model import DEFAULT_MODEL
    from vision.train import tries
    from vision.train.deck import DeckError, read_faces

    started = time.time()
    if args.order:
        from vision.train.enrol import order_text

        print(order_text(args.lang))
        return 0
    if args.out is None:
        return fail(args, "out_needed")
    args.out = Path(os.path.abspath(args.out))  # `--out .` too has a name to build beside (``_publish``)
    detector = Path(args.model or DEFAULT_MODEL)
    classifier = detector.with_name("index.onnx")
    if not (detector.is_file() and classifier.is_file()):
        return fail(args, "no_model", detector=detector, classifier=classifier)
    if args.out.resolve() == detector.parent.resolve():
        return fail(args, "out_own")
    if not 0 < args.share < 1:
        return fail(args, "share")
    if args.budget < RESERVE_MIN + SURE_MIN[1] + 2:
        return fail(args, "budget", budget=args.budget, least=RESERVE_MIN + SURE_MIN[1] + 2)
    if not _replaceable(args.out):
        return fail(args, "out_taken", path=args.out)
    frames, laid = [], []
    try:
        if args.layout:
            faces, frames, laid = _laid_faces(args.layout)
        else:
            faces = read_faces(args.faces)
    except DeckError as e:
        return fail(args, "faces", faces=args.faces or "--layout", error=said(e, args.lang))  # names its file
    final = args.out
    try:  # one enrolment at a time into a folder: its lock file beside it, let go however this process ends
        final.parent.mkdir(parents=True, exist_ok=True)
        held = hold_file(final.with_name(final.name + ".enrolling.lock"), str(args.layout or args.faces))
    except OSError as e:
        return fail(args, "write_folder", path=final, error=e)
    except Held as e:
        if e.error is not None:
            return fail(args, "write_folder", path=final, error=e.error)
        return fail(args, "out_busy", path=final)
    try:
        checks = None  # a venue's folder enrolled before: no `vision sure` may check its confidence meanwhile, and
        if (final / "index.sure.json").is_file():  # none may be checking it now (it would write into the new folder)
            try:
                checks = tries.hold(final / "index.sure.json")
            except tries.Busy:
                return fail(args, "sure_busy", path=final / "index.sure.json")
            except OSError as e:
                return fail(args, "write_folder", path=final, error=e)
        args.out = final.with_name(final.name + ".enrolling")  # built here, then moved
        if args.out.exists():  # a run killed before left its part: an enrolment does not resume, it starts again
            print(say(args.lang, "vision.enrol_again", path=args.out), flush=True)
            shutil.rmtree(args.out, ignore_errors=True)
        try:
            return _enrol(args, final, detector, classifier, faces, frames, laid, started)
        except OSError as e:  # a disk full while it trains or fits: the venue's folder is as it was
            return fail(args, "write_folder", path=final, error=e)
        finally:
            shutil.rmtree(args.out, ignore_errors=True)  # what a failed run built; a run killed leaves it to the next
            if checks is not None:
                checks.close()
    finally:
        held.release()


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
        return fail(args, "train_extra", error=e)
    try:
        style = str(write_style(faces, args.out / "deck"))
        shutil.copyfile(detector, args.out / "cards.onnx")
        keep_base(classifier, args.out / "index.onnx")  # names the cards unlike the deck's (``Model.base``)
    except (DeckError, OSError) as e:
        return fail(args, "write_folder", path=final, error=said(e, args.lang))
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
                       log=sure_progress(args.lang, "  "), looks=looked, detail=detail)
    model = Model(args.out / "cards.onnx", calibrated=False)
    readings, wrong, laid_reads = enrol.read_back(frames, laid, model) if laid else ([], {}, [])
    try:
        cal = sure.calibration(reads + laid_reads, f"the enrolled deck at {camera[0]}x{camera[1]}, "
                                                   f"{len(laid_reads)} of them from the laid-out photos", looked=looked,
                               vouch=False)  # too few reads within the budget to vouch: a check does (bench_enrol)
    except FingerprintError as e:
        return fail(args, "few_reads", error=e)
    cal.write(confidence.path_for(classifier), classifier)
    print(sure_said(args.lang, sure.outcome(reads + laid_reads, cal)), flush=True)
    print(deck_said(args.lang, cal.deck), flush=True)
    if cal.detail is not None:
        print(detail_said(args.lang, cal), flush=True)
    if laid:
        shown = enrol.pictures(frames, laid, readings,
                               lambda c: cal.confidence(c.raw, c.corners) >= SURE and (cal.deck is None or cal.deck.ours(c.name, c.looks)))
        for i, picture in enumerate(shown):
            cv2.imwrite(str(args.out / f"check-{i + 1}.png"), picture)
    try:
        _publish(args.out, final)
    except OSError as e:
        return fail(args, "write_folder", path=final, error=e)
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


def _laid_faces(photos: list[Path]):
    """The faces of a deck laid out in ``photos`` (art, by card), the frames and the cards found in them."""
    import cv2

    from vision.calibrate import UnusableFrame, check_frame
    from vision.train.deck import DeckError, art_width, face_art
    from vision.train.enrol import laid_out

    frames = []
    for path in photos:
        if not Path(path).is_file():
            raise DeckError("no_photo", file=path)
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise DeckError("not_image", file=path)
        try:  # a frame too small or too large to read (``vision.calibrate.usable``) stopped it with a traceback
            check_frame(image)
        except UnusableFrame as e:
            raise DeckError("photo", file=path, error=e) from None
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
