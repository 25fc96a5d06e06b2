"""The command line and the play history under attack (issue 21): what a fuzzing round found,
each one line and exit 2 (or the right answer), on real SQLite files in tmp_path.

- one way to read a record, whether it comes from a file (`check`, `log`) or from the
  history's text (`recheck`, `import`): sheetkit.tomlfile's caps, then records.parse/check;
- `import`: never waits on a pipe, all or nothing, every record text checked as a record
  from outside (it names no file);
- rows another program changed: one line naming the play, the other plays still usable;
- digits that are not ASCII, printer and output folders that cannot be used, a calibration
  label with an unknown placeholder, photos that are cut short or absurdly shaped, and
  `log --json` of an illegal game.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys

import pytest

from conftest import ROOT
from historyutil import EXAMPLES, one_line_error, run

GLUX = str(EXAMPLES / "glux-game-3p.toml")
LEVELX = str(EXAMPLES / "levelx-game.toml")
LEVELX_FINAL = str(EXAMPLES / "levelx-final.toml")
IUNU_INLINE = str(EXAMPLES / "iunu-inline-deck.toml")
IUNU_DECK_FILE = str(EXAMPLES / "iunu-game.toml")
YUNCOS = str(EXAMPLES / "yuncos-easy-legal.toml")

DEEP = "[" * 500 + "]" * 500
DIGITS = "9" * 5000


def subprocess_run(*args, timeout: float = 30, env: dict | None = None):
    """`python -m sheetkit ARGS` in a fresh process (what reaches the real standard error:
    a C library's own warnings too); a hang fails the test instead of stopping it."""
    full_env = {**os.environ, **(env or {})}
    try:
        return subprocess.run([sys.executable, "-m", "sheetkit", *map(str, args)], cwd=ROOT, capture_output=True,
                              text=True, timeout=timeout, env=full_env)
    except subprocess.TimeoutExpired:
        pytest.fail(f"sheetkit {' '.join(map(str, args))} still running after {timeout} s")


def one_line(proc, *words: str, code: int = 2) -> None:
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "h.sqlite3")


def plays_in(db) -> int:
    if not os.path.exists(db):
        return 0
    with sqlite3.connect(db) as con:
        return con.execute("SELECT count(*) FROM plays").fetchone()[0]


# ------------------------------------------------------------------ 1. one way to read a record

def _record(tmp_path, name: str, extra: str):
    path = tmp_path / name
    path.write_text((EXAMPLES / "glux-game-3p.toml").read_text(encoding="utf-8") + extra, encoding="utf-8")
    return str(path)


def test_log_of_a_named_pipe_is_refused_not_waited_on(tmp_path, db):
    fifo = tmp_path / "game.toml"
    os.mkfifo(fifo)
    one_line(subprocess_run("log", fifo, "--db", db), "not a regular file")
    assert plays_in(db) == 0


@pytest.mark.parametrize("extra, words", [
    (f"\nzz = {DEEP}\n", "nested too deeply"),
    (f"\nzz = {DIGITS}\n", "too many digits"),
])
def test_log_reads_a_record_as_check_does(tmp_path, db, extra, words):
    path = _record(tmp_path, "bad.toml", extra)
    checked = run("check", path)
    one_line_error(checked, words)
    logged = run("log", path, "--db", db)
    one_line_error(logged, words)
    assert logged.err.split(": ", 2)[-1] == checked.err.split(": ", 2)[-1]  # the same words
    assert plays_in(db) == 0


@pytest.mark.parametrize("text, words", [
    (f'game = "glux"\nzz = {DEEP}\n', "nested too deeply"),
    (f'game = "glux"\nzz = {DIGITS}\n', "too many digits"),
])
def test_recheck_reads_the_stored_text_as_check_reads_a_file(db, text, words):
    assert run("log", GLUX, LEVELX, "--db", db).code == 0
    with sqlite3.connect(db) as con:
        con.execute("UPDATE sheets SET text = ? WHERE play_id = 1", (text,))
    r = run("recheck", "--all", "--db", db)
    assert r.code == 1, (r.code, r.out, r.err)
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and "play 1: not rechecked" in lines[0] and words in lines[0], r.err
    assert "1 could not be read" in r.out
    r = run("recheck", "1", "--db", db)
    assert r.code == 1 and words in r.err, (r.code, r.err)


