"""Benchmark: `sheetkit stats` over a history of 10,000 plays, against listing them.

    python bench/bench_history.py [--plays N] [--repeat R]

A history file is filled with N plays in one transaction: the verdicts of the example
records (Glüx, IUNU, Level X, a solo Yuncos sheet), really checked once, with 8 people
drawn at random into the seats, dates spread over five years and record texts made unique.
Then, in the same run, on that file:

- list: `Store.plays()`, every play with its seats (what `sheetkit plays` prints);
- stats: `Store.stats()`, the standings (what `sheetkit stats` prints);
- and both commands as a user runs them, in a fresh process each (interpreter start included).

It prints the best CPU time of R repeats and the ratio stats / list.
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sheetkit.history import NewPlay, Sheet, Store, intake  # noqa: E402

PEOPLE = ["Ana", "Ben", "Carla", "Dani", "Eva", "Fran", "Gus", "Hana"]
EXAMPLES = ["glux-game-3p.toml", "iunu-game.toml", "levelx-game.toml", "yuncos-easy-legal.toml"]


def fill(path: Path, n: int, rng: random.Random) -> None:
    templates = []
    for name in EXAMPLES:
        p = str(ROOT / "examples" / name)
        templates.append(intake.plays_from_files([p], ("Ana",) if name.startswith("yuncos") else ())[0])
    plays = []
    for i in range(n):
        t = templates[i % len(templates)]
        sheet = t.sheets[0]
        when = f"{2021 + rng.randrange(5)}-{1 + rng.randrange(12):02d}-{1 + rng.randrange(28):02d} 20:00:00"
        if sheet.named:
            seats = len(sheet.verdict["scores"])
            names = tuple(rng.sample(PEOPLE, seats))
            plays.append(replace(t, sheets=(replace(sheet, text=f"{sheet.text}\n# {i}\n"),), played_at=when,
                                 names=names))
        else:
            plays.append(NewPlay(t.game, (Sheet(f"{sheet.text}\n# {i}\n", sheet.source, sheet.verdict,
                                                rng.choice(PEOPLE)),), when))
    with Store.open(path) as store:
        store.add_plays(plays)


def cpu() -> float:
    """CPU time of this process and of the children it waited for: the machine may be busy
    with other work, which wall-clock time would count too."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = cpu()
        fn()
        times.append(cpu() - t)
    return min(times)


def command(db: Path, *args: str):
    return lambda: subprocess.run([sys.executable, "-m", "sheetkit", *args, "--db", str(db)], cwd=ROOT, check=True,
                                  stdout=subprocess.DEVNULL)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plays", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        t = time.perf_counter()
        fill(db, args.plays, random.Random(12))
        filled = time.perf_counter() - t
        size = db.stat().st_size + (db.with_name(db.name + "-wal").stat().st_size
                                    if db.with_name(db.name + "-wal").exists() else 0)
        with Store.open(db) as store:
            assert len(store.plays()) == args.plays
            t_list = best(store.plays, args.repeat)
            t_stats = best(store.stats, args.repeat)
        c_list = best(command(db, "plays"), args.repeat)
        c_stats = best(command(db, "stats"), args.repeat)
    print(f"{args.plays} plays logged in one transaction: {filled:.2f} s, {size / 1e6:.1f} MB "
          f"(CPU time, best of {args.repeat} below)")
    print(f"{'':<26}{'list':>10}{'stats':>10}{'stats/list':>12}")
    print(f"{'library (Store)':<26}{t_list * 1000:>8.0f}ms{t_stats * 1000:>8.0f}ms{t_stats / t_list:>11.2f}x")
    print(f"{'command (fresh process)':<26}{c_list * 1000:>8.0f}ms{c_stats * 1000:>8.0f}ms{c_stats / c_list:>11.2f}x")


if __name__ == "__main__":
    main()
