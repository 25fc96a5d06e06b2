"""Commands that only read, score or identify never import the rendering libraries.

Each command runs in a fresh interpreter, exactly as `sheetkit ...` would (the console
script calls sheetkit.cli.main); then the modules it loaded are inspected.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sheetkit import games

from conftest import ROOT

HEAVY = ("reportlab", "PIL", "qrcode")

PROBE = r"""
import json, sys
args, report = json.loads(sys.argv[1]), sys.argv[2]
sys.argv = ["sheetkit", *args]
code = 0
try:
    if args and args[0] == "--import":
        import importlib
        importlib.import_module(args[1])
    else:
        from sheetkit.cli import main
        main()
except SystemExit as e:
    code = e.code or 0
with open(report, "w") as f:
    json.dump({"code": code, "modules": sorted(sys.modules)}, f)
"""


def loaded(tmp_path, *args: str) -> tuple[int, list[str]]:
    report = tmp_path / "modules.json"
    proc = subprocess.run([sys.executable, "-c", PROBE, json.dumps(list(args)), str(report)],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert report.is_file(), proc.stderr
    data = json.loads(report.read_text())
    heavy = sorted({m.split(".")[0] for m in data["modules"] if m.split(".")[0] in HEAVY})
    return data["code"], heavy


LIGHT = [
    ["--help"],
    ["--version"],
    ["score", "--help"],
    *[["score", g, "--help"] for g in games.GAMES],
    ["score", "yuncos", "--nests", "6", "--columns", "2", "--fish", "4", "--stars", "5",
     "--colours", "3", "--crashes", "1"],
    ["score", "yuncos", "--level", "hard", "--solo", "--json"],
    ["identify", "SK1:yuncos-easy:00000000:0042"],
    ["render", "--copies", "0", "yuncos-easy"],  # refused before anything is drawn
    *[["--import", f"sheetkit.games.{g}"] for g in games.GAMES],
    ["--import", "sheetkit.paper.pads"],
    ["--import", "sheetkit.checking.qr"],
    ["--import", "sheetkit.checking.records"],
]


@pytest.mark.parametrize("args", LIGHT, ids=" ".join)
def test_light_commands_do_not_import_rendering_libraries(tmp_path, args):
    code, heavy = loaded(tmp_path, *args)
    assert heavy == [], f"`sheetkit {' '.join(args)}` imported {', '.join(heavy)}"
    expected = 2 if "--copies" in args else (1 if args[0] == "identify" else 0)
    assert code == expected


SCHEMA = ("pydantic", "pydantic_core")
# the quickest commands do not even load the schema library (README: Speed)
NO_SCHEMA = [
    ["--help"],
    ["--version"],
    ["score", "yuncos", "--nests", "9", "--columns", "2", "--fish", "5", "--stars", "4",
     "--colours", "3", "--crashes", "2", "--solo"],
    ["score", "yuncos", "--level", "hard", "--solo", "--json"],
    ["score", "glux", "--room", "A=10,B=9,C=4", "--room", "A=4,B=5,C=12", "--middle", "2"],
    ["identify", "SK1:no-such-layout:00000000:0042"],
]


@pytest.mark.parametrize("args", NO_SCHEMA, ids=" ".join)
def test_quick_commands_do_not_import_pydantic(tmp_path, args):
    report = tmp_path / "modules.json"
    proc = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args), str(report)],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert report.is_file(), proc.stderr
    modules = json.loads(report.read_text())["modules"]
    heavy = sorted({m.split(".")[0] for m in modules} & set(SCHEMA + HEAVY))
    assert heavy == [], f"`sheetkit {' '.join(args)}` imported {', '.join(heavy)}"


def test_the_probe_sees_rendering_when_it_happens(tmp_path):
    """The probe itself works: rendering a pad does import them."""
    code, heavy = loaded(tmp_path, "render", "yuncos-easy", "--copies", "1", "--out-dir", str(tmp_path))
    assert code == 0 and heavy == sorted(HEAVY)


@pytest.mark.parametrize("script, args", [
    ("bench_pad.py", ["--copies", "2", "--repeat", "1", "--cold-repeat", "1"]),
    ("bench_yuncos_check.py", ["--number", "1"]),
])
def test_the_benchmarks_run(script, args):
    """`python bench/run.py` (README: Speed) runs each of these; a tiny run of each works."""
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / script), *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr


# `check` loads what reading and replaying a record needs, and nothing that draws, plays or
# serves: no paper module at all (the QR check is checking/qr.py), no game's
# compose/overlay/moves/play/lint/templates, no history or web page (README: Speed).
NOT_FOR_CHECK = ("sheetkit.paper", "sheetkit.history", "sheetkit.web")
NOT_FOR_CHECK_ROLES = ("compose", "overlay", "moves", "play", "lint", "templates")


@pytest.mark.parametrize("example", ["yuncos-easy-legal.toml", "yuncos-illegal.toml", "glux-game-3p.toml",
                                     "iunu-game.toml", "levelx-game.toml"])
def test_check_loads_no_drawing_code(tmp_path, example):
    report = tmp_path / "modules.json"
    proc = subprocess.run([sys.executable, "-c", PROBE, json.dumps(["check", f"examples/{example}"]), str(report)],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert report.is_file(), proc.stderr
    data = json.loads(report.read_text())
    assert data["code"] in (0, 1)
    extra = sorted(m for m in data["modules"]
                   if m.split(".")[0] in HEAVY or m.startswith(NOT_FOR_CHECK)
                   or (m.startswith("sheetkit.games.") and m.rsplit(".", 1)[-1] in NOT_FOR_CHECK_ROLES))
    assert extra == [], f"`sheetkit check {example}` imported {', '.join(extra)}"
