"""Which kept camera frame shows a flag: the frame of the flag's seat taken last before it; and which of ``confirm``,
``dismiss`` and ``correct`` mean something for a flag (:func:`actions`), the console offering only those.

A frame carries the ``observed`` message's id and time; the flag (in the table's ``state``) its
seat and the table's time of the read, which is never earlier than the camera's.

>>> frames = [{"seat": "E", "at": 10.0, "id": "a"}, {"seat": "E", "at": 20.0, "id": "b"}, {"seat": "S", "at": 21.0, "id": "c"}]
>>> frame_for({"seat": "E", "at": 20.5}, frames)["id"], frame_for({"seat": "E", "at": 15.0}, frames)["id"]
('b', 'a')
>>> frame_for({"seat": "W", "at": 20.0}, frames) is None, frame_for({"seat": "E", "at": 99.0}, frames) is None
(True, True)
"""

from __future__ import annotations

from display.said import rulebook_game

SLACK_S = 1.0  # the camera's clock may run a little ahead of the table's
OLDEST_S = 30.0  # a frame older than this before the flag belongs to another read


def frame_for(flag: dict, frames: list[dict]) -> dict | None:
    near = [f for f in frames if f["seat"] == flag["seat"] and flag["at"] - OLDEST_S <= f["at"] <= flag["at"] + SLACK_S]
    return max(near, key=lambda f: f["at"]) if near else None


ALL = ("confirm", "dismiss", "correct")
# bus/PROTOCOL.md "Flags": correct is refused for a flag that holds no play (a pickup is none); dismiss is confirm for
# a call, a turn nobody played, a seat waited on and a stalled seat (the console offers one of the two); a stalled seat's correct enters
# the play seen
ACTIONS = {"out_of_turn": ("confirm", "dismiss"), "early_pickup": ("confirm", "dismiss"), "no_play": ("confirm",),
           "idle": ("confirm",), "unsure_pickup": ("confirm", "dismiss"), "referee_called": ("confirm",), "stalled": ("confirm", "correct"),
           "wrong_card_count": ("confirm", "dismiss")}


def actions(flag: dict, state: dict) -> tuple[str, ...]:
    """The answers that mean something for ``flag`` at a table in ``state``: exposed cards hold a read (to correct)
    when the seat was on turn (a Tractor follow of the wrong size) or in a Tractor draw (cards that make no
    declaration: corrected, they are judged as a declaration), else they were shown off turn.

    >>> actions({"kind": "referee_called", "seat": "E"}, {"turn": "E"}), actions({"kind": "unsure", "seat": "S"}, {"turn": "S"})
    (('confirm',), ('confirm', 'dismiss', 'correct'))
    >>> actions({"kind": "exposed_card", "seat": "W"}, {"turn": "W"}), actions({"kind": "exposed_card", "seat": "W"}, {"turn": "S"})
    (('confirm', 'dismiss', 'correct'), ('confirm', 'dismiss'))
    >>> actions({"kind": "exposed_card", "seat": "W"}, {"turn": None, "phase": "dealing"})
    ('confirm', 'dismiss', 'correct')

    A flag with ``choices`` (a Tractor captive led, 001 十五) is dismissed naming one (bus/PROTOCOL.md ``reading``), which the
    console offers as a button for each, beside these:

    >>> actions({"kind": "illegal_lead", "seat": "S", "choices": [[["SA"]], [["SK"]]]}, {"turn": "S"})
    ('confirm', 'correct')

    Cards lying on the table (``laid_out_of_turn``, ``laid_taken_back``) are confirmed as the seat's play only where
    their count can be that play (:func:`could_be_play`), else the table refuses it (``table.lying_not_the_play``):

    >>> trick = {"leader": "S", "plays": [{"seat": "S", "cards": ["SK"]}]}
    >>> state = {"rulebook": "classic-3deck", "turn": "E", "current_trick": trick, "cards": {"E": 39}}
    >>> actions({"kind": "laid_taken_back", "seat": "E", "cards": ["S4", "S3"]}, state)
    ('dismiss', 'correct')
    >>> actions({"kind": "laid_taken_back", "seat": "E", "cards": ["S3"]}, state)
    ('confirm', 'dismiss', 'correct')
    """
    if flag.get("choices"):  # dismissed naming the choice stated (``reading``), never plainly: the table refuses that
        return ("confirm", "correct")
    if flag["kind"] == "exposed_card" and flag["seat"] != state.get("turn") and state.get("phase") != "dealing":
        return ACTIONS["out_of_turn"]
    if flag["kind"] in LYING and not could_be_play(flag["seat"], len(flag.get("cards", [])), state):
        return ("dismiss", "correct")
    return ACTIONS.get(flag["kind"], ALL)


LYING = ("laid_out_of_turn", "laid_taken_back")  # cards lying in front of the seat on turn (bus/PROTOCOL.md "Flags")


def could_be_play(seat: str, n: int, state: dict) -> bool:
    """Whether ``n`` cards could be ``seat``'s next play by their count, as the table rules it (``_could_be_play`` of
    ``referee.table``'s Tractor and climbing tables) from what its ``state`` says: a Tractor follow has as many cards as
    the lead (any count leads a trick, a new one or a complete one's next); a climbing seat holds that many.

    >>> trick = {"leader": "S", "plays": [{"seat": "S", "cards": ["SA", "SA"]}, {"seat": "E", "cards": ["S3", "S4"]}]}
    >>> state = {"rulebook": "classic-3deck", "current_trick": trick, "cards": {}}
    >>> could_be_play("N", 2, state), could_be_play("N", 1, state), could_be_play("E", 2, state)
    (True, False, False)
    >>> could_be_play("N", 1, {"rulebook": "sanjiang-2012", "cards": {"N": 3}}), could_be_play("N", 4, {"rulebook": "sanjiang-2012", "cards": {"N": 3}})
    (True, False)
    """
    if rulebook_game(state.get("rulebook") or "classic-3deck") != "tractor":
        return n <= (state.get("cards") or {}).get(seat, n)
    plays = (state.get("current_trick") or {}).get("plays") or []
    if not plays or len(plays) == 4:
        return True
    return seat not in {p["seat"] for p in plays} and n == len(plays[0]["cards"])
