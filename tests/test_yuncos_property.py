"""Property tests: random legal games from the player in sheetkit.games.yuncos.play.

The checker must accept every game the player plays and agree with the player's own
score; a single changed mark or step must be caught with the right rule id.
"""

import copy
import random
import tomllib
from functools import lru_cache

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sheetkit import layouts
from sheetkit.games.yuncos.play import play, to_toml
from sheetkit.games.yuncos.notation import box_kind, parse_flight, flight_text

from conftest import check_data

LEVELS = st.sampled_from(["yuncos-easy", "yuncos-hard"])
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@lru_cache(maxsize=None)
def layout(lid):
    return layouts.load(lid)


def game(lid, seed, dice=True, rate=0.6):
    return play(layout(lid), random.Random(seed), dice=dice, ability_rate=rate)


def verdict_of(record: dict):
    # through TOML text, as a user's file would be
    return check_data(tomllib.loads(to_toml(record)), "gen.toml")


def errors(v):
    return {f.rule for f in v.findings if f.severity == "error"}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lid=LEVELS, seed=SEEDS, dice=st.booleans(), rate=st.sampled_from([0.0, 0.5, 1.0]))
def test_every_generated_game_is_legal_and_scores_agree(lid, seed, dice, rate):
    g = game(lid, seed, dice, rate)
    v = verdict_of(g.record)
    assert v.legal, "\n" + v.to_text() + "\n" + g.toml
    assert dict(v.scores[0].parts) == g.parts
    assert v.scores[0].total == g.total
    assert v.scores[0].eliminated == g.eliminated
    if g.end in ("island", "puzzles"):
        assert v.info["end"]["turn"] == len(g.record["turn"])


def test_the_player_uses_every_ability_and_plays_realistic_games():
    """The generator is worth testing against: its games use every ability on both
    levels, end in both ways, and mostly last a realistic number of turns."""
    for lid in ("yuncos-easy", "yuncos-hard"):
        kinds, ends, lengths = set(), set(), []
        for seed in range(40):
            g = game(lid, seed)
            kinds |= {k for e in g.log for k in ("plusminus", "diagonal", "yunco") if e[k]}
            ends.add(g.end)
            lengths.append(len(g.record["turn"]))
        assert kinds == {"plusminus", "diagonal", "yunco"}, lid
        assert {"island", "eliminated"} <= ends, lid
        assert sum(10 <= n <= 30 for n in lengths) >= 30, (lid, lengths)


# ---------------------------------------------------------------- mutations


@FAST
@given(lid=LEVELS, seed=SEEDS, delta=st.sampled_from([-1, 1]))
def test_a_changed_fish_mark_is_y7(lid, seed, delta):
    rec = copy.deepcopy(game(lid, seed).record)
    n = rec["fish_marked"] + delta
    assume(0 <= n <= len(layout(lid).spec.fish.values))
    rec["fish_marked"] = n
    assert errors(verdict_of(rec)) == {"Y7"}


@FAST
@given(lid=LEVELS, seed=SEEDS, delta=st.sampled_from([-1, 1]))
def test_a_changed_crash_mark_is_y20(lid, seed, delta):
    rec = copy.deepcopy(game(lid, seed).record)
    n = rec["crashes_marked"] + delta
    assume(0 <= n <= 6)
    rec["crashes_marked"] = n
    assert errors(verdict_of(rec)) == {"Y20"}


@FAST
@given(lid=LEVELS, seed=SEEDS, pick=st.integers(0, 100))
def test_an_ability_box_not_crossed_out_is_y15(lid, seed, pick):
    rec = copy.deepcopy(game(lid, seed, rate=1.0).record)
    assume(rec["used"])
    gone = rec["used"].pop(pick % len(rec["used"]))
    v = verdict_of(rec)
    assert errors(v) == {"Y15"}
    # that box, or another box of the same ability unlocked as early (the paper cannot say which)
    spec = layout(lid).spec
    assert any(f.rule == "Y15" and box_kind(spec, f.at.get("box", "")) == box_kind(spec, gone) for f in v.findings)


@FAST
@given(lid=LEVELS, seed=SEEDS, pick=st.integers(0, 100))
def test_a_repeated_number_in_nest_row_1_is_y11(lid, seed, pick):
    rec = copy.deepcopy(game(lid, seed).record)
    sites, seen = [], []
    for i, t in enumerate(rec["turn"]):
        if t.get("puzzle", "").split(".")[0] == "nest1":
            if seen:
                sites.append((i, list(seen)))
            seen.append(t["value"])
    assume(sites)
    i, earlier = sites[pick % len(sites)]
    rec["turn"][i]["value"] = earlier[pick % len(earlier)]
    v = verdict_of(rec)
    assert any(f.rule == "Y11" and f.at.get("turn") == i + 1 for f in v.findings), v.to_text()


