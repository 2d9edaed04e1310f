"""A disk that fills up, for the tests of backups: a child process whose writes past ``limit`` bytes fail (EFBIG) as
on a full disk or USB stick, instead of the signal killing it."""

from __future__ import annotations

import resource
import signal
from collections.abc import Callable


def small_files(limit: int = 40_000) -> Callable[[], None]:
    """A ``preexec_fn`` for :func:`subprocess.run`: files of at most ``limit`` bytes."""
    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return limited
