"""From records to plays: read each record's text once, check it through the public
records API, and group the sheets into plays.

A record that names its players (Glüx, IUNU, Level X) is a play of its own. Records that
name no player (a Yuncos sheet) are one player's sheet each: `players` says whose
(`--player NAME` for a single sheet, `--player NAME=RECORD` for several); the sheets of
one game that is not solo make one play, and every solo sheet is a play of its own.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from sheetkit.messages import msg
from sheetkit.errors import UserError
from sheetkit.history.names import clean_name, name_key
from sheetkit.history.store import NewPlay, Sheet

def read_text(path: str | Path) -> str:
    """A record file's text, exactly as it is (a UTF-8 byte order mark aside), read by the
    one guarded reader every file goes through (sheetkit.tomlfile: a regular file, never a
    pipe waited on, within the size cap)."""
    from sheetkit.tomlfile import decode, read_bytes

    return decode(read_bytes(path), str(path))


def sheet_from_text(text: str, source: str, player: str | None = None, *,
                    files: bool = True) -> tuple[Sheet, object, object]:
    """Check a record given as text, exactly as `sheetkit check` checks a file
    (records.parse_text, then records.check): the Sheet to store, with the Loaded record
    and the Checked result (for drawing it). `files=False`: the text came from outside and
    may not name files (records.parse_text)."""
    from sheetkit.checking import records

    loaded = records.parse_text(text, source, files=files)
    checked = records.check(loaded)
    return Sheet(text, source, checked.verdict.to_json(), player), loaded, checked


def parse_date(text: str | None) -> str:
    """'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM[:SS]' (or with a T) -> 'YYYY-MM-DD HH:MM:SS'; now
    when not given."""
    if text is None:
        return datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    t = text.strip().replace("T", " ")
    for fmt in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d"):
        try:
            when = datetime.strptime(t, fmt)
        except ValueError:
            continue
        if fmt == "%Y-%m-%d":
            when = when.replace(hour=12)  # a day without a time: noon, so no time zone moves it a day
        return when.strftime("%Y-%m-%d %H:%M:%S")
    raise UserError(msg("error.history.date", option="--date", got=repr(text)))


def parse_players(given: tuple[str, ...], paths: list[str]) -> dict[str, str]:
    """--player values -> {record path: name}. `NAME=RECORD` names that record's player;
    a bare `NAME` names the only record."""
    out: dict[str, str] = {}
    known = {str(Path(p)): p for p in paths}
    for value in given:
        name, sep, record = value.rpartition("=") if "=" in value else (value, "", "")
        if sep:
            key = str(Path(record))
            if key not in known:
                raise UserError(msg("error.history.player_record", value=value, record=repr(record)))
            target = known[key]
        else:
            if len(paths) != 1:
                raise UserError(msg("error.history.player_whose", value=value))
            target = paths[0]
        if target in out:
            raise UserError(msg("error.history.two_players", target=target))
        out[target] = clean_name(name)
    return out


def group(sheets: list[Sheet], games: list[str], *, played_at: str, location: str | None = None,
          duration_min: int | None = None, illegal_ok: bool = False) -> list[NewPlay]:
    """Checked sheets -> plays (see the module's doc)."""
    plays: list[NewPlay] = []
    together: list[tuple[str, Sheet]] = []
    meta = dict(played_at=played_at, location=location, duration_min=duration_min, illegal_ok=illegal_ok)
    for game, sheet in zip(games, sheets):
        if sheet.named:
            plays.append(NewPlay(game, (sheet,), **meta))
            continue
        if not sheet.player:
            raise UserError(msg("error.history.no_player"), source=sheet.name)
        if (sheet.verdict.get("info") or {}).get("solo"):
            plays.append(NewPlay(game, (sheet,), **meta))
        else:
            together.append((game, sheet))
    if together:
        games_met = {g for g, _ in together}
        layouts = {s.layout[0] for _, s in together}
        if len(games_met) > 1 or len(layouts) > 1:
            raise UserError(msg("error.history.one_play", got=", ".join(sorted(map(str, layouts)))))
        keys = [name_key(s.player) for _, s in together]
        for k in keys:
            if keys.count(k) > 1:
                raise UserError(msg("error.history.two_sheets", name=k))
        plays.append(NewPlay(together[0][0], tuple(s for _, s in together), **meta))
    return plays


def plays_from_files(paths: list[str], players: tuple[str, ...] = (), *, date: str | None = None,
                     location: str | None = None, duration_min: int | None = None,
                     illegal_ok: bool = False) -> list[NewPlay]:
    """`sheetkit log`: every record read and checked before anything is written."""
    if len(set(map(str, map(Path, paths)))) != len(paths):
        raise UserError(msg("error.history.record_twice"))
    names = parse_players(players, paths)
    played_at = parse_date(date)
    location = _text_option("--location", location)
    if duration_min is not None and not 0 < duration_min <= 7 * 24 * 60:
        raise UserError(msg("error.history.duration", most=7 * 24 * 60, got=duration_min))
    sheets, game_names = [], []
    for p in paths:
        # checked from its full path, as `recheck` will: the files it names are found the same way
        sheet, loaded, _ = sheet_from_text(read_text(p), str(Path(p).resolve()), names.get(p))
        if sheet.named and p in names:
            raise UserError(msg("error.history.names_own", record=p))
        sheets.append(sheet)
        game_names.append(loaded.game)
    return group(sheets, game_names, played_at=played_at, location=location, duration_min=duration_min,
                 illegal_ok=illegal_ok)


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _text_option(option: str, value: str | None, limit: int = 200) -> str | None:
    if value is None:
        return None
    value = " ".join(value.split())
    if not value:
        return None
    if len(value) > limit or _CONTROL.search(value):
        raise UserError(msg("error.history.one_line", option=option, limit=limit))
    return value
