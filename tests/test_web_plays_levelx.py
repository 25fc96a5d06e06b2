"""Level X plays on the page through Flask's test client: a whole game of the independent
simulation entered turn by turn against the engine, the record downloaded and checked by
`sheetkit check`, a wrong turn with its finding and undo, hostile values (nothing saved,
the form kept), the token and cross-site posts, names escaped."""

from __future__ import annotations

import json
import random
import tomllib

import pytest

from sheetkit.games.levelx.play import random_game
from sheetkit.history import Store
from sheetkit.web.app import create_app

from conftest import check_data, sheetkit
from test_web import Client, assert_clear_error
from test_web_play_levelx import form_of
from test_web_plays import db, phone, start_play, step  # noqa: F401 (fixtures)

START = {"game": "levelx", "name0": "Ana", "name1": "Ben", "first": "0"}


def start(phone, **changes) -> int:
    return start_play(phone, {**START, **changes})


def stored(db, pid) -> dict:
    with Store.open(db) as store:
        return tomllib.loads(store.get(pid).sheets[0].text)


def test_the_start_form_offers_level_x(phone):
    page = phone.get("/play/new")
    assert 'href="/play/new?game=levelx"' in page.text
    assert phone.get("/play/new?game=levelx").code == 200


def test_a_whole_game_by_the_entry_form_gives_the_engines_verdict(phone, db, tmp_path):
    record, final = random_game(random.Random(19), ["Ana", "Ben"], 1.0)  # Ana ends it: Ben plays once more
    pid = start(phone)
    page = phone.get(f"/play/{pid}")
    assert page.find("play-status") == "Legal (in progress; Ana to move)"
    assert 'id="lx-board"' in page.text and "<svg" in page.text and 'id="die0-6"' in page.text
    for k, turn in enumerate(record["turn"]):
        page = step(phone, pid, "move", form_of(turn))
        assert page.code == 303, (k, page.error)
        if k == len(record["turn"]) - 2:  # the end came with Ana's turn: Ben still plays
            page = phone.get(f"/play/{pid}")
            assert "Ben still play" in page.find("lx-end")
    # Ben's turn played out the final round (L8): the play ended with it, the end page follows
    page = phone.get(f"/play/{pid}")
    assert page.code == 303 and page.resp.headers["Location"] == f"/play/{pid}/end"
    page = phone.get(f"/play/{pid}/end")
    assert page.code == 200 and page.rules() == []
    text = phone.c.get(f"/play/{pid}/record/1").get_data(as_text=True)
    path = tmp_path / f"levelx-play-{pid}.toml"
    path.write_text(text, encoding="utf-8")
    run = sheetkit("check", path, "--json")
    assert run.code == 0, run.out + run.err
    got = json.loads(run.out)[0]
    want = check_data(final)  # the simulation's own final position
    with Store.open(db) as store:
        play = store.get(pid)
    assert play.legal and not play.in_progress
    assert [(s.name, s.score) for s in play.seats] == [(s["player"], s["total"]) for s in got["scores"]]
    assert play.winners == got["winners"]
    assert len(tomllib.loads(text)["turn"]) == len(record["turn"])
    assert [(s.player, s.total) for s in want.scores] == [(s["player"], s["total"]) for s in got["scores"]]
    pdf = phone.c.get(f"/play/{pid}/pdf/1")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")


def test_a_wrong_turn_is_entered_with_its_finding_and_undone(phone, db):
    pid = start(phone)
    page = step(phone, pid, "move", {"die0": "3", "die1": "4", "die2": "5", "die3": "1",
                                     "group0": "A", "group1": "A", "group2": "B", "group3": "-"})
    assert page.code == 303
    page = phone.get(f"/play/{pid}")
    assert page.find("play-status").startswith("ILLEGAL: 1 finding")
    assert "L4" in page.rules() and 'id="turn1" class="bad"' in page.text
    with Store.open(db) as store:
        assert not store.get(pid).legal
    assert step(phone, pid, "undo").code == 303
    page = phone.get(f"/play/{pid}")
    assert page.find("play-status") == "Legal (in progress; Ana to move)" and page.rules() == []
    assert_clear_error(step(phone, pid, "undo"), "No turn to undo")


