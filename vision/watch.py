"""``cardtable vision watch``: frames from a camera, a stream or a file -> ``observed`` plays over MQTT (as the
table's camera user), with the kept frame on ``frames`` for every play that needs a person, and on ``camera/status``
whether the camera still sees the table (:mod:`vision.presence`; ``offline`` its last will). One camera per table:
it holds a lock file of the table and broker (``hold``), as a table's bridge does, so a second ``vision watch`` of the
table on this machine says so and ends instead of the two taking the table's ``camera-T`` connection from each other
for ever, each sending the plays it sees. A second camera of the table on another machine takes the connection over
(the broker gives it to the newer): this one yields (``bus.mqtt``'s ``yields``), publishes nothing more, not even
``offline`` (the table is watched, by the other), and ends in words (``taken_over``; the command's exit status
``TAKEN_OVER_EXIT``, which the hall's units do not restart). It follows its table's ``state`` (the one topic it reads): what the table holds as the trick in play, which the
tracker judges the next plays against (:func:`vision.tracker.told`: plays the table took back; :class:`TableStates`, which
the hall's camera shares). A camera that cannot watch ends in words
(:class:`SourceError`): a video file that gives no frame, or a broker that refuses what it publishes (the credentials of
another table's camera). A live
camera or stream that drops (a read fails or gives an empty frame, or gives no frame for ``STALL_S``: a camera
unplugged, its device gone, a network camera rebooting or stalled) is said and opened again, after 1, 2, then every
5 s (``REOPEN_S``, from one try's start to the next's), each try cut after ``OPEN_S`` (a server that takes the
connection and says nothing; the next try then at once), until it gives frames; so is one that does not open at the
start (a camera not plugged in yet: :func:`opened`); its markers are then looked for
as at the start (it may have come back moved), and no play is read before they are all found. A USB camera
unplugged is the same drop, by index or by its device's path (which vanishes with it): :func:`kind`; so is a named
pipe whose writer stopped (:class:`Calls`: a read FFmpeg does not bound). A live source frozen on one picture (its
frames alike bit for bit: :mod:`vision.presence`) is said, lost, and no play is read from it until the picture
moves. A video file that ends ends the watch. A loop that has not turned for ``HUNG_S`` (blocked for ever: its log
not read, a driver or the recognition stuck) ends the process (:mod:`cardtable.watchdog`), and the broker drops a watch
stopped whole (SIGSTOP) once it has heard nothing for 1.5 ``cardtable.watchdog.KEEPALIVE_S``: either way it says
``offline``, the will, and the machine's unit starts the watch again (else the thread that says ``camera/status``,
blocked on its log too, left it ``online``).

Ids are ``{name}-{boot}-{counter}`` (the camera's name, its start time in hex, a counter): unique per table and
stable, as ``bus/PROTOCOL.md`` asks."""

from __future__ import annotations

import base64
import os
import queue
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import cv2
import numpy as np

from cardtable.watchdog import KEEPALIVE_S, Watchdog
from referee.catalogue import Refusal, cli_lang, said, say
from referee.catalogue.sentences import Sentences
from vision.calibrate import NotCalibrated, calibrate, find_markers, unmoved, usable
from vision.model import Model
from vision.presence import LOST_AFTER_S, Presence
from vision.read import Reading, read_frame
from vision.sanity import FLAGGED_CONFIDENCE
from vision.tracker import Play, Removal, Tracker, drain, for_game, step, told

if TYPE_CHECKING:
    from bus import lock

FRAME_CHARS = 240_000  # the frames schema's limit on the base64 JPEG
REMOVAL_CONFIDENCE = 0.95  # a seat's area read empty, uncovered and seen bare for the settle time (``tracker``)
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".webp"}
TELL_EVERY_S = 0.25  # how often the camera's presence is looked at (published only when it changes)
STALL_S = 5.0  # a live source that gives no frame for this long has stalled: it is dropped and opened again
OPEN_S = 10.0  # a stream's open (its server's answer, its first frames probed: a keyframe) is given up after this long
REOPEN_S = (1.0, 2.0, 5.0)  # from the drop (then each try's start) to each try to open it again; then every 5 s
KICK = signal.SIGALRM  # sent by the watch to its own main thread only, to interrupt a capture call hung in the system
HUNG_S = 30.0  # a loop that has not turned for this long has hung (cardtable.watchdog): about twice its longest turn,
# a stalled read, the wait and a try to open the source again (STALL_S + REOPEN_S[0] + OPEN_S: 16.1 s measured); a
# 2560x1920 frame read and its cards found took 2.9 s at most (2 cores, load 10)


