"""The command line for IUNU and Level X: template, check, score, bad input."""

import json
import tomllib

import pytest

from conftest import assert_user_error, sheetkit


def test_template_iunu_deck_and_record(tmp_path):
    deck = sheetkit("template", "iunu-deck")
    assert deck.code == 0
    data = tomllib.loads(deck.out)
    assert data["kind"] == "deck" and len(data["castes"]) == 9
    (tmp_path / "my-iunu-deck.toml").write_text(deck.out)
    rec = sheetkit("template", "iunu")
    assert rec.code == 0 and 'deck = "my-iunu-deck.toml"' in rec.out
    (tmp_path / "game.toml").write_text(rec.out)
    # blank record: names are empty -> one clear line, exit 2
    assert_user_error(sheetkit("check", tmp_path / "game.toml"), "game.toml", "player[0].name")
    # fill the names: now the unfilled deck is what stops it
    (tmp_path / "game.toml").write_text(rec.out.replace('name = ""', 'name = "A"', 1).replace('name = ""', 'name = "B"', 1))
    assert_user_error(sheetkit("score", "iunu", tmp_path / "game.toml"),
                      "my-iunu-deck.toml", "castes.farmer.cards", "not filled in")


def test_templates_for_levelx():
    for name, kind in (("levelx", "game"), ("levelx-final", "final"), ("levelx-score-pad", "final")):
        run = sheetkit("template", name)
        assert run.code == 0
        assert tomllib.loads(run.out)["kind"] == kind


def test_score_iunu_text_and_json():
    run = sheetkit("score", "iunu", "examples/iunu-game.toml")
    assert run.code == 0, run.err
    assert "Carla: 34" in run.out and "winner: Carla" in run.out and "most Deben (18)" in run.out
    run = sheetkit("score", "iunu", "examples/iunu-game.toml", "--json")
    v = json.loads(run.out)
    assert v["winners"] == ["Carla"] and v["legal"]
    assert {s["player"]: s["total"] for s in v["scores"]} == {"Ana": 34, "Ben": 31, "Carla": 34}


def test_check_illegal_records_exit_1():
    run = sheetkit("check", "examples/iunu-illegal.toml", "examples/levelx-game-illegal.toml")
    assert run.code == 1
    assert "I2 caste Pharaoh" in run.out
    assert "L4 turn 3:" in run.out and "L8 after turn 6:" in run.out


def test_check_json_levelx():
    run = sheetkit("check", "--json", "examples/levelx-game.toml", "examples/levelx-final.toml")
    assert run.code == 0, run.err
    game, final = json.loads(run.out)
    assert game["scores"] == final["scores"]
    assert game["scores"][0]["notes"] == ["(1)"]


def test_score_levelx_marks_the_first_player():
    run = sheetkit("score", "levelx", "examples/levelx-final.toml")
    assert run.code == 0
    lines = run.out.splitlines()
    assert lines[1].startswith("  Ana (1): 117")
    assert "winner: Carla" in run.out


def test_score_wrong_game():
    assert_user_error(sheetkit("score", "levelx", "examples/iunu-game.toml"), "iunu record, not levelx")


@pytest.mark.parametrize("path, words", [
    ("examples/iunu-bad-input.toml", ["iunu-deck-unfilled.toml", "castes.farmer.cards", "not filled in"]),
    ("examples/levelx-bad-input.toml", ["levelx-bad-input.toml", "turn[0].groups[1]", "empty group"]),
    ("examples/nowhere.toml", ["nowhere.toml", "no such file"]),
])
def test_bad_input_examples(path, words):
    assert_user_error(sheetkit("check", path), *words)


def test_bad_input_written_by_hand(tmp_path):
    p = tmp_path / "x.toml"
    p.write_text('game = "levelx"\nkind = "final"\n[[player]]\nname = "A"\nchips = { "5" = "2" }\n'
                 '[[player]]\nname = "B"\n')
    assert_user_error(sheetkit("score", "levelx", p), "x.toml", "player[0].chips.5")
    p.write_text('game = "iunu"\ndeck = "d.toml"\n[[player]]\nname = "A"\ndeben = 1\nfood = 2\n')
    assert_user_error(sheetkit("check", p), "x.toml", "player[0].food", "unknown field")


def test_lint_layouts():
    run = sheetkit("lint", "iunu-score-pad", "levelx-board", "levelx-score-pad")
    assert run.code == 0, run.out
    assert run.out.count(": ok") == 3
