"""How fast the label placer puts 100 tags on a busy sheet, measured in one run.

    python bench/bench_labels.py            # from the repository root; a few seconds

The sheet is the checked Yuncos illegal example (every printed word and number on it, and
the overlay's turn numbers and values, are obstacles: about 250 boxes) with 100 tags
anchored at points of its map and puzzles, several on the same spot. The placer with its
spatial index is measured against the naive placement: the same candidates in the same
order, each checked against every obstacle and every tag (the result is the same, which
the run checks). Times are the best of several runs.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sheetkit.checking import records  # noqa: E402
from sheetkit.paper import labels as L  # noqa: E402
from sheetkit.paper.annotate import RED  # noqa: E402


def busy_sheet():
    loaded = records.load(ROOT / "examples" / "yuncos-illegal.toml")
    checked = records.check(loaded)
    scene = loaded.kind.overlay(loaded.record, checked, "a4")
    page = scene.pages[0]
    return page, L.text_boxes(page.items, scene.forms, keep=lambda t: t.color != RED)


def tags(n: int, page) -> list[L.Tag]:
    rnd = random.Random(15)  # fixed: the same tags every run
    out = []
    for k in range(1, n + 1):
        if k % 4 == 0 and out:  # every 4th on an earlier tag's spot, as rule ids pile up on a square
            out.append(L.Tag(str(k), out[rnd.randrange(len(out))].anchor, 3.0))
        else:
            out.append(L.Tag(str(k), (rnd.uniform(30, 180), rnd.uniform(25, 240)), rnd.choice((0.0, 3.0))))
    return out


def best(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    page, obstacles = busy_sheet()
    area = L.drawable(page)
    for n in (10, 100):
        ts = tags(n, page)
        fast = L.place(ts, obstacles, area)
        slow = L.place(ts, obstacles, area, naive=True)
        assert fast == slow, "the index changed the placement"
        t_fast = best(lambda: L.place(ts, obstacles, area), 5)
        t_slow = best(lambda: L.place(ts, obstacles, area, naive=True), 3)
        leaders = sum(p.leader is not None for p in fast.placed)
        print(f"{n:4d} tags, {len(obstacles)} obstacles: placed {len(fast.placed)} "
              f"({leaders} with a leader line), unplaced {len(fast.unplaced)}")
        print(f"     indexed {t_fast * 1000:8.1f} ms   naive {t_slow * 1000:8.1f} ms   "
              f"naive/indexed {t_slow / t_fast:5.1f}x")


if __name__ == "__main__":
    main()
