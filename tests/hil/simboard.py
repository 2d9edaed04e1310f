"""The table board's real firmware in simavr (``firmware-bridge/harness/board_sim.c``), driven
from Python: build it, press buttons, read the displays, lights and buzzer, pull the cable.
Used by the hardware-in-the-loop tests and by ``bench/bench_board.py``."""

from __future__ import annotations

import json
import shutil
import subprocess
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware-bridge" / "firmware"
HARNESS = ROOT / "firmware-bridge" / "harness"
SETUP_HINT = "run `make setup` (it installs gcc-avr, avr-libc, simavr, libsimavr-dev and libelf-dev)"
SEATS = "SENW"
BUTTONS = ("ready", "pass", "confirm", "referee", "bid1", "bid2", "bid3", "declare")
# MAX7219 no-decode segments (DP A B C D E F G) of the firmware's font, back to characters.
# "Lo5t" is LoSt, "5tUc" StUc: S and 5 are one glyph on seven segments.
FONT = {0x7E: "0", 0x30: "1", 0x6D: "2", 0x79: "3", 0x33: "4", 0x5B: "5", 0x5F: "6", 0x70: "7",
        0x7F: "8", 0x7B: "9", 0x0E: "L", 0x1D: "o", 0x0F: "t", 0x3E: "U", 0x0D: "c", 0x00: " ",
        0x05: "r", 0x4F: "E", 0x47: "F", 0x5E: "G", 0x15: "n"}  # rEF GonE: the table's referee gone
# Turn lights: (port, bit) of each seat's green and red LED; the link LED.
GREEN = {"S": ("C", 0), "E": ("C", 1), "N": ("C", 2), "W": ("C", 3)}
RED = {"S": ("C", 4), "E": ("C", 5), "N": ("D", 6), "W": ("D", 7)}
LINK_LED = ("B", 0)


class BuildError(RuntimeError):
    pass


def build(out: Path) -> tuple[Path, Path]:
    """Build the firmware and the simulator into ``out``; returns (firmware ELF, simulator)."""
    missing = [tool for tool in ("avr-gcc", "make", "cc") if shutil.which(tool) is None]
    if not Path("/usr/include/simavr/sim_avr.h").exists():
        missing.append("/usr/include/simavr (libsimavr-dev)")
    if missing:
        raise BuildError(f"cannot build the board firmware and its simulator, missing: {', '.join(missing)}: {SETUP_HINT}")
    for src, sub in ((FIRMWARE, "firmware"), (HARNESS, "harness")):
        done = subprocess.run(["make", "-s", "-C", str(src), f"BUILD={out / sub}"], capture_output=True, text=True,
                              check=False)
        if done.returncode:
            raise BuildError(f"make in {src} failed ({SETUP_HINT}):\n{done.stdout}{done.stderr}")
    return out / "firmware" / "board.elf", out / "harness" / "board_sim"


def key(seat: str, button: str) -> int:
    return SEATS.index(seat) * 8 + BUTTONS.index(button)


def text(digits: list[int]) -> str:
    """A display's 8 digits as text, a decimal point after its digit: ``' 8.5  30'``."""
    out = []
    for segments in digits:
        out.append(FONT.get(segments & 0x7F, "?"))
        if segments & 0x80:
            out.append(".")
    return "".join(out)


def pin(state: dict, where: tuple[str, int]) -> bool:
    port, bit = where
    return bool(state["port"][port] >> bit & 1)


class SimBoard:
    """One ``board_sim`` process; ``link`` is the symlink to its pseudo-terminal."""

    def __init__(self, elf: Path, sim: Path, link: Path, board_id: int = 1, at_start: tuple[str, ...] = ()):
        """``at_start``: control commands written before the simulator has said "ready" (a key pressed the
        moment it starts); their answers are read after it."""
        self.link, self.elf = link, elf
        self._lock = threading.Lock()
        self._proc = subprocess.Popen([str(sim), str(elf), "--link", str(link), "--board-id", str(board_id)],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self._proc.stdin.write("".join(f"{command}\n" for command in at_start))
        self._proc.stdin.flush()
        first = self._proc.stdout.readline()
        if not first.startswith("ready "):
            self.close()
            raise BuildError(f"board_sim did not start: {first!r}")
        for command in at_start:
            if not self._proc.stdout.readline().startswith("ok"):
                raise RuntimeError(f"board_sim: {command!r} refused")

    def _ask(self, command: str) -> str:
        with self._lock:
            self._proc.stdin.write(command + "\n")
            self._proc.stdin.flush()
            answer = self._proc.stdout.readline().strip()
        if not answer or answer.startswith("error"):
            raise RuntimeError(f"board_sim: {command!r} -> {answer!r}")
        return answer

    def press(self, seat: str, button: str) -> int:
        """Press a button; returns the CLOCK_MONOTONIC ns (``time.monotonic_ns``) when it closed."""
        return int(self._ask(f"press {key(seat, button)}").split()[1])

    def release(self, seat: str, button: str) -> None:
        self._ask(f"release {key(seat, button)}")

    def tap(self, seat: str, button: str, hold_s: float = 0.04) -> int:
        """Press, hold, release (longer than the firmware's 2 ms of agreeing samples)."""
        at = self.press(seat, button)
        time.sleep(hold_s)
        self.release(seat, button)
        return at

    def bounce(self, seat: str, button: str, changes: int, every_us: int) -> int:
        """A contact that bounces: the button changes ``changes`` times, ``every_us`` apart in
        the simulator's time (no host scheduling in between); returns when it started, like press."""
        return int(self._ask(f"bounce {key(seat, button)} {changes} {every_us}").split()[1])

    def state(self) -> dict:
        return json.loads(self._ask("state"))

    def display(self, seat: str) -> str:
        return text(self.state()["digits"][SEATS.index(seat)])

    def poke(self, symbol: str, value: int) -> None:
        """Set the firmware's u16 variable ``symbol`` (found in the ELF by ``avr-nm``) to ``value``, as a
        debugger would: to reach a state (the 65,535th press of a boot) without making it happen."""
        listed = subprocess.run(["avr-nm", str(self.elf)], capture_output=True, text=True, check=True).stdout
        found = [int(line.split()[0], 16) for line in listed.splitlines() if line.split()[2:] == [symbol]]
        if len(found) != 1:
            raise RuntimeError(f"{self.elf} has {len(found)} symbols named {symbol!r}")
        self._ask(f"poke {found[0] - 0x800000} {value}")

    def reset(self) -> None:
        """The board's reset button (or a power dip): the firmware starts again, its EEPROM kept."""
        self._ask("reset")

    def unplug(self) -> None:
        self._ask("unplug")

    def plug(self) -> None:
        self._ask("plug")

    def deaf(self, on: bool) -> None:
        """Break (``on``) or mend the board's receive line: the host's bytes are lost, the board's still go."""
        self._ask(f"deaf {'on' if on else 'off'}")

    def close(self) -> None:
        if self._proc.poll() is None:
            try:
                self._proc.stdin.write("quit\n")
                self._proc.stdin.flush()
                self._proc.wait(5)
            except (OSError, subprocess.TimeoutExpired):
                self._proc.kill()
                self._proc.wait()

    def __repr__(self) -> str:
        return f"<SimBoard {self.link} pid {self._proc.pid}>"
