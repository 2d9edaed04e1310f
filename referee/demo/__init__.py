"""``cardtable demo``: four bots play one hand of a game through the referee, printed as it goes.

One module per game, each with a ``main(rulebook, seed, lang)`` and one small function per phase; the words
are the catalogue's (``demo.*``, :func:`labels`):

* :mod:`referee.demo.tractor`: a Tractor hand (classic-3deck): the deal with declarations, the
  kitty, every trick and ruling, the score and the outcome;
* :mod:`referee.demo.guandan`: a Guandan hand (掼蛋, sanjiang-2012): every turn with its reading,
  接风, the ten-card count (报数), the finish order and the levels won;
* :mod:`referee.demo.sandayi`: a San Da Yi game (三打一, usst-2016): the bidding, the dealer and
  the kitty, every turn with bombs counted against each player's limit, the winner and the scores.

:mod:`referee.demo.climbing` holds what the two climbing games print alike. Deterministic for a seed.
"""

from __future__ import annotations

from importlib import import_module

from referee.catalogue import Refusal, Term, section, word
from referee.catalogue.kinds import names
from referee.catalogue.sentences import Sentences
from referee.rulebooks import load, names as book_names

GAMES = {"tractor": "classic-3deck", "guandan": "sanjiang-2012", "sandayi": "usst-2016"}  # game -> default rulebook


class DemoError(Refusal):
    """A game and rulebook the demo cannot play together (an unknown game or rulebook, or a mismatch)."""

    section = "demo"


def choose(game: str | None = None, rulebook: str | None = None) -> tuple[str, str]:
    """The game and rulebook to play: the game's default rulebook when none is named, the
    rulebook's game when only a rulebook is named, Tractor when neither is.

    >>> choose(), choose("guandan"), choose(rulebook="usst-2016")
    (('tractor', 'classic-3deck'), ('guandan', 'sanjiang-2012'), ('sandayi', 'usst-2016'))
    >>> choose("sandayi", "classic-3deck")
    Traceback (most recent call last):
    ...
    referee.demo.DemoError: 规则 classic-3deck 是拖拉机的，不是三打一的
    """
    if game is not None and game not in GAMES:
        raise DemoError("unknown_game", game=game, known=", ".join(GAMES))
    if rulebook is None:
        game = game or "tractor"
        return game, GAMES[game]
    if rulebook not in book_names():
        raise DemoError("unknown_rulebook", rulebook=rulebook, known=", ".join(sorted(book_names())))
    of = load(rulebook).game
    if of not in GAMES:
        raise DemoError("not_played", rulebook=rulebook, game=Term(f"game.{of}"))
    if game is not None and of != game:
        raise DemoError("other_game", rulebook=rulebook, game=Term(f"game.{of}"), wanted=Term(f"game.{game}"))
    return of, rulebook


def labels(lang: str, game: str) -> dict:
    """The demo's words in ``lang``: the catalogue's ``demo.*`` and ``demo.<game>.*``, with the seats, suits,
    teams, violation kinds, the game's combination types and finishing places.

    >>> say = labels("zh", "guandan")
    >>> say["turn"].format(n=3), say["seats"]["N"], say["types"]["straight"], say["places"][0]
    ('第3手', '北', '顺子', '上游')
    """
    def flat(name: str) -> dict[str, str]:
        return {k: v for k, v in section(lang, name).items() if "." not in k}

    places = section(lang, f"demo.{game}.places")
    return flat("demo") | flat(f"demo.{game}") | {
        "seats": section(lang, "seat"), "suits": section(lang, "suit"), "teams": section(lang, "team"),
        "kinds": names(lang), "sep": word(lang, "word.sep"), "and": word(lang, "word.list"),
        "types": section(lang, f"combo.{game}"), "reason": Sentences(lang, game).reason, "places": tuple(places[str(i)] for i in range(1, len(places) + 1))}


def main(rulebook: str | None = None, seed: int = 2026, lang: str = "zh", game: str | None = None) -> int:
    """Play and print one hand of ``game`` (see :func:`choose`); 0 when done."""
    game, rulebook = choose(game, rulebook)
    return import_module(f"referee.demo.{game}").main(rulebook, seed, lang)


__all__ = ["GAMES", "DemoError", "choose", "labels", "main"]
