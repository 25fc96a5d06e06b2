"""Records read from outside: the web page's uploads and pasted text, a photo's draft.

Such a record never makes sheetkit open a file it names. Each record kind lists the fields
that could name one (`RecordKind.files`); here any of them that does is refused, in one
line and before any path is looked at, so the answer is the same whether the file exists
or not. The same data can always be given inline (a shipped layout id, an IUNU deck's
tables, a Yuncos table's sheets as `[player.sheet]` tables).
"""

from __future__ import annotations

from typing import Any, Iterator

from sheetkit.messages import msg
from sheetkit.errors import UserError


def _values(data: Any, path: list[str], where: str) -> Iterator[tuple[str, Any]]:
    """(field path as shown, value) of every value at `path` ("player[]" steps into each
    item of an array)."""
    if not path:
        yield where, data
        return
    head, rest = path[0], path[1:]
    each = head.endswith("[]")
    key = head.removesuffix("[]")
    if not isinstance(data, dict) or key not in data:
        return
    value = data[key]
    shown = f"{where}.{key}" if where else key
    if each:
        if isinstance(value, list):
            for i, item in enumerate(value):
                yield from _values(item, rest, f"{shown}[{i}]")
    else:
        yield from _values(value, rest, shown)


def refuse_files(data: dict[str, Any], source: str) -> None:
    """UserError naming the first field of `data` that names a file."""
    from sheetkit import games, layouts

    game_name = data.get("game")
    if not isinstance(game_name, str) or game_name not in games.names():
        return  # the record's own reading says what is wrong with its game
    kinds = games.get(game_name).record_kinds
    kind = data.get("kind")
    chosen = [kinds[kind]] if isinstance(kind, str) and kind in kinds else list(kinds.values())
    shipped = layouts.shipped_ids()
    for record_kind in chosen:
        for f in record_kind.files:
            for where, value in _values(data, f.path.split("."), ""):
                if not isinstance(value, str) or (f.shipped is not None and value in shipped):
                    continue  # a table is the data itself, inline; a shipped id names no file
                known = ", ".join(i for i in shipped if f.shipped is not None and i.startswith(f.shipped))
                raise UserError(msg("error.outside.names_file", hint=msg(f.hint, known=known)),
                                source=source, field=where)
