"""Where sure begins for one deck: the confidence of an index classifier fitted on reads of the deck it will read (a
venue's enrolled deck, the simulated hall's decks), so that a read marked sure is wrong at most
``confidence.ENROLLED_TARGET`` of the time on that deck.

Tables of the deck are drawn by the renderer (``vision.train.synth``) the way plays lie at a table (each seat's plays in
rows, cards laid apart, fans and piles, now and then a hand over them) and photographed at the venue's camera size;
every read is judged against the table's truth (``judged``: right when it is paired with a card of that name lying
at its seat) and
the calibration is fitted on the reads' raw beliefs (``confidence.fit``), separately for cards named by both
corners and by one: sure begins where the reads above it vouch for the target at 95%, so a kind of read can be
marked sure only after at least ``confidence.needed(target)`` reads of it (5,990 for 0.05%), and more where it saw
wrong ones. An enrolment's fit, within its budget, reads about a third as many and chooses by the wrong share it
saw (counting one more than seen); a check on fresh tables then vouches for it or not. What a calibration is worth
is measured on tables it was not fitted on: a frame is drawn from its purpose ("fit", "check"), seed and number, so
the tables a calibration is checked on are never those it was fitted on, whatever the seeds; the wrong share of the
sure reads there comes with ``confidence.upper``, the share they could still be wrong at (95%: 0 wrong of 5,990
sure reads vouch for 0.05%).

>>> cards = [("SA", "S", (0.50, 0.80)), ("SA", "S", (0.55, 0.80)), ("HK", "N", (0.5, 0.2))]
>>> judged(cards, [("SA", "S", (0.50, 0.80), 0.99, 2), ("SA", "S", (0.501, 0.80), 0.98, 1),
...                ("SA", "S", (0.55, 0.81), 0.7, 1), ("HK", "W", (0.5, 0.2), 0.99, 1), ("HK", "N", (0.3, 0.2), 0.9, 1)])
[(0.99, True, 2), (0.98, False, 1), (0.7, True, 1), (0.99, False, 1), (0.9, False, 1)]
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import replace
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from functools import cache
from multiprocessing import get_context
from pathlib import Path

from vision import fingerprint
from vision.confidence import ENROLLED_TARGET, LEVEL, Calibration, fit, upper
from vision.options import deaf_workers
from vision.sanity import SURE

Judged = tuple[float, bool, int]  # a read's raw belief, whether it was right, how many corners named it
Looked = tuple[str, bool, int, tuple, float | None, bool, float]  # a read's card, whether it was right, its frame,
# its corners' looks, how far apart they lie (``SeenCard.span``), whether it lies on a card of the foreign deck mixed
# in (``reads``' ``foreign``), its frame's detail (``Reading.detail``)

SEATS = "SENW"
SPOTS = ((0.0, 0.0), (0.14, -0.17), (0.14, 0.17))  # a seat's plays: (towards its edge, sideways) from its spot
WANT = 3000  # reads of each kind an enrolment's fit aims at (within its budget; it does not vouch: ``confidence.fit``)
VOUCH_WANT = 9000  # and a fit that vouches: with a few wrong among the least sure, 5,990 may still lie above them
PARALLEL = 1.5  # two processes read about this many times as fast as one on two cores
HELD = 3  # every third frame's reads of a deck fit its fingerprint's reach; the others, its looks' means
FINER = 1.3  # tables photographed at a venue camera's detail: between it and this many times it
REACH = 0.02  # table units (15 mm): a read's centre this far from a card's at most, to be a read of it (read centres
# lay at most 8 mm from their card's on 15 tables of a deck never trained on)


def judged(truth: Iterable[tuple[str, str, tuple[float, float]]],
           reads: Iterable[tuple[str, str | None, tuple[float, float], float, int]]) -> list[Judged]:
    """Each read ``(name, seat, centre, raw belief, corners)`` as ``(raw, right, corners)``: right when it is paired
    with a card of that name at that seat (``truth``: every card on the table as (name, seat, centre)), each card
    with one read, the nearest pairs first, none further apart than ``REACH``. A card read twice leaves one read
    unpaired (wrong); a card misread as its neighbour's name does not take the neighbour's own read away from it."""
    truth, reads = list(truth), list(reads)
    pairs = sorted((math.dist(r[2], t[2]), i, j) for i, r in enumerate(reads) for j, t in enumerate(truth)
                   if r[0] == t[0] and r[1] == t[1] and math.dist(r[2], t[2]) <= REACH)
    paired: set[int] = set()
    taken: set[int] = set()
    for _, i, j in pairs:
        if i not in paired and j not in taken:
            paired.add(i)
            taken.add(j)
    return [(raw, i in paired, corners) for i, (_, _, _, raw, corners) in enumerate(reads)]


def table(rng: random.Random, styles: list[str], decks: int = 3):
    """A table of one of ``styles`` in the middle of play, denser than a trick: at every seat one to three plays
    (1-6 cards each, pairs among them) from ``decks`` shuffled decks, in rows, apart, fanned or piled, from the
    seat's play spot towards its edge; a hand over them now and then."""
    from vision.train.synth.scene import FACING, FELTS, PLAY_SPOT, PlacedCard, Scene, random_hand, seat_cards, shoe
    from vision.geometry import CARD_W

    pool = shoe(decks)
    rng.shuffle(pool)
    style = rng.choice(styles)
    cards: list[PlacedCard] = []
    for seat in SEATS:
        x, y = PLAY_SPOT[seat]
        ox, oy = round((x - 0.5) / 0.24), round((y - 0.5) / 0.24)  # towards the seat's edge
        for out, side in SPOTS:
            layout = rng.choices(["spread", "row", "fan", "pile"], [0.5, 0.25, 0.17, 0.08])[0]
            n = rng.randint(1, 3) if layout == "spread" else rng.randint(2, 7)
            names = [pool.pop() for _ in range(n)]
            if n >= 2 and rng.random() < 0.3:
                names[1] = names[0]
            out, side = out + rng.uniform(-0.02, 0.02), side + rng.uniform(-0.03, 0.03)
            spot = (x + ox * out + oy * side, y + oy * out - ox * side)
            if layout == "spread":  # laid apart, a little askew: both corners of every card show
                face = FACING[seat] + rng.uniform(-15, 15)
                a = math.radians(face)
                gap = CARD_W * rng.uniform(1.08, 1.3)
                cards += [PlacedCard(name, style, spot[0] + (i - (n - 1) / 2) * gap * math.cos(a),
                                     spot[1] + (i - (n - 1) / 2) * gap * math.sin(a), face + rng.uniform(-5, 5))
                          for i, name in enumerate(names)]
            else:
                cards += seat_cards(seat, names, layout, style, rng, spot=spot)
    over = rng.choice(cards) if rng.random() < 0.15 else None
    hands = (random_hand(rng, (over.x, over.y)),) if over else ()
    return Scene(tuple(cards), hands, rng.choice(FELTS), rng.randrange(1 << 30))


