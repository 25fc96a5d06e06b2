"""The history file: an SQLite database that says it is sheetkit's, with numbered schema
versions applied on open.

A file is recognised before anything is written to it: its first 100 bytes are the SQLite
header, which holds the application id sheetkit stamps on the files it creates. A file
that is not an SQLite database, or is another program's database, is refused untouched;
so is a file written by a newer sheetkit (a schema version this one does not know).

Each migration is a list of statements run in one transaction with the version bump, so a
file is always at one version or the next, never in between.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

from sheetkit.messages import msg
from sheetkit.errors import UserError

APPLICATION_ID = 0x534B4831  # "SKH1": the PRAGMA application_id of every sheetkit history
HEADER = b"SQLite format 3\x00"

# MIGRATIONS[n] takes a file from schema version n to n + 1.
MIGRATIONS: list[list[str]] = [
    # 1: people, plays, the sheets (records) of each play, and each player's seat in it
    [
        """CREATE TABLE people (
            id INTEGER PRIMARY KEY,
            uid TEXT NOT NULL UNIQUE,          -- stable across renames, exports and imports
            name TEXT NOT NULL,                -- as first written, or as renamed
            key TEXT NOT NULL UNIQUE           -- the name folded: "Ana" and "ana " are one person
        )""",
        """CREATE TABLE plays (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            played_at TEXT NOT NULL,           -- 'YYYY-MM-DD HH:MM:SS', local time as given
            location TEXT,
            duration_min INTEGER,
            layout TEXT,                       -- the first sheet's, kept here for listing:
            layout_version TEXT,               -- the sheets' rows are long (texts and verdicts)
            qr TEXT,
            serial INTEGER,
            legal INTEGER NOT NULL,
            illegal_ok INTEGER NOT NULL DEFAULT 0,
            logged_at TEXT NOT NULL
        )""",
        """CREATE TABLE sheets (
            play_id INTEGER NOT NULL REFERENCES plays(id) ON DELETE CASCADE,
            ord INTEGER NOT NULL,
            sha256 TEXT NOT NULL,
            layout TEXT,
            layout_version TEXT,
            qr TEXT,                           -- the pad's QR text, e.g. SK1:yuncos-easy:3b56f308:0042
            serial INTEGER,
            source TEXT NOT NULL,              -- where it was read from (finds the files it names)
            -- the long columns last, so that listing never reads through them
            text TEXT NOT NULL,                -- the record exactly as given: the source of truth
            verdict TEXT NOT NULL,             -- the verdict as JSON, as checked when logged
            PRIMARY KEY (play_id, ord)
        )""",
        "CREATE INDEX sheets_sha256 ON sheets(sha256)",
        "CREATE INDEX sheets_qr ON sheets(qr)",
        """CREATE TABLE seats (
            play_id INTEGER NOT NULL REFERENCES plays(id) ON DELETE CASCADE,
            ord INTEGER NOT NULL,
            person_id INTEGER NOT NULL REFERENCES people(id),
            score INTEGER,
            winner INTEGER NOT NULL,
            start INTEGER NOT NULL,
            PRIMARY KEY (play_id, ord)
        )""",
        "CREATE INDEX seats_person ON seats(person_id)",
    ],
    # 2: plays in progress, the Yuncos solo rank and elimination per seat, filled in from
    # the verdicts already stored; an index for listing by game and date
    [
        "ALTER TABLE plays ADD COLUMN in_progress INTEGER NOT NULL DEFAULT 0",
        """UPDATE plays SET in_progress = 1 WHERE id IN
            (SELECT play_id FROM sheets WHERE json_extract(verdict, '$.in_progress') = 1)""",
        "ALTER TABLE seats ADD COLUMN rank TEXT",
        "ALTER TABLE seats ADD COLUMN eliminated INTEGER NOT NULL DEFAULT 0",
        # a seat of a one-player sheet has the sheet's ord; its only score is that player's
        """UPDATE seats SET
            rank = (SELECT json_extract(sh.verdict, '$.info.rank.en') FROM sheets sh
                    WHERE sh.play_id = seats.play_id AND sh.ord = seats.ord
                      AND json_extract(sh.verdict, '$.scores[0].player') = ''),
            eliminated = coalesce((SELECT json_extract(sh.verdict, '$.scores[0].eliminated') FROM sheets sh
                    WHERE sh.play_id = seats.play_id AND sh.ord = seats.ord
                      AND json_extract(sh.verdict, '$.scores[0].player') = ''), 0)""",
        "CREATE INDEX plays_game_date ON plays(game, played_at)",
        "CREATE INDEX plays_date ON plays(played_at)",
    ],
    # 3: IUNU decks by name: the values printed on a group's cards, entered once and offered
    # again at their next play
    [
        """CREATE TABLE decks (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,                -- "iunu"
            name TEXT NOT NULL,                -- as typed, e.g. "Ana's copy"
            key TEXT NOT NULL,                 -- the name folded: one deck per name and game
            deck TEXT NOT NULL,                -- the deck's tables as JSON, as a record carries them inline
            saved_at TEXT NOT NULL,
            UNIQUE (game, key)
        )""",
    ],
    # 4: sheets read from a phone photo on the web page: the photo laid over its blank (a
    # small JPEG, to confirm the draft against) and what the reader was unsure of
    [
        """CREATE TABLE photos (
            play_id INTEGER NOT NULL REFERENCES plays(id) ON DELETE CASCADE,
            sheet INTEGER NOT NULL,            -- the sheet's place in the play (0 first)
            image BLOB NOT NULL,               -- JPEG, the registered photo, about 1000 px wide
            info TEXT NOT NULL,                -- JSON: the fields to confirm, where they lie, confirmed or not
            PRIMARY KEY (play_id, sheet)
        )""",
    ],
    # 5: plays given up on the page (kept, never counted, not offered to resume), and the
    # time of a play's last step on the page (its duration runs from played_at to it)
    [
        "ALTER TABLE plays ADD COLUMN abandoned INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE plays ADD COLUMN stepped_at TEXT",  # NULL: no step on the page (a logged play)
    ],
]
VERSION = len(MIGRATIONS)


class HistoryError(UserError):
    """A history file sheetkit cannot use, or a request it refuses: one line, exit 2."""


def default_path() -> Path:
    """$SHEETKIT_DB, else the user's data folder: $XDG_DATA_HOME/sheetkit/history.sqlite3,
    else ~/.local/share/sheetkit/history.sqlite3."""
    env = os.environ.get("SHEETKIT_DB")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or ""
    root = Path(base) if os.path.isabs(base) else Path.home() / ".local" / "share"
    return root / "sheetkit" / "history.sqlite3"


def _recognise(path: Path) -> bool:
    """True for an existing sheetkit history, False for a file to create; refuses the rest
    having only read it."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return False
    except OSError as e:
        raise HistoryError(msg("error.file.cannot_read", why=e.strerror or "?"), source=str(path)) from None
    if stat.S_ISDIR(mode):
        raise HistoryError(msg("error.history.folder"), source=str(path))
    if not stat.S_ISREG(mode):  # a pipe or a device: reading it could wait for ever
        raise HistoryError(msg("error.history.not_regular"), source=str(path))
    try:
        with open(path, "rb") as f:
            head = f.read(100)
    except FileNotFoundError:
        return False
    except IsADirectoryError:
        raise HistoryError(msg("error.history.folder"), source=str(path)) from None
    except OSError as e:
        raise HistoryError(msg("error.file.cannot_read", why=e.strerror or "?"), source=str(path)) from None
    if not head:
        return False  # an empty file: just created by another process, or by `touch`
    if len(head) < 100 or not head.startswith(HEADER):
        raise HistoryError(msg("error.history.not_sqlite"), source=str(path))
    if int.from_bytes(head[68:72], "big") != APPLICATION_ID:
        raise HistoryError(msg("error.history.other_sqlite"), source=str(path))
    return True


