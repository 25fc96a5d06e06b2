"""Level X games in progress and the legal-move question (moves.py)."""

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheetkit.checking import records
from sheetkit.errors import UserError
from sheetkit.games.levelx.moves import moves, notation
from sheetkit.games.levelx.play import Table, play_out, random_game
from sheetkit.games.levelx.rules import State

from conftest import assert_unusable, check_data

NAMES = ["Ana", "Ben", "Cleo", "Dario"]
NOTHING = {"dice": [1, 1, 1, 1], "groups": [[1, 1, 1, 1]]}
SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def game(turns, players=("Ana", "Ben"), **extra):
    return {"game": "levelx", "kind": "game", "players": list(players), "turn": copy.deepcopy(turns), **extra}


def checked(data):
    loaded = records.parse(data, "g.toml")
    return loaded, records.check(loaded)


def asked(data, dice=None):
    loaded, c = checked(data)
    return loaded.kind.moves(loaded.record, c, dice)


# -- in progress -----------------------------------------------------------------------------

def test_a_game_in_progress_has_no_end_finding_and_says_who_moves():
    turns = [{"dice": [4, 5, 1, 1], "groups": [[4, 5], [1, 1]]}, NOTHING, NOTHING]
    v = check_data(game(turns, in_progress=True))
    assert v.legal and v.findings == () and v.in_progress and v.to_move == "Ben"
    assert v.status() == "legal so far, in progress; Ben to move"
    assert v.to_json()["in_progress"] is True and v.to_json()["to_move"] == "Ben"
    finished = check_data(game(turns))
    assert [f.rule for f in finished.findings] == ["L8"] and not finished.in_progress
    assert "in_progress" not in finished.to_json()


def test_an_empty_game_in_progress_is_the_first_player_to_move():
    v = check_data(game([], in_progress=True))
    assert v.legal and v.to_move == "Ana" and [s.total for s in v.scores] == [0, 0]


def test_findings_of_the_turns_stay_in_progress():
    v = check_data(game([NOTHING, {"dice": [1, 2, 3, 4], "groups": [[1, 2], [3]]}], in_progress=True))
    assert [(f.rule, f.where) for f in v.findings] == [("L4", "turn 2")] and v.to_move == "Ana"


def _over(extra_turns=0):
    """A finished 2-player game from the simulation, with turns added after its end."""
    import random

    record, _ = random_game(random.Random(3), ["Ana", "Ben"])
    record["turn"] += [dict(NOTHING)] * extra_turns
    return dict(record, in_progress=True)


def test_a_game_in_progress_that_is_over_gets_a_warning():
    v = check_data(_over())
    assert v.legal and v.to_move is None
    assert [(f.rule, f.severity) for f in v.findings] == [("L8", "warning")]


def test_turns_after_the_end_are_L8_in_progress_too():
    v = check_data(_over(2))
    assert [f.rule for f in v.findings] == ["L8"] and "2 more turns" in v.findings[0].message


def test_a_final_position_is_not_in_progress():
    data = {"game": "levelx", "kind": "final", "in_progress": True,
            "player": [{"name": "A"}, {"name": "B"}]}
    assert_unusable(data, "g.toml", ["in_progress", 'kind = "game"'])


def test_in_progress_is_true_or_false():
    assert_unusable(game([], in_progress="yes"), "g.toml", ["in_progress"])


# -- the legal-move question ---------------------------------------------------------------------

def test_every_grouping_with_what_it_does():
    # Ana stands on square 1 of row 5 (2 squares) and Ben on X there; Ana rolls 4 1 3 2
    turns = [{"dice": [4, 1, 1, 1], "groups": [[4, 1], [1, 1]]},
             {"dice": [4, 1, 4, 1], "groups": [[4, 1], [4, 1]]}]
    m = asked(game(turns, in_progress=True), (4, 1, 3, 2))
    assert m.player == "Ana" and m.turn == 3 and len(m.options) == 15
    by = {notation(o.groups): o for o in m.options}
    both = by["4+1 3+2"]  # two fives: to X sending Ben back, a chip; on X, another chip
    assert [(e.total, e.square, e.moved) for e in both.events] == [(5, 2, True), (5, 2, False)]
    assert both.events[0].bumped == "Ben" and both.chips == [5, 5] and both.points == 10
    assert both.line() == "4+1 3+2: 5 to X, Ben back to start, chip; 5 stays on X, chip  (+10 points)"
    one = by["4+1 3 2"]
    assert one.chips == [5] and one.events[1].square is None
    ten = by["4+1+3+2"]  # row 10 has 7 squares on the shipped board (L1)
    assert ten.chips == [] and ten.points == 0 and ten.line() == "4+1+3+2: 10 to square 1 of 7"
    assert ten.events[0].x == 7 and both.to_json()["groups_do"][0]["x"] == 2
    assert by["4 1 3 2"].line() == "4 1 3 2: 4 nothing; 1 nothing; 3 nothing; 2 nothing"
    assert m.to_json()["options"][0]["notation"] == notation(m.options[0].groups)
    assert m.lines()[0] == "turn 3, Ana to move, dice 4 1 3 2: 15 groupings"


