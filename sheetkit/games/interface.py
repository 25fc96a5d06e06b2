"""What a game offers sheetkit: one `Game` object per game package, registered in
`sheetkit.games`.

A Game is a frozen dataclass, not a Protocol or a base class: a game is data (its name, its
kinds of layout and record, its score pad) plus references to the functions that serve
them. There is nothing to inherit and nothing to override, only entries to fill in, and
the command line, the tests and the web page can list every entry without knowing the
game. Frozen, so the registry cannot be changed behind the commands' backs.

Functions are named by `Ref("module:function")` and imported on first use: listing the
games, or `sheetkit score`, loads neither pydantic models nor a rendering library.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol


@dataclass(frozen=True, slots=True)
class Ref:
    """A function or class named as "package.module:name", imported when first used."""

    target: str

    def load(self) -> Any:
        module, _, name = self.target.partition(":")
        return getattr(importlib.import_module(module), name)

    def __call__(self, *args, **kwargs):
        return self.load()(*args, **kwargs)


@dataclass(frozen=True, slots=True)
class LayoutKind:
    """A kind of printable thing (the `kind` key of a layout file)."""

    model: Ref  # the pydantic model a layout of this kind is validated with
    compose: Ref  # (layout, paper, lang, scale) -> Scene
    lint: Ref  # (layout) -> list[Finding]: the game sense of the layout
    record_template: Ref | None = None  # (layout) -> str: the blank record for a sheet of this kind
    # pieces cut out (chips): compose also takes bleed=MM, how far the colour runs past the cut
    bleed: bool = False


@dataclass(frozen=True, slots=True)
class FileField:
    """A record field whose text names a file that sheetkit would open (a layout by path, a
    Yuncos table's sheet, an IUNU deck). A record read from outside (the web page, an
    upload) may not use one: it carries the same data inline instead, and the page refuses
    the field before any path is looked at (sheetkit.checking.records.refuse_files)."""

    path: str  # "layout", "deck"; "player[].sheet" for the field of every item of an array
    hint: str  # the message id that says what to write instead
    # a shipped layout id starting with this names no file (`layout = "yuncos-easy"`)
    shipped: str | None = None


@dataclass(frozen=True, slots=True)
class RecordKind:
    """A kind of record (the `kind` key of a record file, or the game's only kind)."""

    model: Ref  # the pydantic model of the file
    check: Ref  # (record, source) -> Checked: the state replayed and the verdict
    overlay: Ref | None = None  # (record, checked, paper, lang=) -> Scene: the checked sheet for `check --render`
    # (record, checked, dice: tuple[int, ...] | None) -> an object with to_json() and lines():
    # the legal next moves at the end of the record (`sheetkit moves`), for games that ask
    moves: Ref | None = None
    files: tuple[FileField, ...] = ()  # the fields that may name a file (see FileField)


@dataclass(frozen=True, slots=True)
class Checked:
    """What checking a record gives: the game state it replayed (what the overlay draws and
    what the legal-move questions are asked of) and the verdict."""

    state: Any
    verdict: Any  # sheetkit.checking.verdict.Verdict


@dataclass(frozen=True, slots=True)
class Game:
    name: str  # the `game` key of its files, and `sheetkit score NAME`
    title: str
    layout_kinds: Mapping[str, LayoutKind]
    record_kinds: Mapping[str, RecordKind]
    read_record: Ref  # (toml data, source) -> the game's record object (Record protocol below)
    tally: Ref  # the click command run as `sheetkit score NAME`
    pad: str | None = None  # the score pad's layout id, when records are copied from one (its QR text)
    templates: Mapping[str, Ref] = field(default_factory=dict)  # `sheetkit template NAME`: () -> str


class Record(Protocol):
    """What every game's record object says of itself; nothing has to guess."""

    kind: str  # its key in the game's record_kinds
    qr: str | None  # the QR text of the printed sheet it was copied from
    sheet: Any  # the layouts.Layout it is checked against; None when the game's pad is
