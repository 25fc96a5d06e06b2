"""Deleting and abandoning a play from the page, every play in progress reachable from the
home page, and what the history and BG Stats make of them: through Flask's test client on a
real history file (sheetkit/web/plays/manage.py, Store.delete, Store.abandon, schema 5)."""

from __future__ import annotations

import hashlib
import html
import json
import re
import sqlite3
from datetime import datetime, timedelta
from urllib.parse import unquote

import pytest

from sheetkit.history import Store, exports, schema
from sheetkit.history.store import NewPlay, Play, Seat
from sheetkit.web.app import create_app

from conftest import sheetkit
from test_web import Client
from test_web_foreign_history import STARTS
from test_web_fuzz import dump
from test_web_plays import START, db, phone, placements, start, start_play, step  # noqa: F401  (fixtures)


def ask(phone, pid: int, what: str, page_url: str | None = None):
    """Open the page of the play, find its `what` box (delete or abandon) and confirm it, as
    a tap on the summary and then on the confirm button would."""
    page = phone.get(page_url or f"/play/{pid}")
    assert page.code == 200, page.text[:2000]
    box = re.search(rf'<details class="end" id="{what}-box">.*?</details>', page.text, re.S)
    assert box, f"no {what} box on {page_url or pid}"
    assert f'id="{what}-confirm"' in box.group(0) and 'name="csrf"' in box.group(0)  # asked once, in the box
    version = page.hidden(f"/play/{pid}/{what}", "version")
    return phone.post(f"/play/{pid}/{what}", {"version": version})


def finish(phone, pid: int) -> None:
    """A whole Glüx game entered, then ended: a finished, legal play."""
    for form in placements():
        page = phone.get(f"/play/{pid}")
        assert phone.post(f"/play/{pid}/move", {"version": page.hidden(f"/play/{pid}/move", "version"),
                                                **form}).code == 303
    if phone.get(f"/play/{pid}").code == 200:  # not ended by its last move: ended by hand
        assert step(phone, pid, "end").code == 303
    with Store.open(phone.db) as store:
        assert not store.get(pid).in_progress


def listed(phone) -> list[int]:
    return [int(x) for x in re.findall(r'id="resume-(\d+)"', phone.get("/").text)]


# ------------------------------------------------------------------ delete


def test_delete_from_the_entry_screen_is_asked_once_and_the_play_is_gone(phone, db, cli):
    pid, other = start(phone), start(phone)
    assert listed(phone) == [other, pid]
    page = ask(phone, pid, "delete")
    assert page.code == 303 and page.resp.headers["Location"] == "/"
    home = phone.get("/")
    assert home.find("notice") == f"Play {pid} is deleted from the history."
    assert listed(phone) == [other]
    assert phone.get("/").find("notice") is None  # said once
    with Store.open(db) as store:
        assert [p.id for p in store.plays()] == [other]
    assert phone.get(f"/play/{pid}").code == 404 and phone.get(f"/play/{pid}/end").code == 404
    run = cli("plays", "--db", db)
    assert run.code == 0 and f"{pid:>5} " not in run.out and f"{other:>5} " in run.out


def test_delete_from_the_end_page_of_a_finished_play(phone, db, cli):
    pid = start(phone)
    finish(phone, pid)
    end = phone.get(f"/play/{pid}/end")
    assert 'id="delete-box"' in end.text and 'id="abandon-box"' not in end.text  # a finished play is not abandoned
    assert json.loads(cli("stats", "--db", db, "--json").out)["games"][0]["plays"] == 1
    assert ask(phone, pid, "delete", f"/play/{pid}/end").code == 303
    stats = json.loads(cli("stats", "--db", db, "--json").out)
    assert stats["games"] == [] and stats["players"] == []
    with Store.open(db) as store:
        assert store.plays() == [] and store.people() == []  # nobody left who played nothing


# ------------------------------------------------------------------ abandon