class TableStates:
    """The table's ``state`` as its camera follows it (:func:`vision.tracker.told`): each state the broker delivers on
    ``conn`` (subscribed here), told to the tracker in the order published, before its next frame (:meth:`tell`).
    On a connection with ``manual_ack`` (a camera that saves its tracker: ``hall camera``) a state is acknowledged only
    once the tracker told it is saved (:meth:`saved`): a camera that stops before gets it again from its session, and
    ``told`` takes no state older than the last it was told."""

    def __init__(self, conn, table: str):
        from bus.protocol import topic

        self.conn, self._heard, self._told = conn, queue.SimpleQueue(), []  # heard on paho's thread, in order
        conn.subscribe(topic(table, "state"), self._hear)

    def _hear(self, _topic: str, payload: bytes, delivery=None) -> None:
        from bus.protocol import PayloadError, decode

        try:
            self._heard.put((decode("state", payload), delivery))
        except PayloadError:  # not the table's: the tracker goes on with what it was told
            self._heard.put((None, delivery))

    def tell(self, tracker: Tracker) -> Tracker:
        """``tracker`` told every state heard since, in order."""
        while not self._heard.empty():
            state, delivery = self._heard.get()
            tracker = tracker if state is None else told(tracker, state)
            if delivery is not None:
                self._told.append(delivery)
        return tracker

    @property
    def unsaved(self) -> bool:
        """States told (or refused) that wait for :meth:`saved` to be acknowledged."""
        return bool(self._told)

    def saved(self) -> None:
        """The tracker told them is saved: the states are acknowledged (the broker drops them from the session)."""
        for delivery in self._told:
            self.conn.ack(delivery)
        self._told = []


class SourceError(Refusal, RuntimeError):
    """The camera cannot watch its table: its source cannot be opened or gives no frame, another camera of this
    machine watches the table, one of another machine took it over (``taken_over``), or the broker refuses what it
    publishes."""

    section = "vision.error"


@dataclass
class Ids:
    name: str
    boot: str
    count: int = 0

    def next(self) -> str:
        self.count += 1
        return f"{self.name}-{self.boot}-{self.count:06d}"


def kind(source: str) -> str:
    """What ``source`` is: a ``camera`` (an index, or a video device's path: ``/dev/video0``, or the name that stays
    with a USB camera, ``/dev/v4l/by-id/...``), a ``stream`` (a URL, or a named pipe another program writes the
    camera's video into: ``ffmpeg``, ``libcamera-vid``) or a ``file`` (a path or a ``file://`` URL: it ends, never
    opened again). A path that is none of these is refused (:class:`SourceError`)."""
    if source.isdigit():
        return "camera"
    if "://" in source and not source.startswith("file://"):
        return "stream"
    path = Path(source.removeprefix("file://"))
    if path.is_fifo():
        return "stream"
    if path.is_char_device() or (source.startswith("/dev/") and not path.exists()):  # a camera not plugged in yet
        return "camera"
    if not path.is_file():
        raise SourceError("no_video", source=source)
    return "file"


def hold(table: str, broker: str, source: str) -> lock.Holding:
    """Hold ``table`` for this camera (its :func:`bus.lock.path`) until its release; :class:`SourceError`,
    naming the holder, when another camera holds it."""
    from bus import lock

    return lock.hold_or_refuse(SourceError, lock.path("camera", table, broker), source, busy="table_busy",
                               unopened="table_lock", table=table)


