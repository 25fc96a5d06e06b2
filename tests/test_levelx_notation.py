"""Level X's one-line notation: `turns = ["Ana: 3+4 5+6", ...]` means the [[turn]] tables."""

import random

import pytest

from sheetkit.games.levelx.moves import notation
from sheetkit.games.levelx.play import random_game

from conftest import assert_unusable, check_data, read_data

LONG = [{"player": "Ana", "dice": [3, 4, 5, 6], "groups": [[3, 4], [5, 6]]},
        {"player": "Ben", "dice": [2, 5, 1, 1], "groups": [[2], [5], [1, 1]]},
        {"player": None, "dice": [6, 6, 6, 6], "groups": [[6, 6, 6, 6]]}]
SHORT = ["Ana: 3+4 5+6", "Ben: 2 5 1+1", "6+6+6+6"]


def game(**turns):
    return {"game": "levelx", "kind": "game", "players": ["Ana", "Ben"], **turns}


def test_a_line_is_the_turn_table_it_stands_for():
    rec = read_data(game(turns=SHORT))
    assert [t.model_dump(include={"player", "dice", "groups"}) for t in rec.turn] == LONG


def test_both_forms_give_the_same_verdict():
    record, _ = random_game(random.Random(7), ["Ana", "Ben", "Cleo"])
    lines = [f"{t['player']}: {notation(t['groups'])}" for t in record["turn"]]
    short = {k: v for k, v in record.items() if k != "turn"} | {"turns": lines}
    long = dict(record, turn=[{k: t[k] for k in ("player", "dice", "groups")} for t in record["turn"]])
    a, b = check_data(short), check_data(long)
    assert a.legal and a.to_json() == b.to_json()


def test_a_line_for_the_wrong_player_is_L8():
    v = check_data(game(turns=["Ben: 3+4 5+6"], in_progress=True))
    assert [(f.rule, f.where) for f in v.findings] == [("L8", "turn 1")]


@pytest.mark.parametrize("turns, words", [
    (["Ana: 3+4 5"], ["turns[0]", "4 dice"]),
    (["Ana: 3+4 5+6 1"], ["turns[0]", "4 dice"]),
    (["Ana: 3+4 5+7"], ["turns[0]", "1 to 6"]),
    (["Ana: 3+4 5+0"], ["turns[0]", "1 to 6"]),
    (["Ana: 3,4 5 6"], ["turns[0]", "'3,4' is not a group"]),
    (["Ana 3+4 5+6"], ["turns[0]", "not a group"]),
    (["Ana: 3++4 5 6"], ["turns[0]", "not a group"]),
    (["Ana: 34 5 6"], ["turns[0]", "not a group"]),
    (["Ana: 3+4 5+6", "Zoe: 1 1 1 1"], ["turns[1]", "'Zoe' is not one of players"]),
    ([7], ["turns[0]", "one line per turn"]),
    ("Ana: 3+4 5+6", ["turns", "a list of lines"]),
])
def test_bad_lines_are_one_user_error(turns, words):
    assert_unusable(game(turns=turns), "g.toml", words)


def test_not_both_forms_at_once():
    assert_unusable(game(turns=SHORT, turn=LONG), "g.toml", ["turns", "not both"])
