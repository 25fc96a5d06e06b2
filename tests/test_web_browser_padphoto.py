"""A filled score pad read from a photo in Chromium at 390 x 844, for each game whose pad
the reader reads: the photo sent through the page's file input, each cell the reader
marked tapped on the photo (the tap puts the cursor in that cell's box) and set to the
truth, the names typed, saved; the record downloaded from the play's end page gives the
truth's scores with `sheetkit check`.

The photos are SIMULATED (sheetkit.photo.padsimulate: a random legal end of a game written
into the numbered pad and photographed as a phone does), so the test knows what
the pad says. Screenshots go to SHEETKIT_SCREENSHOTS when it is set.
"""

from __future__ import annotations

import json
import os
import urllib.request

import pytest

pytest.importorskip("cv2")
pytest.importorskip("zxingcpp")

from sheetkit.photo import padsimulate  # noqa: E402

from conftest import sheetkit  # noqa: E402
from test_web_browser import CHROMEDRIVER, CHROMIUM, Phone, browser  # noqa: E402,F401  (the browser fixture)
from test_web_browser_yuncos import server  # noqa: E402,F401  (a real server on a real history file)

pytestmark = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER) or not os.path.exists(CHROMIUM),
                                reason="Debian's chromium and chromium-driver are not installed")

# a seed and tier per game whose photo reads with cells marked (Level X reads every cell of a
# photo at a table surely: its photo is a steep, shadowed, small one)
SEEDS = {"levelx": (11, "steep"), "glux": (12, "table"), "iunu": (1, "table")}


class Reader(Phone):
    def wait_for(self, id_: str, seconds: float = 180):
        """Wait for the page after a slow submit (reading a photo takes seconds)."""
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(self.d, seconds, poll_frequency=0.02).until(
            lambda d: d.execute_script("return document.readyState === 'complete' && !!document.getElementById(arguments[0])",
                                       id_))

    def confirm(self, values: dict) -> list[str]:
        """Each marked cell tapped on the photo and set to the truth: the tap must leave the
        cursor in that cell's own input."""
        keys = []
        for fs in self.d.find_elements(self.By.CSS_SELECTOR, "fieldset.confirm:not(.done)"):
            n = fs.get_attribute("id").removeprefix("field-")
            key = fs.get_attribute("data-key")
            keys.append(key)
            self.tap(f"tap-{n}")
            assert self.d.execute_script("return document.activeElement.id") == f"in-{n}", key
            box = self.el(f"in-{n}")
            truth = values.get(key)
            if box.get_attribute("type") == "checkbox":
                if box.is_selected() != bool(truth):
                    self.tap(f"lab-{n}")
                assert box.is_selected() == bool(truth)
            else:
                box.clear()  # the cursor is in it: typed as a thumb does after the tap
                if truth is not None:
                    self.keys(box, str(truth))
        return keys

    def small_targets_off_the_photo(self) -> list[str]:
        """As small_targets, the outlines on the whole photo left out: a pad's cell is a few
        millimetres there; each has its close-up and input below, thumb-sized."""
        return [t for t in self.small_targets() if not t.startswith("tap-")]


def scores_checked(path) -> dict[str, int]:
    run = sheetkit("check", str(path), "--json")
    assert run.code in (0, 1), run.err
    return {s["player"]: s["total"] for s in json.loads(run.out)[0]["scores"]}


@pytest.mark.slow
@pytest.mark.parametrize("game", list(SEEDS))
def test_a_pad_is_photographed_confirmed_by_taps_saved_and_checks_as_the_truth(
        browser, server, game, tmp_path):  # noqa: F811
    base, db = server
    seed, tier = SEEDS[game]
    s = padsimulate.sample(seed, game, tier)
    path = tmp_path / "pad.jpg"
    padsimulate.write(s, path)
    p = Reader(browser, base)
    p.open("/?lang=en")
    p.tap_and_load("pad-photo-link")
    p.no_sideways_scroll()
    assert p.small_targets() == []
    p.el("pad-file").send_keys(str(path))
    p.tap("pad-submit")
    p.wait_for("pad-fields")
    assert "/pad-photo/" in p.d.current_url
    p.speaks()
    p.no_sideways_scroll()
    assert p.small_targets_off_the_photo() == []
    p.shot(f"pad-photo-{game}-confirm")
    names = {c: f"Ana{c}" for c in s.players}
    tapped = []
    for _ in range(6):
        tapped += p.confirm(s.values)
        for c in s.players:
            p.type(f"name-{c}", names[c])
        p.tap_and_load("save")
        if "/pad-photo/" not in p.d.current_url:
            break
        error = p.d.find_elements(p.By.ID, "error")
        assert error and "more cell" in error[0].text, error[0].text if error else p.d.page_source[:2000]
    assert "/end" in p.d.current_url, p.d.current_url
    assert tapped, "the seed is chosen for a draft with cells to confirm"
    p.no_sideways_scroll()
    link = p.d.find_element(p.By.CSS_SELECTOR, "a[href$='/record/1']").get_attribute("href")
    record = tmp_path / "pad.toml"
    record.write_bytes(urllib.request.urlopen(link, timeout=30).read())
    assert scores_checked(record) == {names[int(k.split()[1]) - 1]: v for k, v in s.scores.items()}


def test_the_confirm_screen_of_a_pad_in_spanish(browser, server, tmp_path):  # noqa: F811
    """The confirm screen speaks Spanish alone, fits the phone's width, and a tap on a
    marked cell of the photo puts the cursor in its box."""
    base, _ = server
    s = padsimulate.sample(SEEDS["glux"][0], "glux", "table")
    path = tmp_path / "pad.jpg"
    padsimulate.write(s, path)
    p = Reader(browser, base)
    p.open("/pad-photo?lang=es")
    p.el("pad-file").send_keys(str(path))
    p.tap("pad-submit")
    p.wait_for("pad-fields")
    p.speaks()
    p.no_sideways_scroll()
    p.shot("pad-photo-glux-confirm")
    p.tap("tap-1")
    assert p.d.execute_script("return document.activeElement.id") == "in-1"
    p.d.execute_script("document.getElementById('field-1').scrollIntoView({block: 'start'})")
    p.shot("pad-photo-glux-field")
    p.d.execute_script(f"document.getElementById('name-box-{s.players[0]}').scrollIntoView({{block: 'start'}})")
    p.shot("pad-photo-glux-names")
