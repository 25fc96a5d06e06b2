"""Yuncos layouts: the schema of a sheet level (`kind = "sheet"`), of the two-sided sheet
(`kind = "duplex"`), and the Board read from a sheet's text map.

Map coordinates: a vertex is (column, row), (0, 0) at the top-left; on paper and in
messages it is written as a column letter and a row number from 1, e.g. "C7".
"""

from __future__ import annotations

from functools import cached_property
from typing import Annotated, Literal

from pydantic import Field, model_validator

from sheetkit.errors import FieldError
from sheetkit.games.yuncos.board import Board
from sheetkit.grid import check_rows, square_name, text_rows
from sheetkit.schema import PAGE_MM, Count, Label, Mm, Model, Text

Ability = Literal["plusminus", "diagonal", "yunco"]
ABILITIES: tuple[str, ...] = ("plusminus", "diagonal", "yunco")
STEPS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
HEX = r"^#[0-9a-fA-F]{6}$"


vertex_name = square_name


class LegendEntry(Model):
    terrain: Literal["sea", "land"]
    icon: Literal["fish", "light", "star"] | None = None
    colour: Text | None = None  # stars only: a key of [colours]


SHAPES = ("circle", "square", "triangle", "diamond", "bar", "ring")


class Colour(Model):
    letter: Text  # printed inside the star, so black-and-white prints tell colours apart
    ink: str
    name: Label
    # a shape printed in the star instead of the letter: the same in every language, where
    # initials clash (amarillo, azul) or suggest another colour
    shape: Literal["circle", "square", "triangle", "diamond", "bar", "ring"] | None = None

    @model_validator(mode="after")
    def _check(self):
        import re

        if len(self.letter) != 1:
            raise FieldError("letter", f"expected one character (got {self.letter!r})")
        if not re.match(HEX, self.ink):
            raise FieldError("ink", f"expected a colour like \"#aa3300\" (got {self.ink!r})")
        return self


class MapSpec(Model):
    square: Mm(40)  # mm between neighbouring vertices
    grid: str  # one character per vertex, separated by spaces, one line per row
    legend: dict[str, LegendEntry]

    @cached_property
    def rows(self) -> list[list[str]]:
        return text_rows(self.grid)


class Nests(Model):
    length: Count(2, 20, "boxes")  # boxes per row
    abilities: Annotated[list[list[Ability]], Field(max_length=10)]  # per row: the ability after every 2nd box


class Luminaries(Model):
    columns: Count(1, 12, "columns")
    height: Count(2, 12, "boxes")
    abilities: Annotated[list[Ability], Field(max_length=12)]  # per column, unlocked when the column is complete


class FishCounter(Model):
    values: Annotated[list[Count(0, 999, "points")], Field(max_length=20)]  # points for the last marked box
    abilities: dict[str, Ability] = {}  # box number (from 1) -> ability that box unlocks


class SheetLabels(Model):
    level: Label
    start: Label
    map_note: Label
    fish: Label
    light: Label
    star: Label
    island: Label
    patterns: Label
    patterns_note: Label
    nests: Label
    nests_rule: Label
    luminaries: Label
    luminaries_rule: Label
    fish_counter: Label
    crashes: Label
    crashes_rule: Label
    abilities: Label
    plusminus: Label
    diagonal: Label
    yunco: Label
    dice: Label
    dice_rule: Label
    score: Label
    score_nests: Label
    score_luminaries: Label
    score_fish: Label
    score_navigation: Label
    score_crashes: Label
    score_total: Label
    solo: Label
    calibration: Label
    turn: Label
    player: Label
    # the scoring and rules strip at the bottom of the sheet: a few columns, each a heading
    # and its text (wrapped to the column)
    strip: list["StripColumn"] = []


class StripColumn(Model):
    title: Label
    text: Label


SheetLabels.model_rebuild()


