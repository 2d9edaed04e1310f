"""Sanity of a read against the game: what makes a play need a person. Never a ruling: the play is flagged (sent
with a confidence under 0.9 and its frame kept), and the table service and a referee decide.

>>> from collections import Counter
>>> check(("SA", "SA"), [0.99, 0.97], lead_size=2, on_table=Counter({"SA": 3}), left=Counter(), decks=3)
()
>>> check(("SA", "SA"), [0.99, 0.71], lead_size=3, on_table=Counter({"SA": 4}), left=Counter(), decks=3)
('unsure read (0.71)', 'a play of the wrong size (2 cards, the lead had 3)', 'more copies than the decks hold: SA x4')
>>> check(("HT",), [0.99], lead_size=None, on_table=Counter({"HT": 1}), left=Counter({"HT": 2}), decks=2)
('a card that already left the table: HT',)
"""

from __future__ import annotations

from collections import Counter

SURE = 0.9  # the table service asks a person about reads under this
FLAGGED_CONFIDENCE = 0.5  # the confidence sent with a flagged play


def check(cards: tuple[str, ...], confidences: list[float], *, lead_size: int | None, on_table: Counter,
          left: Counter, decks: int, conflicts: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Why the play ``cards`` needs a person (empty: it does not). ``on_table``: every card face up now, this play
    included; ``left``: cards of earlier tricks of this hand, gone from the table."""
    reasons = []
    low = min(confidences, default=1.0)
    if low < SURE:
        reasons.append(f"unsure read ({low:.2f})")
    reasons += [f"corners of one card disagree ({c})" for c in conflicts]
    if lead_size is not None and len(cards) != lead_size:
        reasons.append(f"a play of the wrong size ({len(cards)} cards, the lead had {lead_size})")
    for name in sorted(set(cards)):
        if left[name] + on_table[name] > decks:
            if left[name] >= decks or left[name] + cards.count(name) > decks:
                reasons.append(f"a card that already left the table: {name}")
            else:
                reasons.append(f"more copies than the decks hold: {name} x{on_table[name] + left[name]}")
    return tuple(reasons)
