"""Export to BG Stats, CSV and sheetkit's JSON; import of sheetkit's JSON back."""

from __future__ import annotations

import csv
import io
import json
import random
from urllib.parse import unquote

import pytest

from sheetkit import layouts
from sheetkit.games.yuncos.play import play as yuncos_game
from sheetkit.history import HistoryError, NewPlay, Store, exports, intake

from historyutil import EXAMPLES, play, sheet


@pytest.fixture
def full(tmp_path):
    """A history with a bit of everything: real records, a Yuncos game of two sheets, a solo
    sheet with its QR, an illegal game kept, a game in progress, a rename."""
    lay = layouts.load("yuncos-easy")
    paths = []
    for i in (4, 5):
        paths.append(tmp_path / f"y{i}.toml")
        paths[-1].write_text(yuncos_game(lay, random.Random(i), solo=False).toml, encoding="utf-8")
    s = Store.open(tmp_path / "a.sqlite3")
    s.add_plays(intake.plays_from_files([str(EXAMPLES / f) for f in ("glux-game-3p.toml", "iunu-game.toml",
                                                                     "levelx-game.toml")],
                                        date="2026-11-20 21:00", location="Casa de Ana", duration_min=45))
    s.add_plays(intake.plays_from_files([str(p) for p in paths], (f"Ana={paths[0]}", f"Dani={paths[1]}")))
    s.add_plays(intake.plays_from_files([str(EXAMPLES / "glux-game-illegal.toml")], illegal_ok=True))
    s.add_play(NewPlay("yuncos", (sheet("Ana", 53, solo=True, rank="Fearless night flyer",
                                        qr="SK1:yuncos-easy:3b56f308:0042"),), "2026-11-21 10:00:00"))
    s.add_play(play("levelx", {"Ana": 20, "Ben": 30}, [], in_progress=True))
    s.rename_player("Carla", "Carla Ruiz")
    yield s
    s.close()


def test_bgstats_play(full):
    plays = list(full.full())
    out = json.loads(exports.to_bgstats(plays))
    glux = out[0]
    assert glux["sourceName"] == "sheetkit"
    assert glux["playDate"] == "2026-11-20 21:00:00"
    assert glux["game"] == {"name": "Glüx", "sourceGameId": "sheetkit:glux", "highestWins": True, "noPoints": False}
    assert (glux["location"], glux["durationMin"], glux["board"]) == ("Casa de Ana", 45, "glux-board-34p")
    assert [(p["name"], p["score"], p["winner"], p["startPlayer"]) for p in glux["players"]] == [
        ("Ana", 12, False, True), ("Ben", 18, True, False), ("Carla Ruiz", 16, False, False)]
    for p in out:  # the winner and start flags are always there, as booleans; ids are stable
        for pl in p["players"]:
            assert isinstance(pl["winner"], bool) and isinstance(pl["startPlayer"], bool)
            assert pl["sourcePlayerId"].startswith("sheetkit:")
    solo = next(p for p in out if p["sourcePlayId"] == "SK1:yuncos-easy:3b56f308:0042")  # the pad's QR text
    assert [pl["winner"] for pl in solo["players"]] == [False]
    assert glux["sourcePlayId"].startswith("sheetkit:")  # no QR: the record text's fingerprint
    assert len({p["sourcePlayId"] for p in out}) == len(out)
    # the same person has the same id in every play, whatever the name now
    ids = {pl["name"]: pl["sourcePlayerId"] for p in out for pl in p["players"]}
    assert len(set(ids.values())) == len(ids)
    assert "illegal" in out[4]["comments"] and "in progress" in out[6]["comments"]
    # and again: the same ids
    assert exports.to_bgstats(list(full.full())) == exports.to_bgstats(plays)


def test_bgstats_link(full):
    p = full.get(1)
    link = exports.bgstats_link(p)
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    data = link.split("?data=", 1)[1]
    assert " " not in data and "{" not in data and "&" not in data
    assert json.loads(unquote(data)) == exports.bgstats_play(p)
    lines = exports.to_links(list(full.full())).splitlines()
    assert len(lines) == 7 and lines[0] == link


