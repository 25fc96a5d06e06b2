"""The board a Level X game is played on (L1): the shipped board `levelx-board`, or a
designer's board layout named by the record (`board = "my-board.toml"`, a path beside the
record or as given). The rules take the rows' lengths from it, so a board is checked as
it is printed; nothing in the code fixes them.

A board can be played on only if its rows are the six totals 5 to 10 (L1, L4), each once:
the rows' lengths are the layout's, the row numbers are the dice's.
"""

from __future__ import annotations

from functools import lru_cache

from sheetkit.messages import msg
from sheetkit.errors import UserError

ROWS = (5, 6, 7, 8, 9, 10)  # L1: the rows are the dice totals; their lengths are the board's
BOARD = "levelx-board"  # the shipped board, the one a record names when it names none


def squares(spec) -> dict[int, int]:
    """Squares per row of a board layout (the last one is X), by row number."""
    return {r.number: r.squares for r in spec.rows}


def playable(spec, ref: str, source: str, field: str = "board"):
    """The board layout `spec`, or a UserError if its rows are not 5 to 10, each once."""
    numbers = [r.number for r in spec.rows]
    if sorted(numbers) != list(ROWS):
        raise UserError(msg("error.levelx.board_rows", board=ref, rows=", ".join(map(str, numbers)),
                            want=", ".join(map(str, ROWS))), source=source, field=field)
    return spec


@lru_cache(maxsize=8)
def _shipped_layout(ref: str):
    from sheetkit import layouts

    return layouts.load(ref)


def shipped(ref: str = BOARD):
    """A shipped board layout, read once per process (the web page plays many turns on it)."""
    return named(ref, f"layouts/{ref}.toml")


def named(ref, source: str, field: str = "board"):
    """The board layout a record names: a shipped layout id, or a layout file's path (beside
    the record first, then as given). Errors name the record and its field."""
    from sheetkit import layouts
    from sheetkit.messages import or_list

    if not isinstance(ref, str) or not ref.strip():
        raise UserError(msg("error.levelx.board_ref", got=repr(ref)[:60]), source=source, field=field)
    if ref in layouts.shipped_ids():  # read once: a shipped file does not change under a process
        layout = _shipped_layout(ref)
        if layout.game != "levelx" or layout.kind != "board":
            raise UserError(msg("error.layout.wrong_kind", id=layout.id, game=layout.game, kind=layout.kind,
                                want_game="levelx", want=or_list(("board",))), source=source, field=field)
    else:
        layout = layouts.load_for(ref, source, field, "levelx", ("board",))
    return playable(layout.spec, ref, source, field)
