"""One package per game, each offering the same entry points, so the CLI and the tests
treat games alike.

A game package `sheetkit.games.<name>` defines:

- NAME
- LAYOUT_KINDS: {kind: pydantic model} for the `kind` key of its layout files
- compose(layout, paper, lang, scale="real") -> Scene     scale: "real" or "fit" (boards)
- lint(layout) -> list[Finding]                            game sense of a layout
- RECORD_KINDS: {kind: pydantic model}, check(record, source) -> Verdict
- TEMPLATES: {name: function() -> str}                      for `sheetkit template`
- PAD, optional: the id of the score pad a game's records are copied from (its QR text)
- score_command: a click.Command, run as `sheetkit score <name>`
- overlay(record, verdict, paper) -> Scene                  for `check --render`, optional

Submodules must not be named like these entry points (compose.py, lint.py, check.py,
overlay.py): importing a submodule sets the package attribute of that name, which would
replace the function.

Nothing here imports reportlab, Pillow or qrcode: commands that only score start fast.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from sheetkit.errors import UserError

GAMES = ("yuncos", "iunu", "glux", "levelx")


def get(name: str) -> ModuleType:
    if name not in GAMES:
        raise UserError(f"unknown game {name!r}; expected one of: {', '.join(GAMES)}")
    return importlib.import_module(f"sheetkit.games.{name}")


def named_in(data: dict, source: str) -> ModuleType:
    """The game a layout or record file names in its `game` key."""
    name = data.get("game")
    if name is None:
        raise UserError(f'missing: every file names its game, e.g. game = "{GAMES[0]}"', source=source, field="game")
    if not isinstance(name, str):
        raise UserError(f'expected the game\'s name in quotes, e.g. game = "{GAMES[0]}" (got {name!r})',
                        source=source, field="game")
    try:
        return get(name)
    except UserError as e:
        raise UserError(e.detail, source=source, field="game") from None


def deferred(module: str, function: str):
    """`module.function`, imported only when first called: game packages list their
    templates without loading the models behind them."""
    def call(*args, **kwargs):
        return getattr(importlib.import_module(module), function)(*args, **kwargs)
    return call
