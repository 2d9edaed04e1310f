"""The firmware's layers, as its object files link them: no cycles. A module uses another when it
needs a symbol the other defines; ``link.c`` calls the handlers ``main.c`` gives it
(``struct link_handlers``), so the serial protocol knows nothing of the application."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.hil


def symbols(obj: Path) -> tuple[set[str], set[str]]:
    """(defined globals, undefined) symbols of an object file."""
    out = subprocess.run(["avr-nm", str(obj)], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        kind, name = line.split()[-2:]
        if kind == "U":
            undefined.add(name)
        elif kind.isupper():
            defined.add(name)
    return defined, undefined


def uses(objects: list[Path]) -> dict[str, set[str]]:
    """Each module's modules: those defining a symbol it needs."""
    table = {o.stem: symbols(o) for o in objects}
    return {m: {n for n, (d, _) in table.items() if n != m and d & u} for m, (_, u) in table.items()}


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> list[str] | None:
        state[m] = 1
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                return path[path.index(n):] + [n] if n in path else [m, n]
            if n not in state and (found := visit(n, path + [n])):
                return found
        state[m] = 2
        return None

    return next((c for m in sorted(graph) if m not in state and (c := visit(m, [m]))), None)


def test_the_firmware_modules_use_each_other_without_a_cycle(built):
    if shutil.which("avr-nm") is None:
        pytest.fail("avr-nm is missing: run `make setup` (binutils-avr comes with gcc-avr)")
    elf, _ = built
    graph = uses(sorted(elf.parent.glob("*.o")))
    assert {"main", "link", "frame", "uart", "panel", "display"} <= set(graph)
    assert "main" not in graph["link"] and graph["main"] >= {"link", "panel", "display", "uart"}
    assert cycle(graph) is None, f"the firmware's modules use each other in a cycle: {' -> '.join(cycle(graph))}"


def test_the_cycle_finder_finds_one():
    assert cycle({"main": {"link"}, "link": {"main"}}) in (["main", "link", "main"], ["link", "main", "link"])
    assert cycle({"main": {"link", "uart"}, "link": {"uart", "frame"}, "frame": set(), "uart": set()}) is None
