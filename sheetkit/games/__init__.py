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
    entry.py      the phone page: move-by-move entry and the quick tally (Game.entry, Game.tally_form)
    page/         the page's templates, scripts and styles of the game (Game.page_files)

Nothing here imports pydantic, reportlab, Pillow or qrcode: commands that only score start fast.
"""

from __future__ import annotations

import importlib

from sheetkit.messages import msg
from sheetkit.errors import UserError
from sheetkit.games.interface import Game

GAMES = ("yuncos", "iunu", "glux", "levelx")
_ADDED: dict[str, Game] = {}  # games registered from outside the package (register)


def get(name: str) -> Game:
    if name in _ADDED:
        return _ADDED[name]
    if name not in GAMES:
        raise UserError(msg("error.game.unknown", name=repr(name), games=", ".join(names())))
    return importlib.import_module(f"sheetkit.games.{name}").GAME


def names() -> tuple[str, ...]:
    """The names of every game, without importing any."""
    return GAMES + tuple(_ADDED)


def all_games() -> list[Game]:
    return [get(name) for name in names()]


def register(game: Game) -> None:
    """Add a game defined outside this package (a game of its own package elsewhere, or
    one the tests define): from then on every command and the page offer it like the
    others. A name already taken is refused."""
    if game.name in GAMES or game.name in _ADDED:
        raise ValueError(f"a game named {game.name!r} is registered already")
    _ADDED[game.name] = game


def unregister(name: str) -> None:
    _ADDED.pop(name, None)


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
