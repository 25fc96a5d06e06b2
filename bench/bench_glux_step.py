"""Benchmark: one Glüx placement added to a game in progress, early against late.

    python bench/bench_glux_step.py [--number N]

A legal 4-player game on the 3-4 player side is played by the random player
(sheetkit.games.glux.play) and replayed through the rules to the state after 6 and after
60 placements. Then, in the same run, the next placement is stepped onto each state
(`GluxRules.step`: the state it gives and the findings of that placement, the state given
left as it was), and the legal-move question is asked of each state. A step checks only
that placement, so late / early should be about 1; the whole replay of the 60 placements
is printed beside it for scale.
"""

from __future__ import annotations

import argparse
import random
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sheetkit import layouts  # noqa: E402
from sheetkit.checking.replay import replay  # noqa: E402
from sheetkit.games.glux import play, rules  # noqa: E402
from sheetkit.games.glux.moves import legal_moves  # noqa: E402


def best(fn, number: int) -> float:
    return min(timeit.repeat(fn, number=number, repeat=5)) / number


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--number", type=int, default=2000, help="calls per timing (default 2000)")
    args = ap.parse_args()
    side = layouts.load("glux-board-34p").spec
    for seed in range(100):
        setups, placements = play.random_game(side, 4, random.Random(seed), start_chance=0.0)
        if len(placements) > 61:
            break
    table = rules.GluxRules(side, setups)
    states = {k: replay(table, placements[:k], finished=False).state for k in (6, 60)}
    step = {k: best(lambda k=k: table.step(states[k], placements[k], k + 1), args.number) for k in states}
    ask = {k: best(lambda k=k: legal_moves(table, states[k]), args.number // 4) for k in states}
    whole = best(lambda: replay(table, placements[:60], finished=False), max(1, args.number // 100))
    assert all(table.step(states[k], placements[k], k + 1)[1] == [] for k in states)
    print(f"step after  6 placements: {step[6] * 1e6:8.1f} us")
    print(f"step after 60 placements: {step[60] * 1e6:8.1f} us   ratio 60/6: {step[60] / step[6]:.2f}")
    print(f"legal moves after  6:     {ask[6] * 1e6:8.1f} us")
    print(f"legal moves after 60:     {ask[60] * 1e6:8.1f} us   ratio 60/6: {ask[60] / ask[6]:.2f}")
    print(f"replay of 60 placements:  {whole * 1e6:8.1f} us   ({whole / step[60]:.0f} steps' worth)")


if __name__ == "__main__":
    main()