def reads(detector: Path, classifier: Path, styles: list[str], camera: tuple[int, int], *, seed: int,
          purpose: str = "fit", want: int | None = None, frames: int | None = None, until: float | None = None,
          workers: int = 2, log: Callable[[int, int, int], None] = lambda *_: None,
          looks: list[Looked] | None = None, foreign: tuple[str, float] | None = None,
          detail: float | None = None) -> list[Judged]:
    """Reads of tables of ``styles`` photographed at ``camera`` size by the models ``detector`` and ``classifier``
    (raw beliefs), judged: until each kind (both corners, one) has ``want`` reads, ``frames`` frames were read, or
    the time ``until``, whichever comes first. Frame ``i`` is drawn from ``purpose`` ("fit", or "check" for tables
    a calibration is measured on), ``seed`` and ``i`` alone; ``workers`` processes draw and read them (0: this
    one); every 20 frames ``log(frames, reads by both corners, by one)``. ``looks``: a list that gets, for each
    read, the card it named, whether it was right, its frame's number, its corners' looks (``Model.look``), how far
    apart they lie, whether it lies on a foreign card and its frame's detail. ``foreign`` (style, share): that share
    of each table's cards drawn in that other deck's art instead (a mixture; the tables are otherwise those drawn
    without it). ``detail``: a venue camera's (``vision.canon.detail``), the tables photographed at it or up to
    ``FINER`` times finer (``at_detail``), else as the renderer's cameras of that size fall."""
    job = (str(detector), str(classifier), tuple(styles), tuple(camera), seed, purpose, foreign, detail)
    out: list[Judged] = []
    kinds: Counter = Counter()

    def enough(n: int) -> bool:
        return bool((want and min(kinds[True], kinds[False]) >= want) or (frames is not None and n >= frames)
                    or (until is not None and time.time() >= until))

    def take(got: list[tuple[Judged, Looked]], n: int) -> None:
        out.extend(judged_ for judged_, _ in got)
        if looks is not None:
            looks.extend(looked for _, looked in got)
        kinds.update(corners >= 2 for (_, _, corners), _ in got)
        if n % 20 == 0:
            log(n, kinds[True], kinds[False])

    if workers == 0:
        n = 0
        while not enough(n):
            take(_frame_reads(job, n), n := n + 1)
        return out
    with ProcessPoolExecutor(workers, get_context("spawn"), initializer=_quiet) as pool:
        ahead = 2 * workers if frames is None else min(2 * workers, frames)
        with deaf_workers():  # these first submissions start every worker: Ctrl-C is this process's to handle
            pending, n = {pool.submit(_frame_reads, job, i) for i in range(ahead)}, 0
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                take(f.result(), n := n + 1)
            if enough(n):
                for f in pending:
                    f.cancel()
            else:
                more = len(done) if frames is None else min(len(done), frames - ahead)
                pending |= {pool.submit(_frame_reads, job, ahead + k) for k in range(more)}
                ahead += more
    return out


