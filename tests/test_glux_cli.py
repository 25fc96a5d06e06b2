"""`sheetkit render/lint/check/score/template` for Glüx, run as a user would."""

from __future__ import annotations

import json

import pytest

from conftest import ROOT, assert_user_error, sheetkit
from pdfutil import page_sizes_mm


GLUX = ["glux-board-2p", "glux-board-34p", "glux-chips", "glux-score-track", "glux-score-pad"]


def test_lint_passes_on_the_glux_layouts():
    run = sheetkit("lint", *GLUX)
    assert run.code == 0, run.out
    assert run.out.count(": ok") == len(GLUX)


def test_lint_reports_a_board_with_a_broken_room(tmp_path):
    text = (ROOT / "layouts" / "glux-board-2p.toml").read_text()
    # room A in two pieces; the middle room one square short
    bad = text.replace("S . . a a a . . . b b . .", "S a . . a a . . . b b . .").replace(
        "c c . . . m m m . . . d d", "c c . . . . m m . . . d d")
    path = tmp_path / "bad-board.toml"
    path.write_text(bad)
    run = sheetkit("lint", path)
    assert run.code == 1
    assert "G2 room A" in run.out and "middle room" in run.out


def test_render_real_and_fit(tmp_path):
    run = sheetkit("render", "glux-board-34p", "--paper", "letter", "-o", tmp_path / "b.pdf")
    assert run.code == 0, run.err
    assert "(5 pages)" in run.out
    run = sheetkit("render", "glux-board-34p", "--scale", "fit", "--lang", "es", "-o", tmp_path / "f.pdf")
    assert run.code == 0, run.err
    (w, h), = page_sizes_mm(tmp_path / "f.pdf")
    assert (round(w), round(h)) == (297, 210)
    run = sheetkit("preview", "glux-board-2p", "--scale", "fit", "-o", tmp_path / "p.png")
    assert run.code == 0 and (tmp_path / "p.png").stat().st_size > 1000
    assert_user_error(sheetkit("render", "glux-chips", "--scale", "huge", "-o", tmp_path / "x.pdf"), "--scale")


def test_check_examples_exit_codes(tmp_path):
    ok = sheetkit("check", "examples/glux-game-3p.toml", "examples/glux-board-3p.toml")
    assert ok.code == 0, ok.out
    assert ok.out.count("legal") == 2
    bad = sheetkit("check", "examples/glux-game-illegal.toml", "--json")
    assert bad.code == 1
    v, = json.loads(bad.out)
    rules = {f["rule"] for f in v["findings"]}
    assert {"G4", "G5", "G6", "G7", "G8", "order", "G10"} <= rules
    g5 = next(f for f in v["findings"] if f["rule"] == "G5")
    assert g5["at"] == {"turn": 9, "player": "Ana", "square": "G5"}
    drawn = sheetkit("check", "examples/glux-game-illegal.toml", "--render", tmp_path / "o.pdf")
    assert drawn.code == 1
    from pdfutil import text as pdf_text

    pages = len(page_sizes_mm(tmp_path / "o.pdf"))
    written = " ".join(" ".join(pdf_text(tmp_path / "o.pdf", i).split()) for i in range(pages))
    for f in v["findings"]:  # every finding in full, none cut off
        assert f"{f['where']}: " in written and (f"(rule {f['rule']})" in written or f["rule"] == "order")


def test_game_and_board_records_agree_on_the_example():
    a = json.loads(sheetkit("check", "--json", "examples/glux-game-3p.toml").out)[0]
    b = json.loads(sheetkit("check", "--json", "examples/glux-board-3p.toml").out)[0]
    assert a["scores"] == b["scores"] and a["winners"] == b["winners"]


BOARD = """game = "glux"
kind = "board"
board = "glux-board-2p"
players = [
  { name = "Ana", letter = "A", start = "A1" },
  { name = "Ben", letter = "B", start = "M9" },
]
grid = \"\"\"
A4 . . A3 A6 . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . B5 . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . B3*
\"\"\"
"""


def test_board_record_scores(tmp_path):
    path = tmp_path / "board.toml"
    path.write_text(BOARD)
    run = sheetkit("check", path, "--json")
    assert run.code == 0, run.out + run.err
    v, = json.loads(run.out)
    totals = {s["player"]: s["total"] for s in v["scores"]}
    assert totals == {"Ana": 4, "Ben": 4}  # room A to Ana, the middle to Ben
    assert v["winners"] == ["Ben"]  # the tie goes to the middle room's pips
    # the text shows the pips behind the VP, room by room, with the places
    text = sheetkit("check", path).out
    assert "pips: A 9 (1st)" in text and "pips: middle 5 (1st)" in text


