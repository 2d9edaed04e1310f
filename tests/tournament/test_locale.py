"""The same bytes under a Chinese and a German locale: the CLI runs in a process that takes its
locale from the environment (``locale.setlocale(LC_ALL, "")``, as an application embedding the
package would), with zh_CN.UTF-8 and de_DE.UTF-8 compiled here by ``localedef`` (Debian's
``locales``, installed by ``make setup``). The German locale's decimal comma is checked to be in
force, so a number written through the locale would show up as a difference."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from cardtable.cli import main

LOCALES = ("C.UTF-8", "zh_CN.UTF-8", "de_DE.UTF-8")
RUN = "import locale, sys; locale.setlocale(locale.LC_ALL, ''); from cardtable.cli import main; sys.exit(main(sys.argv[1:]))"


@pytest.fixture(scope="module")
def locpath(tmp_path_factory):
    if shutil.which("localedef") is None:
        pytest.fail("localedef is missing: install Debian's locales (make setup)", pytrace=False)
    where = tmp_path_factory.mktemp("locales")
    for name in LOCALES[1:]:
        lang = name.split(".")[0]
        done = subprocess.run(["localedef", "-i", lang, "-f", "UTF-8", str(where / name)], capture_output=True, text=True)
        if not (where / name).is_dir():
            pytest.fail(f"localedef {name}: {done.stderr}", pytrace=False)
    return where


def cli(locpath, name, *argv) -> bytes:
    """The command's output in a process of that locale (and its own hash seed: sets must not decide a draw)."""
    env = dict(os.environ, LC_ALL=name, LOCPATH=str(locpath), LANG=name, PYTHONHASHSEED=str(LOCALES.index(name) + 1))
    done = subprocess.run([sys.executable, "-c", RUN, "tournament", *map(str, argv)], env=env, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout


def test_the_locales_are_in_force(locpath):
    probe = "import locale; locale.setlocale(locale.LC_ALL, ''); print(locale.localeconv()['decimal_point'], locale.getlocale()[0])"
    out = {}
    for name in LOCALES:
        env = dict(os.environ, LC_ALL=name, LOCPATH=str(locpath))
        out[name] = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True).stdout.split()
    assert out["de_DE.UTF-8"] == [",", "de_DE"] and out["zh_CN.UTF-8"] == [".", "zh_CN"]


def test_simulate_standings_and_exports_are_the_same_under_every_locale(locpath, tmp_path):
    db = tmp_path / "t.db"
    main(["tournament", "new", "--system", "individual-tables", "--entries", str(_form(tmp_path)), "--db", str(db),
          "--seed", "4", "--name", "三打一"])
    for k in range(1, 3):
        main(["tournament", "pair", "--db", str(db)])
        for t in range(1, 4):
            main(["tournament", "result", "--db", str(db), "--round", str(k), "--table", f"t{t:02d}", "--scores", "12.5,-3,12.5,40"])
    outputs = {}
    for name in LOCALES:
        outputs[name] = [
            cli(locpath, name, "simulate", "--system", "pair-swiss", "--entries", 14, "--rounds", 4, "--seed", 9, "--json"),
            cli(locpath, name, "simulate", "--system", "individual-tables", "--entries", 12, "--rounds", 3, "--seed", 9, "--json"),
            cli(locpath, name, "standings", "--db", db),
            cli(locpath, name, "standings", "--db", db, "--json"),
            cli(locpath, name, "export", "--db", db, "--format", "csv"),
            cli(locpath, name, "export", "--db", db, "--format", "html"),
        ]
    # the exports' stamps say the minute each was made: the same under every locale, but the runs may cross a minute
    outputs = {name: [re.sub(rb"\d{4}-\d\d-\d\d \d\d:\d\d", b"MADE", o) for o in outs] for name, outs in outputs.items()}
    # halves (12.5 entered, ties sharing 5 + 3) written as fractions, never through the locale
    assert "12又1/2,\n".encode() in outputs["de_DE.UTF-8"][4] and "又1/2\t".encode() in outputs["de_DE.UTF-8"][2]
    assert outputs["zh_CN.UTF-8"] == outputs["C.UTF-8"]
    assert outputs["de_DE.UTF-8"] == outputs["C.UTF-8"]


def _form(tmp_path):
    path = tmp_path / "form.csv"
    rows = ["单位,选手"] + [f"{u},{u}{i}号" for i, u in enumerate(["Ärzte", "机电", "外语", "化工", "Über", "体育"] * 2)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path
