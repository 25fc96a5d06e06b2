"""The score-keeper in a real browser: Debian's Chromium at phone size (390 x 844), driven
by selenium through Debian's chromedriver; nothing is downloaded (the driver and the
browser are named, so Selenium Manager is never asked).

The server runs in a thread on 127.0.0.1 with a free port. Each game's tally form is
filled by taps, a record is uploaded and its findings read, and no page scrolls sideways.
A phone that knows its language checks every page it loads for a word of the other one
(tests/test_page_words.py's check, on the page as the browser has it: the steps sent
without reloading included). Screenshots go to SHEETKIT_SCREENSHOTS (a folder) when it
is set.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import pytest

from sheetkit import messages as M
from sheetkit.checking import records

from conftest import ROOT

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

pytestmark = pytest.mark.skipif(not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)),
                                reason="Debian's chromium and chromium-driver are not installed "
                                       "(apt-get install chromium chromium-driver; .ci/run does it)")

EXAMPLES = ROOT / "examples"
WIDTH, HEIGHT = 390, 844


@pytest.fixture(scope="module")
def server():
    from werkzeug.serving import make_server

    from sheetkit.web.app import create_app

    srv = make_server("127.0.0.1", 0, create_app(), threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tmp_path_factory.mktemp("chromium-profile")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                f"--user-data-dir={profile}", f"--window-size={WIDTH},{HEIGHT}"):
        options.add_argument(arg)
    # a phone: touch events and the mobile viewport at 390 x 844
    options.add_experimental_option("mobileEmulation", {
        "deviceMetrics": {"width": WIDTH, "height": HEIGHT, "pixelRatio": 2, "touch": True},
        "userAgent": "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def words(lang: str, key: str, **values) -> str:
    """The page's words `key` in `lang` (the catalogue's page.<key>), as a page shows them."""
    return M.text("page." + key, lang, **values)


def playing(lang: str, name: str | None = None) -> str:
    """The status of a legal play in progress (name: the player to move)."""
    to_move = f"; {words(lang, 'to_move', name=name)}" if name else ""
    return f"{words(lang, 'legal')} ({words(lang, 'in_progress')}{to_move})"


class Phone:
    def __init__(self, driver, base, lang: str | None = None):
        from selenium.webdriver.common.by import By

        self.d, self.base, self.By = driver, base, By
        self.lang = lang  # the language every page loaded must speak alone (None: not checked)

    def open(self, path: str):
        if "lang=" in path:
            self.lang = path.split("lang=", 1)[1][:2]
        self.d.get(self.base + path)
        self.speaks()

    def speaks(self):
        """The page speaks its language alone: the html's lang, no missing message, no word
        of the other language (tests/test_page_words.py: foreign_words); a play's page,
        without record jargon or Markdown (jargon)."""
        if self.lang is None:
            return
        from test_page_words import foreign_words, jargon

        source = self.d.page_source
        assert self.d.execute_script("return document.documentElement.lang") == self.lang, self.d.current_url
        assert "⟦" not in source, self.d.current_url
        foreign = foreign_words(source, self.lang)
        assert not foreign, (self.d.current_url, foreign)
        if "/play/" in self.d.current_url:  # a play's pages speak to players, not in a record's notation
            assert not jargon(source), (self.d.current_url, jargon(source))

    def el(self, id_: str):
        return self.d.find_element(self.By.ID, id_)

    def tap(self, id_: str):
        """A tap where the element is on screen (scrolled into view first, as a thumb would)."""
        from selenium.webdriver.common.action_chains import ActionChains

        from selenium.common.exceptions import StaleElementReferenceException, WebDriverException

        for attempt in range(3):  # on a loaded machine the node can be swapped mid-gesture: find it again
            try:
                el = self.el(id_)
                self.d.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
                # selenium's 250 ms glide to the element also keeps two taps from reading as a
                # double tap (which zooms a phone's page): do not make it shorter
                ActionChains(self.d).move_to_element(el).click().perform()
                return el
            except (StaleElementReferenceException, WebDriverException) as e:
                if attempt == 2 or "document" not in str(e) and not isinstance(e, StaleElementReferenceException):
                    raise

    def download(self, id_: str, folder, pattern: str):
        """Tap a download link and wait for the file it saves in folder. Chromium reserves the
        file's name with an empty file at once and writes a .crdownload beside it, renamed
        over the empty one at the end: the download is done when neither is left."""
        self.tap(id_)
        deadline = time.time() + 30
        while time.time() < deadline:
            found = [p for p in folder.glob(pattern) if not p.name.endswith(".crdownload")]
            if found and not list(folder.glob("*.crdownload")) and found[0].stat().st_size > 0:
                return found[0]
            time.sleep(0.2)
        raise AssertionError(f"no download: {list(folder.iterdir())}")

    def choose(self, id_: str):
        """Tap a choice (a radio button or its label) unless it is chosen already, as a player
        leaves a default alone; a tap costs a rendered frame or two, a look costs nothing."""
        chosen = self.d.execute_script("""
            const e = document.getElementById(arguments[0]);
            const i = e.matches('input') ? e : (e.control || e.querySelector('input'));
            return !!(i && i.checked);""", id_)
        if not chosen:
            self.tap(id_)

    def tap_and_load(self, id_: str):
        """Tap a link or a submit button and wait for the next page: a new page, or (a step
        of a play, sent without reloading) the new content in place of the old <main>; a
        mark left on this page's <main> is gone once either is there."""
        from selenium.webdriver.support.ui import WebDriverWait

        self.d.execute_script("document.querySelector('main').dataset.old = '1'")

        def next_page(d):
            try:
                return d.execute_script("const m = document.querySelector('main');"
                                        "return !!m && !m.dataset.old && document.readyState === 'complete'")
            except Exception:  # between two pages
                return False

        try:
            self.tap(id_)
        except Exception:
            if not next_page(self.d):  # the tap did not lead anywhere: a real failure
                raise
        WebDriverWait(self.d, 30, poll_frequency=0.02).until(next_page)  # a step takes ~0.1 s: the default 0.5 s poll would triple it
        self.speaks()

    def type(self, id_: str, text: str):
        el = self.tap(id_)
        el.clear()
        self.keys(el, text)

    def keys(self, el, text: str):
        """Type `text` into the field `el` and wait until the field holds it (as far as its
        maxlength lets it), as a thumb sees the name before tapping on: chromedriver can
        answer before the browser has handled the keys, and on a loaded machine a Save
        tapped next was sent with the field still empty."""
        from selenium.webdriver.support.ui import WebDriverWait

        el.send_keys(text)
        limit = int(el.get_attribute("maxLength") or -1)  # -1: no maxlength
        want = text if limit < 0 else text[:limit]
        WebDriverWait(self.d, 60, poll_frequency=0.02).until(lambda d: el.get_attribute("value") == want)

    def text(self, id_: str) -> str:
        return self.el(id_).text.strip()

    def no_sideways_scroll(self):
        width = self.d.execute_script("return document.documentElement.scrollWidth")
        inner = self.d.execute_script("return window.innerWidth")
        assert width <= inner, f"{self.d.current_url}: the page is {width} px wide on a {inner} px screen"

    def small_targets(self) -> list[str]:
        """Buttons, links, inputs and labels of choices shorter than 44 px."""
        return self.d.execute_script("""
            const out = [];
            for (const el of document.querySelectorAll('a, button, summary, input:not([type=hidden]):not([type=checkbox]):not([type=radio]), select, label.tap')) {
              const r = el.getBoundingClientRect();
              if (r.width && r.height && (r.height < 43.5 || r.width < 43.5)) out.push((el.id || el.textContent.trim()).slice(0, 40) + ' ' + r.width.toFixed(0) + 'x' + r.height.toFixed(0));
            }
            return out;""")

    def shot(self, name: str):
        """A screenshot into SHEETKIT_SCREENSHOTS, named by what it shows and, for a page
        in another language than English, that language (name-es.png)."""
        folder = os.environ.get("SHEETKIT_SCREENSHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            suffix = f"-{self.lang}" if self.lang not in (None, "en") else ""
            self.d.save_screenshot(str(Path(folder) / f"{name}{suffix}.png"))


@pytest.fixture
def phone(browser, server):
    p = Phone(browser, server, "en")
    p.open("/?lang=en")
    return p


def test_viewport_is_a_phone(phone):
    assert phone.d.execute_script("return window.innerWidth") == WIDTH


@pytest.mark.parametrize("path", ["/", "/tally/yuncos", "/tally/glux", "/tally/glux?board=2p", "/tally/iunu",
                                  "/tally/levelx", "/check", "/no/such/page", "/?lang=es", "/tally/glux?lang=es"])
def test_no_page_scrolls_sideways_and_targets_are_big_enough(phone, path):
    phone.open(path)
    phone.no_sideways_scroll()
    assert phone.small_targets() == []


def test_home_to_yuncos_tally_by_taps(phone):
    from sheetkit.games.yuncos.tally import tally_counts

    phone.tap_and_load("tally-yuncos")
    phone.tap("level-hard")
    for field, value in (("nests", "8"), ("columns", "1"), ("fish", "4"), ("stars", "5"), ("colours", "3"), ("crashes", "1")):
        phone.type(field, value)
    phone.tap("solo")
    phone.tap_and_load("submit")
    want = tally_counts("hard", nests=8, columns=1, fish=4, stars=5, colours=3, crashes=1, solo=True)
    assert phone.text("status") == "Legal"
    assert phone.d.find_element(phone.By.CSS_SELECTOR, ".total-value").text == str(want.total)
    assert phone.text("rank")
    assert phone.el("nests").get_attribute("value") == "8"
    phone.no_sideways_scroll()
    phone.shot("yuncos-tally")


def test_yuncos_absurd_value_keeps_the_form(phone):
    phone.open("/tally/yuncos")
    phone.type("nests", "9" * 300)
    phone.type("fish", "3")
    phone.tap_and_load("submit")
    assert "Filled nest boxes" in phone.text("error")
    assert phone.el("fish").get_attribute("value") == "3"
    phone.no_sideways_scroll()


def test_glux_tally_by_taps(phone):
    phone.open("/tally/glux")
    phone.tap_and_load("board-2p")
    phone.type("name0", "Ana")
    phone.type("name1", "Ben")
    phone.type("pips0_A", "7")
    phone.type("pips1_A", "3")
    phone.type("pips1_B", "4")
    phone.type("pips0_middle", "2")
    phone.tap_and_load("submit")
    assert phone.text("status") == "Legal"
    assert phone.text("winners") == "Winner: Ana"  # a room each; the middle room is Ana's
    phone.no_sideways_scroll()
    phone.shot("glux-tally")


def test_levelx_tally_by_taps(phone):
    want = records.check(records.load(EXAMPLES / "levelx-final.toml")).verdict
    import tomllib

    phone.open("/tally/levelx")
    for i, p in enumerate(tomllib.loads((EXAMPLES / "levelx-final.toml").read_text())["player"]):
        phone.type(f"name{i}", p["name"])
        for v, n in p["chips"].items():
            phone.type(f"p{i}_chips_{v}", str(n))
        for b in p["bonuses"]:
            phone.tap(f"p{i}_bonus_{b}")
    phone.tap_and_load("submit")
    assert phone.text("status") == "Legal"
    totals = [e.text for e in phone.d.find_elements(phone.By.CSS_SELECTOR, ".total-value")]
    assert totals == [str(s.total) for s in want.scores]
    assert phone.text("winners").endswith(", ".join(want.winners))
    phone.no_sideways_scroll()
    phone.shot("levelx-tally")


def test_iunu_deck_once_then_players_by_taps(phone):
    import tomllib

    from selenium.webdriver.support.ui import Select

    want = records.check(records.load(EXAMPLES / "iunu-game.toml")).verdict
    deck = tomllib.loads((EXAMPLES / "iunu-deck-example.toml").read_text())["castes"]
    phone.open("/tally/iunu")
    phone.type("deck_ninth_name", deck["artisan"]["name"] if "name" in deck["artisan"] else "Artisan")
    for key, c in deck.items():
        k = "ninth" if key == "artisan" else key
        for f in ("cards", "vp", "bread"):
            phone.type(f"deck_{k}_{f}", str(c[f]))
    phone.tap_and_load("save-deck")
    assert phone.text("notice")
    for i, p in enumerate(tomllib.loads((EXAMPLES / "iunu-game.toml").read_text())["player"]):
        phone.type(f"name{i}", p["name"])
        phone.type(f"p{i}_deben", str(p["deben"]))
        for table in ("cards", "fed"):
            for caste, n in p[table].items():
                phone.type(f"p{i}_{table}_{'ninth' if caste == 'artisan' else caste}", str(n))
        for j, a in enumerate(p["afterlife"]):
            phone.tap(f"p{i}_after{j}_caste")
            Select(phone.el(f"p{i}_after{j}_caste")).select_by_value(a["caste"])
            phone.type(f"p{i}_after{j}_mult", str(a["multiplier"]))
    phone.tap_and_load("submit")
    assert phone.text("status") == "Legal"
    totals = [e.text for e in phone.d.find_elements(phone.By.CSS_SELECTOR, ".total-value")]
    assert totals == [str(s.total) for s in want.scores]
    assert phone.text("winners").endswith(", ".join(want.winners))
    assert want.tiebreak("en") in phone.text("tiebreak")
    phone.no_sideways_scroll()
    phone.shot("iunu-tally")


@pytest.mark.parametrize("example", ["yuncos-illegal.toml", "glux-game-illegal.toml", "levelx-game-illegal.toml"])
def test_upload_a_record_and_see_its_findings(phone, example):
    want = records.check(records.load(EXAMPLES / example)).verdict
    phone.open("/check")
    phone.el("record-file").send_keys(str(EXAMPLES / example))  # the file chooser, as a phone's picker fills it
    phone.tap_and_load("submit")
    assert phone.text("status") == f"ILLEGAL: {want.errors} finding{'' if want.errors == 1 else 's'}"
    items = phone.d.find_elements(phone.By.CSS_SELECTOR, "#findings li")
    assert [li.find_element(phone.By.CSS_SELECTOR, ".rule").text for li in items] == [f.rule for f in want.findings]
    for li, f in zip(items, want.findings):
        assert f.message in li.text
    sheet = phone.d.find_element(phone.By.CSS_SELECTOR, ".sheet svg")
    assert 0 < sheet.size["width"] <= WIDTH
    phone.no_sideways_scroll()
    phone.shot("check-" + example.removesuffix(".toml"))
    if example.startswith("yuncos"):
        phone.d.execute_script("arguments[0].scrollIntoView()", sheet)
        phone.shot("check-yuncos-sheet")


def test_spanish_page(phone):
    phone.open("/?lang=es")
    assert phone.text("check-link") == "Comprobar una partida"
    phone.lang = "en"  # the switch: every page in English from now on
    phone.tap_and_load("lang-switch")
    assert phone.text("check-link") == "Check a record"
    phone.open("/?lang=es")
    phone.shot("home")  # home-es.png: the page is in Spanish
