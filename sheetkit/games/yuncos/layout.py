"""Yuncos layouts: the schema of a sheet level (`kind = "sheet"`), of the two-sided sheet
(`kind = "duplex"`), and the Board read from a sheet's text map.

Map coordinates: a vertex is (column, row), (0, 0) at the top-left; on paper and in
messages it is written as a column letter and a row number from 1, e.g. "C7".
"""

from __future__ import annotations

from functools import cached_property
from typing import Annotated, Literal

from pydantic import Field, model_validator

from sheetkit.messages import msg
from sheetkit.errors import FieldError
from sheetkit.games.yuncos.board import Board
from sheetkit.games.yuncos.notation import ABILITIES, STEPS, vertex_name  # noqa: F401 (compose, lint and the player take them from here)
from sheetkit.grid import check_rows, text_rows
from sheetkit.schema import PAGE_MM, Count, Label, Mm, Model, Text

Ability = Literal["plusminus", "diagonal", "yunco"]  # notation.ABILITIES
HEX = r"^#[0-9a-fA-F]{6}$"


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
            raise FieldError("letter", msg("error.layout.one_char", got=repr(self.letter)))
        if not re.match(HEX, self.ink):
            raise FieldError("ink", msg("error.layout.colour", got=repr(self.ink)))
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
                   "map_legend")
        for ch, entry in self.map.legend.items():
            if len(ch) != 1 or ch.isdigit():
                raise FieldError(f"map.legend.{ch}", msg("error.layout.yuncos_legend_key"))
            if entry.icon == "star":
                if entry.colour not in self.colours:
                    raise FieldError(f"map.legend.{ch}.colour", msg("error.layout.one_of", kinds=str(sorted(self.colours)), got=repr(entry.colour)))
            elif entry.colour is not None:
                raise FieldError(f"map.legend.{ch}.colour", msg("error.layout.star_colour"))
        starts = [ch for row in rows for ch in row if ch.isdigit()]
        dupes = sorted({s for s in starts if starts.count(s) > 1})
        if dupes:
            raise FieldError("map.grid", msg("error.layout.start_twice", start=dupes[0]))
        if not starts:
            raise FieldError("map.grid", msg("error.layout.no_starts"))
        if self.map.square < 4:
            raise FieldError("map.square", msg("error.layout.least_mm", least=4, got=self.map.square))
        span = (max(len(rows), len(rows[0])) - 1) * self.map.square
        if span > PAGE_MM:
            raise FieldError("map.square", msg("error.layout.map_span", span=f"{span:.0f}", most=f"{PAGE_MM:g}"))
        n = self.nests
        if n.length < 2:
            raise FieldError("nests.length", msg("error.layout.least", least=2, got=n.length))
        if len(n.abilities) != 2:
            raise FieldError("nests.abilities", msg("error.layout.nest_ability_rows", got=len(n.abilities)))
        for i, row in enumerate(n.abilities):
            if len(row) != n.length // 2:
                raise FieldError(f"nests.abilities[{i}]", msg("error.layout.nest_abilities", n=n.length // 2, got=len(row)))
        lum = self.luminaries
        if lum.columns < 1 or lum.height < 2:
            raise FieldError("luminaries", msg("error.layout.lum_size"))
        if len(lum.abilities) != lum.columns:
            raise FieldError("luminaries.abilities", msg("error.layout.lum_abilities", n=lum.columns, got=len(lum.abilities)))
        f = self.fish
        if len(f.values) < 6 or f.values[5] != 12:
            raise FieldError("fish.values", msg("error.layout.fish_sixth"))
        if any(b <= a for a, b in zip(f.values, f.values[1:])):
            raise FieldError("fish.values", msg("error.layout.increasing"))
        for key in f.abilities:
            if not key.isdigit() or not 1 <= int(key) <= len(f.values):
                raise FieldError(f"fish.abilities.{key}", msg("error.layout.fish_box", n=len(f.values)))
        if self.level == "hard":
            if sorted(self.patterns) != [str(k) for k in range(1, 7)]:
                raise FieldError("patterns", msg("error.layout.patterns"))
            for face, steps in self.patterns.items():
                if not 1 <= len(steps.split()) <= 12 or any(s not in STEPS for s in steps.split()):
                    raise FieldError(f"patterns.{face}", msg("error.layout.pattern_steps", got=repr(steps)))
        elif self.patterns:
            raise FieldError("patterns", msg("error.layout.no_patterns"))
        if self.dice_log < 1:
            raise FieldError("dice_log", msg("error.layout.one_turn"))
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
