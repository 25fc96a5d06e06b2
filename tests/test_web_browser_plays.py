"""A whole play entered by taps in a real browser: Debian's Chromium at phone size
(390 x 844), the real server on a real history file. A whole Glüx game is started,
played placement by placement (a wrong one entered, seen with its finding, and undone),
the page reloaded and the play resumed from the home page, ended; the record downloaded
through the browser is checked by `sheetkit check` with the page's verdict, and
`sheetkit plays --db` lists the play. The game is played in each language (in Spanish a
shorter, 2-player one), every page on the way checked for a word of the other language
(Phone.speaks).

Screenshots go to SHEETKIT_SCREENSHOTS (a folder) when it is set.
"""

from __future__ import annotations

import json
import os
import threading

import pytest

from sheetkit import messages as M

from conftest import ROOT, sheetkit
from test_web_browser import CHROMEDRIVER, CHROMIUM, WIDTH, Phone, browser, playing, words  # noqa: F401  (the fixture)
from test_web_plays import placements

pytestmark = pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)),
    reason="Debian's chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)")

EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    return tmp_path_factory.mktemp("history") / "history.sqlite3"


@pytest.fixture(scope="module")
def server(history):
    from werkzeug.serving import make_server

    from sheetkit.web.app import create_app

    srv = make_server("127.0.0.1", 0, create_app(db=history), threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()
    thread.join(timeout=10)


@pytest.fixture(params=M.LANGS)
def lang(request) -> str:
    """Each play is played in each language of the page."""
    return request.param


@pytest.fixture
def phone(browser, server, tmp_path, lang):  # noqa: F811
    browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    p = Phone(browser, server, lang)
    p.open(f"/?lang={lang}")
    return p


def play_id(phone: Phone) -> int:
    """The play shown (/play/<id>, /play/<id>/end)."""
    return int(phone.d.current_url.split("/play/", 1)[1].split("/")[0].split("?")[0])


def final_board(phone: Phone) -> dict:
    """The size of the drawing of the final board or sheet on the end page."""
    return phone.d.find_element(phone.By.CSS_SELECTOR, "#final svg").size


def looks_right(phone: Phone) -> None:
    phone.no_sideways_scroll()
    assert phone.small_targets() == []


def place(phone: Phone, form: dict) -> None:
    phone.choose(f"player-{form['player']}")
    phone.choose(f"face-{form['face']}")
    if form["action"] == "start":
        phone.tap_and_load("start-placement")
    else:
        phone.tap(f"at-{form['square']}")
        phone.tap_and_load("place")


def status(phone: Phone) -> str:
    return phone.text("play-status")


# the whole Glüx game played in each language: the 3-player example in English; in Spanish
# the shorter 2-player one (46 placements, not 69), its players on the other diagonal
GLUX = {
    "en": {"record": "glux-game-3p.toml", "variant": "34p", "marked": {"A7", "G1"},
           "seats": (("Ana", "6", ""), ("Ben", "2", ""), ("Carla", "4", ""))},
    "es": {"record": "glux-game-short.toml", "variant": "2p", "marked": {"G1", "M7"},
           "seats": (("Ana", "6", "M1"), ("Ben", "2", "A9"))},
}


@pytest.mark.slow
def test_a_whole_glux_game_by_taps(phone, lang, history, tmp_path):
    from selenium.webdriver.support.ui import Select

    from sheetkit.checking import records

    game = GLUX[lang]
    want = records.check(records.load(EXAMPLES / game["record"])).verdict
    phone.tap_and_load("new-play")
    looks_right(phone)
    phone.tap_and_load("new-glux")
    phone.choose(f"variant-{game['variant']}")
    for i, (name, chip, square) in enumerate(game["seats"]):
        phone.type(f"name{i}", name)
        phone.tap(f"start_chip{i}")
        Select(phone.el(f"start_chip{i}")).select_by_value(chip)
        if square:
            phone.tap(f"start_sq{i}")
            Select(phone.el(f"start_sq{i}")).select_by_value(square)
    phone.tap("first0")
    looks_right(phone)
    phone.shot("plays-glux-start")
    phone.tap_and_load("start")
    assert status(phone) == playing(lang, "Ana")
    looks_right(phone)
    frame = phone.d.find_element(phone.By.ID, "board-frame")  # the board pans inside it
    assert 0 < frame.size["width"] <= WIDTH
    # the legal destinations are marked: Ana's start chip shows 6
    marked = {e.get_attribute("id")[3:] for e in phone.d.find_elements(phone.By.CSS_SELECTOR, "label.sq.dest")}
    assert marked == game["marked"]
    phone.shot("plays-glux-first-move")

    moves = placements(EXAMPLES / game["record"])
    # a wrong placement first: entered, shown with its finding, undone
    place(phone, {"player": "A", "face": "5", "square": "H6", "action": "place"})
    assert status(phone).startswith(M.text("status.illegal", lang, n=1))
    finding = phone.d.find_element(phone.By.CSS_SELECTOR, "#play-findings li")
    assert finding.find_element(phone.By.CSS_SELECTOR, ".rule").text == "G4" and "H6" in finding.text
    phone.shot("plays-glux-finding")
    phone.tap_and_load("undo")
    assert status(phone) == playing(lang, "Ana")

    # 44 px squares by default, the board panned inside its frame, never the page; the whole board at will
    square = phone.d.find_element(phone.By.ID, "at-A7").size
    assert square["width"] >= 43.5 and square["height"] >= 43.5, square
    phone.no_sideways_scroll()
    phone.tap("whole-label")
    assert phone.d.find_element(phone.By.ID, "at-A7").size["width"] < 43.5
    place(phone, moves[0])
    assert phone.el("whole").is_selected()  # still the whole board after the move
    phone.shot("plays-glux-whole")
    phone.tap("whole-label")
    assert phone.d.find_element(phone.By.ID, "at-A7").size["width"] >= 43.5
    moves = moves[1:]

    for k, form in enumerate(moves):
        if k == 29:  # mid-game: reload the page, then resume the play from the home page
            phone.d.refresh()
            phone.speaks()
            assert words(lang, "legal") in status(phone)
            phone.shot("plays-glux-mid-game")
            looks_right(phone)
            phone.open("/")
            resume = phone.d.find_elements(phone.By.CSS_SELECTOR, "#resume a")
            assert len(resume) == 1
            phone.tap_and_load(resume[0].get_attribute("id"))
        place(phone, form)
        assert phone.d.find_elements(phone.By.ID, "error") == [], (k, phone.text("error"))
    # nobody can place any more (G10): the rules end the game, the page says why
    assert phone.text("end-reason") == words(lang, "glux.end_why")
    looks_right(phone)
    assert phone.text("end-winners") == f"{words(lang, 'winner')}: {', '.join(want.winners)}"
    assert phone.text("saved") == words(lang, "counted_yes", n=play_id(phone))
    assert phone.d.find_elements(phone.By.ID, "move-form") == []  # no move after the end
    assert final_board(phone)["width"] > 300
    ranking = [r.text for r in phone.d.find_elements(phone.By.CSS_SELECTOR, "#ranking td.rank-total")]
    assert ranking == [str(t) for t in sorted((s.total for s in want.scores), reverse=True)]
    assert phone.d.find_element(phone.By.CSS_SELECTOR, "#bgstats-qr svg").size["width"] > 100
    page_status = phone.text("status")
    phone.shot("plays-glux-end")
    phone.d.execute_script("document.getElementById('bgstats').scrollIntoView()")
    phone.shot("plays-glux-end-bgstats")

    # the record, downloaded by the browser, is what `sheetkit check` gives the same verdict for
    path = phone.download("download-record", tmp_path, f"glux-play-{play_id(phone)}.toml")
    run = sheetkit("check", path.name, "--json", cwd=tmp_path)
    (got,) = json.loads(run.out)
    assert run.code == 0 and page_status == words(lang, "legal") and got["legal"]
    assert got["winners"] == list(want.winners) and [s["total"] for s in got["scores"]] == [s.total for s in want.scores]
    listed = sheetkit("plays", "--db", history)
    line = ", ".join(f"{s.player} {s.total}" + (" (won)" if s.player in want.winners else "") for s in want.scores)
    assert listed.code == 0 and f"Glüx: {line}" in listed.out, listed.out
