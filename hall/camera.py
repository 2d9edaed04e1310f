"""``cardtable hall camera``: the camera above one table of the hall, and its vision.

It follows the physical table (``scene.jsonl``, written by ``hall player``) as a camera follows a
table: every change is a new picture, and between changes the picture stays still while the
hall's time goes on (the wall clock: the whole hall runs on it). With ``--see vision`` each
change is rendered into a camera frame by the scene renderer (``vision.train.synth``) and read back by
the recognition pipeline (``vision.read``) once the hand that put the cards down is gone (while a
hand is over them the seat is busy, as the pipeline would mark it, and an empty table is not
rendered: both save the renderer's time, about half a second a frame on two cores); with
``--see oracle`` (no model, or the bench's many tables) the cards are taken as they lie. Either way the play tracker (``vision.tracker``) decides
when a seat's cards are a play, and each play goes to the table as ``observed`` (the camera's
user), with the frame kept on ``frames`` when the tracker flags it; ``camera/status`` says ``online`` while it runs
(published on every connection) and ``offline`` when it stops (its last will).

A play made while a flag is open is sent once, as any: the table keeps it and judges it once the
referee resolved the flag (``play_waits``).

As ``vision watch`` does, it follows its table's ``state`` (:class:`vision.watch.TableStates`): every state, in the
order published, is told to the tracker before the next frame it is fed (:func:`vision.tracker.told`), so that plays
the table takes back (a Tractor throw that fails, a Guandan going-out play) or never takes (cards shown out of turn)
leave no stale expectation and the plays laid next go unflagged.

Restarts: after each change the tracker's state is saved (``camera.state``) once what it emitted
is acknowledged by the broker; a restarted camera goes on from there. A play's message id is the
table, the scene version after which it was seen and the seat, so a play sent again after a crash
is the same message and the table applies it once. Its session is persistent: the states published while it is away
(stopped, or the broker away) wait at the broker, and a state is acknowledged only once the tracker told it is saved,
so a camera that stops before gets it again and loses none; the tracker takes no state older than the last it was told
(one given again), and a flood of states is told in order, as many as the broker sends, before each frame.
"""

from __future__ import annotations

import logging
import os
import pickle
import random
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from cardtable.logs import setup_logging
from hall import scene
from vision.whole import whole

log = logging.getLogger(__name__)

POLL_S = 0.02  # how often the camera looks at the table (real seconds)
STILL_S = 0.05  # seconds between the still frames fed to the tracker
SETTLE_S = 0.25  # the tracker's settle time
HAND_GAP_S = 2.0  # an empty table this long ends the hand (the players keep it empty longer between hands)
LONGEST_GAP_S = 60.0  # a still table is fed at most this long (the tracker's hand gap is 30 s)
# The hall's decks and its cameras' size: the hall plays these as a venue plays its own deck, so its reads are
# calibrated for them (``hall_sure()``, fitted by ``cardtable vision sure --deck letele,sans,serif --camera
# 2560x1920 --frames 900 --check 0 --out models/hall.sure.json`` and checked apart by ``bench/eval_sure.py``: change
# one, fit it again without ``--check 0``, so that fresh tables vouch for it or it marks nothing sure).
STYLES = ("letele", "sans", "serif")
SIZE = (2560, 1920)
ROW = 5  # cards per row of a long play
SAY_EVERY_S = 10  # a publication the broker does not acknowledge is said after 1 s, then every 10 s
ROW_STEP = 0.11  # table units between two rows


def hall_sure():
    """The calibration of the shipped classifier on the hall's decks."""
    from vision.model import DEFAULT_MODEL

    return DEFAULT_MODEL.with_name("hall.sure.json")


def model_ready() -> bool:
    """Are the recognition model's files there (``models/``, committed by the vision work)?"""
    from vision.model import DEFAULT_INDEX, DEFAULT_MODEL

    return DEFAULT_MODEL.is_file() and DEFAULT_INDEX.is_file() and hall_sure().is_file()


