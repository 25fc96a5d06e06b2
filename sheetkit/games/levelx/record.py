"""Level X records (formats in docs/levelx.md).

Two kinds:
- `kind = "final"`: the final position, chips and bonus tiles per player.
- `kind = "game"`: the whole game turn by turn, the four dice and how they were grouped,
  replayed with the rules.

Players are listed in turn order; the first one is the first player, whose score carries
"(1)" (L8).
"""

from __future__ import annotations

from typing import Literal, Union

from pydantic import field_validator, model_validator

from sheetkit.checking.messages import msg
from sheetkit.errors import FieldError, UserError
from sheetkit.games.levelx.rules import DICE, ROWS

from sheetkit.schema import Model, Text, check_players, counts_table, validate


def _check_players(names: list[str], field: str) -> None:
    check_players("Level X", names, field, ("", lambda name: name))


class _WithQR(Model):
    qr: str | None = None  # the text of the score pad's QR code, if the pad had one

    @property
    def sheet(self):
        return None  # copied from the score pad, named by the game (PAD)


class FinalPlayer(Model):
    name: Text
    chips: dict[str, int] = {}  # chip value "5".."10" -> how many
    bonuses: list[int] = []  # bonus tiles held, e.g. [15, 6]

    @field_validator("chips", mode="before")
    @classmethod
    def _chips_table(cls, v):
        return counts_table(v, msg("error.levelx.chips_each"), '{ "5" = 2, "7" = 1 }')

    @model_validator(mode="after")
    def _check(self):
        for key, n in self.chips.items():
            if key not in {str(r) for r in ROWS}:
                raise FieldError(f"chips.{key}", msg("error.levelx.chip_keys"))
            if n < 0:
                raise FieldError(f"chips.{key}", msg("error.zero_or_more", got=n))
        return self

    def chip_counts(self) -> dict[int, int]:
        return {r: self.chips.get(str(r), 0) for r in ROWS}


class FinalRecord(_WithQR):
    game: Literal["levelx"]
    kind: Literal["final"]
    player: list[FinalPlayer]  # [[player]] tables in turn order; the first is the first player

    @model_validator(mode="after")
    def _check(self):
        _check_players([p.name for p in self.player], "player")
        return self


class Turn(Model):
    player: str | None = None  # optional: who played (checked against the turn order)
    dice: list[int]  # the four dice rolled
    groups: list[list[int]]  # how they were grouped, e.g. [[3, 4], [5], [2]]
    chips: list[int] | None = None  # optional: the chips taken this turn, as seen at the table
    bonuses: list[int] | None = None  # optional: the bonus tiles taken this turn

    @field_validator("groups", mode="before")
    @classmethod
    def _groups_are_lists(cls, v):
        if isinstance(v, list) and any(not isinstance(g, list) for g in v):
            raise FieldError("", msg("error.levelx.group_list", got=repr(v)))
        return v

    @field_validator("player", mode="before")
    @classmethod
    def _blank_player(cls, v):
        # the template prints `player = ""` (optional): left empty, it is not given
        return None if isinstance(v, str) and not v.strip() else v

    @model_validator(mode="after")
    def _check(self):
        if len(self.dice) != DICE:
            raise FieldError("dice", msg("error.levelx.dice_count", n=DICE, got=len(self.dice)))
        for i, d in enumerate(self.dice):
            if not 1 <= d <= 6:
                raise FieldError(f"dice[{i}]", msg("error.levelx.die", got=d))
        if not self.groups:
            raise FieldError("groups", msg("error.levelx.no_group"))
        for i, g in enumerate(self.groups):
            if not g:
                raise FieldError(f"groups[{i}]", msg("error.levelx.empty_group"))
            for j, d in enumerate(g):
                if not 1 <= d <= 6:
                    raise FieldError(f"groups[{i}][{j}]", msg("error.levelx.die", got=d))
        for i, c in enumerate(self.chips or []):
            if c not in ROWS:
                raise FieldError(f"chips[{i}]", msg("error.levelx.chip_value", got=c))
        return self