def checked(detector: Path, styles: list[str], camera: tuple[int, int], frames: int, seed: int, cal: Calibration, *,
            workers: int = 2, foreign: tuple[str, float] | None = None, detail: float | None = None,
            log: Callable[[int, int, int], None] = lambda *_: None) -> dict:
    """What ``cal`` makes of ``frames`` fresh tables (drawn for checking: never a fit's, ``drawn``), per kind ("2",
    "1") and for "all"; with ``foreign`` (a mixture: ``reads``), for the reads of the deck's cards ("all") and of the
    foreign cards ("foreign"); ``log`` as ``reads``'. A fit's own reads cannot vouch for the threshold chosen on
    them: these can."""
    classifier = detector.with_name("index.onnx")
    looked: list = []
    reads_ = reads(detector, classifier, styles, camera, seed=seed, purpose="check", frames=frames, workers=workers,
                   looks=looked, foreign=foreign, detail=detail, log=log)
    ours = [cal.holds_at(looked_[6]) for looked_ in looked]  # a frame coarser than it was fitted on: none sure
    if cal.deck is not None:  # as the camera reads them: frame by frame (``Fingerprint.unlike``)
        frames_ = defaultdict(list)
        for k, (_, _, frame, *_) in enumerate(looked):
            frames_[frame].append(k)
        for ks in frames_.values():
            unlike = cal.deck.unlike([(looked[k][0], looked[k][3]) for k in ks], [looked[k][4] for k in ks])
            for k, far in zip(ks, unlike):
                ours[k] = ours[k] and not far
    on_foreign = [looked_[5] for looked_ in looked]
    out = {}
    for kind in ("2", "1", "all", "foreign"):
        mine = [(raw, right, c, o) for (raw, right, c), o, f in zip(reads_, ours, on_foreign)
                if f == (kind == "foreign") and (kind in ("all", "foreign") or (c >= 2) == (kind == "2"))]
        before = [right for raw, right, c, _ in mine if cal.confidence(raw, c) >= SURE]  # by the thresholds alone
        marked = [right for raw, right, c, o in mine if cal.confidence(raw, c) >= SURE and o]
        rights = sum(right for _, right, _, _ in mine)
        wrong = len(marked) - sum(marked)
        out[kind] = {"reads": len(mine), "right": rights, "sure": len(marked), "sure_wrong": wrong,
                     "sure_wrong_share": wrong / max(1, len(marked)), "bound": upper(wrong, len(marked)),
                     "right_sure": sum(marked) / max(1, rights), "flagged": 1 - len(marked) / max(1, len(mine)),
                     "unlike": len(before) - len(marked), "flagged_before": 1 - len(before) / max(1, len(mine)),
                     "sure_wrong_before": len(before) - sum(before)}
    return out


def vouched_by(cal: Calibration, fig: dict, tables: int, level: float = LEVEL) -> Calibration:
    """``cal`` as a check leaves it (``fig``: ``checked``'s figures on ``tables`` fresh tables): as it was where the
    sure reads there vouch for its target at ``level`` (``confidence.upper`` at most the target; a check after others of
    the same calibration vouches at a higher level, ``tries``), else marking nothing sure, its
    fingerprint and detail kept, since a read it marks sure may be wrong more often than the target and only a person
    may then say what it is. Either way what the check saw is recorded with it (``fitted_on``).

    >>> cal = Calibration({"2": 0.99, "1": None}, ENROLLED_TARGET, "a deck")
    >>> def seen(wrong, sure):
    ...     return {"all": {"sure": sure, "sure_wrong": wrong}}
    >>> vouched_by(cal, seen(1, 9500), 300).sure_at
    {'2': 0.99, '1': None}
    >>> failed = vouched_by(cal, seen(1, 9000), 300)
    >>> failed.sure_at, failed.fitted_on
    ({'2': None, '1': None}, 'a deck; NOT vouched by 300 check tables (1 of 9000 sure reads wrong, at most 0.053%): nothing sure')
    >>> again = vouched_by(cal, seen(1, 9500), 300, level=0.975)
    >>> again.sure_at["2"], again.fitted_on
    (None, 'a deck; NOT vouched by 300 check tables (1 of 9500 sure reads wrong, at most 0.059% at 97.5%): nothing sure')
    """
    f = fig["all"]
    bound = upper(f["sure_wrong"], f["sure"], level)
    ok = f["sure"] > 0 and bound <= cal.target
    at = "" if level == LEVEL else f" at {level * 100:.4g}%"
    said = (f"{cal.fitted_on}; {'vouched' if ok else 'NOT vouched'} by {tables} check tables ({f['sure_wrong']} of "
            f"{f['sure']} sure reads wrong, at most {bound:.3%}{at})" + ("" if ok else ": nothing sure"))
    return replace(cal, fitted_on=said, sure_at=cal.sure_at if ok else {kind: None for kind in cal.sure_at})