@pytest.mark.parametrize("text, words", [
    (f'game = "glux"\nzz = {DEEP}\n', "nested too deeply"),
    (f'game = "glux"\nzz = {DIGITS}\n', "too many digits"),
    (f'game = "glux"\nzz = {2**70}\n', "integer out of range"),
    ('game = "glux"\n\x00\n', "NUL"),
    ('game = "glux"\nname = "\ud800"\n', "surrogate"),
    ("x" * 1_000_001, "too large"),
    ('game = "glux"\nkind = [\n', "not valid TOML"),
    (b'game = "glux"\n', "not text"),
])
def test_record_from_text_applies_the_caps_of_a_file(text, words):
    """records.parse_text: the shared reader of record text held in memory (the history's,
    an import's, the web page's)."""
    from sheetkit.checking import records
    from sheetkit.errors import UserError

    with pytest.raises(UserError) as e:
        records.parse_text(text, "play 7")
    line = e.value.line("en")
    assert line.startswith("play 7: ") and words in line and "\n" not in line, line


def test_record_from_text_from_outside_names_no_file():
    from sheetkit.checking import records
    from sheetkit.errors import UserError

    text = (EXAMPLES / "iunu-game.toml").read_text(encoding="utf-8")
    assert records.parse_text(text, IUNU_DECK_FILE).game == "iunu"  # logged from its folder: its deck is found
    with pytest.raises(UserError) as e:
        records.parse_text(text, "upload.toml", files=False)
    assert e.value.field == "deck"
    loaded = records.parse_text((EXAMPLES / "glux-game-3p.toml").read_text(encoding="utf-8"), "web", files=False)
    assert records.check(loaded).verdict.legal


# ------------------------------------------------------------------ 2. import

@pytest.fixture
def dump(tmp_path):
    """sheetkit's JSON of a history of real records: Glüx, Level X (finished and in
    progress), IUNU with its deck inline, a Yuncos sheet."""
    source = str(tmp_path / "source.sqlite3")
    assert run("log", GLUX, LEVELX, IUNU_INLINE, str(EXAMPLES / "levelx-in-progress.toml"), "--db", source).code == 0
    assert run("log", YUNCOS, "--player", "Ana", "--db", source).code == 0
    data = json.loads(run("export", "--all", "--db", source).out)
    assert len(data["plays"]) == 5
    return data


def _import(tmp_path, data, db, raw: str | None = None):
    path = tmp_path / "in.json"
    path.write_text(raw if raw is not None else json.dumps(data), encoding="utf-8")
    return run("import", str(path), "--db", db)


def test_import_of_a_named_pipe_is_refused_not_waited_on(tmp_path, db):
    fifo = tmp_path / "all.json"
    os.mkfifo(fifo)
    one_line(subprocess_run("import", fifo, "--db", db), "not a regular file")
    assert plays_in(db) == 0


def test_import_of_a_lone_surrogate_is_one_line(tmp_path, dump, db):
    raw = json.dumps(dump).replace('"Ana"', '"An\\ud800a"', 1)
    one_line_error(_import(tmp_path, dump, db, raw), "plays[0]", "surrogate")
    assert plays_in(db) == 0


def test_import_of_a_huge_number_is_one_line(tmp_path, dump, db):
    raw = json.dumps(dump)[:-1] + f', "extra": {DIGITS}}}'
    one_line_error(_import(tmp_path, dump, db, raw), "not valid JSON")
    assert plays_in(db) == 0


