"""Fixing an earlier move on the phone page (GET|POST /play/<id>/fix/<n>), through Flask's
test client on a real history file, for Glüx, Level X and Yuncos: the fix form prefilled,
"Check" saves nothing (byte for byte) and flags the later moves that no longer fit, "Save
the fix" is one step (the stored record is the record with that move replaced by hand, and
`sheetkit check` of the download agrees), a stale version is 409, a move number that is no
move is 404. And the one way a game ends: a Glüx game played to G10 and a Level X game to
its final round end by themselves, with the reason."""

from __future__ import annotations

import copy
import json
import random
import re
import tomllib

import pytest

from sheetkit.forms import Words
from sheetkit.games.glux import entry as G
from sheetkit.games.levelx import entry as L
from sheetkit.games.levelx.play import random_game
from sheetkit.history import Store
from sheetkit.web import plays
from sheetkit.web.app import create_app

from conftest import sheetkit
from test_web import Client
from test_web_play_levelx import form_of as lx_form
from test_web_plays import START as GLUX, placements, start_play, step

t = Words("en")
LEVELX = {"game": "levelx", "name0": "Ana", "name1": "Ben", "first": "0"}
YUNCOS = {"game": "yuncos", "variant": "yuncos-easy", "name0": "Ana", "name1": "Bea", "first": "0"}


@pytest.fixture
def db(tmp_path):
    return tmp_path / "h.sqlite3"


@pytest.fixture
def phone(db):
    return Client(create_app(db=db))


def stored(db, pid):
    with Store.open(db) as store:
        play = store.get(pid)
    return [(s.text, json.dumps(s.verdict, sort_keys=True)) for s in play.sheets], play.in_progress, play.version


def records(db, pid):
    with Store.open(db) as store:
        return plays.records_of(store.get(pid))


def fix_page(phone, pid, n):
    page = phone.get(f"/play/{pid}/fix/{n}")
    assert page.code == 200, page.text[:2000]
    return page


def check_fix(phone, pid, n, form):
    page = fix_page(phone, pid, n)
    version = page.hidden(f"/play/{pid}/fix/{n}", "version")
    return phone.post(f"/play/{pid}/fix/{n}", {"version": version, **form})


def save_fix(phone, checked, pid, n):
    """The "Save the fix" form of a checked fix, posted as the page has it."""
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">',
                             re.search(r'id="fix-save-form">(.*?)</form>', checked.text, re.S).group(1)))
    import html
    return phone.post(f"/play/{pid}/fix/{n}/save", {k: html.unescape(v) for k, v in fields.items()})


def fixed_by_hand(entry, db, pid, n, form):
    """The records with move n replaced, made by the game's own function on the stored play."""
    with Store.open(db) as store:
        position = plays.check(store.get(pid).game, plays.records_of(store.get(pid)), pid)
    return entry.replace_move(position, n, form, t)


def flagged_alternative(entry, game, db, pid, n, candidates):
    """A form for move n among `candidates` whose check flags a later move (and the later
    moves' numbers), else the first that checks at all."""
    with Store.open(db) as store:
        position = plays.check(game, plays.records_of(store.get(pid)), pid)
    before = {m["n"]: m["findings"] for m in entry.moves(position, t)}
    first = None
    for form in candidates:
        try:
            new = plays.check(game, entry.replace_move(position, n, form, t), pid)
        except Exception:
            continue
        later = [m["n"] for m in entry.moves(new, t) if m["n"] > n and m["findings"] != before.get(m["n"])
                 and m["findings"]]
        if later:
            return form, later
        first = first or (form, [])
    return first


