"""``cardtable bridge run`` and ``cardtable bridge virtual`` (a command group of ``cardtable/cli.py``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bus.credentials import add_options
from cardtable.lang import FAILED, refuse

# The serial loop and paho's network thread hand the GIL over sooner (Python's default is 5 ms).
SWITCH_INTERVAL_S = 0.0005


def add_parser(sub: argparse._SubParsersAction) -> None:
    bridge = sub.add_parser("bridge", help="the table board: bridge it to the table service, or run a virtual one")
    verbs = bridge.add_subparsers(dest="verb", required=True)
    run = verbs.add_parser("run", help="bridge a board on a serial port to a table's board/in and board/out")
    run.add_argument("--table", required=True, help="the table id, e.g. t07")
    run.add_argument("--port", required=True, help="the board's serial port, e.g. /dev/ttyUSB0")
    add_options(run, "board-TABLE")
    run.add_argument("-v", "--verbose", action="store_true", help="log every port and link change")
    run.set_defaults(func=_run)
    virtual = verbs.add_parser("virtual", help="a board in software on a pseudo-terminal (type 'N ready' to press)")
    virtual.add_argument("--link", default="board-tty", metavar="PATH",
                         help="a symlink to the pseudo-terminal, for bridge run --port (default: ./board-tty)")
    virtual.add_argument("--board-id", type=int, default=1, help="the board's id (default 1)")
    virtual.set_defaults(func=_virtual)


def _run(args: argparse.Namespace) -> int:
    import logging
    import signal
    import threading

    from bridge.run import BoardRefused, Bridge, PortBusy
    from bus.credentials import broker_url
    from bus.mqtt import TAKEN_OVER_EXIT, ConnectionRefused
    from bus.protocol import check_table
    from cardtable.logs import setup_logging
    from referee.catalogue import say

    try:
        check_table(args.table)
    except ValueError:
        return refuse(args, say(args.lang, "cli.bad_table", table=args.table))
    try:
        url = broker_url(args.broker, args.credentials, f"board-{args.table}")
    except ValueError as e:  # no broker or password, a bad URL or credentials file
        return refuse(args, e)
    setup_logging(logging.DEBUG if args.verbose else logging.INFO)
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    try:
        return Bridge(args.table, args.port, url, stop=stop).serve()
    except (ConnectionRefused, PortBusy, BoardRefused) as e:
        return refuse(args, e, TAKEN_OVER_EXIT if e.key == "bridge.taken_over" else FAILED)  # a status the hall's unit does not restart


def _virtual(args: argparse.Namespace) -> int:
    from bridge.virtual import serve
    from referee.catalogue import say

    if not 0 <= args.board_id <= 0xFFFF:  # the protocol's board id: two bytes
        return refuse(args, say(args.lang, "cli.board_id", value=args.board_id))
    link = Path(args.link)
    if not link.parent.is_dir():  # a mistyped folder: the link's os.symlink was a traceback
        return refuse(args, say(args.lang, "cli.link_no_folder", path=link, folder=link.parent))
    if link.exists() and not link.is_symlink():  # another command's file, or a folder: the link would replace it
        return refuse(args, say(args.lang, "cli.link_taken", path=link))
    return serve(args.link, args.board_id)
