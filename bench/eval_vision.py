"""Accuracy of the recognition, for the model card (plain script, not a test):

    .venv/bin/python bench/eval_vision.py --held-out 200      # rendered frames in the held-out art style
    .venv/bin/python bench/eval_vision.py --held-out 200 --style dingbats    # the second held-out style
    .venv/bin/python bench/eval_vision.py --held-out 200 --style casino      # a training style, measured the same way
    .venv/bin/python bench/eval_vision.py --held-out 200 --camera 2560x1920  # a finer camera (default 1280x960)
    .venv/bin/python bench/eval_vision.py --real ../shared/data/real-photos-edje
    .venv/bin/python bench/eval_vision.py --families 30        # the held-out deck families (bench/heldout), three cameras
    .venv/bin/python bench/eval_vision.py --families 30 --calibration   # the calibration families instead
    .venv/bin/python bench/eval_vision.py --families 30 --photographed  # real printed cards on held-out tables
    .venv/bin/python bench/eval_vision.py --families 30 --json out.json --reads reads.jsonl   # figures and every read

Families (the honest held-out test): decks drawn by ``bench/heldout`` (its own fonts, suit drawings, index layouts,
card sizes, scenes and camera: nothing of the training renderer), N frames per family at each camera size
(``--cameras``, default 2560x1920,1920x1080,1280x960), the frames fixed by ``--seed``, the family and the size.
Per family and camera: recall and precision (as below, pooled over the seats), sure but wrong = reads no card at
their seat explains with confidence >= SURE (never flagged), as a share of all reads; seat exact = share of the
seats holding or read with a card in a frame whose reads are exactly right: every card read lies there, and every
card there with an index at least 85% visible is read; doubles = reads of a card that lies at that seat beyond its
copies there (one card read twice, its corners not joined). Frames whose markers are not all found count every card as
missed.

Held-out: random tables (1-8 cards per seat, 3 decks, a hand over the cards in a quarter of the frames, random
camera tilt up to 25 degrees) drawn in the art style never used in training. Per seat, recall = cards with a corner
index at least 85% visible that were read (name and seat) / those cards; precision = cards read that lie at that
seat / cards read; rank right: the same as recall, counting the rank alone (the suit aside). Silent errors: reads
that no card at their seat explains (the reads precision counts against; of several reads of one name the surest
count as the extra ones) and whose confidence the tracker does not flag. (Until the tenth session a read was wrong
when the true card nearest its centre had another name: in a pile that is often a right read whose centre lies
nearer the card under it.)
Real photos (no markers: read in pixels): each photo is scaled so its median labelled card is as large as a card in
the canonical view (the scale a table's calibration gives); a labelled card is read right when a card read with its
centre inside the labelled box has the labelled rank; printed beside it, the count that also takes a read whose corner
index lies inside the box (a card mostly under another: its centre, under that card, lies outside its visible box).
"""

from __future__ import annotations

import argparse
import csv
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402
import json  # noqa: E402

from vision.options import frame_size  # noqa: E402
from vision.geometry import CARD_H, PX  # noqa: E402
from vision.model import DEFAULT_MODEL, Model  # noqa: E402
from vision.read import read_frame  # noqa: E402
from vision.sanity import SURE  # noqa: E402
from vision.train.synth.render import random_camera, render_frame  # noqa: E402
from vision.train.synth.scene import HELD_OUT_STYLE, HELD_OUT_STYLES, TRAIN_STYLES, random_scene  # noqa: E402

RANKS = {"nine": "9", "ten": "T", "jack": "J", "queen": "Q", "king": "K", "ace": "A"}
CAMERAS = ((2560, 1920), (1920, 1080), (1280, 960))


