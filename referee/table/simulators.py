"""Every game's simulator, by its rulebook (``cardtable table simulate``): :func:`simulator_class` is the
simulator of a rulebook's game (``simulate.Simulator`` for Tractor, ``simulate_climbing``'s for Guandan and
San Da Yi).

>>> [simulator_class(book).__name__ for book in ("classic-3deck", "sanjiang-2012", "usst-2016")]
['Simulator', 'GuandanSimulator', 'SandayiSimulator']
"""

from __future__ import annotations

import sys
from typing import Any

from referee.catalogue import Refusal, say
from referee.rulebooks import load
from referee.table.simulate import SimulationError, Simulator, Summary
from referee.table.simulate_climbing import GuandanSimulator, SandayiSimulator

SIMULATORS: dict[str, type[Simulator]] = {"tractor": Simulator, "guandan": GuandanSimulator, "sandayi": SandayiSimulator}


class Stopped(Refusal):
    """The simulation stopped on a failure (the catalogue's ``simulate.failed``)."""

    section = "simulate"


def simulator_class(rulebook: str) -> type[Simulator]:
    """The simulator of the rulebook's game."""
    return SIMULATORS[load(rulebook).game]


def simulate(table: str, rulebook: str, broker: str, **kwargs: Any) -> Summary:
    """Run the rulebook's simulator (keyword arguments as :class:`Simulator`'s) and return its summary."""
    return simulator_class(rulebook)(table, rulebook, broker, **kwargs).run()


def main(table: str, rulebook: str, broker: str, hands: int, seed: int, speed: float = 0.0,
         camera: str | None = None, board: str | None = None, console: str | None = None,
         lang: str = "zh") -> int:
    """``cardtable table simulate``."""
    try:
        summary = simulate(table, rulebook, broker, hands=hands, seed=seed, speed=speed, camera=camera,
                           board=board, console=console, out=sys.stdout, lang=lang)
    except (SimulationError, OSError, TimeoutError, ValueError) as exc:  # said by the command line (``cardtable.lang.refuse``)
        raise Stopped("failed", error=exc) from None
    print(say(lang, "simulate.summary", hands=summary.hands, plays=summary.plays, inputs=summary.inputs, slow=summary.slow,
              unsure=summary.unsure, confirms=summary.confirms, violations=len(summary.violations),
              rejected=summary.kinds()["rejected"]))
    return 0


__all__ = ["SIMULATORS", "main", "simulate", "simulator_class"]