def test_import_is_all_or_nothing_when_the_last_play_seats_one_person_twice(tmp_path, dump, db):
    dump["plays"].append(json.loads(json.dumps(dump["plays"][0])))  # a Glüx play, again, last
    last = dump["plays"][-1]
    last["sheets"][0]["text"] += "# another evening\n"  # not the same text: not a duplicate
    last["players"][0].update(name="Zoe", uid="zoe-1")  # two new people, one id
    last["players"][1].update(name="Yan", uid="zoe-1")
    last["sheets"][0]["verdict"]["scores"][0]["player"] = "Zoe"
    last["sheets"][0]["verdict"]["scores"][1]["player"] = "Yan"
    r = _import(tmp_path, dump, db)
    one_line_error(r, f"plays[{len(dump['plays']) - 1}]", "twice")
    assert plays_in(db) == 0  # the earlier plays were not committed
    dump["plays"].pop()
    r = _import(tmp_path, dump, db)  # without it, every play comes in
    assert (r.code, r.out) == (0, "imported 5 play(s)\n"), r.err
    assert plays_in(db) == 5


def _set_text(play: dict, text: str) -> None:
    play["sheets"][0]["text"] = text


GLUX_TEXT = (EXAMPLES / "glux-game-3p.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize("change, words", [
    (lambda p: _set_text(p, GLUX_TEXT + f"\nzz = {DEEP}\n"), "nested too deeply"),
    (lambda p: _set_text(p, GLUX_TEXT + f"\nzz = {DIGITS}\n"), "too many digits"),
    (lambda p: _set_text(p, GLUX_TEXT + f"\nzz = {2**70}\n"), "integer out of range"),
    (lambda p: _set_text(p, "this is = = not TOML"), "not valid TOML"),
    (lambda p: _set_text(p, GLUX_TEXT + "\x00"), "NUL"),
    (lambda p: _set_text(p, ""), "game"),
    (lambda p: _set_text(p, (EXAMPLES / "levelx-final.toml").read_text(encoding="utf-8")), "a record of levelx"),
    (lambda p: _set_text(p, GLUX_TEXT.replace('board = "glux-board-34p"', 'board = "/etc/board.toml"')), "board"),
    (lambda p: _set_text(p, GLUX_TEXT.replace('board = "glux-board-34p"', 'board = "glux-board-34p.toml"')), "board"),
    (lambda p: _set_text(p, (EXAMPLES / "iunu-game.toml").read_text(encoding="utf-8")), "deck"),
])
@pytest.mark.parametrize("first", [True, False])  # the first play, and the last (after good ones)
def test_import_checks_each_record_text(tmp_path, dump, db, change, words, first):
    target = next(p for p in dump["plays"] if p["game"] == "glux")
    dump["plays"].remove(target)
    dump["plays"].insert(0 if first else len(dump["plays"]), target)
    change(target)
    r = _import(tmp_path, dump, db)
    one_line_error(r, f"plays[{dump['plays'].index(target)}].sheets[0]", words)
    assert plays_in(db) == 0


def test_an_imported_play_in_progress_is_checked_too(tmp_path, dump, db):
    target = next(p for p in dump["plays"] if p["in_progress"])
    _set_text(target, target["sheets"][0]["text"] + f"\nzz = {DEEP}\n")
    one_line_error(_import(tmp_path, dump, db), f"plays[{dump['plays'].index(target)}]", "nested too deeply")
    assert plays_in(db) == 0


# ------------------------------------------------------------------ 3. rows changed by another program

DAMAGE = {
    "verdict not JSON": ("verdict", "not json {"),
    "verdict a JSON list": ("verdict", "[1, 2, 3]"),
    "text a BLOB": ("text", b'game = "glux"\n'),
}