def pace(detector: Path, classifier: Path, styles: list[str], camera: tuple[int, int], *, seed: int,
         workers: int = 2, frames: int = 2, detail: float | None = None) -> float:
    """About how many seconds ``reads`` will take on this machine, now, to gather ``WANT`` reads of each kind: from
    ``frames`` tables drawn and read here (not among those ``reads`` draws)."""
    job = (str(detector), str(classifier), tuple(styles), tuple(camera), seed, "pace", None, detail)
    _model(str(detector), str(classifier))
    started = time.time()
    kinds: Counter = Counter()
    for i in range(frames):
        kinds.update(corners >= 2 for (_, _, corners), _ in _frame_reads(job, i))
    per_frame = max(min(kinds[True], kinds[False]) / frames, 8)  # a frame that happens to show few: not below 8
    return WANT / per_frame * (time.time() - started) / frames / (PARALLEL if workers >= 2 else 1)


def drawn(purpose: str, seed: int, i: int) -> random.Random:
    """What frame ``i`` of ``purpose`` and ``seed`` is drawn from (its table, then its camera)."""
    return random.Random(f"{purpose}:{seed}:{i}")


def _quiet() -> None:
    import cv2

    cv2.setNumThreads(1)  # the processes are the parallelism


@cache
def _model(detector: str, classifier: str):
    from vision.model import Model

    return Model(Path(detector), Path(classifier), threads=1, calibrated=False)


def _frame_reads(job: tuple, i: int) -> list[tuple[Judged, Looked]]:
    """Frame ``i`` of ``job`` (``reads``): drawn, read, judged, and what each read looked like."""
    from vision.read import read_frame
    from vision.train.synth.render import random_camera, render_frame

    detector, classifier, styles, camera, seed, purpose, foreign, detail = job
    rng = drawn(purpose, seed, i)
    scene = table(rng, list(styles))
    if foreign:
        mix = random.Random(f"foreign:{purpose}:{seed}:{i}")
        scene = replace(scene, cards=tuple(replace(c, style=foreign[0]) if mix.random() < foreign[1] else c
                                           for c in scene.cards))
    cam = random_camera(rng, camera)
    if detail is not None:
        cam = at_detail(cam, detail, random.Random(f"detail:{purpose}:{seed}:{i}"))
    shot = render_frame(scene, cam)
    reading = read_frame(shot.image, _model(detector, classifier))
    out = judged([(c.name, c.seat, c.centre) for c in shot.truth],
                 [(c.name, c.seat, c.centre, c.raw, 1 if c.conflict else c.corners) for c in reading.cards])
    others = [(c.x, c.y) for c in scene.cards if foreign and c.style == foreign[0]]  # the foreign cards' centres
    return [(j, (c.name, j[1], i, c.looks, c.span, any(math.dist(c.centre, o) <= REACH for o in others),
                 reading.detail)) for j, c in zip(out, reading.cards)]