@FAST
@given(lid=LEVELS, seed=SEEDS, pick=st.integers(0, 100))
def test_a_diagonal_step_mid_flight_is_y18(lid, seed, pick):
    rec = copy.deepcopy(game(lid, seed).record)
    sites = []  # (turn index, step index between two unit steps)
    for i, t in enumerate(rec["turn"]):
        steps = parse_flight(t["flight"])
        sites += [(i, j) for j in range(1, len(steps)) if 0 in steps[j - 1] and 0 in steps[j]]
    assume(sites)
    i, j = sites[pick % len(sites)]
    steps = parse_flight(rec["turn"][i]["flight"])
    steps.insert(j, (1, -1))
    rec["turn"][i]["flight"] = flight_text(steps)
    v = verdict_of(rec)
    assert any(f.rule == "Y18" and f.at.get("turn") == i + 1 for f in v.findings), v.to_text()


def _plusminus_uses(spec, turn):
    return sum(1 for u in turn.get("use", []) if u == "plusminus" or box_kind(spec, u) == "plusminus")


@FAST
@given(lid=LEVELS, seed=SEEDS, pick=st.integers(0, 100))
def test_one_step_too_many_is_y4_or_y5(lid, seed, pick):
    """One more unit step, repeating the last: Easy then flies a number no die gives;
    on Hard the shape is no face's pattern in any orientation."""
    spec = layout(lid).spec
    rec = copy.deepcopy(game(lid, seed).record)
    sites = []
    for i, t in enumerate(rec["turn"]):
        steps = parse_flight(t["flight"])
        unit = [s for s in steps if 0 in s]
        if spec.level == "hard":
            sites.append(i)
        else:
            k = _plusminus_uses(spec, t)
            reachable = {d + a for d in t["dice"] for a in range(-k, k + 1)}
            if len(unit) + 1 not in reachable:
                sites.append(i)
    assume(sites)
    i = sites[pick % len(sites)]
    steps = parse_flight(rec["turn"][i]["flight"])
    last = max(j for j, s in enumerate(steps) if 0 in s)
    steps.insert(last + 1, steps[last])
    rec["turn"][i]["flight"] = flight_text(steps)
    rule = "Y4" if spec.level == "easy" else "Y5"
    v = verdict_of(rec)
    assert any(f.rule == rule and f.at.get("turn") == i + 1 for f in v.findings), v.to_text()


@FAST
@given(lid=LEVELS, seed=SEEDS)
def test_a_turn_after_the_end_is_y21_or_y20(lid, seed):
    g = game(lid, seed)
    assume(g.end is not None)
    rec = copy.deepcopy(g.record)
    extra = copy.deepcopy(rec["turn"][-1])
    rec["turn"].append(extra)
    v = verdict_of(rec)
    want = "Y20" if g.eliminated else "Y21"
    n = len(rec["turn"])
    assert any(f.rule == want and f.at.get("turn") == n for f in v.findings), v.to_text()


# ---------------------------------------------------------------- any record at all

STEP = st.sampled_from(["N", "E", "S", "W", "N", "E", "S", "W", "NE", "SW", "NW", "SE", "2E", "3S"])
CELL = st.sampled_from(["nest1", "nest2", "lum1", "lum2", "lum3", "lum4", "nest1.2", "nest2.4", "lum2.1", "lum4.3"])
USE = st.sampled_from(["plusminus", "diagonal", "yunco", "nest1.1", "lum2", "fish2", "fish4"])
TURN = st.fixed_dictionaries(
    {"flight": st.lists(STEP, min_size=1, max_size=8).map(" ".join)},
    optional={"dice": st.lists(st.integers(1, 6), min_size=2, max_size=2),
              "use": st.lists(USE, max_size=3),
              "from": st.sampled_from(["A1", "K6", "U14", "C7"])},
).flatmap(lambda t: st.one_of(
    st.just({**t, "crash": True}),
    st.tuples(CELL, st.integers(1, 6)).map(lambda cv: {**t, "puzzle": cv[0], "value": cv[1]}),
))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turns=st.lists(TURN, min_size=1, max_size=25), start=st.integers(1, 4), fish=st.integers(0, 10),
       crashes=st.integers(0, 6), used=st.lists(st.sampled_from(["nest1.1", "nest2.1", "lum1", "fish2", "fish7"]),
                                                unique=True), solo=st.booleans())
def test_any_wellformed_record_gets_a_verdict(turns, start, fish, crashes, used, solo):
    """Whatever is drawn, checking returns findings and a score, never an exception."""
    import json

    data = {"game": "yuncos", "layout": "yuncos-easy", "start": start, "solo": solo, "fish_marked": fish,
            "crashes_marked": crashes, "used": used, "turn": turns}
    v = check_data(data, "any.toml")
    assert v.exit_code in (0, 1)
    assert v.scores[0].total == sum(p for _, p in v.scores[0].parts)
    json.dumps(v.to_json())
    json.dumps(v.to_json("es"))  # every finding said in Spanish too (a missing message raises in tests)
    for f in v.findings:
        assert f.rule.startswith("Y") and f.message
        assert f.text is not None and f.place is not None and f.line("es") != f.line("en")