@pytest.fixture
def damaged(db):
    """Play 1 (Glüx) and play 2 (Level X); play 1's row then changed by another program."""
    assert run("log", GLUX, LEVELX, "--db", db).code == 0

    def damage(kind: str) -> None:
        column, value = DAMAGE[kind]
        with sqlite3.connect(db) as con:
            con.execute(f"UPDATE sheets SET {column} = ? WHERE play_id = 1", (value,))
    return damage


@pytest.mark.parametrize("kind", list(DAMAGE))
@pytest.mark.parametrize("args", [["show", "1"], ["show", "1", "--json"], ["show", "1", "--text"], ["export", "1"],
                                  ["export", "--all"], ["export", "--all", "--format", "csv"]])
def test_a_damaged_play_is_one_line_naming_it(db, damaged, kind, args):
    damaged(kind)
    r = run(*args, "--db", db)
    one_line_error(r, "play 1", "damaged")
    assert r.out == ""


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_the_other_plays_stay_usable_and_a_damaged_play_can_be_deleted(db, damaged, kind):
    damaged(kind)
    assert run("plays", "--db", db).code == 0 and "Glüx" in run("plays", "--db", db).out
    assert run("stats", "--db", db).code == 0
    assert run("show", "2", "--db", db).code == 0
    assert json.loads(run("export", "2", "--db", db).out)["plays"][0]["game"] == "levelx"
    r = run("recheck", "--all", "--db", db)
    assert r.code == 1 and r.out.strip().endswith("1 could not be read"), (r.code, r.out, r.err)
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and "play 1: not rechecked" in lines[0] and "damaged" in lines[0], r.err
    r = run("delete", "1", "--yes", "--db", db)
    assert (r.code, r.out) == (0, "deleted play 1\n"), r.err
    assert run("export", "--all", "--db", db).code == 0


# ------------------------------------------------------------------ 4. digits that are not ASCII

@pytest.mark.parametrize("record, dice", [
    (EXAMPLES / "yuncos-in-progress.toml", "3 ²"),
    (EXAMPLES / "yuncos-in-progress.toml", "⑤ 2"),
    (EXAMPLES / "levelx-in-progress.toml", "3 ⑤ 1 2"),
    (EXAMPLES / "levelx-in-progress.toml", "٣ 1 2 4"),  # an Arabic-Indic three
])
def test_moves_refuses_a_die_that_is_not_an_ascii_digit(record, dice):
    one_line_error(run("moves", record, "--dice", dice), "--dice", "die faces 1 to 6")


@pytest.mark.parametrize("line", ["Ana: 3+4 5+⑤", "Ana: ²+4 5 6", "3+4 5 ٣"])
def test_a_level_x_turn_line_refuses_a_die_that_is_not_an_ascii_digit(tmp_path, line):
    path = tmp_path / "lx.toml"
    path.write_text(f'game = "levelx"\nkind = "game"\nplayers = ["Ana", "Ben"]\nturns = [{json.dumps(line)}]\n',
                    encoding="utf-8")
    one_line_error(run("check", path), "turns[0]", "not a group of dice")


# ------------------------------------------------------------------ 5. folders that cannot be used

LONG = "x" * 300  # one path component longer than any file system allows


@pytest.mark.parametrize("args", [["printer", "list"], ["printer", "set", "home"]])
def test_printer_profiles_in_a_folder_that_cannot_be_used(tmp_path, args):
    env = {"XDG_CONFIG_HOME": str(tmp_path / LONG), "SHEETKIT_PRINTERS": None}
    one_line_error(run(*args, env=env), "name too long")
    (tmp_path / "conf").write_text("not a folder")  # a file where the folder would be
    env = {"XDG_CONFIG_HOME": str(tmp_path / "conf"), "SHEETKIT_PRINTERS": None}
    r = run(*args, env=env)
    if args[1] == "list":
        assert r.code == 0 and r.out.startswith("no printer profiles yet"), (r.code, r.out, r.err)
    else:
        one_line_error(r, "cannot write")


