"""Yuncos notation traps: a token that could have been meant another way says both readings
when the reading as written makes the sheet illegal; ability boxes have long names no one
takes for a number box, and the short ones still read the same."""

import copy
import json
import re
import tomllib

from sheetkit.games.yuncos.record import box_name, other_readings, parse_flight

from conftest import ROOT, check_data

BASE = tomllib.loads((ROOT / "examples" / "yuncos-easy-legal.toml").read_text(encoding="utf-8"))


def with_turn(i, **changes):
    d = copy.deepcopy(BASE)
    d["turn"][i].update(changes)
    return d


def errors(v):
    return [f for f in v.findings if f.severity == "error"]


def test_a_diagonal_that_should_have_been_two_steps_says_both_readings():
    # turn 1 is "E E E S E" (the 5 of dice 5 and 5); "E E E SE" reads SE as one diagonal step
    v = check_data(with_turn(0, flight="E E E SE"))
    assert errors(v) and all('"SE" is one diagonal step; if the two steps "S E" were meant, this turn would be legal'
                             in f.message for f in errors(v))


def test_two_steps_that_should_have_been_a_diagonal_say_both_readings():
    # turn 10 is "NW W" (the diagonal ability and the 1 of dice 4 and 1)
    v = check_data(with_turn(9, flight="N W W"))
    [f] = errors(v)
    assert f.rule == "Y4" and '"N W" is two unit steps; if the diagonal "NW" was meant, this turn would be legal' in f.message


def test_no_second_reading_when_it_would_not_help():
    # 6 steps for dice 5 and 5 (Y4); read "S E" as a diagonal, it is worse (no diagonal ability yet)
    v = check_data(with_turn(0, flight="E E E S E E"))
    assert errors(v) and not any("read as written" in f.message for f in v.findings)
    for path in sorted((ROOT / "examples").glob("yuncos-*.toml")):
        text = json.dumps([f.message for f in _findings(path)])
        assert "read as written" not in text, path.name


def _findings(path):
    from sheetkit.checking import records
    from sheetkit.errors import UserError

    try:
        return records.check(records.load(path)).verdict.findings
    except UserError:
        return []


def test_the_other_readings_of_a_flight():
    readings = dict(other_readings("NE E"))
    assert readings == {'"NE" is one diagonal step; if the two steps "N E" were meant': tuple(parse_flight("N E E"))}
    assert tuple(parse_flight("NE E")) in dict(other_readings("N E E")).values()
    assert tuple(parse_flight("NE E")) in dict(other_readings("NEE")).values()
    assert other_readings("E E S") == ()


def test_long_ability_box_names_read_as_the_short_ones():
    assert box_name("nest1.ability2") == "nest1.2" and box_name("lum3.ability") == "lum3"
    assert box_name("fish2.ability") == "fish2" and box_name("nest1.2") == "nest1.2"
    long = copy.deepcopy(BASE)

    def longer(name):
        return re.sub(r"^(nest\d)\.(\d)$", r"\1.ability\2", name).replace("lum2", "Lum 2.Ability")

    long["used"] = [longer(u) for u in long["used"]]
    for t in long["turn"]:
        if "use" in t:
            t["use"] = [longer(u) for u in t["use"]]
    assert "nest1.ability1" in long["used"] and "Lum 2.Ability" in long["used"]
    a, b = check_data(BASE).to_json(), check_data(long).to_json()
    a.pop("source"), b.pop("source")
    assert a == b and check_data(long).legal


def test_a_short_nest_box_name_in_a_fault_says_both_readings():
    d = copy.deepcopy(BASE)
    d["used"] = d["used"] + ["nest2.1"]  # meant: the number box? it is nest row 2's 1st ability box
    v = check_data(d)
    [f] = [f for f in v.findings if f.at.get("box") == "nest2.1"]
    assert "nest2.1 is the ability box 1 of nest row 2, also written nest2.ability1" in f.message
    assert "the number box nest2.1 is a puzzle cell" in f.message
    d["used"][-1] = "nest2.ability1"  # the long name cannot be misread: no note
    [f] = [f for f in check_data(d).findings if f.at.get("box") == "nest2.1"]
    assert "also written" not in f.message