class Tally:
    """Counts of one set of frames: per seat the cards to find and found, the reads and the right ones, the reads
    no card at their seat explains (sure or flagged), seats read exactly."""

    def __init__(self) -> None:
        self.need, self.found, self.read, self.right, self.ranks = Counter(), Counter(), Counter(), Counter(), Counter()
        self.named = Counter()  # every read, by (explained by a card at its seat, sure)
        self.confusions = Counter()
        self.seats = Counter()  # (frame, seat) with a card or a read: exact or not
        self.frames = self.uncalibrated = self.doubles = 0
        self.reads: list[tuple] = []  # (confidence, explained, corners, conflict, raw belief)

    def add(self, truth: list[tuple[str, str, bool]], reading) -> None:
        """``truth``: every card on the table as (name, seat, an index at least 85% visible)."""
        self.frames += 1
        self.uncalibrated += not reading.calibrated
        for c in reading.cards:
            if c.seat is None:  # no seat's card explains it
                self.named[(False, c.confidence >= SURE)] += 1
                self.reads.append((c.confidence, False, c.corners, c.conflict, c.raw))
        for seat in "SENW":
            on_table = Counter(n for n, s, _ in truth if s == seat)
            visible = Counter(n for n, s, v in truth if s == seat and v)
            mine = [c for c in reading.cards if c.seat == seat]
            got = Counter(c.name for c in mine)
            self.need[seat] += visible.total()
            self.found[seat] += (visible & got).total()
            self.ranks[seat] += (Counter(n[1] for n in visible.elements()) & Counter(n[1] for n in got.elements())).total()
            self.read[seat] += got.total()
            self.right[seat] += (on_table & got).total()
            if on_table or got:
                self.seats[not (got - on_table) and not (visible - got)] += 1
            extra = got - on_table  # the reads precision counts against; the surest reads of a name are the extra ones
            self.doubles += sum(n for name, n in extra.items() if on_table[name])  # a card there read more than once
            for c in sorted(mine, key=lambda c: -c.confidence):
                self.named[(not extra[c.name], c.confidence >= SURE)] += 1
                self.reads.append((c.confidence, not extra[c.name], c.corners, c.conflict, c.raw))
                extra[c.name] -= bool(extra[c.name])
            for name in (got - on_table):
                for miss in (visible - got):
                    self.confusions[(miss, name)] += 1

    def figures(self) -> dict:
        reads = max(1, self.named.total())
        return {"frames": self.frames, "cards": sum(self.need.values()), "reads": self.named.total(),
                "recall": sum(self.found.values()) / max(1, sum(self.need.values())),
                "precision": sum(self.right.values()) / max(1, sum(self.read.values())),
                "sure_wrong": self.named[(False, True)] / reads, "sure_wrong_n": self.named[(False, True)],
                "wrong_n": self.named[(False, True)] + self.named[(False, False)],
                "flagged_right": self.named[(True, False)] / max(1, self.named[(True, False)] + self.named[(True, True)]),
                "seat_exact": self.seats[True] / max(1, self.seats.total()),
                "rank_right": sum(self.ranks.values()) / max(1, sum(self.need.values())),
                "uncalibrated": self.uncalibrated, "doubles": self.doubles}


def held_out(model: Model, n: int, seed: int, style: str = HELD_OUT_STYLE, camera=(1280, 960)) -> int:
    rng = random.Random(seed)
    tally = Tally()
    t0 = time.time()
    for _ in range(n):
        f = render_frame(random_scene(rng, [style], hand_chance=0.25), random_camera(rng, camera))
        tally.add([(c.name, c.seat, max(v for *_, v in c.indices) >= 0.85) for c in f.truth], read_frame(f.image, model))
    kind = "held-out style" if style in HELD_OUT_STYLES else "training style"
    print(f"{kind} {style!r}: {n} frames of {camera[0]}x{camera[1]}, {time.time() - t0:.0f} s")
    print(f"{'seat':5} {'recall':>8} {'precision':>10} {'cards':>6} {'read':>6}")
    for seat in "SENW":
        print(f"{seat:5} {tally.found[seat] / tally.need[seat]:8.2%} {tally.right[seat] / max(1, tally.read[seat]):10.2%} "
              f"{tally.need[seat]:6} {tally.read[seat]:6}")
    fig = tally.figures()
    print(f"{'all':5} {fig['recall']:8.2%} {fig['precision']:10.2%}")
    print(f"rank right (suit aside): {fig['rank_right']:.2%} of the cards")
    print(f"cards read: {fig['reads']}; not explained by a card at their seat: {fig['wrong_n']}, "
          f"of which sure (confidence >= {SURE}, not flagged): {fig['sure_wrong_n']} = {fig['sure_wrong']:.2%} of the "
          f"reads; right but flagged unsure: {fig['flagged_right']:.2%} of the right reads; seats exact: "
          f"{fig['seat_exact']:.2%}")
    print("most frequent (missed, read instead) in the same seat:", tally.confusions.most_common(8))
    return 0


