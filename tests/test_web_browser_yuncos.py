"""A whole 2-player Yuncos game (Easy) entered by taps in Chromium at 390 x 844: each
player's start point and flight tapped on the map, the turn's dice once per turn, the
puzzle and the number, one wrong move undone; the game ends by the rules, and the records
downloaded from the end page give the page's verdict with `sheetkit check`.

The game is the random player's (sheetkit.games.yuncos.play), so its scores are known
without the checker. It is played in each language, every page checked for a word of the
other (Phone.speaks). Screenshots go to SHEETKIT_SCREENSHOTS when it is set.
"""

from __future__ import annotations

import json
import random
import threading
import urllib.request

import pytest

from sheetkit import layouts
from sheetkit import messages as M
from sheetkit.games.yuncos.play import play_table
from sheetkit.games.yuncos.record import parse_flight

from conftest import sheetkit
from test_web_browser import CHROMEDRIVER, CHROMIUM, Phone, browser, words  # noqa: F401  (the browser fixture)
from test_web_browser_plays import final_board

pytestmark = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER) or not __import__("os").path.exists(CHROMIUM),
                                reason="Debian's chromium and chromium-driver are not installed")

NAMES = ("Ana", "Bea")


@pytest.fixture
def server(tmp_path):
    from werkzeug.serving import make_server

    from sheetkit.web.app import create_app

    db = tmp_path / "history.sqlite3"
    srv = make_server("127.0.0.1", 0, create_app(db=db), threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}", db
    srv.shutdown()
    thread.join(timeout=10)


def taps_of(flight: str, start) -> list[tuple[int, int]]:
    """The map points a thumb taps for a flight: the end of every straight run of unit
    steps, and of every diagonal step."""
    pos, out, last = start, [], None
    for dx, dy in parse_flight(flight):
        pos = (pos[0] + dx, pos[1] + dy)
        if (dx, dy) == last and not (dx and dy):
            out[-1] = pos
        else:
            out.append(pos)
        last = (dx, dy)
    return out


class Table(Phone):
    def tap_point(self, v):
        """A tap on a map point, where the map shows it now."""
        from selenium.webdriver.common.action_chains import ActionChains

        svg = self.d.find_element(self.By.CSS_SELECTOR, "#yu-map svg")
        self.d.execute_script("arguments[0].scrollIntoView({block: 'center'})", svg)
        x, y, cx, cy = self.d.execute_script("""
            const svg = arguments[0], g = JSON.parse(document.getElementById('yu-map').dataset.geometry);
            const p = svg.createSVGPoint(); p.x = g.x + arguments[1] * g.sq; p.y = g.y + arguments[2] * g.sq;
            const q = p.matrixTransform(svg.getScreenCTM()); const b = svg.getBoundingClientRect();
            return [q.x, q.y, b.left + b.width / 2, b.top + b.height / 2];""", svg, v[0], v[1])
        ActionChains(self.d).move_to_element_with_offset(svg, round(x - cx), round(y - cy)).click().perform()

    def visible(self, v) -> bool:
        g = self.geometry()
        x0, y0, w, h = map(float, self.d.execute_script(
            "return document.querySelector('#yu-map svg').getAttribute('viewBox')").split())
        x, y = g["x"] + v[0] * g["sq"], g["y"] + v[1] * g["sq"]
        return x0 < x < x0 + w and y0 < y < y0 + h

    def tap_towards(self, here, v):
        """Tap v, as a thumb does when the zoomed map does not show it yet: first the
        farthest point on the way that it shows (the map then follows the flight)."""
        while here != v:
            dx, dy = (v[0] > here[0]) - (v[0] < here[0]), (v[1] > here[1]) - (v[1] < here[1])
            n = max(abs(v[0] - here[0]), abs(v[1] - here[1]))
            way = [(here[0] + k * dx, here[1] + k * dy) for k in range(1, n + 1)]
            shown = [p for p in way if self.visible(p)]
            assert shown, f"the map shows no point between {here} and {v}"
            self.tap_point(shown[-1])
            here = shown[-1]
        return v

    def geometry(self) -> dict:
        return json.loads(self.el("yu-map").get_attribute("data-geometry"))

    def one_screen(self):
        """A turn on one screen: with the flight's box at the top, the map, the dice (or the
        dice known), the puzzle box and Enter are all in view at 390 x 844, no scrolling."""
        self.d.execute_script("document.querySelector('.yu-map-box').scrollIntoView({block: 'start'})")
        box = self.d.execute_script("""
            const h = window.innerHeight, out = {};
            for (const sel of ['.yu-map-box legend', '.yu-map-box .hint', '#yu-map', '.yu-tools', '.yu-typed', '#die1-1, #dice-known', '#puzzle-nest1', '#value-6', '#enter']) {
              const r = document.querySelector(sel).getBoundingClientRect();
              out[sel] = [Math.round(r.top), Math.round(r.bottom), h];
            }
            return out;""")
        assert all(0 <= top and bottom <= h for top, bottom, h in box.values()), json.dumps(box)

    def turn(self, turn: dict, start_point, dice: bool, kinds):
        g = self.geometry()
        pos = tuple(g["pos"])
        if start_point is not None:
            self.tap_point(start_point)
            pos = start_point
        for v in taps_of(turn["flight"], pos):
            pos = self.tap_towards(pos, v)
        assert parse_flight(self.el("flight").get_attribute("value")) == parse_flight(turn["flight"])
        if dice:
            self.tap(f"die1-{turn['dice'][0]}")
            self.tap(f"die2-{turn['dice'][1]}")
        else:
            assert "dice-known" in self.d.page_source
        if turn.get("crash"):
            self.tap("puzzle-crash")
        else:
            self.tap(f"puzzle-{turn['puzzle'].split('.')[0]}")
            self.tap(f"value-{turn['value']}")
        for kind in ("plusminus", "yunco"):
            self.tap(f"{kind}-{kinds.count(kind)}")


