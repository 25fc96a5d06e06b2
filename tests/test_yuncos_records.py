"""Yuncos records: the notation, one-line errors for unusable records, the examples."""

import re
import tomllib
from pathlib import Path

import pytest

from sheetkit import layouts
from sheetkit.checking import records
from sheetkit.errors import UserError
from sheetkit.games.yuncos.notation import flight_text, parse_flight
from sheetkit.games.yuncos.record import read_record as load_record
from sheetkit.games.yuncos.templates import record as template
from sheetkit.grid import parse_square

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def base(**over):
    data = {"game": "yuncos", "layout": "yuncos-easy", "start": 1, "fish_marked": 0, "crashes_marked": 0,
            "turn": [{"flight": "S", "puzzle": "nest1", "value": 3}]}
    data.update(over)
    return data


def error(data) -> str:
    with pytest.raises(UserError) as e:
        load_record(data, "rec.toml")
    text = str(e.value)
    assert "\n" not in text
    return text


# ---------------------------------------------------------------- flights


@pytest.mark.parametrize("text", ["E E N N", "EENN", "2E 2N", "e,e,n,n", "  E  EN N "])
def test_compact_flights_are_the_same(text):
    assert flight_text(parse_flight(text)) == "E E N N"


def test_diagonal_tokens():
    assert flight_text(parse_flight("NE E S SW")) == "NE E S SW"
    assert flight_text(parse_flight("N E")) == "N E"
    assert flight_text(parse_flight("NEN")) == "N E N"  # runs of 3+ letters are unit steps


def test_a_step_that_is_not_a_step():
    t = base(turn=[{"flight": "S", "puzzle": "nest1", "value": 1}] * 3 + [{"flight": "E X", "puzzle": "nest1", "value": 2}])
    assert error(t) == "rec.toml: turn[4].flight: 'X' is not a step; expected N, E, S, W, or NE/NW/SE/SW with the diagonal ability"
    assert "turn[1].flight" in error(base(turn=[{"flight": "", "puzzle": "nest1", "value": 2}]))
    assert "'3'" in error(base(turn=[{"flight": "E3", "puzzle": "nest1", "value": 2}]))


def test_vertex_names():
    assert parse_square("C7") == (2, 6)
    assert parse_square("a1") == (0, 0)
    assert parse_square("AA1") == (26, 0)
    assert parse_square("7C") is None


# ---------------------------------------------------------------- unusable records


@pytest.mark.parametrize("over, field, words", [
    ({"colour": "red"}, "colour", "unknown field"),
    ({"start": 9}, "start", "start points are 1, 2, 3, 4"),
    ({"start": "1"}, "start", "without quotes"),
    ({"fish_marked": 11}, "fish_marked", "10 boxes"),
    ({"crashes_marked": 7}, "crashes_marked", "6 boxes"),
    ({"used": ["fish3"]}, "used[0]", "no ability box 'fish3'"),
    ({"used": ["fish2", "fish2"]}, "used[1]", "twice"),
    ({"layout": "yuncos"}, "layout", "yuncos-easy or yuncos-hard"),
    ({"layout": "nope"}, "layout", "unknown layout"),
    ({"turn": []}, "turn", "no turns"),
    ({"score": {"totl": 3}}, "score.totl", "unknown field"),
])
def test_bad_records_name_file_and_field(over, field, words):
    text = error(base(**over))
    assert text.startswith(f"rec.toml: {field}: "), text
    assert words in text


def test_missing_fields():
    data = base()
    del data["fish_marked"]
    assert error(data).startswith("rec.toml: fish_marked: missing field: add it")


@pytest.mark.parametrize("turn, field, words", [
    ({"flight": "S"}, "turn[1].puzzle", "missing"),
    ({"flight": "S", "puzzle": "nest1"}, "turn[1].value", "missing"),
    ({"flight": "S", "value": 2}, "turn[1].puzzle", "missing"),
    ({"flight": "S", "crash": True, "value": 2}, "turn[1].crash", "not both"),
    ({"flight": "S", "puzzle": "nest1", "value": 7}, "turn[1].value", "1-6"),
    ({"flight": "S", "puzzle": "nest1", "value": "4"}, "turn[1].value", "whole number"),
    ({"flight": "S", "puzzle": "nest3", "value": 4}, "turn[1].puzzle", "nest1 and nest2"),
    ({"flight": "S", "puzzle": "lum5", "value": 4}, "turn[1].puzzle", "lum1-lum4"),
    ({"flight": "S", "puzzle": "lum1.4", "value": 4}, "turn[1].puzzle", "levels 1-3"),
    ({"flight": "S", "puzzle": "roof", "value": 4}, "turn[1].puzzle", "expected nest1"),
    ({"flight": "S", "puzzle": "nest1", "value": 4, "dice": [3]}, "turn[1].dice", "two dice"),
    ({"flight": "S", "puzzle": "nest1", "value": 4, "dice": [3, 7]}, "turn[1].dice", "1-6"),
    ({"flight": "S", "puzzle": "nest1", "value": 4, "use": ["wings"]}, "turn[1].use[0]", "plusminus"),
    ({"flight": "S", "puzzle": "nest1", "value": 4, "use": ["lum9"]}, "turn[1].use[0]", "no ability box"),
    ({"flight": "S", "puzzle": "nest1", "value": 4, "from": "Z99"}, "turn[1].from", "not on the map"),
    ({"flight": "S", "puzzle": "nest1", "value": 4, "wind": 3}, "turn[1].wind", "unknown field"),
])
def test_bad_turns_name_the_turn_from_one(turn, field, words):
    text = error(base(turn=[turn]))
    assert text.startswith(f"rec.toml: {field}: "), text
    assert words in text


