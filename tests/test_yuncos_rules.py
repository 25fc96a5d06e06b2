"""Yuncos rules Y1-Y23: the rulebook's own numbers and one small hand-made scenario per rule.

Most scenarios play on a tiny 8 x 6 map (below), a copy of the shipped Easy level with
only its grid replaced, so every vertex is easy to follow by hand:

      x: 0 1 2 3 4 5 6 7
    y0:  . . . . . . . .
    y1:  . F . r . . l .        F fish, r/b/g/y stars (red, blue, green, yellow), l light
    y2:  . . # # # . . .        # island
    y3:  . b # 1 2 . g .        1, 2 start points: 1 is (3, 3) = D4
    y4:  . . # # # . . .
    y5:  . . . . . y . F
"""

import re

import pytest

from sheetkit import layouts
from sheetkit.games.yuncos.scoring import RANKS, crash_points, fish_points, rank, tally

from conftest import check_data

MINI = """\
. . . . . . . .
. F . r . . l .
. . # # # . . .
. b # 1 2 . g .
. . # # # . . .
. . . . . y . F"""

# One-step flights from start 1 that never touch an icon, a light or the path again.
SAFE = "S S W W W N N N N N E E E E E E E S S S S".split()


def _mini(tmp_path_factory, base: str, name: str, swap: tuple[str, str] | None = None) -> str:
    text = (layouts.shipped_dir() / f"{base}.toml").read_text(encoding="utf-8")
    text = re.sub(r'grid = """.*?"""', 'grid = """\n' + MINI + '\n"""', text, flags=re.S)
    if swap:
        assert swap[0] in text
        text = text.replace(swap[0], swap[1])
    path = tmp_path_factory.mktemp("layouts") / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def easy(tmp_path_factory):
    return _mini(tmp_path_factory, "yuncos-easy", "mini-easy")


@pytest.fixture(scope="module")
def hard(tmp_path_factory):
    return _mini(tmp_path_factory, "yuncos-hard", "mini-hard")


@pytest.fixture(scope="module")
def diag(tmp_path_factory):
    """Easy mini map where the first ability box of each nest row gives the diagonal."""
    return _mini(tmp_path_factory, "yuncos-easy", "mini-diag",
                 ('abilities = [["plusminus", "diagonal", "yunco"], ["diagonal", "yunco", "plusminus"]]',
                  'abilities = [["diagonal", "plusminus", "yunco"], ["diagonal", "yunco", "plusminus"]]'))


def play(layout, turns, **top):
    data = {"game": "yuncos", "layout": layout, "start": 1, "fish_marked": 0, "crashes_marked": 0, "turn": turns}
    data.update(top)
    return check_data(data, "t.toml")


def safe_turns(values, cells=None):
    """One safe one-step turn per value; cells default to nest1."""
    cells = cells or ["nest1"] * len(values)
    return [{"flight": SAFE[i], "puzzle": c, "value": v} for i, (v, c) in enumerate(zip(values, cells))]


def rules(verdict, severity="error"):
    return sorted({f.rule for f in verdict.findings if f.severity == severity})


def score(verdict):
    return dict(verdict.scores[0].parts)


# ---------------------------------------------------------------- the rulebook's numbers


def test_six_fish_score_twelve_on_both_levels():
    for lid in ("yuncos-easy", "yuncos-hard"):
        spec = layouts.load(lid).spec
        assert fish_points(spec.fish.values, 6) == 12
        assert fish_points(spec.fish.values, 0) == 0


def test_five_stars_of_four_colours_score_twenty():
    spec = layouts.load("yuncos-easy").spec
    s = tally(spec.fish.values, nests=0, columns=0, fish=0, stars=5, colours=4, crashes=0)
    assert dict(s.parts)["navigation"] == 20 and s.total == 20


def test_crash_track_values():
    assert [crash_points(n) for n in range(7)] == [0, 2, 5, 9, 14, 20, 27]


def test_total_is_nests_luminaries_fish_navigation_minus_crashes():
    spec = layouts.load("yuncos-easy").spec
    s = tally(spec.fish.values, nests=7, columns=2, fish=6, stars=5, colours=4, crashes=3)
    assert s.parts == [("nests", 14), ("luminaries", 12), ("fish", 12), ("navigation", 20), ("crashes", -9)]
    assert s.total == 14 + 12 + 12 + 20 - 9


