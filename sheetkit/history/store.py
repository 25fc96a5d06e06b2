"""The play history: `Store` is the one way in, for the command line and the web page alike.

A play is what was logged: the record text(s) exactly as given, and what checking them
said (the verdict JSON). Everything else in a play, its seats, scores, winners, start
player and solo rank, is drawn from those verdicts by `seats_of`, the one function that
does so, whether the play is logged now or imported from sheetkit's JSON.

Every write is one transaction begun with BEGIN IMMEDIATE: two writers (the command line
and the web page) wait for each other and never lose a play; a kill leaves each play
either whole or absent. No click and no pydantic here: listing and stats start fast.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Iterable, Iterator

from sheetkit.messages import msg
from sheetkit.history import schema
from sheetkit.history.schema import HistoryError

from sheetkit.forms import MAX_NAME, name_refused  # one rule for names, the page's forms and the history's
from sheetkit.history.names import clean_name, name_key


# ------------------------------------------------------------------ what goes in


@dataclass(frozen=True, slots=True)
class Sheet:
    """One record of a play: its text exactly as given, where it was read from, and the
    verdict checking it gave (Verdict.to_json())."""

    text: str
    source: str
    verdict: dict[str, Any]
    player: str | None = None  # whose sheet, for records that name no player (a Yuncos sheet)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    @property
    def qr(self) -> str | None:
        return (self.verdict.get("info") or {}).get("qr")

    @property
    def serial(self) -> int | None:
        return (self.verdict.get("info") or {}).get("serial")

    @property
    def name(self) -> str:
        """The record as named when it was read (for messages)."""
        return self.verdict.get("source") or self.source

    @property
    def named(self) -> bool:
        """The record names its players (one record is the whole play)."""
        return any(s.get("player") for s in self.verdict.get("scores", ()))

    @property
    def layout(self) -> tuple[str | None, str | None]:
        info = self.verdict.get("info") or {}
        printed = info.get("printed") or {}
        return (info.get("layout") or printed.get("layout"),
                info.get("layout_version") or printed.get("version"))


@dataclass(frozen=True, slots=True)
class NewPlay:
    """A play to add: its sheets and what the players said about it."""

    game: str
    sheets: tuple[Sheet, ...]
    played_at: str  # 'YYYY-MM-DD HH:MM:SS'
    location: str | None = None
    duration_min: int | None = None
    illegal_ok: bool = False
    # the seats' names when they are not the records' own (an import after a rename)
    names: tuple[str, ...] | None = None
    uids: tuple[str, ...] | None = None  # the people's stable ids, from an import
    logged_at: str | None = None  # from an import; now otherwise
    abandoned: bool = False  # from an import: given up on the page (Store.abandon)
    stepped_at: str | None = None  # from an import: the time of its last step on the page

    @property
    def legal(self) -> bool:
        return all(s.verdict.get("legal") for s in self.sheets)

    @property
    def in_progress(self) -> bool:
        return any(s.verdict.get("in_progress") for s in self.sheets)


@dataclass(frozen=True, slots=True)
class Seat:
    name: str
    score: int | None
    winner: bool
    start: bool
    rank: str | None = None  # the Yuncos solo rank (English), from the verdict
    eliminated: bool = False
    uid: str | None = None  # the person's stable id (set when read from the store)


def seats_of(sheets: Iterable[Sheet], names: Iterable[str] | None = None) -> list[Seat]:
    """Each player's seat in a play, drawn from the verdicts.

    One record that names its players is the whole play: its scores are in seat order (the
    first seat starts), its winners win. Records that name no player are one player's sheet
    each (Yuncos): the highest total among the sheets not eliminated wins, when there are
    two or more. A play that is illegal or still in progress has no winner (its tally is
    not a result)."""
    sheets = list(sheets)
    if not sheets:
        raise HistoryError(msg("error.history.no_records"))
    finished = all(s.verdict.get("legal") and not s.verdict.get("in_progress") for s in sheets)
    if any(s.named for s in sheets):
        if len(sheets) != 1:
            raise HistoryError(msg("error.history.whole_play"))
        v = sheets[0].verdict
        winners = set(v.get("winners", ())) if finished else set()
        seats = [Seat(s["player"], s.get("total"), s["player"] in winners, i == 0, None, bool(s.get("eliminated")))
                 for i, s in enumerate(v.get("scores", ()))]
    else:
        seats = []
        for s in sheets:
            score = (s.verdict.get("scores") or [{}])[0]
            rank = ((s.verdict.get("info") or {}).get("rank") or {}).get("en")
            seats.append(Seat(s.player or "", score.get("total"), False, False, rank, bool(score.get("eliminated"))))
        alive = [st.score for st in seats if not st.eliminated and st.score is not None]
        if finished and len(seats) > 1 and alive:
            best = max(alive)
            seats = [Seat(st.name, st.score, not st.eliminated and st.score == best, st.start, st.rank, st.eliminated)
                     for st in seats]
    if names is not None:
        names = list(names)
        if len(names) != len(seats):
            raise HistoryError(msg("error.history.names_for_seats", names=len(names), seats=len(seats)))
        seats = [Seat(n, st.score, st.winner, st.start, st.rank, st.eliminated) for n, st in zip(names, seats)]
    for st in seats:
        clean_name(st.name)
    return seats


# ------------------------------------------------------------------ what comes out


@dataclass(frozen=True, slots=True)
class Play:
    id: int
    game: str
    played_at: str
    location: str | None
    duration_min: int | None
    legal: bool
    illegal_ok: bool
    in_progress: bool
    logged_at: str
    layout: str | None
    layout_version: str | None
    qr: str | None  # the first sheet's QR text
    serial: int | None
    seats: tuple[Seat, ...]
    sheets: tuple[Sheet, ...] | None = None  # only from Store.get (listings leave the texts out)
    abandoned: bool = False  # given up (Store.abandon): kept, never counted, not offered to resume
    stepped_at: str | None = None  # the time of its last step on the page (Store.update_sheets)

    @property
    def winners(self) -> list[str]:
        return [s.name for s in self.seats if s.winner]

    @property
    def open(self) -> bool:
        """Still being played: in progress and not abandoned."""
        return self.in_progress and not self.abandoned

    @property
    def minutes_played(self) -> int | None:
        """How long it took: the minutes given when it was logged, else from its start
        (played_at) to its last step on the page, rounded; None under one minute, past a
        week (a play imported long after its date, then stepped), or not known."""
        if self.duration_min:
            return self.duration_min
        if not self.stepped_at:
            return None
        try:
            took = (datetime.strptime(self.stepped_at, "%Y-%m-%d %H:%M:%S")
                    - datetime.strptime(self.played_at, "%Y-%m-%d %H:%M:%S")).total_seconds()
        except ValueError:
            return None
        minutes = int(took / 60 + 0.5)
        return minutes if 1 <= minutes <= MAX_MINUTES else None

    @property
    def version(self) -> str | None:
        """Changes with every rewrite of its records (only from Store.get)."""
        return None if self.sheets is None else version_of(s.sha256 for s in self.sheets)

    def to_json(self) -> dict[str, Any]:
        d = {"id": self.id, "game": self.game, "played_at": self.played_at, "location": self.location,
             "duration_min": self.duration_min, "legal": self.legal, "illegal_ok": self.illegal_ok,
             "in_progress": self.in_progress, "abandoned": self.abandoned, "logged_at": self.logged_at,
             "stepped_at": self.stepped_at, "layout": self.layout,
             "layout_version": self.layout_version, "qr": self.qr, "serial": self.serial,
             "players": [{"name": s.name, "uid": s.uid, "score": s.score, "winner": s.winner, "start": s.start,
                          "rank": s.rank, "eliminated": s.eliminated} for s in self.seats],
             "winners": self.winners}
        if self.sheets is not None:
            d["sheets"] = [{"text": s.text, "source": s.source, "player": s.player, "sha256": s.sha256,
                            "verdict": s.verdict} for s in self.sheets]
        return d


@dataclass(frozen=True, slots=True)
class Person:
    name: str
    uid: str
    plays: int


@dataclass(slots=True)
class Duplicate:
    """Why a play is refused as logged already."""

    play_id: int
    by: str  # "QR" or "text"
    sheet: Sheet = field(repr=False)

    def message(self):
        what = msg("error.history.by_qr", qr=self.sheet.qr) if self.by == "QR" else msg("error.history.by_text")
        return msg("error.history.duplicate", name=self.sheet.name, play=self.play_id, what=what)


def now() -> str:
    return datetime.now().strftime("%Y-%m-%d %H:%M:%S")


MAX_MINUTES = 7 * 24 * 60  # the longest duration a play is given (as an import takes it)


# ------------------------------------------------------------------ the store


class Store:
    """A sheetkit play history in one SQLite file.

        with Store.open() as store:              # SHEETKIT_DB or the user's data folder
            play_id = store.add_play(new_play)
            for play in store.plays(game="glux"): ...
    """

    def __init__(self, db: sqlite3.Connection, path: Path):
        self.db = db
        self.path = path

    @classmethod
    def open(cls, path: str | Path | None = None) -> "Store":
        path = Path(path) if path else schema.default_path()
        return cls(schema.connect(path), path)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- transactions

    def _write(self):
        return _Transaction(self)

    def transaction(self):
        """Several writes as one: `with store.transaction(): ...` writes all of them or none.
        The writes inside are savepoints of it: one that fails leaves nothing of itself, even
        when its caller catches the failure and goes on."""
        return _Transaction(self)

    def query(self, sql: str, args: Iterable[Any] = ()) -> list[tuple]:
        """The rows of a read-only SQL query over the history's tables (the standings of
        sheetkit.history.stats); a damaged file is a HistoryError naming it."""
        return self._read(sql, args)

    def _read(self, sql: str, args: Iterable[Any] = ()) -> list[tuple]:
        try:
            return self.db.execute(sql, tuple(args)).fetchall()
        except sqlite3.DatabaseError as e:
            raise HistoryError(msg("error.history.unreadable", why=str(e)), source=str(self.path)) from None

    # -- writing

    def duplicate(self, play: NewPlay) -> Duplicate | None:
        """The play already logged with one of these sheets (same QR text or same record
        text), if any."""
        for sheet in play.sheets:
            if sheet.qr:
                row = self.db.execute("SELECT play_id FROM sheets WHERE qr = ? LIMIT 1", (sheet.qr,)).fetchone()
                if row:
                    return Duplicate(row[0], "QR", sheet)
            row = self.db.execute("SELECT play_id FROM sheets WHERE sha256 = ? LIMIT 1", (sheet.sha256,)).fetchone()
            if row:
                return Duplicate(row[0], "text", sheet)
        return None

    def find(self, sha256: str) -> int | None:
        """The first play logged with a record of this text (its SHA-256), if any."""
        row = self._read("SELECT play_id FROM sheets WHERE sha256 = ? ORDER BY play_id LIMIT 1", (sha256,))
        return row[0][0] if row else None

    def add_play(self, play: NewPlay, again: bool = False) -> int:
        return self.add_plays([play], again)[0]

    def add_plays(self, plays: list[NewPlay], again: bool = False) -> list[int]:
        """Add plays in one transaction: all or none. Refused (HistoryError) when a sheet
        was logged already, unless `again`; or when a play is illegal and not marked
        `illegal_ok`."""
        for p in plays:
            check_new(p)
        with self._write():
            ids = []
            for p in plays:
                if not again:
                    dup = self.duplicate(p)
                    if dup:
                        raise HistoryError(dup.message())
                ids.append(self._insert(p))
            return ids

    def import_plays(self, plays: Iterable[NewPlay], source: str | None = None) -> tuple[list[int], int]:
        """Add plays one transaction each, skipping those already in (so an import cut short
        is finished by running it again): (the new ids, how many were skipped).

        All or nothing: every play is first added in one transaction that is then undone,
        so that a play refused by what the history holds already or by an earlier play of
        the same import (two new players with one id, a person sitting twice) stops the
        import before anything is written (HistoryError naming `source` and the play)."""
        plays = list(plays)
        for i, p in enumerate(plays):
            try:
                check_new(p)
            except HistoryError as e:
                raise type(e)(e.message, source=source, field=f"plays[{i}]") from None
        try:
            with self._write():
                for i, p in enumerate(plays):
                    try:
                        if not self.duplicate(p):
                            self._insert(p)
                    except HistoryError as e:
                        raise HistoryError(e.message, source=source, field=f"plays[{i}]") from None
                raise _DryRun
        except _DryRun:
            pass
        ids, skipped = [], 0
        for p in plays:
            with self._write():
                if self.duplicate(p):
                    skipped += 1
                    continue
                ids.append(self._insert(p))
        return ids, skipped

    def _insert(self, p: NewPlay) -> int:
        seats = seats_of(p.sheets, p.names)
        db = self.db
        first = p.sheets[0]
        cur = db.execute(
            "INSERT INTO plays (game, played_at, location, duration_min, layout, layout_version, qr, serial, legal,"
            " illegal_ok, in_progress, logged_at, abandoned, stepped_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (p.game, p.played_at, p.location, p.duration_min, *first.layout, first.qr, first.serial, int(p.legal),
             int(p.illegal_ok and not p.legal), int(p.in_progress), p.logged_at or now(),
             int(p.abandoned and p.in_progress), p.stepped_at))
        play_id = cur.lastrowid
        for i, s in enumerate(p.sheets):
            layout, version = s.layout
            db.execute("INSERT INTO sheets (play_id, ord, sha256, layout, layout_version, qr, serial, source, text,"
                       " verdict) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (play_id, i, s.sha256, layout, version, s.qr, s.serial, s.source, s.text,
                        json.dumps(s.verdict, ensure_ascii=False, sort_keys=True)))
        seen: set[int] = set()
        for i, st in enumerate(seats):
            uid = p.uids[i] if p.uids else None
            person = self._person(st.name, uid)
            if person in seen:
                raise HistoryError(msg("error.history.sits_twice", name=st.name))
            seen.add(person)
            db.execute("INSERT INTO seats (play_id, ord, person_id, score, winner, start, rank, eliminated)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (play_id, i, person, st.score, int(st.winner), int(st.start), st.rank, int(st.eliminated)))
        return play_id

    def _person(self, name: str, uid: str | None = None) -> int:
        name = clean_name(name)
        row = self.db.execute("SELECT id FROM people WHERE key = ?", (name.casefold(),)).fetchone()
        if row:
            return row[0]
        if uid:  # an imported person known by another name here: the same person
            row = self.db.execute("SELECT id FROM people WHERE uid = ?", (uid,)).fetchone()
            if row:
                return row[0]
        return self.db.execute("INSERT INTO people (uid, name, key) VALUES (?, ?, ?)",
                               (uid or uuid.uuid4().hex, name, name.casefold())).lastrowid

    def update_verdicts(self, play_id: int, verdicts: list[dict[str, Any]]) -> bool:
        """Store new verdicts for a play's sheets (a re-check of the same texts) and redraw
        its seats from them; the people stay in their seats. True if anything changed."""
        play = self.get(play_id)
        if len(verdicts) != len(play.sheets):
            raise HistoryError(msg("error.history.record_count", play=play_id, n=len(play.sheets), got=len(verdicts)))
        sheets = [Sheet(s.text, s.source, v, s.player) for s, v in zip(play.sheets, verdicts)]
        if [s.verdict for s in sheets] == [s.verdict for s in play.sheets]:
            return False
        seats = seats_of(sheets, [st.name for st in play.seats] if len(play.seats) else None)
        if len(seats) != len(play.seats):
            raise HistoryError(msg("error.history.seat_count", play=play_id, n=len(seats), was=len(play.seats)))
        new = NewPlay(play.game, tuple(sheets), play.played_at)
        first = sheets[0]
        with self._write():
            self.db.execute("UPDATE plays SET legal = ?, in_progress = ?, layout = ?, layout_version = ?, qr = ?,"
                            " serial = ? WHERE id = ?", (int(new.legal), int(new.in_progress), *first.layout,
                                                         first.qr, first.serial, play_id))
            for i, sh in enumerate(sheets):
                layout, version = sh.layout
                self.db.execute("UPDATE sheets SET verdict = ?, layout = ?, layout_version = ?, qr = ?, serial = ?"
                                " WHERE play_id = ? AND ord = ?",
                                (json.dumps(sh.verdict, ensure_ascii=False, sort_keys=True), layout, version, sh.qr,
                                 sh.serial, play_id, i))
            for i, st in enumerate(seats):
                self.db.execute("UPDATE seats SET score = ?, winner = ?, start = ?, rank = ?, eliminated = ?"
                                " WHERE play_id = ? AND ord = ?",
                                (st.score, int(st.winner), int(st.start), st.rank, int(st.eliminated), play_id, i))
        return True

    def update_sheets(self, play_id: int, sheets: Iterable[Sheet], expect: str | None = None) -> None:
        """Rewrite a play's records and their verdicts in one transaction (a play entered
        move by move: every step), with its seats, legal and in-progress flags redrawn from
        the new verdicts. An illegal play is kept, marked illegal (it was entered so).

        `expect`: the play's `version` as read before the step; if another writer changed
        the play meanwhile, StalePlay is raised and nothing is written, so that two phones
        entering into one play never lose a move."""
        sheets = tuple(sheets)
        seats = seats_of(sheets)
        new = NewPlay("", sheets, "")
        first = sheets[0]
        with self._write():
            rows = self.db.execute("SELECT sha256 FROM sheets WHERE play_id = ? ORDER BY ord", (play_id,)).fetchall()
            if not rows and not self.db.execute("SELECT 1 FROM plays WHERE id = ?", (play_id,)).fetchone():
                raise HistoryError(msg("error.history.no_play", play=play_id))
            if expect is not None and version_of(r[0] for r in rows) != expect:
                raise StalePlay(f"play {play_id} was changed meanwhile (another phone?): not saved")
            self.db.execute("UPDATE plays SET legal = ?, illegal_ok = ?, in_progress = ?, layout = ?,"
                            " layout_version = ?, qr = ?, serial = ?, stepped_at = ? WHERE id = ?",
                            (int(new.legal), int(not new.legal), int(new.in_progress), *first.layout, first.qr,
                             first.serial, now(), play_id))
            self.db.execute("DELETE FROM sheets WHERE play_id = ?", (play_id,))
            for i, s in enumerate(sheets):
                layout, version = s.layout
                self.db.execute("INSERT INTO sheets (play_id, ord, sha256, layout, layout_version, qr, serial, source,"
                                " text, verdict) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                (play_id, i, s.sha256, layout, version, s.qr, s.serial, s.source, s.text,
                                 json.dumps(s.verdict, ensure_ascii=False, sort_keys=True)))
            self.db.execute("DELETE FROM seats WHERE play_id = ?", (play_id,))
            seen: set[int] = set()
            for i, st in enumerate(seats):
                person = self._person(st.name)
                if person in seen:
                    raise HistoryError(msg("error.history.sits_twice", name=st.name))
                seen.add(person)
                self.db.execute("INSERT INTO seats (play_id, ord, person_id, score, winner, start, rank, eliminated)"
                                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                                (play_id, i, person, st.score, int(st.winner), int(st.start), st.rank,
                                 int(st.eliminated)))
            self._forget_unseated()

    def delete(self, play_id: int, expect: str | None = None) -> None:
        """Delete a play with its records, seats and photos. `expect`: its `version` as the
        deleting page showed it; StalePlay, nothing deleted, if it changed meanwhile."""
        with self._write():
            self._expect(play_id, expect)
            if self.db.execute("DELETE FROM plays WHERE id = ?", (play_id,)).rowcount == 0:
                raise HistoryError(msg("error.history.no_play", play=play_id))
            self._forget_unseated()

    def abandon(self, play_id: int, expect: str | None = None) -> None:
        """Mark a play in progress abandoned: kept with its records as they stand, never
        counted in the standings, no longer listed as in progress. `expect` as for delete;
        a play that is finished (or abandoned already) is refused."""
        with self._write():
            self._expect(play_id, expect)
            row = self.db.execute("SELECT in_progress, abandoned FROM plays WHERE id = ?", (play_id,)).fetchone()
            if row is None:
                raise HistoryError(msg("error.history.no_play", play=play_id))
            if not row[0] or row[1]:
                raise HistoryError(msg("error.history.not_abandoned", play=play_id))
            self.db.execute("UPDATE plays SET abandoned = 1 WHERE id = ?", (play_id,))

    def _expect(self, play_id: int, expect: str | None) -> None:
        """StalePlay when the play is no longer at version `expect` (inside a write)."""
        if expect is None:
            return
        rows = self.db.execute("SELECT sha256 FROM sheets WHERE play_id = ? ORDER BY ord", (play_id,)).fetchall()
        if not rows and not self.db.execute("SELECT 1 FROM plays WHERE id = ?", (play_id,)).fetchone():
            raise HistoryError(msg("error.history.no_play", play=play_id))
        if version_of(r[0] for r in rows) != expect:
            raise StalePlay(f"play {play_id} was changed meanwhile (another phone?): not saved")

    def _forget_unseated(self) -> None:
        self.db.execute("DELETE FROM people WHERE id NOT IN (SELECT person_id FROM seats)")

    def rename_player(self, old: str, new: str) -> str:
        """Rename a person; if NEW is someone already, OLD's plays become theirs (a merge).
        Returns "renamed" or "merged"."""
        new = clean_name(new)
        with self._write():
            row = self.db.execute("SELECT id, name FROM people WHERE key = ?", (name_key(old),)).fetchone()
            if row is None:
                raise HistoryError(msg("error.history.no_player_named", name=repr(clean_name(old))))
            old_id = row[0]
            target = self.db.execute("SELECT id FROM people WHERE key = ?", (new.casefold(),)).fetchone()
            if target is None or target[0] == old_id:
                self.db.execute("UPDATE people SET name = ?, key = ? WHERE id = ?", (new, new.casefold(), old_id))
                return "renamed"
            both = self.db.execute("SELECT a.play_id FROM seats a JOIN seats b ON a.play_id = b.play_id "
                                   "WHERE a.person_id = ? AND b.person_id = ? ORDER BY a.play_id LIMIT 1",
                                   (old_id, target[0])).fetchone()
            if both:
                raise HistoryError(msg("error.history.two_people", a=row[1], b=new, play=both[0]))
            self.db.execute("UPDATE seats SET person_id = ? WHERE person_id = ?", (target[0], old_id))
            self.db.execute("DELETE FROM people WHERE id = ?", (old_id,))
            return "merged"

    # -- decks (IUNU): entered once, offered again

    def save_deck(self, game: str, name: str, deck: dict[str, Any]) -> None:
        """Keep a deck's values under a name (the same name again replaces them)."""
        name = clean_name(name)
        text = json.dumps(deck, ensure_ascii=False, sort_keys=True)
        with self._write():
            # replaced as a new row, so that the last saved is offered first
            self.db.execute("DELETE FROM decks WHERE game = ? AND key = ?", (game, name.casefold()))
            self.db.execute("INSERT INTO decks (game, name, key, deck, saved_at) VALUES (?, ?, ?, ?, ?)",
                            (game, name, name.casefold(), text, now()))

    def decks(self, game: str) -> list[tuple[str, dict[str, Any]]]:
        """The decks kept for a game, (name, values), the last saved first."""
        rows = self._read("SELECT name, deck FROM decks WHERE game = ? ORDER BY id DESC", (game,))
        return [(name, json.loads(deck)) for name, deck in rows]

    def deck(self, game: str, name: str) -> dict[str, Any] | None:
        rows = self._read("SELECT deck FROM decks WHERE game = ? AND key = ?", (game, name_key(name)))
        return json.loads(rows[0][0]) if rows else None

    # -- photos of sheets (the web page's photo reader)

    def save_photo(self, play_id: int, sheet: int, image: bytes | None, info: dict[str, Any]) -> None:
        """Keep the registered photo of a play's sheet and what to confirm on it (`image`
        None: only `info` changes)."""
        text = json.dumps(info, ensure_ascii=False, sort_keys=True)
        with self._write():
            if image is None:
                if self.db.execute("UPDATE photos SET info = ? WHERE play_id = ? AND sheet = ?",
                                   (text, play_id, sheet)).rowcount == 0:
                    raise HistoryError(msg("error.history.no_photo", sheet=sheet + 1, play=play_id))
            else:
                self.db.execute("INSERT OR REPLACE INTO photos (play_id, sheet, image, info) VALUES (?, ?, ?, ?)",
                                (play_id, sheet, image, text))

    def photos(self, play_id: int) -> dict[int, dict[str, Any]]:
        """The sheets of a play read from photos: sheet -> info."""
        rows = self._read("SELECT sheet, info FROM photos WHERE play_id = ? ORDER BY sheet", (play_id,))
        return {sheet: json.loads(info) for sheet, info in rows}

    def photo_image(self, play_id: int, sheet: int) -> bytes | None:
        rows = self._read("SELECT image FROM photos WHERE play_id = ? AND sheet = ?", (play_id, sheet))
        return bytes(rows[0][0]) if rows else None

    # -- reading

    def people(self) -> list[Person]:
        rows = self._read("SELECT p.name, p.uid, count(s.play_id) FROM people p LEFT JOIN seats s "
                          "ON s.person_id = p.id GROUP BY p.id ORDER BY p.key")
        return [Person(*r) for r in rows]

    def plays(self, game: str | None = None, player: str | None = None, since: str | None = None,
              ids: Iterable[int] | None = None, limit: int | None = None,
              in_progress: bool | None = None, abandoned: bool | None = None) -> list[Play]:
        """Plays, newest first, without their record texts (`in_progress`: only those still
        being played, an abandoned play not among them, or only the others; `abandoned`:
        only the abandoned plays, or only the others)."""
        where, args = _filters(game, player, since)
        if in_progress is not None:
            where.append("(pl.in_progress = 1 AND pl.abandoned = 0)" if in_progress
                         else "(pl.in_progress = 0 OR pl.abandoned = 1)")
        if abandoned is not None:
            where.append("pl.abandoned = ?")
            args.append(int(abandoned))
        if ids is not None:
            ids = list(ids)
            where.append(f"pl.id IN ({', '.join('?' * len(ids))})")
            args += ids
        sql = ("SELECT pl.id, pl.game, pl.played_at, pl.location, pl.duration_min, pl.legal, pl.illegal_ok,"
               " pl.in_progress, pl.logged_at, pl.layout, pl.layout_version, pl.qr, pl.serial, pl.abandoned,"
               " pl.stepped_at FROM plays pl"
               + (" WHERE " + " AND ".join(where) if where else "")
               + " ORDER BY pl.played_at DESC, pl.id DESC" + (f" LIMIT {int(limit)}" if limit else ""))
        rows = self._read(sql, args)
        seats = self._seats(where, args) if not limit else self._seats(["pl.id IN (%s)" % ", ".join(
            str(int(r[0])) for r in rows) or "NULL"], [])
        return [Play(r[0], r[1], r[2], r[3], r[4], bool(r[5]), bool(r[6]), bool(r[7]), r[8], r[9], r[10], r[11],
                     r[12], tuple(seats.get(r[0], ())), abandoned=bool(r[13]), stepped_at=r[14]) for r in rows]

    def _seats(self, where: list[str], args: list[Any]) -> dict[int, list[Seat]]:
        """The seats of the plays chosen by `where`, in one query."""
        out: dict[int, list[Seat]] = {}
        sql = ("SELECT s.play_id, p.name, s.score, s.winner, s.start, s.rank, s.eliminated, p.uid"
               " FROM seats s JOIN people p ON p.id = s.person_id"
               + (" WHERE s.play_id IN (SELECT pl.id FROM plays pl WHERE " + " AND ".join(where) + ")" if where else "")
               + " ORDER BY s.play_id, s.ord")
        for r in self._read(sql, args):
            out.setdefault(r[0], []).append(Seat(r[1], r[2], bool(r[3]), bool(r[4]), r[5], bool(r[6]), r[7]))
        return out

    def get(self, play_id: int) -> Play:
        """One play with its record texts and verdicts."""
        found = self.plays(ids=[play_id])
        if not found:
            raise HistoryError(msg("error.history.no_play", play=play_id))
        rows = self._read("SELECT text, source, verdict FROM sheets WHERE play_id = ? ORDER BY ord", (play_id,))
        play = found[0]
        unnamed = [st.name for st in play.seats]
        sheets = []
        for i, (text, source, verdict) in enumerate(rows):
            verdict = _stored_verdict(verdict)
            why = ("text" if not isinstance(text, str) else "source" if not isinstance(source, str)
                   else "verdict_json" if verdict is None else None if _verdict_shape(verdict) else "verdict_shape")
            if why:  # a row changed by another program: said, never a fault
                raise DamagedPlay(msg("error.history.damaged", play=play_id, n=i + 1,
                                      why=msg(f"error.history.damage_{why}")), source=str(self.path))
            sheet = Sheet(text, source, verdict)
            if not sheet.named:
                sheet = Sheet(text, source, sheet.verdict, unnamed[i] if i < len(unnamed) else None)
            sheets.append(sheet)
        return _replace(play, sheets=tuple(sheets))

    def full(self, ids: Iterable[int] | None = None) -> Iterator[Play]:
        """Plays with their texts, oldest first (for export)."""
        plays = self.plays(ids=ids)
        for p in sorted(plays, key=lambda p: p.id):
            yield self.get(p.id)

    def stats(self, game: str | None = None, player: str | None = None, since: str | None = None):
        from sheetkit.history import stats

        return stats.compute(self, game, player, since)

    def integrity(self) -> str:
        return self._read("PRAGMA integrity_check")[0][0]


