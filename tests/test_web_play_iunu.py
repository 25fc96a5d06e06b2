"""IUNU as a play through the page's adapter (sheetkit/web/plays/iunu.py): the deck kept in
the history by name and offered again, the end-of-game form saved as typed, the record
checked as `sheetkit check` checks it."""

from __future__ import annotations

import json

import pytest

from sheetkit.history import Store
from sheetkit.web import tallies
from sheetkit.web.inputs import FormError
from sheetkit.web.plays import iunu as I

from conftest import sheetkit

DECK_FORM = {f"deck_{c}_{k}": str(v) for c in tallies.IUNU_CASTES for k, v in (("cards", 6), ("vp", 2), ("bread", 1))}
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


def test_the_play_goes_from_blank_to_finished_and_checks_like_the_command_line(tmp_path):
    with Store.open(tmp_path / "h.sqlite3") as store:
        deck = I.deck_of({**DECK_FORM, I.DECK_NAME: "club"}, store)
    recs = I.new_records({"name0": "Ana", "name1": "Ben", "deck": deck, "first": "Ben"})
    assert [p["name"] for p in recs[0][1]["player"]] == ["Ben", "Ana"]
    saved = I.add_move(recs, {"p0_deben": "3"})
    assert saved[0][1]["player"][0]["deben"] == 3 and recs[0][1]["player"][0]["deben"] == 0
    assert I.form_values(saved)["p0_deben"] == "3"
    done = I.finish(saved, end_form())
    names = [p["name"] for p in done[0][1]["player"]]
    assert names == ["Ben", "Ana"]  # the form cannot rename the players
    page = I.check(done).verdict
    path = tmp_path / "iunu-game.toml"
    path.write_text(I.text(done), encoding="utf-8")
    out = sheetkit("check", str(path), "--json")
    got = json.loads(out.out)[0]
    assert out.code == (0 if page.legal else 1)
    assert [(s["player"], s["total"]) for s in got["scores"]] == [(s.player, s.total) for s in page.scores]
    assert got["winners"] == list(page.winners)
    assert I.form_values(done)["p0_after0_caste"] == "priest"
    assert I.undo(done)[0][1]["player"][0]["deben"] == 0


@pytest.mark.parametrize("form", [{"p0_deben": "x"}, {"p0_deben": "9" * 400}, {"p1_after0_caste": "king"},
                                  {"p0_cards_farmer": "-1"}])
def test_values_that_cannot_be_counted_are_form_errors(form):
    recs = I.new_records({"name0": "Ana", "name1": "Ben", "deck": {"castes": {}}})
    with pytest.raises(FormError):
        I.finish(recs, form)


def test_a_play_needs_a_deck_and_two_players():
    with pytest.raises(FormError):
        I.new_records({"name0": "Ana", "name1": "Ben"})
    with pytest.raises(FormError):
        I.new_records({"name0": "Ana", "deck": {"castes": {}}})
