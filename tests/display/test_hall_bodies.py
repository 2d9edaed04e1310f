"""What a hostile user in the hall sent the console as a body, and how the session cookie is set (the s52 attacker
audit), against the app served by uvicorn on a real mosquitto:

- A JSON body is read as the bus reads a payload (``bus.protocol``): a key given twice (``{"how": "confirm", "how":
  "dismiss"}``) or a number JSON has not (``NaN``, ``Infinity``, ``1e999``) is refused in words, Chinese first, and
  changes nothing. Python's reader took the last of the keys and such numbers, so a body meant one thing to a proxy or a
  log and another to the console.
- A registration form that unpacks to far more than it weighs (a zip bomb, its header telling the truth or lying), or
  whose XML expands an entity into millions of characters (billion laughs), or names a file of the server's (an
  external entity), is refused in words at once, and the draft stays as it was.
- The session cookie is ``HttpOnly`` (no script reads it), ``SameSite=Strict`` (no other site's page sends it), for the
  whole site, and lives as long as a session.

These are the console's own rules, not a rulebook's: no seed article speaks of requests."""

from __future__ import annotations

import io
import struct
import time
import zipfile

import httpx
import pytest
from kit import ORGANISER, served

from display.store import SESSION_S

TABLES = ["h1"]
EN = {"Accept-Language": "en"}
JSON = {"Content-Type": "application/json"}
FORM = "单位,选手\n图书馆,张三\n图书馆,李四\n".encode()


@pytest.fixture(scope="module")
def server(broker, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("bodies")
    with served(broker, tmp / "console.db", tmp / "hall.db") as s:
        yield s


@pytest.fixture(scope="module")
def organiser(server):
    c = httpx.Client(base_url=server.url, timeout=30, headers={"Origin": server.url})
    r = c.post("/api/login", json={"user": ORGANISER[0], "password": ORGANISER[1]})
    assert r.status_code == 200
    c.login = r  # noqa: the answer, for its cookie
    yield c
    c.close()


@pytest.mark.parametrize(("raw", "zh", "en"), [
    (b'{"unit": "\xe5\x9b\xbe\xe4\xb9\xa6\xe9\xa6\x86", "players": "A", "players": "B"}',
     "请求中的键“players”写了两次：不猜哪一个是对的，什么也没有改动",
     "the request gives the key 'players' twice: neither is guessed to be the one meant, nothing was changed"),
    (b'{"unit": "U", "players": "A", "seed": NaN}', "请求中的 NaN 不是有限的 JSON 数，什么也没有改动",
     "NaN in the request is not a finite JSON number, nothing was changed"),
    (b'{"unit": "U", "players": "A", "seed": -Infinity}', "请求中的 -Infinity 不是有限的 JSON 数，什么也没有改动",
     "-Infinity in the request is not a finite JSON number, nothing was changed"),
    (b'{"unit": "U", "players": "A", "seed": 1e999}', "请求中的 1e999 不是有限的 JSON 数，什么也没有改动",
     "1e999 in the request is not a finite JSON number, nothing was changed"),
])
def test_a_body_the_bus_would_refuse_is_refused_in_words(server, organiser, raw, zh, en):
    before = organiser.get("/api/console/entries").json()
    r = organiser.post("/api/console/entries", content=raw, headers=JSON)
    assert (r.status_code, r.json()["detail"]) == (422, zh)
    r = organiser.post("/api/console/entries", content=raw, headers=JSON | EN)
    assert (r.status_code, r.json()["detail"]) == (422, en)
    assert organiser.get("/api/console/entries").json() == before
    assert not [e for e in organiser.get("/api/console/audit").json() if e["action"] == "add_entry"]


def test_a_key_given_twice_is_refused_at_the_login_too_and_its_name_is_cut(server):
    """The login is the one change without a session: the same rule, and a key of 5,000 letters said in 40."""
    with httpx.Client(base_url=server.url, timeout=30, headers={"Origin": server.url}) as c:
        r = c.post("/api/login", headers=JSON, content=b'{"user": "wang", "user": "li", "password": "organiser-pass"}')
        assert (r.status_code, r.json()["detail"]) == (422, "请求中的键“user”写了两次：不猜哪一个是对的，什么也没有改动")
        assert "set-cookie" not in r.headers
        key = "k" * 5000
        r = c.post("/api/login", headers=JSON, content=f'{{"{key}": 1, "{key}": 2}}'.encode())
        assert r.status_code == 422 and len(r.json()["detail"]) < 100


def test_a_well_formed_body_still_goes_through(organiser):
    r = organiser.post("/api/console/entries", content='{"unit": "图书馆", "players": "王五"}'.encode(), headers=JSON)
    assert r.status_code == 201, r.text
    assert organiser.delete("/api/console/entries").status_code == 200


def test_the_session_cookie_is_for_this_site_only_and_no_script(organiser):
    cookie = organiser.login.headers["set-cookie"]
    flags = {part.strip().split("=")[0].lower(): part.strip() for part in cookie.split(";")[1:]}
    assert "httponly" in flags and flags["samesite"].lower() == "samesite=strict" and flags["path"] == "Path=/"
    assert flags["max-age"] == f"Max-Age={int(SESSION_S)}" and "secure" not in flags  # plain HTTP: no --secure-cookie
    gone = organiser.post("/api/logout")
    assert gone.status_code == 204 and 'cardtable_session=""' in gone.headers["set-cookie"]
    assert organiser.get("/api/me").status_code == 401
    r = organiser.post("/api/login", json={"user": ORGANISER[0], "password": ORGANISER[1]})
    assert r.status_code == 200


# ---------------------------------------------------------------- forms that unpack to more than they weigh


def _xlsx(sheet=lambda xml: xml) -> bytes:
    """A registration form as a spreadsheet writes it, its first sheet's XML changed by ``sheet``."""
    from openpyxl import Workbook

    book = Workbook()
    book.active.append(["单位", "选手"])
    book.active.append(["图书馆", "张三"])
    made = io.BytesIO()
    book.save(made)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(made.getvalue())) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            data = src.read(info.filename)
            z.writestr(info.filename, sheet(data) if info.filename == "xl/worksheets/sheet1.xml" else data)
    return out.getvalue()


