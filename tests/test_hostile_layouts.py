"""Hostile layouts and records: non-finite, huge and absurd numbers, counts beyond what a
game needs, printed texts with line breaks or control characters, messages that would echo
a huge value. The models refuse them, so lint, render and preview never see them."""

import math
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, sheetkit
from sheetkit.errors import MAX_MESSAGE, UserError
from sheetkit.schema import Count, Mm, Model, Text, validate

LAYOUTS = ROOT / "layouts"


def run(*args) -> tuple[int, str]:
    """A command line in this process, as `sheetkit` runs it: exit status and standard error."""
    r = sheetkit(*args, cwd=Path.cwd())
    return r.code, r.err


def assert_refused(code_err, *words):
    code, err = code_err
    assert code == 2, (code, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    for w in words:
        assert w in lines[0], (w, lines[0])


def changed(tmp_path, layout: str, old: str, new: str):
    text = (LAYOUTS / f"{layout}.toml").read_text()
    assert old in text, old
    path = tmp_path / f"{layout}.toml"
    path.write_text(text.replace(old, new, 1))
    return path


COMMANDS = [("lint",), ("render", "-o", "x.pdf"), ("preview", "-o", "x.png")]


def _every_command(tmp_path, path, *words):
    for cmd in COMMANDS:
        args = [cmd[0], path] + [tmp_path / a if a.endswith(("pdf", "png")) else a for a in cmd[1:]]
        assert_refused(run(*args), path.name, *words)
    assert not list(tmp_path.glob("x.*")), "nothing is written for a refused layout"


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "+nan"])
def test_non_finite_sizes_are_refused(tmp_path, value):
    path = changed(tmp_path, "yuncos-easy", "square = 7.6", f"square = {value}")
    _every_command(tmp_path, path, "map.square", "finite")


@pytest.mark.parametrize("layout, old, new, field", [
    ("yuncos-easy", "square = 7.6", "square = 1e308", "map.square"),
    ("yuncos-easy", "square = 7.6", "square = 1e30", "map.square"),
    ("yuncos-easy", "square = 7.6", "square = 1e20", "map.square"),
    ("yuncos-easy", "square = 7.6", "square = 30.0", "map.square"),  # a map no page holds
    ("yuncos-easy", "square = 7.6", "square = -7.6", "map.square"),
    ("glux-board-34p", "square = 25.0", "square = 1e20", "square"),
    ("glux-chips", "chip = 20.0", "chip = 1e30", "chip"),
    ("glux-chips", "per_pair = 8", "per_pair = 1000000", "per_pair"),
    ("glux-score-track", "last = 50", "last = 9223372036854775807", "last"),
    ("glux-score-track", "box = 18.0", "box = 1e308", "box"),
    ("iunu-score-pad", "box = 8.0", "box = 1e20", "box"),
    ("levelx-board", "square = 20.0", "square = 1e20", "square"),
    ("levelx-score-pad", "row = 10.0", "row = 1e308", "row"),
    ("yuncos-easy", "dice_log = 36", "dice_log = 100000000", "dice_log"),
])
def test_sizes_and_counts_beyond_a_page_or_a_game(tmp_path, layout, old, new, field):
    path = changed(tmp_path, layout, old, new)
    _every_command(tmp_path, path, field)


def test_a_grid_larger_than_any_game_needs(tmp_path):
    text = (LAYOUTS / "glux-board-34p.toml").read_text()
    row = " ".join(["."] * 200)
    grid = "\n".join([row] * 200)
    big = re.sub(r'grid = """.*?"""', f'grid = """\n{grid}\n"""', text, count=1, flags=re.S)
    assert big != text
    path = tmp_path / "board.toml"
    path.write_text(big)
    assert_refused(run("lint", path), "grid", "at most 40 rows")


@pytest.mark.parametrize("text", ["Two\\nlines", "tab\\there", "bell\\u0007", "esc\\u001b[31m", "del\\u007f",
                                  "line\\u2028sep", "x" * 600])