def connect(path: Path) -> sqlite3.Connection:
    """An open, current history: created if missing, migrated if older."""
    path = Path(path)
    exists = _recognise(path)
    if not exists:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise HistoryError(msg("error.history.no_folder", why=e.strerror or str(e)), source=str(path)) from None
    try:
        # autocommit mode: transactions are begun and ended explicitly (BEGIN IMMEDIATE)
        db = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as e:
        raise HistoryError(msg("error.history.cannot_open", why=str(e)), source=str(path)) from None
    try:
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA busy_timeout = 30000")
        _migrate(db, path, exists)
        if db.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
            db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")  # WAL: durable at checkpoints, never corrupt
    except sqlite3.DatabaseError as e:
        db.close()
        if isinstance(e, HistoryError):
            raise
        raise HistoryError(msg("error.history.unreadable_left", why=str(e)), source=str(path)) from None
    except BaseException:
        db.close()
        raise
    return db


def _migrate(db: sqlite3.Connection, path: Path, exists: bool) -> None:
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > VERSION:
        raise HistoryError(msg("error.history.newer", version=version, known=VERSION), source=str(path))
    if version == VERSION:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]  # another process may have just done it
        if version == 0:
            if db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                raise HistoryError(msg("error.history.no_version"), source=str(path))
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        for step in range(version, VERSION):
            for statement in MIGRATIONS[step]:
                db.execute(statement)
        db.execute(f"PRAGMA user_version = {VERSION}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
