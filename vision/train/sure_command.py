"""``cardtable vision sure``: a classifier's confidence fitted on reads of tables of the deck it reads, then checked
on fresh tables, kept only where they vouch for it (:mod:`vision.train.sure`, :mod:`vision.train.tries`). Its words
are the enrolment's too (:mod:`vision.train.deck_command`). Heavy imports happen inside the handlers only."""

from __future__ import annotations

import argparse
from pathlib import Path

from cardtable.backup import OverDatabase, refuse_over_database
from cardtable.lang import refuse
from referee.catalogue import say
from vision.options import fail

def cmd_sure(args: argparse.Namespace) -> int:
    import time

    from vision import confidence
    from vision.model import DEFAULT_MODEL
    from vision.train import tries
    from vision.train.synth.render import art

    detector = Path(args.model or DEFAULT_MODEL)
    classifier = detector.with_name("index.onnx")
    if not (detector.is_file() and classifier.is_file()):
        return fail(args, "sure_no_model", detector=detector, classifier=classifier)
    styles = [str(Path(s).resolve()) if Path(s).is_dir() else s for s in args.deck.split(",") if s.strip()]
    if not styles:
        return fail(args, "no_deck", deck=repr(args.deck), error=say(args.lang, "vision.deck_empty"))
    for style in styles:
        try:
            art(style, "SA")
        except (FileNotFoundError, ValueError) as e:
            return fail(args, "no_deck", deck=style, error=e)
    out = args.out or confidence.path_for(classifier)
    try:  # said before minutes of fitting, not at the end (the write itself refuses it too: vision.whole)
        refuse_over_database(out)
    except OverDatabase as e:
        return fail(args, "cannot_write", path=out, error=e)
    started = time.time()
    if args.detail is not None and not 0.1 <= args.detail <= 10:
        return fail(args, "bad_detail", detail=args.detail)
    if args.check is not None and args.check < 0:
        return fail(args, "bad_check", n=args.check)
    if args.only_check and (args.frames or args.minutes or args.check == 0):
        return fail(args, "only_check_args")
    if args.only_check and not out.is_file():
        return fail(args, "only_check_none", path=out)
    try:
        held = tries.hold(out)  # one run at a time fits or checks the calibrations of this folder
    except tries.Busy:
        return fail(args, "sure_busy", path=out)
    except OSError as e:
        return fail(args, "cannot_write", path=tries.ledger_of(out), error=e)
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
                       log=sure_progress(args.lang, "", args.frames), looks=looked, detail=args.detail)
    size = f"{args.camera[0]}x{args.camera[1]}"
    try:
        cal = sure.calibration(reads, f"{args.deck} at {size}, seed {args.seed}", looked=looked)
    except FingerprintError as e:
        return fail(args, "few_reads", error=e)
    print(sure_said(args.lang, sure.outcome(reads, cal)), flush=True)
    print(deck_said(args.lang, cal.deck))
    if cal.detail is not None:
        print(detail_said(args.lang, cal))
    tables = len({frame for _, _, frame, *_ in looked}) if args.check is None else args.check
    return _vouched_write(args, cal, tables, detector, styles, out, started)


def _only_check(args: argparse.Namespace, detector: Path, styles: list[str], out: Path, started: float) -> int:
    """`vision sure --only-check`: the calibration at ``out`` checked as it is, on fresh tables drawn at the detail
    it records (``_vouched_write``)."""
    from vision import confidence

    try:
        cal = confidence.load(detector.with_name("index.onnx"), out)
    except confidence.CalibrationError as e:
        return refuse(args, e)
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
                           detail=args.detail, log=sure_progress(args.lang, "  ", tables))["all"]
        before = fig["sure"] + fig["unlike"]  # what its thresholds alone mark sure
        if before >= OTHER_TABLES[0] and fig["unlike"] > OTHER_TABLES[1] * before:  # another deck, or camera: refused
            return fail(args, "sure_other_tables", share=f"{fig['unlike'] / before:.0%}", path=out)
        cal = sure.vouched_by(cal, {"all": fig}, tables, level)
        vouched = cal.marks_sure()
        bound = upper(fig["sure_wrong"], fig["sure"], level)
        try:  # the try counted before the calibration is written: killed between, it stays counted
            tries.record(out, {"camera": f"{args.camera[0]}x{args.camera[1]}", "deck": args.deck, "seed": args.seed,
                               "tables": tables, "sure": fig["sure"], "wrong": fig["sure_wrong"], "level": level,
                               "vouched": vouched, "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})
        except OSError as e:
            return fail(args, "cannot_write", path=tries.ledger_of(out), error=e)
        verdict = say(args.lang, "vision.sure_vouched" if vouched else "vision.sure_not_vouched",
                      target=f"{cal.target:.2%}")
        print(say(args.lang, "vision.sure_checked", tables=tables, wrong=fig["sure_wrong"], sure=fig["sure"],
                  share=f"{fig['sure_wrong_share']:.3%}", bound=f"{bound:.3%}", level=f"{level * 100:.4g}%",
                  flagged=f"{fig['flagged']:.1%}", verdict=verdict))
    classifier = detector.with_name("index.onnx")
    try:
        cal.write(out, classifier)
    except OSError as e:
        return fail(args, "cannot_write", path=out, error=e)
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


def sure_progress(lang: str, indent: str = "", tables: int | None = None):
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


def sure_said(lang: str, outcome: dict[str, dict]) -> str:
    """``sure.outcome`` in words: per kind of read, how many, and where sure begins or that none can be sure."""
    parts = []
    for kind, f in outcome.items():
        name = say(lang, f"vision.corners_{kind}")
        parts.append(say(lang, "vision.sure_none", kind=name, reads=f["reads"]) if f["at"] is None else
                     say(lang, "vision.sure_from", kind=name, reads=f["reads"], at=f"{f['at']:.6f}", sure=f["sure"],
                         right=f["right_sure"], rights=f["right"], wrong=f["sure"] - f["right_sure"]))
    return say(lang, "vision.sure_sep").join(parts)


def deck_said(lang: str, deck) -> str:
    """What a deck's fingerprint holds, in words (None: too few reads fitted one, and nothing is sure)."""
    if deck is None:
        return say(lang, "vision.fingerprint_none")
    said = say(lang, "vision.fingerprint", cards=len(deck.centres), reach=f"{deck.reach:.3f}")
    if deck.apart is None:
        return said
    near, far = deck.apart
    return said + "\n" + say(lang, "vision.fingerprint_apart", near=f"{1 - near:.1%}", far=f"{far - 1:.1%}")


def detail_said(lang: str, cal) -> str:
    """How fine a frame a deck's calibration holds for (``Calibration.holds_at``), in words."""
    from vision.confidence import DETAIL_SLACK

    return say(lang, "vision.sure_detail", least=f"{cal.detail:.2f}", slack=f"{DETAIL_SLACK:.0%}")
