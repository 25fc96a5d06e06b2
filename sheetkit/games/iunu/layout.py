"""IUNU layouts: the score pad (`kind = "score-pad"`)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from sheetkit.messages import msg
from sheetkit.errors import FieldError
from sheetkit.schema import Label, Mm, Model, Text, check_score_table


class PadCaste(Model):
    key: Text  # the caste's key in deck descriptions and records
    name: Label  # an empty name prints a line to write the caste's name on


class PadLabels(Model):
    player: Label
    date: Label
    citizens: Label
    citizens_note: Label
    majorities: Label
    deck_box: Label
    bread: Label
    bread_note: Label
    deben: Label
    deben_third: Label
    total: Label
    winner: Label
    winner_note: Label
    write_caste: Label
    footer: Label


class ScorePad(Model):
    game: Literal["iunu"]
    kind: Literal["score-pad"]
    title: Label
    players: int  # player columns
    box: Mm(30)  # mm, side of a digit box
    row: Mm(40)  # mm, height of a table row
    castes: Annotated[list[PadCaste], Field(max_length=12)]
    labels: PadLabels

    @model_validator(mode="after")
    def _check(self):
        check_score_table(self.players, self.box, self.row)
        keys = [c.key for c in self.castes]
        for i, k in enumerate(keys):
            if k in keys[:i]:
                raise FieldError(f"castes[{i}].key", msg("error.layout.twice", item=repr(k)))
        return self
