"""The engine's answers, exact: a table's next moves, `winners` only for a game over, findings
that point at the right thing and say it in a player's words."""

from __future__ import annotations

import json
import random

import pytest

from sheetkit import layouts
from sheetkit.checking import records
from sheetkit.games.yuncos.play import play_table
from sheetkit.tomlfile import dump_toml

from conftest import ROOT, sheetkit

EXAMPLES = ROOT / "examples"
NAMES = ("Ana", "Bea", "Caro")


def table_in_progress(cut=(6, 5, 5), seed=2) -> dict:
    """A 3-player Easy table stopped mid-game: each sheet as it stood after its `cut` turns."""
    gs = play_table(layouts.load("yuncos-easy"), random.Random(seed), players=3)
    players = []
    for name, g, n in zip(NAMES, gs, cut):
        standing = g.log[n - 1]["sheet"]
        sheet = dict(g.record, turn=g.record["turn"][:n], fish_marked=standing["fish_marked"],
                     crashes_marked=standing["crashes_marked"], used=standing["used"], in_progress=True)
        players.append({"name": name, "sheet": sheet})
    return {"game": "yuncos", "kind": "table", "in_progress": True, "player": players}


def write(tmp_path, data: dict, name="table.toml"):
    (tmp_path / name).write_text(dump_toml(data), encoding="utf-8")
    return name


# --- a table in progress has next moves ------------------------------------------------------

def test_a_table_in_progress_names_who_is_to_move(tmp_path):
    data = table_in_progress()
    v = records.check(records.parse(data, "t.toml")).verdict
    assert v.in_progress and v.to_move == "Bea"  # Ana entered turn 6, Bea and Caro not yet


def test_moves_of_a_table_answer_for_the_sheet_that_is_next(tmp_path):
    data = table_in_progress()
    name = write(tmp_path, data)
    run = sheetkit("moves", name, "--json", cwd=tmp_path)
    assert run.code == 0, run.err
    got = json.loads(run.out)["moves"]
    ana_dice = data["player"][0]["sheet"]["turn"][5]["dice"]
    assert got["player"] == "Bea" and got["turn"] == 6 and got["kind"] == "table"
    assert got["dice"] == ana_dice and got["dice_from"] == "Ana"  # rolled once for everybody: Ana noted them
    text = sheetkit("moves", name, cwd=tmp_path).out
    assert "Bea's sheet" in text and "Ana's sheet" in text


def test_moves_of_a_table_for_a_named_player_and_given_dice(tmp_path):
    name = write(tmp_path, table_in_progress())
    run = sheetkit("moves", name, "--player", "Ana", "--dice", "2 6", "--json", cwd=tmp_path)
    assert run.code == 0, run.err
    got = json.loads(run.out)["moves"]
    assert got["player"] == "Ana" and got["turn"] == 7 and got["dice"] == [2, 6] and got["dice_from"] is None
    bad = sheetkit("moves", name, "--player", "Zed", cwd=tmp_path)
    assert bad.code == 2 and "Zed" in bad.err and "Ana, Bea, Caro" in bad.err
    one = sheetkit("moves", EXAMPLES / "yuncos-in-progress.toml", "--player", "Ana")
    assert one.code == 2 and "table" in one.err


def test_moves_of_a_finished_table_say_the_game_is_over():
    run = sheetkit("moves", EXAMPLES / "yuncos-table-3p.toml", "--dice", "3 5")
    assert run.code == 0 and "game is over" in run.out and "Bea" in run.out, run.out + run.err


# --- `winners` means one thing ------------------------------------------------------------------

@pytest.mark.parametrize("example", ["glux-game-in-progress.toml", "levelx-in-progress.toml"])
def test_a_game_in_progress_has_leaders_not_winners(example):
    run = sheetkit("check", EXAMPLES / example, "--json")
    (v,) = json.loads(run.out)
    assert v["in_progress"] and v["winners"] == [] and v["leading"], v


def test_a_table_in_progress_has_leaders_not_winners(tmp_path):
    name = write(tmp_path, table_in_progress())
    (v,) = json.loads(sheetkit("check", name, "--json", cwd=tmp_path).out)
    assert v["winners"] == [] and v["leading"] and v["status"].endswith("Bea to move")


def test_a_finished_game_has_winners_and_no_leading_key():
    (v,) = json.loads(sheetkit("check", EXAMPLES / "yuncos-table-3p.toml", "--json").out)
    assert v["winners"] == ["Caro"] and "leading" not in v