@pytest.mark.parametrize("total, en", [
    (-20, "Abandoned for the first time in the nest"),
    (0, "Abandoned for the first time in the nest"),
    (42, "Abandoned for the first time in the nest"),
    (43, "Determined rookie, but nervous"),
    (52, "Determined rookie, but nervous"),
    (53, "Fearless night flyer"),
    (62, "Fearless night flyer"),
    (63, "Skilled night adventurer"),
    (72, "Skilled night adventurer"),
    (73, "Expert night flyer"),
    (150, "Expert night flyer"),
])
def test_solo_ranks(total, en):
    assert rank(total).en == en
    assert rank(total).es  # every rank is named in Spanish too


def test_ranks_are_named_in_both_languages():
    assert len({label.es for _, label in RANKS}) == 5
    assert rank(43).es == "Novato decidido, pero nervioso"


def test_solo_rank_in_the_verdict(easy):
    v = play(easy, safe_turns([1]), solo=True)
    assert v.scores[0].notes_in("en") == ["Abandoned for the first time in the nest"]
    assert v.info["rank"]["es"] == "Abandonado por primera vez en el nido"
    v = play(easy, safe_turns([1]))
    assert v.scores[0].notes == [] and "rank" not in v.info


# ---------------------------------------------------------------- the map and the flight


def test_y1_the_path_passes_over_an_icon_where_a_turn_ends(easy):
    # N N W W ends on the fish at B2, passing the red star at D2
    v = play(easy, [{"flight": "N N W W", "puzzle": "nest1", "value": 4}], fish_marked=1)
    assert v.legal, v.to_text()
    assert score(v)["fish"] == 1 and score(v)["navigation"] == 1
    assert v.info["fish"] == [{"turn": 1, "vertex": "B2"}]


def test_y1_a_diagonal_step_needs_the_ability(easy):
    v = play(easy, [{"flight": "N NE", "puzzle": "nest1", "value": 2}])
    assert rules(v) == ["Y15"]


def test_y3_a_flight_never_leaves_the_map(easy):
    v = play(easy, [{"flight": "N N N N", "puzzle": "nest1", "value": 4}])
    assert rules(v) == ["Y3"]
    f = v.findings[0]
    assert f.at["turn"] == 1 and f.at["step"] == 4 and f.at["vertex"] == [3, 0]
    assert "D1" in f.message


def test_y3_points_off_the_map_are_named_by_the_edge_beside_them(easy):
    turns = [{"flight": "N N N N", "puzzle": "nest1", "value": 1},   # D4 up to D1, then off the map
             {"flight": "N", "puzzle": "nest1", "value": 2},         # further off
             {"flight": "E", "puzzle": "nest1", "value": 3, "from": "A1"}]
    v = play(easy, turns)
    text = [f"{f.rule} {f.where}: {f.message}" for f in v.findings]
    assert [": ".join(t.split(": ")[:2]) for t in text] == [  # what is wrong; then the fix
        "Y3 turn 1, step 4: step N from D1 leaves the map",
        "Y3 turn 2, step 1: step N from a point off the map beyond D1 stays off the map",
        "Y6 turn 3: the flight starts at A1, but turn 2 ended at a point off the map beyond D1"]


def test_y4_easy_flies_one_to_six_steps(easy):
    # six steps are a die's worth (no Y4); from D4 they run off the 8-wide map at step 5 (Y3)
    v = play(easy, [{"flight": "6E", "puzzle": "nest1", "value": 1}])
    assert rules(v) == ["Y3"] and v.findings[0].at["step"] == 5
    v = play(easy, [{"flight": "S S W W W N N", "puzzle": "nest1", "value": 1}])
    assert rules(v) == ["Y4"]
    assert play(easy, [{"flight": "S S W W W N", "puzzle": "nest1", "value": 1}]).legal


