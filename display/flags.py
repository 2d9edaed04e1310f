"""Which kept camera frame shows a flag: the frame of the flag's seat taken last before it.

A frame carries the ``observed`` message's id and time; the flag (in the table's ``state``) its
seat and the table's time of the read, which is never earlier than the camera's.

>>> frames = [{"seat": "E", "at": 10.0, "id": "a"}, {"seat": "E", "at": 20.0, "id": "b"}, {"seat": "S", "at": 21.0, "id": "c"}]
>>> frame_for({"seat": "E", "at": 20.5}, frames)["id"], frame_for({"seat": "E", "at": 15.0}, frames)["id"]
('b', 'a')
>>> frame_for({"seat": "W", "at": 20.0}, frames) is None, frame_for({"seat": "E", "at": 99.0}, frames) is None
(True, True)
"""

from __future__ import annotations

SLACK_S = 1.0  # the camera's clock may run a little ahead of the table's
OLDEST_S = 30.0  # a frame older than this before the flag belongs to another read


def frame_for(flag: dict, frames: list[dict]) -> dict | None:
    near = [f for f in frames if f["seat"] == flag["seat"] and flag["at"] - OLDEST_S <= f["at"] <= flag["at"] + SLACK_S]
    return max(near, key=lambda f: f["at"]) if near else None