def test_layout_path_beside_the_record(tmp_path):
    (tmp_path / "levels").mkdir()
    (tmp_path / "levels" / "my-level.toml").write_text(
        (layouts.shipped_dir() / "yuncos-easy.toml").read_text(encoding="utf-8"), encoding="utf-8")
    rec = tmp_path / "game.toml"
    rec.write_text('game = "yuncos"\nlayout = "levels/my-level.toml"\nstart = 1\nfish_marked = 0\n'
                   'crashes_marked = 0\n[[turn]]\nflight = "S"\npuzzle = "nest1"\nvalue = 2\n', encoding="utf-8")
    loaded = records.load(rec)
    assert loaded.record.layout.id == "my-level"
    assert records.check(loaded).verdict.legal


def test_qr_text_passes_through():
    rec = load_record(base(qr="hello"), "rec.toml")
    from sheetkit.games.yuncos.check import check

    assert check(rec, "rec.toml").verdict.info["qr"] == "hello"


# ---------------------------------------------------------------- template and examples


@pytest.mark.parametrize("lid", ["yuncos-easy", "yuncos-hard"])
def test_template_filled_minimally_loads(lid):
    text = records.template(lid)
    assert text.startswith("# Yuncos record")
    assert f'layout = "{lid}"' in text
    filled = (text.replace('start = "?"', "start = 1").replace('fish_marked = "?"', "fish_marked = 0")
              .replace('crashes_marked = "?"', "crashes_marked = 0")
              .replace('flight = "?"', 'flight = "S"', 1).replace('flight = "?"', 'flight = "N"', 1)
              .replace('puzzle = "?"', 'puzzle = "nest1"').replace('value = "?"', "value = 3"))
    rec = load_record(tomllib.loads(filled), "filled.toml")
    assert len(rec.turns) == 2 and rec.turns[1].crash
    assert template(layouts.load(lid)) == text


def test_template_as_printed_says_what_to_fill_first():
    text = records.template("yuncos-easy")
    with pytest.raises(UserError, match=r"^t\.toml: start: not filled in: write the number of the starting point"):
        load_record(tomllib.loads(text), "t.toml")
    steps = [("start = 1", "fish_marked: not filled in"), ("fish_marked = 0", "crashes_marked: not filled in"),
             ("crashes_marked = 0", r"turn\[1\]\.flight: not filled in: write the steps drawn"),
             ('flight = "S"', r"turn\[1\]\.puzzle: not filled in: write where this turn's number went"),
             ('puzzle = "nest1"', r"turn\[1\]\.value: not filled in: write the number written"),
             ("value = 3", r"turn\[2\]\.flight: not filled in")]
    for key, (filled, next_one) in zip(["start", "fish_marked", "crashes_marked", "flight", "puzzle", "value"], steps):
        text = re.sub(rf'^{key} = "\?"', filled, text, count=1, flags=re.M)
        with pytest.raises(UserError, match=next_one):
            load_record(tomllib.loads(text), "t.toml")
    with pytest.raises(UserError, match=r"turn\[1\]\.dice: not filled in: write the turn's two dice"):
        load_record(tomllib.loads(text.replace('# dice = ["?", "?"]', 'dice = ["?", "?"]')), "t.toml")


def _check(name):
    return records.check(records.load(EXAMPLES / name)).verdict


def test_example_easy_is_legal():
    v = _check("yuncos-easy-legal.toml")
    assert v.legal and v.exit_code == 0, v.to_text()
    assert v.info["level"] == "easy" and 15 <= v.info["turns"] <= 25
    assert v.info["end"] is not None
    assert v.scores[0].total == sum(p for _, p in v.scores[0].parts)


