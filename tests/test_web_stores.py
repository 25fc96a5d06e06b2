"""The page keeps its history open between requests (web.plays.routes.STORES): what that
must not change. The file alone is a whole history whenever the page is idle (a copy of it
is a backup, docs/history.md); a write made elsewhere (the command line, another server) is
seen by the next request; a history deleted or replaced between requests is the new one."""

from __future__ import annotations

import shutil

from sheetkit.history import Store
from sheetkit.web.app import create_app
from sheetkit.web.plays.routes import STORES

from test_web import Client
from test_web_plays import START, move, placements, start_play


def test_after_a_move_the_file_alone_holds_it(tmp_path):
    db = tmp_path / "h.sqlite3"
    phone = Client(create_app(db=db))
    pid = start_play(phone, START)
    assert move(phone, pid, placements()[0]).code == 303
    assert STORES.settled()  # the page idle: its log checkpointed by then
    copy = tmp_path / "copy.sqlite3"
    shutil.copy(db, copy)  # the main file only: no -wal beside the copy
    assert not (tmp_path / "copy.sqlite3-wal").exists()
    with Store.open(copy) as store:
        copied = store.get(pid).version
    with Store.open(db) as store:
        assert copied == store.get(pid).version


def test_a_move_does_not_wait_for_the_checkpoint(tmp_path, monkeypatch):
    """The log is written into the file once the page is idle, not by the move's request
    (its fsync is most of a move's time on a slow disk)."""
    db = tmp_path / "h.sqlite3"
    phone = Client(create_app(db=db))
    pid = start_play(phone, START)
    assert STORES.settled()
    monkeypatch.setattr(STORES, "settle", 3600.0)  # the page never idle long enough
    assert move(phone, pid, placements()[0]).code == 303
    copy = tmp_path / "copy.sqlite3"
    shutil.copy(db, copy)
    with Store.open(db) as store, Store.open(copy) as copied:
        assert copied.get(pid).version != store.get(pid).version  # the move is in the log only
    monkeypatch.setattr(STORES, "settle", 0.0)
    assert STORES.settled()
    shutil.copy(db, copy)
    with Store.open(db) as store, Store.open(copy) as copied:
        assert copied.get(pid).version == store.get(pid).version


def test_a_write_made_elsewhere_is_seen_by_the_next_request(tmp_path):
    db = tmp_path / "h.sqlite3"
    phone = Client(create_app(db=db))
    pid = start_play(phone, START)
    assert phone.get(f"/play/{pid}").code == 200  # a kept history has read the play
    with Store.open(db) as store:  # the command line deletes it meanwhile
        store.delete(pid)
    assert phone.get(f"/play/{pid}").code == 404


def test_a_history_replaced_between_requests_is_the_new_one(tmp_path):
    db = tmp_path / "h.sqlite3"
    other = tmp_path / "other.sqlite3"
    phone = Client(create_app(db=other))
    for _ in range(3):
        start_play(phone, START)  # the other history: plays 1-3
    phone = Client(create_app(db=db))
    pid = start_play(phone, START)  # this one: play 1 only
    assert phone.get(f"/play/{pid}").code == 200
    STORES.close_all()
    phone.get(f"/play/{pid}")  # kept again, open on the first file
    db.unlink()
    for side in ("-wal", "-shm"):
        (tmp_path / f"h.sqlite3{side}").unlink(missing_ok=True)
    shutil.copy(other, db)
    assert phone.get("/play/3").code == 200  # the replacement's play, not a 404 of the old file


def test_the_page_commits_each_step_to_disk(tmp_path):
    """A step the phone is told is saved is on disk: the page's connections fsync their log
    at every commit (synchronous = FULL), the checkpoint into the file comes later."""
    db = tmp_path / "h.sqlite3"
    phone = Client(create_app(db=db))
    start_play(phone, START)
    kept = [store for p, _, store in STORES._idle if p == str(db)]
    assert kept and all(store.db.execute("PRAGMA synchronous").fetchone()[0] == 2 for store in kept)


def test_a_history_put_back_by_hand_before_the_checkpoint_is_left_as_it_is(tmp_path, monkeypatch):
    """The history file replaced (a backup put back) while a move's log waits for the page to
    be idle: the checkpoint must not write the old log into the new file."""
    import os

    db = tmp_path / "h.sqlite3"
    backup = tmp_path / "backup.sqlite3"
    phone = Client(create_app(db=db))
    pid = start_play(phone, START)
    assert STORES.settled()
    shutil.copy(db, backup)
    monkeypatch.setattr(STORES, "settle", 3600.0)
    assert move(phone, pid, placements()[0]).code == 303  # in the log beside the file only
    put_back = tmp_path / "put-back.sqlite3"
    shutil.copy(backup, put_back)
    os.replace(put_back, db)
    monkeypatch.setattr(STORES, "settle", 0.0)
    assert STORES.settled()
    assert db.read_bytes() == backup.read_bytes()
