"""Plays out of the history, and sheetkit's own JSON back in.

- BG Stats' "push plays" JSON, and the link that opens BG Stats' import dialog with one
  play (https://app.bgstatsapp.com/createPlay.html?data=<the play, URL-encoded JSON>);
- a flat CSV, one row per player per play;
- sheetkit's JSON: every play with its record texts and verdicts, which `import` reads back.
"""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any, Iterable
from urllib.parse import quote

from sheetkit.messages import msg
from sheetkit.history.names import clean_name
from sheetkit.history.store import NewPlay, Play, Sheet, seats_of
from sheetkit.history.schema import HistoryError

SOURCE_NAME = "sheetkit"
BGSTATS_LINK = "https://app.bgstatsapp.com/createPlay.html?data="
FORMAT = "sheetkit-history"
FORMAT_VERSION = 1


def game_title(game: str) -> str:
    from sheetkit import games

    try:
        return games.get(game).title
    except Exception:  # a game this sheetkit does not know (from an import): its name will do
        return game


def source_play_id(play: Play) -> str:
    """Stable across exports, imports and machines: the pad's QR text when the sheet had one,
    else the fingerprint of the record text."""
    if play.qr:
        return play.qr
    sheets = play.sheets or ()
    return f"sheetkit:{sheets[0].sha256[:20]}" if sheets else f"sheetkit:play:{play.id}"


def ranks(play: Play) -> list[int]:
    """Each seat's place, 1 the best, in seat order, as the page's ranking gives it: the
    winners first (a tiebreak decides between equal totals), then the higher totals, a
    player eliminated after those who were not, a total not known last; seats alike in all
    of that (equal totals) share a place."""
    def key(k: int) -> tuple:
        s = play.seats[k]
        return (not s.winner, s.eliminated, s.score is None, -(s.score or 0))

    order = sorted(range(len(play.seats)), key=lambda k: (key(k), k))
    out = [0] * len(order)
    place, last = 0, None
    for n, k in enumerate(order, 1):
        if key(k) != last:
            place, last = n, key(k)
        out[k] = place
    return out


def bgstats_play(play: Play) -> dict[str, Any]:
    """One play as BG Stats' "push plays" JSON (docs/history.md names the fields and where
    they come from)."""
    d: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": source_play_id(play),
        "playDate": play.played_at,
        "game": {"name": game_title(play.game), "sourceGameId": f"sheetkit:{play.game}",
                 "highestWins": True, "noPoints": False},
        "players": [{"name": s.name, "sourcePlayerId": f"sheetkit:{s.uid}" if s.uid else f"sheetkit:{s.name.casefold()}",
                     "score": s.score, "winner": bool(s.winner), "startPlayer": bool(s.start), "rank": rank}
                    for s, rank in zip(play.seats, ranks(play))],
    }
    if play.layout:  # BG Stats' board: the board side (Glüx), the level (Yuncos), the layout played
        d["board"] = play.layout
    if play.location:
        d["location"] = play.location
    minutes = play.minutes_played  # as logged, else from its start to its last step on the page
    if minutes:
        d["durationMin"] = minutes
    notes = []
    if play.abandoned:
        notes.append("abandoned")
    elif play.in_progress:
        notes.append("in progress")
    if not play.legal:
        notes.append("illegal: the tally is not a result")
    if notes:
        d["comments"] = "; ".join(notes)
    return d


def bgstats_link(play: Play) -> str:
    return BGSTATS_LINK + quote(json.dumps(bgstats_play(play), ensure_ascii=False, separators=(",", ":")), safe=":,")


def record_link(path: str, game: str, verdict: dict[str, Any]) -> str:
    """The BG Stats link of a record: as logged, when the default history holds this very
    text (its players' names, date and place); else as it would be logged now, a sheet
    that names no player being "Player"."""
    from sheetkit.history import intake, schema
    from sheetkit.history.store import Store, now

    text = intake.read_text(path)
    sheet = Sheet(text, path, verdict)
    db = schema.default_path()
    if db.is_file():
        try:
            with Store.open(db) as store:
                found = store.find(sheet.sha256)
                if found is not None:
                    return bgstats_link(store.get(found))
        except HistoryError:
            pass  # an unusable history does not stop the sheet from being drawn
    if not sheet.named:
        sheet = Sheet(text, path, verdict, "Player")
    layout, version = sheet.layout
    legal = bool(verdict.get("legal"))
    play = Play(0, game, now(), None, None, legal, not legal, bool(verdict.get("in_progress")), now(), layout,
                version, sheet.qr, sheet.serial, tuple(seats_of([sheet])), (sheet,))
    return bgstats_link(play)


