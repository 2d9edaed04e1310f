"""Fixtures of the display tests (helpers in kit.py): publishers as the tables and the tournament would be,
and for the browser tests the app served on the module's broker and the system Chromium."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kit import ARGS, CHROMIUM, HALL_LOCALE, Table, Tournament, served


@pytest.fixture
def table(connect):
    """``table(name)``: a publisher of that table's outputs, as its service."""
    made: dict[str, Table] = {}  # one connection per table's user

    def make(name: str) -> Table:
        if name not in made:
            made[name] = Table(connect, name)
        return made[name]

    return make


@pytest.fixture
def tournament(connect):
    return Tournament(connect)


@pytest.fixture(scope="module")
def hall_db(tmp_path_factory):
    return tmp_path_factory.mktemp("hall") / "hall.db"


@pytest.fixture(scope="module")
def console_db(tmp_path_factory):
    return tmp_path_factory.mktemp("display") / "console.db"


@pytest.fixture(scope="module")
def server(broker, console_db, hall_db):
    with served(broker, console_db, hall_db) as s:
        yield s


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    """``page(path, width, height, lang=None, script=None, locale="zh-CN")``: a fresh page of the app in a browser
    asking for ``locale`` (a hall's: Chinese), ``lang`` chosen on the switch before (its cookie); ``script`` runs in it
    before the page's own; its stream connected."""
    made = []

    def open_(path: str = "/", width: int = 1280, height: int = 720, lang: str | None = None, script: str | None = None,
              locale: str = HALL_LOCALE):
        context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
        if lang:
            context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
        if script:
            context.add_init_script(script)
        made.append(context)
        pg = context.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)  # the guard's CSP
        pg.errors = errors
        pg.goto(server.url + path)
        if path != "/console":
            pg.wait_for_selector("body[data-live='1']", state="attached")
        return pg

    yield open_
    for c in made:
        assert not any(pg.errors for pg in c.pages), [pg.errors for pg in c.pages]
        c.close()
