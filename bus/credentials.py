"""Broker credentials, never on a command line.

A program is given the broker's address (``--broker mqtt://host:port``, or ``$CARDTABLE_BROKER``; ``mqtts://host:8883``
for TLS, the broker's certificate checked against the CA file of ``$CARDTABLE_BROKER_CA``: ``bus.mqtt``)
and takes its password from a credentials file (``--credentials PATH``, or
``$CARDTABLE_CREDENTIALS``): one ``user:password`` line per broker user, readable by its owner
only (mode 0600), as ``cardtable hall setup`` writes one per table computer. The user is the
program's own (``table-t07`` for ``table run --table t07``) unless the URL names another. The
whole URL may also come from ``$CARDTABLE_BROKER`` with the password in it (the environment,
like the file, is not readable by other users). A password written in ``--broker`` itself still
works, for tests, but every local user can read a command line (``/proc/PID/cmdline``): it is
warned about.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "credentials"
>>> write_credentials(path, {"table-t07": "s:cret", "camera-t07": "pw2"})
>>> oct(path.stat().st_mode & 0o777), read_credentials(path)
('0o600', {'table-t07': 's:cret', 'camera-t07': 'pw2'})
>>> broker_url("mqtt://broker:1883", str(path), "table-t07", environ={})
'mqtt://table-t07:s%3Acret@broker:1883'
>>> broker_url("mqtt://camera-t07@broker", None, "table-t07", environ={"CARDTABLE_CREDENTIALS": str(path)})
'mqtt://camera-t07:pw2@broker:1883'
>>> broker_url("mqtts://broker", str(path), "camera-t07", environ={})
'mqtts://camera-t07:pw2@broker:8883'
>>> try:
...     broker_url("mqtt://board-t07@broker", str(path), "board-t07", environ={})
... except CredentialsError as exc:
...     print(exc.text("en"))  # doctest: +ELLIPSIS
no password for board-t07 in .../credentials (its lines: camera-t07, table-t07)
>>> said = []
>>> broker_url("mqtt://table-t07:pw@broker:1883", None, "table-t07", environ={}, warn=said.append)
'mqtt://table-t07:pw@broker:1883'
>>> said  # doctest: +ELLIPSIS
['警告：消息服务器的密码写在命令行上，本机每个用户都能读到...']

Its refusals and warning are the catalogue's (``broker.*``), said in the command line's language
(``referee.catalogue.cli_lang``); ``str()`` of a refusal is the Chinese.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path

from referee.catalogue import Refusal, cli_lang, say

ENV_BROKER = "CARDTABLE_BROKER"
ENV_CREDENTIALS = "CARDTABLE_CREDENTIALS"
MAX_BYTES = 64 * 1024


class CredentialsError(Refusal):
    """No broker, no credentials, a file others can read, or no line for the user."""

    section = "broker"


def add_options(parser: argparse.ArgumentParser, user: str) -> None:
    """``--broker`` and ``--credentials`` for a program that connects as ``user`` (help text)."""
    parser.add_argument("--broker", metavar="URL", default=None,
                        help=f"mqtt://host:port, or mqtts://host:8883 with the CA file in $CARDTABLE_BROKER_CA "
                             f"(default ${ENV_BROKER}); the user is {user} unless the URL names one")
    parser.add_argument("--credentials", metavar="PATH", default=None,
                        help=f"the file of user:password lines, mode 0600 (default ${ENV_CREDENTIALS})")


def port(text: str) -> int:
    """An argparse type: a TCP port to listen on or reach, 1 to 65535, else an error in words (not a traceback when
    the server binds it).

    >>> port("8080")
    8080
    >>> port("70000")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: ...'70000'
    """
    value = int(text) if text.strip().isdigit() else 0
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(say(cli_lang(), "cli.port", value=repr(text)))
    return value


def write_credentials(path: Path, users: Mapping[str, str]) -> None:
    """``user:password`` lines, the file made (or made again) with mode 0600 before anything is in it."""
    for name, password in users.items():
        if not name or ":" in name or any(c.isspace() for c in name + password):
            raise CredentialsError("bad_user", user=name)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        os.fchmod(f.fileno(), 0o600)  # a file that was there keeps its mode through O_TRUNC
        f.writelines(f"{name}:{password}\n" for name, password in users.items())


def read_credentials(path: str | Path) -> dict[str, str]:
    """The file's ``user: password``; refused when group or others may read or write it."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            mode = os.fstat(f.fileno()).st_mode
            raw = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise CredentialsError("unreadable", path=path, error=exc) from None
    if not stat.S_ISREG(mode):
        raise CredentialsError("not_a_file", path=path)
    if mode & 0o077:
        raise CredentialsError("open_to_others", path=path, mode=f"{mode & 0o777:04o}")
    if len(raw) > MAX_BYTES:
        raise CredentialsError("too_large", path=path, limit=MAX_BYTES)
    users: dict[str, str] = {}
    for number, line in enumerate(raw.decode("utf-8", "replace").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, sep, password = line.partition(":")
        if not sep or not name or not password:
            raise CredentialsError("bad_line", path=path, line=number)
        users[name] = password
    return users


def broker_url(url: str | None, credentials: str | None, user: str, *,
               environ: Mapping[str, str] = os.environ, warn: Callable[[str], None] | None = None) -> str:
    """The complete ``mqtt://user:password@host:port`` (or ``mqtts://``) to connect with (see the module's docstring).

    ``url`` and ``credentials`` are the command line's (None when not given), ``user`` the
    program's own broker user."""
    from bus.mqtt import parse_url  # paho: not for every command line that adds the options

    from_command_line = url is not None
    url = url if url is not None else environ.get(ENV_BROKER)
    if not url:
        raise CredentialsError("no_broker", env=ENV_BROKER)
    address = parse_url(url)
    name = address.username or user
    password = address.password
    if password is not None:
        if from_command_line:
            (warn or _stderr)(say(cli_lang(environ), "cli.password_visible"))
    else:
        path = credentials if credentials is not None else environ.get(ENV_CREDENTIALS)
        if not path:
            raise CredentialsError("no_password", user=name, env=ENV_CREDENTIALS)
        users = read_credentials(path)
        if name not in users:
            raise CredentialsError("no_line", user=name, path=path, users=", ".join(sorted(users)) or "-")
        password = users[name]
    return replace(address, username=name, password=password).url


def _stderr(line: str) -> None:
    print(f"cardtable: {line}", file=sys.stderr, flush=True)


__all__ = ["ENV_BROKER", "ENV_CREDENTIALS", "CredentialsError", "add_options", "broker_url", "read_credentials",
           "write_credentials"]
