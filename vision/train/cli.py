"""The training's ``cardtable vision`` commands: ``train`` and ``join`` (here), ``deck``
(:mod:`vision.train.deck_command`) and ``sure`` (:mod:`vision.train.sure_command`). Importing this module imports no
torch: heavy imports happen inside the handlers only."""

from __future__ import annotations

import argparse
from pathlib import Path

from cardtable.lang import refuse
from referee.catalogue import say
from vision.options import fail, frame_size, positive, whole
from vision.train.deck_command import cmd_deck
from vision.train.sure_command import cmd_sure


def add_parsers(verbs: argparse._SubParsersAction) -> None:
    """``train``, ``join``, ``deck`` and ``sure`` under ``cardtable vision``."""
    train = verbs.add_parser("train", help="train the recognition model from a seed (needs the train extra: torch)")
    train.add_argument("--part", choices=["detector", "index", "both"], default="both",
                       help="which network (default both)")
    train.add_argument("--seed", type=int, default=2026, help="the seed of the training data (default 2026)")
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
    deck.add_argument("--seed", type=int, default=2026, help="the seed of the training data (default 2026)")
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
    sure.add_argument("--seed", type=int, default=2027, help="the seed of the tables drawn (default 2027)")
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


def cmd_train(args: argparse.Namespace) -> int:
    try:
        from vision.train import detector, index
    except ImportError as e:
        return fail(args, "train_extra", error=e)
    if args.start and args.part == "both":
        return fail(args, "from_part")
    if args.start and not args.start.is_file():
        return fail(args, "from_missing", path=args.start)
    if args.start:
        part = detector if args.part == "detector" else index
        try:
            own = part.from_onnx(args.start)
        except Exception:  # not ONNX at all, or another network
            what = say(args.lang, f"vision.part_{'detector' if part is detector else 'classifier'}")
            return fail(args, "from_not", path=args.start, what=what, part=args.part)
        if part is index and args.width and round(24 * args.width) < own.body[0][0].out_channels:
            return fail(args, "from_narrower", width=f"{args.width:g}", own=f"{own.fc.in_features / 96:g}")
    made = [d for d in (args.out, args.checkpoint) if d and not d.exists()]  # taken back if nothing is trained
    args.out.mkdir(parents=True, exist_ok=True)

    def log(line: str) -> None:
        print(line, flush=True)

    from vision.train.fit import CheckpointError
    from vision.train.synth import decks
    from vision.train.synth.scene import TRAIN_STYLES

    if args.checkpoint:
        args.checkpoint.mkdir(parents=True, exist_ok=True)
    common = {"seed": args.seed, "minutes": args.minutes, "workers": args.workers, "device": args.device,
              "threads": args.threads, "styles": [*TRAIN_STYLES, *decks.names(0, args.decks)],
              "log": log} | ({"lr": args.lr} if args.lr else {})

    def checkpoint(name: str) -> Path | None:
        return args.checkpoint / name if args.checkpoint else None

    try:
        if args.part in ("detector", "both"):
            steps = None if args.minutes else args.steps or 4000
            log(str(detector.train(args.out / "cards.onnx", steps=steps, batch=args.batch or 32, start=args.start,
                                   checkpoint=checkpoint("cards.ckpt"), **common)))
        if args.part in ("index", "both"):
            steps = None if args.minutes else args.steps or 3000
            log(str(index.train(args.out / "index.onnx", steps=steps, batch_size=args.batch or 96,
                                width=args.width or (None if args.start else 1.5), start=args.start,
                                checkpoint=checkpoint("index.ckpt"), **common)))
    except CheckpointError as e:
        for folder in made:
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
        return refuse(args, e)
    return 0


def cmd_join(args: argparse.Namespace) -> int:
    from vision.model import ModelError
    from vision.train.join import join

    try:
        join(args.classifiers, args.out, args.rule)
    except (ModelError, ValueError, OSError) as e:
        return fail(args, "join", error=e)
    rule = say(args.lang, {"mean": "vision.rule_mean", "product": "vision.rule_product"}[args.rule])
    print(say(args.lang, "vision.joined", out=args.out, n=len(args.classifiers), rule=rule))
    return 0