def open_source(source: str, size: tuple[int, int] | None = None, what: str | None = None) -> cv2.VideoCapture:
    """The capture of ``source``, of the kind ``what`` (:func:`kind`'s, found when None: a source opened again keeps
    the kind it had, so that a device's path gone with its camera is one more source that does not open). Every wait
    is bounded: a stream's open by ``OPEN_S``, its reads and a camera's by ``STALL_S`` (V4L2's select timeout, read
    from the environment by OpenCV once, at a camera's first read). ``size``: the frame size to ask a camera for; a
    stream or a file has its own."""
    what = what or kind(source)
    if what == "stream":
        cap = cv2.VideoCapture(source, cv2.CAP_FFMPEG, [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, int(OPEN_S * 1000),
                                                        cv2.CAP_PROP_READ_TIMEOUT_MSEC, int(STALL_S * 1000)])
    elif what == "camera":
        os.environ.setdefault("OPENCV_VIDEOIO_V4L_SELECT_TIMEOUT", str(round(STALL_S)))  # else 10 s a read
        cap = cv2.VideoCapture(int(source)) if source.isdigit() else cv2.VideoCapture(source, cv2.CAP_V4L2)
    else:
        cap = cv2.VideoCapture(source)
    if not cap.isOpened():
        raise SourceError("cannot_open", source=repr(source))
    if size and what == "camera":
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
    return cap


def jpeg_b64(image: np.ndarray, limit: int = FRAME_CHARS) -> str:
    """The frame as base64 JPEG within ``limit`` characters (smaller and rougher until it fits)."""
    for width in (1280, 960, 640, 480, 320, 160):
        scaled = image if image.shape[1] <= width else cv2.resize(image, (width, round(image.shape[0] * width / image.shape[1])),
                                                               interpolation=cv2.INTER_AREA)
        for quality in (85, 70, 50):
            text = base64.b64encode(cv2.imencode(".jpg", scaled, [cv2.IMWRITE_JPEG_QUALITY, quality])[1]).decode()
            if len(text) <= limit:
                return text
    raise ValueError("cannot fit the frame into the frames payload")


def why(play: Play | Removal, lang: str) -> str:
    """Why ``play`` (or a removal) needs a person, in ``lang`` (its reasons joined)."""
    return say(lang, "vision.reasons_sep").join(Sentences(lang).reason(r) for r in play.reasons)


def coarse_said(reading: Reading, model: Model, lang: str) -> str:
    """Why none of a coarse frame's reads is sure (``Reading.coarse``), in ``lang``."""
    return say(lang, "vision.coarse", detail=f"{reading.detail:.2f}", least=f"{model.calibration.detail:.2f}")


def nothing_sure_said(model: Model, lang: str) -> str | None:
    """Why no read of ``model`` is ever sure, in ``lang``, when its calibration marks nothing sure (the shipped one
    out of the box; a deck's its check did not vouch for): every play then goes to a person. None otherwise."""
    cal = model.calibration
    if cal is None or cal.marks_sure():
        return None
    return say(lang, "vision.nothing_sure_deck" if cal.for_deck() else "vision.nothing_sure")


def messages(play: Play | Removal, msg_id: str, image: np.ndarray, lang: str = "zh") -> list[tuple[str, dict]]:
    """What one play (an ``observed``) or removal (a ``removed``) publishes: the kept frame first when it needs a
    person (why, in ``lang``), then the message itself, with the confidence 0.5 then
    (``vision.sanity.FLAGGED_CONFIDENCE``). A removal is otherwise sure (``REMOVAL_CONFIDENCE``): its frames
    showed the table bare where the cards lay."""
    out = []
    if play.reasons:
        out.append(("frames", {"v": 1, "id": msg_id, "seat": play.seat, "at": play.at,
                               "reason": why(play, lang)[:200], "jpeg": jpeg_b64(image)}))
    if isinstance(play, Removal):
        confidence = FLAGGED_CONFIDENCE if play.reasons else REMOVAL_CONFIDENCE
        return out + [("removed", {"v": 1, "id": msg_id, "seat": play.seat, "cards": list(play.cards),
                                   "confidence": confidence, "at": play.at})]
    out.append(("observed", {"v": 1, "id": msg_id, "seat": play.seat, "cards": list(play.cards),
                             "confidence": play.confidence, "at": play.at}))
    return out