def test_abandon_keeps_the_play_marked_and_out_of_everything_that_counts(phone, db, cli):
    done = start(phone)
    finish(phone, done)
    pid = start(phone)
    for form in placements()[:4]:
        page = phone.get(f"/play/{pid}")
        phone.post(f"/play/{pid}/move", {"version": page.hidden(f"/play/{pid}/move", "version"), **form})
    with Store.open(db) as store:
        before = store.get(pid)
    page = ask(phone, pid, "abandon")
    assert page.code == 303 and page.resp.headers["Location"] == "/"
    assert phone.get("/").find("notice") == f"Play {pid} is abandoned: kept in the history, left out of the standings."
    assert pid not in listed(phone)
    assert f'id="resume-{pid}"' not in phone.get("/plays/in-progress").text  # not offered to resume anywhere
    with Store.open(db) as store:
        kept = store.get(pid)
        assert kept.abandoned and kept.in_progress and not kept.open
        assert [s.text for s in kept.sheets] == [s.text for s in before.sheets]  # the records as they stood
        assert store.plays(in_progress=True) == []
        assert [p.id for p in store.plays(abandoned=True)] == [pid]
    # the page shows it as it stood, and takes nothing more
    entry = phone.get(f"/play/{pid}")
    assert entry.code == 303 and entry.resp.headers["Location"] == f"/play/{pid}/end"
    end = phone.get(f"/play/{pid}/end")
    assert end.code == 200 and end.find("saved").startswith(f"Play {pid} was abandoned")
    assert 'id="bgstats"' not in end.text and 'id="abandon-box"' not in end.text and 'id="delete-box"' in end.text
    assert phone.c.get(f"/play/{pid}/record/1").get_data(as_text=True) == kept.sheets[0].text
    saved = dump(db)
    for what in ("move", "undo", "end", "abandon"):
        refused = phone.post(f"/play/{pid}/{what}", {"version": kept.version, "player": "A", "face": "2",
                                                     "square": "A7", "action": "place"})
        assert refused.code == 409 and refused.error, (what, refused.text[:500])
        assert dump(db) == saved, what
    # the standings: the finished play counts, the abandoned one never
    stats = json.loads(cli("stats", "--db", db, "--json").out)
    assert [(g["game"], g["plays"]) for g in stats["games"]] == [("glux", 1)]
    assert stats["not_counted"] == {"in_progress": 0, "illegal": 0, "abandoned": 1}
    assert "not counted: 1 abandoned" in cli("stats", "--db", db).out
    assert "1 abandonada" in cli("stats", "--db", db, "--lang", "es").out
    # `sheetkit plays` marks it, and filters on it
    run = cli("plays", "--db", db)
    line = next(x for x in run.out.splitlines() if x.startswith(f"{pid:>5} "))
    assert line.endswith("[abandoned]") and "[in progress]" not in line
    assert [p["id"] for p in json.loads(cli("plays", "--db", db, "--abandoned", "--json").out)] == [pid]
    assert [p["id"] for p in json.loads(cli("plays", "--db", db, "--no-abandoned", "--json").out)] == [done]
    assert json.loads(cli("plays", "--db", db, "--json").out)[0]["abandoned"] is True
    assert "abandoned" in cli("show", str(pid), "--db", db).out
    # and it can still be deleted
    assert ask(phone, pid, "delete", f"/play/{pid}/end").code == 303
    with Store.open(db) as store:
        assert [p.id for p in store.plays()] == [done]


def test_an_abandoned_play_never_counts_even_if_its_records_are_finished_later(tmp_path):
    """A step that reached an abandoned play by another way (the history's own API) does not
    bring it back into the standings."""
    phone = Client(create_app(db=tmp_path / "h.sqlite3"))
    pid = start_play(phone, START)
    finish_text = None
    with Store.open(tmp_path / "h.sqlite3") as store:
        store.abandon(pid)
        play = store.get(pid)
        sheet = play.sheets[0]
        verdict = {**sheet.verdict, "in_progress": False, "legal": True}
        finish_text = type(sheet)(sheet.text + "\n", sheet.source, verdict)
        store.update_sheets(pid, [finish_text])
        assert store.get(pid).abandoned
        stats = store.stats()
        assert stats.games == [] and stats.abandoned == 1 and stats.in_progress == 0


