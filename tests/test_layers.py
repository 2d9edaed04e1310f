"""The layers hold: the import contracts of pyproject.toml (``[tool.importlinter]``: the kernel under the bus,
the services apart, no cycles) checked by import-linter over every import of the code, and no module imports
another's private name."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = [ROOT / p for p in ("cardtable", "hall", "display", "vision", "referee", "bus", "firmware-bridge/bridge")]


def test_every_contract_of_the_layers_is_kept():
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "firmware-bridge")])}
    done = subprocess.run([str(Path(sys.executable).with_name("lint-imports")), "--no-cache"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(rf"Contracts: {len(contracts)} kept, 0 broken", done.stdout), done.stdout


def test_every_module_of_the_camera_runtime_is_under_its_contract():
    """A new module in vision/ (but the training, the command line) is the runtime: the contract must name it."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    (runtime,) = [c for c in contracts if c["id"] == "vision-runtime"]
    modules = {f"vision.{p.stem}" for p in (ROOT / "vision").glob("*.py")} - {"vision.__init__", "vision.cli", "vision.conftest"}
    assert modules == set(runtime["source_modules"])


def private_imports(path: Path, root: Path = ROOT) -> list[str]:
    """Every ``from M import _name`` in ``path``: M's private name used by another module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            found += [f"{path.relative_to(root)}:{node.lineno}: from {node.module} import {a.name}"
                      for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
    return found


def test_no_module_imports_a_private_name_of_another():
    found = [line for package in PACKAGES for path in sorted(package.rglob("*.py")) for line in private_imports(path)]
    assert not found, "\n".join(found)


def test_the_private_name_check_finds_one(tmp_path):
    """The check above finds what it looks for."""
    (tmp_path / "m.py").write_text("from __future__ import annotations\nfrom referee.table.reducer import _hidden, CLOCK\n")
    assert private_imports(tmp_path / "m.py", tmp_path) == ["m.py:2: from referee.table.reducer import _hidden"]


def test_the_install_holds_every_package_and_the_one_command():
    """A clean clone's ``pip install .`` (``make setup``) installs every top-level package of the tree, and the
    ``cardtable`` script is the command that lists every package's group."""
    from fnmatch import fnmatch

    from cardtable.cli import GROUPS

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found = project["tool"]["setuptools"]["packages"]["find"]
    tops = {p.parent.name for where in found["where"] for p in (ROOT / where).glob("*/__init__.py")}
    assert {"bus", "hall", "cardtable", "referee", "vision", "display", "bridge"} <= tops
    assert all(any(fnmatch(top, pattern) for pattern in found["include"]) for top in tops - {"tests"}), (tops, found)
    assert project["project"]["scripts"] == {"cardtable": "cardtable.cli:main"}
    assert {g.split(".")[0] for g in GROUPS} == {"referee", "vision", "bridge", "display", "hall"}


def test_every_package_says_its_part_in_the_flow_and_no_file_a_tracker_number():
    """Each package's docstring says what it is (a newcomer reads the folders), and no code or document names a
    tracker's issue: the history is in git, the code says what is."""
    for package in PACKAGES:
        for init in package.rglob("__init__.py"):
            assert ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))), f"{init.relative_to(ROOT)}: no docstring"
    tracker = re.compile(r"\bissue ?#?\d+|\(#\d+\)", re.IGNORECASE)
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}" for folder in [*PACKAGES, ROOT / "tests", ROOT / "docs"]
             for path in sorted(folder.rglob("*")) if path.suffix in (".py", ".md", ".toml", ".html", ".js")
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if tracker.search(line)]
    assert not found, "\n".join(found)


def test_one_logging_set_up_for_every_service():
    """Only ``cardtable.logs`` configures logging; every service's command calls it (the same lines everywhere)."""
    calls = [path.relative_to(ROOT).as_posix() for package in PACKAGES for path in sorted(package.rglob("*.py"))
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.Attribute) and node.attr == "basicConfig"]
    assert calls == ["cardtable/logs.py"], calls
    users = {path.relative_to(ROOT).as_posix() for package in PACKAGES for path in package.rglob("*.py")
             if "setup_logging(" in path.read_text(encoding="utf-8")}
    assert {"referee/table/service.py", "referee/tournament/service.py", "display/cli.py", "vision/cli.py",
            "firmware-bridge/bridge/cli.py", "hall/supervisor.py"} <= users, users


def test_a_package_that_lists_its_modules_lists_them_all():
    """A package docstring that names its own modules (``:mod:``) names every one of them: a list a newcomer reads
    is whole, not 2 of 17."""
    short = []
    for package in PACKAGES:
        for init in package.rglob("__init__.py"):
            folder = init.parent
            dotted = ".".join(folder.relative_to(ROOT / "firmware-bridge" if "firmware-bridge" in folder.parts else ROOT).parts)
            named = set(re.findall(rf":mod:`~?{re.escape(dotted)}\.(\w+)`", ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""))
            modules = {p.stem for p in folder.glob("*.py")} | {p.parent.name for p in folder.glob("*/__init__.py")}
            missing = modules - named - {"__init__", "__main__", "conftest"}
            if named and missing:
                short.append(f"{dotted}: {sorted(missing)}")
    assert not short, "\n".join(short)
