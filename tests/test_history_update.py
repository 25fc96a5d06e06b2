"""Store.update_sheets: a play rewritten step by step (the web page's plays), in one
transaction a step. A kill mid-way leaves the play whole; two writers never lose a step."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import tomllib

import pytest

from sheetkit.history import Sheet, StalePlay, Store, intake
from sheetkit.history.store import NewPlay, now
from sheetkit.tomlfile import dump_toml

from conftest import ROOT

EXAMPLE = ROOT / "examples" / "glux-game-3p.toml"


def glux_sheets(upto: int) -> Sheet:
    """The example Glüx game after its first `upto` placements, in progress, checked."""
    data = tomllib.loads(EXAMPLE.read_text())
    lines = [ln for ln in data["moves"].splitlines() if ln.strip()]
    data["moves"] = "".join(ln + "\n" for ln in lines[:upto])
    data["in_progress"] = True
    return intake.sheet_from_text(dump_toml(data), "glux-play.toml")[0]


def new_play(store: Store, upto: int = 0) -> int:
    return store.add_play(NewPlay("glux", (glux_sheets(upto),), now(), illegal_ok=True), again=True)


def test_update_rewrites_texts_verdicts_seats_and_flags(tmp_path):
    with Store.open(tmp_path / "h.sqlite3") as store:
        pid = new_play(store)
        before = store.get(pid)
        assert before.in_progress and before.legal and not before.winners
        store.update_sheets(pid, [glux_sheets(10)], expect=before.version)
        after = store.get(pid)
        assert after.sheets[0].verdict["info"]["turns"] == 10
        assert [s.score for s in after.seats] == [s["total"] for s in after.sheets[0].verdict["scores"]]
        assert after.version != before.version
        # finished: no longer in progress, winners drawn from the verdict, counted in stats
        data = tomllib.loads(EXAMPLE.read_text())
        done = intake.sheet_from_text(dump_toml(data), "glux-play.toml")[0]
        store.update_sheets(pid, [done], expect=after.version)
        final = store.get(pid)
        assert not final.in_progress and final.legal and final.winners == done.verdict["winners"]
        assert store.stats(game="glux").to_json()["games"][0]["plays"] == 1
        # an illegal step is kept, marked illegal (it was entered so), and left out of stats
        data["moves"] += "A A1 6\n"
        bad = intake.sheet_from_text(dump_toml(data), "glux-play.toml")[0]
        assert not bad.verdict["legal"]
        store.update_sheets(pid, [bad])
        assert not store.get(pid).legal and store.get(pid).illegal_ok and not store.get(pid).winners


def test_a_stale_version_writes_nothing(tmp_path):
    with Store.open(tmp_path / "h.sqlite3") as store:
        pid = new_play(store)
        old = store.get(pid).version
        store.update_sheets(pid, [glux_sheets(1)], expect=old)
        with pytest.raises(StalePlay):
            store.update_sheets(pid, [glux_sheets(2)], expect=old)
        assert store.get(pid).sheets[0].verdict["info"]["turns"] == 1


def test_writes_in_one_transaction_are_whole_or_absent(tmp_path):
    """A play added and its photo kept (the page's photo reading) in one transaction: a
    failure half way leaves neither; a write inside that fails leaves nothing of itself."""
    from sheetkit.history import HistoryError

    with Store.open(tmp_path / "h.sqlite3") as store:
        with pytest.raises(RuntimeError):
            with store.transaction():
                pid = new_play(store)
                store.save_photo(pid, 0, b"jpeg", {"fields": []})
                assert store.db.in_transaction and store.photos(pid)  # not committed yet
                raise RuntimeError("killed half way")
        assert not store.db.in_transaction
        assert store.plays() == [] and store.photos(pid) == {}
        with store.transaction():
            pid = new_play(store)
            store.save_photo(pid, 0, b"jpeg", {"fields": []})
        assert [p.id for p in store.plays()] == [pid] and store.photo_image(pid, 0) == b"jpeg"
        # a write inside that fails half way and is caught leaves nothing of itself
        seated = [s.name for s in store.get(pid).seats]
        with store.transaction():
            with pytest.raises(HistoryError):
                store.update_sheets(pid, [glux_sheets(3)] * 3)  # refused: a whole play given three times
            with pytest.raises(RuntimeError):
                with store.transaction():  # as a write that fails after its first statements
                    store.db.execute("DELETE FROM seats WHERE play_id = ?", (pid,))
                    raise RuntimeError("failed half way")
            store.save_photo(pid, 0, b"jpeg2", {"fields": []})
        play = store.get(pid)
        assert len(play.sheets) == 1 and [s.name for s in play.seats] == seated
        assert store.photo_image(pid, 0) == b"jpeg2"


def test_update_of_no_such_play(tmp_path):
    from sheetkit.history import HistoryError

    with Store.open(tmp_path / "h.sqlite3") as store:
        with pytest.raises(HistoryError, match="no play 7"):
            store.update_sheets(7, [glux_sheets(1)])


def test_in_progress_listing(tmp_path):
    with Store.open(tmp_path / "h.sqlite3") as store:
        a = new_play(store)
        b = store.add_play(NewPlay("glux", (intake.sheet_from_text(EXAMPLE.read_text(), "x.toml")[0],), now()))
        assert [p.id for p in store.plays(in_progress=True)] == [a]
        assert [p.id for p in store.plays(in_progress=False)] == [b]


WRITER = r"""
import json, sys
from sheetkit.history import Sheet, StalePlay, Store
db, pid, steps = sys.argv[1], int(sys.argv[2]), json.load(open(sys.argv[3]))
with Store.open(db) as store:
    k = 0
    while True:  # until killed: one whole step after another
        s = steps[k % len(steps)]
        store.update_sheets(pid, [Sheet(s["text"], "glux-play.toml", s["verdict"])])
        k += 1
        if k == 3:
            print("writing", flush=True)
"""


def test_a_kill_mid_way_leaves_the_play_whole(tmp_path):
    db = tmp_path / "h.sqlite3"
    steps = [glux_sheets(n) for n in range(0, 69, 3)]
    (tmp_path / "steps.json").write_text(json.dumps([{"text": s.text, "verdict": s.verdict} for s in steps]))
    with Store.open(db) as store:
        pid = new_play(store)
    for delay in (0.05, 0.3, 0.7):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(db), str(pid), str(tmp_path / "steps.json")],
                                stdout=subprocess.PIPE, text=True, cwd=ROOT)
        assert proc.stdout.readline().strip() == "writing"
        time.sleep(delay)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        with Store.open(db) as store:
            assert store.integrity() == "ok"
            play = store.get(pid)
            (sheet,) = play.sheets
            lines = [ln for ln in tomllib.loads(sheet.text)["moves"].splitlines() if ln.strip()]
            # the text and its verdict are of the same step, and the seats of that verdict
            assert sheet.verdict["info"].get("turns", 0) == len(lines)
            assert [s.score for s in play.seats] == [s["total"] for s in sheet.verdict["scores"]]
            assert [s.name for s in play.seats] == ["Ana", "Ben", "Carla"]
            assert play.in_progress and play.legal


STEPPER = r"""
import sys
from sheetkit.history import Sheet, StalePlay, Store
db, pid, who, n = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
retries = 0
with Store.open(db) as store:
    for i in range(n):
        while True:  # as the page does: a step against the play as read, again if it changed
            play = store.get(pid)
            s = play.sheets[0]
            try:
                store.update_sheets(pid, [Sheet(s.text + f"# {who} {i}\n", s.source, s.verdict)], expect=play.version)
                break
            except StalePlay:
                retries += 1
print(retries)
"""


def test_two_writers_never_lose_a_step(tmp_path):
    db = tmp_path / "h.sqlite3"
    with Store.open(db) as store:
        pid = new_play(store)
    n = 25
    procs = [subprocess.Popen([sys.executable, "-c", STEPPER, str(db), str(pid), who, str(n)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT) for who in "xy"]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    with Store.open(db) as store:
        text = store.get(pid).sheets[0].text
    for who in "xy":
        assert [ln for ln in text.splitlines() if ln.startswith(f"# {who} ")] == [f"# {who} {i}" for i in range(n)]
