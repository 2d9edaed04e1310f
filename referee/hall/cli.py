"""``cardtable hall`` (the whole simulated hall), and its parts ``hall player`` and ``hall camera``
(started by the hall, one of each per table)."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_parser(sub: argparse._SubParsersAction) -> None:
    hall = sub.add_parser("hall", help="the whole hall on this machine: broker, tables, bots, cameras, "
                                       "tournament, scoreboard (until Ctrl-C)")
    hall.add_argument("--tables", type=int, default=8, help="tables (default 8: six Tractor, one Guandan, one San Da Yi)")
    hall.add_argument("--speed", type=float, default=1.0, help="times faster than real time (default 1)")
    hall.add_argument("--port", type=int, default=None, help="the scoreboard's port (default 8000, else a free one)")
    hall.add_argument("--dir", type=Path, default=None, help="run directory: logs, databases (default: a new temporary one)")
    hall.add_argument("--seed", type=int, default=2026)
    hall.add_argument("--hands", type=int, default=2,
                      help="hands per round, then the last-hand notice (default 2; 0: the rulebook's round clock)")
    hall.add_argument("--slow", type=float, default=0.04, metavar="P",
                      help="the share of plays a bot thinks past the shot clock (default 0.04)")
    hall.add_argument("--see", choices=("auto", "vision", "oracle"), default="auto",
                      help="cameras: render and read every play (vision), or take the cards as laid (oracle); "
                           "auto: vision when the model is there")
    hall.set_defaults(func=_hall)
    parts = hall.add_subparsers(dest="part")
    for name, help_ in (("player", "the four bots of one table (started by the hall)"),
                        ("camera", "the camera and vision of one table (started by the hall)")):
        p = parts.add_parser(name, help=help_)
        p.add_argument("--table", required=True)
        p.add_argument("--rulebook", required=True)
        p.add_argument("--dir", type=Path, required=True)
        p.add_argument("--seed", type=int, default=2026)
        if name == "camera":
            p.add_argument("--see", choices=("vision", "oracle"), default="vision")
        else:
            p.add_argument("--speed", type=float, default=1.0)
            p.add_argument("--slow", type=float, default=0.04)
        p.set_defaults(func=_player if name == "player" else _camera)


def _hall(args: argparse.Namespace) -> int:
    from referee.hall.supervisor import Options, run

    if args.hands < 0 or not 0 <= args.slow <= 1:
        print("cardtable hall: --hands must be 0 or more, --slow 0 to 1")
        return 2
    return run(Options(args.tables, args.speed, args.port, args.dir, args.seed, args.see, args.hands, args.slow))


def _player(args: argparse.Namespace) -> int:
    from referee.hall.player import main

    d = args.dir / args.table
    buttons = d / "buttons"
    return main(args.table, args.rulebook, d / "scene.jsonl", buttons if buttons.exists() else None,
                args.seed, args.speed, args.slow)


def _camera(args: argparse.Namespace) -> int:
    from referee.hall.camera import main

    return main(args.table, args.rulebook, args.dir, args.seed, args.see)
