"""How a table service knows that its log is whole: a hash chain over the entries, and witnesses
of it kept where they are not lost with the log.

Each entry extends the chain: ``chain(n) = sha256(chain(n-1) | seq | kind | at | input_id | payload)``
from :data:`ORIGIN`, so one hash names the log up to an entry, every byte of it. The chain is not
stored in the log (it is computed again on replay); it goes out as :class:`Witness` values
``(table, seq, chain)``: in the service's retained ``health`` on the broker, and in a small file
beside the log (``<db>.witness``, written atomically). On start the service compares every witness
with the log it replayed (:func:`disagreement`): a log that ends before a witnessed entry (a log
emptied, a write-ahead file truncated or lost, an old copy put back) or whose chain differs at that
entry (another log) is refused, so the table never publishes a state older than one it published.

>>> c1 = extend(ORIGIN, 1, "commands", 12.5, "commands k-1", '{"v":1}')
>>> c1.hex()[:16], len(c1)
('1a70e7d5efdb475d', 32)
>>> w = Witness("t1", 1, c1.hex())
>>> disagreement(w, last_seq=1, chain_at={1: c1}) is None
True
>>> disagreement(w, last_seq=0, chain_at={})
('lost', {'last': 0, 'seq': 1})
>>> disagreement(w, last_seq=3, chain_at={1: bytes(32)})
('replaced', {'seq': 1})
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
from dataclasses import dataclass
from pathlib import Path

ORIGIN = bytes(32)  # the chain of an empty log


def extend(chain: bytes, seq: int, kind: str, at: float, input_id: str | None, payload: str) -> bytes:
    """The chain after one more entry (``payload`` as the log holds it: its JSON text)."""
    h = hashlib.sha256(chain)
    h.update(struct.pack("<qd", seq, at))
    for text in (kind, input_id or "", payload):
        data = text.encode("utf-8")
        h.update(struct.pack("<I", len(data)))
        h.update(data)
    return h.digest()


@dataclass(frozen=True, slots=True)
class Witness:
    """The log of ``table`` held entry ``seq``, and the chain up to it was ``chain`` (hex; empty
    when only the seq was seen, as in a published ``state``)."""

    table: str
    seq: int
    chain: str

    def as_json(self) -> str:
        return json.dumps({"table": self.table, "seq": self.seq, "chain": self.chain}, separators=(",", ":"))


def disagreement(witness: Witness, last_seq: int, chain_at: dict[int, bytes]) -> tuple[str, dict[str, int]] | None:
    """Why the log (its last entry ``last_seq``, ``chain_at`` the chain after the witnessed entry) is not the one
    ``witness`` saw, as the catalogue's ``replay.why_*`` and its values (``lost``: it ends before the witnessed entry;
    ``replaced``: that entry is another), or None when it is (or extends it)."""
    if witness.seq > last_seq:
        return "lost", {"last": last_seq, "seq": witness.seq}
    if witness.seq > 0 and witness.chain and chain_at.get(witness.seq, b"").hex() != witness.chain:
        return "replaced", {"seq": witness.seq}
    return None


def sidecar(db: Path) -> Path:
    """The witness file beside the log ``db``."""
    return db.with_name(db.name + ".witness")


def read_file(path: Path) -> Witness | None:
    """The witness in ``path``; None when there is none. ValueError for a file that is not one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Witness(str(data["table"]), int(data["seq"]), str(data["chain"]))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path} is not a witness of a log: {exc}") from None


def write_file(path: Path, witness: Witness) -> None:
    """Replace the witness in ``path`` (a new file renamed over the old, synced: all or nothing). A disk that fills
    mid-write makes ``os.write`` write less than asked, with no error: the rest is written again, which then fails
    (before, the short file was renamed over the witness, and the table's next start refused as "not a witness")."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        left = memoryview(witness.as_json().encode())
        while left:
            left = left[os.write(fd, left):]
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


__all__ = ["ORIGIN", "Witness", "disagreement", "extend", "read_file", "sidecar", "write_file"]