def test_y4_with_dice_one_die_flies_and_the_other_is_written(easy):
    ok = play(easy, [{"flight": "S S W", "puzzle": "nest1", "value": 5, "dice": [5, 3]}])
    assert ok.legal, ok.to_text()
    wrong_flight = play(easy, [{"flight": "S S W W", "puzzle": "nest1", "value": 5, "dice": [5, 3]}])
    assert rules(wrong_flight) == ["Y4"]
    assert wrong_flight.findings[0].message.startswith("a flight of 4 steps matches neither die (5 and 3): ")
    wrong_value = play(easy, [{"flight": "S S W", "puzzle": "nest1", "value": 4, "dice": [5, 3]}])
    assert rules(wrong_value) == ["Y11"]


def test_y5_hard_flies_the_face_pattern_in_any_orientation(hard):
    # Hard pattern 3 is "E E N": all 8 orientations are fine, other shapes are not.
    for flight in ("E E N", "E E S", "W W N", "N N E", "S S W"):
        v = play(hard, [{"flight": flight, "puzzle": "nest1", "value": 2}])
        assert "Y5" not in rules(v), (flight, v.to_text())
    for flight in ("E N E", "N E E", "S W W"):  # the L from its other end is no orientation (Decision 18)
        v = play(hard, [{"flight": flight, "puzzle": "nest1", "value": 2}])
        assert "Y5" in rules(v), flight
    assert "Y5" not in rules(play(hard, [{"flight": "S S E", "puzzle": "nest1", "value": 2}]))
    v = play(hard, [{"flight": "S", "puzzle": "nest1", "value": 2, "dice": [2, 4]}])  # face 1 is not rolled
    assert rules(v) == ["Y5"]


def test_y6_each_flight_starts_where_the_last_ended(easy):
    turns = safe_turns([1, 2])
    turns[1]["from"] = "D5"  # turn 1 ended at D5 (S from D4)
    assert play(easy, turns).legal
    turns[1]["from"] = "E4"
    v = play(easy, turns)
    assert rules(v) == ["Y6"] and v.findings[0].at["turn"] == 2


# ---------------------------------------------------------------- what a flight meets


def test_y7_each_fish_eaten_once_and_the_counter_marked_to_match(easy):
    turns = [{"flight": "N N W W", "puzzle": "nest1", "value": 1},
             {"flight": "S", "puzzle": "nest1", "value": 2},
             {"flight": "N", "puzzle": "nest1", "value": 3}]  # back over the fish: no second fish
    v = play(easy, turns, fish_marked=1, crashes_marked=1)
    assert v.legal, v.to_text()
    v = play(easy, turns, fish_marked=2, crashes_marked=1)
    assert rules(v) == ["Y7"] and v.findings[0].at["counter"] == "fish"


def test_y8_stars_count_once_and_colours_multiply(easy):
    turns = [{"flight": "N N", "puzzle": "nest1", "value": 1},      # red star at D2
             {"flight": "S", "puzzle": "nest1", "value": 2},        # back over D3: crash
             {"flight": "N", "puzzle": "nest1", "value": 3}]        # red star again: not counted
    v = play(easy, turns, crashes_marked=2)
    assert v.legal, v.to_text()
    assert score(v)["navigation"] == 1
    turns = [{"flight": "N N W W S S", "puzzle": "nest1", "value": 1}]  # red, then blue at B4
    v = play(easy, turns, fish_marked=1)
    assert score(v)["navigation"] == 2 * 2


def test_y9_every_touch_of_a_light_point_is_a_crash(easy):
    turns = [{"flight": "E E E N N", "puzzle": "nest1", "value": 1}]  # ends on the light at G2
    assert play(easy, turns, crashes_marked=1).legal
    v = play(easy, turns, crashes_marked=0)
    assert rules(v) == ["Y20"]
    assert v.info["crashes"][0]["kind"] == "light" and v.info["crashes"][0]["vertex"] == "G2"
    # the next turn leaves the light: no second touch
    turns.append({"flight": "E", "puzzle": "nest1", "value": 2})
    assert play(easy, turns, crashes_marked=1).legal
    # one flight over the light, away and back: two light crashes, and the return is an obstacle crash
    twice = [{"flight": "E E E N", "puzzle": "nest1", "value": 1}, {"flight": "N E W", "puzzle": "nest1", "value": 3}]
    v = play(easy, twice, crashes_marked=3)
    assert v.legal, v.to_text()
    assert [(c["kind"], c["step"]) for c in v.info["crashes"]] == [("light", 1), ("light", 3), ("obstacle", 3)]


