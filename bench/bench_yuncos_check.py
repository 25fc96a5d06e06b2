"""Benchmark: checking a 30-turn Yuncos record, against just parsing it.

    python bench/bench_yuncos_check.py [--number N]

For each level, a legal 30-turn game is played by the random player
(sheetkit.games.yuncos.play) and written as TOML text. Then, in the same run:

- parse: TOML text -> validated Record (tomllib + the record models + loading the layout
  it names), what every `sheetkit check` pays anyway;
- check: the replay of the parsed record (rules Y1-Y23, the score), no parsing.

It prints the best time per call of several repeats and the ratio check / parse.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import random
import sys
import timeit
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sheetkit import layouts  # noqa: E402
from sheetkit.games.yuncos.play import play  # noqa: E402
from sheetkit.games.yuncos.record import read_record  # noqa: E402
from sheetkit.games.yuncos.check import check  # noqa: E402

TURNS = 30


def thirty_turn_record(lid: str) -> str:
    layout = layouts.load(lid)
    for seed in range(10_000):
        g = play(layout, random.Random(seed), max_turns=TURNS, home_after=10**6)
        if len(g.record["turn"]) == TURNS:
            return g.toml
    raise SystemExit(f"no {TURNS}-turn game found on {lid}")


def best(stmt, number: int, repeat: int = 5) -> float:
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--number", type=int, default=200, help="calls per timing (default 200)")
    args = ap.parse_args()
    print(f"{'level':<12}{'toml':>10}{'parse':>10}{'parse*':>12}{'check':>10}{'c/parse':>11}{'c/parse*':>10}"
          "   (per call, best of 5)")
    for lid in ("yuncos-easy", "yuncos-hard"):
        text = thirty_turn_record(lid)
        record = read_record(tomllib.loads(text), "bench.toml")
        verdict = check(record, "bench.toml").verdict
        assert verdict.legal and len(record.turns) == TURNS, verdict.to_text()
        t_toml = best(lambda: tomllib.loads(text), args.number)
        t_parse = best(lambda: read_record(tomllib.loads(text), "bench.toml"), args.number)
        with cached_layouts():
            t_parse_cached = best(lambda: read_record(tomllib.loads(text), "bench.toml"), args.number)
        t_check = best(lambda: check(record, "bench.toml"), args.number)
        print(f"{lid:<12}{t_toml * 1e3:>8.3f}ms{t_parse * 1e3:>8.3f}ms{t_parse_cached * 1e3:>10.3f}ms"
              f"{t_check * 1e3:>8.3f}ms{t_check / t_parse:>10.2f}x{t_check / t_parse_cached:>10.2f}x")
    print("parse = TOML + record validation + loading the layout it names; parse* = the same with the layout\n"
          "already loaded (a batch of records on one level); check = the replay alone, Y1-Y23 and the score")


@contextlib.contextmanager
def cached_layouts():
    """Layouts loaded once: every way a record reaches a layout (layouts.load, and
    layouts.load_for, which calls it) is served from a cache."""
    real = layouts.load
    layouts.load = functools.lru_cache(maxsize=None)(real)
    try:
        yield
    finally:
        layouts.load = real

if __name__ == "__main__":
    main()
