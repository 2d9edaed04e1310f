"""Does the camera still see its table? What ``cardtable vision watch`` publishes on ``camera/status``
(``bus/PROTOCOL.md``), a pure value: a table whose camera sees nothing has no play of it judged, and must not look
watched.

``online`` only once a frame showed the table's four markers, while frames come and show them, or three of them where
they were (``vision.calibrate.unmoved``: one covered by an arm); ``lost`` once ``LOST_AFTER_S`` seconds pass with no
frame from a live camera or stream (``frames``: a cable pulled, a stream dropped, a camera not there at the start),
or with frames but never the table so (``markers``: the camera moved, two markers covered, the light off);
``offline`` is the broker's, as the camera's last will, or the camera's own when it stops. Until the frames of a run
(the first ones, or the first after none for ``LOST_AFTER_S``) show the markers or that long passes, nothing is known:
:meth:`Presence.status` is None, and what was said before stands (a camera just started, or back but not yet seeing
the table, never says ``online``).

>>> p = Presence(started=100.0)
>>> p.status(101.0), p.status(106.0)  # nothing known yet; then no frame for 5 s (a camera not plugged in)
(None, {'status': 'lost', 'reason': 'frames'})
>>> p = Presence(started=100.0).framed(100.5, calibrated=False).framed(103.0, calibrated=False)
>>> p.status(103.0), p.framed(105.6, calibrated=False).status(105.6)  # frames, none with the markers
(None, {'status': 'lost', 'reason': 'markers'})
>>> p = p.framed(105.0, calibrated=True).framed(105.1)  # the markers found; a frame not looked at for them
>>> p.status(105.2), p.status(110.2)  # then no frame: lost for want of frames, the markers not judged without them
({'status': 'online'}, {'status': 'lost', 'reason': 'frames', 'since': 105.1})
>>> p = p.framed(112.0, calibrated=False)  # frames again after none for 6.9 s: judged from this one on
>>> p.status(112.0), p.framed(115.0).framed(117.1).status(117.1)
(None, {'status': 'lost', 'reason': 'markers', 'since': 105.0})
>>> p.framed(113.0, calibrated=True).status(113.0)  # the table seen again
{'status': 'online'}

A live source's frame the very same as the one before, bit for bit (``same``), is no new frame of the table: a
real sensor's noise makes every frame differ somewhere, even of a still table, so frames all alike for
``FROZEN_AFTER_S`` seconds (in one run of frames) are a camera or encoder stuck on one picture, lost for want of
frames (``frames``: the schema's reasons are closed) since the last one that differed; the markers of its frames no
longer count, and the first frame that differs begins a new run, judged from it on (online once it shows the
markers).

>>> p = Presence(started=100.0).framed(100.0, calibrated=True, same=False).framed(104.0, calibrated=True, same=True)
>>> p.status(104.0), p.framed(105.2, calibrated=True, same=True).status(105.2)  # alike for 4 s; then over 5 s
({'status': 'online'}, {'status': 'lost', 'reason': 'frames', 'since': 100.0})
>>> p = p.framed(105.2, calibrated=True, same=True).framed(106.0, calibrated=False, same=False)
>>> p.status(106.0), p.framed(106.2, calibrated=True, same=False).status(106.2)  # it moves again
(None, {'status': 'online'})
"""

from __future__ import annotations

from dataclasses import dataclass, replace

LOST_AFTER_S = 5.0  # a marker hidden by an arm for a moment is not a camera lost
FROZEN_AFTER_S = 5.0  # a source repeating frames (one sent twice, a long GOP's skipped blocks) is not yet frozen


@dataclass(frozen=True)
class Presence:
    """When the camera started, last had a frame, began its current run of frames (after none for
    ``lost_after_s``, or after frozen ones), last found the four markers and last had a frame unlike the one before
    (its clock's seconds)."""

    started: float
    lost_after_s: float = LOST_AFTER_S
    frame_at: float | None = None
    run_from: float | None = None
    markers_at: float | None = None
    changed_at: float | None = None
    frozen_after_s: float = FROZEN_AFTER_S

    def framed(self, at: float, calibrated: bool | None = None, same: bool | None = None) -> Presence:
        """A frame came at ``at``: the four markers found in it, not found, or (None) not looked for; the very same as
        the frame before (``same``), unlike it, or (None) not compared (a file's frames, or one skipped by the rate)."""
        fresh = self.frame_at is None or at - self.frame_at > self.lost_after_s  # frames after none for long
        if fresh or same is False:  # a picture of its own (None: not compared); alike judged within a run of frames
            changed_at = at if same is not None else None
        else:
            changed_at = self.changed_at
        gap = fresh or (same is False and self.frozen)  # or frames again after a frozen picture
        frozen = changed_at is not None and at - changed_at > self.frozen_after_s
        return replace(self, frame_at=at, run_from=at if gap else self.run_from, changed_at=changed_at,
                       markers_at=at if calibrated and not frozen else self.markers_at)

    @property
    def frozen(self) -> bool:
        """The frames, up to the last, have all been alike for over ``frozen_after_s``: a picture stuck."""
        return self.changed_at is not None and self.frame_at - self.changed_at > self.frozen_after_s

    def status(self, now: float) -> dict | None:
        """``camera/status``'s ``status``, and when lost its ``reason`` and ``since`` (when last seen; absent: never
        since the camera started); None while nothing is known yet. Lost for want of frames after ``lost_after_s``
        seconds without one (from the start at the earliest), or of frames all alike over ``frozen_after_s``; for
        want of the markers after frames over that long, none of them with the markers (a camera that gave no frame
        for a while, or a frozen one, is judged again from its next frame); online only once a frame of this run
        showed them."""
        if now - (self.started if self.frame_at is None else self.frame_at) > self.lost_after_s:
            return {"status": "lost", "reason": "frames"} | ({} if self.frame_at is None else {"since": self.frame_at})
        if self.frame_at is None:  # none yet, and not for long
            return None
        if self.frozen:
            return {"status": "lost", "reason": "frames", "since": self.changed_at}
        seen = self.markers_at is not None and self.markers_at >= self.run_from  # the table, in this run of frames
        if self.frame_at - (self.markers_at if seen else self.run_from) > self.lost_after_s:
            return {"status": "lost", "reason": "markers"} | ({} if self.markers_at is None else {"since": self.markers_at})
        return {"status": "online"} if seen else None
