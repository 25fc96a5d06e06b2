"""Y17: plus or minus one keeps a die within 1-6. A +/-1 that takes a die past 1-6 (a 6
made 7, a 1 made 0, or either wrapped round to the other end) is a Y17 finding, not a
flight (Y4, Y5) or puzzle (Y11, Y12) fault."""

import copy
import tomllib

import pytest

from conftest import ROOT, check_data

# Turn 5 of this game: dice 4 and 1, the 4 flies "S E S E", the 1 is made 2 with +/-1 and
# written in luminary column 3.
BASE = tomllib.loads((ROOT / "examples" / "yuncos-easy-legal.toml").read_text(encoding="utf-8"))


def turn5(**changes):
    d = copy.deepcopy(BASE)
    d["turn"][4].update(changes)
    return check_data(d)


def rules_in_turn5(v):
    return [f.rule for f in v.findings if f.at.get("turn") == 5 and f.severity == "error"]


def test_the_base_turn_is_legal():
    assert turn5().legal


@pytest.mark.parametrize("dice, value, words", [
    ([4, 6], 1, "6+1 wrapped round to 1"),
    ([4, 1], 6, "1-1 wrapped round to 6"),
])
def test_a_written_die_wrapped_past_one_to_six_is_y17(dice, value, words):
    v = turn5(dice=dice, value=value)
    assert rules_in_turn5(v)[0] == "Y17"
    f = v.findings[0]
    assert words in f.message and "within 1-6" in f.message and f.at["cell"] == "lum3.1"


def test_a_flight_of_seven_from_a_six_with_plus_one_is_y17():
    v = turn5(flight="S E S E S E S", dice=[6, 1])
    assert "Y17" in rules_in_turn5(v) and "Y4" not in rules_in_turn5(v)
    assert "+1 on a 6" in next(f.message for f in v.findings if f.rule == "Y17")


def test_a_flight_of_seven_that_no_die_could_reach_stays_y4():
    v = turn5(flight="S E S E S E S")  # dice 4 and 1: +1 gives 5 or 2, never 7
    assert "Y4" in rules_in_turn5(v) and "Y17" not in rules_in_turn5(v)


def test_without_plus_minus_a_wrong_value_stays_y12():
    v = turn5(dice=[4, 6], value=1, use=[])
    assert rules_in_turn5(v)[0] == "Y12" and "Y17" not in rules_in_turn5(v)


def test_a_hard_flight_reached_only_by_wrapping_is_y17():
    """Hard: a flight drawn as the 1's pattern, with dice 6 and 3 and +/-1: only 6+1 read as
    1 gives it (Y17), where without the ability it is a plain Y5."""
    from sheetkit import layouts
    from sheetkit.games.yuncos.notation import Turn, flight_text
    from sheetkit.games.yuncos.rules import Rules

    from conftest import read_data

    hard = tomllib.loads((ROOT / "examples" / "yuncos-hard-legal.toml").read_text(encoding="utf-8"))
    record = read_data(hard)
    spec = layouts.load("yuncos-hard").spec
    one = tuple(spec.pattern(1))
    rules = Rules(record)
    for use, rule in ((("plusminus",), "Y17"), ((), "Y5")):
        turn = Turn(1, one, record.turns[0].cell, 3, False, (6, 3), use, None)
        _, found = rules.step(rules.initial(), turn, 1)
        rules_found = [f.rule for f in found]
        assert rule in rules_found and ({"Y17", "Y5"} - {rule}).isdisjoint(rules_found), (flight_text(list(one)), found)