def test_csv_one_row_per_player_per_play(full):
    rows = list(csv.DictReader(io.StringIO(exports.to_csv(full.full()))))
    assert len(rows) == 3 + 3 + 3 + 2 + 2 + 1 + 2
    first = rows[:3]
    assert [(r["play"], r["player"], r["score"], r["winner"], r["start_player"]) for r in first] == [
        ("1", "Ana", "12", "0", "1"), ("1", "Ben", "18", "1", "0"), ("1", "Carla Ruiz", "16", "0", "0")]
    assert first[0]["location"] == "Casa de Ana" and first[0]["game"] == "glux"
    assert [r["rank"] for r in rows if r["qr"]] == ["Fearless night flyer"]


def test_csv_never_hands_a_spreadsheet_a_formula(tmp_path):
    with Store.open(tmp_path / "h.sqlite3") as s:
        s.add_play(play("glux", {"=HYPERLINK(1)": 3, "Ben": 5}, ["Ben"]))
        text = exports.to_csv(s.full())
    assert "'=HYPERLINK(1)" in text


def test_export_then_import_into_an_empty_history_gives_the_same_plays(full, tmp_path):
    dump = exports.to_json(full.full())
    # `full` holds hand-made texts (and a record naming a deck file), which an import checking
    # its record texts refuses (test_hostile_cli_history.py): the round trip is of the rest
    with Store.open(tmp_path / "b.sqlite3") as b:
        ids, skipped = b.import_plays(exports.read_json(dump.encode(), "dump.json", check_texts=False))
        assert (len(ids), skipped) == (7, 0)
        assert exports.to_json(b.full()) == dump
        assert [(p.name, p.uid) for p in b.people()] == [(p.name, p.uid) for p in full.people()]
        assert exports.to_bgstats(b.full()) == exports.to_bgstats(full.full())
        # importing again adds nothing
        assert b.import_plays(exports.read_json(dump.encode(), "dump.json", check_texts=False)) == ([], 7)


@pytest.mark.parametrize("raw, words", [
    (b"\xff\xfe", "not UTF-8"),
    (b"{", "not valid JSON"),
    (b"[1, 2]", "not sheetkit's history JSON"),
    (b'{"format": "sheetkit-history", "version": 99, "plays": []}', "version 99"),
    (b'{"format": "sheetkit-history", "version": 1, "plays": {}}', "plays: expected a list"),
    (b'{"format": "sheetkit-history", "version": 1, "plays": [7]}', "plays[0]: expected a play"),
    (b"[" * 100000 + b"]" * 100000, "not"),
])
def test_bad_imports_are_refused(raw, words):
    with pytest.raises(HistoryError, match=words.replace("[", r"\[").replace("(", r"\(")):
        exports.read_json(raw, "x.json")


def test_a_bad_play_in_an_import_names_its_field_and_nothing_is_written(full, tmp_path):
    data = json.loads(exports.to_json(full.full()))
    cases = [("played_at", "yesterday", "plays[3].played_at"), ("duration_min", -5, "plays[3].duration_min"),
             ("game", "../../etc", "plays[3].game"), ("players", [{"name": ""}], "plays[3].players")]
    for key, value, where in cases:
        bad = json.loads(json.dumps(data))
        bad["plays"][3][key] = value
        with pytest.raises(HistoryError, match=where.replace("[", r"\[")):
            exports.read_json(json.dumps(bad).encode(), "x.json")
    bad = json.loads(json.dumps(data))
    bad["plays"][2]["sheets"][0]["verdict"]["scores"] = [{"player": "Ana", "total": "many"}]
    with pytest.raises(HistoryError, match=r"plays\[2\].sheets\[0\].verdict"):
        exports.read_json(json.dumps(bad).encode(), "x.json")
