"""Benchmark: from the tap on Enter to the updated page, in Chromium at phone size.

    python bench/bench_web_browser.py [--moves 12]

A real server (bench_web.Server: the app of `sheetkit serve` over a real SQLite history,
in a thread on 127.0.0.1) and Debian's Chromium driven by selenium at 390 x 844 (nothing
is downloaded). For Yuncos (solo), Glüx and Level X, a play is started on the page and its
moves are entered as the games of bench_web.py give them: each move's form is filled,
Enter is pressed, and the time runs from the submit to the frame after the page shows the
new play (the page's `sheetkit:updated` event, then two animation frames). Measured in the
same run, the baseline: the same moves with the page reloaded per move as it is without
scripts (the form posted the old way: to the `load` of the next page). Printed: the median
and p95 of each, their ratio, and the bytes each move brings (the answer's body).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import bench_web as W  # noqa: E402  (the server and the games of the other web benchmark)

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
WIDTH, HEIGHT = 390, 844

FILL = """
const [formId, values] = arguments;
const form = document.getElementById(formId);
for (const [name, value] of Object.entries(values)) {
  const fields = form.querySelectorAll('[name="' + name + '"]');
  if (!fields.length) continue;
  for (const f of fields) {
    if (f.type === 'radio' || f.type === 'checkbox') f.checked = f.value === value;
    else f.value = value;
  }
}
return true;
"""

# Enter pressed with the page's own script at work: to the frame after the update
STEP = """
const [formId, done] = [arguments[0], arguments[arguments.length - 1]];
const form = document.getElementById(formId);
const button = form.querySelector('button[type="submit"]:not([formaction])') || form.querySelector('button');
const t0 = performance.now();
document.addEventListener('sheetkit:updated', () => requestAnimationFrame(() => requestAnimationFrame(() => {
  const got = performance.getEntriesByType('resource').filter(e => e.initiatorType === 'fetch').pop();
  done([performance.now() - t0, got ? got.encodedBodySize : 0]);
})), {once: true});
form.requestSubmit(button);
"""

# the same move posted the old way (what a phone without scripts does): the whole page again
RELOAD = """
const form = document.getElementById(arguments[0]);
window.name = JSON.stringify({t0: performance.timeOrigin + performance.now()});
form.enctype = 'multipart/form-data';  // the page's script leaves such a form alone
form.submit();
"""

LOADED = """
const nav = performance.getEntriesByType('navigation')[0];
if (document.readyState !== 'complete' || !nav || !nav.loadEventEnd || !window.name) return null;
const t0 = JSON.parse(window.name).t0;
window.name = '';
return [performance.timeOrigin + nav.loadEventEnd - t0, nav.encodedBodySize];
"""


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--disable-background-networking", f"--window-size={WIDTH},{HEIGHT}"):
        options.add_argument(arg)
    options.add_experimental_option("mobileEmulation", {
        "deviceMetrics": {"width": WIDTH, "height": HEIGHT, "pixelRatio": 2, "touch": True}})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_script_timeout(60)
    return driver


def start(driver, base: str, game: dict) -> None:
    driver.get(f"{base}/play/new?game={game['game']}")
    driver.execute_script(FILL, "start-form", {"game": game["game"], **game["start"]})
    driver.execute_script("document.getElementById('start-form').submit()")
    wait(driver, lambda d: d.find_elements("id", "move-form"))


def wait(driver, until, seconds: float = 60):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds, poll_frequency=0.005).until(until)


def one_game(driver, base: str, game: dict, moves: int, reload: bool) -> list[tuple[float, int]]:
    start(driver, base, game)
    out = []
    for form in game["moves"][:moves]:
        driver.execute_script(FILL, "move-form", form)
        if reload:
            driver.execute_script(RELOAD, "move-form")
            out.append(wait(driver, lambda d: d.execute_script(LOADED)))
        else:
            out.append(driver.execute_async_script(STEP, "move-form"))
        wait(driver, lambda d: d.find_elements("id", "move-form"))
    return out


def p95(values: list[float]) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=12, help="moves entered per game and way (default 12)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="sheetkit-bench-") as tmp:
        server = W.Server(Path(tmp) / "history.sqlite3")
        base = f"http://127.0.0.1:{server.port}"
        driver = browser()
        rows = []
        try:
            for name in ("yuncos", "glux", "levelx"):
                game = W.GAMES[name]()
                if game is None:
                    continue
                kept = one_game(driver, base, game, args.moves, reload=False)
                full = one_game(driver, base, game, args.moves, reload=True)
                rows.append((game["title"], kept, full))
        finally:
            driver.quit()
            server.close()
    print(f"Chromium at {WIDTH}x{HEIGHT}, {args.moves} moves a game and way; "
          "time from the submit to the frame after the page shows the move")
    print(f"{'game':<16}{'in place p50':>13}{'p95':>8}{'kB':>7}{'reload p50':>12}{'p95':>8}{'kB':>7}{'reload/in place':>17}")
    for title, kept, full in rows:
        k = [t for t, _ in kept]
        f = [t for t, _ in full]
        kb = statistics.median(b for _, b in kept) / 1024
        fb = statistics.median(b for _, b in full) / 1024
        print(f"{title:<16}{statistics.median(k):>11.0f}ms{p95(k):>6.0f}ms{kb:>7.1f}"
              f"{statistics.median(f):>10.0f}ms{p95(f):>6.0f}ms{fb:>7.1f}{statistics.median(f) / statistics.median(k):>16.2f}x")
    goal = all(statistics.median(t for t, _ in kept) < 100 for _, kept, _ in rows)
    print(json.dumps({"goal_under_100ms_median": goal}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
