"""Level X and IUNU plays entered by taps in a real browser: Debian's Chromium at phone size
(390 x 844), the real server on a real history file.

Level X: a complete 2-player game of the independent simulation (play.py), the dice and
their groups tapped turn by turn; a wrong turn (a die left out) entered, seen with its
finding (L4) and undone; the finishing round seen (the first player brings the end, the
second plays once more); ended; the record downloaded through the browser gives the page's
verdict from `sheetkit check`. IUNU: a deck typed once and kept, the end-of-game form
filled, saved, finished on the end page, the record checked the same; the next IUNU play
offers the deck. Both in each language, every page checked for a word of the other
(Phone.speaks); the Spanish Level X game is another, shorter one. Screenshots go to
SHEETKIT_SCREENSHOTS (a folder) when it is set.
"""

from __future__ import annotations

import json
import os
import random

import pytest

from sheetkit import messages as M

from conftest import sheetkit
from test_web_browser import CHROMEDRIVER, CHROMIUM, WIDTH, browser, playing, words  # noqa: F401  (the fixture)
from test_web_browser_plays import final_board, history, lang, looks_right, phone, play_id, server, status  # noqa: F401  (fixtures)
from test_web_play_levelx import form_of

pytestmark = pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)),
    reason="Debian's chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)")

# per language, a game whose end comes with Ana's turn: Ben plays the last turn (L8)
SEEDS = {"en": 12,  # 28 turns, the end with turn 27
         "es": 191}  # 26 turns, the end with turn 25: the shortest such game of the first 400 seeds


def tap_turn(phone, form: dict) -> None:
    for i in range(4):
        phone.choose(f"die{i}-{form[f'die{i}']}")
        group = form.get(f"group{i}", "ABCD"[i])
        phone.choose(f"group{i}-{'none' if group == '-' else group}")
    phone.tap_and_load("lx-enter")


@pytest.mark.slow
def test_a_whole_level_x_game_by_taps(phone, lang, history, tmp_path):
    from sheetkit.games.levelx.play import random_game

    from conftest import check_data

    record, final = random_game(random.Random(SEEDS[lang]), ["Ana", "Ben"], 1.0)
    want = check_data(final)
    phone.tap_and_load("new-play")
    phone.tap_and_load("new-levelx")
    phone.type("name0", "Ana")
    phone.type("name1", "Ben")
    phone.tap("first0")
    looks_right(phone)
    phone.tap_and_load("start")
    assert status(phone) == playing(lang, "Ana")
    looks_right(phone)
    board = phone.d.find_element(phone.By.CSS_SELECTOR, "#lx-board svg")
    assert 300 < board.size["width"] <= WIDTH
    phone.shot("levelx-first-turn")

    # a wrong turn first: the 1 left out of every group; entered, shown with L4, undone
    tap_turn(phone, {"die0": "3", "die1": "4", "die2": "5", "die3": "1",
                     "group0": "A", "group1": "A", "group2": "B", "group3": "-"})
    assert status(phone).startswith(M.text("status.illegal", lang, n=1))
    finding = phone.d.find_element(phone.By.CSS_SELECTOR, "#play-findings li")
    assert finding.find_element(phone.By.CSS_SELECTOR, ".rule").text == "L4"
    assert M.text("where.levelx.turn", lang, turn=1) in finding.text
    assert "bad" in phone.el("turn1").get_attribute("class")
    phone.shot("levelx-finding")
    phone.tap_and_load("undo")
    assert status(phone) == playing(lang, "Ana")

    turns = record["turn"]
    for k, turn in enumerate(turns):
        form = form_of(turn)
        if k == 3:  # the running totals of the groups, before the turn is sent
            for i in range(4):
                phone.tap(f"die{i}-{form[f'die{i}']}")
                phone.tap(f"group{i}-{form[f'group{i}']}")
            assert "=" in phone.text("lx-sums")
            phone.shot("levelx-grouping")
        tap_turn(phone, form)
        assert phone.d.find_elements(phone.By.ID, "error") == [], (k, phone.text("error"))
        if k == len(turns) - 2:
            assert phone.text("lx-end") == words(lang, "levelx.end_round", turn=len(turns) - 1, names="Ben")
            phone.shot("levelx-finishing-round")
            looks_right(phone)
    # the final round played out: the rules end the game, the page says why, no move is offered
    assert phone.d.find_elements(phone.By.ID, "move-form") == []
    assert "(L8)" in phone.text("end-reason")
    assert final_board(phone)["width"] > 300
    looks_right(phone)
    page_status = phone.text("status")
    assert phone.text("saved") == words(lang, "counted_yes", n=play_id(phone))
    ranking = [r.text for r in phone.d.find_elements(phone.By.CSS_SELECTOR, "#ranking td.rank-total")]
    assert ranking == [str(t) for t in sorted((s.total for s in want.scores), reverse=True)]
    phone.shot("levelx-end")

    path = phone.download("download-record", tmp_path, "levelx-play-*.toml")
    run = sheetkit("check", path.name, "--json", cwd=tmp_path)
    (got,) = json.loads(run.out)
    assert run.code == 0 and page_status == words(lang, "legal") and got["legal"]
    assert [(s["player"], s["total"]) for s in got["scores"]] == [(s.player, s.total) for s in want.scores]
    assert got["winners"] == list(want.winners)
    listed = sheetkit("plays", "--db", history)
    assert listed.code == 0 and "Level X" in listed.out