def test_y10_crossing_the_own_path_is_one_crash_per_turn(easy):
    # E W comes back to the turn's start vertex; the turn start itself is no crossing
    assert play(easy, [{"flight": "E W", "puzzle": "nest1", "value": 1}], crashes_marked=1).legal
    # crossing twice in one turn is still one crash
    v = play(easy, [{"flight": "E W E W", "puzzle": "nest1", "value": 1}], crashes_marked=1)
    assert v.legal, v.to_text()
    # a later turn crossing an earlier one
    turns = safe_turns([1, 2, 3]) + [{"flight": "E", "puzzle": "nest1", "value": 4}]  # C6 -> D6, visited
    assert play(easy, turns, crashes_marked=1).legal
    assert rules(play(easy, turns, crashes_marked=0)) == ["Y20"]


def test_y10_two_diagonals_crossing_inside_a_square(diag):
    setup = safe_turns([1, 2, 6, 5], ["nest1", "nest1", "nest2", "nest2"])  # D4 D5 D6 C6 B6
    cross = [{"flight": "N NE", "puzzle": "lum1", "value": 1},        # B6 B5, / to C4
             {"flight": "N W S SE", "puzzle": "lum2", "value": 2}]    # C3 B3 B4 (blue), \ to C5
    v = play(diag, setup + cross, crashes_marked=1, used=["nest1.1", "nest2.1"])
    assert v.legal, v.to_text()
    assert [c["kind"] for c in v.info["crashes"]] == ["obstacle"]
    assert rules(play(diag, setup + cross, crashes_marked=0, used=["nest1.1", "nest2.1"])) == ["Y20"]


# ---------------------------------------------------------------- puzzles


def test_y11_nest_row_1_all_different(easy):
    assert rules(play(easy, safe_turns([3, 3]))) == ["Y11"]
    assert play(easy, safe_turns([3, 1, 6, 2])).legal


def test_y11_nest_row_2_strictly_descending(easy):
    assert play(easy, safe_turns([6, 4, 1], ["nest2"] * 3)).legal
    v = play(easy, safe_turns([4, 4], ["nest2"] * 2))
    assert rules(v) == ["Y11"] and v.findings[0].at["cell"] == "nest2.2"


def test_y11_left_to_right_without_gaps(easy):
    v = play(easy, safe_turns([3, 4], ["nest1", "nest1.3"]))
    assert rules(v) == ["Y11"] and "gaps" in v.findings[0].message
    assert play(easy, safe_turns([3, 4], ["nest1.1", "nest1.2"])).legal
    v = play(easy, safe_turns([3, 4], ["nest1.1", "nest1.1"]))
    assert rules(v) == ["Y11"] and "already holds 3" in v.findings[0].message
    v = play(easy, safe_turns([1, 2, 3, 4, 5, 6, 1]))
    assert rules(v) == ["Y11"] and "full" in v.findings[0].message


def test_y12_luminaries_rise_and_rows_do_not_repeat(easy):
    assert play(easy, safe_turns([2, 3, 5], ["lum1"] * 3)).legal
    assert rules(play(easy, safe_turns([3, 3], ["lum1"] * 2))) == ["Y12"]
    assert rules(play(easy, safe_turns([4, 2], ["lum1"] * 2))) == ["Y12"]
    v = play(easy, safe_turns([4, 4], ["lum1", "lum2"]))  # the same number on one horizontal row
    assert rules(v) == ["Y12"] and v.findings[0].at["cell"] == "lum2.1"
    assert play(easy, safe_turns([4, 5, 5], ["lum1", "lum1", "lum2"])).legal  # different rows


