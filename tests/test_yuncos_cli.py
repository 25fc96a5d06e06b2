"""The Yuncos commands as a user runs them: check, template, score."""

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from conftest import assert_user_error, sheetkit

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"


def test_check_legal_exit_0():
    run = sheetkit("check", EX / "yuncos-easy-legal.toml", EX / "yuncos-hard-legal.toml")
    assert run.code == 0, run.out + run.err
    assert run.out.splitlines().count("  legal") == 2 and "ILLEGAL" not in run.out
    assert "= 53" in run.out and "Fearless night flyer" in run.out


def test_check_illegal_exit_1_lists_every_finding():
    run = sheetkit("check", EX / "yuncos-illegal.toml")
    assert run.code == 1, run.out + run.err
    assert "ILLEGAL" in run.out
    for rule in ("Y4", "Y7", "Y11", "Y13", "Y15", "Y18", "Y21"):
        assert f"  {rule} " in run.out
    assert run.err == ""


def test_check_worst_exit_wins():
    run = sheetkit("check", EX / "yuncos-easy-legal.toml", EX / "yuncos-illegal.toml")
    assert run.code == 1


def test_check_json():
    run = sheetkit("check", "--json", EX / "yuncos-illegal.toml", EX / "yuncos-easy-legal.toml")
    assert run.code == 1
    data = json.loads(run.out)
    bad, good = data
    assert bad["legal"] is False and good["legal"] is True
    assert {f["rule"] for f in bad["findings"]} >= {"Y7", "Y21"}
    f = next(f for f in bad["findings"] if f["rule"] == "Y18")
    assert f["at"] == {"turn": 19, "step": 2, "vertex": [11, 2]}
    parts = good["scores"][0]["parts"]
    assert set(parts) == {"nests", "luminaries", "fish", "navigation", "crashes"}
    assert good["scores"][0]["total"] == sum(parts.values()) == 53
    assert good["info"]["rank"]["en"] == "Fearless night flyer"


def test_check_bad_record_exit_2_one_line(tmp_path):
    rec = tmp_path / "rec.toml"
    text = (EX / "yuncos-easy-legal.toml").read_text(encoding="utf-8")
    rec.write_text(text.replace('flight = "E E E S E"', 'flight = "E Q E S E"', 1), encoding="utf-8")
    run = sheetkit("check", rec)
    assert_user_error(run, "rec.toml", "flight", "'Q' is not a step")
    assert "turn[" in run.err
    rec.write_text(text.replace('solo = true', 'solo = true\nwinner = "me"'), encoding="utf-8")
    assert_user_error(sheetkit("check", rec), "rec.toml: winner: unknown field")
    rec.write_text(text + "\n[[turn]]\nflight = \"N\"\n", encoding="utf-8")
    assert_user_error(sheetkit("check", rec), "puzzle: missing")
    assert_user_error(sheetkit("check", tmp_path / "nope.toml"), "no such file")


def test_check_render_draws_a_real_pdf(tmp_path):
    pdfium = pytest.importorskip("pypdfium2")
    out = tmp_path / "checked.pdf"
    run = sheetkit("check", EX / "yuncos-illegal.toml", "--render", out)
    assert run.code == 1, run.err
    assert f"drawn: {out}" in run.out
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    doc = pdfium.PdfDocument(str(out))
    assert len(doc) == 2  # the sheet with the game drawn on it, then the findings in full
    sheet = doc[0].get_textpage().get_text_range()
    listed = " ".join(doc[1].get_textpage().get_text_range().split())
    if "ILLEGAL" in sheet:  # the key above the sheet, where the paper leaves room for it
        assert "turn 6" in sheet and "turn 19" in sheet
    assert "Yuncos · Easy level: ILLEGAL" in listed
    assert "turn 6: a ground/sea crash is marked" in listed and "fish counter: " in listed and "(rule Y13)" in listed


def test_overlay_scene_circles_every_finding():
    from sheetkit.checking import records
    from sheetkit.paper.scene import Circle, Path as ScenePath, Text

    loaded = records.load(EX / "yuncos-illegal.toml")
    checked = records.check(loaded)
    verdict = checked.verdict
    from sheetkit.games.yuncos.overlay import overlay

    from sheetkit.paper.annotate import OUTLINE, RED, RING, TRACE
    from sheetkit.paper.scene import Rect

    scene = overlay(loaded.record, checked, "a4")
    assert len(scene.pages) == 2
    items = scene.pages[0].items
    # each finding marked where it happened: a vertex ringed (Y18), boxes outlined (Y11,
    # Y7, Y15, the dice of Y4 and Y13), the flights of Y4, Y13 and Y21 (a turn too many)
    # traced on the map
    assert len([i for i in items if isinstance(i, Circle) and i.style == RING]) == 1
    assert len([i for i in items if isinstance(i, Rect) and i.style == OUTLINE]) == 5
    assert len([i for i in items if isinstance(i, ScenePath) and i.style == TRACE]) == 3
    tags = [i.text.split(":")[0] for i in items if isinstance(i, Text) and i.color == RED and i.bold
            and i.text.split(":")[0].isdigit()]
    assert sorted(tags, key=int) == ["1", "1", "2", "2", "3", "4", "5", "6", "7"]  # Y4, Y13: map and dice log
    key = " ".join(i.text for i in items if isinstance(i, Text) and i.size == 7 and not i.bold and i.y < 20)
    for n, f in enumerate(verdict.findings if key else [], 1):  # the key above the sheet (room allowing)
        assert f"{n} {f.where}" in key
    paths = [i for i in items if isinstance(i, ScenePath) and i.style.stroke == "#6e6e6e"]
    # every turn's flight, broken off only around a star it passes through
    assert len(loaded.record.turns) <= len(paths) <= len(loaded.record.turns) + 2 * len(loaded.record.spec.board.stars)
    texts = {i.text for i in items if isinstance(i, Text)}
    assert {"1", "16"} <= texts  # turn numbers at the turn ends


