"""``cardtable display``: serve the scoreboard and console, and add console users.

    cardtable display serve --broker mqtt://HOST:PORT --credentials PATH --db PATH [--tournament-db PATH]
                            [--scoreboard-user NAME] [--console-user NAME] [--host H] [--port P] [--secure-cookie]
                            [--tls-cert PEM --tls-key PEM] [--head-timeout S] [--body-timeout S]
    cardtable display user --db PATH --user NAME --role organiser|referee   (password: $CARDTABLE_PASSWORD or asked)
    cardtable display user --db PATH --user NAME --passwd|--remove|--unlock
    cardtable display backup --db PATH --out FILE   (a checked copy while the display runs; never over a file)

The display connects as two broker users, the scoreboard (reads) and the console (sends commands);
their passwords come from the credentials file (``bus.credentials``), never from the
command line. ``--broker`` and ``--credentials`` may come from ``$CARDTABLE_BROKER`` and
``$CARDTABLE_CREDENTIALS``. With ``--tls-cert`` and ``--tls-key`` it serves HTTPS itself, and the session cookie
goes over HTTPS only (as ``--secure-cookie``). The tables' timelines are kept beside the console's file, in
``<--db>.timelines`` (``display.kept``), held with it: a display killed or restarted shows them again.

A login can be taken back: ``--passwd`` gives the user a new password and ``--remove`` removes them, each ending
their sessions at once; ``--unlock`` lifts the lock that failed logins put on a name (``display.store``). Each change
is in the console's audit log as the command line's, by the OS user who ran it. A new name that reads as a user's
already there, or mixes Latin letters with Cyrillic or Greek ones, is refused (``display.names``).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path
from urllib.parse import urlsplit

from bus.credentials import ENV_BROKER, ENV_CREDENTIALS, port
from cardtable.lang import refuse
from referee.catalogue import Refusal, cli_lang, say

ENV_PASSWORD = "CARDTABLE_PASSWORD"


class ServeError(Refusal):
    """What ``serve`` refuses before it starts: ``--tls-cert`` and ``--tls-key`` that cannot serve HTTPS (the
    catalogue's ``cli.tls_*``), a console file another ``serve`` holds or whose lock file cannot be made
    (``cli.console_held``, ``cli.console_lock``), a scoreboard user another ``serve`` holds on the broker
    (``cli.scoreboard_held``, ``cli.scoreboard_lock``)."""

    section = "cli"


def add_parser(sub: argparse._SubParsersAction) -> None:
    display = sub.add_parser("display", help="the hall scoreboard and the organisers' console (web)")
    verbs = display.add_subparsers(dest="verb", required=True)
    serve = verbs.add_parser("serve", help="serve the scoreboard and the console until SIGINT/SIGTERM")
    serve.add_argument("--broker", metavar="URL", default=None, help=f"mqtt://host:port, or mqtts://host:8883 (the CA file in $CARDTABLE_BROKER_CA) (default ${ENV_BROKER})")
    serve.add_argument("--credentials", metavar="PATH", default=None,
                       help=f"the file of user:password lines, mode 0600 (default ${ENV_CREDENTIALS})")
    serve.add_argument("--scoreboard-user", default="scoreboard", help="the broker user that reads (default scoreboard)")
    serve.add_argument("--console-user", default="console", help="the broker user that sends commands (default console)")
    serve.add_argument("--db", required=True, metavar="PATH", help="the console's users, sessions and audit log (SQLite)")
    serve.add_argument("--tournament-db", metavar="PATH",
                       help="the tournament the console runs (the file of cardtable tournament serve --db)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0: the whole hall network)")
    serve.add_argument("--port", type=port, default=8080, help="the port to listen on (default 8080)")
    serve.add_argument("--secure-cookie", action="store_true", help="session cookie only over HTTPS (behind a TLS proxy)")
    serve.add_argument("--tls-cert", metavar="PEM", help="serve HTTPS with this certificate (its chain after it); "
                                                        "the session cookie then goes over HTTPS only")
    serve.add_argument("--tls-key", metavar="PEM", help="the certificate's key (with --tls-cert)")
    serve.add_argument("--origin", action="append", default=[], metavar="URL", type=_origin,
                       help="where the console is reached (e.g. https://console.hall) when a proxy changes the Host header")
    serve.add_argument("--log-level", default="warning", choices=["debug", "info", "warning", "error"],
                       help="what the server logs (default warning)")
    serve.add_argument("--head-timeout", type=_seconds, default=None, metavar="S",
                       help="seconds a connection has to send its request's head before it is closed (default 10)")
    serve.add_argument("--body-timeout", type=_seconds, default=None, metavar="S",
                       help="seconds a request has to send its whole body after its head before it is closed (default 60)")
    serve.set_defaults(func=_serve)
    user = verbs.add_parser("user", help="add a console user (password from $CARDTABLE_PASSWORD, else asked), or change one")
    user.add_argument("--db", required=True, metavar="PATH", help="the console's users, sessions and audit log (SQLite)")
    user.add_argument("--user", required=True, help="the user's login name")
    how = user.add_mutually_exclusive_group(required=True)
    how.add_argument("--role", choices=["organiser", "referee"],
                     help="organiser: runs the tournament; referee: answers the tables' flags")
    how.add_argument("--passwd", action="store_true",
                     help="a new password for the user ($CARDTABLE_PASSWORD, else asked); their sessions end at once")
    how.add_argument("--remove", action="store_true", help="the user can log in no more; their sessions end at once")
    how.add_argument("--unlock", action="store_true", help="lift the lock that failed logins put on the user's name")
    user.set_defaults(func=_user)
    backup = verbs.add_parser("backup", help="copy the console's file, checked, while the display runs (at every break)")
    backup.add_argument("--db", required=True, metavar="PATH", help="the console's file")
    backup.add_argument("--out", required=True, metavar="FILE", help="the copy: a new file (never overwritten)")
    backup.set_defaults(func=_backup)


def _serve(args: argparse.Namespace) -> int:
    from bus.credentials import CredentialsError, broker_url
    from bus.mqtt import parse_url

    try:
        given = args.broker or os.environ.get(ENV_BROKER)
        if given and parse_url(given).username:
            raise CredentialsError("url_user")
        urls = [broker_url(args.broker, args.credentials, user) for user in (args.scoreboard_user, args.console_user)]
    except Refusal as exc:  # no broker or password, a bad URL or credentials file
        return refuse(args, exc)
    from display.store import check_file
    from referee.tournament.store import check_file as check_tournament

    tournament_db = Path(args.tournament_db) if args.tournament_db else None
    try:  # before anything starts, not a traceback at startup: the files first, then the broker
        check_file(args.db)  # the console's own file
        if tournament_db is not None:
            check_tournament(tournament_db)  # a tournament's file
        https = _https(args.tls_cert, args.tls_key)
        held = _hold(args.db, f"{args.host}:{args.port}")
    except Refusal as exc:
        return refuse(args, exc)
    try:
        reader = _hold_reader(args.scoreboard_user, urls[0], f"{args.host}:{args.port}")
    except Refusal as exc:
        if held is not None:
            held.release()
        return refuse(args, exc)
    try:
        return _run(args, urls, tournament_db, https)
    finally:
        reader.release()
        if held is not None:
            held.release()


def _users(db: str) -> list:
    """The console file's users (a file not there yet: none; it is made as the console starts)."""
    from contextlib import closing

    from display.store import Store

    if not Path(db).is_file():
        return []
    with closing(Store.open(db)) as store:
        return store.users()


def _run(args: argparse.Namespace, urls: list[str], tournament_db: Path | None, https: dict[str, str]) -> int:
    """Serve, the console's file held: the broker reached first (in words where it cannot be), then uvicorn."""
    import uvicorn

    from cardtable.logs import setup_logging
    from display.app import Server, Settings, create_app
    from display.deadline import BODY_S, HEAD_S, Deadline
    from display.kept import kept_path

    try:
        _reach(urls)
    except Refusal as exc:
        return refuse(args, exc)
    if args.db != ":memory:" and not _users(args.db):  # a new file (a typo of --db, or a hall set up without users yet)
        print(say(args.lang, "cli.console_no_users", path=args.db), file=sys.stderr, flush=True)
    _more_files()
    app = create_app(Settings(*urls, Path(args.db), tournament_db, args.secure_cookie or bool(https),
                              origins=tuple(args.origin), timelines=kept_path(args.db)))
    setup_logging(args.log_level.upper())  # uvicorn's own loggers too: the hall's one format, no config of its own
    # The server ends the pages' live streams as it stops; a request still running then gets 2 s.
    config = uvicorn.Config(app, host=args.host, port=args.port, log_config=None, log_level=args.log_level,
                            timeout_graceful_shutdown=2, http=Deadline.within(args.head_timeout or HEAD_S, args.body_timeout or BODY_S),
                            **https)
    server = Server(config, app)
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # a SIGTERM ends as Ctrl-C does, the file let go
    try:
        server.run()
    except KeyboardInterrupt:  # uvicorn raises the signal again once it has stopped: Ctrl-C and SIGTERM end here
        pass
    return 0 if server.started else 3  # uvicorn's own exit for a server that could not start (the port taken)


def _hold(db: str, what: str):
    """Hold the console's file ``db`` for this ``serve``: its ``bus.lock.Holding`` (``hold_file`` of ``<db>.lock``
    beside it, naming this process and ``what``, its address), let go when it stops or the process ends however it
    ends; None for ``:memory:``. A second ``serve`` of the file would settle at its start the pending audit rows the
    first is writing (``display.store``) as changes never made: their lines lost."""
    from bus import lock

    if db == ":memory:":
        return None
    return lock.hold_or_refuse(ServeError, Path(f"{db}.lock"), what, busy="console_held", unopened="console_lock", path=db)


def _hold_reader(user: str, url: str, what: str):
    """Hold the scoreboard user ``user`` on the broker of ``url`` for this ``serve`` (its ``bus.lock.path``, role
    ``display``). The broker makes a client's id its user name and keeps the display's session for it
    (``display.feed``): a second display of the user on it would take the session from the first, each connecting
    again and taking it back, both missing events, for ever. A second display is given a user of its own
    (``--scoreboard-user``, e.g. ``scoreboard-2``: ``cardtable hall setup --also``)."""
    from bus import lock

    return lock.hold_or_refuse(ServeError, lock.path("display", user, url), what, busy="scoreboard_held",
                               unopened="scoreboard_lock", user=user)


def _https(cert: str | None, key: str | None) -> dict[str, str]:
    """uvicorn's TLS settings for ``--tls-cert`` and ``--tls-key`` (none without them); files that cannot serve,
    or one given without the other, refused in words before the server starts."""
    import ssl

    if cert is None and key is None:
        return {}
    if cert is None or key is None:
        raise ServeError("tls_both")
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(cert, key)
    except (OSError, ssl.SSLError) as exc:  # missing, not PEM, or a key that is not the certificate's
        raise ServeError("tls_files", cert=cert, keyfile=key, error=exc) from None
    return {"ssl_certfile": cert, "ssl_keyfile": key}


def _seconds(text: str) -> float:
    """A number of seconds, more than 0 and at most an hour (argparse's type)."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(say(cli_lang(), "cli.seconds_range", value=repr(text)))
    return value


def _origin(text: str) -> str:
    """An address the console's pages are reached at (argparse's type): ``https://host`` or ``http://host:port``. One
    without its scheme (``console.hall``) names no host to the guard, which then took no page's Origin for its own
    but those that name none (``null``).

    >>> _origin("https://console.hall:8443")
    'https://console.hall:8443'
    """
    split = urlsplit(text)
    if split.scheme not in ("http", "https") or not split.hostname:
        raise argparse.ArgumentTypeError(say(cli_lang(), "cli.origin_url", value=repr(text)))
    return text


def _more_files(most: int = 65536) -> None:
    """Raise this process's open-file limit to what the system allows (up to ``most``): each live page holds a socket,
    and a service's limit is 1,024 unless its unit says otherwise. The live pages are capped under it
    (``display.hub.streams_most``)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = most if hard == resource.RLIM_INFINITY else min(hard, most)
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def _reach(urls: list[str], timeout: float = 10.0) -> None:
    """Connect as each of the display's users once and go, before the server starts: a broker that is down, or a
    password it refuses, is said in words (``NoConnection``, ``ConnectionRefused``) instead of the server's startup
    traceback. Once running, the feed reconnects by itself. The scoreboard's session (the first URL's: ``display.feed``)
    is resumed as it is, not cleaned: a display killed finds in it what was published since; what the broker delivers to
    the probe is not acknowledged, so it delivers it again to the feed."""
    from bus.mqtt import Connection
    from display.feed import SESSION_EXPIRY_S

    for url, kept in zip(urls, (True, False)):
        probe = Connection(url, clean_start=not kept, session_expiry_s=SESSION_EXPIRY_S, manual_ack=kept)
        try:
            probe.connect(timeout)
        finally:
            probe.close(flush_timeout=0)


