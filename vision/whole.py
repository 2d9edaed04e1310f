"""Files written whole or not at all: a model, a checkpoint or a calibration is written under a name of its own
beside its place (``NAME.part``) and then put there, so a process killed or a disk full while it writes leaves the
file there before as it was (a model trained further over ``--out models`` is the shipped one or the new one, never
part of either), and a write that fails or is stopped (a full disk, Ctrl-C) leaves no ``NAME.part`` behind. A
database (a mistyped ``--out`` naming the console's file) is never written over: :class:`cardtable.backup.OverDatabase`.

>>> import tempfile
>>> from pathlib import Path
>>> path = Path(tempfile.mkdtemp()) / "index.sure.json"
>>> whole(path, lambda to: Path(to).write_text("{}"))
>>> path.read_text(), [p.name for p in path.parent.iterdir()]
('{}', ['index.sure.json'])
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from cardtable.backup import refuse_over_database


def whole(path: Path, write: Callable[[str], object]) -> None:
    """``write(name)`` the file ``path`` under the name ``path.part``, then put it in ``path``'s place; the part
    taken away again however that fails (the error raised as it was). Refused where ``path`` is a database."""
    refuse_over_database(path)
    part = Path(path).with_name(Path(path).name + ".part")
    try:
        write(str(part))
        part.replace(path)
    except BaseException:
        part.unlink(missing_ok=True)
        raise
