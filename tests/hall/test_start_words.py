"""``cardtable hall`` refusing to start, as a person meets it (the real command): a run directory in use, a port
taken; said from the catalogue in Chinese, in English when asked, and nothing started."""

from __future__ import annotations

import io
import os
import signal
import socket
import subprocess
import sys

CLI = [sys.executable, "-m", "cardtable"]
ENV = {k: v for k, v in os.environ.items() if k != "CARDTABLE_LANG"}


def hall(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=60, env=ENV)


def test_a_run_directory_in_use_is_refused_in_either_language(tmp_path):
    """A folder with something in it, or a file (said "not empty" of a file before)."""
    kept = tmp_path / "kept.txt"
    kept.write_text("an earlier hall's")
    for path in (tmp_path, kept):
        zh, en = hall("hall", "--dir", str(path)), hall("--lang", "en", "hall", "--dir", str(path))
        assert zh.returncode == en.returncode == 2  # refused before anything starts
        assert f"cardtable hall：错误：{path} 不是空文件夹：请给 `--dir` 一个新的或空的文件夹" in zh.stderr, zh.stderr
        assert f"cardtable hall: error: {path} is not an empty folder: give `--dir` a new or empty folder" in en.stderr, \
            en.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.txt"] and kept.read_text() == "an earlier hall's"


def test_a_part_of_the_hall_run_by_hand_is_refused_in_words_and_makes_nothing(tmp_path):
    """`hall camera` and `hall player` are the hall's: run by hand (no broker URL in the environment, a mistyped
    `--dir`) they were a traceback (KeyError); now refused in words, exit 2, nothing made."""
    env = {k: v for k, v in ENV.items() if not k.startswith("HALL_")}
    for part, name in (("camera", "HALL_CAMERA"), ("player", "HALL_READER")):
        for given in ({}, {name: "mqtt://u:p@127.0.0.1:1"}):  # the URL given, the folder still mistyped
            done = subprocess.run([*CLI, "hall", part, "--table", "t01", "--rulebook", "sanjiang-2012", "--dir",
                                   str(tmp_path / "nosuch")], capture_output=True, text=True, timeout=60,
                                  env=env | given)
            assert done.returncode == 2 and done.stderr.strip().splitlines() == [
                f"cardtable hall {part}：错误：`cardtable hall {part}` 由赛场（`cardtable hall`）启动，不单独运行："
                f"缺少 `{name}`，或没有赛场的运行文件夹 {tmp_path / 'nosuch'}"], done.stderr
    assert not list(tmp_path.iterdir())


def test_a_port_taken_is_refused_in_either_language():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        zh, en = hall("hall", "--port", port), hall("hall", "--port", port, "--lang", "en")
    assert zh.returncode == en.returncode == 2
    assert f"cardtable hall：错误：端口 {port} 已被占用：请用 `--port` 换一个" in zh.stderr, zh.stderr
    assert f"cardtable hall: error: port {port} is taken; ask for another with `--port`" in en.stderr, en.stderr


def test_the_brokers_refusals_are_said_in_either_language(tmp_path):
    """``hall setup`` with a user of no role: the broker's ACL refuses it, and nothing is written."""
    args = ["hall", "setup", "--tables", "2", "--broker-host", "h", "--out", str(tmp_path / "out"), "--also", "x=referee"]
    zh, en = hall(*args), hall(*args, "--lang", "en")
    assert zh.returncode == en.returncode == 2 and not (tmp_path / "out").exists()
    assert "cardtable hall setup：错误：用户 x：没有“referee”这个角色；可用的角色：console、scoreboard、tournament" in zh.stderr
    assert "cardtable hall setup: error: user x: unknown role 'referee'; roles: console, scoreboard, tournament" in en.stderr


def test_a_broker_that_cannot_start_says_why_in_either_language(tmp_path):
    """mosquitto on a port taken exits at once: the error has its words and mosquitto's own log lines."""
    import pytest

    from bus.broker import Broker, BrokerError

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(BrokerError) as e:
            Broker.start(tmp_path, {"u": "password1"}, port=port)
    zh, en = str(e.value), e.value.text("en")
    assert zh.startswith(f"`mosquitto` 在 127.0.0.1:{port} 启动时退出了（") and "Address already in use" in zh, zh
    assert en.startswith("mosquitto exited with ") and f"while starting on 127.0.0.1:{port}" in en, en