# --- findings that point at the right thing -------------------------------------------------------

def test_two_sheets_that_disagree_on_the_dice_are_both_marked(tmp_path):
    gs = play_table(layouts.load("yuncos-easy"), random.Random(2), players=2)
    sheets = [g.record for g in gs]
    t = sheets[1]["turn"][2]
    t["dice"] = [t["dice"][0] % 6 + 1, t["dice"][1] % 6 + 1]
    data = {"game": "yuncos", "kind": "table", "player": [{"name": n, "sheet": s} for n, s in zip(NAMES, sheets)]}
    v = records.check(records.parse(data, "t.toml")).verdict
    split = [f for f in v.findings if f.at.get("turn") == 3 and "disagree" in f.message]
    assert {f.at["player"] for f in split} == {"Ana", "Bea"}, v.to_text()
    assert "Ana:" in split[0].message and "Bea:" in split[0].message


@pytest.mark.parametrize("players, words", [(7, "at most 6"), (1, "solo = true")])
def test_a_table_of_the_wrong_size_says_what_fits(tmp_path, players, words):
    rec = (EXAMPLES / "yuncos-easy-legal.toml").read_text()
    (tmp_path / "s.toml").write_text(rec)
    body = "".join(f'[[player]]\nname = "P{i}"\nsheet = "s.toml"\n' for i in range(players))
    (tmp_path / "t.toml").write_text('game = "yuncos"\nkind = "table"\n' + body)
    run = sheetkit("check", "t.toml", cwd=tmp_path)
    assert run.code == 2 and f"(got {players})" in run.err and words in run.err, run.err
    assert ("single sheet" in run.err) == (players == 1)


def test_a_covered_chip_is_named_as_covered(tmp_path):
    (tmp_path / "g.toml").write_text('''game = "glux"
kind = "game"
board = "glux-board-2p"
in_progress = true
players = [
  { name = "Ana", letter = "A", colour = "yellow", start = "M1", start_chip = 6 },
  { name = "Ben", letter = "B", colour = "green", start = "A9", start_chip = 2 },
]
moves = """
A G1 2
B A7 5
A G1 3
B A7 2
A E1 4
"""
''')
    (v,) = json.loads(sheetkit("check", "g.toml", "--json", cwd=tmp_path).out)
    (g4,) = [f for f in v["findings"] if f["rule"] == "G4"]
    assert g4["at"]["square"] == "G1" and "Ana's chip on G1 would count exactly to E1, but it is covered" in g4["message"]


def test_a_level_x_die_of_seven_is_named_where_it_is(tmp_path):
    (tmp_path / "x.toml").write_text('game = "levelx"\nkind = "game"\nplayers = ["Ana", "Bea"]\n'
                                     'turns = ["Ana: 3+4 1+2", "Bea: 3+4 5+7"]\n')
    run = sheetkit("check", "x.toml", cwd=tmp_path)
    assert run.code == 2 and "turns[1]" in run.err and "group 2 ('5+7') has a die 7" in run.err, run.err


def test_moves_say_which_die_was_changed_and_how(tmp_path):
    name = write(tmp_path, table_in_progress())
    lines = sheetkit("moves", name, "--player", "Ana", "--dice", "5 6", cwd=tmp_path).out.splitlines()
    options = [ln.strip() for ln in lines if ln.strip().startswith("fly ")]
    assert any(o.startswith("fly the 5, write the 6 lowered to 5 with one ±1") for o in options), options
    assert any(o.startswith("fly the 6 lowered to 5 with one ±1, write the 5") for o in options), options
    said = [o.split(":")[0] for o in options]
    assert len(said) == len(set(said))  # no two lines read alike
    es = sheetkit("moves", name, "--player", "Ana", "--dice", "5 6", "--lang", "es", cwd=tmp_path).out
    assert "vuela el 6 bajado a 5 con un ±1, anota el 5" in es


def test_a_sheet_behind_at_a_table_in_progress_is_no_finding_even_after_the_end(tmp_path):
    """The game ended in Bea's turn 6 (say); Caro has not entered turn 6 yet: nothing is wrong."""
    gs = play_table(layouts.load("yuncos-easy"), random.Random(2), players=3)
    last = len(gs[0].record["turn"])
    data = table_in_progress(cut=(last, last, last - 1))
    v = records.check(records.parse(data, "t.toml")).verdict
    assert v.legal and not [f for f in v.findings if f.rule == "Y21"], v.to_text()
    assert v.to_move == "Caro"
