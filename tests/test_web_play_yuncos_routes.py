"""Yuncos plays through the page's routes with Flask's test client: a whole 2-player game
entered move by move (the random player's, with its own scores), the downloads against
`sheetkit check`, a wrong move with its finding, undo, hostile form values, the token and
cross-site posts. The browser test (test_web_browser_yuncos.py) plays one by taps."""

from __future__ import annotations

import json
import random
import re
import tomllib

import pytest

from sheetkit import layouts
from sheetkit.games.yuncos.play import play_table
from sheetkit.history import Store
from sheetkit.web.app import create_app

from conftest import sheetkit
from test_web import Client, assert_clear_error
from test_web_play_yuncos import move_form
from test_web_plays import db, phone, start_play, step  # noqa: F401 (fixtures)

START = {"game": "yuncos", "variant": "yuncos-easy", "name0": "Ana", "name1": "Bea", "first": "0"}


def start(phone, **changes) -> int:
    return start_play(phone, {k: v for k, v in {**START, **changes}.items() if v is not None})


def game(seed=91):
    return play_table(layouts.load("yuncos-easy"), random.Random(seed), players=2, home_after=3)


def enter_all(phone, pid, games):
    spec = layouts.load("yuncos-easy").spec
    for n in range(max(len(g.record["turn"]) for g in games)):
        first = True
        for g in games:
            if n < len(g.record["turn"]):
                form = move_form(g.record["turn"][n], spec, first, g.record["start"] if n == 0 else None)
                page = step(phone, pid, "move", form)
                assert page.code == 303, (n, page.error)
                first = False


def test_a_whole_table_entered_on_the_page_is_saved_and_downloads_check_the_same(phone, db, tmp_path):
    games = game()
    pid = start(phone)
    page = phone.get(f"/play/{pid}")
    assert page.find("heading") == "Turn 1: Ana" and 'id="die1-1"' in page.text and 'id="yu-map"' in page.text
    enter_all(phone, pid, games)
    # the rules ended the game: the play is finished and its page is the end page
    assert phone.get(f"/play/{pid}").resp.headers["Location"] == f"/play/{pid}/end"
    end = phone.get(f"/play/{pid}/end")
    assert end.code == 200
    totals = [g.total for g in games]
    best = max(t for t, g in zip(totals, games) if not g.eliminated)
    winners = [n for n, t in zip(("Ana", "Bea"), totals) if t == best]
    assert end.find("end-winners") == f"Winner: {', '.join(winners)}"
    with Store.open(db) as store:
        play = store.get(pid)
        assert play.legal and not play.in_progress and play.winners == winners
        assert [(s.name, s.score) for s in play.seats] == list(zip(("Ana", "Bea"), totals))
        texts = [s.text for s in play.sheets]
    # each sheet as stored, and the table record naming them: `sheetkit check` agrees
    names = []
    for n in (1, 2):
        got = phone.c.get(f"/play/{pid}/record/{n}")
        name = re.search(r'filename="([^"]+)"', got.headers["Content-Disposition"]).group(1)
        assert got.get_data(as_text=True) == texts[n - 1]
        (tmp_path / name).write_bytes(got.get_data())
        names.append(name)
    table = phone.c.get(f"/play/{pid}/table")
    assert table.status_code == 200
    (tmp_path / "table.toml").write_bytes(table.get_data())  # one file, every sheet inline
    assert [p["sheet"] for p in tomllib.loads(table.get_data(as_text=True))["player"]] == [
        tomllib.loads(tx) for tx in texts]
    run = sheetkit("check", "table.toml", "--json", cwd=tmp_path)
    assert run.code == 0, run.out
    (v,) = json.loads(run.out)
    assert v["legal"] and v["winners"] == winners and [s["total"] for s in v["scores"]] == totals
    for name, total in zip(names, totals):
        run = sheetkit("check", name, "--json", cwd=tmp_path)
        assert run.code == 0 and json.loads(run.out)[0]["scores"][0]["total"] == total


