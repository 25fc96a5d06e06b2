"""Benchmark: how fast sheetkit's quick commands start, against `python -c "import click"`.

    python bench/bench_coldstart.py [--repeat N]

Each command runs in a fresh interpreter, as a player's shell would run it, N times after
one run that is not timed; the least CPU time (user + system) of the process is compared
with that of a bare `python -c "import click"` measured in the same run (the least any
click command can cost). Goal: each within 3x. CPU time, not the wall clock: on a shared
machine the wall clock mostly measures the other processes. The untimed run leaves
sheetkit's compiled bytecode in __pycache__, as an installed sheetkit has it (click's is
compiled when it is installed), even where PYTHONDONTWRITEBYTECODE is set.

- --help: the command list;
- score yuncos: the quick tally from counts (reads the level's layout);
- score glux: the quick tally of rooms;
- check: a legal 30-turn Yuncos record played by the random player (parse, validate, replay);
- (score yuncos, validated): not a command: what the Yuncos tally would cost reading its
  level through pydantic, as a record check does, instead of straight from the TOML;
- (click + pydantic, 1 model): not a command: click, pydantic and one one-field model, the
  least any command that validates a file with pydantic can cost. `check` cannot go below
  it; what it costs above it is sheetkit's own (its modules, its models, the work).

The runs go round by round (the baseline, then each command once), so that a change in the
machine's load touches every figure alike.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GOAL = 3.0
SHEETKIT = [sys.executable, "-c", "from sheetkit.cli import main; main()"]  # what the console script runs


PYDANTIC_FLOOR = """
import click
from pydantic import BaseModel
class One(BaseModel):
    x: int
"""

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


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def cpu_time(cmd: list[str], expect: int = 0) -> float:
    """The CPU time (user + system) of one run of `cmd` in a fresh process."""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, cwd=ROOT, env=ENV)
        _, status, usage = os.wait4(proc.pid, 0)
        code = proc.returncode = os.waitstatus_to_exitcode(status)
        if code != expect:
            err.seek(0)
            raise SystemExit(f"{' '.join(cmd)}: exit {code}\n{err.read().decode()[-2000:]}")
    return usage.ru_utime + usage.ru_stime


def best(commands: dict[str, list[str]], repeat: int) -> dict[str, float]:
    """The least CPU time of each command over `repeat` rounds."""
    for cmd in commands.values():
        cpu_time(cmd)  # not timed: writes the bytecode cache
    times = {name: float("inf") for name in commands}
    for _ in range(repeat):
        for name, cmd in commands.items():
            times[name] = min(times[name], cpu_time(cmd))
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7, help="runs of each command (default 7)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        record = thirty_turn_record(tmp)
        baseline = 'python -c "import click"'
        commands = {
            baseline: [sys.executable, "-c", "import click"],
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
            # the floor of `check`: pydantic itself, before any sheetkit model
            "(click + pydantic, 1 model)": [sys.executable, "-c", PYDANTIC_FLOOR],
        }
        times = best(commands, args.repeat)
    base = times.pop(baseline)
    print(f"{'command':<28}{'best':>9}{'ratio':>8}   (fresh interpreter, CPU time, best of {args.repeat}; goal {GOAL:.0f}x)")
    print(f"{baseline:<28}{base * 1e3:>7.0f}ms{1.0:>7.2f}x")
    worst = 0.0
    for name, t in times.items():
        command = not name.startswith("(")  # the goal is for commands, not for the reference lines
        if command:
            worst = max(worst, t / base)
        flag = "   over the goal" if command and t / base > GOAL else ""
        print(f"{name:<28}{t * 1e3:>7.0f}ms{t / base:>7.2f}x{flag}")
    print(f"worst ratio of a command {worst:.2f}x (goal {GOAL:.0f}x)")


if __name__ == "__main__":
    main()
