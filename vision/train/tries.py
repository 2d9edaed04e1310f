"""Every check of a venue's sure reads, kept in a ledger beside its calibration, so that checking again until a check
vouches cannot pass luck off as proof.

One check vouches for a calibration when its sure reads leave us 95% sure (``confidence.LEVEL``) that they are wrong at
most the target: a calibration worse than the target still passes one check in 20. A venue whose check failed may fit
again with other seeds, or enrol again, and check again; kept up, some check would pass by luck (ten tries: up to 40%).
So each check of one calibration file at one camera size is written in its ledger (``ledger_of``), and the k-th vouches
only at ``level(k - 1)``: each try after the first allows half the error of the one before (95%, 97.5%, 98.75%...),
so however many tries are made, the chance that any of them vouches for a calibration worse than the target stays under
10% (5% + 2.5% + 1.25% + ...).

A line that cannot be read (a damaged file, a run killed while it wrote) counts as an earlier try at every camera: a
damaged ledger never makes a check easier. Removing the ledger forgets the tries, which is a person's choice, not an
accident's. One run at a time fits or checks the calibrations of one folder, or enrols into it (``hold``): a second,
started beside it, would check at the same level and then overwrite the first one's verdict.

>>> level(0), level(1), level(2)
(0.95, 0.975, 0.9875)
>>> earlier(['{"camera": "2560x1920", "vouched": false}', '{"camera": "1920x1080"}', 'garbage'], "2560x1920")
(2, 1)
>>> ledger_of(Path("venue/index.sure.json")).name
'index.sure.checks.jsonl'
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
from collections.abc import Iterable
from pathlib import Path

from vision.confidence import LEVEL


def level(before: int) -> float:
    """The level a check vouches at after ``before`` earlier checks of its calibration at its camera."""
    return 1 - (1 - LEVEL) / 2 ** before


def ledger_of(calibration: Path) -> Path:
    """The ledger of the checks of the calibration file ``calibration``: beside it."""
    name = Path(calibration).name
    return Path(calibration).with_name(name.removesuffix(".json") + ".checks.jsonl")


def earlier(lines: Iterable[str], camera: str) -> tuple[int, int]:
    """How many of the ledger's ``lines`` are checks at ``camera`` ("WxH"), counting each that cannot be read as one;
    and how many could not be read."""
    tries = unread = 0
    for line in lines:
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            mine = entry["camera"] == camera
        except (ValueError, TypeError, KeyError):
            tries, unread = tries + 1, unread + 1
            continue
        tries += bool(mine)
    return tries, unread


def tries_before(calibration: Path, camera: str) -> tuple[int, int]:
    """``earlier`` of the ledger of ``calibration`` (none: no earlier checks)."""
    ledger = ledger_of(calibration)
    if not ledger.exists():
        return 0, 0
    return earlier(ledger.read_text(errors="replace").splitlines(), camera)


def record(calibration: Path, entry: dict) -> None:
    """Append ``entry`` (a check: its camera, tables, sure reads, wrong ones, level, verdict) to the ledger of
    ``calibration`` and make it durable before the calibration is written: a run killed after leaves the try counted
    and the calibration there before. OSError where it cannot be written (the check then changes nothing)."""
    ledger = ledger_of(calibration)
    line = json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n"
    with open(ledger, "a", encoding="utf-8") as f:
        if f.tell() and not ledger.read_bytes().endswith(b"\n"):
            line = "\n" + line  # a line cut short by a kill stays one unreadable line of its own
        f.write(line)
        f.flush()
        os.fsync(f.fileno())


class Busy(Exception):
    """Another run is fitting or checking a calibration in this folder now, or enrolling a deck into it."""


class hold:
    """The folder of ``calibration`` held (``with hold(cal):``): while it is held no other run may fit or check a
    calibration there, nor enrol into it (``Busy``, raised at once), and it is let go however the run ends (a lock the
    system drops with the process: a killed run leaves nothing held, and nothing behind, since the lock is the
    folder's own and no file is made for it). OSError where the folder is missing or not writable, or where a folder
    lies in the ledger's place: said before any minutes are spent."""

    def __init__(self, calibration: Path) -> None:
        self.ledger = ledger_of(calibration)
        if self.ledger.exists() and not self.ledger.is_file():
            raise IsADirectoryError(errno.EISDIR, "not a file", str(self.ledger))
        folder = self.ledger.parent
        self._fd: int | None = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            if not os.access(folder, os.W_OK):
                raise PermissionError(errno.EACCES, "not writable", str(folder))
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.close()
            raise Busy(str(calibration)) from None
        except OSError:
            self.close()
            raise

    def __enter__(self) -> hold:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
