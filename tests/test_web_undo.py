"""Undo on the phone page gives back exactly the play as it was before the move, in every
game: through the real app on a real history file, random moves (legal, illegal, and
values that are no move at all) and undos in any order, the stored record texts and
verdicts compared byte for byte with those stored before the move. The moves come from the
page's own form fields and the game's geometry, never from the engine's legal moves.

A move the page takes (303) changes the stored play; a value that is no move (400) leaves
it exactly as it was, with one message; undo with nothing to undo is one message and
changes nothing; after the end (chosen, or a Yuncos table the rules ended) undo is refused
with one message and the finished play stays as it is."""

from __future__ import annotations

import io
import json
import tomllib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheetkit import layouts
from sheetkit.grid import square_name
from sheetkit.history import Store
from sheetkit.games.iunu import entry as I
from sheetkit.web.app import create_app

from test_web import Client
from test_web_play_iunu import DECK_FORM
from test_web_plays import EXAMPLES, start_play


def examples(n: int):
    """Each property runs within ~20 s with `-n 0`: every example is a whole play through
    the app (one history file per test, a new play each example)."""
    return settings(max_examples=n, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


NAMES = ["Ana", "Ben", "Cleo", "Dani"]
UNDO = "undo"


def spoiled(good, bad: dict[str, list[str]]):
    """A move's form: `good` values (legal or not), and now and then one field spoiled with a
    value that is no move at all (the page refuses it)."""
    spoils = [(k, v) for k, vs in bad.items() for v in vs]
    return st.tuples(good, st.integers(0, 4), st.sampled_from(spoils)).map(
        lambda g: {**g[0], g[2][0]: g[2][1]} if g[1] == 1 else g[0])


def face():
    return st.integers(1, 6).map(str)


class OnePlay:
    """A play on the page, posted to as the page's forms post (the play's version in each),
    and read back from the history file."""

    def __init__(self, phone, db, start: dict):
        self.phone, self.db = phone, db
        self.pid = start_play(phone, start)

    def stored(self):
        """The play as the history keeps it: each sheet's text and verdict (as JSON), and the
        flags and seats drawn from them."""
        with Store.open(self.db) as store:
            play = store.get(self.pid)
        sheets = tuple((s.text, json.dumps(s.verdict, sort_keys=True, ensure_ascii=False)) for s in play.sheets)
        return sheets, play.in_progress, play.legal, play.seats, play.version

    def post(self, what: str, form: dict):
        return self.phone.post(f"/play/{self.pid}/{what}", {"version": self.stored()[-1], **form})


def one_message(page, code: int) -> None:
    assert page.code == code, (page.code, page.text[:1500])
    assert page.error and "Traceback" not in page.text


def play_and_undo(play: OnePlay, actions: list, form_of, end: bool) -> int:
    """Play the actions (a move's form data, or UNDO) keeping the play as stored after each
    move; every undo gives back the one before; at the end either undo all the way back
    (and once more: nothing to undo) or finish and find undo refused. The moves taken."""
    kept = [play.stored()]
    taken = 0

    def undo():
        page = play.post("undo", {})
        if len(kept) > 1:
            assert page.code == 303, (page.code, page.error)
            kept.pop()
        else:
            one_message(page, 400)
        assert play.stored() == kept[-1]

    for act in actions:
        if act == UNDO:
            undo()
            continue
        page = play.post("move", form_of(act, play))
        now = play.stored()
        if page.code == 303:
            assert now[0] != kept[-1][0]  # a move taken is a change of the record
            kept.append(now)
            taken += 1
            if not now[1]:  # the rules ended the game (a Yuncos table): nothing more to enter or undo
                one_message(play.post("undo", {}), 409)
                assert play.stored() == now
                return taken
        else:
            one_message(page, 400)
            assert now == kept[-1]
    if end:
        page = play.post("end", {})
        if page.code == 303:
            done = play.stored()
            assert not done[1]
            one_message(play.post("undo", {}), 409)
            assert play.stored() == done
            return taken
        one_message(page, 400)  # a Yuncos table with no move entered is not ended
        assert play.stored() == kept[-1]
    while len(kept) > 1:
        undo()
    undo()  # nothing left to undo: one message, nothing changed
    return taken


def actions(moves):
    return st.lists(st.one_of(moves, moves, st.just(UNDO)), min_size=2, max_size=16)


# --- Glüx: a placement is a letter, a face and a square of the board (or the start) -------

def glux_moves(variant: str, n: int):
    side = layouts.load(f"glux-board-{variant}").spec
    square = st.builds(lambda c, r: square_name((c, r)), st.integers(0, side.width - 1), st.integers(0, side.height - 1))
    good = st.fixed_dictionaries({"player": st.sampled_from("ABCD"[:n]), "face": face(), "square": square,
                                  "action": st.sampled_from(["place"] * 5 + ["start"])})
    return spoiled(good, {"player": ["", "E", "a"], "face": ["", "0", "7", "x"], "square": ["", "Z99", "A0", "b-3"],
                          "action": ["jump"]})


@st.composite
def glux_plays(draw):
    variant, n = draw(st.sampled_from([("34p", 3), ("34p", 4), ("2p", 2)]))
    start = {"game": "glux", "variant": variant, "first": "0",
             **{f"name{i}": NAMES[i] for i in range(n)}, **{f"start_chip{i}": draw(face()) for i in range(n)}}
    return start, draw(actions(glux_moves(variant, n))), draw(st.booleans())


@examples(16)
@given(glux_plays())
def test_glux_undo_gives_back_exactly_the_play_before(tmp_path, case):
    start, acts, end = case
    phone = Client(create_app(db=tmp_path / "h.sqlite3"))
    play_and_undo(OnePlay(phone, tmp_path / "h.sqlite3", start), acts, lambda form, _: form, end)


# --- Level X: four dice and the group each was tapped into --------------------------------

def levelx_moves(n: int):
    good = st.fixed_dictionaries({**{f"die{i}": face() for i in range(4)},
                                  **{f"group{i}": st.sampled_from(["A", "B", "C", "D", "-"]) for i in range(4)},
                                  "player": st.sampled_from([""] * 4 + NAMES[:n])})
    return spoiled(good, {"die0": ["", "0", "7", "x"], "group2": ["E", ""], "player": ["Zoe"],
                          **{f"group{i}": ["-"] for i in range(4)}})  # every die left out: no group at all


@st.composite
def levelx_plays(draw):
    n = draw(st.integers(2, 4))
    start = {"game": "levelx", "first": "0", **{f"name{i}": NAMES[i] for i in range(n)}}
    return start, draw(actions(levelx_moves(n))), draw(st.booleans())


@examples(25)
@given(levelx_plays())
def test_levelx_undo_gives_back_exactly_the_play_before(tmp_path, case):
    start, acts, end = case
    phone = Client(create_app(db=tmp_path / "h.sqlite3"))
    play_and_undo(OnePlay(phone, tmp_path / "h.sqlite3", start), acts, lambda form, _: form, end)


# --- Yuncos: a flight drawn on the map, a box of a puzzle, the dice, abilities, the start --

STEPS = ["N", "S", "E", "W", "NE", "NW", "SE", "SW", "2E", "2N", "3W", "EEN"]


def yuncos_moves(level: str):
    spec = layouts.load(level).spec
    cells = ["nest1", "nest2"] + [f"lum{c + 1}" for c in range(spec.luminaries.columns)]
    good = st.fixed_dictionaries({
        "flight": st.lists(st.sampled_from(STEPS), min_size=1, max_size=4).map(" ".join),
        "puzzle": st.sampled_from(cells + ["crash"]), "value": face(), "die1": face(), "die2": face(),
        "plusminus": st.sampled_from(["0", "0", "1", "2"]), "yunco": st.sampled_from(["0", "0", "1"]),
        # the start point, read at a player's first turn only
        "start": st.sampled_from([""] + [str(s) for s in sorted(spec.board.starts)]),
    })
    return spoiled(good, {"flight": ["", "Q", "3", "13E"], "puzzle": ["", "lum9", "nest3"], "value": ["", "7"],
                          "plusminus": ["4"], "yunco": ["-1"], "start": ["99"]})


@st.composite
def yuncos_plays(draw):
    level = draw(st.sampled_from(["yuncos-easy", "yuncos-hard"]))
    n = draw(st.integers(1, 3))
    start = {"game": "yuncos", "variant": level, "first": "0", **{f"name{i}": NAMES[i] for i in range(n)}}
    return start, draw(actions(yuncos_moves(level))), draw(st.booleans())


@examples(12)
@given(yuncos_plays())
def test_yuncos_undo_gives_back_exactly_the_play_before(tmp_path, case):
    start, acts, end = case
    phone = Client(create_app(db=tmp_path / "h.sqlite3"))
    play_and_undo(OnePlay(phone, tmp_path / "h.sqlite3", start), acts, lambda form, _: form, end)


# --- IUNU: each player's count on the end-of-game form, as the page shows it -------------

IUNU_START = {"game": "iunu", "name0": "Ana", "name1": "Ben", "name2": "Cleo", "first": "1",
              I.DECK_NAME: "Club copy", **DECK_FORM}
IUNU_FIELDS = ["deben"] + [f"{k}_{c}" for k in ("cards", "fed") for c in I.CASTES]
AFTER = [f"after{j}_{k}" for j in range(I.AFTERLIFE_SLOTS) for k in ("caste", "mult")]


def iunu_typing():
    """What is typed before a Save: a few (which player, counted from the next one to save;
    field; value), now and then a value that cannot be counted."""
    typed = st.one_of(st.tuples(st.sampled_from(IUNU_FIELDS), st.integers(0, 9).map(str)),
                      st.tuples(st.sampled_from([a for a in AFTER if a.endswith("caste")]),
                                st.sampled_from(I.CASTES)),
                      st.tuples(st.sampled_from([a for a in AFTER if a.endswith("mult")]), st.integers(1, 3).map(str)))
    bad = st.tuples(st.sampled_from([0, 1]), st.tuples(st.sampled_from(IUNU_FIELDS + AFTER),
                                                       st.sampled_from(["x", "-1", "1e3", "king"])))
    good = st.lists(st.tuples(st.sampled_from([0, 0, 0, 1, -1]), typed), min_size=1, max_size=4)
    return st.tuples(good, st.integers(0, 4), bad).map(lambda g: g[0] + [g[2]] if g[1] == 1 else g[0])


def iunu_form(typing, play: OnePlay) -> dict:
    """The page's form as it is shown (every player's fields, the saved values in them), with
    the typing done on it."""
    page = play.phone.get(f"/play/{play.pid}")
    assert page.code == 200
    n = len(play.stored()[3])
    form = {}
    for i in range(n):
        for f in IUNU_FIELDS + AFTER:
            name = f"p{i}_{f}"
            form[name] = (page.selected(name) if f.endswith("caste") else page.value(name)) or ""
    nxt = sum(f'id="saved{i}"' in page.text for i in range(n))
    for rel, (field, value) in typing:
        form[f"p{min(max(nxt + rel, 0), n - 1)}_{field}"] = value
    return form


@st.composite
def iunu_plays(draw):
    return IUNU_START, draw(actions(iunu_typing())), draw(st.booleans())


@examples(30)
@given(iunu_plays())
def test_iunu_undo_gives_back_exactly_the_play_before(tmp_path, case):
    start, acts, end = case
    phone = Client(create_app(db=tmp_path / "h.sqlite3"))
    play_and_undo(OnePlay(phone, tmp_path / "h.sqlite3", start), acts, iunu_form, end)


# --- the cases found, each on its own ---------------------------------------------------

def stored_texts(db, pid) -> list[str]:
    with Store.open(db) as store:
        return [s.text for s in store.get(pid).sheets]


def test_iunu_undo_takes_back_the_last_count_saved_and_keeps_the_ones_before(tmp_path):
    """Undo used to put every player back to 0, the counts saved before included; ending the
    play then stored their 0 points as a legal result."""
    db = tmp_path / "h.sqlite3"
    play = OnePlay(Client(create_app(db=db)), db, IUNU_START)
    blank = play.stored()
    assert play.post("move", {"p0_deben": "7", "p0_cards_noble": "2"}).code == 303  # Ben's count
    bens = play.stored()
    assert play.post("move", {"p0_deben": "7", "p0_cards_noble": "2", "p1_deben": "4"}).code == 303  # Cleo's
    page = play.phone.get(f"/play/{play.pid}")
    assert page.find("saved0") == "(saved)" and page.find("saved1") == "(saved)" and page.find("saved2") is None
    assert play.post("undo", {}).code == 303
    assert play.stored() == bens  # Cleo's count taken back, Ben's as it was saved
    assert play.post("undo", {}).code == 303
    assert play.stored() == blank
    one_message(play.post("undo", {}), 400)
    assert play.stored() == blank
    # Ben's count again, then the page's End: his points are the ones saved
    assert play.post("move", {"p0_deben": "7", "p0_cards_noble": "2"}).code == 303
    assert play.post("end", {}).code == 303
    with Store.open(db) as store:
        seats = {s.name: s.score for s in store.get(play.pid).seats}
    assert seats["Ben"] > 0 and seats["Cleo"] == seats["Ana"] == 0
    done = play.stored()
    page = play.post("undo", {})  # after the end: refused, the finished play as it is
    one_message(page, 409)
    assert "over" in page.error and play.stored() == done


@pytest.mark.parametrize("form, words", [
    ({"p0_deben": "8", "p1_deben": "4"}, "Ben's count is saved already"),  # a saved count changed
    ({"p2_deben": "3"}, "order shown: Cleo's next"),  # Ana's typed before Cleo's
    ({"p1_deben": "4", "p2_deben": "3"}, "one at a time"),  # two counts: one undo could not take back both
    ({}, "Nothing new to save: type Cleo's count"),
])
def test_iunu_a_save_that_could_not_be_undone_exactly_is_one_message_nothing_saved(tmp_path, form, words):
    db = tmp_path / "h.sqlite3"
    play = OnePlay(Client(create_app(db=db)), db, IUNU_START)
    assert play.post("move", {"p0_deben": "7"}).code == 303
    before = play.stored()
    page = play.post("move", {"p0_deben": "7", **form})
    one_message(page, 400)
    assert words in page.error
    assert play.stored() == before


def test_iunu_a_count_of_nothing_is_saved_and_undone_like_any_other(tmp_path):
    db = tmp_path / "h.sqlite3"
    play = OnePlay(Client(create_app(db=db)), db, IUNU_START)
    blank = play.stored()
    assert play.post("move", {"p0_deben": "0"}).code == 303  # Ben ends with nothing: still his count
    assert I.saved(tomllib.loads(stored_texts(db, play.pid)[0])) == 1
    assert play.post("undo", {}).code == 303
    assert play.stored() == blank


def test_levelx_undo_of_the_only_turn_gives_back_the_blank_record_text(tmp_path):
    """Undo used to move `in_progress` after `turn = []`: another text, another version."""
    db = tmp_path / "h.sqlite3"
    play = OnePlay(Client(create_app(db=db)), db, {"game": "levelx", "name0": "Ana", "name1": "Ben", "first": "0"})
    blank = play.stored()
    assert play.post("move", {"die0": "3", "die1": "4", "die2": "5", "die3": "1"}).code == 303
    assert play.post("undo", {}).code == 303
    assert play.stored() == blank


def test_yuncos_undo_of_a_first_turn_gives_back_the_start_point(tmp_path):
    """Undo used to keep the start point tapped at the sheet's first turn."""
    db = tmp_path / "h.sqlite3"
    play = OnePlay(Client(create_app(db=db)), db, {"game": "yuncos", "variant": "yuncos-easy", "name0": "Ana",
                                                   "name1": "Bea", "first": "0"})
    blank = play.stored()
    turn = {"flight": "E E", "puzzle": "nest1", "value": "3", "die1": "2", "die2": "4", "plusminus": "1", "start": "3"}
    assert play.post("move", turn).code == 303
    assert tomllib.loads(stored_texts(db, play.pid)[0])["start"] == 3
    one = play.stored()
    assert play.post("move", {**turn, "start": "4"}).code == 303  # Bea's first turn, the same dice
    assert play.post("undo", {}).code == 303
    assert play.stored() == one  # Bea's sheet blank again, Ana's turn and start kept
    assert play.post("undo", {}).code == 303
    assert play.stored() == blank


def test_glux_undo_in_an_uploaded_record_keeps_its_comments(tmp_path):
    """A placement added used to rewrite the uploaded lines without their comments, so undo
    gave back another record."""
    db = tmp_path / "h.sqlite3"
    phone = Client(create_app(db=db))
    text = (EXAMPLES / "glux-game-3p.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    lines = data["moves"].strip().splitlines()
    data["in_progress"] = True
    data["moves"] = "# the first round\n" + "\n".join(lines[:3]) + "  # Ana thought long\n\n# and on"  # no last newline
    from sheetkit.tomlfile import dump_toml

    page = phone.post("/play/open", {"record": (io.BytesIO(dump_toml(data).encode("utf-8")), "game.toml")},
                      content_type="multipart/form-data")
    assert page.code == 303, page.text[:2000]
    pid = int(page.resp.headers["Location"].rsplit("/", 1)[1])
    play = OnePlay.__new__(OnePlay)
    play.phone, play.db, play.pid = phone, db, pid
    opened = play.stored()
    p = lines[3].split()
    assert play.post("move", {"player": p[0], "face": p[2], "square": p[1].split("-")[-1], "action": "place"}).code == 303
    assert "# Ana thought long" in tomllib.loads(stored_texts(db, pid)[0])["moves"]
    assert play.post("undo", {}).code == 303
    assert play.stored() == opened
    assert play.post("undo", {}).code == 303  # the last placement of the upload: its line alone goes
    moves = tomllib.loads(stored_texts(db, pid)[0])["moves"]
    assert moves.splitlines() == ["# the first round", *lines[:2], "", "# and on"]