@pytest.mark.parametrize("form, words", [
    ({"die1": "1", "die2": "1", "die3": "1"}, ["Die 1"]),
    ({"die0": "0", "die1": "1", "die2": "1", "die3": "1"}, ["Die 1"]),
    ({"die0": "1", "die1": "1", "die2": "1", "die3": "1" * 3000}, ["Die 4"]),
    ({"die0": "1", "die1": "1", "die2": "1\x00", "die3": "1"}, ["Die 3"]),
    ({"die0": "1", "die1": "1", "die2": "1", "die3": "1", "group1": "../A"}, ["group of die 2"]),
    ({"die0": "1", "die1": "1", "die2": "1", "die3": "1", "group0": "-", "group1": "-", "group2": "-",
      "group3": "-"}, ["at least one die"]),
    ({"die0": "2", "die1": "1", "die2": "1", "die3": "1", "player": "Mallory"}, ["Player"]),
])
def test_a_value_that_is_no_turn_is_one_message_nothing_saved(phone, db, form, words):
    pid = start(phone)
    with Store.open(db) as store:
        before = store.get(pid).version
    page = step(phone, pid, "move", form)
    assert_clear_error(page, *words)
    assert page.value("version") == before
    if form.get("die0") == "2":
        assert 'value="2" checked' in page.text  # the form keeps what was tapped
    with Store.open(db) as store:
        assert store.get(pid).version == before


def test_a_player_out_of_turn_is_L8(phone, db):
    pid = start(phone)
    assert step(phone, pid, "move", {"die0": "3", "die1": "4", "die2": "5", "die3": "1", "player": "Ben"}).code == 303
    page = phone.get(f"/play/{pid}")
    assert page.rules() == ["L8", "L8"]  # in the turn's line and in the verdict's list
    assert stored(db, pid)["turn"][0]["player"] == "Ben"


def test_steps_need_the_token_csrf_and_this_origin(db):
    phone = Client(create_app(db=db))
    pid = start(phone)
    version = phone.get(f"/play/{pid}").hidden(f"/play/{pid}/move", "version")
    form = {"version": version, "die0": "3", "die1": "4", "die2": "5", "die3": "1"}
    assert phone.post(f"/play/{pid}/move", form, csrf=False).code == 403
    assert phone.post(f"/play/{pid}/move", form, headers={"Origin": "http://evil.example"}).code == 403
    assert phone.post(f"/play/{pid}/move", {**form, "csrf": "forged"}).code == 403
    assert stored(db, pid)["turn"] == []
    c = create_app(token="tok", db=db).test_client()
    assert c.get(f"/play/{pid}").status_code == 403
    assert c.post(f"/play/{pid}/move", data=form).status_code == 403


def test_names_are_escaped_on_the_board_page(phone):
    pid = start(phone, name0="<img src=x onerror=alert(1)>")
    page = phone.get(f"/play/{pid}")
    assert "<img src=x" not in page.text and "&lt;img src=x" in page.text


def test_the_page_and_its_script_load_nothing_from_elsewhere(phone):
    pid = start(phone)
    page = phone.get(f"/play/{pid}")
    assert '<script src="/static/levelx/play.js"></script>' in page.text
    js = phone.c.get("/static/levelx/play.js")
    assert js.status_code == 200 and js.mimetype == "text/javascript" and "http" not in js.get_data(as_text=True)
    assert "<style" not in page.text  # the inline board has no style element (the CSP allows none)


def test_an_uploaded_game_in_progress_is_continued(phone, db):
    import io

    from conftest import ROOT

    upload = (ROOT / "examples" / "levelx-in-progress.toml").read_bytes()  # the one-line notation
    page = phone.post("/play/open", {"record": (io.BytesIO(upload), "ongoing.toml")}, content_type="multipart/form-data")
    assert page.code == 303, page.text[:2000]
    pid = int(page.resp.headers["Location"].rsplit("/", 1)[1])
    page = phone.get(f"/play/{pid}")
    assert page.find("play-status") == "Legal (in progress; Carla to move)"
    assert len(stored(db, pid)["turn"]) == 20
    assert step(phone, pid, "move", {"die0": "3", "die1": "4", "die2": "5", "die3": "1"}).code == 303
    assert stored(db, pid)["turn"][-1] == {"player": "Carla", "dice": [3, 4, 5, 1], "groups": [[3], [4], [5], [1]]}
    for name, words in (("levelx-final.toml", ["final position"]), ("levelx-bad-input.toml", [])):
        raw = (ROOT / "examples" / name).read_bytes()
        page = phone.post("/play/open", {"record": (io.BytesIO(raw), name)}, content_type="multipart/form-data")
        assert_clear_error(page, *words)