def _backup(args: argparse.Namespace) -> int:
    from pathlib import Path

    from display.store import Store, UserError

    try:
        if not Path(args.db).is_file():
            raise UserError("no_console_file", path=args.db)
        store = Store.open(args.db)
        try:
            held = store.backup(args.out)
        finally:
            store.close()
    except Refusal as exc:
        return refuse(args, exc)
    print(say(args.lang, "cli.console_backed_up", path=args.out, **held))
    if held["damaged"]:
        print(say(args.lang, "cli.console_backup_damaged", n=held["damaged"]), file=sys.stderr)
    return 0


def _user(args: argparse.Namespace) -> int:
    import time

    from display.store import Store, UserError

    try:
        if not args.role and args.db != ":memory:" and not Path(args.db).exists():  # a mistyped path is not made
            raise UserError("console_missing", path=args.db)
        store = Store.open(args.db)  # a file that is not the console's is refused before a password is asked for it
    except Refusal as exc:
        return refuse(args, exc)
    try:
        return _change_user(args, store, time.time())
    finally:
        store.close()


def _change_user(args: argparse.Namespace, store, now: float) -> int:
    """``display user``'s change on the open ``store``, in the audit log as the command line's (``via``), by the
    console server's OS user (:func:`_os_user`): the organisers' audit shows who changed which account when."""
    from referee.catalogue import say, word

    lang, shown = args.lang, repr(args.user)[1:-1]  # a name is printed as typed, never a terminal's escape
    by, via = _os_user(), {"via": "command_line", "user": args.user} | _login()
    try:
        if args.role:
            store.may_add(args.user)  # a name a person reads, unlike any user's: refused before the password is asked
    except Refusal as exc:
        return refuse(args, exc)
    password = _password(lang, shown) if args.role or args.passwd else ""
    if password is None:
        return refuse(args, say(lang, "cli.password_short"))
    try:
        if args.role:
            store.add_user(args.user, password, args.role, now)
            store.audit(by, "add_user", via | {"role": args.role}, now)
            done = say(lang, "cli.user_added", role=word(lang, f"role.{args.role}"), user=shown)
        elif args.passwd:
            store.set_password(args.user, password)
            store.audit(by, "set_password", via, now)
            done = say(lang, "cli.user_passwd", user=shown)
        elif args.remove:
            store.remove_user(args.user)
            store.audit(by, "remove_user", via, now)
            done = say(lang, "cli.user_removed", user=shown)
        else:
            n = store.unlock(args.user)
            store.audit(by, "unlock_user", via | {"n": n}, now)
            done = say(lang, "cli.user_unlocked", user=shown, n=n)
    except Refusal as exc:
        return refuse(args, exc)
    print(done)
    return 0