class GameRecord(_WithQR):
    game: Literal["levelx"]
    kind: Literal["game"]
    players: list[Text]  # in turn order; the first is the first player
    turn: list[Turn] = []  # [[turn]] tables, in the order played
    in_progress: bool = False  # the game is still being played: no end-of-game findings (L8)

    @model_validator(mode="after")
    def _check(self):
        _check_players(self.players, "players")
        for i, t in enumerate(self.turn):
            if t.player is not None and t.player not in self.players:
                raise FieldError(f"turn[{i}].player", msg("error.levelx.not_a_player", name=repr(t.player), players=self.players))
        return self


Record = Union[FinalRecord, GameRecord]
KINDS = {"final": FinalRecord, "game": GameRecord}
LINE = '"Ana: 3+4 5 2"'
LINE_EXAMPLE = msg("error.levelx.line_example", line=LINE)


def turn_from_line(text, players, field: str) -> dict:
    """One turn in the one-line notation, `"Ana: 3+4 5+6"` (the player is optional: `"3+4
    5+6"`), as the [[turn]] table it stands for: the dice are those of the groups."""
    if not isinstance(text, str):
        raise FieldError(field, msg("error.levelx.line_per_turn", example=LINE_EXAMPLE, got=repr(text)))
    who, colon, play = text.rpartition(":")
    who = who.strip() if colon else None
    if who is not None and isinstance(players, list) and who not in players:
        raise FieldError(field, msg("error.levelx.not_a_player", name=repr(who), players=repr(players)))
    groups = []
    for word in play.split():
        dice = word.split("+")
        if not all(d.strip().isdigit() and len(d.strip()) == 1 for d in dice):
            raise FieldError(field, msg("error.levelx.not_a_group", word=repr(word), example=LINE_EXAMPLE))
        groups.append([int(d) for d in dice])
    dice = [d for g in groups for d in g]
    if len(dice) != DICE or not all(1 <= d <= 6 for d in dice):
        raise FieldError(field, msg("error.levelx.line_dice", n=DICE, example=LINE_EXAMPLE, got=repr(text)))
    return {"player": who or None, "dice": dice, "groups": groups}


def _turn_lines(data: dict, source: str) -> dict:
    """A game written in the one-line notation, `turns = ["Ana: 3+4 5+6", ...]`, as the same
    game in [[turn]] tables."""
    if "turn" in data:
        raise UserError(msg("error.levelx.turns_both"), source=source, field="turns")
    lines = data["turns"]
    if not isinstance(lines, list):
        raise UserError(msg("error.levelx.turn_lines", line=LINE), source=source, field="turns")
    try:
        turns = [turn_from_line(t, data.get("players"), f"turns[{i}]") for i, t in enumerate(lines)]
    except FieldError as e:
        raise UserError(e.message, source=source, field=e.field) from None
    return {**{k: v for k, v in data.items() if k != "turns"}, "turn": turns}


def read_record(data: dict, source: str) -> Record:
    kind = data.get("kind")
    if kind is None:
        raise UserError(msg("error.levelx.no_kind"), source=source, field="kind")
    if kind not in KINDS:
        raise UserError(msg("error.expected_one_of", kinds=", ".join(KINDS), got=repr(kind)), source=source, field="kind")
    if kind == "final" and "players" in data and "player" not in data:
        raise UserError(msg("error.levelx.final_players"), source=source, field="players")
    if kind == "final" and "in_progress" in data:
        raise UserError(msg("error.levelx.final_in_progress"), source=source, field="in_progress")
    if kind == "game" and "player" in data and "players" not in data:
        raise UserError(msg("error.levelx.game_player"), source=source, field="player")
    if kind == "game" and "turns" in data:
        data = _turn_lines(data, source)
    return validate(KINDS[kind], data, source)
