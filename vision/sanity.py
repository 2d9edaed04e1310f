"""Sanity of a read against the game: what makes a play need a person. Never a ruling: the play is flagged (sent
with a confidence under 0.9 and its frame kept), and the table service and a referee decide. Each reason is a
catalogue reason (``referee.reasons``: ``reason.vision.*``), said in the reader's language where it is shown.

>>> from collections import Counter
>>> check(("SA", "SA"), [0.99, 0.97], lead_size=2, on_table=Counter({"SA": 3}), left=Counter(), decks=3)
()
>>> [str(r) for r in check(("SA", "SA"), [0.99, 0.71], lead_size=3, on_table=Counter({"SA": 4}), left=Counter(),
...                        decks=3)]
["vision.unsure (confidence='0.71')", 'vision.wrong_size (lead=3, n=2)', "vision.too_many (card='SA', n=4)"]
>>> check(("HT",), [0.99], lead_size=None, on_table=Counter({"HT": 1}), left=Counter({"HT": 2}), decks=2)
(Reason('vision.left', card='HT'),)
>>> check(("HT",), [], lead_size=None, on_table=Counter(), left=Counter(), decks=2, foreign=("HT",))
(Reason('vision.foreign', cards=['HT']),)
>>> check(("HT",), [0.7], lead_size=None, on_table=Counter(), left=Counter(), decks=2, coarse=True)
(Reason('vision.coarse'), Reason('vision.unsure', confidence='0.70'))
"""

from __future__ import annotations

from collections import Counter

from referee.reasons import Reason

SURE = 0.9  # the table service asks a person about reads under this
FLAGGED_CONFIDENCE = 0.5  # the confidence sent with a flagged play


def check(cards: tuple[str, ...], confidences: list[float], *, lead_size: int | None, on_table: Counter,
          left: Counter, decks: int, conflicts: tuple[str, ...] = (), foreign: tuple[str, ...] = (),
          coarse: bool = False) -> tuple[Reason, ...]:
    """Why the play ``cards`` needs a person (empty: it does not). ``on_table``: every card face up now, this play
    included; ``left``: cards of earlier tricks of this hand, gone from the table; ``foreign``: cards that do not
    look like the deck the camera's confidence is calibrated for (never sure: ``confidences`` are the others');
    ``coarse``: read in a frame coarser than that calibration holds for (``Reading.coarse``: none of it is sure)."""
    reasons = []
    low = min(confidences, default=1.0)
    if foreign:
        reasons.append(Reason("vision.foreign", cards=tuple(sorted(foreign))))
    if coarse:
        reasons.append(Reason("vision.coarse"))
    if low < SURE:
        reasons.append(Reason("vision.unsure", confidence=f"{low:.2f}"))
    reasons += [Reason("vision.conflict", card=c) for c in conflicts]
    if lead_size is not None and len(cards) != lead_size:
        reasons.append(Reason("vision.wrong_size", n=len(cards), lead=lead_size))
    for name in sorted(set(cards)):
        if left[name] + on_table[name] > decks:
            if left[name] >= decks or left[name] + cards.count(name) > decks:
                reasons.append(Reason("vision.left", card=name))
            else:
                reasons.append(Reason("vision.too_many", card=name, n=on_table[name] + left[name]))
    return tuple(reasons)