def test_y13_a_ground_crash_only_when_the_value_fits_nowhere(easy):
    # after nest1 [6], nest2 [5], lum1 [6], a 6 fits nowhere
    setup = safe_turns([6, 5, 6], ["nest1", "nest2", "lum1"])
    crash = {"flight": "W", "crash": True}
    assert play(easy, setup + [crash], crashes_marked=1).legal  # dice unknown: a 6 would not fit
    assert play(easy, setup + [{**crash, "dice": [1, 6]}], crashes_marked=1).legal
    v = play(easy, setup + [{**crash, "dice": [1, 2]}], crashes_marked=1)
    assert rules(v) == ["Y13"] and "2 fits" in v.findings[0].message
    # early in the game every value fits somewhere: no crash is possible
    assert rules(play(easy, [{"flight": "S", "crash": True}], crashes_marked=1)) == ["Y13"]


def test_y14_cells_are_the_layouts(easy, hard):
    from sheetkit.errors import UserError

    for cell, level in (("lum5", easy), ("nest1.7", easy), ("lum1.5", hard), ("nest3", easy)):
        with pytest.raises(UserError, match=r"turn\[1\]\.puzzle"):
            play(level, [{"flight": "S", "puzzle": cell, "value": 1}])
    assert play(hard, [{"flight": "S", "puzzle": "lum5.1", "value": 1}]).legal


# ---------------------------------------------------------------- abilities


def test_y15_an_ability_must_be_unlocked(easy):
    v = play(easy, [{"flight": "S", "puzzle": "nest1", "value": 1, "use": ["plusminus"]}])
    assert rules(v) == ["Y15"]


def test_y15_each_box_is_used_once(easy):
    turns = safe_turns([1, 2, 3, 4])  # nest1.1 (plusminus) unlocked in turn 2
    turns[2]["use"] = ["plusminus"]
    assert play(easy, turns, used=["nest1.1"]).legal
    turns[3]["use"] = ["nest1.1"]
    v = play(easy, turns, used=["nest1.1"])
    assert rules(v) == ["Y15"] and "already used in turn 3" in v.findings[0].message


def test_y15_crossed_out_boxes_match_the_uses(easy):
    turns = safe_turns([1, 2, 3])
    turns[2]["use"] = ["plusminus"]
    v = play(easy, turns, used=[])
    assert rules(v) == ["Y15"] and v.findings[0].at["box"] == "nest1.1"
    v = play(easy, safe_turns([1, 2, 3]), used=["nest1.1"])
    assert v.legal and rules(v, "warning") == ["Y15"]
    assert play(easy, turns).legal  # used not copied: not compared


def test_y16_usable_from_the_next_turn_on(easy):
    turns = safe_turns([1, 2])
    turns[1]["use"] = ["plusminus"]  # nest1.1 is unlocked by this very turn's number
    assert rules(play(easy, turns, used=["nest1.1"])) == ["Y16"]


def test_y17_plus_or_minus_one_on_a_die(easy):
    turns = safe_turns([1, 2]) + [{"flight": "W W W N", "puzzle": "nest1", "value": 5, "dice": [3, 5]}]
    # D4 S D5 S D6, then four steps: the die 3 flies as 4 only with +1
    assert rules(play(easy, turns)) == ["Y4"]
    turns[2]["use"] = ["plusminus"]
    assert play(easy, turns, used=["nest1.1"]).legal
    # the written die may be the one changed: fly 3, write 6 - 1 = 5
    turns[2].update(flight="W W W", dice=[3, 6])
    assert play(easy, turns, used=["nest1.1"]).legal
    # both changes would need two boxes
    turns[2].update(flight="W W W N", dice=[3, 6])
    assert not play(easy, turns, used=["nest1.1"]).legal


def test_y17_the_result_stays_within_one_to_six(easy):
    setup = safe_turns([6, 5, 6, 1], ["nest1", "nest2", "lum1", "nest1"])  # plusminus after turn 4
    crash = {"flight": "W", "crash": True, "dice": [1, 5], "use": ["plusminus"]}
    # fly 1, write 5 + 1 = 6, which fits nowhere: the crash is legal
    assert play(easy, setup + [crash], crashes_marked=1, used=["nest1.1"]).legal
    # a 1 cannot fly as 0: fly 6 - 1 = 5 is the only other way, leaving 1 to write
    v = play(easy, setup + [{"flight": "W", "puzzle": "nest1", "value": 1, "dice": [1, 1], "use": ["plusminus"]}],
             used=["nest1.1"])
    assert rules(v) == ["Y11"]  # 1 is already in nest row 1