@pytest.mark.parametrize("change, words", [
    (('board = "glux-board-2p"', 'board = "no-such-board"'), ["board", "no-such-board"]),
    (('board = "glux-board-2p"', 'board = "glux-chips"'), ["board", "expected a glux board"]),
    (("A4 . . A3", "A4 . . X3"), ["grid", "X3"]),
    (("A4 . . A3", "A4 . . A7"), ["grid", "A7"]),
    ((". . . . . . B5 . . . . . .", ". . . . . . B5 . . . . ."), ["grid", "row 5"]),
    (('letter = "B", start = "M9"', 'letter = "A", start = "M9"'), ["players[1].letter"]),
    (('start = "M9"', 'start = "Z99"'), ["players[1].start", "Z99"]),
    # the same square however written: two players cannot share a start square (G3)
    (('start = "M9"', 'start = "a1"'), ["players[1].start", "a1", "an earlier player has it"]),
    (('kind = "board"', 'kind = "sheet"'), ["kind"]),
    (('{ name = "Ana", letter = "A", start = "A1" }', '{ name = "Ana", letter = "A", start = "A1", age = 3 }'),
     ["players[0].age", "unknown field"]),
])
def test_bad_board_records_exit_2_with_one_line(tmp_path, change, words):
    path = tmp_path / "bad.toml"
    path.write_text(BOARD.replace(*change))
    assert_user_error(sheetkit("check", path), str(path), *words)


@pytest.mark.parametrize("moves, words", [
    ("A A1-E1", ["moves", "line 1"]),
    ("A A1-E1 7", ["moves", "1 to 6"]),
    ("Q A1-E1 2", ["moves", "letter Q"]),
    ("A A1 E1 2", ["moves", "LETTER FROM-TO FACE"]),
    # row 0 does not exist: a traceback once, and "A0-E1" was read as the start option
    ("A A1-E0 2", ["moves", "line 1", "E0", "not a square"]),
    ("A A0-E1 2", ["moves", "line 1", "A0", "not a square"]),
])
def test_bad_game_records_exit_2_with_one_line(tmp_path, moves, words):
    text = (ROOT / "examples" / "glux-game-3p.toml").read_text()
    head, _, _ = text.partition('moves = """')
    path = tmp_path / "bad-game.toml"
    path.write_text(head + f'moves = """\n{moves}\n"""\n')
    assert_user_error(sheetkit("check", path), str(path), *words)


def test_missing_start_chip_is_named(tmp_path):
    import re

    text = (ROOT / "examples" / "glux-game-3p.toml").read_text()
    path = tmp_path / "g.toml"
    path.write_text(re.sub(r", start_chip = \d", "", text, count=1))
    assert_user_error(sheetkit("check", path), "players[0].start_chip", "missing")


def test_score_command():
    run = sheetkit("score", "glux", "--room", "Timo=10,Max=9,Pia=4", "--room", "Sarah=12,Max=5,Timo=4",
                   "--room", "Pia=10,Sarah=10,Timo=6", "--room", "Max=9,Sarah=4,Timo=4")
    assert run.code == 0, run.err
    assert "winner: Sarah" in run.out
    assert "Sarah: 10 VP" in run.out and "Max: 8 VP" in run.out
    two = sheetkit("score", "glux", "--room", "Ana=9,Ben=3", "--json")
    v = json.loads(two.out)
    assert {s["player"]: s["total"] for s in v["scores"]} == {"Ana": 4, "Ben": 0}
    # a third player without pips turns on the second place
    three = sheetkit("score", "glux", "--room", "Ana=9,Ben=3", "--players", "Ana,Ben,Cris", "--json")
    assert {s["player"]: s["total"] for s in json.loads(three.out)["scores"]} == {"Ana": 4, "Ben": 2, "Cris": 0}
    tie = sheetkit("score", "glux", "--room", "Ana=9,Ben=3", "--room", "Ben=4,Ana=2", "--middle", "2")
    assert "winner: Ben" in tie.out and "middle" in tie.out


