"""Benchmark: how fast sheetkit's quick commands start, against `python -c "import click"`.

    python bench/bench_coldstart.py [--repeat N]

Each command runs in a fresh interpreter, as a player's shell would run it, N times; the
best time is compared with the best time of a bare `python -c "import click"` measured in
the same run (the least any click command can cost). Goal: each within 3x.

- --help: the command list;
- score yuncos: the quick tally from counts (reads the level's layout);
- score glux: the quick tally of rooms;
- check: a legal 30-turn Yuncos record played by the random player (parse, validate, replay);
- (score yuncos, validated): not a command: what the Yuncos tally would cost reading its
  level through pydantic, as a record check does, instead of straight from the TOML.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GOAL = 3.0
SHEETKIT = [sys.executable, "-c", "from sheetkit.cli import main; main()"]  # what the console script runs


VALIDATED_TALLY = """
from sheetkit.cli import main
from sheetkit import layouts
spec = layouts.load("yuncos-easy").spec
facts = (spec.nests.length, spec.luminaries.columns, spec.fish.values, len(spec.board.stars))
"""


def thirty_turn_record(folder: str) -> str:
    from sheetkit import layouts
    from sheetkit.games.yuncos.play import play

    layout = layouts.load("yuncos-easy")
    for seed in range(10_000):
        g = play(layout, random.Random(seed), max_turns=30, home_after=10**6)
        if len(g.record["turn"]) == 30:
            path = os.path.join(folder, "thirty-turns.toml")
            Path(path).write_text(g.toml, encoding="utf-8")
            return path
    raise SystemExit("no 30-turn game found")


def best(cmd: list[str], repeat: int, expect: int = 0) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, cwd=ROOT)
        times.append(time.perf_counter() - t0)
        if proc.returncode != expect:
            raise SystemExit(f"{' '.join(cmd)}: exit {proc.returncode}\n{proc.stderr.decode()[-2000:]}")
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7, help="runs of each command (default 7)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        record = thirty_turn_record(tmp)
        commands = {
            "sheetkit --help": SHEETKIT + ["--help"],
            "sheetkit score yuncos": SHEETKIT + ["score", "yuncos", "--nests", "9", "--columns", "2", "--fish", "5",
                                                 "--stars", "4", "--colours", "3", "--crashes", "2", "--solo"],
            "sheetkit score glux": SHEETKIT + ["score", "glux", "--room", "A=10,B=9,C=4", "--room", "A=4,B=5,C=12",
                                               "--middle", "2"],
            "sheetkit check (30 turns)": SHEETKIT + ["check", record],
            # What `score yuncos` would cost if it read the level through the validated layout
            # models instead of the plain Board (yuncos/board.py, tally.level_facts): the
            # figure that keeps those pydantic-free readers.
            "(score yuncos, validated)": [sys.executable, "-c", VALIDATED_TALLY],
        }
        base = best([sys.executable, "-c", "import click"], args.repeat)
        print(f"{'command':<28}{'best':>9}{'ratio':>8}   (fresh interpreter, best of {args.repeat}; goal {GOAL:.0f}x)")
        baseline = 'python -c "import click"'
        print(f"{baseline:<28}{base * 1e3:>7.0f}ms{1.0:>7.2f}x")
        worst = 0.0
        for name, cmd in commands.items():
            t = best(cmd, args.repeat)
            worst = max(worst, t / base)
            flag = "" if t / base <= GOAL else "   over the goal"
            print(f"{name:<28}{t * 1e3:>7.0f}ms{t / base:>7.2f}x{flag}")
    print(f"worst ratio {worst:.2f}x (goal {GOAL:.0f}x)")


if __name__ == "__main__":
    main()