def to_bgstats(plays: Iterable[Play]) -> str:
    return json.dumps([bgstats_play(p) for p in plays], ensure_ascii=False, indent=2) + "\n"


def to_links(plays: Iterable[Play]) -> str:
    return "".join(bgstats_link(p) + "\n" for p in plays)


CSV_COLUMNS = ["play", "played_at", "game", "layout", "location", "duration_min", "player", "seat", "score",
               "winner", "start_player", "rank", "eliminated", "legal", "in_progress", "qr", "abandoned"]


def to_csv(plays: Iterable[Play]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for p in plays:
        for i, s in enumerate(p.seats, 1):
            w.writerow([p.id, p.played_at, p.game, p.layout or "", p.location or "", p.minutes_played or "",
                        _cell(s.name), i, "" if s.score is None else s.score, int(s.winner), int(s.start), s.rank or "",
                        int(s.eliminated), int(p.legal), int(p.in_progress), p.qr or "", int(p.abandoned)])
    return out.getvalue()


def _cell(text: str) -> str:
    """A spreadsheet must not run a name as a formula (=, +, -, @ first)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def to_json(plays: Iterable[Play]) -> str:
    return json.dumps({"format": FORMAT, "version": FORMAT_VERSION, "plays": [p.to_json() for p in plays]},
                      ensure_ascii=False, indent=2) + "\n"


# ------------------------------------------------------------------ import

MAX_IMPORT = 512 * 1024 * 1024
BIG = 10**9  # no score or serial comes near; SQLite holds 63 bits
_DATE = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\Z")


def read_json(raw: bytes, source: str, *, check_texts: bool = True) -> list[NewPlay]:
    """sheetkit's JSON -> the plays to add; every play checked before any is written: its
    shape, and (`check_texts`) each record text, read and checked as `sheetkit check`
    reads a file (records.parse_text, records.check), as a record from outside: one that
    is not a usable record, is another game's than the play says, or names a file (a
    layout that is not shipped, a deck file) is refused, naming the play."""
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise HistoryError(msg("error.history.json_utf8"), source=source) from None
    except (json.JSONDecodeError, RecursionError) as e:
        raise HistoryError(msg("error.history.json_invalid", why=str(e)), source=source) from None
    except ValueError as e:  # Python's cap on the digits of an integer
        raise HistoryError(msg("error.history.json_invalid", why=str(e)[:120]), source=source) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise HistoryError(msg("error.history.json_not_ours"), source=source)
    if data.get("version") != FORMAT_VERSION:
        raise HistoryError(msg("error.history.json_version", version=repr(data.get("version")), reads=FORMAT_VERSION),
                           source=source)
    plays = data.get("plays")
    if not isinstance(plays, list):
        raise HistoryError(msg("error.history.json_plays"), source=source, field="plays")
    out = [_play(p, source, f"plays[{i}]") for i, p in enumerate(plays)]
    if check_texts:
        for i, play in enumerate(out):
            check_texts_of(play, source, f"plays[{i}]")
    return out


def check_texts_of(play: NewPlay, source: str, at: str) -> None:
    """Each record text of an imported play read and checked as a record from outside
    (intake.sheet_from_text with files=False): HistoryError naming the play otherwise."""
    from sheetkit.errors import UserError
    from sheetkit.history import intake

    for j, sheet in enumerate(play.sheets):
        where = f"{at}.sheets[{j}].text"
        try:
            _, loaded, _ = intake.sheet_from_text(sheet.text, sheet.name, files=False)
        except UserError as e:
            raise HistoryError(msg("error.history.json_bad_record", why=e), source=source, field=where) from None
        if loaded.game != play.game:
            raise HistoryError(msg("error.history.json_other_game", got=loaded.game, game=play.game),
                               source=source, field=where)


def _play(p: Any, source: str, at: str) -> NewPlay:
    def bad(field: str, what):
        return HistoryError(what, source=source, field=f"{at}.{field}" if field else at)

    if not isinstance(p, dict):
        raise bad("", msg("error.history.json_play"))
    try:  # JSON's "\\ud800" gives a lone surrogate, which no text column can hold
        json.dumps(p, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise bad("", msg("error.history.json_surrogate")) from None
    game = p.get("game")
    if not isinstance(game, str) or not re.fullmatch(r"[a-z][a-z0-9_-]{0,30}", game):
        raise bad("game", msg("error.history.json_game", got=repr(game)))
    for key in ("played_at", "logged_at"):
        if not isinstance(p.get(key), str) or not _DATE.match(p[key]):
            raise bad(key, msg("error.history.json_date", got=repr(p.get(key))))
    stepped = p.get("stepped_at")  # these two from a history of schema 5 on; absent before
    if stepped is not None and (not isinstance(stepped, str) or not _DATE.match(stepped)):
        raise bad("stepped_at", msg("error.history.json_date", got=repr(stepped)))
    if not isinstance(p.get("abandoned", False), bool):
        raise bad("abandoned", msg("error.history.json_bool"))
    location = p.get("location")
    if location is not None and (not isinstance(location, str) or len(location) > 200):
        raise bad("location", msg("error.history.json_location"))
    duration = p.get("duration_min")
    if duration is not None and (type(duration) is not int or not 0 < duration <= 7 * 24 * 60):
        raise bad("duration_min", msg("error.history.json_duration", got=repr(duration)))
    if not isinstance(p.get("illegal_ok"), bool):
        raise bad("illegal_ok", msg("error.history.json_bool"))
    sheets_in = p.get("sheets")
    if not isinstance(sheets_in, list) or not sheets_in:
        raise bad("sheets", msg("error.history.json_sheets"))
    sheets = []
    for j, s in enumerate(sheets_in):
        where = f"sheets[{j}]"
        if not isinstance(s, dict):
            raise bad(where, msg("error.history.json_record"))
        if not isinstance(s.get("text"), str) or not isinstance(s.get("source"), str):
            raise bad(where, msg("error.history.json_text"))
        v = s.get("verdict")
        if not (isinstance(v, dict) and isinstance(v.get("legal"), bool) and isinstance(v.get("scores"), list)
                and all(isinstance(sc, dict) and isinstance(sc.get("player"), str)
                        and (sc.get("total") is None or type(sc.get("total")) is int) for sc in v["scores"])
                and isinstance(v.get("winners", []), list) and isinstance(v.get("info", {}), dict)):
            raise bad(f"{where}.verdict", msg("error.history.json_verdict"))
        info = v.get("info", {})
        if not all(type(sc.get("total")) is not int or abs(sc["total"]) <= BIG for sc in v["scores"]):
            raise bad(f"{where}.verdict.scores", msg("error.history.json_total", big=BIG))
        for key, kind in (("qr", str), ("layout", str), ("layout_version", str), ("serial", int)):
            value = info.get(key)
            if value is not None and (type(value) is not kind or (kind is int and not 0 <= value <= BIG)
                                      or (kind is str and len(value) > 500)):
                raise bad(f"{where}.verdict.info.{key}", msg("error.history.json_number" if kind is int else "error.history.json_info_text"))
        player = s.get("player")
        if player is not None and not isinstance(player, str):
            raise bad(f"{where}.player", msg("error.history.json_player"))
        sheets.append(Sheet(s["text"], s["source"], v, player))
    people = p.get("players")
    if not isinstance(people, list) or not all(isinstance(x, dict) and isinstance(x.get("name"), str) for x in people):
        raise bad("players", msg("error.history.json_players"))
    try:
        names = tuple(clean_name(x["name"]) for x in people)
        uids = tuple(x.get("uid") or None for x in people)
        if not all(u is None or (isinstance(u, str) and re.fullmatch(r"[0-9A-Za-z_-]{1,64}", u)) for u in uids):
            raise HistoryError(msg("error.history.json_uid"))
        play = NewPlay(game, tuple(sheets), p["played_at"], location, duration, p["illegal_ok"], names,
                       uids if all(uids) else None, p["logged_at"], p.get("abandoned", False), stepped)
        seats_of(play.sheets, play.names)
    except HistoryError as e:
        raise bad("players", e.message) from None
    return play