def test_a_part_of_the_hall_that_dies_is_told_in_either_language(tmp_path, monkeypatch):
    """What the hall prints when one of its processes exits (a real process, its real exit status)."""
    import time

    from hall.procs import Child

    lines = {}
    for lang, restart in (("zh", True), ("en", True), ("zh", False), ("en", False)):
        monkeypatch.setenv("CARDTABLE_LANG", lang)
        child = Child("t01/camera", [sys.executable, "-c", "raise SystemExit(3)"], tmp_path / "c.log", restart=restart)
        child.start(tmp_path)
        child.proc.wait(30)
        lines[lang, restart] = child.check(tmp_path, time.monotonic())
    assert lines["zh", True] == "t01/camera 退出了（3），0.5 秒后重启"
    assert lines["en", True] == "t01/camera exited (3); again in 0.5 s"
    assert lines["zh", False] == "t01/camera 退出了（3），不再重启"
    assert lines["en", False] == "t01/camera exited (3); not restarted"


def test_a_part_that_dies_again_at_once_waits_longer_and_one_that_ran_a_while_does_not(tmp_path, monkeypatch):
    """The hall's restarts (as systemd's ``RestartSec`` with a back-off): a process that dies again as soon as it
    starts waits 0.5, 1, 2, then 5 s; one that ran a minute before it died is started again in 0.5 s, however many
    times it died before (the soak's services, killed 17 times in 10 minutes, came back in 5 s each time)."""
    import time

    from hall.procs import STEADY_S, Child

    monkeypatch.setenv("CARDTABLE_LANG", "zh")
    child = Child("t01/service", [sys.executable, "-c", "raise SystemExit(3)"], tmp_path / "s.log")
    child.start(tmp_path)
    said = []
    while len(said) < 6:
        child.proc.wait(30)
        now = time.monotonic()
        ran = len(said) == 5  # the sixth death: as if it had run a minute first
        said.append(child.check(tmp_path, child._started + STEADY_S if ran else now))
        child.check(tmp_path, now + 10)  # due: started again
    assert [line.rsplit("，", 1)[1] for line in said] == [
        "0.5 秒后重启", "1 秒后重启", "2 秒后重启", "5 秒后重启", "5 秒后重启", "0.5 秒后重启"]


def test_a_part_that_refuses_to_start_says_why_and_is_told_once_a_minute_after_its_first_deaths(tmp_path, monkeypatch):
    """A service that refuses its file (exit 2, the reason its last line) died every 5 s with only "退出了（2）" on the
    hall's screen, the reason in its log; now the reason comes with it, and past the first five deaths in a row the
    line comes once a minute. A process killed by a signal wrote no reason: none is made up (a line of the run
    before is not taken for one)."""
    import time

    from hall.procs import SAY_AGAIN_EVERY, Child

    monkeypatch.setenv("CARDTABLE_LANG", "zh")
    why = "/hall/console.db 不是控制台的文件（空文件），未作任何改动"
    child = Child("display", [sys.executable, "-c", f"import sys; print('starting'); print({why!r}, file=sys.stderr); "
                                                    "raise SystemExit(2)"], tmp_path / "d.log")
    child.start(tmp_path)
    said = []
    for _ in range(2 * SAY_AGAIN_EVERY):
        child.proc.wait(30)
        said.append(child.check(tmp_path, time.monotonic()))
        child.check(tmp_path, time.monotonic() + 10)  # due: started again
    told = [i + 1 for i, line in enumerate(said) if line]
    assert told == [1, 2, 3, 4, 5, 12, 24]
    assert said[0] == f"display 退出了（2），0.5 秒后重启。它最后说：{why}"
    monkeypatch.setenv("CARDTABLE_LANG", "en")
    killed = Child("t01/service", [sys.executable, "-c", "import time; print('serving', flush=True); time.sleep(60)"],
                   tmp_path / "d.log", restart=False)  # the same log: the line before is the refusal's
    killed.start(tmp_path)
    deadline = time.monotonic() + 30
    while "serving" not in (tmp_path / "d.log").read_text():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    killed.signal(9)
    killed.proc.wait(30)
    assert killed.check(tmp_path, time.monotonic()) == "t01/service exited (-9); not restarted"
    quiet = Child("t02/service", [sys.executable, "-c", "raise SystemExit(4)"], tmp_path / "d.log", restart=False)
    quiet.start(tmp_path)
    quiet.proc.wait(30)
    assert quiet.check(tmp_path, time.monotonic()) == "t02/service exited (4); not restarted"  # wrote nothing


