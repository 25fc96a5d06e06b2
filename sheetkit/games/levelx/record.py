"""Level X records (formats in docs/levelx.md).

Two kinds:
- `kind = "final"`: the final position, chips and bonus tiles per player.
- `kind = "game"`: the whole game turn by turn, the four dice and how they were grouped,
  replayed with the rules.

Players are listed in turn order; the first one is the first player, whose score carries
"(1)" (L8).
"""

from __future__ import annotations

from typing import Any, Literal, Union

from pydantic import PrivateAttr, ValidationError, field_validator, model_validator

from sheetkit.messages import msg
from sheetkit.errors import FieldError, UserError
from sheetkit.games.levelx.rules import BONUSES, DICE, ROWS, supply

from sheetkit.memo import Memo, data_unchanged
from sheetkit.schema import Model, Text, check_players, counts_table, kept_model, validate


def _check_players(names: list[str], field: str) -> None:
    check_players("Level X", names, field, ("", lambda name: name))


def _tiles_check(tiles: list, field: str) -> None:
    """L3: the game has four bonus tiles; who lists more holds tiles that do not exist."""
    if len(tiles) > len(BONUSES):
        raise FieldError(field, msg("error.levelx.too_many_tiles", n=len(tiles), tiles=len(BONUSES)))


def longest_game(players: int, squares: dict[int, int]) -> tuple[int, dict]:
    """The most turns sheetkit takes a game of Level X for `players` to last, and the
    numbers of the message that says why. The rules set no hard bound: a roll of four 1s
    moves nothing (L4), a pawn on X can be sent back to the start (L5), and the dice may
    be split so that nothing moves. But a game ends once 3 rows are out of chips (L8), and
    a table that plays at all walks its pawns to X and takes chips: every pawn has the
    board's squares to walk (L1: the board the record names; 27 on the shipped board) and
    the supply holds 51 or 57 chips. Four turns are allowed for each of those steps and
    chips: on the shipped board 420 turns for 2 players, 528 for 3, 660 for 4. The longest
    of 200 simulated games of random dice splits (sheetkit.games.levelx.play, greedy=0)
    took 1.5 turns a step or chip (156 turns for 2 players, 268 for 4), a game played with
    any sense about one. A record longer than that is no transcription of a game, and is
    refused (exit 2) before its turns are read."""
    steps, chips = players * sum(squares.values()), sum(supply(players).values())
    return 4 * (steps + chips), {"steps": steps, "chips": chips}


def _length_check(data: dict, source: str, squares: dict[int, int]) -> None:
    """A game record's turns (tables or lines) against `longest_game` on the board the
    record names (`squares`: its rows' lengths); a player list that is not 2-4 names is
    judged by the longest game there is, and reported by validate."""
    field = "turns" if "turns" in data else "turn"
    turns, names = data.get(field), data.get("players")
    if not isinstance(turns, list):
        return
    players = len(names) if isinstance(names, list) and 2 <= len(names) <= 4 else 4
    most, why = longest_game(players, squares)
    if len(turns) > most:
        raise UserError(msg("error.levelx.game_too_long", n=len(turns), players=players, most=most, **why),
                        source=source, field=field)


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
        _tiles_check(self.bonuses, "bonuses")
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
        # L4: four dice make at most four groups of at most four; a group wrongly written is
        # a finding (L4), but no turn of the game has more than that to write
        if len(self.groups) > DICE:
            raise FieldError("groups", msg("error.levelx.too_many_groups", n=len(self.groups), dice=DICE))
        for i, g in enumerate(self.groups):
            if len(g) > DICE:
                raise FieldError(f"groups[{i}]", msg("error.levelx.group_too_big", n=len(g), dice=DICE))
        if self.chips is not None and len(self.chips) > DICE:  # L6: one chip a group at most
            raise FieldError("chips", msg("error.levelx.too_many_chips", n=len(self.chips), dice=DICE))
        _tiles_check(self.bonuses or [], "bonuses")
        return self


