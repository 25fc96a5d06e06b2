"""IUNU as a play through the page's entry (sheetkit/games/iunu/entry.py): the deck kept in
the history by name and offered again, the end-of-game form saved as typed, the record
checked as `sheetkit check` checks it."""

from __future__ import annotations

import json

import pytest

import tomllib

from sheetkit.history import Store
from sheetkit.forms import FormError
from sheetkit.games.iunu import entry as I
from sheetkit.web import plays
from sheetkit.web.app import create_app

from conftest import ROOT, check_data, sheetkit
from test_web import Client, assert_clear_error
from test_web_plays import start_play


def check(recs):
    return plays.check("iunu", recs, None)[0].checked


def position(recs):
    """The records as a step is given them: the play's position (each record checked)."""
    return plays.check("iunu", recs, None)


DECK_FORM = {f"deck_{c}_{k}": str(v) for c in I.CASTES for k, v in (("cards", 6), ("vp", 2), ("bread", 1))}
DECK_FORM["deck_ninth_name"] = "Artisan"


def end_form():
    return {"p0_deben": "7", "p0_cards_farmer": "3", "p0_fed_farmer": "2", "p0_after0_caste": "priest",
            "p0_after0_mult": "2", "p1_deben": "4", "p1_cards_noble": "2", "p1_cards_farmer": "1",
            "name0": "ignored", "name1": "<b>x</b>"}


def test_a_deck_typed_once_is_kept_and_offered_at_the_next_play(tmp_path):
    with Store.open(tmp_path / "h.sqlite3") as store:
        deck = I.deck_of({**DECK_FORM, I.DECK_NAME: "Club copy"}, store)
        assert store.decks("iunu") == [("Club copy", deck)]
        again = I.deck_of({I.DECK_NAME: "club copy"}, store)  # chosen by name, nothing typed
        assert again == deck
        with pytest.raises(FormError, match="deck"):
            I.deck_of({I.DECK_NAME: "nobody's"}, store)
        with pytest.raises(FormError, match="Deck name"):
            I.deck_of(DECK_FORM, store)  # values without a name to keep them under
        with pytest.raises(FormError):
            I.deck_of({**DECK_FORM, "deck_farmer_cards": "-3", I.DECK_NAME: "bad"}, store)
        assert [n for n, _ in store.decks("iunu")] == ["Club copy"]  # nothing half saved


def test_the_adapter_from_blank_to_finished_checks_like_the_command_line(tmp_path):
    with Store.open(tmp_path / "h.sqlite3") as store:
        deck = I.deck_of({**DECK_FORM, I.DECK_NAME: "club"}, store)
    recs = I.blank(["Ben", "Ana"], deck)
    c = check(recs)
    assert c.verdict.in_progress and c.verdict.legal and c.verdict.leading and not c.verdict.winners  # leading, not won
    saved = I.add_move(position(recs), {"p0_deben": "3"})
    assert saved[0][1]["player"][0]["deben"] == 3 and recs[0][1]["player"][0]["deben"] == 0
    assert I.form_values(saved)["p0_deben"] == "3"
    done = I.finish(position(saved), end_form())
    assert [p["name"] for p in done[0][1]["player"]] == ["Ben", "Ana"]  # the form cannot rename the players
    assert "in_progress" not in done[0][1]
    page = check(done).verdict
    path = tmp_path / "iunu-game.toml"
    path.write_text(plays.text_of(done[0][1]), encoding="utf-8")
    out = sheetkit("check", str(path), "--json")
    got = json.loads(out.out)[0]
    assert out.code == (0 if page.legal else 1)
    assert [(s["player"], s["total"]) for s in got["scores"]] == [(s.player, s.total) for s in page.scores]
    assert got["winners"] == list(page.winners)
    assert I.form_values(done)["p0_after0_caste"] == "priest"
    assert I.undo(position(saved)) == recs  # the one count saved taken back: exactly the blank record
    assert I.finish(position(saved), {})[0][1]["player"][0]["deben"] == 3  # the page's End keeps what was saved
    with pytest.raises(FormError, match="Nothing entered"):
        I.undo(position(recs))


def test_an_iunu_record_in_progress_has_standings_and_no_result():
    data = tomllib.loads((ROOT / "examples" / "iunu-inline-deck.toml").read_text())
    done = check_data(data)
    going = check_data({**data, "in_progress": True})
    assert not done.in_progress and going.in_progress
    assert [s.total for s in going.scores] == [s.total for s in done.scores]
    assert going.to_json()["in_progress"] is True


@pytest.mark.parametrize("form", [{"p0_deben": "x"}, {"p0_deben": "9" * 400}, {"p1_after0_caste": "king"},
                                  {"p0_cards_farmer": "-1"}])
def test_values_that_cannot_be_counted_are_form_errors(form):
    # a whole deck: a play's position is of records the engine accepts
    pos = position(I.blank(["Ana", "Ben"], I.read_deck(DECK_FORM)))
    with pytest.raises(FormError):
        I.finish(pos, form)
    with pytest.raises(FormError):
        I.add_move(pos, form)


# --- through the page ------------------------------------------------------------------------

START = {"game": "iunu", "name0": "Ana", "name1": "Ben", "name2": "Cleo", "first": "1", I.DECK_NAME: "Club copy",
         **DECK_FORM}