def _stored_verdict(raw: Any) -> Any:
    """A stored verdict read back: the JSON value, or None if it is not JSON text."""
    if not isinstance(raw, str):
        return None
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        return None


def _verdict_shape(v: Any) -> bool:
    """A stored verdict has the shape Verdict.to_json() gives, as far as the history reads it."""
    return (isinstance(v, dict) and isinstance(v.get("scores", []), list)
            and all(isinstance(sc, dict) for sc in v.get("scores", []))
            and isinstance(v.get("findings", []), list) and all(isinstance(f, dict) for f in v.get("findings", []))
            and isinstance(v.get("info") or {}, dict) and isinstance(v.get("winners", []), list)
            and isinstance(v.get("source") or "", str))


def _replace(play: Play, **changes) -> Play:
    from dataclasses import replace

    return replace(play, **changes)


def _filters(game: str | None, player: str | None, since: str | None) -> tuple[list[str], list[Any]]:
    where: list[str] = []
    args: list[Any] = []
    if game:
        where.append("pl.game = ?")
        args.append(game)
    if player:
        where.append("pl.id IN (SELECT s.play_id FROM seats s JOIN people p ON p.id = s.person_id WHERE p.key = ?)")
        args.append(name_key(player))
    if since:
        where.append("pl.played_at >= ?")
        args.append(since)
    return where, args


