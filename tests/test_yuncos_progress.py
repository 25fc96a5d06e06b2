"""Yuncos games in progress (`in_progress = true`) and the legal-move question.

Games come from the random player (sheetkit.games.yuncos.play), which keeps its own account
of the sheet: every prefix of its games is a legal game in progress with the standings the
player worked out after that turn, and the moves offered before each turn include the one
the player made and only moves the rules accept.
"""

import random
import tomllib
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheetkit import games, layouts
from sheetkit.games.interface import Checked
from sheetkit.games.yuncos import moves as yuncos_moves
from sheetkit.games.yuncos.check import check
from sheetkit.games.yuncos.play import play, to_toml
from sheetkit.games.yuncos.record import Turn, _cell, parse_flight
from sheetkit.games.yuncos.rules import Rules

from conftest import check_data, read_data

LEVELS = st.sampled_from(["yuncos-easy", "yuncos-hard"])
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
GAMES = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@lru_cache(maxsize=None)
def layout(lid):
    return layouts.load(lid)


def prefix(g, k: int) -> dict:
    """The record of the first k turns of game g, in progress, as the sheet showed then."""
    rec = dict(g.record, turn=g.record["turn"][:k], in_progress=True)
    sheet = g.log[k - 1]["sheet"] if k else {"fish_marked": 0, "crashes_marked": 0, "used": []}
    rec.update(fish_marked=sheet["fish_marked"], crashes_marked=sheet["crashes_marked"], used=sheet["used"])
    return rec


@GAMES
@given(lid=LEVELS, seed=SEEDS, rate=st.sampled_from([0.0, 0.6, 1.0]))
def test_every_prefix_of_a_legal_game_is_a_legal_game_in_progress(lid, seed, rate):
    g = play(layout(lid), random.Random(seed), ability_rate=rate)
    for k in range(0, len(g.record["turn"]) + 1):
        v = check_data(tomllib.loads(to_toml(prefix(g, k))), "gen.toml")
        assert v.legal and v.in_progress, f"after {k} turns\n" + v.to_text() + "\n" + to_toml(prefix(g, k))
        assert "in progress" in v.status() and v.to_json()["in_progress"] is True
        if k:
            assert dict(v.scores[0].parts) == g.log[k - 1]["sheet"]["parts"], f"after {k} turns"
        assert not any(f.rule == "Y21" and "has not ended" in f.message for f in v.findings)


def test_a_finished_record_that_stops_early_warns_but_in_progress_does_not():
    g = play(layout("yuncos-easy"), random.Random(5))
    rec = prefix(g, 3)
    assert not any(f.rule == "Y21" for f in check_data(rec).findings)
    rec["in_progress"] = False
    assert [f.rule for f in check_data(rec).findings] == ["Y21"]


def test_a_game_in_progress_may_not_have_begun():
    g = play(layout("yuncos-easy"), random.Random(5))
    rec = dict(prefix(g, 0), turn=[])
    v = check_data(rec)
    assert v.legal and v.in_progress and v.scores[0].total == 0 and v.info["turns"] == 0
    rec["in_progress"] = False
    with pytest.raises(Exception, match="no turns"):
        read_data(rec)


def turn_of(spec, number, flight, dice, use, cell=None, value=None) -> Turn:
    return Turn(number, tuple(parse_flight(flight)), None if cell is None else _cell(spec, cell), value,
                cell is None, tuple(dice), tuple(use), None)


@GAMES
@given(lid=LEVELS, seed=SEEDS, rate=st.sampled_from([0.6, 1.0]))
def test_the_moves_offered_include_the_move_played_and_only_moves_the_rules_accept(lid, seed, rate):
    g = play(layout(lid), random.Random(seed), ability_rate=rate)
    record = read_data(tomllib.loads(to_toml(g.record)), "gen.toml")
    spec = record.spec
    rules = Rules(record)
    sheet = rules.initial()
    for k, (turn, log) in enumerate(zip(record.turns, g.log)):
        checked = Checked(sheet, None)  # the moves are asked of the state alone
        m = yuncos_moves.moves(record, checked, tuple(log["dice"]))
        assert m.turn == k + 1 and m.over is None
        played = [o for o in m.options if o.fly == log["fly"] and o.write == log["write"]
                  and o.plusminus <= log["plusminus"]
                  and (not o.cells if log["ground"] else log["cell"] in o.cells)]
        assert played, (k + 1, log, m.lines())
        assert m.crash_forced == (not any(o.cells for o in m.options))
        assert log["fly"] in m.flies
        # every option the played flight can take is accepted by the rules, in every cell offered
        flight = g.record["turn"][k]["flight"]
        yunco = ["yunco"] * log["yunco"]
        for o in m.options:
            if o.fly != log["fly"]:
                continue
            use = ["plusminus"] * o.plusminus + yunco
            for cell in o.cells or (None,):
                t = turn_of(spec, k + 1, flight, log["dice"], use, cell, None if cell is None else o.write)
                _, found = rules.step(sheet, t, k + 1)
                errors = [f.line() for f in found if f.severity == "error"]
                assert not errors, (k + 1, o, cell, errors)
        sheet, _ = rules.step(sheet, turn, k + 1)


def test_the_moves_are_registered_and_answer_at_the_end_of_a_record():
    kind = games.get("yuncos").record_kinds["game"]
    g = play(layout("yuncos-easy"), random.Random(2))
    record = read_data(tomllib.loads(to_toml(prefix(g, 4))))
    checked = check(record, "gen.toml")
    m = kind.moves(record, checked, (3, 5))
    assert m.turn == 5 and m.dice == (3, 5) and {3, 5} <= set(m.flies)
    data = m.to_json()
    assert data["turn"] == 5 and data["dice"] == [3, 5] and set(data["cells"]) == {"1", "2", "3", "4", "5", "6"}
    assert m.lines()[0].startswith("turn 5; abilities usable:")
    no_dice = kind.moves(record, checked, None)
    assert no_dice.options == () and "dice" not in no_dice.to_json() and len(no_dice.lines()) == 7


def test_no_moves_after_the_end():
    for seed in range(50):
        g = play(layout("yuncos-easy"), random.Random(seed))
        if g.end in ("island", "puzzles"):
            break
    record = read_data(tomllib.loads(to_toml(g.record)))
    m = yuncos_moves.moves(record, check(record, "gen.toml"), (1, 2))
    assert m.over and "game ended" in m.over("en") and m.options == () and m.lines() == [f"no turn {m.turn}: {m.over('en')}"]


def test_plus_minus_never_takes_a_die_past_one_to_six():
    sheet = Rules(read_data(tomllib.loads(to_toml(prefix(play(layout("yuncos-easy"), random.Random(1)), 1))))).initial()
    opts = yuncos_moves.options(sheet, (6, 1), 2)
    assert all(1 <= o.fly <= 6 and 1 <= o.write <= 6 for o in opts)
    assert {(o.fly, o.write) for o in opts if o.rolled == 6} >= {(6, 1), (5, 1), (6, 2), (4, 1), (6, 3), (5, 2)}
    assert (6, 1, 0) in {(o.fly, o.write, o.plusminus) for o in opts}