@pytest.mark.parametrize("args, words", [
    (["--room", "Ana=-3,Ben=2"], ["negative"]),
    (["--room", "Ana3,Ben=2"], ["NAME=PIPS"]),
    (["--room", "Ana=x,Ben=2"], ["NAME=PIPS"]),
    (["--room", "Ana=3,Ben=2", "--middle", "2"], ["--middle 2"]),
    (["--room", "Ana=3,Ben=2", "--middle", "0"], ["--middle 0"]),
    (["--room", "Ana=3"], ["2 to 4 players", "--players"]),
    (["--room", "A=1,B=1", "--players", "A,B,C,D,E"], ["2 to 4 players", "5"]),
    ([], ["--room"]),
    (["--room", "Ana=3,Ana=2"], ["twice"]),
])
def test_score_bad_input(args, words):
    assert_user_error(sheetkit("score", "glux", *args), *words)


def test_templates_are_records_that_load(tmp_path):
    game = sheetkit("template", "glux-game")
    assert game.code == 0
    path = tmp_path / "g.toml"
    path.write_text(game.out)
    run = sheetkit("check", path, "--json")
    v, = json.loads(run.out)
    assert run.code == 1 and {f["rule"] for f in v["findings"]} == {"G10"}  # legal so far, unfinished
    board = sheetkit("template", "glux-board-2p")
    path = tmp_path / "b.toml"
    path.write_text(board.out)
    run = sheetkit("check", path)
    assert run.code == 1 and "G3" in run.out  # empty start squares
    assert sheetkit("template", "glux-board-record").code == 0
    assert_user_error(sheetkit("template", "glux-chips"), "glux-chips")


def test_score_names_one_player_however_capitalised():
    """"ana" in one room and "Ana" in another are one player: counted as two, a 2-player
    game would score second places (G12) and could crown the wrong winner."""
    run = sheetkit("score", "glux", "--room", "Ana=5,Ben=3", "--room", "ana=2,ben=4", "--json")
    assert run.code == 0, run.err
    v = json.loads(run.out)
    assert {s["player"]: s["total"] for s in v["scores"]} == {"Ana": 4, "Ben": 4}
    listed = sheetkit("score", "glux", "--room", "ana=9,BEN=3", "--players", "Ana,Ben,Cris", "--json")
    assert {s["player"]: s["total"] for s in json.loads(listed.out)["scores"]} == {"Ana": 4, "Ben": 2, "Cris": 0}
    assert_user_error(sheetkit("score", "glux", "--room", "Ana=3,ANA=2"), "twice")


def test_score_room_names_must_be_among_players():
    """With --players the list is complete: a misspelt name in a room is an error, not a
    third player who turns on the second place of a 2-player game."""
    run = sheetkit("score", "glux", "--room", "Ana=5,Ben=3", "--room", "Ana=2,Bne=4", "--players", "Ana,Ben")
    assert_user_error(run, "--room 2", "Bne", "--players")


def test_moves_and_grid_take_lower_case_letters(tmp_path):
    """A player writing "b m9-j9 5" means player B, as "b start 5" does."""
    text = (ROOT / "examples" / "glux-game-3p.toml").read_text()
    head, _, moves = text.partition('moves = """')
    path = tmp_path / "lower.toml"
    path.write_text(head + 'moves = """' + moves.lower())
    low = json.loads(sheetkit("check", "--json", path).out)[0]
    ref = json.loads(sheetkit("check", "--json", "examples/glux-game-3p.toml").out)[0]
    assert low["findings"] == [] and low["scores"] == ref["scores"]
    board = tmp_path / "board.toml"
    board.write_text(BOARD.replace("A4 . . A3 A6", "a4 . . a3 a6").replace("B3*", "b3*"))
    run = sheetkit("check", "--json", board)
    assert run.code == 0, run.out + run.err
    assert {s["player"]: s["total"] for s in json.loads(run.out)[0]["scores"]} == {"Ana": 4, "Ben": 4}


def test_score_tie_without_middle_says_how_to_break_it():
    run = sheetkit("score", "glux", "--room", "Ana=9,Ben=3", "--room", "Ben=4,Ana=2")
    assert run.code == 0 and "shared win: Ana, Ben" in run.out
    assert "--middle" in run.out
    broken = sheetkit("score", "glux", "--room", "Ana=9,Ben=3", "--room", "Ben=4,Ana=2", "--middle", "2")
    assert "winner: Ben" in broken.out and "--middle K" not in broken.out
