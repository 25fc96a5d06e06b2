"""The Yuncos rules in the shared replay shape (checking/replay.py): a step leaves the state
it is given as it was, states replayed one turn at a time give what `check` gives, and the
benchmarks of this shape run."""

import random
import subprocess
import sys
import tomllib
from dataclasses import fields
from functools import lru_cache

import pytest

from sheetkit import layouts
from sheetkit.checking.replay import replay
from sheetkit.games.yuncos.check import check
from sheetkit.games.yuncos.play import play
from sheetkit.games.yuncos.rules import Chain, Rules

from conftest import ROOT, read_data


@lru_cache(maxsize=None)
def layout(lid):
    return layouts.load(lid)


def record_of(lid, seed, **kw):
    g = play(layout(lid), random.Random(seed), **kw)
    return read_data(tomllib.loads(g.toml), "gen.toml")


def snapshot(sheet) -> dict:
    """Everything a Sheet holds, as plain values (the Chain unrolled, dicts copied)."""
    out = {}
    for f in fields(sheet):
        v = getattr(sheet, f.name)
        out[f.name] = [dict(c) for c in v] if isinstance(v, Chain) else v
    return out


@pytest.mark.parametrize("lid", ["yuncos-easy", "yuncos-hard"])
@pytest.mark.parametrize("seed", range(6))
def test_a_step_leaves_the_state_it_is_given_as_it_was(lid, seed):
    record = record_of(lid, seed, ability_rate=1.0)
    rules = Rules(record)
    states = [rules.initial()]
    before = [snapshot(states[0])]
    for n, turn in enumerate(record.turns, 1):
        nxt, _ = rules.step(states[-1], turn, n)
        states.append(nxt)
        before.append(snapshot(nxt))
    # every earlier state is still what it was when it was made (undo works)
    assert [snapshot(s) for s in states] == before
    # and stepping from an earlier state again gives the same next state
    mid = len(record.turns) // 2
    again, _ = rules.step(states[mid], record.turns[mid], mid + 1)
    assert snapshot(again) == before[mid + 1]


def test_the_replay_of_a_record_is_what_check_gives():
    record = record_of("yuncos-easy", 3)
    replayed = replay(Rules(record), record.turns)
    checked = check(record, "gen.toml")
    assert snapshot(replayed.state) == snapshot(checked.state)
    assert replayed.moves == len(record.turns) == checked.state.turns
    assert [f.line() for f in replayed.findings] == [f.line() for f in checked.verdict.findings]


def test_a_chain_keeps_its_items_in_order_and_shares_its_tail():
    a = Chain().add(1).add(2)
    b, c = a.add(3), a.add(4)
    assert list(a) == [1, 2] and list(b) == [1, 2, 3] and list(c) == [1, 2, 4]
    assert len(Chain()) == 0 and len(b) == 3 and b.before is a is c.before


@pytest.mark.parametrize("script, args", [
    ("bench_coldstart.py", ["--repeat", "1"]),
    ("bench_yuncos_step.py", ["--number", "5", "--long", "2000"]),
])
def test_the_yuncos_benchmarks_run(script, args):
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / script), *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=180)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr and "ratio" in proc.stdout
