"""What every rulebook has, whatever its game: who it is, the seed it configures, and its clocks.

A rulebook's class is its game's schema (:mod:`referee.rulebooks.tractor`,
:mod:`~referee.rulebooks.guandan`, :mod:`~referee.rulebooks.sandayi`): each section a frozen
dataclass of typed settings (:mod:`referee.rulebooks.settings`), read and checked when the file loads.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal

from referee.rulebooks.settings import named, setting

Rank = named(Literal["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"], 'a rank: "2" .. "9", "T", "J", "Q", "K" or "A"')
Suit = Literal["S", "H", "D", "C"]
Seat = Literal["S", "E", "N", "W"]


@dataclass(frozen=True)
class Clock:
    """``[clock]``: shot clock limits, late arrival and the round clock, read and checked by
    ``referee/table/clock.py`` (README "## Clocks"); 0 or empty: none."""

    kitty_and_first_lead_s: float = setting("one clock from the dealer taking the kitty to its first lead", 0.0)
    lead_s: float = setting("a play that leads a trick (default `play_s`)", 0.0)
    follow_s: float = setting("a play that follows a trick (default `play_s`)", 0.0)
    play_s: float = setting("a play in a climbing game", 0.0)
    return_s: float = setting("the return card after a tribute", 0.0)
    long_think_s: float = setting("each player's one long think per hand", 0.0)
    overrun: str = setting("what an overrun costs", "none")
    overrun_lead: str = setting("the same for a lead (default `overrun`)", "")
    overrun_return: str = setting("the same for the return card (default `overrun`)", "")
    warnings_per: str = setting("the span a warning counts over", "round")
    fouls_lose_round: int = setting("fouls by one side that lose it the round; 0 never", 0)
    late_bands: tuple[tuple[float, str], ...] = setting("`[[up to minutes, penalty entry], ...]`", ())
    round_s: float = setting("the round's length; 0 untimed", 0.0)
    round_notice_s: float = setting("the notice this long before the end", 0.0)
    round_cut: str = setting("what the end of the round stops", "none")
    penalties: Mapping[str, Mapping[str, Any]] = setting("penalty entries of books without `[penalties]`", {})
    articles: Mapping[str, str] = setting("the article each ruling cites, quoted", {})

    def __post_init__(self) -> None:
        object.__setattr__(self, "late_bands", tuple(tuple(band) for band in self.late_bands))
        object.__setattr__(self, "penalties", MappingProxyType({k: MappingProxyType(dict(v)) for k, v in self.penalties.items()}))
        object.__setattr__(self, "articles", MappingProxyType(dict(self.articles)))


@dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class Book:
    """A rulebook of any game: equal to another of the same ``id`` (the file's name)."""

    id: str = setting("the rulebook's name: its file's name without `.toml`")
    game: Literal["tractor", "guandan", "sandayi"] = setting("the game it configures")
    title: str = setting("its title, as the venue writes it")
    seed: str = setting("the seed (the Chinese original in `shared/seeds/`) it configures")
    clock: Clock = setting("`[clock]`, below (## Clocks)", Clock())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.id!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Book) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)


__all__ = ["Book", "Clock", "Rank", "Seat", "Suit"]