def families(model: Model, n: int, seed: int, cameras=CAMERAS, which: str = "test", only=None,
             json_out: Path | None = None, reads_out: Path | None = None, drawn: int = 1) -> dict:
    """The held-out deck families (``which``: "test", "calibration", or "photographed": the real cards cut out of
    the real photos), ``n`` frames each at each camera size; the calibration families drawn from seed ``drawn``."""
    from bench.heldout.decks import FAMILIES, PHOTO_FAMILIES, calibration_families
    from bench.heldout.table import frame

    fams = {"test": FAMILIES, "calibration": calibration_families(seed=drawn), "photographed": PHOTO_FAMILIES}[which]
    fams = {k: v for k, v in fams.items() if not only or k in only}
    out: dict = {}
    dump = open(reads_out, "w") if reads_out else None
    print(f"{which} families, {n} frames each per camera, seed {seed}")
    print(f"{'family':20} {'camera':>10} {'recall':>8} {'precision':>10} {'sure wrong':>11} {'seat exact':>11} "
          f"{'cards':>6} {'flag right':>10} {'s':>4} {'doubles':>7}")
    for size in cameras:
        pooled = Tally()
        for name, fam in fams.items():
            tally, t0 = Tally(), time.time()
            rng = random.Random(f"{seed}/{name}/{size[0]}x{size[1]}")
            for _ in range(n):
                shot = frame(rng, fam, size)
                reading = read_frame(shot.image, model)
                truth = [(t.card, t.seat, max(t.seen) >= 0.85) for t in shot.truth]
                for t in (tally, pooled):
                    t.add(truth, reading)
            fig = tally.figures()
            out[f"{name} {size[0]}x{size[1]}"] = fig
            if dump:
                for conf, right, corners, conflict, raw in tally.reads:
                    dump.write(json.dumps({"family": name, "camera": f"{size[0]}x{size[1]}", "confidence": conf,
                                           "raw": raw, "right": right, "corners": corners,
                                           "conflict": conflict}) + "\n")
            _row(name, size, fig, time.time() - t0)
        fig = pooled.figures()
        out[f"all {size[0]}x{size[1]}"] = fig
        _row("all", size, fig, 0)
    if dump:
        dump.close()
    if json_out:
        json_out.write_text(json.dumps(out, indent=1))
    return out


def _row(name: str, size, fig: dict, seconds: float) -> None:
    print(f"{name:20} {size[0]:>5}x{size[1]:<4} {fig['recall']:8.2%} {fig['precision']:10.2%} {fig['sure_wrong']:11.2%} "
          f"{fig['seat_exact']:11.2%} {fig['cards']:6} {fig['flagged_right']:10.2%} {seconds:4.0f}"
          + f" {fig['doubles']:7}" + (f"  ({fig['uncalibrated']} frames uncalibrated)" if fig["uncalibrated"] else ""),
          flush=True)


