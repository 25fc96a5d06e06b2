"""The history store on real SQLite files: round trips, people, duplicates, migrations from
the first schema version, files that are not sheetkit's, two writers, a kill mid-import."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from sheetkit.history import HistoryError, NewPlay, Sheet, Store, intake, schema, seats_of
from sheetkit.history import exports
from sheetkit.history.store import IllegalPlay

from conftest import ROOT
from historyutil import EXAMPLES, play, sheet, verdict


@pytest.fixture
def db(tmp_path):
    return tmp_path / "h.sqlite3"


def test_created_on_first_use_as_a_sheetkit_file(db):
    with Store.open(db) as store:
        assert store.plays() == []
        assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == schema.VERSION
    head = db.read_bytes()[:100]
    assert head.startswith(b"SQLite format 3\x00")
    assert int.from_bytes(head[68:72], "big") == schema.APPLICATION_ID


def test_default_path_follows_sheetkit_db_then_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv("SHEETKIT_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert schema.default_path() == tmp_path / "data" / "sheetkit" / "history.sqlite3"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/is/ignored")  # the XDG spec: absolute paths only
    assert schema.default_path() == schema.Path.home() / ".local" / "share" / "sheetkit" / "history.sqlite3"
    monkeypatch.setenv("SHEETKIT_DB", str(tmp_path / "x.db"))
    assert schema.default_path() == tmp_path / "x.db"


def test_a_logged_record_comes_back_exactly(db):
    path = EXAMPLES / "glux-game-3p.toml"
    [new] = intake.plays_from_files([str(path)], date="2026-11-28 20:15", location="Casa de Ana", duration_min=40)
    with Store.open(db) as store:
        pid = store.add_play(new)
    with Store.open(db) as store:  # a new connection: what is on disk
        p = store.get(pid)
    assert p.sheets[0].text == path.read_text(encoding="utf-8")
    assert p.sheets[0].source == str(path.resolve())
    assert (p.game, p.played_at, p.location, p.duration_min) == ("glux", "2026-11-28 20:15:00", "Casa de Ana", 40)
    assert [(s.name, s.score, s.winner, s.start) for s in p.seats] == [
        ("Ana", 12, False, True), ("Ben", 18, True, False), ("Carla", 16, False, False)]
    assert p.layout == "glux-board-34p" and p.legal and not p.in_progress
    assert p.sheets[0].verdict == new.sheets[0].verdict


def test_seats_of_one_record_naming_its_players():
    v = verdict("levelx", {"Ana": 76, "Ben": 107, "Carla": 138}, ["Carla"])
    seats = seats_of([Sheet("x", "x", v)])
    assert [(s.name, s.score, s.winner, s.start) for s in seats] == [
        ("Ana", 76, False, True), ("Ben", 107, False, False), ("Carla", 138, True, False)]
    # illegal or unfinished: the tally is no result, nobody won
    for kw in ({"legal": False}, {"in_progress": True}):
        v = verdict("levelx", {"Ana": 76, "Ben": 107}, ["Ben"], **kw)
        assert not any(s.winner for s in seats_of([Sheet("x", "x", v)]))


def test_seats_of_one_sheet_per_player():
    sheets = [sheet("Ana", 50), sheet("Ben", 61, eliminated=True), sheet("Carla", 50), sheet("Dani", 44)]
    seats = seats_of(sheets)
    # Ben scored most but was eliminated (Y20): Ana and Carla share the win
    assert [(s.name, s.winner, s.eliminated, s.start) for s in seats] == [
        ("Ana", True, False, False), ("Ben", False, True, False), ("Carla", True, False, False),
        ("Dani", False, False, False)]
    solo = seats_of([sheet("Ana", 53, solo=True, rank="Fearless night flyer")])
    assert [(s.name, s.winner, s.rank) for s in solo] == [("Ana", False, "Fearless night flyer")]
    with pytest.raises(HistoryError, match="needs a name"):
        seats_of([sheet("", 5)])


def test_yuncos_sheets_of_one_game_are_one_play(db, tmp_path):
    from sheetkit import layouts
    from sheetkit.games.yuncos.play import play as yplay
    import random

    lay = layouts.load("yuncos-easy")
    games = [yplay(lay, random.Random(seed), solo=False) for seed in (1, 2, 3)]
    paths = []
    for i, g in enumerate(games):
        paths.append(tmp_path / f"s{i}.toml")
        paths[-1].write_text(g.toml, encoding="utf-8")
    names = ["Ana", "Ben", "Carla"]
    plays = intake.plays_from_files([str(p) for p in paths], tuple(f"{n}={p}" for n, p in zip(names, paths)))
    assert len(plays) == 1 and len(plays[0].sheets) == 3
    with Store.open(db) as store:
        p = store.get(store.add_play(plays[0]))
    totals = {n: g.total for n, g in zip(names, games)}
    assert {s.name: s.score for s in p.seats} == totals
    best = max(totals.values())
    assert p.winners == [n for n in names if totals[n] == best]
    assert [s.player for s in p.sheets] == names
    with pytest.raises(Exception, match="NAME=RECORD"):
        intake.plays_from_files([str(p) for p in paths], ("Ana",))


def test_people_are_one_whatever_the_case_and_spaces(db):
    with Store.open(db) as store:
        store.add_play(play("glux", {"Ana": 10, "Ben": 5}, ["Ana"]))
        store.add_play(play("glux", {" ana ": 3, "BEN": 9}, ["BEN"]))
        assert [(p.name, p.plays) for p in store.people()] == [("Ana", 2), ("Ben", 2)]
        assert len(store.plays(player="ANA")) == 2


def test_rename_and_merge(db):
    with Store.open(db) as store:
        store.add_play(play("glux", {"Ana": 10, "Ben": 5}, ["Ana"]))
        store.add_play(play("glux", {"Anita": 7, "Carla": 9}, ["Carla"]))
        uid = {p.name: p.uid for p in store.people()}
        assert store.rename_player("anita", "Ana") == "merged"
        assert [(p.name, p.plays) for p in store.people()] == [("Ana", 2), ("Ben", 1), ("Carla", 1)]
        assert store.rename_player("Ana", "Ana García") == "renamed"
        people = {p.name: p.uid for p in store.people()}
        assert people["Ana García"] == uid["Ana"]  # the stable id survives a rename
        # two people who played together are not merged
        with pytest.raises(HistoryError, match="two people"):
            store.rename_player("Ben", "Ana García")
        with pytest.raises(HistoryError, match="no player named"):
            store.rename_player("Zoe", "Ana")
        assert [s.name for s in store.plays()[-1].seats] == ["Ana García", "Ben"]


def test_the_same_sheet_twice_is_refused_unless_asked(db):
    path = str(EXAMPLES / "levelx-game.toml")
    with Store.open(db) as store:
        store.add_play(intake.plays_from_files([path])[0])
        with pytest.raises(HistoryError, match="already logged as play 1 .the same record text"):
            store.add_play(intake.plays_from_files([path])[0])
        assert store.add_play(intake.plays_from_files([path])[0], again=True) == 2
        qr = "SK1:yuncos-easy:3b56f308:0042"
        store.add_play(NewPlay("yuncos", (sheet("Ana", 50, qr=qr, solo=True),), "2026-11-01 10:00:00"))
        with pytest.raises(HistoryError, match="QR SK1:yuncos-easy:3b56f308:0042"):
            store.add_play(NewPlay("yuncos", (sheet("Ana", 51, qr=qr, solo=True),), "2026-11-02 10:00:00"))
        # in one batch: all or nothing
        a = play("glux", {"Ana": 1, "Ben": 2}, ["Ben"])
        with pytest.raises(HistoryError, match="already logged"):
            store.add_plays([a, NewPlay("glux", a.sheets, a.played_at)])
        assert len(store.plays()) == 3


def test_an_illegal_game_only_with_illegal_ok(db):
    new = intake.plays_from_files([str(EXAMPLES / "glux-game-illegal.toml")])[0]
    with Store.open(db) as store:
        with pytest.raises(IllegalPlay, match="ILLEGAL: 9 finding"):
            store.add_play(new)
        assert store.plays() == []
        ok = intake.plays_from_files([str(EXAMPLES / "glux-game-illegal.toml")], illegal_ok=True)[0]
        p = store.get(store.add_play(ok))
        assert not p.legal and p.illegal_ok and p.winners == []


def test_plays_in_progress_are_plays(db):
    with Store.open(db) as store:
        pid = store.add_play(play("levelx", {"Ana": 20, "Ben": 30}, ["Ben"], in_progress=True))
        p = store.get(pid)
        assert p.in_progress and p.winners == []


def test_filters(db):
    with Store.open(db) as store:
        store.add_play(play("glux", {"Ana": 10, "Ben": 5}, ["Ana"], when="2026-10-01 20:00:00"))
        store.add_play(play("iunu", {"Ana": 30, "Carla": 31}, ["Carla"], when="2026-11-01 20:00:00"))
        store.add_play(play("glux", {"Ben": 3, "Carla": 9}, ["Carla"], when="2026-11-05 20:00:00"))
        assert [p.id for p in store.plays()] == [3, 2, 1]
        assert [p.id for p in store.plays(game="glux")] == [3, 1]
        assert [p.id for p in store.plays(player="carla")] == [3, 2]
        assert [p.id for p in store.plays(since="2026-11-01 00:00:00")] == [3, 2]
        assert [p.id for p in store.plays(game="glux", player="Ana")] == [1]


def test_delete_takes_the_whole_play(db):
    with Store.open(db) as store:
        store.add_play(play("glux", {"Ana": 10, "Ben": 5}, ["Ana"]))
        store.add_play(play("glux", {"Ana": 1, "Zoe": 5}, ["Zoe"]))
        store.delete(2)
        assert [p.id for p in store.plays()] == [1]
        assert store.db.execute("SELECT count(*) FROM sheets").fetchone()[0] == 1
        assert store.db.execute("SELECT count(*) FROM seats").fetchone()[0] == 2
        assert [p.name for p in store.people()] == ["Ana", "Ben"]  # Zoe played no other play
        with pytest.raises(HistoryError, match="no play 2"):
            store.delete(2)


# ------------------------------------------------------------------ migrations


def _first_version_file(path):
    """A history as the first schema version wrote it, made with that version's own SQL."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
    for statement in schema.MIGRATIONS[0]:
        db.execute(statement)
    db.execute("PRAGMA user_version = 1")
    db.execute("PRAGMA journal_mode = WAL")
    solo = verdict("yuncos", {"": 53}, solo=True, rank="Fearless night flyer", layout="yuncos-easy")
    going = verdict("levelx", {"Ana": 20, "Ben": 30}, in_progress=True)
    db.execute("INSERT INTO people VALUES (1, 'u1', 'Ana', 'ana'), (2, 'u2', 'Ben', 'ben')")
    db.execute("INSERT INTO plays VALUES (1, 'yuncos', '2026-01-05 20:00:00', NULL, NULL, 'yuncos-easy', '3b56f308',"
               " NULL, NULL, 1, 0, '2026-01-05 22:00:00'),"
               " (2, 'levelx', '2026-01-06 20:00:00', 'Bar', 30, NULL, NULL, NULL, NULL, 1, 0, '2026-01-06 22:00:00')")
    db.execute("INSERT INTO sheets VALUES (1, 0, 'aa', 'yuncos-easy', '3b56f308', NULL, NULL, '/r/a.toml',"
               " 'game = \"yuncos\"', ?), (2, 0, 'bb', NULL, NULL, NULL, NULL, '/r/b.toml', 'game = \"levelx\"', ?)",
               (json.dumps(solo), json.dumps(going)))
    db.execute("INSERT INTO seats VALUES (1, 0, 1, 53, 0, 0), (2, 0, 1, 20, 0, 1), (2, 1, 2, 30, 0, 0)")
    db.close()


