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
        return counts_table(v, "chips of each value", '{ "5" = 2, "7" = 1 }')

    @model_validator(mode="after")
    def _check(self):
        for key, n in self.chips.items():
            if key not in {str(r) for r in ROWS}:
                raise FieldError(f"chips.{key}", "chip values are \"5\" to \"10\"")
            if n < 0:
                raise FieldError(f"chips.{key}", f"expected 0 or more (got {n})")
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
            raise FieldError("", f"each group is a list of the dice in it, e.g. [[3, 4], [5], [2]] "
                                 f"for 7, 5 and 2 (got {v!r})")
        return v

    @field_validator("player", mode="before")
    @classmethod
    def _blank_player(cls, v):
        # the template prints `player = ""` (optional): left empty, it is not given
        return None if isinstance(v, str) and not v.strip() else v

    @model_validator(mode="after")
    def _check(self):
        if len(self.dice) != DICE:
            raise FieldError("dice", f"expected {DICE} dice (got {len(self.dice)})")
        for i, d in enumerate(self.dice):
            if not 1 <= d <= 6:
                raise FieldError(f"dice[{i}]", f"a die shows 1 to 6 (got {d})")
        if not self.groups:
            raise FieldError("groups", "expected at least one group of dice, e.g. [[3, 4], [5, 2]]")
        for i, g in enumerate(self.groups):
            if not g:
                raise FieldError(f"groups[{i}]", "an empty group; every group holds at least one die")
            for j, d in enumerate(g):
                if not 1 <= d <= 6:
                    raise FieldError(f"groups[{i}][{j}]", f"a die shows 1 to 6 (got {d})")
        for i, c in enumerate(self.chips or []):
            if c not in ROWS:
                raise FieldError(f"chips[{i}]", f"chip values are 5 to 10 (got {c})")
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
                raise FieldError(f"turn[{i}].player", f"{t.player!r} is not one of players {self.players}")
        return self


Record = Union[FinalRecord, GameRecord]
KINDS = {"final": FinalRecord, "game": GameRecord}
LINE_EXAMPLE = '"Ana: 3+4 5 2" (the player, then the four dice as grouped: 3+4 is one group)'


def turn_from_line(text, players, field: str) -> dict:
    """One turn in the one-line notation, `"Ana: 3+4 5+6"` (the player is optional: `"3+4
    5+6"`), as the [[turn]] table it stands for: the dice are those of the groups."""
    if not isinstance(text, str):
        raise FieldError(field, f"expected one line per turn, e.g. {LINE_EXAMPLE} (got {text!r})")
    who, colon, play = text.rpartition(":")
    who = who.strip() if colon else None
    if who is not None and isinstance(players, list) and who not in players:
        raise FieldError(field, f"{who!r} is not one of players {players}")
    groups = []
    for word in play.split():
        dice = word.split("+")
        if not all(d.strip().isdigit() and len(d.strip()) == 1 for d in dice):
            raise FieldError(field, f"{word!r} is not a group of dice: expected e.g. {LINE_EXAMPLE}")
        groups.append([int(d) for d in dice])
    dice = [d for g in groups for d in g]
    if len(dice) != DICE or not all(1 <= d <= 6 for d in dice):
        raise FieldError(field, f"expected the {DICE} dice rolled, each 1 to 6, as grouped, e.g. "
                                f"{LINE_EXAMPLE} (got {text!r})")
    return {"player": who or None, "dice": dice, "groups": groups}


def _turn_lines(data: dict, source: str) -> dict:
    """A game written in the one-line notation, `turns = ["Ana: 3+4 5+6", ...]`, as the same
    game in [[turn]] tables."""
    if "turn" in data:
        raise UserError("a game gives its turns either as [[turn]] tables or as turns = [...] lines, "
                        "not both", source=source, field="turns")
    lines = data["turns"]
    if not isinstance(lines, list):
        raise UserError(f"expected a list of lines, one per turn, e.g. [{LINE_EXAMPLE.split(' (')[0]}]",
                        source=source, field="turns")
    try:
        turns = [turn_from_line(t, data.get("players"), f"turns[{i}]") for i, t in enumerate(lines)]
    except FieldError as e:
        raise UserError(e.message, source=source, field=e.field) from None
    return {**{k: v for k, v in data.items() if k != "turns"}, "turn": turns}


def read_record(data: dict, source: str) -> Record:
    kind = data.get("kind")
    if kind is None:
        raise UserError('missing: kind = "game" (the whole game, turn by turn) or kind = "final" '
                        "(the final position)", source=source, field="kind")
    if kind not in KINDS:
        raise UserError(f"expected one of: {', '.join(KINDS)} (got {kind!r})", source=source, field="kind")
    if kind == "final" and "players" in data and "player" not in data:
        raise UserError("a final position has one [[player]] table per player (name, chips, bonuses); "
                        "players = [...] is for kind = \"game\"", source=source, field="players")
    if kind == "final" and "in_progress" in data:
        raise UserError("a final position is the end of a game; a game still being played is "
                        'recorded turn by turn (kind = "game")', source=source, field="in_progress")
    if kind == "game" and "player" in data and "players" not in data:
        raise UserError('a game record names the players in turn order, players = ["Ana", "Ben"]; '
                        '[[player]] tables are for kind = "final"', source=source, field="player")
    if kind == "game" and "turns" in data:
        data = _turn_lines(data, source)
    return validate(KINDS[kind], data, source)