def _declared_small(data: bytes, part: bytes = b"xl/worksheets/sheet1.xml", size: int = 1000) -> bytes:
    """``data`` with ``part``'s unpacked size written as ``size`` in both its headers: a zip that lies about it."""
    b = bytearray(data)
    at = b.find(b"PK\x01\x02")
    while at != -1:
        length = struct.unpack("<H", b[at + 28:at + 30])[0]
        if b[at + 46:at + 46 + length] == part:
            struct.pack_into("<I", b, at + 24, size)
            struct.pack_into("<I", b, struct.unpack("<I", b[at + 42:at + 46])[0] + 22, size)
        at = b.find(b"PK\x01\x02", at + 1)
    return bytes(b)


def _doctype(text: bytes, xml: bytes, cell: bytes) -> bytes:
    return b'<?xml version="1.0"?>' + text + xml[xml.index(b"<worksheet"):].replace("张三".encode(), cell)


LAUGHS = b"<!DOCTYPE w [<!ENTITY l0 \"lollollollol\">" + b"".join(
    b'<!ENTITY l%d "%s">' % (i, b"&l%d;" % (i - 1) * 10) for i in range(1, 10)) + b"]>"
BOMB = _xlsx(lambda xml: xml.replace(b"</sheetData>", b"</sheetData>" + b" " * (64 << 20)))
BROKEN = ("无法读取报名表：文件已损坏，或不是它的后缀所说的格式", "cannot read the form")
FORMS = {
    "zip bomb": (BOMB, ("解压后超过 8 兆字节", "unpacked")),
    "zip bomb declared small": (_declared_small(BOMB), BROKEN),
    "billion laughs": (_xlsx(lambda xml: _doctype(LAUGHS, xml, b"&l9;")), BROKEN),
    "an entity as long as a form, said 20,000 times": (
        _xlsx(lambda xml: _doctype(b'<!DOCTYPE w [<!ENTITY a "' + b"x" * 100_000 + b'">]>', xml, b"&a;" * 20_000)), BROKEN),
    "a file of the server's": (_xlsx(lambda xml: _doctype(b'<!DOCTYPE w [<!ENTITY e SYSTEM "file:///etc/passwd">]>', xml,
                                                          b"&e;")), BROKEN),
}


@pytest.mark.parametrize("what", FORMS)
def test_a_form_that_unpacks_to_far_more_than_it_weighs_is_refused_at_once(organiser, what):
    data, (zh, en) = FORMS[what]
    assert organiser.post("/api/console/entries/import", files={"file": ("报名表.csv", FORM, "text/csv")}).status_code == 200
    before = organiser.get("/api/console/entries").json()
    started = time.monotonic()
    r = organiser.post("/api/console/entries/import", files={"file": ("报名表.xlsx", data, "application/octet-stream")})
    assert r.status_code == 422 and r.json()["detail"].startswith("报名表.xlsx：") and zh in r.json()["detail"], r.text
    assert "root:" not in r.text and time.monotonic() - started < 10
    r = organiser.post("/api/console/entries/import", files={"file": ("报名表.xlsx", data, "application/octet-stream")},
                       headers=EN)
    assert r.status_code == 422 and en in r.json()["detail"], r.text
    assert organiser.get("/api/console/entries").json() == before