class Calls:
    """The watch's capture calls (an open, a read, a wait to open again) on its main thread, and how long the last
    took. One under way for over ``STALL_S`` is interrupted by :meth:`kick` (from the presence's thread) with a signal
    whose handler does nothing (``KICK``), every time it is called: a read blocked in the system returns to FFmpeg,
    which gives it up once its bound has passed. FFmpeg looks at its bounds only between its waits, and it reads a
    named pipe whose writer stopped writing (and did not close it) with no wait of its own: that read, and a try to
    open a pipe no program writes to, blocked for ever. The handler is the main thread's, set from :meth:`hold` to
    :meth:`release` (a watch on another thread never kicks)."""

    def __init__(self) -> None:
        self.since, self.took, self._main = None, 0.0, threading.current_thread() is threading.main_thread()

    def hold(self) -> None:
        if self._main:
            self._ident, self._before = threading.get_ident(), signal.signal(KICK, lambda *_: None)

    def release(self) -> None:
        if self._main:
            self._main = False
            signal.signal(KICK, self._before)

    def run(self, call: Callable, *args):
        """``call(*args)``, timed."""
        self.since = began = time.monotonic()
        try:
            return call(*args)
        finally:
            self.since, self.took = None, time.monotonic() - began

    def kick(self, now: float) -> None:
        since = self.since
        if self._main and since is not None and now - since > STALL_S:
            signal.pthread_kill(self._ident, KICK)


def alike(before: np.ndarray | None, frame: np.ndarray) -> bool:
    """``frame`` the very same as ``before``, bit for bit (a sparse look first: a live sensor's noise makes frames
    differ almost everywhere)."""
    return (before is not None and before.shape == frame.shape and np.array_equal(before[::8, ::8], frame[::8, ::8])
            and np.array_equal(before, frame))


def watch(source: str, table: str, broker: str, model: Model, *, name: str | None = None, decks: int = 3, game: str = "tractor",
          settle_s: float = 0.8, fps: float = 10.0, size: tuple[int, int] | None = None,
          clock: Callable[[], float] = time.time, log: Callable[[str], None] = print, lang: str | None = None,
          lost_after_s: float = LOST_AFTER_S) -> int:
    lang = lang or cli_lang()
    what = kind(source)  # a file that is not there is said before anything is published
    from bus.mqtt import TakenOver

    held = hold(table, broker, source)
    try:
        return _watch(source, what, table, broker, model, name=name, decks=decks, game=game, settle_s=settle_s, fps=fps,
                      size=size, clock=clock, log=log, lang=lang, lost_after_s=lost_after_s)
    except TakenOver as e:
        raise SourceError("taken_over", table=table, why=e) from None
    finally:
        held.release()