def test_abandoning_a_finished_play_is_refused_as_it_is_now(phone, db):
    pid = start(phone)
    finish(phone, pid)
    with Store.open(db) as store:
        version = store.get(pid).version
    before = dump(db)
    page = phone.post(f"/play/{pid}/abandon", {"version": version})
    assert page.code == 409 and "only a play still being played" in page.error
    assert page.find("saved").startswith(f"Saved in the history as play {pid}")  # its end page, as it is
    assert dump(db) == before


# ------------------------------------------------------------------ refused


@pytest.mark.parametrize("what", ["delete", "abandon"])
def test_a_page_that_is_no_longer_current_changes_nothing(phone, db, what):
    pid = start(phone)
    old = phone.get(f"/play/{pid}").hidden(f"/play/{pid}/{what}", "version")
    page = phone.get(f"/play/{pid}")  # another phone enters a move meanwhile
    phone.post(f"/play/{pid}/move", {"version": page.hidden(f"/play/{pid}/move", "version"), **placements()[0]})
    before = dump(db)
    page = phone.post(f"/play/{pid}/{what}", {"version": old})
    assert page.code == 409
    assert page.error.startswith("This play changed on another phone meanwhile")
    assert f'id="{what}-box" open' in page.text  # the box asked in, open again with the message
    assert dump(db) == before
    with Store.open(db) as store:
        now = store.get(pid).version
    assert now != old and page.hidden(f"/play/{pid}/{what}", "version") == now  # the play as it is now
    assert phone.post(f"/play/{pid}/{what}", {"version": now}).code == 303  # asked again: done


@pytest.mark.parametrize("what", ["delete", "abandon"])
def test_without_the_csrf_token_or_from_another_site_nothing_happens(phone, db, what):
    pid = start(phone)
    version = phone.get(f"/play/{pid}").hidden(f"/play/{pid}/{what}", "version")
    before = dump(db)
    assert phone.post(f"/play/{pid}/{what}", {"version": version}, csrf=False).code == 403
    assert phone.post(f"/play/{pid}/{what}", {"version": version, "csrf": "forged"}).code == 403
    assert phone.post(f"/play/{pid}/{what}", {"version": version},
                      headers={"Origin": "http://evil.example"}).code == 403
    assert phone.c.get(f"/play/{pid}/{what}").status_code == 405  # a link cannot do it
    assert dump(db) == before


@pytest.mark.parametrize("what", ["delete", "abandon"])
def test_a_play_that_is_not_there_is_404(phone, db, what):
    pid = start(phone)
    before = dump(db)
    for n in (pid + 1, 999999, 2 ** 62 + 1, 2 ** 70):
        assert phone.post(f"/play/{n}/{what}", {"version": "x"}).code == 404, n
    assert phone.post(f"/play/-1/{what}", {"version": "x"}).code == 404
    assert phone.post(f"/play/abc/{what}", {"version": "x"}).code == 404
    assert dump(db) == before


@pytest.mark.parametrize("what", ["delete", "abandon"])
@pytest.mark.parametrize("version", ["", " ", "x" * 5000, "<script>alert(1)</script>", "a\x00b", "😀", "0" * 16,
                                     "../../etc/passwd"])
def test_hostile_versions_change_nothing(phone, db, what, version):
    pid = start(phone)
    before = dump(db)
    page = phone.post(f"/play/{pid}/{what}", {"version": version})
    assert page.code == 409 and page.error and "Traceback" not in page.text
    assert "<script>alert(1)" not in page.text
    assert dump(db) == before


def test_twice_the_version_or_none_changes_nothing(phone, db):
    pid = start(phone)
    version = phone.get(f"/play/{pid}").hidden(f"/play/{pid}/delete", "version")
    before = dump(db)
    assert phone.post(f"/play/{pid}/delete", {}).code == 409
    page = phone.post(f"/play/{pid}/delete", {"version": ["x", version]})  # the first one is read
    assert page.code == 409 and dump(db) == before


