"""Glüx layouts: a board side (`kind = "board"`), the light chips (`kind = "chips"`), the
score track (`kind = "score-track"`) and the score pad (`kind = "score-pad"`).

A board is drawn as a text grid, one character per square separated by spaces; the legend
says what each character is: a room, a corridor square or a start square (with the player
counts it serves). Squares are (column, row), (0, 0) top-left, written "C4" (column letter,
row number from 1), as printed on the board.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Annotated, Literal

from pydantic import Field, model_validator

from sheetkit.messages import msg
from sheetkit.errors import FieldError
from sheetkit.grid import check_rows, text_rows
from sheetkit.schema import Count, Label, Mm, Model, Text

Square = tuple[int, int]

HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
Pattern = Literal["lines-45", "lines-135", "lines-0", "lines-90", "grid", "cross", "dots", "plain"]
Frame = Literal["solid", "dashed", "double", "dotted"]


def _check_hex(field: str, value: str) -> None:
    if not HEX.match(value):
        raise FieldError(field, msg("error.layout.colour", got=repr(value)))


class LegendEntry(Model):
    """Exactly one of: a room id, corridor = true, or start = [player counts]."""

    room: Text | None = None
    corridor: bool = False
    start: Annotated[list[int], Field(max_length=3)] = []

    @model_validator(mode="after")
    def _one(self):
        given = (self.room is not None) + self.corridor + bool(self.start)
        if given != 1:
            raise FieldError("", msg("error.layout.glux_legend"))
        if any(n not in (2, 3, 4) for n in self.start):
            raise FieldError("start", msg("error.layout.player_counts", got=self.start))
        return self


class Room(Model):
    label: Label  # printed on the board: "A", ... or "middle"/"centro"
    pattern: Pattern = "plain"
    tint: str = "#ffffff"  # a light fill; the pattern tells rooms apart in black and white
    middle: bool = False

    @model_validator(mode="after")
    def _check(self):
        _check_hex("tint", self.tint)
        return self


class BoardLabels(Model):
    side: Label
    start: Label
    players: Label  # "players" / "jugadores", after the counts on a start square
    assembly: Label  # title of the assembly page
    assembly_note: Label
    tile: Label
    row: Label
    column: Label
    overlap: Label


class GluxBoard(Model):
    game: Literal["glux"]
    kind: Literal["board"]
    title: Label
    side: Literal["2p", "34p"]
    players: Annotated[list[int], Field(max_length=3)]  # player counts this side is for
    square: Mm(40)  # mm
    grid: str
    legend: dict[str, LegendEntry]
    rooms: dict[str, Room]
    labels: BoardLabels

    @cached_property
    def rows(self) -> list[list[str]]:
        return text_rows(self.grid)

    @model_validator(mode="after")
    def _check(self):
        check_rows(self.rows, "grid", "squares", lambda ch: ch in self.legend, "legend")
        for ch, e in self.legend.items():
            if len(ch) != 1:
                raise FieldError(f"legend.{ch}", msg("error.layout.legend_key"))
            if e.room is not None and e.room not in self.rooms:
                raise FieldError(f"legend.{ch}.room", msg("error.layout.one_of", kinds=str(sorted(self.rooms)), got=repr(e.room)))
        if not self.players or any(n not in (2, 3, 4) for n in self.players):
            raise FieldError("players", msg("error.layout.expect_player_counts", got=self.players))
        if not 10 <= self.square <= 40:
            raise FieldError("square", msg("error.layout.mm_range", low=10, high=40, got=self.square))
        middles = [k for k, r in self.rooms.items() if r.middle]
        if len(middles) != 1:
            raise FieldError("rooms", msg("error.layout.one_middle", got=len(middles)))
        return self

    # What the rules ask of a board side. Squares are (column, row), (0, 0) top-left.

    @cached_property
    def width(self) -> int:
        return len(self.rows[0])

    @cached_property
    def height(self) -> int:
        return len(self.rows)

    @cached_property
    def room_squares(self) -> dict[str, tuple[Square, ...]]:
        """Room id -> its squares in reading order, rooms in the order of `rooms`."""
        out: dict[str, list[Square]] = {k: [] for k in self.rooms}
        for r, row in enumerate(self.rows):
            for c, ch in enumerate(row):
                if self.legend[ch].room is not None:
                    out[self.legend[ch].room].append((c, r))
        return {k: tuple(v) for k, v in out.items()}

    @cached_property
    def starts(self) -> dict[Square, frozenset[int]]:
        """Start square -> the player counts it serves."""
        return {(c, r): frozenset(self.legend[ch].start) for r, row in enumerate(self.rows)
                for c, ch in enumerate(row) if self.legend[ch].start}

    @cached_property
    def middle_room(self) -> str:
        return next(k for k, r in self.rooms.items() if r.middle)

    def on_board(self, sq: Square) -> bool:
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height

    def start_squares(self, n_players: int) -> list[Square]:
        """The squares marked as start squares for `n_players`, in reading order."""
        return sorted((sq for sq, ns in self.starts.items() if n_players in ns), key=lambda s: (s[1], s[0]))

    def corners(self) -> list[Square]:
        w, h = self.width - 1, self.height - 1
        return [(0, 0), (w, 0), (0, h), (w, h)]


class ChipColour(Model):
    name: Label
    letter: Text  # printed on every chip: colours stay apart in black and white
    ink: str  # frame and letter
    tint: str  # chip background
    frame: Frame
    # the letter in each language of the sheet (an initial that reads as another colour
    # in Spanish would mislead: V is verde there); `letter` where this is not given
    letters: Label | None = None

    def letter_in(self, lang: str) -> str:
        return self.letters(lang) if self.letters else self.letter

    @model_validator(mode="after")
    def _check(self):
        if len(self.letter) != 1:
            raise FieldError("letter", msg("error.layout.one_char", got=repr(self.letter)))
        _check_hex("ink", self.ink)
        _check_hex("tint", self.tint)
        return self


class ChipLabels(Model):
    fronts: Label
    backs: Label
    note: Label


class GluxChips(Model):
    game: Literal["glux"]
    kind: Literal["chips"]
    title: Label
    chip: Mm(24)  # mm, side of a square chip (the cut grid's cell)
    per_pair: Count(1, 16, "chips")  # chips of each pair per colour (G1: 8)
    colours: Annotated[list[ChipColour], Field(max_length=8)]
    labels: ChipLabels

    @model_validator(mode="after")
    def _check(self):
        if not 12 <= self.chip <= 24:
            raise FieldError("chip", msg("error.layout.mm_range", low=12, high=24, got=self.chip))
        if not self.colours:
            raise FieldError("colours", msg("error.layout.one_colour"))
        letters = [c.letter for c in self.colours]
        if len(set(letters)) != len(letters):
            raise FieldError("colours", msg("error.layout.own_letter"))
        if self.per_pair < 1:
            raise FieldError("per_pair", msg("error.layout.least_one"))
        return self

    @model_validator(mode="after")
    def _check_letters(self):
        for lang in ("es", "en"):
            letters = [c.letter_in(lang) for c in self.colours]
            if any(len(x) != 1 for x in letters):
                raise FieldError("colours", msg("error.layout.letters_one", language=lang, got=letters))
            if len(set(letters)) != len(letters):
                raise FieldError("colours", msg("error.layout.letters_own", language=lang, got=letters))
        return self


class TrackLabels(Model):
    note: Label
    scoring: Annotated[list[Label], Field(max_length=12)]


class GluxScoreTrack(Model):
    game: Literal["glux"]
    kind: Literal["score-track"]
    title: Label
    last: Count(1, 200, "as the highest value")  # highest value on the track
    per_row: Count(1, 20, "boxes a row")
    box: Mm(40)  # mm
    labels: TrackLabels

    @model_validator(mode="after")
    def _check(self):
        if self.last < 1 or self.per_row < 2:
            raise FieldError("last", msg("error.layout.track"))
        if self.box < 10:
            raise FieldError("box", msg("error.layout.least_mm", least=10, got=self.box))
        return self


class PadLabels(Model):
    room: Label
    player: Label
    pips: Label
    place: Label
    vp: Label
    middle: Label
    total: Label
    tiebreak: Label
    winner: Label
    date: Label
    side_note: Label
    rules: Annotated[list[Label], Field(max_length=12)]


class GluxScorePad(Model):
    game: Literal["glux"]
    kind: Literal["score-pad"]
    title: Label
    rooms: Annotated[list[Text], Field(max_length=12)]  # row labels, the middle room last
    players: int  # player columns
    row_height: Mm(40)
    labels: PadLabels

    @model_validator(mode="after")
    def _check(self):
        if not self.rooms:
            raise FieldError("rooms", msg("error.layout.room_row"))
        if not 2 <= self.players <= 4:
            raise FieldError("players", msg("error.layout.two_to_four", got=self.players))
        if self.row_height < 7:
            raise FieldError("row_height", msg("error.layout.row_height", got=self.row_height))
        return self