def the_fix_round_trip(phone, db, pid, n, form, entry, later, tmp_path):
    """Check (nothing saved, later moves flagged), cancel, stale save (409), save, download."""
    before = stored(db, pid)
    page = check_fix(phone, pid, n, form)
    assert page.code == 200, page.error
    assert page.find("fix-status") is not None
    for k in later:
        assert f'id="later-{k}"' in page.text, page.text[:3000]
    if not later:
        assert 'id="fix-later-none"' in page.text
    assert stored(db, pid) == before  # Check saves nothing
    cancel = re.search(r'href="([^"]+)" id="fix-cancel"', page.text).group(1)
    assert phone.get(cancel).code == 200 and stored(db, pid) == before
    stale = phone.post(f"/play/{pid}/fix/{n}/save", {"version": "0" * 64, **form})
    assert stale.code == 409 and stale.error and stored(db, pid) == before
    want = fixed_by_hand(entry, db, pid, n, form)
    saved = save_fix(phone, page, pid, n)
    assert saved.code == 303, saved.error
    assert records(db, pid) == want
    texts = stored(db, pid)[0]
    assert [x for x, _ in texts] == [plays.text_of(d) for _, d in want]
    for i, (text, verdict) in enumerate(texts, 1):  # `sheetkit check` of the download says what was stored
        path = tmp_path / f"fixed-{i}.toml"
        path.write_bytes(phone.c.get(f"/play/{pid}/record/{i}").get_data())
        run = sheetkit("check", path.name, "--json", cwd=tmp_path)
        got = json.loads(run.out)[0]
        assert got["legal"] == json.loads(verdict)["legal"]
        assert [f["rule"] for f in got["findings"]] == [f["rule"] for f in json.loads(verdict)["findings"]]


def hostile(phone, db, pid, count):
    before = stored(db, pid)
    for n in (0, count + 1, 10 ** 30):
        assert phone.get(f"/play/{pid}/fix/{n}").code == 404, n
        assert phone.post(f"/play/{pid}/fix/{n}", {"version": before[2]}).code == 404, n
        assert phone.post(f"/play/{pid}/fix/{n}/save", {"version": before[2]}).code == 404, n
    assert phone.get(f"/play/{pid}/fix/-1").code == 404
    assert phone.get(f"/play/{pid}/fix/x").code == 404
    assert stored(db, pid) == before


# --- Glüx ---------------------------------------------------------------------------------

def test_glux_fix_an_early_placement(phone, db, tmp_path):
    pid = start_play(phone, GLUX)
    for form in placements()[:7]:
        assert step(phone, pid, "move", form).code == 303
    entry = phone.get(f"/play/{pid}")
    assert all(f'id="fix-{k}"' in entry.text for k in range(1, 8))
    page = fix_page(phone, pid, 2)
    first = placements()[1]
    assert f'value="{first["face"]}" id="face-{first["face"]}" checked' in page.text  # prefilled
    n = 2
    cols, rows = "ABCDEFGHIJ", range(1, 11)
    candidates = [{"player": first["player"], "face": str(f), "square": f"{c}{r}", "action": "place"}
                  for f in range(1, 7) for c in cols for r in rows]
    form, later = flagged_alternative(G, "glux", db, pid, n, candidates)
    assert later  # a placement fixed so that a later one no longer fits
    the_fix_round_trip(phone, db, pid, n, form, G, later, tmp_path)
    hostile(phone, db, pid, 7)
    bad = check_fix(phone, pid, 1, {"player": "Z", "face": "3", "square": "A1", "action": "place"})
    assert bad.code == 400 and bad.error  # a value that is no move: one message


def test_glux_played_to_g10_ends_by_itself_with_the_reason(phone, db):
    pid = start_play(phone, GLUX)
    for form in placements():
        assert step(phone, pid, "move", form).code == 303
    _, in_progress, _ = stored(db, pid)
    assert not in_progress  # finished in the step of the last placement
    assert "in_progress" not in records(db, pid)[0][1]
    assert phone.get(f"/play/{pid}").resp.headers["Location"] == f"/play/{pid}/end"
    position = plays.check("glux", records(db, pid), pid)
    assert G.view(position, t, "en", {})["ended"] == "Nobody can place a chip any more (G10)."
    end = phone.get(f"/play/{pid}/end")  # the end page says why, and shows the final board
    assert end.find("end-reason") == "Nobody can place a chip any more (G10)." and 'id="final"' in end.text
    assert phone.post(f"/play/{pid}/undo", {"version": stored(db, pid)[2]}).code == 409
    assert phone.get(f"/play/{pid}/fix/1").code == 303  # nothing to fix after the end: its end page