class YuncosSheet(Model):
    game: Literal["yuncos"]
    kind: Literal["sheet"]
    title: Label
    level: Literal["easy", "hard"]
    map: MapSpec
    colours: dict[str, Colour]
    nests: Nests
    luminaries: Luminaries
    fish: FishCounter
    patterns: dict[str, Text] = {}  # hard: die face "1".."6" -> unit steps, e.g. "E E N"
    dice_log: Count(1, 60, "turns")  # turns the dice log has room for
    labels: SheetLabels

    @model_validator(mode="after")
    def _check(self):
        rows = self.map.rows
        check_rows(rows, "map.grid", "vertices", lambda ch: ch.isdigit() or ch in self.map.legend,
                   "map.legend (digits are start points)")
        for ch, entry in self.map.legend.items():
            if len(ch) != 1 or ch.isdigit():
                raise FieldError(f"map.legend.{ch}", "legend keys are single non-digit characters")
            if entry.icon == "star":
                if entry.colour not in self.colours:
                    raise FieldError(f"map.legend.{ch}.colour", f"expected one of {sorted(self.colours)} (got {entry.colour!r})")
            elif entry.colour is not None:
                raise FieldError(f"map.legend.{ch}.colour", "only stars have a colour")
        starts = [ch for row in rows for ch in row if ch.isdigit()]
        dupes = sorted({s for s in starts if starts.count(s) > 1})
        if dupes:
            raise FieldError("map.grid", f"start point {dupes[0]} appears more than once")
        if not starts:
            raise FieldError("map.grid", "no start points (digits 1-9 on the island)")
        if self.map.square < 4:
            raise FieldError("map.square", f"expected at least 4 mm (got {self.map.square})")
        span = (max(len(rows), len(rows[0])) - 1) * self.map.square
        if span > PAGE_MM:
            raise FieldError("map.square", f"the map would be {span:.0f} mm across: no page holds it "
                                           f"(at most {PAGE_MM:g} mm)")
        n = self.nests
        if n.length < 2:
            raise FieldError("nests.length", f"expected at least 2 (got {n.length})")
        if len(n.abilities) != 2:
            raise FieldError("nests.abilities", f"expected one list per row, 2 rows (got {len(n.abilities)})")
        for i, row in enumerate(n.abilities):
            if len(row) != n.length // 2:
                raise FieldError(f"nests.abilities[{i}]", f"expected {n.length // 2} abilities, one after every 2nd box (got {len(row)})")
        lum = self.luminaries
        if lum.columns < 1 or lum.height < 2:
            raise FieldError("luminaries", "expected at least 1 column of height 2")
        if len(lum.abilities) != lum.columns:
            raise FieldError("luminaries.abilities", f"expected {lum.columns}, one per column (got {len(lum.abilities)})")
        f = self.fish
        if len(f.values) < 6 or f.values[5] != 12:
            raise FieldError("fish.values", "the 6th box is worth 12 (Y7)")
        if any(b <= a for a, b in zip(f.values, f.values[1:])):
            raise FieldError("fish.values", "expected increasing values")
        for key in f.abilities:
            if not key.isdigit() or not 1 <= int(key) <= len(f.values):
                raise FieldError(f"fish.abilities.{key}", f"expected a box number 1-{len(f.values)}")
        if self.level == "hard":
            if sorted(self.patterns) != [str(k) for k in range(1, 7)]:
                raise FieldError("patterns", "a hard level gives a pattern for each die face \"1\" to \"6\" (Y5)")
            for face, steps in self.patterns.items():
                if not 1 <= len(steps.split()) <= 12 or any(s not in STEPS for s in steps.split()):
                    raise FieldError(f"patterns.{face}", f"expected 1 to 12 unit steps N, E, S, W separated by spaces (got {steps!r})")
        elif self.patterns:
            raise FieldError("patterns", "only hard levels have flight patterns (Y4, Y5)")
        if self.dice_log < 1:
            raise FieldError("dice_log", "expected at least 1 turn")
        return self

    @cached_property
    def board(self) -> Board:
        legend = {ch: e.model_dump() for ch, e in self.map.legend.items()}
        return Board.parse(self.map.rows, legend)

    def pattern(self, face: int) -> list[tuple[int, int]]:
        return [STEPS[s] for s in self.patterns[str(face)].split()]

    def fish_ability(self, box: int) -> str | None:
        """The ability unlocked by marking fish box `box` (from 1)."""
        return self.fish.abilities.get(str(box))


class YuncosDuplex(Model):
    """Both levels on one sheet of paper: Easy on the front, Hard on the back."""

    game: Literal["yuncos"]
    kind: Literal["duplex"]
    title: Label
    front: Text  # layout id of a sheet level
    back: Text