@dataclass
class Lens:
    """Where the cards lie (placed once, when put down) and how this camera sees the table."""

    table: str
    seed: int
    style: str
    placed: dict = field(default_factory=dict)  # seat -> tuple of PlacedCard

    def place(self, t: scene.Table) -> None:
        """Cards just put down get their place: a row (or a fan) in front of the seat; a long play
        in rows of ``ROW`` from the middle towards the seat's edge, all inside the seat's triangle."""
        for seat, cards in t.seats.items():
            have = self.placed.get(seat, ())
            if len(cards) < len(have) or tuple(c.name for c in have) != cards[: len(have)]:
                have = ()  # picked up (all or some): what is left is placed again
            new = list(cards[len(have):])
            if new:
                have = have + self._rows(seat, new, t.version, len(have))
            self.placed[seat] = have

    def _rows(self, seat: str, names: list[str], version: int, before: int) -> tuple:
        from vision.train.synth.scene import PLAY_SPOT, seat_cards

        rng = random.Random(f"{self.seed}:{self.table}:{version}:{seat}")
        x, y = PLAY_SPOT[seat]
        out_x, out_y = (x - 0.5) * 2, (y - 0.5) * 2  # towards the seat's edge, unit length
        placed = []
        for k, start in enumerate(range(0, len(names), ROW)):
            row = names[start:start + ROW]
            step = ROW_STEP * (k + (before + ROW - 1) // ROW)
            spot = (x + out_x * step + rng.uniform(-0.03, 0.03), y + out_y * step + rng.uniform(-0.02, 0.02))
            layout = "fan" if len(names) <= 4 and rng.random() < 0.3 else "row"
            placed += seat_cards(seat, row, layout, self.style, rng, spot=spot)
        return tuple(placed)

    def oracle(self) -> list:
        """What a perfect camera would read."""
        from vision.geometry import seat_of
        from vision.read import SeenCard

        return [SeenCard(c.name, 0.99, (c.x, c.y), seat_of((c.x, c.y))) for cs in self.placed.values() for c in cs]

    def render(self, t: scene.Table):
        from vision.train.synth.render import random_camera, render_frame
        from vision.train.synth.scene import PLAY_SPOT, Scene, random_hand

        rng = random.Random(f"{self.seed}:{self.table}:frame:{t.version}")
        hands = (random_hand(rng, PLAY_SPOT[t.hand]),) if t.hand else ()
        cards = tuple(c for seat in "SENW" for c in self.placed.get(seat, ()))
        cam = random_camera(random.Random(f"{self.seed}:{self.table}:camera"), SIZE)
        felt = random.Random(f"{self.seed}:{self.table}:felt").choice(((40, 110, 40), (60, 130, 30), (120, 70, 20)))
        return render_frame(Scene(cards, hands, felt, rng.randrange(1 << 30)), cam).image


class Camera:
    def __init__(self, table: str, rulebook: str, run_dir: Path, seed: int, see: str, url: str):
        from vision.options import table_game
        from vision.tracker import for_game

        self.table, self.see = table, see
        self.dir = run_dir / table
        self.reader = scene.Reader(self.dir / "scene.jsonl")
        self.state_path = self.dir / "camera.state"
        self.url = url
        self._stop = threading.Event()
        self.model = None
        self.lens = Lens(table, seed, STYLES[seed % len(STYLES)])
        # found=(): this camera keeps what it sent across restarts (camera.state), and starts with the hall on an empty
        # table, so nothing it finds is a play it may have sent before (``vision.restarted`` is for cameras that forget)
        game, decks = table_game(rulebook)
        self.tracker = for_game(game, settle_s=SETTLE_S, hand_gap_s=HAND_GAP_S, decks=decks, found=())
        self.version, self.at, self.fed = 0, 0.0, 0.0  # the last change seen, and the last time fed
        self.sent = 0
        self._frame = None  # the latest image (vision), kept for a flagged play
        self._view: list = []
        self._busy: dict = {}
        self._bare: dict = {}  # seats whose play zone the picture shows bare (``Reading.bare``)
        self._table = scene.Table()
        self._restore()

    def _restore(self) -> None:
        try:
            saved = pickle.loads(self.state_path.read_bytes())
        except (OSError, pickle.UnpicklingError, EOFError):
            return
        (self.version, self.at, self.fed, self.tracker, self.lens.placed, self._view, self._busy,
         self._bare) = saved
        log.info("%s: camera restarted after scene version %d", self.table, self.version)

    def _save(self) -> None:
        state = pickle.dumps((self.version, self.at, self.fed, self.tracker, self.lens.placed, self._view, self._busy,
                              self._bare))
        whole(self.state_path, lambda to: Path(to).write_bytes(state))
        self.states.saved()  # the states the saved tracker was told: acknowledged

    def run(self, stop: threading.Event) -> None:
        from bus.mqtt import Connection
        from cardtable.watchdog import KEEPALIVE_S, Watchdog
        from vision.watch import HUNG_S

        self._stop = stop
        if self.see == "vision":
            from vision.model import Model

            self.model = Model(threads=1, sure=hall_sure())
        from bus.protocol import encode, topic
        from vision.watch import TableStates

        where, name = topic(self.table, "camera/status"), f"cam-{self.table}"  # the hall's camera sees its table
        self.conn = Connection(self.url, manual_ack=True,
                               will=(where, encode("camera/status", {"v": 1, "status": "offline", "camera": name}), True),
                               birth=(where, encode("camera/status", {"v": 1, "status": "online", "camera": name}), True),
                               yields=True, keepalive_s=KEEPALIVE_S)  # as ``vision watch``: stopped whole, offline
        # in 1.5 keepalives; another camera of the table (its user, its client id) takes over, this one yields
        self.states = TableStates(self.conn, self.table)  # subscribed before connecting: the session's queue first
        self.dog = Watchdog(HUNG_S, lambda stood: log.error("%s: the camera's loop has not turned for %.0f s: ended, "
                                                            "its will says offline", self.table, stood), "hall-camera")
        self.conn.connect()
        try:
            self.dog.start()
            while not stop.is_set():
                self.dog.turn()
                if self.conn.taken is not None:
                    raise self.conn.taken
                changes = [t for t in self.reader.new() if t.version > self.version]
                for t in changes:
                    self._still(until=t.at)
                    self._look(t)
                if not changes:  # time goes on, as far as settling the last change needs
                    self._still(until=min(time.time(), self.at + SETTLE_S + 2 * STILL_S))
                    self._follow()  # a still table follows the table's states all the same
                    stop.wait(POLL_S)
        finally:
            self.dog.stop()
            self.conn.close(send_will=self.conn.taken is None)  # stopped: camera/status says offline (taken over: the
            # table's camera is the other one, online)

    def _look(self, t: scene.Table) -> None:
        """A change on the table: a new picture."""
        self.lens.place(t)
        if t.hand is not None:  # a hand over the cards: the seat is busy, the view is not read
            self._busy = {t.hand: True}
        elif not any(t.seats.values()):  # nothing on the table
            self._view, self._busy, self._bare = [], {}, {s: True for s in t.seats}
        elif self.see == "vision":
            from vision.read import read_frame

            self._frame = self.lens.render(t)
            reading = read_frame(self._frame, self.model)
            self._view, self._busy, self._bare = list(reading.cards), dict(reading.busy or {}), dict(reading.bare or {})
        else:  # a perfect camera: the cards as they lie, and the table bare where none lies
            self._view, self._busy, self._bare = self.lens.oracle(), {}, {s: not cards for s, cards in t.seats.items()}
        self._table = t
        self.version, self.at = t.version, t.at
        self._feed(max(t.at, self.fed))
        self._save()

    def _still(self, until: float) -> None:
        """The same picture at the times between the last change and ``until``."""
        self.fed = max(self.fed, until - LONGEST_GAP_S)  # a long still table: its last minute is enough
        while self.fed + STILL_S <= until:
            self._feed(max(self.fed + STILL_S, self.at))

    def _feed(self, at: float) -> None:
        from vision.tracker import drain, step

        self.dog.turn()  # every frame: a camera catching up on many changes, each rendered, is slow, not hung
        self._follow()  # what the table published since the last frame, in order
        self.fed = at
        self.tracker, plays = step(self.tracker, self._view, self._busy, at, self._bare)
        self.tracker, removals = drain(self.tracker)
        for play in plays:
            self._send(play)
        for removal in removals:
            self._send_removed(removal)
        if plays or removals:
            self._save()

    def _follow(self) -> None:
        """The table's states published since, told to the tracker, which is saved then (they are acknowledged)."""
        self.tracker = self.states.tell(self.tracker)
        if self.states.unsaved:
            self._save()

    def _send_removed(self, removal) -> None:
        """Cards picked up (the table service tells an early pickup from a cleared trick); one the frames did not
        show gone is flagged, with its frame kept, as a play is."""
        from vision.watch import messages

        pid = f"cam-{self.table}-{self.version}-{removal.seat}-up"
        self._publish(messages(removal, pid, self._kept() if removal.reasons else None), pid)

    def _publish(self, out: list[tuple[str, dict]], pid: str) -> None:
        """Publish and wait until the broker has it all, before the tracker's state is saved."""
        from bus.protocol import encode, topic

        for name, payload in out:
            self.conn.publish(topic(self.table, name), encode(name, payload), qos=1)
        waited = 0
        while not self.conn.flush(1.0):
            self.dog.turn()  # waiting for the broker, not hung
            if self._stop.is_set():
                raise SystemExit(0)
            if self.conn.taken is not None:
                raise self.conn.taken
            waited += 1
            if waited % SAY_EVERY_S == 1:  # the first second, then every ten (an outage wrote a line a second)
                log.warning("%s: the broker has not acknowledged %s yet (%d s)", self.table, pid, waited)

    def _kept(self):
        """The frame kept for the referee (an oracle camera renders it now)."""
        return self._frame if self._frame is not None else self.lens.render(self._table)

    def _send(self, play) -> None:
        from vision.watch import messages, why

        pid = f"cam-{self.table}-{self.version}-{play.seat}"
        out = messages(play, pid, self._kept() if play.reasons else None)
        self._publish(out, pid)
        self.sent += 1
        log.info("%s: %s %s (%.2f)%s", self.table, play.seat, " ".join(play.cards), play.confidence,
                 f" flagged: {why(play, 'en')}" if play.reasons else "")


def main(table: str, rulebook: str, run_dir: Path, seed: int, see: str) -> int:
    """``cardtable hall camera``: until SIGTERM; the broker URL (the camera's user) from ``HALL_CAMERA``."""
    import signal

    setup_logging()
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):  # set from a thread: a handler must take no lock
        signal.signal(sig, lambda *_: threading.Thread(target=stop.set, daemon=True).start())
    from bus.mqtt import TAKEN_OVER_EXIT, TakenOver

    try:
        Camera(table, rulebook, run_dir, seed, see, os.environ["HALL_CAMERA"]).run(stop)
    except TakenOver:  # another camera of the table (bus.mqtt said so): not taken back, nor started again by the hall
        return TAKEN_OVER_EXIT
    return 0
