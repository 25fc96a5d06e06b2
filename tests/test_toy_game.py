"""The game interface is whole: Steps, a toy game defined only under tests/ (toygame/), is
registered and then started, played, undone, finished and exported on the phone page and
on the command line, with no change to sheetkit/web or sheetkit/cli. docs/adding-a-game.md
lists the files it needed."""

import json

import pytest

from sheetkit import games
from sheetkit.history.store import Store
from sheetkit.web.app import create_app
from sheetkit.web.plays import KEPT
from test_web import Client
from toygame import GAME


@pytest.fixture
def steps():
    games.register(GAME)
    KEPT.clear()
    yield GAME
    games.unregister(GAME.name)
    KEPT.clear()


def tap(phone, pid, what, form=None):
    page = phone.get(f"/play/{pid}")
    assert page.code == 200, page.text[:2000]
    version = page.hidden(f"/play/{pid}/{what}", "version")
    return phone.post(f"/play/{pid}/{what}", {"version": version, **(form or {})})


def test_a_toy_game_is_played_on_the_page_and_checked_on_the_command_line(steps, tmp_path, cli):
    db = tmp_path / "history.sqlite3"
    phone = Client(create_app(db=db))
    assert 'href="/play/new?game=steps"' in phone.get("/play/new").text
    page = phone.post("/play/new", {"game": "steps", "name0": "Ana", "name1": "Bea"})
    assert page.code == 303, page.text[:2000]
    pid = int(page.resp.headers["Location"].rsplit("/", 1)[1])

    for n in (3, 3, 2):
        assert tap(phone, pid, "move", {"step": str(n)}).code == 303
    assert "Count: 8" in phone.get(f"/play/{pid}").text
    assert tap(phone, pid, "undo").code == 303  # Ana's 2 taken back
    assert "Count: 6" in phone.get(f"/play/{pid}").text
    refused = tap(phone, pid, "move", {"step": "7"})  # no move at all: one message, nothing saved
    assert refused.code == 400 and "step" in refused.text
    for n in (3, 1):  # Ana 9, Bea 10: Bea wins
        assert tap(phone, pid, "move", {"step": str(n)}).code == 303
    page = phone.get(f"/play/{pid}")
    assert "Count: 10" in page.text and 'id="move-form"' not in page.text
    assert tap(phone, pid, "end").code == 303
    end = phone.get(f"/play/{pid}/end")
    assert end.code == 200 and "Bea" in end.text

    record = phone.get(f"/play/{pid}/record/1")
    assert record.code == 200
    path = tmp_path / "steps.toml"
    path.write_text(record.text)
    checked = cli("check", "--json", path)
    assert checked.code == 0, checked.err
    verdict = json.loads(checked.out)
    verdict = verdict[0] if isinstance(verdict, list) else verdict
    assert verdict["legal"] and verdict["winners"] == ["Bea"]

    with Store.open(db) as store:
        play = store.get(pid)
        assert not play.in_progress and [s.name for s in play.seats if s.winner] == ["Bea"]
    exported = cli("export", "--db", db, "--format", "bgstats", pid)
    assert exported.code == 0, exported.err
    assert "Steps" in exported.out and "Bea" in exported.out
    assert cli("score", "steps", "--count", "10").out.strip() == "reached"


def test_the_toy_games_rules_speak_on_the_command_line(steps, tmp_path, cli):
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "steps"\nplayers = ["Ana", "Bea"]\nmoves = [3, 4, 3, 3, 1]\n')
    run = cli("check", bad)
    assert run.code == 1 and "T1" in run.out and "move 2" in run.out
    logged = cli("log", "--db", tmp_path / "h.sqlite3", tmp_path / "bad.toml")
    assert logged.code in (0, 1), logged.err


def test_a_toy_game_unregistered_is_gone_from_every_list(steps):
    assert "steps" in games.names()
    games.unregister("steps")
    assert "steps" not in games.names()
    games.register(GAME)  # for the fixture to take away again