DECK = {"farmer": (8, 1, 1), "baker": (7, 1, 0), "soldier": (6, 2, 1), "merchant": (6, 2, 2), "noble": (5, 3, 1),
        "priest": (5, 2, 2), "scribe": (4, 3, 2), "pharaoh": (2, 5, 3), "ninth": (4, 2, 1)}


def test_an_iunu_play_by_taps_keeps_its_deck(phone, lang, history, tmp_path):
    deck = f"Ankh {lang.upper()}"  # in no language: the history keeps it for the next play, in either
    phone.open("/play/new?game=iunu")
    phone.type("name0", "Ana")
    phone.type("name1", "Ben")
    phone.tap("first1")  # Ben is the first player
    phone.type("deck_name", deck)
    if not phone.el("new-deck").get_attribute("open"):  # a deck is kept already: new values are asked for
        phone.tap("new-deck-open")
    phone.type("deck_ninth_name", {"en": "Artisan", "es": "Artesano"}[lang])  # the players' own words
    for caste, values in DECK.items():
        for k, v in zip(("cards", "vp", "bread"), values):
            phone.type(f"deck_{caste}_{k}", str(v))
    looks_right(phone)
    phone.shot("iunu-start")
    phone.tap_and_load("start")
    assert status(phone) == playing(lang)
    legends = [e.text for e in phone.d.find_elements(phone.By.CSS_SELECTOR, "fieldset.player legend")]
    assert legends == ["Ben", "Ana"]
    phone.type("p0_deben", "7")
    phone.type("p0_cards_noble", "2")
    phone.tap_and_load("iu-save")  # saved as typed: shown again
    assert phone.el("p0_deben").get_attribute("value") == "7"
    phone.type("p0_fed_noble", "1")
    phone.type("p1_deben", "4")
    phone.type("p1_cards_farmer", "3")
    phone.type("p1_cards_priest", "1")
    looks_right(phone)
    phone.shot("iunu-entry")
    phone.tap_and_load("iu-finish")
    looks_right(phone)
    page_status = phone.text("status")
    phone.shot("iunu-end")
    path = phone.download("download-record", tmp_path, "iunu-play-*.toml")
    run = sheetkit("check", path.name, "--json", cwd=tmp_path)
    (got,) = json.loads(run.out)
    assert run.code == (0 if got["legal"] else 1) and page_status == (words(lang, "legal") if got["legal"] else page_status)
    winners = phone.text("end-winners")
    assert all(w in winners for w in got["winners"])
    # the next IUNU play offers the deck kept in the history
    phone.open("/play/new?game=iunu")
    assert phone.el("deck_name").get_attribute("value") == deck
    assert deck in phone.text("kept-list")
