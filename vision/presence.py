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
"""

from __future__ import annotations

from dataclasses import dataclass, replace

LOST_AFTER_S = 5.0  # a marker hidden by an arm for a moment is not a camera lost


@dataclass(frozen=True)
class Presence:
    """When the camera started, last had a frame, began its current run of frames (after none for
    ``lost_after_s``) and last found the four markers (its clock's seconds)."""

    started: float
    lost_after_s: float = LOST_AFTER_S
    frame_at: float | None = None
    run_from: float | None = None
    markers_at: float | None = None

    def framed(self, at: float, calibrated: bool | None = None) -> Presence:
        """A frame came at ``at``: the four markers found in it, not found, or (None) not looked for."""
        gap = self.frame_at is None or at - self.frame_at > self.lost_after_s
        return replace(self, frame_at=at, run_from=at if gap else self.run_from,
                       markers_at=at if calibrated else self.markers_at)

    def status(self, now: float) -> dict | None:
        """``camera/status``'s ``status``, and when lost its ``reason`` and ``since`` (when last seen; absent: never
        since the camera started); None while nothing is known yet. Lost for want of frames after ``lost_after_s``
        seconds without one (from the start at the earliest); for want of the markers after frames over that long,
        none of them with the markers (a camera that gave no frame for a while is judged again from its next one);
        online only once a frame of this run showed them."""
        if now - (self.started if self.frame_at is None else self.frame_at) > self.lost_after_s:
            return {"status": "lost", "reason": "frames"} | ({} if self.frame_at is None else {"since": self.frame_at})
        if self.frame_at is None:  # none yet, and not for long
            return None
        seen = self.markers_at is not None and self.markers_at >= self.run_from  # the table, in this run of frames
        if self.frame_at - (self.markers_at if seen else self.run_from) > self.lost_after_s:
            return {"status": "lost", "reason": "markers"} | ({} if self.markers_at is None else {"since": self.markers_at})
        return {"status": "online"} if seen else None