def test_printed_text_is_one_line_of_ordinary_characters(tmp_path, text):
    src = (LAYOUTS / "glux-score-pad.toml").read_text()
    m = re.search(r'^(\w+) = \{ es = "([^"]*)", en = "([^"]*)" \}', src, flags=re.M)
    assert m, "the score pad has a label on one line"
    path = tmp_path / "glux-score-pad.toml"
    path.write_text(src.replace(m.group(0), f'{m.group(1)} = {{ es = "{m.group(2)}", en = "{text}" }}', 1))
    _every_command(tmp_path, path, ".en")


def test_player_names_with_line_breaks_are_refused_before_drawing(tmp_path):
    for example in ("glux-board-3p.toml", "iunu-game.toml", "levelx-final.toml"):
        for p in (ROOT / "examples").glob("*.toml"):
            shutil.copy(p, tmp_path)
        rec = tmp_path / example
        rec.write_text(rec.read_text().replace('name = "Ana"', 'name = "A\\nna"', 1))
        assert_refused(run("check", rec, "--render", tmp_path / "x.pdf"), "name", "line break")
        assert not (tmp_path / "x.pdf").exists()


def test_a_thousand_item_list_is_not_echoed_whole(tmp_path):
    path = changed(tmp_path, "glux-board-34p", "players = [3, 4]", "players = [" + ", ".join(["7"] * 1000) + "]")
    code, err = run("lint", path)
    assert code == 2 and len(err) < MAX_MESSAGE + 200, err
    # and any message at all, however it is built
    e = UserError("got " + repr(list(range(10000))), source="a.toml", field="f")
    assert len(str(e)) <= MAX_MESSAGE + 130 and str(e).startswith("a.toml: f: got [0, 1, 2")
    assert str(e).endswith("9998, 9999]")


def test_messages_show_control_characters_escaped():
    e = UserError("bad value 'a\nb\x1b'", source="r.toml")
    assert "\n" not in str(e) and "\x1b" not in str(e) and "a\\nb\\x1b" in str(e)


def test_the_bounded_types_themselves():
    class M(Model):
        size: Mm(40)
        count: Count(1, 16, "chips")
        text: Text

    ok = validate(M, {"size": 12, "count": 16, "text": "Glüx ★"}, "t")
    assert ok.size == 12 and ok.count == 16
    for bad, field in [({"size": math.nan}, "size"), ({"size": 0.0}, "size"), ({"size": 40.5}, "size"),
                       ({"count": 17}, "count"), ({"count": 0}, "count"), ({"text": "a\rb"}, "text")]:
        with pytest.raises(UserError, match=field):
            validate(M, {"size": 12, "count": 1, "text": "x", **bad}, "t")


def test_every_shipped_layout_renders_a_pdf_qpdf_accepts(tmp_path):
    qpdf = shutil.which("qpdf")
    if not qpdf:
        pytest.skip("qpdf is not installed (.ci/run installs it)")
    for layout in ("yuncos", "glux-chips", "levelx-board"):
        out = tmp_path / f"{layout}.pdf"
        code, err = run("render", layout, "-o", out)
        assert code == 0, err
        check = subprocess.run([qpdf, "--check", str(out)], capture_output=True, text=True)
        assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.parametrize("args, words", [
    (["score", "glux", "--room", "A=" + "9" * 5000 + ",B=9", "--room", "A=4,B=5", "--middle", "2"], ["at most 999 pips"]),
    (["score", "glux", "--room", "A=1,B=2", "--middle", "9" * 5000], ["--middle"]),
    (["score", "yuncos", "--nests", "9" * 5000, "--columns", "2", "--fish", "5", "--stars", "4", "--colours", "3",
      "--crashes", "2"], ["--nests"]),
    (["render", "yuncos-easy", "--copies", "2", "--first-serial", "9" * 30], ["serial"]),
])
def test_huge_numbers_on_the_command_line(args, words):
    code, err = run(*args)
    assert_refused((code, err), *words)
    assert len(err) < 500
