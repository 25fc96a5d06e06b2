"""`sheetkit log`, `plays`, `show`, `stats`, `delete`, `export`, `import`, `player`: good and
bad input, in-process as `sheetkit` runs (and a few real processes)."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import subprocess
import sys

import pytest

from conftest import ROOT, sheetkit
from historyutil import EXAMPLES, one_line_error, run

GLUX = str(EXAMPLES / "glux-game-3p.toml")
IUNU = str(EXAMPLES / "iunu-game.toml")
LEVELX = str(EXAMPLES / "levelx-game.toml")
YUNCOS = str(EXAMPLES / "yuncos-easy-legal.toml")
ILLEGAL = str(EXAMPLES / "glux-game-illegal.toml")


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "h.sqlite3")


def log(db, *args):
    return run("log", *args, "--db", db)


def test_log_then_list_show_stats(db):
    r = log(db, GLUX, IUNU, "--date", "2026-11-28 20:15", "--location", "Casa de Ana", "--duration", "50")
    assert r.code == 0, r.err
    assert r.out.splitlines() == ["saved play 1  2026-11-28 20:15  Glüx: Ana 12, Ben 18 (won), Carla 16",
                                  "saved play 2  2026-11-28 20:15  IUNU: Ana 34, Ben 31, Carla 34 (won)"]
    assert log(db, YUNCOS, "--player", "Ana", "--date", "2026-11-29").code == 0
    r = run("plays", "--db", db)
    assert r.code == 0 and [line.split()[0] for line in r.out.splitlines()] == ["3", "2", "1"]
    r = run("plays", "--db", db, "--json", "--game", "glux")
    assert [p["id"] for p in json.loads(r.out)] == [1]
    assert [p["id"] for p in json.loads(run("plays", "--db", db, "--json", "--player", "ben").out)] == [2, 1]
    assert [p["id"] for p in json.loads(run("plays", "--db", db, "--json", "--since", "2026-11-29").out)] == [3]
    r = run("show", "1", "--db", db)
    assert r.code == 0
    assert r.out.splitlines()[:3] == ["play 1: Glüx, 2026-11-28 20:15, Casa de Ana, 50 min", "  legal",
                                      "  layout glux-board-34p"]
    assert "  Ben: 18  (won)" in r.out and "  Ana: 12  (started)" in r.out
    shown = json.loads(run("show", "3", "--db", db, "--json").out)
    assert shown["players"][0]["rank"] == "Fearless night flyer" and shown["sheets"][0]["player"] == "Ana"
    with open(YUNCOS, encoding="utf-8") as f:
        assert run("show", "3", "--text", "--db", db).out == f.read()
    r = run("stats", "--db", db)
    assert r.code == 0 and "glux: 1 play(s), last 2026-11-28, best 18 by Ben (2026-11-28)" in r.out
    stats = json.loads(run("stats", "--db", db, "--json", "--game", "yuncos").out)
    assert stats["solo_ranks"][0]["rank"] == "Fearless night flyer"
    assert {p["game"] for p in stats["players"]} == {"yuncos"}
    assert json.loads(run("log", LEVELX, "--db", db, "--json").out)[0]["winners"] == ["Carla"]


def test_log_refusals(db, tmp_path):
    assert log(db, GLUX).code == 0
    one_line_error(log(db, GLUX), "already logged as play 1", "--again")
    assert log(db, GLUX, "--again").code == 0
    one_line_error(log(db, ILLEGAL), "ILLEGAL: 9 findings", "--illegal-ok", code=1)
    r = log(db, ILLEGAL, "--illegal-ok")
    assert r.code == 0 and "[ILLEGAL]" in r.out
    one_line_error(log(db, YUNCOS), "names no player", "--player NAME")
    one_line_error(log(db, YUNCOS, GLUX, "--player", "Ana"), "NAME=RECORD")
    one_line_error(log(db, YUNCOS, "--player", f"Ana={GLUX}"), "not one of the records given")
    one_line_error(log(db, GLUX, "--player", "Zoe"), "names its own players")
    one_line_error(log(db, YUNCOS, "--player", "  "), "needs a name")
    one_line_error(log(db, YUNCOS, "--player", "x" * 61), "at most 60")
    one_line_error(log(db, GLUX, "--date", "28/11/2026"), "--date", "YYYY-MM-DD")
    one_line_error(log(db, GLUX, "--date", "2026-02-30"), "--date")
    one_line_error(log(db, GLUX, "--location", "a\x07b"), "--location")
    one_line_error(log(db, GLUX, "--duration", "0"), "--duration")
    one_line_error(log(db, GLUX, GLUX), "given twice")
    one_line_error(log(db, str(tmp_path / "missing.toml")), "no such file")
    one_line_error(log(db, str(EXAMPLES / "glux-bad-input.toml")), "not on the board")
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"game = \xff")
    one_line_error(log(db, str(bad)), "not UTF-8")
    bad.write_text("game = [", encoding="utf-8")
    one_line_error(log(db, str(bad)), "not valid TOML")
    # nothing of any refused command went in
    assert [p["id"] for p in json.loads(run("plays", "--db", db, "--json").out)] == [3, 2, 1]


def test_a_refused_batch_saves_nothing(db):
    assert log(db, IUNU).code == 0
    one_line_error(log(db, GLUX, IUNU), "already logged")
    assert len(json.loads(run("plays", "--db", db, "--json").out)) == 1


def test_read_commands_bad_input(db):
    assert log(db, GLUX).code == 0
    one_line_error(run("show", "9", "--db", db), "no play 9")
    one_line_error(run("show", "x", "--db", db), "not a valid integer")
    one_line_error(run("plays", "--since", "soon", "--db", db), "--since")
    one_line_error(run("plays", "--game", "chess", "--db", db), "unknown game 'chess'")
    one_line_error(run("stats", "--game", "chess", "--db", db), "unknown game")
    assert run("plays", "--player", "Nobody", "--db", db).out == "no plays match\n"
    one_line_error(run("plays", "--db", ""), "--db needs a file name")


def test_an_empty_history_says_so(db):
    assert run("plays", "--db", db).out == "no plays in the history yet (see `sheetkit log`)\n"
    assert run("stats", "--db", db).out == "no finished legal plays in the history yet\n"
    assert run("player", "list", "--db", db).out == "no players in the history yet\n"


def test_delete_asks(db):
    assert log(db, GLUX, IUNU).code == 0
    r = run("delete", "1", "--db", db, input="n\n")
    assert r.code == 1 and "not deleted" in r.err
    r = run("delete", "1", "--db", db, input="y\n")
    assert r.code == 0 and r.out == "deleted play 1\n"
    assert run("delete", "2", "--yes", "--db", db).code == 0
    one_line_error(run("delete", "2", "--yes", "--db", db), "no play 2")
    assert run("plays", "--db", db).out.startswith("no plays")


def test_export_and_import(db, tmp_path):
    # an import reads its records as from outside, never opening a file one names: the IUNU
    # play carries its deck inline (iunu-game.toml names a deck file: refused, see
    # test_hostile_cli_history.py)
    assert log(db, GLUX, str(EXAMPLES / "iunu-inline-deck.toml"), LEVELX).code == 0
    assert log(db, YUNCOS, "--player", "Ana").code == 0
    bg = json.loads(run("export", "1", "3", "--format", "bgstats", "--db", db).out)
    assert [p["game"]["name"] for p in bg] == ["Glüx", "Level X"]
    links = run("export", "--all", "--format", "bgstats-link", "--db", db).out.splitlines()
    assert len(links) == 4 and all(x.startswith("https://app.bgstatsapp.com/createPlay.html?data=") for x in links)
    rows = list(csv.DictReader(io.StringIO(run("export", "--all", "--format", "csv", "--db", db).out)))
    assert len(rows) == 9
    out = tmp_path / "all.json"
    r = run("export", "--all", "--out", str(out), "--db", db)
    assert r.code == 0 and "exported 4 play(s)" in r.err
    other = str(tmp_path / "other.sqlite3")
    assert run("import", str(out), "--db", other).out == "imported 4 play(s)\n"
    assert run("import", str(out), "--db", other).out == "imported 0 play(s); 4 already in the history, skipped\n"
    assert run("export", "--all", "--db", other).out == out.read_text(encoding="utf-8")
    one_line_error(run("export", "--db", db), "give --all")
    one_line_error(run("export", "1", "--all", "--db", db), "not both")
    one_line_error(run("export", "7", "--db", db), "no play 7")
    one_line_error(run("export", "--all", "--format", "xml", "--db", db), "xml")
    one_line_error(run("import", str(tmp_path / "nope.json"), "--db", db), "no such file")
    one_line_error(run("import", GLUX, "--db", db), "not valid JSON")
    (tmp_path / "x.json").write_text('{"format": "sheetkit-history", "version": 1, "plays": [{"game": 3}]}')
    one_line_error(run("import", str(tmp_path / "x.json"), "--db", db), "plays[0].game")


def test_player_list_and_rename(db):
    assert log(db, GLUX, IUNU).code == 0
    assert run("player", "list", "--db", db).out == "Ana: 2 play(s)\nBen: 2 play(s)\nCarla: 2 play(s)\n"
    assert run("player", "rename", "carla", "Carla Ruiz", "--db", db).out == "renamed: carla -> Carla Ruiz\n"
    one_line_error(run("player", "rename", "Ben", "Ana", "--db", db), "two people")
    one_line_error(run("player", "rename", "Zoe", "Ana", "--db", db), "no player named 'Zoe'")
    people = json.loads(run("player", "list", "--json", "--db", db).out)
    assert [p["name"] for p in people] == ["Ana", "Ben", "Carla Ruiz"]
    assert "Carla Ruiz 16" in run("plays", "--db", db).out


def test_files_that_are_not_a_history(tmp_path):
    notes = tmp_path / "notes.sqlite3"
    notes.write_text("not a database, just some notes" * 10)
    for args in (["plays"], ["stats"], ["log", GLUX], ["import", "x.json"]):
        before = notes.read_bytes()
        r = run(*args, "--db", str(notes))
        if args[0] != "import":
            one_line_error(r, "not a sheetkit history")
        assert notes.read_bytes() == before
    one_line_error(run("plays", "--db", str(tmp_path)), "is a directory")


def test_sheetkit_db_in_the_environment(tmp_path):
    env = {"SHEETKIT_DB": str(tmp_path / "env.sqlite3")}
    assert run("log", GLUX, env=env).code == 0
    assert (tmp_path / "env.sqlite3").is_file()
    assert "Glüx" in run("plays", env=env).out


def test_the_default_file_is_in_the_data_folder(tmp_path):
    env = {"SHEETKIT_DB": None, "XDG_DATA_HOME": str(tmp_path / "data")}
    assert run("log", GLUX, env=env).code == 0
    assert (tmp_path / "data" / "sheetkit" / "history.sqlite3").is_file()


# ------------------------------------------------------------------ real processes


def test_real_processes_log_list_and_a_corrupt_file(tmp_path):
    db = tmp_path / "h.sqlite3"
    assert sheetkit("log", GLUX, "--db", db).code == 0
    r = sheetkit("plays", "--db", db, "--json")
    assert r.code == 0 and json.loads(r.out)[0]["winners"] == ["Ben"]
    r = sheetkit("show", "1", "--db", db)
    assert r.code == 0 and "Ben: 18  (won)" in r.out
    # a newer file: refused, untouched
    raw = sqlite3.connect(db)
    raw.execute("PRAGMA user_version = 99")
    raw.commit()
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.close()
    before = db.read_bytes()
    r = sheetkit("plays", "--db", db)
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and "newer sheetkit" in r.err
    assert db.read_bytes() == before
    # corrupt
    data = bytearray(before)
    data[4096:] = b"\x00\xff" * ((len(data) - 4096) // 2)
    db.write_bytes(bytes(data))
    r = sheetkit("plays", "--db", db)
    assert r.code == 2 and "Traceback" not in r.err and len(r.err.strip().splitlines()) == 1


def test_listing_and_stats_import_no_schema_or_rendering_library(tmp_path):
    from test_coldstart import PROBE

    db = tmp_path / "h.sqlite3"
    assert sheetkit("log", GLUX, IUNU, "--db", db).code == 0
    for args in (["plays"], ["stats"], ["show", "1"], ["export", "--all", "--format", "bgstats"], ["player", "list"]):
        report = tmp_path / "modules.json"
        proc = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args + ["--db", str(db)]), str(report)],
                              capture_output=True, text=True, cwd=ROOT, timeout=60)
        data = json.loads(report.read_text())
        assert data["code"] == 0, proc.stderr
        heavy = sorted({m.split(".")[0] for m in data["modules"]} & {"pydantic", "reportlab", "PIL", "qrcode"})
        assert heavy == [], f"`sheetkit {' '.join(args)}` imported {heavy}"


def test_recheck_recomputes_from_the_stored_text(db, tmp_path):
    import shutil

    for name in ("iunu-game.toml", "iunu-deck-example.toml"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    assert log(db, GLUX, str(tmp_path / "iunu-game.toml")).code == 0
    r = run("recheck", "--all", "--db", db)
    assert (r.code, r.out) == (0, "rechecked 2 play(s): 0 changed\n")
    # a verdict as an older sheetkit might have given it: Ben's 18 written down as 3, and no winner
    raw = sqlite3.connect(db)
    old = json.loads(raw.execute("SELECT verdict FROM sheets WHERE play_id = 1").fetchone()[0])
    old["scores"][1]["total"], old["winners"] = 3, []
    raw.execute("UPDATE sheets SET verdict = ? WHERE play_id = 1", (json.dumps(old),))
    raw.execute("UPDATE seats SET score = 3, winner = 0 WHERE play_id = 1 AND ord = 1")
    raw.commit()
    raw.close()
    assert "Ben 3," in run("plays", "--db", db).out
    r = run("recheck", "1", "--db", db)
    assert r.code == 0 and r.out.splitlines()[-1] == "rechecked 1 play(s): 1 changed"
    assert "Ben 18 (won)" in run("plays", "--db", db).out
    # the deck the IUNU record names has gone: said, the play kept as it was
    (tmp_path / "iunu-deck-example.toml").unlink()
    r = run("recheck", "--all", "--db", db)
    assert r.code == 1 and "play 2: not rechecked" in r.err and "iunu-deck-example.toml" in r.err
    assert "Carla 34 (won)" in run("plays", "--db", db).out
    one_line_error(run("recheck", "--db", db), "--all")
    one_line_error(run("recheck", "5", "--db", db), "no play 5")


def test_the_history_benchmark_runs():
    """`python bench/run.py` runs bench/bench_history.py; a tiny run of it works."""
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_history.py"), "--plays", "40", "--repeat", "1"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "stats/list" in proc.stdout


def test_absurd_numbers_and_names(db, tmp_path):
    assert log(db, YUNCOS, "--player", "Ana").code == 0
    for cmd in (["show"], ["delete", "--yes"], ["export"], ["recheck"]):
        one_line_error(run(*cmd, "99999999999999999999999", "--db", db), "99999999999999999999999")
        one_line_error(run(*cmd, "0", "--db", db), "0")
    one_line_error(log(db, YUNCOS, "--player", "Ana\u202eX", "--again"), "control characters")
    r = log(db, YUNCOS, "--player", "👩\u200d👩\u200d👧", "--again")  # an emoji family is a name
    assert r.code == 0, r.err
    one_line_error(run("plays", "--db", "/dev/null"), "not a regular file")
    dump = json.loads(run("export", "--all", "--db", db).out)
    for field, value in (("total", 10**30), ("serial", 10**30), ("qr", ["x"])):
        bad = json.loads(json.dumps(dump))
        target = bad["plays"][0]["sheets"][0]["verdict"]
        if field == "total":
            target["scores"][0]["total"] = value
        else:
            target["info"][field] = value
        (tmp_path / "bad.json").write_text(json.dumps(bad))
        one_line_error(run("import", str(tmp_path / "bad.json"), "--db", str(tmp_path / "o.sqlite3")), "plays[0]")
