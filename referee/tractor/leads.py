"""Leads and throws (甩牌): what may be led, and whether a throw stands.

A lead is one unit, or, where the rulebook allows throws, several units of one
suit class. A throw stands when no other player holds, in that suit, a unit of
the same kind that beats one of its units (a ruff never breaks a throw). With
``throw_check = "strict"`` (seed 000 第六条 5) every smaller unit split out of a
thrown unit must be unbeatable too.

>>> t = Trumps.of("classic-3deck", "7", "H")
>>> throw = lead_structure(t, Cards.parse("SA SA SK"))
>>> failing_units(t, throw, {"E": Cards.parse("SA S3 D3"), "N": Cards.parse("S2")})
[Unit('SK')]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from referee.cards import Cards
from referee.reasons import Reason
from referee.tractor.follow import lead_structure
from referee.tractor.trumps import Trumps
from referee.tractor.units import Holding, Unit, readings, unit_key, unit_of


@dataclass(frozen=True)
class LeadRuling:
    legal: bool
    reason: Reason | None = None  # why not (``referee.reasons``)
    structure: tuple[Unit, ...] = ()


def judge_lead(trumps: Trumps, cards: Cards, declared: list[Cards] | None = None) -> LeadRuling:
    """May these cards be led? With ``declared``, the leader announced the throw's structure."""
    if not cards:
        return LeadRuling(False, Reason("tractor.lead_empty"))
    if len(trumps.suits_in(cards)) != 1:
        return LeadRuling(False, Reason("tractor.lead_mixes", cards=cards))
    unit = unit_of(trumps, cards)
    if unit is not None and not declared:
        return LeadRuling(True, structure=(unit,))
    combos = trumps.rules.combos
    if not combos.throws:
        return LeadRuling(False, Reason("tractor.no_throws", cards=cards, rulebook=trumps.rules.id))
    found = readings(trumps, cards)
    if declared:
        units = tuple(unit_of(trumps, part) for part in declared)
        if None in units or Cards.join(declared) != cards:
            return LeadRuling(False, Reason("tractor.declared_not_units"))
        wanted = sorted(str(u) for u in units)
        if not any(sorted(str(u) for u in r) == wanted for r in found):
            return LeadRuling(False, Reason("tractor.declared_merge"))
        return LeadRuling(True, structure=units)
    if combos.captive == "declared" and is_captive(found):
        return LeadRuling(False, Reason("tractor.captive", cards=cards))
    return LeadRuling(True, structure=found[0])


def is_captive(found: tuple[tuple[Unit, ...], ...]) -> bool:
    """A throw that reads several ways, or holds triples and pairs: a triple or a triple tractor with a pair or a pair
    tractor (seed 001 十五: 同一花色的“三条”加一“对子”，俗称“俘虏”。由于“三条”与“对子”是不同的结构).
    """
    widths = {u.width for u in found[0]} if found else set()
    return len(found) > 1 or {3, 2} <= widths


def beatable(trumps: Trumps, unit: Unit, others: Mapping[str, Cards]) -> bool:
    """Could another hand beat this unit with a unit of the same kind in its suit?"""
    holdings = [Holding(trumps, trumps.of_suit(h, unit.suit)) for h in others.values()]
    checks = [(unit.width, unit.length, unit.top)]
    if trumps.rules.combos.throw_check == "strict":
        widths = [1] + [w for w in trumps.rules.combos.widths if w <= unit.width]
        checks = [
            (w, n, unit.bottom + n - 1)
            for w in widths
            for n in range(1, (unit.length if w > 1 else 1) + 1)
        ]
    return any(t > top for h in holdings for w, n, top in checks for t, _ in h.uniform(w, n))


def failing_units(trumps: Trumps, structure: tuple[Unit, ...], others: Mapping[str, Cards]) -> list[Unit]:
    """The thrown units that another hand could beat, smallest first (fewest cards, then lowest)."""
    if len(structure) < 2:
        return []
    failing = [u for u in structure if beatable(trumps, u, others)]
    return sorted(failing, key=lambda u: (len(u), u.top))


def strongest_unit(trumps: Trumps, structure: tuple[Unit, ...]) -> Unit:
    """The unit that decides a comparison: of the highest-ranking kind, the highest."""
    return max(structure, key=lambda u: (unit_key(trumps, *u.kind), u.top))


__all__ = ["LeadRuling", "judge_lead", "beatable", "failing_units", "strongest_unit", "lead_structure"]
