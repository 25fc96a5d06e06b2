"""A draft the player confirmed, as `sheetkit read PHOTO --confirmed DRAFT` reads it back.

The draft `sheetkit read` wrote lists the fields to confirm at its top (and those waiting
on them: unsure only because an earlier turn is) and marks each on its line with `# check`.
The player corrects a marked line (or finds it right) and deletes its `# check`: those
fields are confirmed, and the photo is read again with them held at
the values the player left (sheetkit.photo.read.reread), so that a corrected flight moves
the cut of the turns after it. A line still marked is read again like every field the
reader was sure of. Only this module knows the draft's comment lines; the record itself
is read by the guarded TOML reader.
"""

from __future__ import annotations

import re

from sheetkit.errors import UserError
from sheetkit.messages import LANGS, msg, text

_KEY = re.compile(r"\s*([A-Za-z_]+)\s*=")
_MARK = re.compile(r"#\s*check\b")
_FIELD = re.compile(r"start|fish_marked|crashes_marked|used|turn\[[1-9]\d*\]\.[a-z_]+")  # turns count from 1


def turn_field(key: str) -> tuple[int, str] | None:
    """A turn's field named as in Draft.uncertain ("turn[3].flight"): (3, "flight"); None for
    any other name (start, used, ...)."""
    m = re.fullmatch(r"turn\[([1-9]\d*)\]\.(\w+)", key)
    return (int(m.group(1)), m.group(2)) if m else None


def _listed(line: str) -> list[str] | None:
    """The fields of the draft's "To confirm", "Waiting" and "Confirmed" lines (in any
    language they are written in): a field waiting on another is confirmed as one to
    confirm is, and one confirmed before stays so while its line carries no `# check`."""
    for lang in LANGS:
        for key in ("photo.draft.to_confirm", "photo.draft.waiting", "photo.draft.confirmed"):
            head = "# " + text(key, lang, fields="")
            if line.startswith(head):
                return _FIELD.findall(line[len(head):])
    return None


_NUMBERED = re.compile(r"\s*\[\[turn\]\]\s*#\D*(\d+)\s*$")  # the draft's "[[turn]]  # turn N"


def confirmed_fields(draft_text: str) -> list[str]:
    """The fields the draft listed to confirm whose lines no longer carry `# check`. The
    lists name turns by their number as the draft was written: from a turn whose `# turn N`
    no longer says its place (the player deleted or added a turn before it) on, a listed
    turn's field is not known to be that turn's, and is read again."""
    listed: list[str] = []
    marked: set[str] = set()
    turn, moved = 0, None
    for line in draft_text.splitlines():
        fields = _listed(line)
        if fields is not None:
            listed += fields
            continue
        if line.lstrip().startswith("[[turn]]"):
            turn += 1
            m = _NUMBERED.match(line)
            if moved is None and m is not None and int(m.group(1)) != turn:
                moved = turn  # (a turn with no such comment says nothing)
            continue
        m = _KEY.match(line)
        if m is None or not _MARK.search(line[m.end():]):
            continue
        key = "value" if m.group(1) == "crash" else m.group(1)  # a crash is where the number went
        marked.add(f"turn[{turn}].{key}" if turn else key)
    return [f for f in listed if f not in marked
            and not (moved is not None and (tf := turn_field(f)) is not None and tf[0] >= moved)]


def read_confirmed(path: str) -> tuple[dict, list[str]]:
    """(the draft's record, the fields confirmed) of a draft file the player edited, read
    as `sheetkit check` reads a record (a value that cannot be on a sheet is one UserError
    line naming its field, before any photo is read)."""
    from sheetkit.checking import records
    from sheetkit.tomlfile import decode, parse_toml_text, read_bytes

    draft_text = decode(read_bytes(path), path)
    data = parse_toml_text(draft_text, path)
    loaded = records.parse(dict(data), path)
    if loaded.game != "yuncos" or loaded.record.kind == "table" or not isinstance(data.get("qr"), str):
        raise UserError(msg("error.photo.confirmed_not_draft"), source=path)
    return _boxes_named(data, loaded.record), confirmed_fields(draft_text)


def _boxes_named(data: dict, record) -> dict:
    """The record with each turn's box named as the reader names it (nest1.2, or lum3 for
    its next free box): a player may write "Nest 1.2", which the record reads. A row or
    column named alone stays so: which box it is depends on the turns before, which may be
    the ones still wrong."""
    turns = [dict(t) for t in data["turn"]]
    for t, read in zip(turns, record.turns):
        if read.cell is not None:
            t["puzzle"] = read.cell.name()
    return {**data, "turn": turns}