def _watch(source: str, what: str, table: str, broker: str, model: Model, *, name: str | None, decks: int, game: str,
           settle_s: float, fps: float, size: tuple[int, int] | None, clock: Callable[[], float],
           log: Callable[[str], None], lang: str, lost_after_s: float) -> int:
    """``watch`` once the table is held."""
    from bus.mqtt import Connection, TakenOver
    from bus.protocol import encode, topic

    boot = clock()
    ids = Ids(name or f"cam-{table}", format(int(boot), "x"))
    where = topic(table, "camera/status")
    conn = Connection(broker, will=(where, encode("camera/status", {"v": 1, "status": "offline", "camera": ids.name}),
                                    True), yields=True, keepalive_s=KEEPALIVE_S).connect()  # its client id: the
    # camera's user name; stopped whole (SIGSTOP), it is offline, its will, within 1.5 KEEPALIVE_S
    tracker, states = for_game(game, settle_s=settle_s, decks=decks), TableStates(conn, table)
    calibration, last_at, sent, warned, coarse, framed, shown = None, None, 0, False, False, False, None
    frozen = False  # as last said: it may turn on a frame skipped for the rate, said at the next one compared
    presence = Presence(time.monotonic(), lost_after_s)  # timed on the monotonic clock: a wall clock set back or
    # forward neither hides a lost camera nor makes one up
    stopped, calls = threading.Event(), Calls()
    dog = Watchdog(HUNG_S, lambda stood: log(say(lang, "vision.loop_hung", table=table, seconds=f"{stood:.0f}")),
                   "camera-watch")  # a loop that stops turning ends the process: its will says offline

    def tell() -> None:  # camera/status on every change, and again on every reconnection (its birth); from a thread
        told = None  # of its own, so that a read that hangs (a stalled stream, a driver stuck) is told as lost too
        while not stopped.wait(TELL_EVERY_S):
            calls.kick(time.monotonic())  # and given up by FFmpeg, even a named pipe's
            status = presence.status(time.monotonic())
            if status is not None and status != told:  # None: nothing known yet, what was said stands
                told, now = status, clock()
                shown = status | ({"since": round(now - (time.monotonic() - status["since"]), 3)} if "since" in status
                                  else {})
                conn.birth = (where, encode("camera/status", {"v": 1, **shown, "at": now, "camera": ids.name}), True)
                try:
                    conn.publish(where, conn.birth[1], qos=1, retain=True)
                except TakenOver:  # the main loop says it
                    return
                log(say(lang, f"vision.camera_{status['status']}", s=f"{lost_after_s:g}",
                        reason=say(lang, f"vision.lost_{status['reason']}") if "reason" in status else ""))

    teller = threading.Thread(target=tell, name="camera-status", daemon=True)
    if nothing := nothing_sure_said(model, lang):
        log(nothing)
    cap = None
    try:
        calls.hold()
        teller.start()
        dog.start()
        cap, live = calls.run(opened, source, size, what), what != "file"  # OPEN_S at most: told as lost meanwhile;
        # a live source that does not open (a camera not plugged in yet) is waited for as one that drops
        tries, since = 0, 0.0  # tries to open the live source again since it dropped; when the last began
        while True:
            dog.turn()
            refused(conn, table)  # taken over too: said within a frame, or a reopen's wait
            ok, frame = calls.run(cap.read) if cap is not None else (False, None)
            if not (ok and usable(frame)) or (live and calls.took > STALL_S):  # an empty or tiny frame is none, as
                # a failed or stalled read; so is one read after so long (held by the demuxer since the source stalled)
                if not live:
                    break
                if tries == 0:  # said once; camera/status says lost once it has given no frame for lost_after_s
                    since = time.monotonic()
                    log(say(lang, "vision.dropped" if framed else "vision.no_frames_yet", source=source,
                            stall=f"{STALL_S:g}", first=f"{REOPEN_S[0]:g}", open=f"{OPEN_S:g}", every=f"{REOPEN_S[-1]:g}"))
                if cap is not None:
                    cap.release()
                calibration, warned = None, False  # it may come back moved: no play is read before its markers
                (cap, since), tries = calls.run(reopen, source, what, size, tries, since), tries + 1
                continue
            if tries:
                log(say(lang, "vision.reopened" if framed else "vision.first_frames", source=source))
                tries = 0
            framed = True
            at = clock() if live else boot + cap.get(cv2.CAP_PROP_POS_MSEC) / 1000
            if last_at is not None and at - last_at < 1 / fps - 1e-6:
                presence = presence.framed(time.monotonic())
                continue  # keep to the frame rate the tracker needs
            same, last_at, shown = alike(shown, frame) if live else None, at, frame
            presence = presence.framed(time.monotonic(), same=same)
            if presence.frozen != frozen:  # said when it freezes and when it moves again (vision.presence)
                frozen = presence.frozen
                log(say(lang, "vision.frozen" if frozen else "vision.unfrozen", source=source,
                        s=f"{presence.frozen_after_s:g}"))
                calibration, warned = None, False  # it may have been moved meanwhile: its markers are found again
            if presence.frozen:
                continue  # a stuck picture is not the table now: no play is read from it, nor an empty table's time
            markers = find_markers(frame)
            try:
                calibration, seen = calibrate(frame, markers), True  # every frame: the camera may be bumped
            except NotCalibrated as e:
                if calibration is None:  # markers never seen yet
                    if not warned:
                        log(say(lang, "vision.waiting", problem=said(e, lang)))
                        warned = True
                    continue
                seen = unmoved(calibration, markers)  # one hidden by an arm: the last calibration, the table seen
            if seen:  # else lost after LOST_AFTER_S
                presence = presence.framed(time.monotonic(), calibrated=True)
            reading = read_frame(frame, model, calibration)
            if reading.coarse and not coarse:  # said when it begins (a camera moved back, or zoomed out)
                log(coarse_said(reading, model, lang))
            coarse = reading.coarse
            tracker = states.tell(tracker)
            tracker, plays = step(tracker, list(reading.cards), reading.busy or {}, at, reading.bare)
            tracker, removals = drain(tracker)
            for removal in removals:  # picked up: the table service tells an early pickup from a cleared trick
                msg_id = ids.next()
                for name_, payload in messages(removal, msg_id, frame, lang):
                    conn.publish(topic(table, name_), encode(name_, payload), qos=1)
                if removal.reasons:  # said as a flagged read is; its reason says the cards are no longer read
                    line = say(lang, "vision.play", id=msg_id, seat=removal.seat, cards=" ".join(removal.cards),
                               confidence=FLAGGED_CONFIDENCE)
                    log(say(lang, "vision.flagged", play=line, reasons=why(removal, lang)))
            for play in plays:
                msg_id = ids.next()
                for name_, payload in messages(play, msg_id, frame, lang):
                    conn.publish(topic(table, name_), encode(name_, payload), qos=1)
                sent += 1
                line = say(lang, "vision.play", id=msg_id, seat=play.seat, cards=" ".join(play.cards),
                           confidence=play.confidence)
                log(say(lang, "vision.flagged", play=line, reasons=why(play, lang)) if play.reasons else line)
        if not framed:  # a file that is no video: the camera read nothing, which is not a table watched
            raise SourceError("no_frames", source=source)
    except KeyboardInterrupt:
        pass
    finally:
        dog.turn()  # closing takes 10 s at most (the teller's join, conn.close)
        stopped.set()
        if teller.is_alive():
            teller.join(timeout=5.0)
        calls.release()
        if cap is not None:
            cap.release()
        if conn.taken is None:  # else the table's camera is the other one, online
            conn.publish(where, encode("camera/status", {"v": 1, "status": "offline", "at": clock(),
                                                         "camera": ids.name}), qos=1, retain=True)
        conn.close(flush_timeout=5.0)
        dog.stop()
        if conn.taken is None:
            log(say(lang, "vision.camera_offline"))
    refused(conn, table)  # what the broker answered to the last of it
    log(say(lang, "vision.sent", n=sent))
    return 0


