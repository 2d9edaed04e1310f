"""What the Guandan and San Da Yi demos print alike: hands, readings in words, one line per turn.

>>> from referee.demo import labels
>>> gd = load("sanjiang-2012")
>>> say = labels("en", "guandan")
>>> [words(gd, "5", r, say) for r in readings(gd, Cards.parse("S4 S4 S4 H5 H5"), "5")]
['full house 4', 'bomb of 5 4']
>>> words(gd, "5", Reading("straight", 8, 5), labels("zh", "guandan"))
'顺子 到 8'
>>> turn_line(gd, "5", 3, "N", None, None, False, say)
'Turn 3 | N | pass'
>>> turn_line(gd, "5", 4, "E", Cards.parse("S7 S5 S6 S4 H5"), Reading("straight", 8, 5), True, say)
'Turn 4 | E | S7 S6 S5 S4 H5 | straight to 8 | lead'
>>> show(gd, "5", Cards.parse("S3 H5 BJ SA D5"))
'BJ H5 D5 SA S3'
"""

from __future__ import annotations

from referee.cards import Card, Cards
from referee.climbing.combos import RANK_OF_VALUE, VALUE, Reading, full_house_scale, power_of, readings  # noqa: F401 (readings: doctests)
from referee.rulebooks import ClimbingRulebook, load  # noqa: F401 (load: doctests)
from referee.seats import SEATS

SEQUENCES = ("straight", "pair_straight", "triple_straight", "straight_flush", "airplane")  # ranked by the top card



def show(rules: ClimbingRulebook, level: str | None, cards: Cards) -> str:
    """Canonical names as a player holds them: highest first (jokers, the level cards), then by suit."""
    def key(c: Card) -> tuple[int, int]:
        return (-power_of(rules, c, level), "SHDC".find(c.suit or ""))

    return " ".join(c.code for c in sorted(cards, key=key))


def show_play(rules: ClimbingRulebook, level: str | None, cards: Cards, reading: Reading) -> str:
    """A play's canonical names: a sequence from its top card down (an ace low below a top of 5,
    the heart level card last where it is a wildcard), anything else as :func:`show` orders it."""
    if reading.type not in SEQUENCES:
        return show(rules, level, cards)
    wild = "H" + level if level is not None and rules.ranks.wildcard == "heart_level" else None
    ace = 14 if reading.rank == 14 or reading.type == "airplane" else 1

    def key(c: Card) -> tuple[bool, int, int]:
        return (c.code == wild, -(ace if c.rank == "A" else VALUE[c.rank]), "SHDC".find(c.suit))

    return " ".join(c.code for c in sorted(cards, key=key))


def rank_name(rules: ClimbingRulebook, level: str | None, power: int) -> str:
    """The rank letter (or LJ, BJ) of a power of sets."""
    names = {power_of(rules, Card.parse(j), level): j for j in ("LJ", "BJ")}
    for r in rules.ranks.order:
        names.setdefault(power_of(rules, Card.parse("S" + r), level), r)
    return names.get(power, str(power))


def words(rules: ClimbingRulebook, level: str | None, reading: Reading, say: dict) -> str:
    """A reading in words: ``pair 7``, ``straight to 8``, ``bomb of 5 Q`` (``对子 7``, ``顺子 到 8``, ``5张炸弹 Q``)."""
    kind = say["types"][reading.type]
    if reading.type == "joker_bomb":
        return kind
    if reading.type in SEQUENCES:
        return say["to"].format(type=kind, rank=RANK_OF_VALUE[reading.rank])
    power = reading.rank
    if reading.type == "full_house" and not rules.combos.full_house_triple_only:
        power //= full_house_scale(rules)  # ranked by the triple, then the pair: name the triple
    rank = rank_name(rules, level, power)
    if reading.type == "bomb":
        return say["bomb"].format(type=kind, size=reading.size, rank=rank)
    return say["rank"].format(type=kind, rank=rank)


def turn_line(
    rules: ClimbingRulebook, level: str | None, n: int, seat: str, cards: Cards | None, reading: Reading | None,
    lead: bool, say: dict, *extra: str,
) -> str:  # fmt: skip
    """``第5手 | 南 | S3 D3 | 对子 3 | 领出`` for a play (the cards as :func:`show` orders them, the
    reading in words), ``第6手 | 东 | 不出`` for a pass; ``extra`` fields at the end."""
    fields = [say["turn"].format(n=n), say["seats"][seat]]
    if cards is None:
        fields.append(say["pass"])
    else:
        fields += [show_play(rules, level, cards, reading), words(rules, level, reading, say)]
        if lead:
            fields.append(say["lead"])
    return " | ".join([*fields, *extra])


def seat_list(seats, say: dict) -> str:
    """``东、北、西``."""
    return say["and"].join(say["seats"][s] for s in seats)


__all__ = ["rank_name", "seat_list", "show", "show_play", "turn_line", "words"]