def test_a_wrong_move_is_entered_with_its_finding_and_undone(phone, db):
    pid = start(phone)
    assert step(phone, pid, "move", {"flight": "E E", "puzzle": "nest1", "value": "5", "die1": "2", "die2": "5",
                                     "start": "2"}).code == 303
    page = phone.get(f"/play/{pid}")
    assert page.find("heading") == "Turn 1: Bea" and page.find("dice-known") == "Dice of turn 1: 2 and 5"
    assert step(phone, pid, "move", {"flight": "W W W", "puzzle": "nest2", "value": "5"}).code == 303
    page = phone.get(f"/play/{pid}")
    assert page.find("status").startswith("ILLEGAL: 1 finding")
    assert page.rules() == ["Y4"] and "Bea, turn 1" in page.text and "matches neither die" in page.text
    with Store.open(db) as store:
        assert not store.get(pid).legal
    assert step(phone, pid, "undo").code == 303
    page = phone.get(f"/play/{pid}")
    assert page.find("heading") == "Turn 1: Bea" and page.rules() == []
    assert page.find("status") == "Legal (in progress)"
    assert step(phone, pid, "undo").code == 303
    assert_clear_error(step(phone, pid, "undo"), "No move")


@pytest.mark.parametrize("form, words", [
    ({"flight": "E Q"}, ["'E Q'", "is not a step"]),
    ({"flight": "<script>"}, ["is not a step"]),
    ({"flight": "E" * 5000}, ["longer than any flight"]),
    ({"flight": "E\x00"}, ["is not a step"]),
    ({"puzzle": "../../etc"}, ["not one of the choices"]),
    ({"value": "99999999999999999999"}, ["The number"]),
    ({"die1": "7"}, ["Die 1"]),
    ({"plusminus": "3.5"}, ["±1"]),
    ({"start": "5"}, ["Start point"]),
    ({"seat": "1"}, ["not for the next move"]),
])
def test_a_value_that_is_no_move_is_one_message_nothing_saved(phone, db, form, words):
    pid = start(phone)
    with Store.open(db) as store:
        before = store.get(pid).version
    good = {"flight": "E E", "puzzle": "nest1", "value": "5", "die1": "2", "die2": "5"}
    page = step(phone, pid, "move", {**good, **form})
    assert_clear_error(page, *words)
    assert "<script>" not in page.text.split('id="error"')[1][:400]  # escaped
    if "puzzle" not in form:
        assert 'value="nest1" checked' in page.text and 'value="5" checked' in page.text  # the form keeps the choices
    with Store.open(db) as store:
        assert store.get(pid).version == before


def test_a_solo_game_and_the_table_sizes(phone, db):
    pid = start(phone, name1=None)
    with Store.open(db) as store:
        play = store.get(pid)
    assert [s.name for s in play.seats] == ["Ana"] and tomllib.loads(play.sheets[0].text)["solo"] is True
    five = {f"name{i}": n for i, n in enumerate(["Ana", "Bea", "Caro", "Dani", "Eli"])}
    pid = start(phone, **five)
    with Store.open(db) as store:
        assert len(store.get(pid).seats) == 5
    assert_clear_error(phone.post("/play/new", {**START, "variant": "yuncos"}), "not one of the choices")
    assert_clear_error(phone.post("/play/new", {**START, "name0": "", "name1": ""}), "1 to 5")


def test_moves_need_the_session_token_and_this_site(phone, db):
    pid = start(phone)
    page = phone.get(f"/play/{pid}")
    version = page.hidden(f"/play/{pid}/move", "version")
    form = {"version": version, "flight": "E", "puzzle": "nest1", "value": "1", "die1": "1", "die2": "3"}
    assert phone.post(f"/play/{pid}/move", form, csrf=False).code == 403
    assert phone.post(f"/play/{pid}/move", form, headers={"Origin": "http://evil.example"}).code == 403
    with Store.open(db) as store:
        assert store.get(pid).version == version
    guarded = Client(create_app(db=db, token="s3cret"), lang=None)
    assert guarded.c.get(f"/play/{pid}").status_code == 403
    assert guarded.c.get(f"/play/{pid}/table").status_code == 403
    assert phone.c.get("/play/99999/table").status_code == 404