def test_migrating_from_the_first_schema_version(db):
    _first_version_file(db)
    with Store.open(db) as store:
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == schema.VERSION
        plays = {p.id: p for p in store.plays()}
        assert plays[1].seats[0].rank == "Fearless night flyer" and not plays[1].in_progress
        assert plays[2].in_progress and plays[2].location == "Bar"
        assert [s.name for s in plays[2].seats] == ["Ana", "Ben"]
        assert store.integrity() == "ok"
        # and it goes on working as a current file
        store.add_play(play("glux", {"Ana": 10, "Ben": 5}, ["Ana"]))
        assert len(store.plays()) == 3


def _untouched(path, attempt):
    before = path.read_bytes()
    with pytest.raises(HistoryError) as e:
        attempt()
    assert path.read_bytes() == before
    return str(e.value)


def test_a_newer_file_is_refused_untouched(db):
    with Store.open(db) as store:
        store.add_play(play("glux", {"Ana": 10, "Ben": 5}, ["Ana"]))
    raw = sqlite3.connect(db)
    raw.execute(f"PRAGMA user_version = {schema.VERSION + 1}")
    raw.commit()
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.close()
    msg = _untouched(db, lambda: Store.open(db))
    assert "newer sheetkit" in msg and "upgrade" in msg


def test_files_that_are_not_a_sheetkit_history_are_refused_untouched(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("shopping list\n" * 20)
    assert "not an SQLite database" in _untouched(text, lambda: Store.open(text))
    other = tmp_path / "other.db"
    raw = sqlite3.connect(other)
    raw.execute("CREATE TABLE t (x)")
    raw.commit()
    raw.close()
    assert "not a sheetkit history" in _untouched(other, lambda: Store.open(other))
    folder = tmp_path / "dir.sqlite3"
    folder.mkdir()
    with pytest.raises(HistoryError, match="is a folder"):
        Store.open(folder)


def test_a_corrupt_history_gives_one_clear_error_and_is_left_alone(db):
    with Store.open(db) as store:
        store.add_plays([play("glux", {"Ana": i, "Ben": 5}, ["Ben"]) for i in range(300)])
    data = bytearray(db.read_bytes())
    page = 4096
    assert len(data) > 4 * page
    data[page:] = b"\xa5" * (len(data) - page)  # every page but the first is garbage; the header intact
    db.write_bytes(bytes(data))

    def use():
        with Store.open(db) as store:
            store.plays()
            store.stats()
    msg = _untouched(db, use)
    assert "cannot be read" in msg


# ------------------------------------------------------------------ two processes

WRITER = r"""
import sys
from sheetkit.history import NewPlay, Sheet, Store
db, who, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
v = lambda i: {"game": "glux", "source": "w", "legal": True, "winners": [who], "info": {}, "findings": [],
               "scores": [{"player": who, "total": i, "eliminated": False}, {"player": "Rival", "total": 0, "eliminated": False}]}
with Store.open(db) as store:
    for i in range(n):
        store.add_play(NewPlay("glux", (Sheet(f"# {who} {i}\n", "w", v(i)),), "2026-11-01 20:00:00"))
"""


def test_two_writers_at_once_lose_no_play(db):
    Store.open(db).close()
    n = 150
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(db), who, str(n)], cwd=ROOT,
                              stderr=subprocess.PIPE, text=True) for who in ("Ana", "Ben")]
    for p in procs:
        assert p.wait(timeout=120) == 0, p.stderr.read()
    with Store.open(db) as store:
        plays = store.plays()
        assert len(plays) == 2 * n
        for who in ("Ana", "Ben"):
            assert sorted(p.seats[0].score for p in plays if p.seats[0].name == who) == list(range(n))
        assert store.integrity() == "ok"