def test_y18_a_diagonal_before_or_after_the_flight(diag):
    setup = safe_turns([1, 2, 6, 5], ["nest1", "nest1", "nest2", "nest2"])  # ends at B6
    ok = setup + [{"flight": "NE N", "puzzle": "lum1", "value": 1}]
    assert play(diag, ok, used=["nest1.1"]).legal
    middle = setup + [{"flight": "N NE N", "puzzle": "lum1", "value": 1}]
    v = play(diag, middle, used=["nest1.1"])
    assert rules(v) == ["Y18"] and v.findings[0].at["step"] == 2
    two = setup + [{"flight": "NE N NE", "puzzle": "lum1", "value": 1}]  # two boxes add up
    assert play(diag, two, used=["nest1.1", "nest2.1"]).legal
    unused = setup + [{"flight": "N", "puzzle": "lum1", "value": 1, "use": ["diagonal"]}]
    v = play(diag, unused, used=["nest1.1"])
    assert v.legal and rules(v, "warning") == ["Y18"]


def test_y19_yunco_skips_one_crash(easy):
    turns = safe_turns([1, 2, 3, 4, 5, 6], ["lum2", "lum2", "lum2", "nest1", "nest1", "nest1"])
    turns[4] = {"flight": "N", "puzzle": "nest1", "value": 5}  # back onto the path: a crash
    turns[4]["use"] = ["yunco"]  # lum2 (yunco) completed in turn 3
    v = play(easy, turns, crashes_marked=0, used=["lum2"])
    assert v.legal, v.to_text()
    assert rules(play(easy, turns, crashes_marked=1, used=["lum2"])) == ["Y20"]
    turns[4] = safe_turns([0, 0, 0, 0, 5])[4]
    turns[4]["use"] = ["yunco"]
    v = play(easy, turns, used=["lum2"])
    assert v.legal and rules(v, "warning") == ["Y19"]


# ---------------------------------------------------------------- crashes, end, score


def test_y20_the_seventh_crash_eliminates(easy):
    turns = [{"flight": "E W", "puzzle": "nest1", "value": v} for v in (1, 2, 3, 4, 5, 6)]
    turns.append({"flight": "E W", "puzzle": "lum1", "value": 1})
    v = play(easy, turns, crashes_marked=6)
    assert v.legal, v.to_text()
    assert v.info["eliminated"] == 7 and v.scores[0].eliminated
    assert score(v)["crashes"] == -27
    more = play(easy, turns + [{"flight": "E", "puzzle": "lum1", "value": 2}], crashes_marked=6)
    assert rules(more) == ["Y20"] and more.findings[0].at["turn"] == 8


def test_y20_a_miscounted_track_says_how_many_boxes_are_due(easy):
    setup = safe_turns([6, 5, 6], ["nest1", "nest2", "lum1"])
    v = play(easy, setup + [{"flight": "W", "crash": True}], crashes_marked=0)  # a ground crash, not the flight
    assert rules(v) == ["Y20"]
    assert v.findings[0].message == ("the turns give crash marks: 1 (1 ground): mark 1 box of the crash track, not 0 "
                                     "(crashes_marked = 1)")
    turns = [{"flight": "E W", "puzzle": "nest1", "value": v} for v in (1, 2, 3, 4, 5, 6)]
    turns.append({"flight": "E W", "puzzle": "lum1", "value": 1})  # the 7th crash
    v = play(easy, turns, crashes_marked=5)
    assert rules(v) == ["Y20"] and v.findings[0].at == {"counter": "crashes", "box": 6}
    assert "crash marks: 7 (7 obstacle; the track holds 6, the next one eliminated the Yunco): mark 6 boxes" \
        in v.findings[0].message


FOUR_STARS = [
    {"flight": "N N", "puzzle": "nest1", "value": 1},            # red D2
    {"flight": "W W S S", "puzzle": "nest1", "value": 2},        # fish B2, blue B4
    {"flight": "S S E E E E", "puzzle": "nest1", "value": 3},    # yellow F6
    {"flight": "E N N N", "puzzle": "nest1", "value": 4},        # green G4
    {"flight": "W W", "puzzle": "nest1", "value": 5},            # island E3: the game ends
]


