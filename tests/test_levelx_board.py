"""Level X on the board a record names (L1): the shipped board's rows of 2 to 7 squares, and
a designer's board layout with other lengths, checked exactly as it is printed."""

import json
import random
import re
import tomllib

import pytest

from conftest import ROOT, assert_unusable, assert_user_error, check_data, sheetkit
from sheetkit.checking import records
from sheetkit.errors import UserError

SHIPPED = (ROOT / "layouts" / "levelx-board.toml").read_text()
FIVE = {"dice": [4, 1, 1, 1], "groups": [[4, 1], [1, 1]]}  # a group of 5, and 2: nothing
NOTHING = {"dice": [1, 1, 1, 1], "groups": [[1, 1, 1, 1]]}


def designer(tmp_path, lengths: dict[int, int], name: str = "my-board.toml"):
    """A copy of the shipped board layout with other row lengths."""
    text = SHIPPED
    for row, n in lengths.items():
        text, k = re.subn(rf"number = {row}, squares = \d+", f"number = {row}, squares = {n}", text)
        assert k == 1
    path = tmp_path / name
    path.write_text(text)
    return path


def game(turns, board=None, players=("Ana", "Ben"), **more):
    data = {"game": "levelx", "kind": "game", "players": list(players), "in_progress": True,
            "turn": [dict(t) for t in turns], **more}
    return data if board is None else {**data, "board": str(board) if hasattr(board, "parent") else board}


def test_the_shipped_board_has_rows_of_2_to_7_squares_as_the_rulebook_says():
    data = tomllib.loads(SHIPPED)
    assert [(r["number"], r["squares"]) for r in data["rows"]] == [(5, 2), (6, 3), (7, 4), (8, 5), (9, 6), (10, 7)]
    assert len({r["squares"] for r in data["rows"]}) == 6  # "each of a different length"
    run = sheetkit("lint", "levelx-board")
    assert run.code == 0, run.out


def test_a_designers_board_changes_what_is_legal_exactly_as_printed(tmp_path):
    # row 5 of 3 squares instead of 2: a second 5 leaves Ana's pawn short of X
    board = designer(tmp_path, {5: 3})
    turns = [FIVE, NOTHING, dict(FIVE, chips=[5])]
    shipped = check_data(game(turns), str(tmp_path / "g.toml"))
    assert shipped.legal, shipped.to_text()  # 2 squares: the second 5 reaches X and takes a chip
    v = check_data(game(turns, board), str(tmp_path / "g.toml"))
    assert [f.rule for f in v.findings] == ["L6"]
    assert "recorded chips [5] but the dice give []" in v.findings[0].message
    assert "the pawn in row 5 is not on X" in v.findings[0].message
    # the third 5 reaches X on the designer's board, and takes the chip there only
    longer = [FIVE, NOTHING, dict(FIVE, chips=[]), NOTHING, dict(FIVE, chips=[5])]
    assert check_data(game(longer, board), str(tmp_path / "g.toml")).legal
    on_shipped = check_data(game(longer), str(tmp_path / "g.toml"))  # there turn 3 reached X: a chip
    assert [(f.rule, f.where) for f in on_shipped.findings] == [("L6", "turn 3")]
    # and the state is played on the board's own rows
    loaded = records.load(_write(tmp_path / "g.toml", game(turns, board)))
    state = records.check(loaded).state
    assert state.squares == {5: 3, 6: 3, 7: 4, 8: 5, 9: 6, 10: 7} and state.pos["Ana"][5] == 2


