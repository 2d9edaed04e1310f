"""What a hostile user in the hall tried on the console and the scoreboard (the s41 audit,
/work/notes/s41/audit-security.md), against the app served by uvicorn on a real mosquitto, with a tournament made:

- No page of the app runs a script from another site: FastAPI's ``/docs`` and ``/redoc`` loaded theirs from a CDN on
  the console's origin, where the session cookie lives, under a CSP relaxed for them.
- Every route of the app is someone's: the public's, any logged-in user's, a referee's or only an organiser's; a
  visitor without a login gets 401 and a referee 403 on an organiser's action, said in words. A route added later
  fails here until it is given its role.
- A round number that names no round is refused in words and shows nothing.
- A value of another JSON type than its field's (``true`` or ``"1"`` for a number) is refused in words, never
  converted; so is text holding a lone surrogate, and a ruling of no known kind.

These are the console's own rules, not a rulebook's: no seed article speaks of logins, scripts or pages."""

from __future__ import annotations

import json
import re

import httpx
import pytest
from fastapi.routing import APIRoute
from kit import ORGANISER, REFEREE, served, small_tournament

from display.guard import CSP

PUBLIC, ANYONE, REFEREES, ORGANISERS = "public", "logged in", "referee", "organiser"
# Every route of the app and who may call it (display/README.md, "Decisions": roles).
ROLES = {
    ("GET", "/"): PUBLIC, ("GET", "/big"): PUBLIC, ("GET", "/tables/{table}"): PUBLIC, ("GET", "/console"): PUBLIC,
    ("GET", "/catalogue.js"): PUBLIC, ("GET", "/api/hall"): PUBLIC, ("GET", "/api/tables"): PUBLIC,
    ("GET", "/api/tables/{table}"): PUBLIC, ("GET", "/api/stream"): PUBLIC,
    ("GET", "/api/tournaments/{tournament}/standings"): PUBLIC, ("GET", "/api/tournaments/{tournament}/round"): PUBLIC,
    ("GET", "/api/tournaments/{tournament}/entries"): PUBLIC, ("GET", "/api/tournaments/{tournament}/results"): PUBLIC,
    ("GET", "/api/tournaments/{tournament}/awards"): PUBLIC, ("POST", "/api/login"): PUBLIC,
    ("POST", "/api/logout"): ANYONE, ("GET", "/api/me"): ANYONE,
    ("GET", "/api/console/audit"): REFEREES, ("GET", "/api/console/flags"): REFEREES,
    ("GET", "/api/console/health"): REFEREES,
    ("GET", "/api/console/tables"): REFEREES,
    ("POST", "/api/console/tables/{table}/commands"): REFEREES,  # last_hand; start_round and stop_round: organisers
    ("POST", "/api/console/tables/{table}/rulings"): REFEREES, ("POST", "/api/console/last-hand"): REFEREES,
    ("POST", "/api/console/tables/{table}/flags/{flag}"): REFEREES,
    ("GET", "/api/console/tables/{table}/choices"): REFEREES, ("POST", "/api/console/tables/{table}/plays/{entry}"): REFEREES,
    ("GET", "/api/console/frames/{table}/{frame}"): REFEREES, ("GET", "/api/console/entries"): REFEREES,
    ("GET", "/api/console/tournament"): REFEREES, ("POST", "/api/console/tournament/results"): REFEREES,
    ("POST", "/api/console/tournament/forfeits"): REFEREES, ("POST", "/api/console/tournament/late"): REFEREES,
    ("GET", "/api/console/tournament/export.{fmt}"): REFEREES, ("GET", "/api/console/tournament/print.css"): REFEREES,
    ("GET", "/api/users"): ORGANISERS, ("POST", "/api/users"): ORGANISERS,
    ("POST", "/api/console/tables/{table}/assign"): ORGANISERS, ("POST", "/api/console/entries"): ORGANISERS,
    ("DELETE", "/api/console/entries"): ORGANISERS, ("POST", "/api/console/entries/import"): ORGANISERS,
    ("POST", "/api/console/tournament"): ORGANISERS, ("POST", "/api/console/tournament/rounds"): ORGANISERS,
    ("POST", "/api/console/tournament/rounds/{round_no}/unpair"): ORGANISERS,
    ("POST", "/api/console/tournament/rounds/{round_no}/start"): ORGANISERS,
    ("POST", "/api/console/tournament/lot"): ORGANISERS, ("POST", "/api/console/tournament/withdrawals"): ORGANISERS,
    ("PUT", "/api/console/tournament/rounds"): ORGANISERS,
}
FILLED = {"table": "t1", "flag": "f1", "entry": "1", "frame": "f1", "round_no": "1", "fmt": "csv", "tournament": "main"}


