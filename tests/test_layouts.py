"""Loading layouts: ids and paths, validation with one-line errors, versions, lint."""

import re

import pytest

from conftest import ROOT, assert_user_error, sheetkit
from sheetkit import layouts
from sheetkit.errors import UserError

EASY = (ROOT / "layouts" / "yuncos-easy.toml").read_text()


def edit_grid(text: str, cells: dict[tuple[int, int], str] = {}, drop: int | None = None) -> str:
    """The layout text with map vertices (column, row) replaced, or row `drop` one vertex short."""
    head, rest = text.split('grid = """\n', 1)
    grid, tail = rest.split('"""', 1)
    rows = [line.split() for line in grid.splitlines() if line.strip()]
    for (c, r), ch in cells.items():
        rows[r][c] = ch
    if drop is not None:
        rows[drop].pop()
    return head + 'grid = """\n' + "\n".join(" ".join(row) for row in rows) + "\n" + '"""' + tail


def test_every_shipped_layout_loads_and_has_a_short_version():
    ids = layouts.shipped_ids()
    assert {"yuncos", "yuncos-easy", "yuncos-hard"} <= set(ids)
    for i in ids:
        layout = layouts.load(i)
        assert layout.id == i
        assert re.fullmatch(r"[0-9a-f]{8}", layout.version)


def test_version_follows_content_not_comments(tmp_path):
    a = tmp_path / "a.toml"
    a.write_text("# a comment added\n" + EASY)
    assert layouts.load(str(a)).version == layouts.load("yuncos-easy").version
    b = tmp_path / "b.toml"
    b.write_text(EASY.replace("dice_log = 36", "dice_log = 30"))
    assert layouts.load(str(b)).version != layouts.load("yuncos-easy").version


def test_version_follows_content_not_key_order_or_table_style(tmp_path):
    """Keys in another order, an inline table written as a [table] section, other spacing and
    comments: the same content, the same version."""
    title = 'title = { es = "Yuncos: El lado oscuro de la luz", en = "Yuncos: The Dark Side of Light" }\n'
    assert title in EASY
    head, tables = EASY.split("[map]\n", 1)
    head = head.replace(title, "").replace('game = "yuncos"\nkind = "sheet"', 'kind   =   "sheet"   # kind first\ngame = "yuncos"')
    moved = (head + "[map]\n" + tables + '\n[title]\nen = "Yuncos: The Dark Side of Light"\n'
             '# Spanish second\nes = "Yuncos: El lado oscuro de la luz"\n')
    path = tmp_path / "moved.toml"
    path.write_text(moved)
    import tomllib

    assert tomllib.loads(moved) == tomllib.loads(EASY) and list(tomllib.loads(moved)) != list(tomllib.loads(EASY))
    assert layouts.load(str(path)).version == layouts.load("yuncos-easy").version


def test_yuncos_board_reads_the_map():
    board = layouts.load("yuncos-easy").spec.board
    assert (board.width, board.height) == (21, 14)
    assert board.starts[1] == (8, 5)  # the "1" in row 6, column I
    assert all(v in board.land for v in board.starts.values())
    assert board.stars[(0, 0)] == "red"
    assert not board.fish & board.land


BROKEN = [
    # (change to the Easy layout, words expected in the one-line error)
    (lambda s: s.replace("dice_log = 36", "dice_log = 36\ncolour_scheme = 1"), ["colour_scheme", "unknown field"]),
    (lambda s: s.replace("dice_log = 36", 'dice_log = "36"'), ["dice_log", "whole number"]),
    (lambda s: edit_grid(s, drop=0), ["map.grid", "row 1", "20 vertices"]),
    (lambda s: edit_grid(s, {(7, 4): "Q"}), ["map.grid", "'Q'", "legend"]),
    (lambda s: s.replace('icon = "fish"', 'icon = "fsh"'), ["map.legend.F.icon"]),
    (lambda s: s.replace('colour = "red"', 'colour = "pink"'), ["map.legend.r.colour", "pink"]),
    (lambda s: s.replace("values = [1, 2, 4, 6, 9, 12,", "values = [1, 2, 4, 6, 9, 11,"), ["fish.values", "12"]),
    (lambda s: s.replace('abilities = ["plusminus", "yunco", "diagonal", "yunco"]', 'abilities = ["yunco"]'), ["luminaries.abilities"]),
    (lambda s: edit_grid(s, {(9, 8): "1"}), ["map.grid", "start point 1"]),
    (lambda s: s.replace('level = "easy"', 'level = "medium"'), ["level"]),
    (lambda s: s.replace('game = "yuncos"', 'game = "chess"'), ["game", "chess"]),
    (lambda s: s + "\n[broken\n", ["not valid TOML"]),
    (lambda s: s.replace('nests_rule = {', 'nests_rule_x = {'), ["labels"]),
]


@pytest.mark.parametrize("change,words", BROKEN)
def test_bad_layouts_get_one_line_naming_file_and_field(tmp_path, change, words):
    path = tmp_path / "mine.toml"
    bad = change(EASY)
    assert bad != EASY
    path.write_text(bad)
    with pytest.raises(UserError) as e:
        layouts.load(str(path))
    msg = str(e.value)
    assert "\n" not in msg and str(path) in msg
    for w in words:
        assert w in msg, (w, msg)