@pytest.mark.slow
@pytest.mark.parametrize("lang", M.LANGS)
def test_a_whole_yuncos_table_by_taps(browser, server, tmp_path, lang):  # noqa: F811
    from sheetkit.games.yuncos.record import box_kind

    base, db = server
    phone = Table(browser, base, lang)
    spec = layouts.load("yuncos-easy").spec
    games = play_table(layouts.load("yuncos-easy"), random.Random(91), players=2, home_after=3)
    totals = [g.total for g in games]

    phone.open(f"/?lang={lang}")
    phone.tap_and_load("new-play")
    phone.tap_and_load("new-yuncos")
    phone.tap("variant-yuncos-easy")
    phone.type("name0", NAMES[0])
    phone.type("name1", NAMES[1])
    phone.shot("yuncos-play-start")
    phone.tap_and_load("start")
    assert phone.text("heading") == words(lang, "yuncos.turn", n=1, name="Ana")
    phone.no_sideways_scroll()
    assert phone.small_targets() == []
    phone.one_screen()
    phone.shot("yuncos-play-turn1")

    undone = False
    longest = max(len(g.record["turn"]) for g in games)
    for n in range(longest):
        first = True
        for i, g in enumerate(games):
            if n >= len(g.record["turn"]):
                continue
            turn = g.record["turn"][n]
            kinds = [u if u in ("plusminus", "yunco", "diagonal") else box_kind(spec, u) for u in turn.get("use", [])]
            start = spec.board.starts[g.record["start"]] if n == 0 else None
            assert phone.text("heading") == words(lang, "yuncos.turn", n=n + 1, name=NAMES[i])
            if n == 2 and i == 1 and not undone:  # a slip of the thumb: a wrong number, seen and undone
                wrong = dict(turn, puzzle="nest1", value=7 - turn.get("value", 1), crash=False)
                phone.turn(wrong, start, first, kinds)
                phone.tap_and_load("enter")
                assert phone.text("status").startswith(M.text("status.illegal", lang, n=1).split(":")[0])
                assert phone.d.find_elements(phone.By.CSS_SELECTOR, "#findings .rule")
                phone.shot("yuncos-play-finding")
                phone.tap_and_load("undo")
                assert phone.text("heading") == words(lang, "yuncos.turn", n=n + 1, name=NAMES[i])
                undone = True
            phone.turn(turn, start, first, kinds)
            if n == 3 and i == 1:  # mid-game, a later player's turn: still one screen
                phone.one_screen()
            if n == 1 and i == 0:
                # zoomed in on the flight, map points are a thumb's width apart
                spacing = phone.d.execute_script("""
                    const svg = document.querySelector('#yu-map svg'), g = JSON.parse(document.getElementById('yu-map').dataset.geometry);
                    return svg.getScreenCTM().a * g.sq;""")
                assert spacing >= 44, f"map points {spacing:.0f} px apart"
                phone.d.execute_script("document.getElementById('yu-map').scrollIntoView({block: 'start'})")
                phone.shot("yuncos-play-taps")
            phone.tap_and_load("enter")
            first = False
    assert undone
    # the rules ended the game: the end page
    assert phone.d.current_url.endswith("/end"), phone.d.current_url
    phone.no_sideways_scroll()
    phone.shot("yuncos-play-end")
    best = max(t for t, g in zip(totals, games) if not g.eliminated)
    winners = [n for n, t in zip(NAMES, totals) if t == best]
    assert phone.text("end-winners") == f"{words(lang, 'winner')}: {', '.join(winners)}"
    assert phone.d.find_elements(phone.By.ID, "move-form") == []  # no move after the end
    assert final_board(phone)["width"] > 300

    # the downloads: each sheet and the table record, checked by `sheetkit check`
    names = []
    for k, id_ in enumerate(("download-record", "download-record2")):
        url = phone.el(id_).get_attribute("href")
        name = phone.el(id_).get_attribute("download")
        (tmp_path / name).write_bytes(urllib.request.urlopen(url, timeout=30).read())
        names.append(name)
    url = phone.el("download-table").get_attribute("href")
    (tmp_path / "table.toml").write_bytes(urllib.request.urlopen(url, timeout=30).read())
    run = sheetkit("check", "table.toml", "--json", cwd=tmp_path)
    assert run.code == 0, run.out
    (v,) = json.loads(run.out)
    assert v["legal"] and v["winners"] == winners and [s["total"] for s in v["scores"]] == totals
    for name, total in zip(names, totals):
        (one,) = json.loads(sheetkit("check", name, "--json", cwd=tmp_path).out)
        assert one["legal"] and one["scores"][0]["total"] == total