def opened(source: str, size: tuple[int, int] | None, what: str) -> cv2.VideoCapture | None:
    """``source`` opened at the start (:func:`open_source`); None for a live one that does not open (a camera
    unplugged, a stream's server down), which the watch then waits for; a file that does not is refused."""
    try:
        return open_source(source, size, what)
    except SourceError:
        if what == "file":
            raise
        return None


def reopen(source: str, what: str, size: tuple[int, int] | None, tries: int,
           since: float) -> tuple[cv2.VideoCapture | None, float]:
    """A dropped live source of kind ``what`` opened again, its try number ``tries`` begun its wait (``REOPEN_S``)
    after ``since`` (on the monotonic clock: when the try before began, or the drop was seen; at once after a try
    that took longer, held by a silent server up to ``OPEN_S``), and when the try began. The capture is None when it
    does not open (a camera unplugged, its device's path gone; a stream's server down, or silent)."""
    time.sleep(max(0.0, since + REOPEN_S[min(tries, len(REOPEN_S) - 1)] - time.monotonic()))
    began = time.monotonic()
    return opened(source, size, what), began


def refused(conn, table: str) -> None:
    """:class:`SourceError` once the broker has refused something the camera published: the table hears none of it
    (the credentials of another table's camera: ``--table`` and ``--credentials`` disagree); ``conn.taken`` once
    another camera took the connection over."""
    if conn.taken is not None:
        raise conn.taken
    if conn.refused():
        raise SourceError("refused", table=table, user=conn.address.username or "?")