def test_the_same_value_twice_gives_each_grouping_once():
    m = asked(game([], in_progress=True), (1, 1, 1, 1))
    assert sorted(notation(o.groups) for o in m.options) == ["1 1 1 1", "1+1 1 1", "1+1 1+1", "1+1+1 1", "1+1+1+1"]


def test_without_dice_one_group_of_each_total():
    m = asked(game([], in_progress=True))
    assert [o.events[0].total for o in m.options] == [5, 6, 7, 8, 9, 10]
    assert all(o.events[0].square == 1 for o in m.options)


def test_the_move_that_ends_the_game_says_so():
    s = State.start(["A", "B"])
    s.bonus_left = [6]
    s.chips["A"] = {5: 1, 6: 1, 7: 1, 8: 1, 9: 1, 10: 0}
    s.pos["A"][10] = s.squares[10] - 1  # one square short of X
    c = records.Checked(s, None)
    opts = {notation(o.groups): o for o in moves(None, c, (4, 6, 1, 1)).options}
    assert opts["4+6 1 1"].ends_game and opts["4+6 1 1"].bonuses == [6]
    assert not opts["4 6 1 1"].ends_game


def test_no_moves_once_the_game_is_over():
    m = asked(_over())
    assert m.options == () and m.lines() == [f"the game is over after turn {m.turn - 1}: no more moves"]
    assert m.to_json()["over"] is True


@pytest.mark.parametrize("dice", [(1, 2, 3), (0, 1, 2, 3), (1, 2, 3, 7), (1, 2, 3, 4, 5)])
def test_bad_dice_are_one_user_error(dice):
    with pytest.raises(UserError) as e:
        asked(game([], in_progress=True), dice)
    assert "--dice" in str(e.value) and "\n" not in str(e.value)


def test_a_final_position_has_no_moves():
    loaded, c = checked({"game": "levelx", "kind": "final", "player": [{"name": "A"}, {"name": "B"}]})
    assert loaded.kind.moves is None  # the record kind does not offer the question
    with pytest.raises(UserError):
        moves(loaded.record, c, (1, 2, 3, 4))


# -- properties, on games played by the independent simulation (play.py) --------------------

dice = st.lists(st.integers(1, 6), min_size=4, max_size=4)
drawn = st.builds(lambda n, choices: play_out(NAMES[:n], choices)[0], st.integers(2, 4),
                  st.lists(st.tuples(dice, st.integers(0, 14)), max_size=60))


def standings_after(record: dict, k: int) -> list[int]:
    table = Table(record["players"])
    for t in record["turn"][:k]:
        table.play(t["dice"], t["groups"])
    final = table.final()["player"]
    return [sum(int(r) * n for r, n in p["chips"].items()) + sum(p["bonuses"]) for p in final]


@SETTINGS
@given(drawn)
def test_every_prefix_is_a_legal_game_in_progress_with_its_standings(record):
    n = len(record["players"])
    for k in range(len(record["turn"]) + 1):
        data = dict(record, turn=record["turn"][:k], in_progress=True)
        v = check_data(data)
        assert v.legal, (k, v.to_text())
        assert [s.total for s in v.scores] == standings_after(record, k)
        last = k == len(record["turn"])
        assert v.to_move == (None if last else record["players"][k % n])


@SETTINGS
@given(drawn, st.data())
def test_the_groupings_offered_hold_the_one_played_and_only_legal_ones(record, data):
    k = data.draw(st.integers(0, len(record["turn"]) - 1))
    played = record["turn"][k]
    prefix = dict(record, turn=record["turn"][:k], in_progress=True)
    m = asked(prefix, tuple(played["dice"]))
    canon = lambda groups: sorted(sorted(g) for g in groups)  # noqa: E731
    assert canon(played["groups"]) in [canon(o.groups) for o in m.options]
    for o in m.options:
        turn = {"player": m.player, "dice": played["dice"], "groups": [list(g) for g in o.groups],
                "chips": o.chips, "bonuses": o.bonuses}
        v = check_data(dict(prefix, turn=prefix["turn"] + [turn]))
        assert v.legal, (notation(o.groups), v.to_text())
        if canon(o.groups) == canon(played["groups"]):
            assert sorted(o.chips) == sorted(played["chips"]) and sorted(o.bonuses) == sorted(played["bonuses"])