def start(phone, form=START) -> int:
    return start_play(phone, form)


def step(phone, pid, what, form=None):
    page = phone.get(f"/play/{pid}")
    version = page.hidden(f"/play/{pid}/move", "version")
    return phone.post(f"/play/{pid}/{what}", {"version": version, **(form or {})})


def test_an_iunu_play_on_the_page_keeps_its_deck_and_ends_on_the_end_page(tmp_path):
    db = tmp_path / "history.sqlite3"
    phone = Client(create_app(db=db))
    pid = start(phone)
    page = phone.get(f"/play/{pid}")
    assert page.find("play-status") == "Legal (in progress)"
    assert [m for m in ("Ben", "Cleo", "Ana") if f"<legend>{m}</legend>" in page.text] == ["Ben", "Cleo", "Ana"]
    assert step(phone, pid, "move", {"p0_deben": "4"}).code == 303  # one count a Save, in the table's order
    assert step(phone, pid, "move", {"p0_deben": "4", "p1_cards_farmer": "2"}).code == 303
    page = phone.get(f"/play/{pid}")  # saved as typed: shown again
    assert 'id="p0_deben" value="4"' in page.text and 'id="p1_cards_farmer" value="2"' in page.text
    assert step(phone, pid, "end", {"p0_deben": "9", "p0_cards_noble": "2", "p2_cards_farmer": "1"}).code == 303
    page = phone.get(f"/play/{pid}/end")
    assert page.code == 200 and "counts" in page.find("saved")
    text = phone.c.get(f"/play/{pid}/record/1").get_data(as_text=True)
    path = tmp_path / "iunu-play.toml"
    path.write_text(text, encoding="utf-8")
    run = sheetkit("check", path, "--json")
    got = json.loads(run.out)[0]
    with Store.open(db) as store:
        play = store.get(pid)
        assert [(s.name, s.score) for s in play.seats] == [(s["player"], s["total"]) for s in got["scores"]]
        assert play.winners == got["winners"] and play.legal and not play.in_progress
        assert [n for n, _ in store.decks("iunu")] == ["Club copy"]
    # the next IUNU play: the deck is offered, and chosen by its name alone
    page = phone.get("/play/new?game=iunu")
    assert 'value="Club copy"' in page.text and 'id="kept-list"' in page.text
    again = start(phone, {"game": "iunu", "name0": "Ana", "name1": "Ben", I.DECK_NAME: "club copy"})
    with Store.open(db) as store:
        first, second = (tomllib.loads(store.get(p).sheets[0].text)["deck"] for p in (pid, again))
    assert first == second


@pytest.mark.parametrize("changes, words", [
    ({I.DECK_NAME: "", **{k: "" for k in DECK_FORM}}, ["deck values"]),
    ({I.DECK_NAME: "nobody", **{k: "" for k in DECK_FORM}}, ["deck values"]),
    ({I.DECK_NAME: ""}, ["Deck name"]),
    ({I.DECK_NAME: "x\x00"}, ["Deck name"]),
    ({"deck_farmer_cards": "nine"}, ["Farmer"]),
    ({"deck_ninth_name": ""}, ["ninth"]),
])
def test_bad_deck_on_the_start_form_is_one_message_nothing_saved(tmp_path, changes, words):
    db = tmp_path / "history.sqlite3"
    phone = Client(create_app(db=db))
    page = phone.post("/play/new", {**START, **changes})
    assert_clear_error(page, *words)
    if db.is_file():
        with Store.open(db) as store:
            assert store.plays() == [] and store.decks("iunu") == []


def test_hostile_end_values_save_nothing_and_keep_the_form(tmp_path):
    db = tmp_path / "history.sqlite3"
    phone = Client(create_app(db=db))
    pid = start(phone)
    with Store.open(db) as store:
        before = store.get(pid).version
    page = step(phone, pid, "end", {"p0_deben": "12x", "p1_deben": "3"})
    assert_clear_error(page, "Deben")
    assert 'id="p1_deben" value="3"' in page.text
    page = step(phone, pid, "move", {"p0_after0_caste": "<script>"})
    assert_clear_error(page)
    assert "<script>" not in page.text
    with Store.open(db) as store:
        assert store.get(pid).version == before and store.get(pid).in_progress
    assert phone.post(f"/play/{pid}/end", {"version": before, "p0_deben": "1"}, csrf=False).code == 403
    assert phone.post(f"/play/{pid}/end", {"version": before}, headers={"Origin": "http://evil.example"}).code == 403


def test_a_fresh_play_names_no_winner_nor_leader_nor_tiebreak(tmp_path):
    phone = Client(create_app(db=tmp_path / "history.sqlite3"))
    pid = start(phone)
    page = phone.get(f"/play/{pid}")
    assert page.find("winners") is None and page.find("tiebreak") is None, page.text[:3000]
    assert "Shared win" not in page.text and "Winner" not in page.text
    step(phone, pid, "move", {"p0_deben": "4", "p0_cards_farmer": "2"})  # Ben ahead now
    page = phone.get(f"/play/{pid}")
    assert page.find("winners") == "Leading: Ben", page.find("winners")
    assert "Shared win" not in page.text and page.find("tiebreak") is None