def test_glux_stopped_early_gives_no_reason(phone, db):
    pid = start_play(phone, GLUX)
    assert step(phone, pid, "move", placements()[0]).code == 303
    assert step(phone, pid, "end").code == 303
    assert G.view(plays.check("glux", records(db, pid), pid), t, "en", {})["ended"] is None
    assert phone.get(f"/play/{pid}/end").find("end-reason") is None


# --- Level X ------------------------------------------------------------------------------

def test_levelx_fix_an_early_turn(phone, db, tmp_path):
    record, _ = random_game(random.Random(5), ["Ana", "Ben"], 1.0)
    pid = start_play(phone, LEVELX)
    for turn in record["turn"][:6]:
        assert step(phone, pid, "move", lx_form(turn)).code == 303
    page = fix_page(phone, pid, 1)
    want = L.form_of_turn(record["turn"][0])
    for i in range(4):
        assert f'value="{want[f"die{i}"]}" checked' in page.text
    candidates = [{"die0": str(a), "die1": str(b), "die2": "1", "die3": "1", "player": p}
                  for a in range(1, 7) for b in range(1, 7) for p in ("Ana", "Ben")]
    form, later = flagged_alternative(L, "levelx", db, pid, 2, candidates)
    the_fix_round_trip(phone, db, pid, 2, form, L, later, tmp_path)
    hostile(phone, db, pid, 6)


def test_levelx_a_turn_fixed_out_of_turn_is_flagged(phone, db):
    record, _ = random_game(random.Random(5), ["Ana", "Ben"], 1.0)
    pid = start_play(phone, LEVELX)
    for turn in record["turn"][:4]:
        assert step(phone, pid, "move", lx_form(turn)).code == 303
    page = check_fix(phone, pid, 1, {**L.form_of_turn(record["turn"][0]), "player": "Ben"})
    assert page.code == 200 and "L8" in page.text


def test_levelx_played_to_its_final_round_ends_by_itself_with_the_reason(phone, db):
    record, _ = random_game(random.Random(19), ["Ana", "Ben"], 1.0)
    pid = start_play(phone, LEVELX)
    for turn in record["turn"]:
        assert step(phone, pid, "move", lx_form(turn)).code == 303
    assert not stored(db, pid)[1]
    assert phone.get(f"/play/{pid}").resp.headers["Location"] == f"/play/{pid}/end"
    ended = L.view(plays.check("levelx", records(db, pid), pid), t, "en", {})["ended"]
    assert ended and "(L8)" in ended and "final round" in ended
    assert phone.get(f"/play/{pid}/end").find("end-reason") == ended
    assert phone.post(f"/play/{pid}/undo", {"version": stored(db, pid)[2]}).code == 409


# --- Yuncos -------------------------------------------------------------------------------

YU_TURN = {"flight": "E E", "puzzle": "nest1", "value": "3", "die1": "2", "die2": "4", "start": "3"}


def test_yuncos_fix_an_early_turn_flags_the_later_sheet(phone, db, tmp_path):
    from sheetkit.games.yuncos import entry as Y

    pid = start_play(phone, YUNCOS)
    turns = [YU_TURN, {**YU_TURN, "start": "4", "flight": "N"}, {"flight": "E", "puzzle": "nest1", "value": "4",
                                                                  "die1": "1", "die2": "5"},
             {"flight": "S", "puzzle": "nest2", "value": "5"}]
    for form in turns:
        assert step(phone, pid, "move", form).code == 303, form
    entry = phone.get(f"/play/{pid}")
    assert all(f'id="fix-{k}"' in entry.text for k in range(1, 5))
    page = fix_page(phone, pid, 1)
    assert page.value("flight") == "E E"
    # Ana's dice of turn 1 fixed: Bea's sheet of that turn no longer has the table's dice
    form = {**YU_TURN, "die1": "6", "die2": "6"}
    the_fix_round_trip(phone, db, pid, 1, form, Y, [2], tmp_path)
    hostile(phone, db, pid, 4)
