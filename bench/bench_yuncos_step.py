"""Benchmark: a Yuncos turn costs the same however long the game is.

    python bench/bench_yuncos_step.py [--number N]

- one step: adding one turn to the state after 3 turns and to the state after 30 turns of
  the same legal game (rules.step, what the legal-move questions and a score-keeper do for
  every move); ratio 30-turn / 3-turn, goal about 1x;
- a long replay: the replay of 1,000 and of 10,000 turns, per turn (a 31-turn game's turns,
  each followed by the same flight flown back, over and over: the path stays on the map;
  built past the record reader, which refuses such records); ratio 10,000 / 1,000 per
  turn, goal about 1x (linear, not quadratic). Points off the map, which only illegal
  flights reach, are remembered too and make a turn dearer the more there are of them;
  the reader's bound on the turns bounds them.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import replace
import timeit
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sheetkit import layouts  # noqa: E402
from sheetkit.checking.replay import replay  # noqa: E402
from sheetkit.games.yuncos.play import play  # noqa: E402
from sheetkit.games.yuncos.record import Record, read_record  # noqa: E402
from sheetkit.games.yuncos.rules import Rules  # noqa: E402


def long_game(lid: str) -> Record:
    layout = layouts.load(lid)
    for seed in range(10_000):
        g = play(layout, random.Random(seed), max_turns=31, home_after=10**6)
        if len(g.record["turn"]) == 31:
            return read_record(tomllib.loads(g.toml), "bench.toml")
    raise SystemExit(f"no 31-turn game found on {lid}")


def back(turn):
    """The same turn with its flight flown back to where it started."""
    return replace(turn, steps=tuple((-dx, -dy) for dx, dy in reversed(turn.steps)), start_at=None)


def best(stmt, number: int, repeat: int = 5) -> float:
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--number", type=int, default=2000, help="steps per timing (default 2000)")
    ap.add_argument("--long", type=int, default=10_000, help="turns of the long replay (default 10000)")
    args = ap.parse_args()
    print(f"{'level':<12}{'step@3':>10}{'step@30':>10}{'ratio':>8}{'turn@1k':>10}{'turn@' + str(args.long // 1000) + 'k':>10}"
          f"{'ratio':>8}   (per step / per turn replayed, best of 5)")
    for lid in ("yuncos-easy", "yuncos-hard"):
        record = long_game(lid)
        rules = Rules(record)
        states = [rules.initial()]
        for n, turn in enumerate(record.turns[:30], 1):
            states.append(rules.step(states[-1], turn, n)[0])
        # the same turn added after 3 and after 30 turns (its findings differ; its work does not)
        nxt = record.turns[30]
        t3 = best(lambda: rules.step(states[3], nxt, 4), args.number)
        t30 = best(lambda: rules.step(states[30], nxt, 31), args.number)

        def per_turn(n: int) -> float:
            there_and_back = [x for t in record.turns for x in (replace(t, start_at=None), back(t))]
            turns = tuple(there_and_back[i % len(there_and_back)] for i in range(n))
            long = Record(record.model, record.layout, turns)
            t0 = time.perf_counter()
            replay(Rules(long), turns)
            return (time.perf_counter() - t0) / n

        short = min(per_turn(1000) for _ in range(5))
        long = min(per_turn(args.long) for _ in range(2))
        print(f"{lid:<12}{t3 * 1e6:>8.1f}us{t30 * 1e6:>8.1f}us{t30 / t3:>7.2f}x{short * 1e6:>8.1f}us{long * 1e6:>8.1f}us"
              f"{long / short:>7.2f}x")


if __name__ == "__main__":
    main()