def test_the_words_are_spanish_on_the_spanish_page(db):
    phone = Client(create_app(db=db), lang="es")
    pid = start_play(phone, START)
    page = phone.get(f"/play/{pid}")
    assert "Abandonar esta partida" in page.text and "Borrar esta partida" in page.text
    assert ask(phone, pid, "abandon").code == 303
    assert phone.get("/").find("notice").startswith(f"La partida {pid} está abandonada")


# ------------------------------------------------------------------ every play in progress


def test_every_play_in_progress_is_reachable_from_the_home_page(phone, db):
    ids = [start(phone) for _ in range(23)]
    home = phone.get("/")
    shown = listed(phone)
    assert shown == ids[::-1][:20]  # the newest 20
    assert home.find("all-in-progress") == "All 23 plays in progress"
    everything = phone.get("/plays/in-progress")
    assert everything.code == 200
    assert [int(x) for x in re.findall(r'id="resume-(\d+)"', everything.text)] == ids[::-1]
    assert ask(phone, ids[0], "abandon").code == 303
    assert ask(phone, ids[1], "delete").code == 303
    assert [int(x) for x in re.findall(r'id="resume-(\d+)"', phone.get("/plays/in-progress").text)] == ids[:1:-1]
    assert phone.get("/").find("all-in-progress") == "All 21 plays in progress"


def test_twenty_or_fewer_need_no_second_page(phone, db):
    assert "all-in-progress" not in phone.get("/").text
    assert phone.get("/plays/in-progress").find("none-in-progress") == "No play is in progress."
    for _ in range(20):
        start(phone)
    assert len(listed(phone)) == 20 and "all-in-progress" not in phone.get("/").text


def test_the_page_of_every_play_in_progress_without_a_history_creates_none(tmp_path):
    db = tmp_path / "none.sqlite3"
    phone = Client(create_app(db=db))
    assert phone.get("/plays/in-progress").code == 200
    assert not db.exists()


# ------------------------------------------------------------------ BG Stats


def _aged(db, pid: int, minutes: float) -> None:
    """The play as if started `minutes` ago (its played_at moved back)."""
    con = sqlite3.connect(db)
    at = (datetime.now() - timedelta(minutes=minutes)).strftime("%Y-%m-%d %H:%M:%S")
    con.execute("UPDATE plays SET played_at = ? WHERE id = ?", (at, pid))
    con.commit()
    con.close()


def test_bgstats_gets_the_duration_from_the_first_to_the_last_move(phone, db, cli):
    pid = start(phone)
    with Store.open(db) as store:
        assert "durationMin" not in exports.bgstats_play(store.get(pid))  # under a minute: none
    _aged(db, pid, 47.2)
    page = phone.get(f"/play/{pid}")
    phone.post(f"/play/{pid}/move", {"version": page.hidden(f"/play/{pid}/move", "version"), **placements()[0]})
    with Store.open(db) as store:
        play = store.get(pid)
    assert play.stepped_at and play.minutes_played == 47
    (got,) = json.loads(cli("export", str(pid), "--format", "bgstats", "--db", db).out)
    assert got["durationMin"] == 47 and isinstance(got["durationMin"], int)
    assert got["board"] == "glux-board-34p"
    link = cli("export", str(pid), "--format", "bgstats-link", "--db", db).out.strip()
    assert json.loads(unquote(link.split("?data=", 1)[1]))["durationMin"] == 47
    # a step made a minute later: the duration runs to it
    _aged(db, pid, 61.6)
    page = phone.get(f"/play/{pid}")
    phone.post(f"/play/{pid}/move", {"version": page.hidden(f"/play/{pid}/move", "version"), **placements()[1]})
    assert step(phone, pid, "end").code == 303
    end = phone.get(f"/play/{pid}/end")
    data = json.loads(unquote(html.unescape(re.search(r'id="bgstats-link" href="([^"]+)"', end.text).group(1))
                             .split("?data=", 1)[1]))
    assert data["durationMin"] == 62
    # a duration given when logging wins; one beyond a week (an old play stepped) is not sent
    base = Play(1, "glux", "2026-01-01 20:00:00", None, None, True, False, False, "2026-01-01 20:00:00", None, None,
                None, None, (), stepped_at="2026-01-01 20:59:40")
    assert base.minutes_played == 60
    assert Play(**{**_fields(base), "duration_min": 90}).minutes_played == 90
    assert Play(**{**_fields(base), "stepped_at": "2026-02-01 20:00:00"}).minutes_played is None
    assert Play(**{**_fields(base), "stepped_at": "2026-01-01 20:00:29"}).minutes_played is None
    assert Play(**{**_fields(base), "stepped_at": "garbage"}).minutes_played is None


