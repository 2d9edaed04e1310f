"""Every process's log (``cardtable.logs.setup_logging``): one line per record, whatever a message quotes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

FORGED = "/api/x\n12:00:00,000 INFO display.routers.auth: 裁判长 logged in\r\u2028\x1b[2J"


def test_a_message_quoting_a_line_break_cannot_forge_a_line_of_the_log():
    # A percent-encoded address (%0A) is decoded before the display logs it: the log of a real process gets one line
    # for it, its breaks written escaped, and a traceback after it keeps its own lines.
    code = ("import logging, sys; from cardtable.logs import setup_logging; setup_logging(); log = logging.getLogger('display')\n"
            "log.warning('POST %s: the body was not read', sys.argv[1])\n"
            "try:\n    1 / 0\nexcept ZeroDivisionError:\n    log.exception('and %s', sys.argv[1])\n")
    done = subprocess.run([sys.executable, "-c", code, FORGED], cwd=ROOT, capture_output=True, text=True, timeout=60)
    lines = done.stderr.splitlines()
    assert done.returncode == 0 and lines[0].endswith(
        r"WARNING display: POST /api/x\n12:00:00,000 INFO display.routers.auth: 裁判长 logged in\r\u2028\x1b[2J: the body was not read")
    assert lines[1].endswith(r"ERROR display: and /api/x\n12:00:00,000 INFO display.routers.auth: 裁判长 logged in\r\u2028\x1b[2J")
    assert lines[2] == "Traceback (most recent call last):" and lines[-1] == "ZeroDivisionError: division by zero"
    assert not any(line.startswith("12:00:00,000 INFO") for line in lines)