def test_render_with_a_printer_whose_profiles_cannot_be_read(tmp_path):
    env = {"XDG_CONFIG_HOME": str(tmp_path / LONG), "SHEETKIT_PRINTERS": None}
    one_line_error(run("render", "calibration", "--printer", "home", "--out-dir", tmp_path / "out", env=env),
                   "name too long")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("where", [lambda t: ["--out-dir", t / LONG], lambda t: ["--out-dir", t / LONG / "sub"],
                                   lambda t: ["-o", t / (LONG + ".pdf")]])
def test_render_into_a_folder_that_cannot_be_written(tmp_path, where):
    one_line_error(run("render", "calibration", *where(tmp_path)), "name too long")


# ------------------------------------------------------------------ 6. a calibration label's placeholders

@pytest.mark.parametrize("old, new, field", [
    ("(100 %)", "(100 %) {X}", "labels.steps[0].es"),
    ("{length} mm ruler", "{X} mm ruler", "labels.ruler_x.en"),
    ("{length} mm ruler", "{length mm ruler", "labels.ruler_x.en"),
])
@pytest.mark.parametrize("command", ["lint", "render"])
def test_a_calibration_label_with_an_unknown_placeholder(tmp_path, old, new, field, command):
    text = (ROOT / "layouts" / "calibration.toml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "my-calibration.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    args = [command, path] + (["--out-dir", tmp_path / "out"] if command == "render" else [])
    one_line_error(run(*args), str(path), field)


# ------------------------------------------------------------------ 7. photos cut short or absurdly shaped

def _png(path, width: int, height: int) -> None:
    from PIL import Image

    Image.new("L", (width, height), 255).save(path)


def test_read_of_a_truncated_png_is_sheetkits_line_only(tmp_path):
    pytest.importorskip("cv2")
    import numpy as np
    from PIL import Image

    whole = tmp_path / "whole.png"
    Image.fromarray((np.random.default_rng(1).random((600, 800)) * 255).astype("uint8")).save(whole)
    cut = tmp_path / "cut.png"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    proc = subprocess_run("read", cut)  # a fresh process: a C library writes to the real stderr
    one_line(proc, "cut.png", "cut short")
    assert "libpng" not in proc.stderr


def test_read_of_a_very_wide_png_is_refused_up_front(tmp_path):
    pytest.importorskip("cv2")
    wide = tmp_path / "wide.png"
    _png(wide, 290_000, 200)
    one_line(subprocess_run("read", wide), "290000x200")


# ------------------------------------------------------------------ 8. log --json of an illegal game

def test_log_json_of_an_illegal_game_prints_the_verdict_and_that_it_was_not_saved(db):
    r = run("log", str(EXAMPLES / "glux-game-illegal.toml"), "--json", "--db", db)
    assert r.code == 1, (r.code, r.out, r.err)
    answer = json.loads(r.out)
    assert answer["saved"] is False and "not saved" in answer["reason"]
    [verdict] = answer["verdicts"]
    assert verdict["legal"] is False and verdict["findings"] and verdict["game"] == "glux"
    assert len(r.err.strip().splitlines()) == 1
    assert plays_in(db) == 0


# ------------------------------------------------------------------ square names with other digits

@pytest.mark.parametrize("square", ["G²", "G⑤", "G" + "9" * 5000])
def test_a_glux_square_written_with_odd_digits_is_one_line(tmp_path, square):
    from sheetkit.grid import parse_square

    assert parse_square(square) is None
    (tmp_path / "g.toml").write_text('game = "glux"\nkind = "game"\nboard = "glux-board-2p"\nplayers = [\n'
                                     '  { name = "Ana", letter = "A", colour = "yellow", start = "M1", start_chip = 6 },\n'
                                     '  { name = "Ben", letter = "B", colour = "green", start = "A9", start_chip = 2 },\n]\n'
                                     f'moves = """\nA {square} 2\n"""\n', encoding="utf-8")
    r = run("check", str(tmp_path / "g.toml"))
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err, r.err