def test_a_board_beside_the_record_is_found_from_anywhere(tmp_path, monkeypatch):
    designer(tmp_path, {5: 3, 10: 8})
    path = _write(tmp_path / "g.toml", game([FIVE, NOTHING, FIVE], "my-board.toml"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    state = records.check(records.load(str(path))).state
    assert state.squares[5] == 3 and state.squares[10] == 8


def test_sheetkit_moves_speaks_of_the_designers_rows(tmp_path):
    designer(tmp_path, {5: 3})
    path = _write(tmp_path / "g.toml", game([FIVE, NOTHING], "my-board.toml"))
    run = sheetkit("moves", path, "--dice", "4 1 3 2")
    assert run.code == 0, run.err
    assert "4+1 3 2: 5 to square 2 of 3" in run.out
    assert "4+1 3+2: 5 to square 2 of 3; 5 to X, chip" in run.out
    got = json.loads(sheetkit("moves", path, "--dice", "4 1 3 2", "--json").out)
    option = next(o for o in got["moves"]["options"] if o["notation"] == "4+1 3 2")
    assert option["groups_do"][0] == {"total": 5, "moved": True, "square": 2, "x": 3, "bumped": None,
                                      "chip": False, "bonuses": []}
    run = sheetkit("moves", _write(tmp_path / "s.toml", game([FIVE, NOTHING])), "--dice", "4 1 3 2")
    assert "4+1 3 2: 5 to X, chip" in run.out  # the shipped board: 2 squares


def test_the_checked_sheet_draws_the_designers_board(tmp_path):
    from sheetkit.games.levelx.compose import X_SQUARE, board_geometry
    from sheetkit.games.levelx.overlay import PAWNS
    from sheetkit.paper import scene as S

    designer(tmp_path, {5: 3})
    loaded = records.load(_write(tmp_path / "g.toml", game([FIVE, NOTHING, FIVE], "my-board.toml")))
    checked = records.check(loaded)
    scene = loaded.kind.overlay(loaded.record, checked, "a4")
    page = scene.pages[-1]
    drawn = [it for f in scene.forms.values() if f is not None for it in f.items]
    squares = [it for it in drawn if isinstance(it, S.Rect) and it.w == 20.0 and it.h == 20.0]
    assert sum(1 for it in squares if it.style == X_SQUARE) == 6
    assert len(squares) == 3 + 3 + 4 + 5 + 6 + 7  # row 5 as the designer printed it
    g = board_geometry(loaded.record.board_spec, "a4")
    row5 = g["rows"][0]
    ana = [c for c in page.items if isinstance(c, S.Circle) and c.style.fill == PAWNS[0][1]
           and row5["y"] < c.y < row5["y"] + 20]
    assert len(ana) == 1 and row5["first"] + 20 < ana[0].x < row5["first"] + 40  # square 2 of 3


def test_the_longest_game_is_bounded_by_the_boards_own_rows(tmp_path):
    from sheetkit.games.levelx.record import longest_game

    shipped, why = longest_game(2, {5: 2, 6: 3, 7: 4, 8: 5, 9: 6, 10: 7})
    assert why["steps"] == 2 * 27  # two pawns a row, 27 squares in all on the shipped board
    board = designer(tmp_path, {r: 1 for r in range(5, 11)})
    most, why = longest_game(2, {r: 1 for r in range(5, 11)})
    assert why["steps"] == 2 * 6 and most < shipped
    turns = [NOTHING] * (most + 1)
    assert check_data(game(turns), "g.toml") is not None  # the shipped board allows more
    with pytest.raises(UserError) as e:
        records.parse(game(turns, board), str(tmp_path / "g.toml"))
    assert f"lasts at most {most} turns" in str(e.value) and "turn" in str(e.value)


@pytest.mark.parametrize("board, words", [
    (3, ["board", "shipped layout id (levelx-board)"]),
    ("", ["board", "shipped layout id"]),
    ("glux-board-2p", ["board", "glux board layout, expected a levelx board"]),
    ("levelx-score-pad", ["board", "levelx score-pad layout, expected a levelx board"]),
    ("nope.toml", ["board", "nope.toml"]),
])
def test_a_board_that_cannot_be_played_on_is_one_line(board, words):
    assert_unusable(game([FIVE], board), "g.toml", words)


def test_a_board_without_the_rows_5_to_10_is_one_line(tmp_path):
    path = tmp_path / "odd.toml"
    path.write_text(SHIPPED.replace("number = 10,", "number = 11,"))
    run = sheetkit("check", _write(tmp_path / "g.toml", game([FIVE], "odd.toml")))
    assert_user_error(run, "g.toml", "board", "rows 5, 6, 7, 8, 9, 11", "5, 6, 7, 8, 9, 10")


def test_a_final_position_names_no_board():
    data = {"game": "levelx", "kind": "final", "board": "levelx-board", "player": [{"name": "A"}, {"name": "B"}]}
    assert_unusable(data, "f.toml", ["board"])


def test_a_record_from_outside_may_name_the_shipped_board_but_no_file(tmp_path):
    from sheetkit.checking.outside import refuse_files

    designer(tmp_path, {5: 3})
    refuse_files(game([FIVE], "levelx-board"), "upload")  # a shipped id names no file
    refuse_files(game([FIVE]), "upload")
    for ref in ("my-board.toml", str(tmp_path / "my-board.toml"), "/etc/passwd"):
        with pytest.raises(UserError) as e:
            refuse_files(game([FIVE], ref), "upload")
        assert "board" in str(e.value) and "levelx-board" in str(e.value) and "none was looked at" in str(e.value)


def test_the_lint_asks_for_rows_of_different_lengths_only(tmp_path):
    for name, lengths in (("short.toml", {5: 1, 6: 2, 7: 3, 8: 4, 9: 5, 10: 6}),
                          ("upside-down.toml", {5: 7, 6: 6, 7: 5, 8: 4, 9: 3, 10: 2})):
        run = sheetkit("lint", designer(tmp_path, lengths, name))
        assert run.code == 0, run.out  # other lengths, all different: a board as the rulebook says, and it fits
    run = sheetkit("lint", designer(tmp_path, {5: 3}, "same.toml"))
    assert run.code == 1 and "L1 row 6: 3 squares, as row 5" in run.out, run.out


@pytest.mark.parametrize("seed", range(6))
def test_random_games_on_a_designers_board_are_legal_and_score_like_their_end(tmp_path, seed):
    from sheetkit.games.levelx.play import lengths, random_game

    rng = random.Random(seed)
    want = {r: rng.randint(1, 8) for r in range(5, 11)}
    board = designer(tmp_path, want)
    assert lengths(str(board)) == want  # the simulation reads the board as printed
    record, final = random_game(rng, ["Ana", "Ben", "Cleo", "Dario"][:2 + seed % 3], 0.5, board=str(board))
    assert record["board"] == str(board)
    g, f = check_data(record, str(tmp_path / "g.toml")), check_data(final, str(tmp_path / "f.toml"))
    assert g.legal and f.legal, g.to_text()
    assert [(s.player, s.total) for s in g.scores] == [(s.player, s.total) for s in f.scores]
    on_shipped = check_data({k: v for k, v in record.items() if k != "board"}, str(tmp_path / "g.toml"))
    if want != {5: 2, 6: 3, 7: 4, 8: 5, 9: 6, 10: 7}:  # the same turns on the shipped board differ
        assert [(s.player, s.total) for s in on_shipped.scores] != [(s.player, s.total) for s in g.scores] \
            or on_shipped.findings != g.findings


def _write(path, data) -> str:
    """A record as a TOML file (keys, then its [[turn]] tables)."""
    lines = [f"{k} = {json.dumps(v)}" for k, v in data.items() if k != "turn"]
    for t in data.get("turn", []):
        lines += ["", "[[turn]]"] + [f"{k} = {json.dumps(v)}" for k, v in t.items()]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_the_web_page_refuses_a_board_given_as_a_path_and_plays_the_shipped_one(tmp_path):
    from test_web import Client, assert_clear_error

    client = Client()
    designer(tmp_path, {5: 3})
    text = (ROOT / "examples" / "levelx-in-progress.toml").read_text()
    for ref in (str(tmp_path / "my-board.toml"), "my-board.toml"):
        named = text.replace('in_progress = true', f'in_progress = true\nboard = "{ref}"')
        page = client.post("/check", {"text": named}, content_type="multipart/form-data")
        assert_clear_error(page, "board", "levelx-board")
    named = text.replace('in_progress = true', 'in_progress = true\nboard = "levelx-board"')
    page = client.post("/check", {"text": named}, content_type="multipart/form-data")
    assert page.code == 200 and "Carla to move" in page.text