def _os_user() -> str:
    """The OS user running the command (by its user id, not the environment's word), or its uid where it has no name."""
    import pwd

    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:  # a uid the system has no name for (a container's)
        return f"uid {os.getuid()}"


def _login() -> dict:
    """``{"login": name}``: the person who logged in to run the command, where another OS user runs it (``sudo -u
    cardtable``, as the hall's INSTALL.txt says): the kernel's login uid (set at login, kept through ``sudo``, not
    the environment's word); none where it is the same user or no login is known (a service, a container)."""
    import pwd

    try:
        uid = int(Path("/proc/self/loginuid").read_text())
    except (OSError, ValueError):
        return {}
    if uid in (os.getuid(), 2**32 - 1):
        return {}
    try:
        return {"login": pwd.getpwuid(uid).pw_name}
    except KeyError:
        return {"login": f"uid {uid}"}


def _password(lang: str, shown: str) -> str | None:
    """The password from ``$CARDTABLE_PASSWORD``, else asked at the terminal; None when it is under 8 characters."""
    import getpass

    from referee.catalogue import say

    try:
        password = os.environ.get(ENV_PASSWORD) or getpass.getpass(say(lang, "cli.password_for", user=shown))
    except (EOFError, KeyboardInterrupt):  # no terminal to type it on, and no $CARDTABLE_PASSWORD
        password = ""
    return password if len(password) >= 8 else None