def at_detail(cam, detail: float, rng: random.Random):
    """A camera of ``cam``'s size (``render.Camera``) that shows the table at a detail drawn between ``detail`` and
    ``FINER`` times it, as a venue's camera is mounted to show it: ``cam`` nearer the table or farther (its
    ``fill``), or, where its tilt and roll keep the table coarser (the table and its markers stay in the frame: at
    1920 x 1080, two cameras in three that ``random_camera`` draws), another of that size drawn from ``rng`` and
    moved. A detail finer than any camera of that size shows (``finest``) is taken as that.

    >>> from vision.train.synth.render import Camera
    >>> cam = at_detail(Camera(size=(2560, 1920), fill=0.9), 1.0, random.Random(1))
    >>> round(cam.fill, 3), 1.0 <= detail_of(cam) <= FINER
    (0.445, True)
    >>> tilted = Camera(size=(1920, 1080), tilt=25, roll=45, fill=0.9)
    >>> round(detail_of(replace(tilted, fill=0.97)), 2), detail_of(at_detail(tilted, 1.05, random.Random(1))) >= 1.05
    (0.88, True)
    """
    from vision.train.synth.render import random_camera

    detail = min(detail, finest(cam.size))
    for _ in range(1000):
        want = detail * rng.uniform(1.0, FINER)
        moved = replace(cam, fill=min(0.97, max(0.2, cam.fill * want / detail_of(cam))))
        if detail_of(moved) >= detail * (1 - 1e-9):
            return moved
        cam = random_camera(rng, cam.size)
    raise ValueError(f"no camera of {cam.size[0]}x{cam.size[1]} was drawn that shows the table at {detail}")


@cache
def finest(size: tuple[int, int]) -> float:
    """About the finest detail a camera of ``size`` shows the table at: straight above it, square to it, the table
    filling as much of the frame's height as the renderer lets it (``fill`` 0.97; one tilted a little may show the
    table's centre a little finer).

    >>> round(finest((1920, 1080)), 2), round(finest((2560, 1920)), 2)
    (1.28, 2.27)
    """
    from vision.train.synth.render import Camera

    return detail_of(Camera(size=tuple(size), fill=0.97))


def detail_of(cam) -> float:
    """The detail (``vision.canon.detail``) at which ``cam`` shows the table."""
    from vision.canon import canon_homography, detail
    from vision.train.synth.render import camera_homography

    return detail(canon_homography(camera_homography(cam)))


def calibration(reads_: list[Judged], what: str, target: float = ENROLLED_TARGET,
                looked: list[Looked] | None = None, vouch: bool = True) -> Calibration:
    """The calibration fitted on ``reads_`` (``what``: what they are, recorded with it), with the deck's fingerprint
    fitted on the same reads' looks (``looked``, given for a deck's calibration: ``deck``; FingerprintError when
    too few reads fit one for a calibration that marks reads sure) and the least detail of their frames, below
    which it does not hold (``Calibration.holds_at``); ``vouch``: by which rule (``confidence.fit``)."""
    kinds = Counter(corners >= 2 for _, _, corners in reads_)
    wrong = sum(not right for _, right, _ in reads_)
    sure_at, fingerprint_, least = fit(reads_, target, vouch), None, None
    if looked is not None:
        least = min((round(d, 4) for *_, d in looked if d is not None), default=None)
        try:
            fingerprint_ = deck(looked, what)
        except fingerprint.FingerprintError:
            if any(t is not None for t in sure_at.values()):  # one that marks nothing sure needs none
                raise
    said = f"{what}: {kinds[True]} reads by both corners, {kinds[False]} by one, {wrong} wrong"
    return Calibration(sure_at, target, said, fingerprint_, least)


def deck(looked: list[Looked], what: str) -> fingerprint.Fingerprint:
    """The deck's fingerprint from its right reads: the means from the looks of most frames, the reach from those
    of every ``HELD``-th frame (tables the means never saw), where their corners lie apart from all frames."""
    frames: dict[int, list] = defaultdict(list)
    for card, ok, frame, looks, span, *_ in looked:
        frames[frame].append((ok, span))
    apart = [r for reads_ in frames.values() for (ok, _), r in zip(reads_, fingerprint.relative([s for _, s in reads_]))
             if ok and r is not None]
    right = [(card, looks, frame) for card, ok, frame, looks, *_ in looked if ok]
    return fingerprint.fit([(card, looks) for card, looks, frame in right if frame % HELD != HELD - 1],
                           [(card, looks) for card, looks, frame in right if frame % HELD == HELD - 1], what,
                           apart=apart)


def outcome(reads_: list[Judged], cal: Calibration) -> dict[str, dict]:
    """What ``cal`` makes of ``reads_``, per kind ("2": both corners, "1": one): reads, right ones, where sure
    begins (None: nowhere), reads sure, right reads sure."""
    out = {}
    for kind in ("2", "1"):
        mine = [(raw, right) for raw, right, corners in reads_ if (corners >= 2) == (kind == "2")]
        t = cal.sure_at[kind]
        marked = [right for raw, right in mine if t is not None and raw >= t]
        out[kind] = {"reads": len(mine), "right": sum(right for _, right in mine), "at": t, "sure": len(marked),
                     "right_sure": sum(marked)}
    return out