def test_example_hard_is_legal_and_uses_every_ability():
    v = _check("yuncos-hard-legal.toml")
    assert v.legal, v.to_text()
    assert v.info["level"] == "hard" and 15 <= v.info["turns"] <= 25
    kinds = {a["kind"] for a in v.info["abilities"].values() if a["used"]}
    assert kinds == {"plusminus", "diagonal", "yunco"}


def test_example_illegal_has_several_faults():
    v = _check("yuncos-illegal.toml")
    assert not v.legal and v.exit_code == 1
    assert {f.rule for f in v.findings} >= {"Y4", "Y7", "Y11", "Y13", "Y15", "Y18", "Y21"}
    for f in v.findings:
        assert f.where and f.message


# ---------------------------------------------------------------- odd but plausible input


@pytest.mark.parametrize("turn, field, words", [
    ({"flight": "S", "puzzle": "lum" + "1" * 5000, "value": 4}, "turn[1].puzzle", "expected nest1"),
    ({"flight": "S", "puzzle": "nest1." + "2" * 5000, "value": 4}, "turn[1].puzzle", "expected nest1"),
    ({"flight": "1" * 5000 + "E", "puzzle": "nest1", "value": 4}, "turn[1].flight", "a repeat count is 1-12"),
    ({"flight": "S", "puzzle": "nest1", "value": 4, "use": ["fish" + "9" * 5000]}, "turn[1].use[0]", "ability box"),
    ({"flight": "S", "puzzle": "lum\u0661", "value": 4}, "turn[1].puzzle", "expected nest1"),  # an Arabic-Indic 1
])
def test_long_or_foreign_numbers_are_one_line_errors(turn, field, words):
    text = error(base(turn=[turn]))
    assert text.startswith(f"rec.toml: {field}: "), text
    assert words in text and "4300" not in text


@pytest.mark.parametrize("flight, words", [
    ("\u00df", "'\u00df' is not a step"),        # upper() makes "SS" of it: not two steps south
    ("E \u017f", "'\u017f' is not a step"),      # the long s, upper() makes "S" of it
    ("3 E", "'3' is a count without its step: write it right before the letter, e.g. 3E"),
    ("N O O", "'O' is not a step; expected N, E, S, W, or NE/NW/SE/SW with the diagonal ability (west is W)"),
])
def test_flights_a_player_might_write_get_a_pointed_error(flight, words):
    text = error(base(turn=[{"flight": flight, "puzzle": "nest1", "value": 4}]))
    assert text.startswith("rec.toml: turn[1].flight: "), text
    assert words in text


def test_non_breaking_spaces_separate_steps():
    assert flight_text(parse_flight("E\u00a0E\u3000n")) == "E E N"


def test_box_and_ability_names_ignore_case_and_spaces():
    turns = [{"flight": "S", "puzzle": "Nest1", "value": 1},
             {"flight": "S", "puzzle": " nest 1 ", "value": 2},
             {"flight": "W", "puzzle": "LUM2.1", "value": 3, "use": ["PlusMinus"]},
             {"flight": "W", "puzzle": "Nest2", "value": 6, "use": ["plus minus"]}]
    rec = load_record(base(turn=turns, used=["Nest1.1"]), "rec.toml")
    assert [t.cell.name() for t in rec.turns] == ["nest1", "nest1", "lum2.1", "nest2"]
    assert rec.turns[2].use == ("plusminus",) and rec.model.used == ["nest1.1"]
    v = records.check(records.Loaded("yuncos", "rec.toml", rec)).verdict
    assert [f.rule for f in v.findings] == ["Y15"]  # the second plusminus: only one box is unlocked
    assert "twice" in error(base(used=["fish2", "Fish2"]))


@pytest.mark.parametrize("over, field, words", [
    ({"turn": [{"flight": "S", "puzzle": "nest1", "value": 3, "dice": 5}]}, "turn[1].dice",
     "expected the two dice of the turn as a list, e.g. dice = [3, 5] (got 5)"),
    ({"turn": [{"flight": "S", "puzzle": "nest1", "value": 3, "dice": "3 5"}]}, "turn[1].dice", "as a list"),
    ({"turn": {"flight": "S", "puzzle": "nest1", "value": 3}}, "turn", "[[turn]] table (two brackets)"),
    ({"crashes_marked": 7}, "crashes_marked", "eliminates the Yunco, so copy 6"),
    ({"start": "I6"}, "start", "the number of the starting point marked on the island, without quotes, e.g. start = 2"),
    ({"turn": ["E E N"]}, "turn[1]", "expected a [[turn]] table with flight, puzzle and value (got 'E E N')"),
    ({"score": 57}, "score", "expected a [score] table of the score boxes"),
])
def test_plausible_slips_get_a_message_that_says_what_to_write(over, field, words):
    text = error(base(**over))
    assert text.startswith(f"rec.toml: {field}: "), text
    assert words in text