def test_template_prints_a_record_to_fill():
    run = sheetkit("template", "yuncos-hard")
    assert run.code == 0, run.err
    assert 'layout = "yuncos-hard"' in run.out and "[[turn]]" in run.out
    assert "6 = E E N N W W" in run.out  # the patterns are listed to help copying
    tomllib.loads(run.out)  # it is valid TOML as printed


def test_template_filled_then_checked(tmp_path):
    text = sheetkit("template", "yuncos-easy").out
    filled = (text.replace('start = "?"', "start = 3").replace('fish_marked = "?"', "fish_marked = 0")
              .replace('crashes_marked = "?"', "crashes_marked = 0")
              .replace('flight = "?"', 'flight = "S S"', 1).replace('flight = "?"', 'flight = "W"', 1)
              .replace('puzzle = "?"', 'puzzle = "lum1"').replace('value = "?"', "value = 2"))
    rec = tmp_path / "mine.toml"
    rec.write_text(filled, encoding="utf-8")
    run = sheetkit("check", rec)
    assert run.code == 1 and "Y13" in run.out  # a crash in turn 2 while 2 still fits: a real finding


def test_score_good_input():
    run = sheetkit("score", "yuncos", "--nests", "12", "--columns", "3", "--fish", "6", "--stars", "5",
                   "--colours", "4", "--crashes", "2", "--solo")
    assert run.code == 0, run.err
    lines = dict(l.split(None, 1) for l in run.out.splitlines() if not l.startswith("solo"))
    assert lines == {"nests": "24", "luminaries": "18", "fish": "12", "navigation": "20", "crashes": "-5", "total": "69"}
    assert "Skilled night adventurer" in run.out


def test_score_json_and_hard_level():
    run = sheetkit("score", "yuncos", "--level", "hard", "--fish", "10", "--columns", "5", "--json")
    assert run.code == 0, run.err
    data = json.loads(run.out)
    assert data["scores"][0]["parts"]["fish"] == 31
    assert data["scores"][0]["parts"]["luminaries"] == 30
    assert data["scores"][0]["total"] == 61


@pytest.mark.parametrize("args, words", [
    (["--crashes", "7"], "--crashes 7"),
    (["--fish", "11"], "10 boxes"),
    (["--columns", "5"], "4 luminary columns"),
    (["--nests", "13"], "12 nest boxes"),
    (["--stars", "3", "--colours", "4"], "more colours than stars"),
    (["--stars", "2"], "--colours 0"),
    (["--nests", "-1"], "0 or more"),
    (["--stars", "99", "--colours", "1"], "stars"),
    (["--nests", "x"], "--nests"),
    (["--level", "medium"], "--level"),
])
def test_score_bad_input_exit_2_one_line(args, words):
    assert_user_error(sheetkit("score", "yuncos", *args), words)


def test_scoring_and_checking_import_no_rendering_library():
    code = (
        "import sys\n"
        "from sheetkit import games\n"
        "from sheetkit.checking import records\n"
        "games.get('yuncos').tally.score.load()\n"
        "v = records.check(records.load('examples/yuncos-easy-legal.toml')).verdict\n"
        "from sheetkit.games.yuncos import play, tally\n"
        "print(sorted(m for m in ('reportlab', 'PIL', 'qrcode') if m in sys.modules))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_overlay_circles_a_finding_off_the_map_at_the_map_edge():
    """A flight that keeps going off the map: its findings are circled where they can be
    seen, on the map's edge, not above the paper."""
    from sheetkit.paper.annotate import RED
    from sheetkit.games.yuncos.check import check
    from sheetkit.games.yuncos.overlay import overlay
    from sheetkit.games.yuncos.record import read_record
    from sheetkit.games.yuncos.compose import sheet_geometry
    from sheetkit.paper.scene import Circle

    turns = [{"flight": "6N", "puzzle": "nest1", "value": v} for v in (3, 2, 4)]  # from I6 up and away
    data = {"game": "yuncos", "layout": "yuncos-easy", "start": 1, "fish_marked": 0, "crashes_marked": 0, "turn": turns}
    record = read_record(data, "off.toml")
    checked = check(record, "off.toml")
    verdict = checked.verdict
    assert [f.rule for f in verdict.findings] == ["Y3", "Y3", "Y3"]
    scene = overlay(record, checked, "a4")
    g = sheet_geometry(record.spec, "a4")
    top = g.vertex((0, 0))[1]
    rings = [i for i in scene.pages[0].items if isinstance(i, Circle) and i.style.stroke == RED]
    assert rings and all(r.y >= top - 0.01 for r in rings), [r.y for r in rings]


def test_template_of_the_two_sided_sheet_asks_for_a_level():
    run = sheetkit("template", "yuncos")
    assert_user_error(run, "yuncos is the two-sided sheet; name the level played, e.g. yuncos-easy or yuncos-hard")