def check_new(p: NewPlay) -> None:
    if not p.sheets:
        raise HistoryError(msg("error.history.no_records"))
    if not p.legal and not p.illegal_ok:
        sheet = next(s for s in p.sheets if not s.verdict.get("legal"))
        errors = sum(1 for f in sheet.verdict.get("findings", ()) if f.get("severity") == "error")
        raise IllegalPlay(msg("error.history.illegal", name=sheet.name, n=errors))
    seats_of(p.sheets, p.names)  # every seat has a good name


def version_of(shas: Iterable[str]) -> str:
    """A play's version: its records' fingerprints together (Play.version)."""
    return hashlib.sha256(" ".join(shas).encode("ascii")).hexdigest()[:16]


class _DryRun(Exception):
    """Undoes the trial run of an import (Store.import_plays)."""


class DamagedPlay(HistoryError):
    """A play whose stored rows another program changed (a verdict that is not JSON, a
    record text stored as bytes): said in one line naming the play; it can still be
    listed and deleted."""


class StalePlay(HistoryError):
    """A step entered against a play that changed since it was read."""


class IllegalPlay(HistoryError):
    """An illegal game offered without illegal_ok: refused (exit 1, like `check`)."""

    exit_code = 1


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any failure: a write is whole or absent.
    One inside another is a savepoint of the outer one: its failure undoes its own writes
    (even when the caller goes on), and only the outer one commits."""

    def __init__(self, store: Store):
        self.store = store
        self.savepoint: str | None = None

    def __enter__(self):
        db = self.store.db
        try:
            if db.in_transaction:
                self.savepoint = f"sk{id(self)}"
                db.execute(f"SAVEPOINT {self.savepoint}")
            else:
                db.execute("BEGIN IMMEDIATE")
        except sqlite3.DatabaseError as e:
            raise HistoryError(msg("error.history.cannot_write", why=str(e)), source=str(self.store.path)) from None

    def __exit__(self, kind, value, tb):
        if self.savepoint:
            if kind is not None:
                self.store.db.execute(f"ROLLBACK TO {self.savepoint}")
            self.store.db.execute(f"RELEASE {self.savepoint}")
            return False
        db = self.store.db
        if kind is None:
            try:
                db.execute("COMMIT")
            except sqlite3.DatabaseError as e:
                db.execute("ROLLBACK")
                raise HistoryError(msg("error.history.cannot_write", why=str(e)), source=str(self.store.path)) from None
            return False
        db.execute("ROLLBACK")
        if isinstance(value, sqlite3.DatabaseError) and not isinstance(value, HistoryError):
            raise HistoryError(msg("error.history.cannot_write", why=str(value)), source=str(self.store.path)) from None
        return False