def _fields(play: Play) -> dict:
    from dataclasses import fields

    return {f.name: getattr(play, f.name) for f in fields(play)}


def _seats(*seats) -> tuple[Seat, ...]:
    return tuple(Seat(name, score, winner, False, None, eliminated) for name, score, winner, eliminated in seats)


@pytest.mark.parametrize("seats, want", [
    ((("Ana", 12, False, False), ("Ben", 18, True, False), ("Carla", 16, False, False)), [3, 1, 2]),
    ((("Ana", 10, False, False), ("Ben", 10, False, False), ("Carla", 4, False, False)), [1, 1, 3]),  # equal share
    ((("Ana", 10, True, False), ("Ben", 10, True, False), ("Carla", 12, False, True)), [1, 1, 3]),  # eliminated
    ((("Ana", 10, True, False), ("Ben", 10, False, False)), [1, 2]),  # a tiebreak decided
    ((("Ana", None, False, False), ("Ben", 3, False, False)), [2, 1]),
    ((("Ana", 53, False, False),), [1]),  # solo
])
def test_bgstats_ranks_each_player_as_the_page_ranks_them(seats, want):
    play = Play(1, "glux", "2026-01-01 20:00:00", None, None, True, False, False, "2026-01-01 20:00:00", None, None,
                None, None, _seats(*seats))
    assert exports.ranks(play) == want
    assert [p["rank"] for p in exports.bgstats_play(play)["players"]] == want
    from sheetkit.web.plays.routes import ranking

    if not any(s[3] for s in seats):  # without an elimination the page's ranking says the same
        places = {r["name"]: r["place"] for r in ranking(play)}
        assert [places[s[0]] for s in seats] == want


def test_bgstats_of_a_finished_page_play_has_ranks_and_the_board_of_every_game(phone, db, cli):
    pid = start(phone)
    finish(phone, pid)
    (got,) = json.loads(cli("export", str(pid), "--format", "bgstats", "--db", db).out)
    assert [(p["name"], p["score"], p["rank"], p["winner"]) for p in got["players"]] == [
        ("Ana", 12, 3, False), ("Ben", 18, 1, True), ("Carla", 16, 2, False)]
    boards = {}
    for game, form in STARTS.items():
        n = start_play(phone, form)
        with Store.open(db) as store:
            boards[game] = exports.bgstats_play(store.get(n)).get("board")
    # Glüx: the board side; Yuncos: the level; Level X (one board) and IUNU (no board): none
    assert boards == {"glux": "glux-board-34p", "yuncos": "yuncos-easy", "levelx": None, "iunu": None}


def test_an_abandoned_play_says_so_to_bgstats_and_survives_export_and_import(phone, db, tmp_path, cli):
    pid = start(phone)
    assert ask(phone, pid, "abandon").code == 303
    with Store.open(db) as store:
        assert exports.bgstats_play(store.get(pid))["comments"] == "abandoned"
    out = tmp_path / "backup.json"
    assert cli("export", "--all", "--out", out, "--db", db).code == 0
    other = tmp_path / "other.sqlite3"
    assert cli("import", out, "--db", other).code == 0
    with Store.open(other) as store:
        (p,) = store.plays()
        assert p.abandoned and p.stepped_at
    assert cli("export", "--all", "--db", other).out == out.read_text()
    bad = json.loads(out.read_text())
    bad["plays"][0]["abandoned"] = "yes"
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    run = cli("import", tmp_path / "bad.json", "--db", tmp_path / "third.sqlite3")
    assert run.code == 2 and "plays[0].abandoned" in run.err
    bad["plays"][0]["abandoned"], bad["plays"][0]["stepped_at"] = False, "soon"
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    run = cli("import", tmp_path / "bad.json", "--db", tmp_path / "third.sqlite3")
    assert run.code == 2 and "plays[0].stepped_at" in run.err


