"""Benchmark: adding one turn to a Level X game costs the same early and late.

    python bench/bench_levelx_step.py [--number N]

A long legal 4-player game is played by the simulation (sheetkit.games.levelx.play) and
replayed by the checker. Then, in the same run, one turn is added with `Rules.step`:

- short: to the position after 4 turns (the baseline);
- long: to the position after all but the last turn of the long game;
- replay: the whole long game replayed from the start, what a checker without a stored
  state would pay for that same turn.

It prints the best time per call of several repeats and the ratios against `short`.
"""

from __future__ import annotations

import argparse
import random
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sheetkit.checking.replay import replay  # noqa: E402
from sheetkit.games.levelx.play import random_game  # noqa: E402
from sheetkit.games.levelx.record import Turn  # noqa: E402
from sheetkit.games.levelx.rules import Rules  # noqa: E402

PLAYERS = ["Ana", "Ben", "Cleo", "Dario"]


def long_game() -> list[Turn]:
    """The longest of a few games grouped at random (random groupings end games late)."""
    games = [random_game(random.Random(seed), PLAYERS, greedy=0.0)[0] for seed in range(20)]
    record = max(games, key=lambda g: len(g["turn"]))
    return [Turn(**t) for t in record["turn"]]


def best(stmt, number: int, repeat: int = 5) -> float:
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--number", type=int, default=2000, help="calls per repeat (default 2000)")
    args = ap.parse_args()
    turns = long_game()
    rules = Rules(PLAYERS)
    short = replay(rules, turns[:4], finished=False).state
    late = replay(rules, turns[:-1], finished=False).state
    n = len(turns)
    t_short = best(lambda: rules.step(short, turns[4], 5), args.number)
    t_long = best(lambda: rules.step(late, turns[-1], n), args.number)
    t_replay = best(lambda: replay(rules, turns), max(1, args.number // n))
    print(f"long game: {n} turns, 4 players")
    print(f"{'step after 4 turns (baseline)':<36} {t_short * 1e6:8.1f} us   1.00x")
    print(f"{f'step after {n - 1} turns':<36} {t_long * 1e6:8.1f} us   {t_long / t_short:.2f}x")
    print(f"{f'replay of all {n} turns':<36} {t_replay * 1e6:8.1f} us   {t_replay / t_short:.2f}x")


if __name__ == "__main__":
    main()
