"""What the page keeps between moves to draw and read a long game in the time of a short one
is a cache, never a second truth: the SVG of items found by the very item, a drawing's
items kept by their values (scene.kept), a Yuncos sheet's turns drawn once (its flights,
its turn numbers), the rows of the list of moves kept as HTML (web.rows), a record's turns
read once (memo.unchanged_data: Yuncos and Level X), a Glüx line read once. Each is
compared with the same thing made from nothing: through the real app, random moves, undos
and restarts of every game, the page shown with everything kept is the page shown after
forgetting all of it (as after a restart); and each cache alone against a fresh computation
over random values."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sheetkit.memo import NOT_PLAIN, plain, unchanged_data
from sheetkit.paper import scene as S
from sheetkit.paper import svg
from sheetkit.web import plays
from sheetkit.web.app import create_app
from test_web import Client
from test_web_undo import UNDO, OnePlay, examples, glux_plays, levelx_plays, yuncos_plays

CSRF = re.compile(r'name="csrf" value="[^"]+"')


def forget_everything() -> None:
    """Every cache the page draws and reads with emptied, as in a server just started."""
    from sheetkit import schema
    from sheetkit.games.glux import record as glux_record
    from sheetkit.games.levelx import entry as levelx_entry
    from sheetkit.games.levelx import record as levelx_record
    from sheetkit.games.yuncos import entry as yuncos_entry
    from sheetkit.games.yuncos import overlay, record as yuncos_record
    from sheetkit.web import rows

    plays.KEPT.clear()
    for memo in (svg._BY_ITEM, svg._RUNS._kept, rows._ROWS._kept, schema._KEPT._kept, overlay._FLIGHTS._kept,
                 overlay._TURN_NUMBERS._kept, overlay._NUMBERS_DRAWN._kept, overlay._BLANKS._kept,
                 yuncos_entry._MOVE_TEXTS._kept, yuncos_entry._TABLES._kept, yuncos_record._READ_TURNS._kept,
                 yuncos_record._PARSED_TURNS._kept, yuncos_record._TURNS._kept, levelx_record._TURN_LISTS._kept,
                 levelx_entry._LINES._kept):
        memo.clear()
    for cached in (svg._drawn, svg._box, svg._lines, S.kept, overlay._gapped, overlay._cross, overlay._written,
                   glux_record._placement):
        cached.cache_clear()


def page(phone, pid) -> str:
    got = phone.get(f"/play/{pid}")
    assert got.code == 200, got.text[:2000]
    return CSRF.sub("", got.text)


def kept_page_is_the_fresh_page(tmp_path, start, acts, lang) -> None:
    db = tmp_path / "h.sqlite3"
    forget_everything()
    play = OnePlay(Client(create_app(db=db), lang=lang), db, start)
    for act in acts:
        play.post("undo", {}) if act == UNDO else play.post("move", act)
        shown = play.phone.get(f"/play/{play.pid}")
        if shown.code != 200:  # the rules ended the play (its end page): nothing more to enter
            return
        with_everything_kept = CSRF.sub("", shown.text)
        assert page(play.phone, play.pid) == with_everything_kept  # drawn again from what was kept
        forget_everything()
        assert page(play.phone, play.pid) == with_everything_kept  # drawn from nothing


@examples(8)
@given(glux_plays(), st.sampled_from(["en", "es"]))
def test_glux_page_drawn_from_what_was_kept_is_the_page_drawn_from_nothing(tmp_path, case, lang):
    start, acts, _ = case
    kept_page_is_the_fresh_page(tmp_path, start, acts, lang)


@examples(8)
@given(levelx_plays(), st.sampled_from(["en", "es"]))
def test_levelx_page_drawn_from_what_was_kept_is_the_page_drawn_from_nothing(tmp_path, case, lang):
    start, acts, _ = case
    kept_page_is_the_fresh_page(tmp_path, start, acts, lang)


@examples(8)
@given(yuncos_plays(), st.sampled_from(["en", "es"]))
def test_yuncos_page_drawn_from_what_was_kept_is_the_page_drawn_from_nothing(tmp_path, case, lang):
    start, acts, _ = case
    kept_page_is_the_fresh_page(tmp_path, start, acts, lang)


# --- the SVG of items found by the very item ------------------------------------------------

coord = st.floats(-20, 220, allow_nan=False).map(lambda v: round(v, 2))
styles = st.sampled_from([S.Style(), S.THIN, S.FILLED, S.Style(stroke="#6e6e6e", width=0.45),
                          S.Style(width=0.3, dash=(1.0, 0.5)), S.Style(stroke="#ff0000", fill="#ffffff")])
items = st.one_of(
    st.builds(S.Line, coord, coord, coord, coord, styles),
    st.builds(S.Rect, coord, coord, st.floats(0, 30).map(lambda v: round(v, 2)), st.floats(0, 30).map(lambda v: round(v, 2)),
              styles),
    st.builds(S.Circle, coord, coord, st.floats(0.1, 9).map(lambda v: round(v, 2)), styles),
    st.builds(lambda x, y, t: S.Text(x, y, t, size=7, anchor="middle"), coord, coord, st.sampled_from(["1", "27", "E & <N>"])),
    st.builds(lambda pts, s: S.Path(tuple(pts), style=s), st.lists(st.tuples(coord, coord), min_size=2, max_size=4), styles),
)
views = st.tuples(coord, coord, st.floats(5, 200).map(lambda v: round(v, 1)), st.floats(5, 200).map(lambda v: round(v, 1)))


def copied(it):  # the same item, another object
    from dataclasses import replace

    return replace(it)


@examples(60)
@given(st.lists(items, max_size=40), st.lists(st.one_of(views, st.none()), min_size=1, max_size=3), st.randoms())
def test_svg_of_items_kept_is_the_svg_written_from_nothing(some, cut, rnd):
    """Drawn again with the same items, with equal items that are other objects, with some
    in both, and after the memo was full and forgotten: the very SVG written from nothing."""
    page = S.Page(210.0, 297.0, list(some))
    scene = S.Scene([page], {}, "t")
    svg._BY_ITEM.clear()
    svg._drawn.cache_clear()
    svg._box.cache_clear()
    svg._lines.cache_clear()
    svg._RUNS._kept.clear()
    fresh = [svg.page_svg(scene, 0, view=v) for v in cut]
    assert svg.page_views(scene, 0, cut) == fresh  # everything kept now
    mixed = [copied(it) if rnd.random() < 0.5 else it for it in some]
    assert svg.page_views(S.Scene([S.Page(210.0, 297.0, mixed)], {}, "t"), 0, cut) == fresh


def test_svg_memo_full_forgets_and_writes_the_same(monkeypatch):
    monkeypatch.setattr(svg, "_MOST_BY_ITEM", 3)
    rnd = random.Random(3)
    some = [S.Rect(rnd.uniform(0, 100), rnd.uniform(0, 100), 5.0, 5.0) for _ in range(20)]
    scene = S.Scene([S.Page(210.0, 297.0, some)], {}, "t")
    first = svg.page_svg(scene, 0, view=(0, 0, 60, 60))
    assert len(svg._BY_ITEM) <= 3
    assert svg.page_svg(scene, 0, view=(0, 0, 60, 60)) == first


def test_kept_items_are_the_items_of_those_values():
    a = S.kept(S.Text, 1.0, 2.0, "3", size=6.0, anchor="middle")
    assert a is S.kept(S.Text, 1.0, 2.0, "3", size=6.0, anchor="middle")
    assert a == S.Text(1.0, 2.0, "3", size=6.0, anchor="middle")
    assert S.kept(S.Text, 1.0, 2.0, "1") != S.kept(S.Text, 1.0, 2.0, "True")


# --- a list's rows kept as HTML -----------------------------------------------------------

scalars = st.one_of(st.integers(-3, 3), st.booleans(), st.sampled_from([1.0, 0.0, -0.0, 2.5]), st.none(),
                    st.sampled_from(["", "1", "True", "a<b", "é"]))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=3), st.tuples(inner, inner),
                                                        st.dictionaries(st.sampled_from(["a", "b"]), inner, max_size=2)),
                      max_leaves=6)
rows = st.lists(st.fixed_dictionaries({"n": st.integers(1, 99), "text": values, "findings": st.lists(values, max_size=2)}),
                max_size=8)


def environment():
    from jinja2 import Environment

    from sheetkit.web.rows import kept_rows

    env = Environment(autoescape=True)
    env.globals["kept_rows"] = kept_rows
    kept = env.from_string('{% call(m) kept_rows("moves", moves, pid, fix) %}<li value="{{ m.n }}" '
                           'class="{{ \'bad\' if m.findings }}">{{ m.text }} {{ t(m.n) }} <a>{{ fix }}</a>'
                           '</li>{% endcall %}')
    fresh = env.from_string('{% for m in moves %}<li value="{{ m.n }}" class="{{ \'bad\' if m.findings }}">'
                            '{{ m.text }} {{ t(m.n) }} <a>{{ fix }}</a></li>{% endfor %}')
    return kept, fresh


@examples(200)
@given(rows, st.sampled_from(["en", "es"]), st.integers(1, 3), st.sampled_from(["Fix", "Corregir", "<b>"]))
def test_rows_kept_are_the_rows_rendered_from_nothing(some, lang, pid, fix):
    """Rows whose values compare equal but show apart (1, 1.0, true; a list and a tuple),
    in two languages (a word of the row in each), rendered twice: as the loop renders them."""
    kept, fresh = environment()
    words = {"en": lambda n: f"move {n}", "es": lambda n: f"jugada {n}"}[lang]
    context = {"moves": some, "pid": pid, "fix": fix, "lang": lang, "t": words}
    want = fresh.render(**context)
    assert kept.render(**context) == want
    assert kept.render(**context) == want


def test_a_row_holding_an_object_is_rendered_each_time():
    kept, fresh = environment()

    class Counter:
        n = 0

        def __str__(self):
            Counter.n += 1
            return str(Counter.n)

    context = {"moves": [{"n": 1, "text": Counter(), "findings": []}], "pid": 1, "fix": "Fix", "lang": "en",
               "t": lambda n: ""}
    assert kept.render(**context) != kept.render(**context)


# --- memo.plain: a key per data ------------------------------------------------------------

def typed(v):
    """The reference: every value with its type, all the way down."""
    if isinstance(v, dict):
        return ("dict", tuple((k, typed(x)) for k, x in v.items()))
    if isinstance(v, (list, tuple)):
        return (type(v).__name__, tuple(typed(x) for x in v))
    return (type(v).__name__, repr(v))


@examples(500)
@given(values, values)
def test_plain_keys_are_equal_for_the_same_data_only(a, b):
    assert (plain(a) == plain(b)) == (typed(a) == typed(b))
    assert plain(a) is not NOT_PLAIN


def test_plain_refuses_what_is_not_plain_data():
    import datetime

    assert plain(datetime.date(2026, 1, 1)) is NOT_PLAIN
    assert plain({"a": [object()]}) is NOT_PLAIN


# --- a record's turns read once -----------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_yuncos_record_read_with_its_turns_kept_is_the_record_read_from_nothing(seed):
    """Every prefix of a random player's game, read with its turns' tables kept (as the page
    reads its records) and read from nothing: the very same record."""
    import tomllib

    from sheetkit import layouts
    from sheetkit.games.yuncos.play import play
    from sheetkit.games.yuncos.record import read_record

    level = ("yuncos-easy", "yuncos-hard")[seed % 2]
    data = tomllib.loads(play(layouts.load(level), random.Random(seed), max_turns=25).toml)
    for k in range(len(data["turn"]) + 1):
        part = {**data, "turn": data["turn"][:k], "in_progress": True}
        fresh = read_record(part, "t.toml")
        with unchanged_data():
            assert read_record(part, "t.toml") == fresh
            assert read_record(part, "t.toml") == fresh  # its turns kept now


@pytest.mark.parametrize("seed", range(6))
def test_levelx_record_read_with_its_turns_kept_is_the_record_read_from_nothing(seed):
    from sheetkit.games.levelx.play import random_game
    from sheetkit.games.levelx.record import read_record

    data = random_game(random.Random(seed), ["Ana", "Ben", "Cleo"][:2 + seed % 2], 0.4)[0]
    for k in range(len(data["turn"]) + 1):
        part = {**data, "turn": data["turn"][:k], "in_progress": True}
        fresh = read_record(part, "t.toml")
        with unchanged_data():
            for _ in range(2):  # the turns read from nothing, then kept
                got = read_record(part, "t.toml")
                assert got == fresh and got.model_fields_set == fresh.model_fields_set
                assert got.board_spec == fresh.board_spec


def test_levelx_record_with_a_stranger_past_the_first_turn_says_so_as_always():
    """A turn played by someone who is not a player, past the first turn: the same refusal,
    kept turns or not."""
    from sheetkit.errors import UserError
    from sheetkit.games.levelx.record import read_record

    turn = {"dice": [1, 2, 3, 4], "groups": [[1, 2], [3, 4]]}
    data = {"game": "levelx", "kind": "game", "players": ["Ana", "Ben"], "in_progress": True,
            "turn": [dict(turn, player="Ana"), dict(turn, player="Ben"), dict(turn, player="Zoe")]}
    with pytest.raises(UserError) as fresh:
        read_record(data, "t.toml")
    with unchanged_data(), pytest.raises(UserError) as kept:
        read_record(data, "t.toml")
    assert kept.value.line("en") == fresh.value.line("en")