@pytest.fixture(scope="module")
def server(broker, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hostile")
    with served(broker, tmp / "console.db", small_tournament(tmp / "hall.db")) as s:
        yield s


def browser_of(server, who=None) -> httpx.Client:
    """A browser on the console's page (its Origin), logged in as ``who`` when one is given."""
    client = httpx.Client(base_url=server.url, timeout=30, headers={"Origin": server.url})
    if who is not None:
        assert client.post("/api/login", json={"user": who[0], "password": who[1]}).status_code == 200
    return client


@pytest.mark.parametrize("path", ["/docs", "/redoc", "/docs/oauth2-redirect"])
def test_no_page_runs_another_sites_script_on_the_consoles_origin(server, path):
    """/docs answered a page whose scripts came from cdn.jsdelivr.net, under the CSP ``frame-ancestors 'none'`` alone:
    a script of that CDN ran where the session cookie lives, and a change it sent came from our own origin."""
    for accept in ("text/html", "application/json"):
        r = httpx.get(server.url + path, headers={"Accept": accept}, timeout=10)
        assert r.status_code == 404 and "https://" not in r.text
        assert r.headers["content-security-policy"] == CSP
    assert httpx.get(server.url + "/openapi.json", timeout=10).json()["info"]["title"] == "cardtable display"


def test_every_route_is_given_its_role(server):
    """A route the table above does not name is a door nobody decided about."""
    found = {(m, r.path) for r in _routes(server.server.config.app.routes) for m in r.methods}
    assert found == set(ROLES), (sorted(found - set(ROLES)), sorted(set(ROLES) - found))


def _routes(routes) -> list[APIRoute]:
    """The app's routes, those of its routers too (FastAPI 0.165 keeps an included router as one route of its own)."""
    out = []
    for r in routes:
        inner = getattr(r, "original_router", None)
        out += _routes(inner.routes) if inner is not None else [r] if isinstance(r, APIRoute) else []
    return out


def _call(client: httpx.Client, method: str, path: str, **headers: str) -> httpx.Response:
    """``path`` with its parameters filled, an empty body to a change (the role is checked before the body)."""
    url = re.sub(r"\{(\w+)\}", lambda m: FILLED[m.group(1)], path)
    return client.request(method, url, json={} if method != "GET" else None, headers=headers)


@pytest.mark.parametrize(("method", "path"), sorted(k for k, v in ROLES.items() if v not in (PUBLIC,)))
def test_a_visitor_without_a_login_is_refused_in_words(server, method, path):
    """Every change, and every read of the console, from a visitor who has not logged in: 401, said in Chinese (and
    English for a browser asking for it), nothing done."""
    for lang, words in (("zh-CN", "尚未登录"), ("en", "not logged in")):
        r = _call(browser_of(server), method, path, **{"Accept-Language": lang})
        assert (r.status_code, r.json()["detail"]) == (401, words), (method, path, r.text)


@pytest.mark.parametrize(("method", "path"), sorted(k for k, v in ROLES.items() if v == ORGANISERS))
def test_a_referee_cannot_do_an_organisers_action(server, method, path):
    """The page hides an organiser's controls from a referee; the API is the guard: 403 in words naming the role."""
    r = _call(browser_of(server, REFEREE), method, path)
    assert r.status_code == 403 and "组织者" in r.json()["detail"], (method, path, r.status_code, r.text)


def test_a_referee_cannot_start_or_stop_a_round_but_announces_the_last_hand(server):
    referee = browser_of(server, REFEREE)
    for command in ("start_round", "stop_round"):
        r = referee.post("/api/console/tables/t1/commands", json={"command": command})
        assert r.status_code == 403 and "组织者" in r.json()["detail"]
    r = referee.post("/api/console/tables/t9/commands", json={"command": "last_hand"})
    assert r.status_code == 404  # allowed to a referee: refused only because the broker has no table t9


@pytest.mark.parametrize("asked", ["0", "-1", "1001", "x"])
def test_a_round_that_is_none_is_refused_in_words(server, asked):
    """``?round=0`` showed a round 0 without tables while round 1 was paired (a phantom the console would draw)."""
    organiser = browser_of(server, ORGANISER)
    r = organiser.get("/api/console/tournament", params={"round": asked})
    assert r.status_code in (409, 422) and re.search("round|轮", r.json()["detail"]), r.text
    assert organiser.get("/api/console/tournament", params={"round": "1"}).json()["round"]["round"] == 1


@pytest.mark.parametrize(("body", "said"), [
    ({"round": True, "table": "t01", "result": {"winner": 0}}, "“轮次”：应为整数"),
    ({"round": 1, "table": "t01", "result": {"winner": True}}, "“结果”的“胜方”：应为整数"),
    ({"round": "1", "table": "t01", "result": {"winner": 0}}, "“轮次”：应为整数"),
    ({"round": 1, "table": "t01", "result": []}, "“结果”：应为对象"),
    ({"round": 1, "table": "t01", "result": {"winner": 0}, "correct": True, "reason": "\ud800"},
     "“原因”：含有不成文字的编码（孤立的代理项）"),
])
def test_a_value_of_the_wrong_type_is_refused_not_converted(server, body, said):
    """``"winner": true`` recorded side 1 as the winner (pydantic took true for 1), ``"round": "1"`` round 1; a lone
    surrogate was said only as 不对. Each is a 422 in words, Chinese first, and nothing is recorded."""
    organiser = browser_of(server, ORGANISER)
    raw = json.dumps(body).encode()  # a lone surrogate goes as its JSON escape, as a script would send it
    r = organiser.post("/api/console/tournament/results", content=raw, headers={"Content-Type": "application/json"})
    assert (r.status_code, r.json()["detail"]) == (422, said)
    en = organiser.post("/api/console/tournament/results", content=raw,
                        headers={"Content-Type": "application/json", "Accept-Language": "en"})
    assert en.status_code == 422 and not re.search(r"[\u3400-\u9fff]", en.json()["detail"])
    table = organiser.get("/api/console/tournament").json()["round"]["tables"][0]
    assert table["table"] == "t01" and table.get("result") is None


@pytest.mark.parametrize(("body", "said"), [({"ruling": "dance"}, "请求：种类不是可选的值"), ({"seat": "S"}, "请求：缺少说明其种类的字段")])
def test_a_ruling_of_no_known_kind_is_said_so(server, body, said):
    """A ruling is told by its ``ruling`` (foul, report, open_hand): one of none, or none at all, was said 不对."""
    r = browser_of(server, REFEREE).post("/api/console/tables/t1/rulings", json=body)
    assert (r.status_code, r.json()["detail"]) == (422, said)
