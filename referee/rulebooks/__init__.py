"""The rulebooks: one TOML file each, read by the general engines.

Adding a rulebook is writing a file here; ``README.md`` documents every setting.

>>> sorted(names("guandan")), sorted(names("sandayi"))
(['sanjiang-2012'], ['usst-2016'])
>>> sorted(names("tractor"))
['classic-3deck', 'shaoguan-2023', 'shaoguan-2023-nokitty', 'zhongkai-2010']
>>> load("classic-3deck").deal.decks
3
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from referee.rulebooks.shapes import Shape, tiers

HERE = Path(__file__).parent


class RulebookError(ValueError):
    """An unknown rulebook, or a rulebook file with a missing or wrong setting."""


@dataclass(frozen=True)
class Deal:
    decks: int
    hand_size: int
    kitty: int
    start_level: str
    permanent_ranks: tuple[str, ...]


@dataclass(frozen=True)
class Combos:
    widths: tuple[int, ...]
    low_ace: bool
    throws: bool
    captive: str  # "declared" | "chosen_after" | "illegal"
    throw_check: str  # "units" | "strict"
    outranks: tuple[tuple[tuple[int, int], tuple[int, int]], ...]  # ((w, n) beats (w, n))


@dataclass(frozen=True)
class Follow:
    components: str  # "units" | "connected"
    order: tuple[str, ...]
    outranked_frees_choice: bool = False
    carve: str = "ranks"  # "ranks" | "cards"
    # lead format (w, n) -> its follows in the seed's order: tiers of equal shapes (shapes.tiers)
    listed: Mapping[tuple[int, int], tuple[tuple[Shape, ...], ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        measures = {"tractor", "width", "length", "size", "fit", "compact"}
        if self.components not in ("units", "connected") or self.carve not in ("ranks", "cards"):
            raise ValueError(f"[follow] components is units or connected and carve ranks or cards, not {self.components!r}, {self.carve!r}")
        if not set(self.order) <= measures:
            raise ValueError(f"[follow] order names {sorted(set(self.order) - measures)}; known: {sorted(measures)}")


@dataclass(frozen=True)
class KittyCapture:
    multiplier: str  # "table" | "cards"
    trumps_only: bool
    source: str = "kitty"  # "kitty" | "last_trick"
    single: int = 1
    pair: int = 1
    triple: int = 1
    pair_tractor: tuple[int, int] = (1, 0)
    triple_tractor: tuple[int, int] = (1, 0)
    throw: str = "sum_of_two_highest"


@dataclass(frozen=True)
class Levels:
    take_over: int
    defenders: tuple[tuple[int, int], ...]
    defenders_step: int
    dealer: tuple[tuple[int, int], ...]
    dealer_step: int


@dataclass(frozen=True)
class Declare:
    first: int
    overturn: str
    overturn_same_suit: str  # "always" | "first_hand"
    reinforce: bool
    self_overturn: bool
    window_s: float


@dataclass(frozen=True)
class Clock:
    """``[clock]``: shot clock limits, late arrival and the round clock, read by
    ``referee/table/clock.py`` (README "## Clocks"); 0 or empty: none."""

    kitty_and_first_lead_s: float
    lead_s: float
    follow_s: float
    play_s: float = 0
    return_s: float = 0
    long_think_s: float = 0
    overrun: str = "none"
    overrun_lead: str = ""
    overrun_return: str = ""
    warnings_per: str = "round"
    fouls_lose_round: int = 0
    late_bands: tuple[tuple[float, str], ...] = ()
    round_s: float = 0
    round_notice_s: float = 0
    round_cut: str = "none"
    penalties: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    articles: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "late_bands", tuple(tuple(band) for band in self.late_bands))
        object.__setattr__(self, "penalties", MappingProxyType({k: MappingProxyType(dict(v)) for k, v in self.penalties.items()}))
        object.__setattr__(self, "articles", MappingProxyType(dict(self.articles)))


@dataclass(frozen=True, eq=False)
class Rulebook:
    id: str
    game: str
    title: str
    seed: str
    deal: Deal
    combos: Combos
    follow: Follow
    failed_throw: Mapping[str, str]
    kitty_capture: KittyCapture
    levels: Levels
    dealer: Mapping[str, str]
    declare: Declare
    clock: Clock
    penalties: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"Rulebook({self.id!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rulebook) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)


@dataclass(frozen=True)
class Ranks:
    order: tuple[str, ...]  # low to high, for sets (pairs, triples, bombs) and singles
    level_above_ace: bool
    wildcard: str  # "heart_level" | "none"
    ace_low: bool
    joker_pairs: bool


@dataclass(frozen=True)
class ClimbCombos:
    straight: tuple[int, int] | None = None
    pair_straight: tuple[int, int] | None = None
    triple_straight: tuple[int, int] | None = None
    airplane: tuple[int, int] | None = None
    bomb: tuple[int, int] | None = None
    straight_flush: bool = False
    straight_flush_beats_bombs_up_to: int = 0
    joker_bomb: bool = True
    full_house_joker_pair: bool = True
    full_house_triple_only: bool = True


@dataclass(frozen=True, eq=False)
class ClimbingRulebook:
    """A climbing game's rulebook (Guandan, San Da Yi): ranks and combinations typed, the rest of
    the file (levels, tribute, bidding, scoring, ...) as read-only tables in ``sections``."""

    id: str
    game: str
    title: str
    seed: str
    deal: Mapping[str, Any]
    ranks: Ranks
    combos: ClimbCombos
    sections: Mapping[str, Mapping[str, Any]]

    def __repr__(self) -> str:
        return f"ClimbingRulebook({self.id!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ClimbingRulebook) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)


def _climbing(raw: dict[str, Any]) -> ClimbingRulebook:
    combos = {k: tuple(v) if isinstance(v, list) else v for k, v in raw["combos"].items()}
    ranks = dict(raw["ranks"])
    ranks["order"] = tuple(ranks["order"])
    fixed = {"id", "game", "title", "seed", "deal", "ranks", "combos"}
    return ClimbingRulebook(
        id=raw["id"],
        game=raw["game"],
        title=raw["title"],
        seed=raw["seed"],
        deal=MappingProxyType(dict(raw["deal"])),
        ranks=Ranks(**ranks),
        combos=ClimbCombos(**combos),
        sections=MappingProxyType({k: MappingProxyType(v) for k, v in raw.items() if k not in fixed}),
    )


def _format(text: str) -> tuple[int, int]:
    width, length = text.split("x")
    return int(width), int(length)


def _tractor(raw: dict[str, Any]) -> Rulebook:
    deal, combos, kitty = dict(raw["deal"]), dict(raw["combos"]), dict(raw["kitty_capture"])
    deal["permanent_ranks"] = tuple(deal["permanent_ranks"])
    combos["widths"] = tuple(combos["widths"])
    combos["outranks"] = tuple((_format(a), _format(b)) for a, b in combos["outranks"])
    for key in ("pair_tractor", "triple_tractor"):
        if key in kitty:
            kitty[key] = tuple(kitty[key])
    levels = dict(raw["levels"])
    for key in ("defenders", "dealer"):
        levels[key] = tuple(tuple(band) for band in levels[key])
    follow = dict(raw["follow"])
    follow["order"] = tuple(follow["order"])
    follow["listed"] = MappingProxyType({_format(k): tiers(_format(k), v) for k, v in follow.get("listed", {}).items()})
    freed = {worse for _, worse in combos["outranks"]} if follow.get("outranked_frees_choice") else set()
    if freed & set(follow["listed"]):
        raise ValueError("[follow.listed] names a format that outranked_frees_choice may free: the list would not know it")
    return Rulebook(
        id=raw["id"],
        game=raw["game"],
        title=raw["title"],
        seed=raw["seed"],
        deal=Deal(**deal),
        combos=Combos(**combos),
        follow=Follow(**follow),
        failed_throw=MappingProxyType(dict(raw["failed_throw"])),
        kitty_capture=KittyCapture(**kitty),
        levels=Levels(**levels),
        dealer=MappingProxyType(dict(raw["dealer"])),
        declare=Declare(**raw["declare"]),
        clock=Clock(**raw["clock"]),
        penalties=MappingProxyType({k: MappingProxyType(v) for k, v in raw["penalties"].items()}),
    )


def names(game: str | None = None) -> list[str]:
    """The ids of the rulebooks on disk, optionally of one game."""
    found = []
    for path in HERE.glob("*.toml"):
        with path.open("rb") as f:
            if game is None or tomllib.load(f).get("game") == game:
                found.append(path.stem)
    return found


@cache
def load(rulebook_id: str) -> Rulebook | ClimbingRulebook:
    """Read ``<rulebook_id>.toml``; raise :class:`RulebookError` when it is unknown or broken."""
    path = HERE / f"{rulebook_id}.toml"
    if not rulebook_id or "/" in rulebook_id or not path.is_file():
        raise RulebookError(f"unknown rulebook {rulebook_id!r}; known: {', '.join(sorted(names()))}")
    with path.open("rb") as f:
        raw = tomllib.load(f)
    try:
        if raw.get("game") == "tractor":
            return _tractor(raw)
        if raw.get("game") in ("guandan", "sandayi"):
            return _climbing(raw)
    except (KeyError, TypeError, ValueError) as exc:
        raise RulebookError(f"rulebook {rulebook_id}: bad or missing setting {exc}") from exc
    raise RulebookError(f"rulebook {rulebook_id}: unsupported game {raw.get('game')!r}")