def test_the_organiser_and_referee_say_a_console_that_does_not_answer_once_while_it_lasts(tmp_path, until):
    """The display killed (the soak's kill_display): the hall's referee and organiser wrote "Connection refused" at
    every step, twice a second each, until it was back; now each says it once while it lasts."""
    import threading
    import time

    from bus.broker import free_port
    from hall.referee_bot import RefereeBot
    from hall.supervisor import Options, Supervisor

    out = io.StringIO()
    hall = Supervisor(Options(tables=1, port=free_port(), dir=tmp_path / "hall"), out=out)
    gone = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    hall.organiser, hall.referee = (RefereeBot(gone, who, "pw-pw-pw-pw", tmp_path, print) for who in ("org", "ref"))
    stop = threading.Event()
    serving = threading.Thread(target=hall.serve, args=(stop,))
    serving.start()

    def said() -> list[str]:
        return [line.split(" ", 1)[1] for line in out.getvalue().splitlines()]  # without the time of day

    assert until(lambda: len(said()) >= 2), said()  # each said at its first step
    time.sleep(2.6)  # five more steps
    stop.set()
    serving.join(10)
    # In the hall's words, Chinese (it was a log line in English, the exception's words):
    assert said() == ["大厅的裁判（处理控制台上的标记）这一步没做成（对方拒绝连接）：每半秒再试，同样的原因不再重复说"] * 2, said()


def test_the_hall_says_what_its_tournament_tours_and_deals_four_decks_beside_it(tmp_path):
    """The demo promises Tractor of three and four decks, Guandan and San Da Yi: its Tractor tables were all of three
    decks, and nothing said that the Guandan and San Da Yi tables were outside the tournament (a broker has one
    tournament service, which runs one tournament). Now a hall of four tables has a four decks' table beside the
    toured one, says at the start which tables the tournament tours and which play outside it, and seats and deals
    the four decks' table (a seat draws more cards than three decks give it)."""
    import threading
    import time

    import httpx

    from bus.broker import free_port
    from hall.procs import hall_processes

    port, run_dir = free_port(), tmp_path / "hall"
    proc = subprocess.Popen([*CLI, "hall", "--tables", "4", "--speed", "10", "--see", "oracle", "--port", str(port),
                             "--dir", str(run_dir)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV)
    said: list[str] = []
    threading.Thread(target=lambda: said.extend(line.split(" ", 1)[1].rstrip() for line in proc.stdout), daemon=True).start()
    try:
        deadline, cards = time.monotonic() + 120, {}
        while not any(n > (162 - 6) // 4 for n in cards.values() if n is not None):
            assert time.monotonic() < deadline and proc.poll() is None, (cards, said)
            time.sleep(0.5)
            answer = httpx.get(f"http://127.0.0.1:{port}/api/tables/t02", timeout=10) if said else None
            if answer is not None and answer.status_code == 200 and answer.json()["state"]:
                assert answer.json()["state"]["rulebook"] == "shaoguan-2023"
                cards = answer.json()["state"]["cards"]
        assert ("赛事（双人积分编排）：t01 拖拉机（3 副牌）；不计入赛事、一轮接一轮地打：t02 拖拉机（4 副牌）、t03 掼蛋（2 副牌）、"
                "t04 三打一（2 副牌）") in said, said
        assert any(line.startswith("t02 开赛（shaoguan-2023）：南 ") for line in said), said
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(60)
        finally:
            for pid in hall_processes(run_dir):
                os.kill(pid, signal.SIGKILL)