@pytest.mark.parametrize("kind", ['["sheet"]', "{ a = 1 }", "7"])
def test_a_kind_of_the_wrong_type_is_one_line(tmp_path, kind):
    path = tmp_path / "mine.toml"
    path.write_text(EASY.replace('kind = "sheet"', f"kind = {kind}"))
    for cmd in ("render", "lint"):
        assert_user_error(sheetkit(cmd, path, "--out-dir", tmp_path) if cmd == "render" else sheetkit(cmd, path),
                          str(path), "kind", "expected one of")
    assert not list(tmp_path.glob("*.pdf"))


def test_bad_layout_on_the_command_line_exits_2(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(EASY.replace("dice_log = 36", "dice_log = -3.5"))
    run = sheetkit("render", path, "--out-dir", tmp_path)
    assert_user_error(run, str(path), "dice_log")
    assert not list(tmp_path.glob("*.pdf"))


def test_unknown_id_and_missing_file(tmp_path):
    assert_user_error(sheetkit("render", "yuncos-medium"), "unknown layout", "yuncos-easy")
    assert_user_error(sheetkit("render", tmp_path / "nope.toml"), "no such layout file")


def test_lint_passes_on_every_shipped_layout():
    run = sheetkit("lint", "--all")
    assert run.code == 0, run.out + run.err
    assert run.out.count(": ok") == len(layouts.shipped_ids())


def test_lint_reports_game_sense_problems(tmp_path):
    # the star at A1 walled in by lights at B1 and A2; a start point out at sea at B14
    s = edit_grid(EASY, {(1, 0): "l", (0, 1): "l", (1, 13): "5"})
    path = tmp_path / "walled.toml"
    path.write_text(s)
    run = sheetkit("lint", path)
    assert run.code == 1
    assert "Y8 star at A1" in run.out, run.out
    assert "Y2 start 5 at B14" in run.out, run.out


def test_lint_reports_a_sheet_that_does_not_fit_the_page(tmp_path):
    path = tmp_path / "big.toml"
    path.write_text(EASY.replace("square = 7.6", "square = 9.5"))
    run = sheetkit("lint", path)
    assert run.code == 1
    assert "printer margin" in run.out


def test_a_record_finds_its_layout_file_beside_it(tmp_path, monkeypatch):
    from sheetkit.checking import records

    (tmp_path / "my-board.toml").write_text((ROOT / "layouts" / "glux-board-34p.toml").read_text())
    game = (ROOT / "examples" / "glux-board-3p.toml").read_text()
    assert 'board = "glux-board-34p"' in game
    (tmp_path / "rec.toml").write_text(game.replace('board = "glux-board-34p"', 'board = "my-board.toml"'))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # the record's folder is not the current one
    mine = records.check(records.load(str(tmp_path / "rec.toml"))).verdict
    shipped = records.check(records.load(str(ROOT / "examples" / "glux-board-3p.toml"))).verdict
    assert mine.legal and [s.total for s in mine.scores] == [s.total for s in shipped.scores]


def test_a_file_saved_with_a_byte_order_mark_reads_like_any_other(tmp_path):
    """Windows editors (Notepad) often save UTF-8 with a byte order mark: layouts and
    records read the same, and the layout keeps its version."""
    layout = tmp_path / "bom.toml"
    layout.write_text(EASY, encoding="utf-8-sig")
    assert layout.read_bytes().startswith(b"\xef\xbb\xbf")
    assert layouts.load(str(layout)).version == layouts.load("yuncos-easy").version
    record = tmp_path / "rec.toml"
    record.write_text((ROOT / "examples" / "yuncos-easy-legal.toml").read_text(encoding="utf-8"), encoding="utf-8-sig")
    run = sheetkit("check", record)
    assert run.code == 0, run.err


def test_a_file_that_is_not_utf8_names_the_line(tmp_path):
    """A record saved as Latin-1 (an older editor): the line with the first odd byte, and what to do."""
    rec = tmp_path / "rec.toml"
    rec.write_bytes('game = "glux"\n# Glüx, 3 players\nkind = "game"\n'.encode("latin-1"))
    assert_user_error(sheetkit("check", rec), str(rec), "not UTF-8", "line 2", "save it as UTF-8")


def test_field_paths_never_show_the_types_of_a_union(tmp_path):
    """A field that may be a number or a text (IUNU's deck numbers): the error names the
    field, not pydantic's union member ('cards.int')."""
    from sheetkit.schema import Label, Model, validate

    class Row(Model):
        cards: int | str
        name: Label | None = None

    class Doc(Model):
        rows: list[Row]

    for data, field in [({"rows": [{"cards": 1}, {"cards": [1]}]}, "rows[1].cards"),
                        ({"rows": [{"cards": 2.5}]}, "rows[0].cards"),
                        ({"rows": [{"cards": 1, "name": "x"}]}, "rows[0].name"),
                        ({"rows": [{"cards": 1, "name": {"es": "x"}}]}, "rows[0].name.en"),
                        ({"rows": [{}]}, "rows[0].cards")]:
        with pytest.raises(UserError) as e:
            validate(Doc, data, "doc.toml")
        assert e.value.field == field, (data, str(e.value))
    deck = (ROOT / "examples" / "iunu-deck-example.toml").read_text(encoding="utf-8")
    (tmp_path / "deck.toml").write_text(re.sub(r"^cards = \d+", "cards = [1]", deck, count=1, flags=re.M),
                                        encoding="utf-8")
    game = (ROOT / "examples" / "iunu-game.toml").read_text(encoding="utf-8")
    (tmp_path / "game.toml").write_text(re.sub(r'^deck = ".*"', 'deck = "deck.toml"', game, flags=re.M),
                                        encoding="utf-8")
    run = sheetkit("check", tmp_path / "game.toml")
    assert_user_error(run, "castes.farmer.cards: ")
