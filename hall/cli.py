"""``cardtable hall`` (the whole simulated hall), and its parts ``hall player`` and ``hall camera``
(started by the hall, one of each per table); ``hall setup`` (a real hall's files) and ``hall certs`` (its CA and the
console machine's certificate)."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from bus.credentials import port
from cardtable.lang import refuse


def add_parser(sub: argparse._SubParsersAction) -> None:
    hall = sub.add_parser("hall", help="the whole hall on this machine: broker, tables, bots, cameras, "
                                       "tournament, scoreboard (until Ctrl-C)")
    hall.add_argument("--tables", type=int, default=8, help="tables (default 8: five Tractor tables of the tournament; outside it "
                                                               "one Tractor of four decks, one Guandan, one San Da Yi)")
    hall.add_argument("--speed", type=float, default=1.0, help="times faster than real time (default 1)")
    hall.add_argument("--port", type=port, default=None, help="the scoreboard's port (default 8000, else a free one)")
    hall.add_argument("--dir", type=Path, default=None, help="run directory: logs, databases (default: a new temporary one)")
    hall.add_argument("--seed", type=int, default=2026, help="the seed of the deals and the bots (default 2026)")
    hall.add_argument("--hands", type=int, default=2,
                      help="hands per round, then the last-hand notice (default 2; 0: the rulebook's round clock)")
    hall.add_argument("--slow", type=float, default=0.04, metavar="P",
                      help="the share of plays a bot thinks past the shot clock (default 0.04)")
    hall.add_argument("--see", choices=("auto", "vision", "oracle"), default="auto",
                      help="cameras: render and read every play (vision), or take the cards as laid (oracle); "
                           "auto: vision when the model is there")
    hall.set_defaults(func=lambda args: _hall(args, hall))
    parts = hall.add_subparsers(dest="part")
    for name, help_ in (("player", "the four bots of one table (started by the hall)"),
                        ("camera", "the camera and vision of one table (started by the hall)")):
        p = parts.add_parser(name, help=help_)
        p.add_argument("--table", required=True, help="the table id, e.g. t07")
        p.add_argument("--rulebook", required=True, help="the table's rulebook id")
        p.add_argument("--dir", type=Path, required=True, help="the hall's run directory")
        p.add_argument("--seed", type=int, default=2026, help="the seed of the deals and the bots (default 2026)")
        if name == "camera":
            p.add_argument("--see", choices=("vision", "oracle"), default="vision",
                           help="render and read every play (vision), or take the cards as laid (oracle)")
        else:
            p.add_argument("--speed", type=float, default=1.0, help="times faster than real time (default 1)")
            p.add_argument("--slow", type=float, default=0.04,
                           help="the share of plays a bot thinks past the shot clock (default 0.04)")
        p.set_defaults(func=_player if name == "player" else _camera)
    setup = parts.add_parser("setup", help="write a real hall's files: the broker's configuration, ACL and passwords, "
                                           "each machine's credentials (0600) and systemd units")
    setup.add_argument("--tables", nargs="+", required=True, metavar="ID",
                       help="the table ids, or one number N for t01..tN")
    setup.add_argument("--broker-host", required=True, help="the broker's name or address on the hall network")
    setup.add_argument("--out", type=Path, required=True, help="a new folder: one sub-folder per machine")
    setup.add_argument("--rulebook", action="append", default=[], metavar="NAME|TABLE=NAME",
                       help="every table's rulebook (default classic-3deck), or one table's")
    setup.add_argument("--port", type=int, default=None, help="the broker's port (default 8883 with TLS, else 1883)")
    setup.add_argument("--listen", default="", metavar="ADDRESS", help="the broker listens here only (default: everywhere)")
    setup.add_argument("--etc", type=Path, default=Path("/etc/cardtable"), help="where each machine keeps these files")
    setup.add_argument("--state", type=Path, default=Path("/var/lib/cardtable"), help="where the logs and databases go")
    setup.add_argument("--system-user", default="cardtable", help="the user the services run as (default cardtable)")
    setup.add_argument("--cardtable", default=None, metavar="COMMAND",
                       help="the cardtable command on the machines (default: this installation's)")
    setup.add_argument("--mosquitto", default="/usr/sbin/mosquitto", metavar="PATH",
                       help="the broker program on the central machine (default /usr/sbin/mosquitto)")
    setup.add_argument("--camera-source", default="0", help="each table's camera (default 0)")
    setup.add_argument("--board-port", default="/dev/ttyUSB0", help="each table's board (default /dev/ttyUSB0)")
    setup.add_argument("--display-port", type=int, default=8080, help="the scoreboard's port (default 8080)")
    setup.add_argument("--also", action="append", default=[], metavar="USER=ROLE",
                       help="one more central broker user, e.g. scoreboard-2=scoreboard for a second display")
    setup.add_argument("--tls-cert", type=Path, metavar="PEM",
                       help="the console machine's certificate (e.g. hall certs' server.pem): the broker takes only "
                            "TLS (mqtts://), the display serves HTTPS")
    setup.add_argument("--tls-key", type=Path, metavar="PEM", help="that certificate's key (server.key)")
    setup.add_argument("--tls-ca", type=Path, metavar="PEM", help="the CA that signed it (ca.pem), given to every machine")
    setup.set_defaults(func=_setup)
    certs = parts.add_parser("certs", help="make the hall's own CA and the console machine's certificate "
                                           "(for hall setup --tls-*)")
    certs.add_argument("--name", nargs="+", required=True, metavar="NAME",
                       help="the console machine's names and addresses on the hall network, e.g. console.hall 10.0.0.2")
    certs.add_argument("--out", type=Path, required=True, help="a new folder: ca.pem, server.pem, server.key")
    certs.set_defaults(func=_certs)


def _hall(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from hall.plan import MAX_TABLES
    from hall.supervisor import Options, run
    from referee.catalogue import say

    fits = {"tables": 1 <= args.tables <= MAX_TABLES, "speed": 0 < args.speed < math.inf, "hands": args.hands >= 0,
            "slow": 0 <= args.slow <= 1}
    wrong = [say(args.lang, f"cli.hall_{name}", most=MAX_TABLES, value=getattr(args, name)) for name, ok in fits.items() if not ok]
    if wrong:  # each option out of its range, and only those
        parser.error(say(args.lang, "word.list").join(wrong))
    return run(Options(args.tables, args.speed, args.port, args.dir, args.seed, args.see, args.hands, args.slow), args)


def _setup(args: argparse.Namespace) -> int:
    import shutil

    from bus.broker import BrokerError
    from hall.setup import Plan, PlanError, Tls, parse_tables, write
    from referee.catalogue import say

    defaults = [r for r in args.rulebook if "=" not in r]
    try:
        if len(defaults) > 1 or (args.port is not None and not 0 < args.port < 65536) or not 0 < args.display_port < 65536:
            raise PlanError("options")
        given = [f for f in (args.tls_ca, args.tls_cert, args.tls_key) if f is not None]
        if len(given) not in (0, 3):
            raise PlanError("tls_options")
        also = dict(a.partition("=")[::2] for a in args.also)
        tables = parse_tables(args.tables, (defaults or ["classic-3deck"])[0], [r for r in args.rulebook if "=" in r])
        cardtable = args.cardtable or shutil.which("cardtable") or str(Path(sys.prefix) / "bin" / "cardtable")
        plan = Plan(tables, args.broker_host, args.port, args.listen, args.etc, args.state, args.system_user, cardtable,
                    args.mosquitto, args.camera_source, args.board_port, args.display_port, also,
                    Tls(*given) if given else None)
        written = write(plan, args.out)
    except (ValueError, BrokerError) as exc:
        return refuse(args, exc)
    except OSError as exc:  # --out cannot be made (no such folder above it, a read-only disk, no permission)
        return refuse(args, PlanError("cannot_write", out=args.out, error=exc))
    if not given:
        colon = "：" if args.lang == "zh" else ": "  # as argparse_text's error line: cardtable hall setup：错误：
        print(f"cardtable hall setup{colon}{say(args.lang, 'hall.setup_plain')}", file=sys.stderr)
    print(say(args.lang, "hall.setup.written", files=len(written), tables=len(tables), out=args.out,
              install=args.out / "INSTALL.txt"))
    return 0


def _certs(args: argparse.Namespace) -> int:
    from hall.certs import CertsError, make
    from referee.catalogue import say

    try:
        written = make(args.out, args.name)
    except CertsError as exc:
        return refuse(args, exc)
    except OSError as exc:  # --out cannot be made (no such folder above it, a read-only disk, no permission)
        return refuse(args, CertsError("cannot_write", out=args.out, error=exc))
    print(say(args.lang, "hall.certs.written", out=args.out, names=" ".join(args.name),
              files=" ".join(p.name for p in written)))
    return 0


def _by_hand(args: argparse.Namespace, env: str) -> int | None:
    """A refusal, in words, of a part the hall starts (its broker URL in ``env``, its run folder made) run by hand
    without them: it was a traceback (KeyError), or made its files under a mistyped ``--dir``."""
    import os

    from referee.catalogue import say

    if env not in os.environ or not args.dir.is_dir():
        return refuse(args, say(args.lang, "cli.hall_only", verb=args.part, env=env, dir=args.dir))
    return None


def _player(args: argparse.Namespace) -> int:
    from hall.player import main

    if (refused := _by_hand(args, "HALL_READER")) is not None:
        return refused
    d = args.dir / args.table
    buttons = d / "buttons"
    return main(args.table, args.rulebook, d / "scene.jsonl", buttons if buttons.exists() else None,
                args.seed, args.speed, args.slow)


def _camera(args: argparse.Namespace) -> int:
    from hall.camera import main

    if (refused := _by_hand(args, "HALL_CAMERA")) is not None:
        return refused
    return main(args.table, args.rulebook, args.dir, args.seed, args.see)