def test_y21_the_game_ends_on_the_island_after_four_stars(easy):
    v = play(easy, FOUR_STARS, fish_marked=1, solo=True)
    assert v.legal, v.to_text()
    assert v.info["end"]["turn"] == 5
    assert score(v)["navigation"] == 16
    late = play(easy, FOUR_STARS + [{"flight": "N", "puzzle": "nest1", "value": 6}], fish_marked=1)
    assert rules(late) == ["Y21"] and late.findings[0].at["turn"] == 6


def early_end(turns):
    from sheetkit.games.yuncos.record import parse_flight
    x, y = 3, 3  # start 1, D4
    for t in turns:
        for dx, dy in parse_flight(t["flight"]):
            x, y = x + dx, y + dy
    return x, y


def test_y21_the_game_ends_when_both_puzzles_are_complete(easy):
    values = [1, 2, 3, 4, 5, 6] + [6, 5, 4, 3, 2, 1] + [1, 2, 3, 2, 3, 4, 3, 4, 5, 4, 5, 6]
    cells = ["nest1"] * 6 + ["nest2"] * 6 + ["lum1"] * 3 + ["lum2"] * 3 + ["lum3"] * 3 + ["lum4"] * 3
    flights = ("S S W W W N N N N N E E E E E E E S S S S W W W").split()
    turns = [{"flight": f, "puzzle": c, "value": x} for f, c, x in zip(flights, cells, values)]
    v = play(easy, turns, solo=True)
    assert v.info["end"] == {"turn": 24, "reason": "both puzzles are complete"}
    assert score(v) == {"nests": 24, "luminaries": 24, "fish": 0, "navigation": 0, "crashes": 0}
    # 22 turns in and still playing: a solo record that stops there is only a warning
    early = play(easy, turns[:22], solo=True)
    assert early.legal and rules(early, "warning") == ["Y21"]
    warning = early.findings[0]  # names the last turn and where the path stops, so --render can circle it
    assert warning.where == "turn 22" and warning.at == {"turn": 22, "vertex": list(early_end(turns[:22]))}
    assert rules(play(easy, turns[:22])) == [] and rules(play(easy, turns[:22]), "warning") == []


def test_y22_score_what_the_sheet_shows_and_check_written_scores(easy):
    v = play(easy, FOUR_STARS, fish_marked=1)
    assert score(v) == {"nests": 10, "luminaries": 0, "fish": 1, "navigation": 16, "crashes": 0}
    assert v.scores[0].total == 27
    ok = play(easy, FOUR_STARS, fish_marked=1, score={"nests": 10, "navigation": 16, "total": 27})
    assert ok.legal
    bad = play(easy, FOUR_STARS, fish_marked=1, score={"navigation": 20, "total": 27})
    assert rules(bad) == ["Y22"] and bad.findings[0].at["score"] == "navigation"


def test_y22_the_crashes_box_may_be_copied_with_its_printed_minus(easy):
    turns = [{"flight": "E W", "puzzle": "nest1", "value": 1}]  # back to D4: one crash, 2 points
    for written in (2, -2):
        v = play(easy, turns, crashes_marked=1, score={"crashes": written, "total": 0})
        assert v.legal, v.to_text()
    bad = play(easy, turns, crashes_marked=1, score={"crashes": -5})
    assert rules(bad) == ["Y22"] and "-5 is written" in bad.findings[0].message


def test_every_finding_names_rule_turn_and_place(easy):
    turns = [{"flight": "N N N N", "puzzle": "nest1", "value": 4, "use": ["yunco"]},
             {"flight": "S", "puzzle": "nest1", "value": 4}]  # back onto D1: a crash, marked
    v = play(easy, turns, crashes_marked=1)
    assert rules(v) == ["Y11", "Y15", "Y3"]
    for f in v.findings:
        assert re.fullmatch(r"Y\d+", f.rule)
        assert f.where.startswith("turn ") and f.at["turn"] in (1, 2)
        assert f.message and "\n" not in f.message
    assert v.exit_code == 1
