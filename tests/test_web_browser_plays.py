"""A whole play entered by taps in a real browser: Debian's Chromium at phone size
(390 x 844), the real server on a real history file. A 3-player Glüx game is started,
played placement by placement (a wrong one entered, seen with its finding, and undone),
the page reloaded and the play resumed from the home page, ended; the record downloaded
through the browser is checked by `sheetkit check` with the page's verdict, and
`sheetkit plays --db` lists the play.

Screenshots go to SHEETKIT_SCREENSHOTS (a folder) when it is set.
"""

from __future__ import annotations

import json
import os
import threading
import time

import pytest

from conftest import ROOT, sheetkit
from test_web_browser import CHROMEDRIVER, CHROMIUM, WIDTH, Phone, browser  # noqa: F401  (the fixture)
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


@pytest.fixture
def phone(browser, server, tmp_path):  # noqa: F811
    browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    p = Phone(browser, server)
    p.open("/?lang=en")
    return p


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


def test_a_whole_glux_game_by_taps(phone, history, tmp_path):
    from selenium.webdriver.support.ui import Select

    from sheetkit.checking import records

    want = records.check(records.load(EXAMPLES / "glux-game-3p.toml")).verdict
    phone.tap_and_load("new-play")
    looks_right(phone)
    phone.tap_and_load("new-glux")
    for i, (name, chip) in enumerate((("Ana", "6"), ("Ben", "2"), ("Carla", "4"))):
        phone.type(f"name{i}", name)
        phone.tap(f"start_chip{i}")
        Select(phone.el(f"start_chip{i}")).select_by_value(chip)
    phone.tap("first0")
    looks_right(phone)
    phone.shot("plays-glux-start")
    phone.tap_and_load("start")
    assert status(phone) == "Legal (in progress; Ana to move)"
    looks_right(phone)
    frame = phone.d.find_element(phone.By.ID, "board-frame")  # the board pans inside it
    assert 0 < frame.size["width"] <= WIDTH
    # the legal destinations are marked: Ana's start chip shows 6
    marked = {e.get_attribute("id")[3:] for e in phone.d.find_elements(phone.By.CSS_SELECTOR, "label.sq.dest")}
    assert marked == {"A7", "G1"}
    phone.shot("plays-glux-first-move")

    moves = placements()
    # a wrong placement first: entered, shown with its finding, undone
    place(phone, {"player": "A", "face": "5", "square": "H6", "action": "place"})
    assert status(phone).startswith("ILLEGAL: 1 finding")
    finding = phone.d.find_element(phone.By.CSS_SELECTOR, "#play-findings li")
    assert finding.find_element(phone.By.CSS_SELECTOR, ".rule").text == "G4" and "H6" in finding.text
    phone.shot("plays-glux-finding")
    phone.tap_and_load("undo")
    assert status(phone) == "Legal (in progress; Ana to move)"

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
            assert "Legal" in status(phone)
            phone.shot("plays-glux-mid-game")
            looks_right(phone)
            phone.open("/")
            resume = phone.d.find_elements(phone.By.CSS_SELECTOR, "#resume a")
            assert len(resume) == 1
            phone.tap_and_load(resume[0].get_attribute("id"))
        place(phone, form)
        assert phone.d.find_elements(phone.By.ID, "error") == [], (k, phone.text("error"))
    # nobody can place any more (G10): the rules end the game, the page says why
    assert phone.text("end-reason") == "Nobody can place a chip any more (G10)."
    looks_right(phone)
    assert phone.text("end-winners") == f"Winner: {', '.join(want.winners)}"
    assert "counts in" in phone.text("saved")
    ranking = [r.text for r in phone.d.find_elements(phone.By.CSS_SELECTOR, "#ranking td.rank-total")]
    assert ranking == [str(t) for t in sorted((s.total for s in want.scores), reverse=True)]
    assert phone.d.find_element(phone.By.CSS_SELECTOR, "#bgstats-qr svg").size["width"] > 100
    page_status = phone.text("status")
    phone.shot("plays-glux-end")
    phone.d.execute_script("document.getElementById('bgstats').scrollIntoView()")
    phone.shot("plays-glux-end-bgstats")

    # the record, downloaded by the browser, is what `sheetkit check` gives the same verdict for
    phone.tap("download-record")
    path = tmp_path / "glux-play-1.toml"
    deadline = time.time() + 30
    while not path.is_file() and time.time() < deadline:
        time.sleep(0.2)
    assert path.is_file(), list(tmp_path.iterdir())
    run = sheetkit("check", path.name, "--json", cwd=tmp_path)
    (got,) = json.loads(run.out)
    assert run.code == 0 and page_status == "Legal" and got["legal"]
    assert got["winners"] == list(want.winners) and [s["total"] for s in got["scores"]] == [s.total for s in want.scores]
    listed = sheetkit("plays", "--db", history)
    assert listed.code == 0 and "Glüx: Ana 12, Ben 18 (won), Carla 16" in listed.out