def test_a_kill_mid_import_leaves_whole_plays(tmp_path):
    n = 6000
    source = tmp_path / "source.sqlite3"
    # an import checks every record text before it writes: each play a real record (the
    # cheapest to check), made distinct by a comment line
    final = (EXAMPLES / "levelx-final.toml").read_text(encoding="utf-8")

    def real(i: int) -> NewPlay:
        p = play("levelx", {"Ana": i, "Ben": n - i, "Carla": 7}, ["Ana" if 2 * i > n else "Ben"])
        s = p.sheets[0]
        return NewPlay(p.game, (Sheet(f"# copy {i}\n" + final, s.source, s.verdict),), p.played_at)

    with Store.open(source) as store:
        store.add_plays([real(i) for i in range(n)])
        dump = tmp_path / "all.json"
        dump.write_text(exports.to_json(store.full()), encoding="utf-8")
    target = tmp_path / "target.sqlite3"
    proc = subprocess.Popen([sys.executable, "-m", "sheetkit", "import", str(dump), "--db", str(target)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    count = 0
    while time.time() < deadline and count < 50:
        time.sleep(0.01)
        try:
            with sqlite3.connect(f"file:{target}?mode=ro", uri=True, timeout=1) as look:
                count = look.execute("SELECT count(*) FROM plays").fetchone()[0]
        except sqlite3.Error:
            continue
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with Store.open(target) as store:
        assert store.integrity() == "ok"
        present = store.plays()
        assert 0 < len(present) < n, "the import was not cut short: make it bigger"
        for p in present:  # whole: its sheet and all three seats, as in the source
            assert [s.name for s in p.seats] == ["Ana", "Ben", "Carla"]
            assert p.seats[0].score + p.seats[1].score == n
        assert store.db.execute("SELECT count(*) FROM sheets").fetchone()[0] == len(present)
        # run again: the rest comes in, nothing twice
        ids, skipped = store.import_plays(exports.read_json(dump.read_bytes(), str(dump)))
        assert skipped == len(present) and len(store.plays()) == n
