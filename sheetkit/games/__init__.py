"""The games sheetkit knows, each a package with the same floor plan and one `Game` object
(sheetkit.games.interface) named GAME in its __init__. The command line, the tests and the
web page loop over `all()` and ask the Game object; nothing probes a module.

A game package `sheetkit.games.<name>` has:

    __init__.py   GAME = Game(...): what the game offers, every function by lazy reference
    layout.py     the layout models (pydantic)
    compose.py    layout -> Scene: the printed sheets
    lint.py       the game sense of a layout
    record.py     the record models and read_record (TOML -> the game's record object)
    rules.py      the rules themselves: state, moves, scoring; no pydantic, no rendering
    check.py      record -> Checked(state, verdict)
    overlay.py    Checked -> Scene: the checked sheet of `check --render`
    moves.py      the legal next moves of a game in progress (`sheetkit moves`), where asked
    templates.py  blank, commented records for `sheetkit template`
    tally.py      the quick tally, `sheetkit score <name>`
    play.py       random legal games, for the tests and the benchmarks

Nothing here imports pydantic, reportlab, Pillow or qrcode: commands that only score start fast.
"""

from __future__ import annotations

import importlib

from sheetkit.messages import msg
from sheetkit.errors import UserError
from sheetkit.games.interface import Game

GAMES = ("yuncos", "iunu", "glux", "levelx")


def get(name: str) -> Game:
    if name not in GAMES:
        raise UserError(msg("error.game.unknown", name=repr(name), games=", ".join(GAMES)))
    return importlib.import_module(f"sheetkit.games.{name}").GAME


def all_games() -> list[Game]:
    return [get(name) for name in GAMES]


def named_in(data: dict, source: str) -> Game:
    """The game a layout or record file names in its `game` key."""
    name = data.get("game")
    if name is None:
        raise UserError(msg("error.game.missing", example=GAMES[0]), source=source, field="game")
    if not isinstance(name, str):
        raise UserError(msg("error.game.not_text", example=GAMES[0], got=repr(name)), source=source, field="game")
    try:
        return get(name)
    except UserError as e:
        raise UserError(e.message, source=source, field="game") from None