class GameRecord(_WithQR):
    game: Literal["levelx"]
    kind: Literal["game"]
    players: list[Text]  # in turn order; the first is the first player
    turn: list[Turn] = []  # [[turn]] tables, in the order played
    in_progress: bool = False  # the game is still being played: no end-of-game findings (L8)
    # the board played on (L1): a shipped layout id, or a designer's board layout file (a path
    # beside the record, or as given); its rows' lengths are the ones the rules play with
    board: str = "levelx-board"
    _board: Any = PrivateAttr(default=None)  # its layout (layout.Board), set by read_record

    @property
    def board_spec(self):
        """The board layout the record names (read by read_record; read here otherwise)."""
        if self._board is None:
            from sheetkit.games.levelx.board import named

            self._board = named(self.board, "record")
        return self._board

    @model_validator(mode="after")
    def _check(self):
        _check_players(self.players, "players")
        i = _stranger(self.players, self.turn)
        if i is not None:
            t = self.turn[i]
            raise FieldError(f"turn[{i}].player", msg("error.levelx.not_a_player", name=repr(t.player), players=self.players))
        return self


def _stranger(players, turns) -> int | None:
    """The first turn played by someone who is not a player of the game, if any."""
    return next((i for i, t in enumerate(turns) if t.player is not None and t.player not in players), None)


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
        # one ASCII digit each: "²" and "⑤" are digits to str.isdigit() but not to int()
        if not all(len(d.strip()) == 1 and d.strip() in "0123456789" for d in dice):
            raise FieldError(field, msg("error.levelx.not_a_group", word=repr(word), example=LINE_EXAMPLE))
        groups.append([int(d) for d in dice])
        face = next((int(d) for d in dice if not 1 <= int(d) <= 6), None)
        if face is not None:  # say which die, where: the count below could only say "expected 1 to 6"
            raise FieldError(field, msg("error.levelx.line_face", die=face, word=repr(word), group=len(groups)))
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


_TURN_LISTS = Memo(256)  # a record's very turn tables -> their Turns


def _turns_read(turns: list) -> tuple[Turn, ...]:
    """Each turn table validated (kept_model), the list kept by the very tables: made from
    the one of all of them but the last when there is one (the record before the move)."""
    got = _TURN_LISTS.get(None, turns)
    if got is None:
        before = _TURN_LISTS.get(None, turns[:-1])
        got = before + (kept_model(Turn, turns[-1]),) if before is not None else tuple(kept_model(Turn, t) for t in turns)
        _TURN_LISTS.put(None, turns, got)
    return got


def _game_read(data: dict, source: str) -> GameRecord | None:
    """A game record validated with its turns kept by their very tables, where those are
    never changed (memo.unchanged_data: a play's record on the page shares all its turns but
    the last with the record before its move), so that a move validates the turn it added.
    (Kept by their values instead, turns cost more than pydantic's own validation.) Pydantic
    runs a validated turn's checks again when it validates a record: the record is validated
    with its first turn, and given the others after, whose players its own check would
    look at (_stranger). None when that cannot be done: for the record's own validation to
    say what is wrong, as always."""
    turns = data.get("turn")
    if not data_unchanged() or not isinstance(turns, list) or len(turns) < 2:
        return None
    try:
        read = list(_turns_read(turns))
    except (ValidationError, ValueError):
        return None
    try:
        record = validate(GameRecord, {**data, "turn": read[:1]}, source)
    except UserError:
        return None
    if _stranger(record.players, read) is not None:
        return None
    return record.model_copy(update={"turn": read})


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
    board = None
    if kind == "game":
        from sheetkit.games.levelx.board import BOARD, named, squares

        board = named(data.get("board", BOARD), source)  # L1: the lengths of the rows played on
        _length_check(data, source, squares(board))
    if kind == "game" and "turns" in data:
        data = _turn_lines(data, source)
    record = (_game_read(data, source) if kind == "game" else None) or validate(KINDS[kind], data, source)
    if board is not None:
        record._board = board
    return record
