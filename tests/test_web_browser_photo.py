"""A Yuncos sheet read from a photo in Chromium at 390 x 844: the photo sent through the
page's file input, the uncertain fields confirmed by taps (and typing for a flight)
towards the game that was drawn, checked, saved; the record downloaded from the end page
gives the page's verdict with `sheetkit check`, and the truth's.

The photo is SIMULATED (sheetkit.photo.simulate: a random legal game pencilled onto the
rendered sheet, photographed with perspective, blur, uneven light, noise and JPEG), so
the test knows the game it shows. Screenshots go to SHEETKIT_SCREENSHOTS when it is set.
"""

from __future__ import annotations

import urllib.request

import pytest

pytest.importorskip("cv2")

from sheetkit.photo import simulate  # noqa: E402

from conftest import sheetkit  # noqa: E402
from test_web_browser import CHROMEDRIVER, CHROMIUM, Phone, browser  # noqa: E402,F401  (the browser fixture)
from test_web_browser_yuncos import server  # noqa: E402,F401  (a real server on a real history file)

pytestmark = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER) or not __import__("os").path.exists(CHROMIUM),
                                reason="Debian's chromium and chromium-driver are not installed")

SEED = 1  # a simulated Easy sheet that reads into a draft with uncertain flights and dice


class Reader(Phone):
    def wait_for(self, id_: str, seconds: float = 180):
        """Wait for the page after a slow submit (reading a photo takes seconds)."""
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(self.d, seconds, poll_frequency=0.02).until(
            lambda d: d.execute_script("return document.readyState === 'complete' && !!document.getElementById(arguments[0])",
                                       id_))

    def confirm(self, truth: dict) -> list[str]:
        """Each uncertain field's control set to the truth, by taps (typing for a flight)."""
        keys = []
        for fs in self.d.find_elements(self.By.CSS_SELECTOR, "fieldset.confirm"):
            n = fs.get_attribute("id").removeprefix("field-")
            key = fs.get_attribute("data-key")
            keys.append(key)
            if key.startswith("turn["):
                t = int(key[5:key.index("]")])
                what = key.split(".", 1)[1]
                entry = truth["turn"][t - 1]
                if what == "flight":
                    self.type(f"in-{n}", entry["flight"])
                elif what == "dice":
                    for d in (1, 2):
                        self.choose(f"in-{n}-{d}-{entry['dice'][d - 1]}")
                elif what == "value":  # where the number went (a box or a crash), then the number
                    from selenium.webdriver.support.ui import Select

                    from sheetkit.photo.flight import turn_cells

                    Select(self.el(f"in-{n}-box")).select_by_value(turn_cells(truth)[t - 1] or "crash")
                    if not entry.get("crash"):
                        self.choose(f"in-{n}-{entry['value']}")
            elif key in ("start", "fish_marked", "crashes_marked"):
                self.choose(f"in-{n}-{truth[key]}")
        return keys


@pytest.fixture(scope="module")
def photo(tmp_path_factory):
    s = simulate.sample(SEED, "yuncos-easy", (1200, 1600))
    path = tmp_path_factory.mktemp("photo") / "sheet.jpg"
    path.write_bytes(s.jpeg)
    return s, path


def verdict_of(record_path) -> tuple[int, str]:
    run = sheetkit("check", str(record_path))
    return run.code, run.out


def test_a_photo_is_read_confirmed_by_taps_checked_and_saved(browser, server, photo, tmp_path):  # noqa: F811
    base, db = server
    s, path = photo
    p = Reader(browser, base)
    p.open("/?lang=en")
    p.tap_and_load("photo-link")
    p.no_sideways_scroll()
    assert p.small_targets() == []
    p.shot("photo-1-form")
    p.el("photo-file").send_keys(str(path))
    p.type("photo-name", "Ana")
    p.tap("photo-submit")
    p.wait_for("fields-form")
    assert "/photo/" in p.d.current_url
    p.no_sideways_scroll()
    assert p.small_targets() == []
    p.shot("photo-2-confirm")
    keys = p.confirm(s.truth)
    assert keys, "the seed is chosen for a draft with fields to confirm"
    first = p.el("field-1")
    p.d.execute_script("arguments[0].scrollIntoView({block: 'start'})", first)
    p.shot("photo-3-field")
    dice = p.d.find_elements(p.By.CSS_SELECTOR, "fieldset.confirm[data-key$='.dice']")
    if dice:
        p.d.execute_script("arguments[0].scrollIntoView({block: 'start'})", dice[0])
        p.shot("photo-3-dice")
    p.tap_and_load("check-fields")
    p.wait_for("fields-form")
    assert "error" not in p.d.page_source or not p.d.find_elements(p.By.ID, "error")
    status = p.text("status")
    # every field was confirmed: shown so, in green
    assert len(p.d.find_elements(p.By.CSS_SELECTOR, "fieldset.confirm.done")) == len(keys)
    p.d.execute_script("document.getElementById('result').scrollIntoView({block: 'start'})")
    p.shot("photo-4-checked")
    p.tap_and_load("save")
    p.wait_for("play-page")
    assert p.text("status") == status
    p.no_sideways_scroll()
    p.shot("photo-5-saved")
    p.tap_and_load("play-page")
    assert "/end" in p.d.current_url
    link = p.d.find_element(p.By.CSS_SELECTOR, "a[href$='/record/1']").get_attribute("href")
    record = tmp_path / "sheet.toml"
    record.write_bytes(urllib.request.urlopen(link, timeout=30).read())
    # the downloaded record checks as the page said, and as the game that was drawn
    code, out = verdict_of(record)
    truth = tmp_path / "truth.toml"
    from sheetkit.tomlfile import dump_toml

    truth.write_text(dump_toml(s.truth))
    t_code, t_out = verdict_of(truth)
    assert code == t_code
    want = [line for line in t_out.splitlines() if "total" in line.lower() or "score" in line.lower()]
    got = [line for line in out.splitlines() if "total" in line.lower() or "score" in line.lower()]
    assert got == want
    assert (status == "Legal") == (code == 0)
    from sheetkit.history.store import Store

    with Store.open(db) as store:
        (play,) = store.plays()
        assert not play.in_progress