def real(model: Model, folder: Path) -> int:
    boxes = defaultdict(list)
    with open(folder / "labels.csv") as fh:
        for row in csv.DictReader(fh):
            boxes[row["filename"]].append((RANKS[row["class"]], *(int(row[k]) for k in ("xmin", "ymin", "xmax", "ymax"))))
    total = ok = found_any = by_index = 0
    wrong = Counter()
    for name, items in sorted(boxes.items()):
        image = cv2.imread(str(folder / name))
        side = statistics.median(max(x1 - x0, y1 - y0) for _, x0, y0, x1, y1 in items)
        scale = CARD_H * PX / side
        small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
        reading = read_frame(small, model, calibration=None)
        for rank, x0, y0, x1, y1 in items:
            def within(p):
                return x0 <= p[0] / scale <= x1 and y0 <= p[1] / scale <= y1

            inside = [c for c in reading.cards if within(c.centre)]
            total += 1
            found_any += bool(inside)
            if any(c.name[-1] == rank for c in inside):
                ok += 1
                continue
            wrong[(rank, tuple(sorted(c.name for c in inside)))] += 1
            by_index += any(c.name[-1] == rank and any(within(p) for p in c.indices) for c in reading.cards)
    print(f"real photos {folder}: {len(boxes)} photos, {total} labelled cards")
    print(f"read with the right rank: {ok}/{total} = {ok / total:.1%}; some card read inside the box: {found_any / total:.1%}")
    print("misses (labelled rank, cards read inside):", wrong.most_common(10))
    print(f"of the misses, read with the right rank by a corner index inside the box (a card mostly covered, its "
          f"centre under the card over it): {by_index}; so {ok + by_index}/{total} = {(ok + by_index) / total:.1%}")
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--held-out", type=int, default=0, metavar="N", help="frames of the held-out style")
    p.add_argument("--real", type=Path, default=None, metavar="DIR", help="labelled real photos")
    p.add_argument("--style", choices=[*HELD_OUT_STYLES, *TRAIN_STYLES], default=HELD_OUT_STYLE,
                   help="the art style of the frames: a held-out one, or a training style")
    p.add_argument("--seed", type=int, default=99)
    p.add_argument("--camera", type=frame_size, default=(1280, 960), metavar="WxH", help="frame size (1280x960)")
    p.add_argument("--model", type=Path, default=None, help="the detector (default models/cards.onnx)")
    p.add_argument("--index", type=Path, default=None, help="the index classifier (default: index.onnx beside it)")
    p.add_argument("--families", type=int, default=0, metavar="N", help="frames per held-out deck family and camera")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--calibration", action="store_true", help="the calibration families, not the test ones")
    which.add_argument("--photographed", action="store_true",
                       help="real printed cards (cut out of the real photos: bench/heldout/photos.py), not the test ones")
    p.add_argument("--drawn", type=int, default=1, metavar="S",
                   help="the calibration families' seed (default 1: cal-1-*; another draws fresh families)")
    p.add_argument("--only", default=None, help="families to run, comma separated (default: all)")
    p.add_argument("--cameras", default=",".join(f"{w}x{h}" for w, h in CAMERAS), help="camera sizes, comma separated")
    p.add_argument("--json", type=Path, default=None, help="write the families' figures here")
    p.add_argument("--reads", type=Path, default=None, help="write every read of the families here (JSON lines)")
    p.add_argument("--raw", action="store_true", help="the classifier's raw beliefs, not calibrated (to fit on)")
    p.add_argument("--sure", type=Path, default=None,
                   help="another calibration of the classifier (one deck's, e.g. models/hall.sure.json: what it makes "
                        "of decks it was not fitted for)")
    a = p.parse_args(argv)
    model = Model(a.model or DEFAULT_MODEL, a.index, calibrated=not a.raw, sure=a.sure)
    if a.held_out:
        held_out(model, a.held_out, a.seed, a.style, a.camera)
    if a.families:
        which = "calibration" if a.calibration else "photographed" if a.photographed else "test"
        families(model, a.families, a.seed, [frame_size(c) for c in a.cameras.split(",")], which,
                 a.only.split(",") if a.only else None, a.json, a.reads, a.drawn)
    if a.real:
        real(model, a.real)
    return 0


if __name__ == "__main__":
    sys.exit(main())