@pytest.mark.parametrize(("method", "path", "zh", "en"), [
    ("POST", "/api/console/tables/h1/flags/", "“标记号”：太长", "“flag”: too long"),
    ("GET", "/api/console/frames/h1/", "“画面号”：太长", "“frame”: too long"),
])
def test_a_flag_or_frame_longer_than_the_bus_allows_is_refused_not_echoed(organiser, method, path, zh, en):
    """A flag's or a frame's id is a bus message id, 128 characters at most: one of 5,000 was looked for and its
    refusal quoted all 5,000 into the console's banner."""
    for lang, said in (("zh-CN", zh), ("en", en)):
        r = organiser.request(method, path + "f" * 5000, json={"how": "confirm"} if method == "POST" else None,
                              headers={"Accept-Language": lang})
        assert (r.status_code, r.json()["detail"]) == (422, said), r.text


# ---------------------------------------------------------------- where the console's pages come from


def test_a_change_from_a_page_with_no_address_is_never_the_consoles_own(server, organiser):
    """``Origin: null`` (a sandboxed frame's, a file's) was taken as the console's own page wherever the request named
    no host, as ``--origin console.hall`` (no scheme: no host read from it) made it for every request."""
    cookie = organiser.cookies
    for headers in ({"Host": "", "Origin": "null"}, {"Host": "", "Referer": "about:blank"}):
        r = httpx.post(server.url + "/api/console/entries", json={"unit": "U", "players": "A"}, cookies=cookie, headers=headers)
        assert r.status_code == 403 and "来源" in r.json()["detail"], (headers, r.status_code, r.text)


@pytest.mark.parametrize("given", ["console.hall", "10.0.0.5:8080", "ftp://console.hall", "https://", "null"])
def test_an_origin_that_is_no_address_is_refused_at_the_command_line(tmp_path, capsys, given):
    """``--origin console.hall`` left the console refusing every change from its real address (and taking pages with
    no address as its own); now it is refused in words before anything starts."""
    from cardtable import cli

    serve = ["display", "serve", "--db", str(tmp_path / "c.db"), "--broker", "mqtt://127.0.0.1:1", "--origin", given]
    with pytest.raises(SystemExit) as stop:
        cli.main(serve)
    assert stop.value.code == 2
    assert f"参数 --origin：不是网址（应写成 `https://主机名` 或 `http://主机名:端口`，例如 `https://console.hall`）：'{given}'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["--lang", "en", *serve])
    assert f"--origin: not an address (`https://host` or `http://host:port`, e.g. `https://console.hall`): '{given}'" in capsys.readouterr().err
    assert not (tmp_path / "c.db").exists()


def test_seconds_out_of_range_are_said_in_the_commands_language(tmp_path, capsys):
    """``--head-timeout 0`` was said in English inside the Chinese line (seconds, more than 0 and at most 3600)."""
    from cardtable import cli

    with pytest.raises(SystemExit):
        cli.main(["display", "serve", "--db", str(tmp_path / "c.db"), "--head-timeout", "0"])
    assert "参数 --head-timeout：应为大于 0、至多 3600 的秒数：'0'" in capsys.readouterr().err


def test_a_body_not_in_utf8_is_said_so_not_taken_for_json_nested_too_deep(organiser):
    """A script on a machine that writes GBK sent its JSON so: it was told 例如嵌套了几千层, nothing of the encoding."""
    raw = '{"unit": "图书馆", "players": "王五"}'.encode("gbk")  # 图's two bytes read as UTF-8 (ͼ): 书's first is the 13th
    for lang, said in (("zh-CN", "请求的内容不是 `UTF-8` 编码（从第 13 个字节起），无法按 `JSON` 读取，什么也没有改动：请以 `UTF-8` 发送"),
                       ("en", "the request's content is not UTF-8 (from byte 13 on), so it cannot be read as JSON; nothing was "
                              "changed: send it as UTF-8")):
        r = organiser.post("/api/console/entries", content=raw, headers=JSON | {"Accept-Language": lang})
        assert (r.status_code, r.json()["detail"]) == (400, said)