# ------------------------------------------------------------------ schema 5


def _version_4_file(path) -> None:
    """A history as schema 4 wrote it, made with the migrations' own SQL up to 4."""
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
    for statements in schema.MIGRATIONS[:4]:
        for statement in statements:
            raw.execute(statement)
    raw.execute("PRAGMA user_version = 4")
    verdict = {"game": "levelx", "legal": True, "in_progress": True, "scores": [
        {"player": "Ana", "total": 20}, {"player": "Ben", "total": 30}], "winners": [], "findings": [], "info": {}}
    raw.execute("INSERT INTO people VALUES (1, 'u1', 'Ana', 'ana'), (2, 'u2', 'Ben', 'ben')")
    raw.execute("INSERT INTO plays (id, game, played_at, location, duration_min, legal, illegal_ok, logged_at,"
                " in_progress) VALUES (1, 'levelx', '2026-01-06 20:00:00', 'Bar', 30, 1, 0, '2026-01-06 22:00:00', 1)")
    text = 'game = "levelx"'
    raw.execute("INSERT INTO sheets VALUES (1, 0, ?, NULL, NULL, NULL, NULL, '/r/b.toml', ?, ?)",
                (hashlib.sha256(text.encode()).hexdigest(), text, json.dumps(verdict)))
    raw.execute("INSERT INTO seats (play_id, ord, person_id, score, winner, start) VALUES (1, 0, 1, 20, 0, 1),"
                " (1, 1, 2, 30, 0, 0)")
    raw.close()


def test_migrating_from_schema_4_adds_abandoned_and_the_time_of_the_last_step(tmp_path):
    path = tmp_path / "v4.sqlite3"
    _version_4_file(path)
    assert schema.VERSION == 5
    with Store.open(path) as store:
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == 5
        columns = {r[1]: r for r in store.db.execute("PRAGMA table_info(plays)")}
        assert columns["abandoned"][3] == 1 and columns["abandoned"][4] == "0" and columns["stepped_at"][3] == 0
        (p,) = store.plays()
        assert (p.abandoned, p.stepped_at, p.duration_min, p.location) == (False, None, 30, "Bar")
        assert [q.id for q in store.plays(in_progress=True)] == [1]
        assert store.integrity() == "ok"
        store.abandon(1, expect=store.get(1).version)  # and it goes on working as a current file
        assert store.plays(in_progress=True) == [] and store.stats().abandoned == 1
    with Store.open(path) as store:  # opened again: nothing more to do
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == 5 and store.plays()[0].abandoned


def test_store_delete_and_abandon_check_the_version_in_their_transaction(tmp_path):
    from sheetkit.history import HistoryError, StalePlay

    with Store.open(tmp_path / "h.sqlite3") as store:
        verdict = {"game": "levelx", "legal": True, "in_progress": True, "scores": [
            {"player": "Ana", "total": 1}, {"player": "Ben", "total": 2}], "winners": [], "findings": [], "info": {}}
        from sheetkit.history import Sheet

        pid = store.add_play(NewPlay("levelx", (Sheet('game = "levelx"', "x.toml", verdict),), "2026-01-01 20:00:00"))
        with pytest.raises(StalePlay):
            store.delete(pid, expect="0" * 16)
        with pytest.raises(StalePlay):
            store.abandon(pid, expect="stale")
        assert not store.get(pid).abandoned
        store.abandon(pid)
        with pytest.raises(HistoryError, match="only a play still being played"):
            store.abandon(pid)  # once is enough
        with pytest.raises(HistoryError, match="no play 99"):
            store.abandon(99)
        with pytest.raises(HistoryError, match="no play 99"):
            store.delete(99, expect="x")
        store.delete(pid, expect=store.get(pid).version)
        assert store.plays() == []