def test_a_yuncos_turn_is_fixed_by_taps_on_the_map(browser, server, tmp_path):  # noqa: F811
    """An earlier turn fixed as it was entered: Ana's first flight tapped one step short
    (a finding), Bea's turn entered; then, on the fix page of move 1, Ana's flight cleared
    and tapped again on the map from her start point, checked, saved: the play is legal
    again and goes on. In Spanish, the fix page checked for English words too."""
    base, db = server
    lang = "es"
    phone = Table(browser, base, lang)
    spec = layouts.load("yuncos-easy").spec
    games = play_table(layouts.load("yuncos-easy"), random.Random(91), players=2, home_after=3)
    turns = [g.record["turn"][0] for g in games]
    starts = [spec.board.starts[g.record["start"]] for g in games]
    kinds = [[] for _ in games]  # no abilities on a first turn
    short = dict(turns[0], flight=" ".join(turns[0]["flight"].split()[:-1]))
    assert parse_flight(short["flight"]) != parse_flight(turns[0]["flight"])

    phone.open(f"/?lang={lang}")
    phone.open("/play/new?game=yuncos")
    phone.tap("variant-yuncos-easy")
    phone.type("name0", NAMES[0])
    phone.type("name1", NAMES[1])
    phone.tap_and_load("start")
    phone.turn(short, starts[0], True, kinds[0])
    phone.tap_and_load("enter")
    assert phone.text("status").startswith(M.text("status.illegal", lang, n=1).split(":")[0])
    phone.turn(turns[1], starts[1], False, kinds[1])
    phone.tap_and_load("enter")
    assert phone.text("heading") == words(lang, "yuncos.turn", n=2, name=NAMES[0])

    phone.tap("moves")  # the moves so far, folded away under the turn
    phone.tap_and_load("fix-1")
    assert phone.d.current_url.endswith("/fix/1")
    assert parse_flight(phone.el("flight").get_attribute("value")) == parse_flight(short["flight"])
    phone.no_sideways_scroll()
    phone.tap("tap-clear")  # the script of the play page draws and clears the flight here too
    assert phone.el("flight").get_attribute("value") == ""
    phone.turn(turns[0], starts[0], True, kinds[0])  # start point, flight, dice, puzzle by taps
    phone.d.execute_script("document.getElementById('fix-heading').scrollIntoView({block: 'start'})")
    phone.shot("yuncos-fix-taps")
    phone.tap_and_load("fix-check")  # checked, nothing saved yet
    verdicts = phone.d.find_elements(phone.By.CSS_SELECTOR, "#fix-verdict p.status")
    assert verdicts and all(v.text.startswith(words(lang, "legal")) for v in verdicts), [v.text for v in verdicts]
    assert phone.d.find_elements(phone.By.ID, "fix-later-none")
    phone.tap_and_load("fix-save")
    assert "/fix/" not in phone.d.current_url  # back on the play
    assert phone.text("status").startswith(words(lang, "legal"))
    assert phone.text("heading") == words(lang, "yuncos.turn", n=2, name=NAMES[0])
    phone.tap("moves")
    first = phone.d.find_element(phone.By.CSS_SELECTOR, "#moves li[value='1']").text
    assert turns[0]["flight"] in first, first
