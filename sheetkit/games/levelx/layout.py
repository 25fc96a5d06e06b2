"""Level X layouts: the board (`kind = "board"`) and the score pad (`kind = "score-pad"`).

The board's rows, stacks and bonus tiles are data in the layout file; `sheetkit lint`
compares them with L1-L3.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from sheetkit.messages import msg
from sheetkit.errors import FieldError
from sheetkit.schema import Count, Label, Mm, Model, check_score_table


class BoardRow(Model):
    number: Count(1, 99, "as the row's total")  # the row's total, 5-10; also the value of its chips
    squares: Count(1, 20, "squares")  # squares in the row, the last one is X
    chips: Count(1, 50, "chips")  # chips in the stack with 4 players


class BoardLabels(Model):
    start: Label
    chips: Label
    fewer_players: Label  # "with 2-3 players: ..." ({n} is the smaller count)
    bonus: Label
    bonus_note: Label
    rules: Annotated[list[Label], Field(max_length=12)]  # a short reminder printed under the board


class Board(Model):
    game: Literal["levelx"]
    kind: Literal["board"]
    title: Label
    square: Mm(40)  # mm, side of a square: real pawns and chips must fit
    start: Mm(120)  # mm, the smallest start area before a row's first square
    rows: Annotated[list[BoardRow], Field(max_length=12)]
    bonuses: Annotated[list[Count(0, 999, "points")], Field(max_length=20)]
    labels: BoardLabels

    @model_validator(mode="after")
    def _check(self):
        if self.square < 15:
            raise FieldError("square", msg("error.layout.pawns", got=self.square))
        if self.start < self.square:
            raise FieldError("start", msg("error.layout.one_square", mm=self.square, got=self.start))
        if not self.rows:
            raise FieldError("rows", msg("error.layout.no_rows"))
        for i, r in enumerate(self.rows):
            if r.squares < 1 or r.chips < 1:
                raise FieldError(f"rows[{i}]", msg("error.layout.square_chip"))
        return self


class PadLabels(Model):
    game: Label
    player: Label
    chips: Label
    bonuses: Label
    bonuses_note: Label
    total: Label
    first: Label
    first_note: Label
    footer: Label


class ScorePad(Model):
    game: Literal["levelx"]
    kind: Literal["score-pad"]
    title: Label
    players: int  # player columns
    games: int  # games per page
    box: Mm(30)  # mm, side of a digit box (at least 7)
    row: Mm(40)  # mm, height of a table row
    labels: PadLabels

    @model_validator(mode="after")
    def _check(self):
        check_score_table(self.players, self.box, self.row)
        if not 1 <= self.games <= 3:
            raise FieldError("games", msg("error.layout.games", got=self.games))
        return self
