"""Records longer than a Yuncos sheet allows are refused at once, in one line (exit 2)."""

import random
import tomllib

import pytest

from sheetkit import layouts
from sheetkit.errors import UserError
from sheetkit.games.yuncos.play import play, to_toml
from sheetkit.games.yuncos.record import MOST_TURNS, longest_game

from conftest import assert_user_error, read_data, sheetkit


def legal_record(lid="yuncos-easy", seed=1):
    return play(layouts.load(lid), random.Random(seed)).record


def test_the_longest_game_counts_every_box_a_turn_can_fill():
    easy, hard = layouts.load("yuncos-easy").spec, layouts.load("yuncos-hard").spec
    # easy: 2 nest rows of 6, 4 columns of 3; 6 crash boxes + the 7th crash; 5 Yunco boxes
    # hard: 2 nest rows of 6, 5 columns of 4; the same crashes; 5 Yunco boxes
    assert longest_game(easy)[0] == 12 + 12 + 7 + 5
    assert longest_game(hard)[0] == 12 + 20 + 7 + 5


@pytest.mark.parametrize("lid", ["yuncos-easy", "yuncos-hard"])
def test_one_turn_more_than_the_sheet_allows_is_refused(lid):
    rec = legal_record(lid)
    most = longest_game(layouts.load(lid).spec)[0]
    rec["turn"] = [rec["turn"][i % len(rec["turn"])] for i in range(most)]
    read_data(tomllib.loads(to_toml(rec)))  # as many as the sheet allows: read (and checked)
    rec["turn"].append(rec["turn"][0])
    with pytest.raises(UserError, match=f"{most + 1} turns: a game on {lid} lasts at most {most} turns"):
        read_data(tomllib.loads(to_toml(rec)))


def test_a_huge_record_is_refused_before_its_turns_are_read(tmp_path):
    rec = legal_record()
    turn = rec["turn"][0]
    rec["turn"] = [turn] * 10_000
    path = tmp_path / "long.toml"
    path.write_text(to_toml(rec), encoding="utf-8")
    run = sheetkit("check", path)
    assert_user_error(run, "10000 turns", f"more than {MOST_TURNS}")
    # not even the first turn is validated: a broken one changes nothing
    rec["turn"] = [{"flight": "X"}] + [turn] * 10_000
    path.write_text(to_toml(rec), encoding="utf-8")
    assert_user_error(sheetkit("check", path), "10001 turns")
