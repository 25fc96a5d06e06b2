"""How the label placer's time grows with the tags it places, measured in one run.

    python bench/bench_labels.py            # from the repository root; about half a minute

1. The busy sheet: the checked Yuncos illegal example (every printed word and number on it,
   and the overlay's turn numbers and values, are obstacles: about 250 boxes) with 10, 100
   and 1,000 tags anchored at points of its map and puzzles, a quarter of them on an
   earlier tag's spot. A4 has room for a few hundred tags: past that a tag tries every
   candidate within reach (16 directions x 25 rings) before it is reported unplaced, so
   the time a tag grows until the sheet is full and then stays flat.
2. The same density on a growing field: 10, 100 and 1,000 tags over a field grown with
   them (a poster for 1,000), with obstacles at the busy sheet's density: the time a tag
   should stay flat, which is what the spatial index is for.
Each line prints the time, the time a tag, and its ratio to the 10-tag case. The baseline
for 10 and 100 tags is the naive placement, measured in the same run: the same candidates
in the same order, each checked against every obstacle, tag and leader (the result is the
same, which the run checks). Times are the best of several runs.
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
    return L.text_boxes(page.items, scene.forms, keep=lambda t: t.color != RED), L.drawable(page)


def tags(n: int, w: float = 150.0, h: float = 215.0) -> list[L.Tag]:
    rnd = random.Random(15)  # fixed: the same tags every run
    out = []
    for k in range(1, n + 1):
        if k % 4 == 0 and out:  # every 4th on an earlier tag's spot, as rule ids pile up on a square
            out.append(L.Tag(str(k), out[rnd.randrange(len(out))].anchor, 3.0))
        else:
            out.append(L.Tag(str(k), (rnd.uniform(30, 30 + w), rnd.uniform(25, 25 + h)), rnd.choice((0.0, 3.0))))
    return out


def field(n: int):
    """n tags and obstacles at the density of 100 tags on the busy sheet."""
    k = (n / 100) ** 0.5
    rnd = random.Random(n)
    w, h = 150.0 * k, 215.0 * k
    obstacles = [(x, y, x + rnd.uniform(1, 6), y + rnd.uniform(1, 3))
                 for x, y in ((rnd.uniform(30, 30 + w), rnd.uniform(25, 25 + h)) for _ in range(int(250 * k * k)))]
    return tags(n, w, h), obstacles, (10.0, 10.0, 50 + w, 45 + h)


def best(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def series(title: str, cases) -> None:
    print(title)
    base = None
    for n, ts, obstacles, area in cases:
        fast = L.place(ts, obstacles, area)
        runs = 5 if n <= 100 else 2
        t = best(lambda: L.place(ts, obstacles, area), runs)
        per = t / n
        base = base or per
        leaders = sum(p.leader is not None for p in fast.placed)
        line = (f"  {n:5d} tags, {len(obstacles):5d} obstacles: {t * 1000:8.1f} ms, {per * 1e6:7.1f} us a tag "
                f"({per / base:4.1f}x the 10-tag case); placed {len(fast.placed)} ({leaders} led), "
                f"unplaced {len(fast.unplaced)}; {fast.tried / n:5.1f} candidates and {fast.compared / n:6.1f} "
                f"comparisons a tag")
        print(line)
        if n <= 100:
            slow = L.place(ts, obstacles, area, naive=True)
            assert fast == slow, "the index changed the placement"
            t_slow = best(lambda: L.place(ts, obstacles, area, naive=True), 3)
            print(f"         naive {t_slow * 1000:8.1f} ms   naive/indexed {t_slow / t:5.1f}x")


def main() -> None:
    obstacles, area = busy_sheet()
    series("The busy sheet (A4), fuller and fuller:", [(n, tags(n), obstacles, area) for n in (10, 100, 1000)])
    series("The same density on a growing field:", [(n, *field(n)) for n in (10, 100, 1000)])


if __name__ == "__main__":
    main()
