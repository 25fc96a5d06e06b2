"""Yuncos records: the TOML transcription of a filled sheet (docs/yuncos-records.md).

Two stages: the pydantic models check the shape of the file (types, unknown keys, step
letters, cell names); `load_record` then checks it against its layout (the start point,
the cells and ability boxes exist on that sheet) and returns a `Record` with everything
parsed, ready for `rules.check`. Turns are numbered from 1 in messages: `turn[4]` is the
fourth `[[turn]]` table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator, model_validator

from sheetkit import layouts
from sheetkit.messages import msg, or_list
from sheetkit.errors import FieldError, UserError
from sheetkit.games.yuncos.layout import ABILITIES, STEPS, vertex_name
from sheetkit.games.yuncos.scoring import CRASH_TRACK
from sheetkit.grid import parse_square
from sheetkit.schema import Model, validation_message

DIAGONALS = {"NE": (1, -1), "NW": (-1, -1), "SE": (1, 1), "SW": (-1, 1)}
ALL_STEPS = {**STEPS, **DIAGONALS}
STEP_NAMES = {v: k for k, v in ALL_STEPS.items()}

# ASCII digits only, and few of them: a box number is small, and int() of a few thousand
# digits raises instead of answering.
_COUNTED = re.compile(r"^([0-9]+)([NESW])$")
_CELL = re.compile(r"^(nest|lum)([0-9]{1,3})(?:\.([0-9]{1,3}))?$")
_BOX = re.compile(r"^(?:nest([0-9]{1,3})\.([0-9]{1,3})|lum([0-9]{1,3})|fish([0-9]{1,3}))$")


def parse_flight(text: str) -> list[tuple[int, int]]:
    """Steps from a flight string. Tokens are separated by spaces or commas; a token
    NE/NW/SE/SW is one diagonal step; `3E` is three E steps; any other token is a run of
    unit steps, one per letter ("EEN" = E E N). Letters may be lower case."""
    steps: list[tuple[int, int]] = []
    for token in re.split(r"[\s,]+", text.strip()):
        if not token:
            continue
        if not token.isascii():  # upper() would turn "ß" into "SS": two steps nobody drew
            ch = next(c for c in token if not c.isascii())
            raise FieldError("flight", msg("error.yuncos.bad_step", ch=repr(ch)))
        token = token.upper()
        if token in DIAGONALS:
            steps.append(DIAGONALS[token])
            continue
        m = _COUNTED.match(token)
        if m:
            n = int(m.group(1)) if len(m.group(1)) <= 3 else 0
            if not 1 <= n <= 12:
                raise FieldError("flight", msg("error.yuncos.repeat_count", token=repr(token)))
            steps.extend([STEPS[m.group(2)]] * n)
            continue
        if token.isdigit():
            raise FieldError("flight", msg("error.yuncos.count_alone", token=repr(token), example=f"{token}E"))
        for ch in token:
            if ch not in STEPS:
                raise FieldError("flight", msg("error.yuncos.bad_step_o" if ch == "O" else "error.yuncos.bad_step",
                                               ch=repr(ch)))
            steps.append(STEPS[ch])
    if not steps:
        raise FieldError("flight", msg("error.yuncos.empty_flight"))
    if len(steps) > MOST_STEPS:
        raise FieldError("flight", msg("error.yuncos.flight_too_long", n=len(steps), most=MOST_STEPS))
    return steps


# A die flies at most 6 unit steps (Y4, Y5); a longer flight is a finding, but eight times
# that is no flight a die drew on a sheet, and drawing it would cost the checked sheet more
# than the whole game.
MOST_STEPS = 6 * 8


def other_readings(text: str) -> tuple[tuple[str, tuple[tuple[int, int], ...]], ...]:
    """The flight as it could have been meant, one token read the other way: a diagonal
    "NE" as the two steps "N E", two steps "N E" as the diagonal "NE", a run "NEE" as "NE E"
    or "EEN"... as "E EN" is not a diagonal (only NE, NW, SE, SW are). Each reading comes
    with the words that say it; the record's own reading stays the one that counts."""
    tokens = [t.upper() for t in re.split(r"[\s,]+", text.strip()) if t]
    out = []

    def alt(new_tokens: list[str], words: str) -> None:
        try:
            steps = tuple(parse_flight(" ".join(new_tokens)))
        except FieldError:
            return
        out.append((words, steps))

    for i, tok in enumerate(tokens):
        if tok in DIAGONALS:
            alt(tokens[:i] + list(tok) + tokens[i + 1:], f'"{tok}" is one diagonal step; if the two steps '
                f'"{tok[0]} {tok[1]}" were meant')
        elif len(tok) > 2 and tok.isalpha():
            if tok[:2] in DIAGONALS:
                alt(tokens[:i] + [tok[:2], tok[2:]] + tokens[i + 1:], f'"{tok}" is {len(tok)} unit steps; if the '
                    f'diagonal "{tok[:2]} {tok[2:]}" was meant')
            if tok[-2:] in DIAGONALS:
                alt(tokens[:i] + [tok[:-2], tok[-2:]] + tokens[i + 1:], f'"{tok}" is {len(tok)} unit steps; if '
                    f'"{tok[:-2]} {tok[-2:]}" with a diagonal was meant')
        if i + 1 < len(tokens) and tok + tokens[i + 1] in DIAGONALS and len(tok) == 1:
            alt(tokens[:i] + [tok + tokens[i + 1]] + tokens[i + 2:], f'"{tok} {tokens[i + 1]}" is two unit steps; '
                f'if the diagonal "{tok}{tokens[i + 1]}" was meant')
    return tuple(out)


def _name(value: Any) -> Any:
    """A box or ability name as a player may write it ("Nest1", " lum 2.1", "Yunco"): no
    spaces, lower case. Anything not a string is left for the type check."""
    return re.sub(r"\s+", "", value).lower() if isinstance(value, str) else value


def _names(value: Any) -> Any:
    return [_name(v) for v in value] if isinstance(value, list) else value


# Ability boxes by names no one takes for a number box: nest1.ability2 is nest row 1's 2nd
# ability box (the short name nest1.2 is also the row's 2nd number box in `puzzle`);
# lum3.ability and fish2.ability likewise. The short names stay readable.
_LONG_BOX = [(re.compile(r"^(nest[0-9]{1,3})\.?ability([0-9]{1,3})$"), r"\1.\2"),
             (re.compile(r"^((?:lum|fish)[0-9]{1,3})\.?ability$"), r"\1")]


def box_name(name: Any) -> Any:
    """The short id of an ability box written either way ("nest1.ability2" -> "nest1.2")."""
    if isinstance(name, str):
        for pattern, short in _LONG_BOX:
            if pattern.match(name):
                return pattern.sub(short, name)
    return name


def _box_names(value: Any) -> Any:
    value = _names(value)
    return [box_name(v) for v in value] if isinstance(value, list) else value


def short_nest_names(data: dict[str, Any]) -> frozenset[str]:
    """The nest ability boxes a record names by their short name (nest1.2), which reads as a
    number box too: a fault about one of them says both readings."""
    out = set()
    lists = [data.get("used")] + [t.get("use") for t in data.get("turn") or [] if isinstance(t, dict)]
    for names in lists:
        for n in _names(names) if isinstance(names, list) else []:
            if isinstance(n, str) and re.match(r"^nest[0-9]{1,3}\.[0-9]{1,3}$", n):
                out.add(n)
    return frozenset(out)


def flight_text(steps: list[tuple[int, int]]) -> str:
    return " ".join(STEP_NAMES[s] for s in steps)


class WrittenScore(Model):
    """The score boxes as written on the sheet; every one is optional."""

    nests: int | None = None
    luminaries: int | None = None
    fish: int | None = None
    navigation: int | None = None
    crashes: int | None = None
    total: int | None = None


class TurnModel(Model):
    flight: str
    puzzle: str | None = None
    value: int | None = None
    crash: bool = False
    dice: list[int] | None = None
    use: list[str] = []
    start_at: str | None = Field(default=None, alias="from")
    note: str | None = None

    _puzzle = field_validator("puzzle", mode="before")(_name)
    _use = field_validator("use", mode="before")(_box_names)

    @field_validator("dice", mode="before")
    @classmethod
    def _dice_list(cls, value):
        if value is not None and not isinstance(value, list):  # dice = 5, dice = "3 5"
            raise FieldError("", msg("error.yuncos.dice_list", got=repr(value)))
        return value

    @model_validator(mode="after")
    def _check(self):
        parse_flight(self.flight)
        if self.crash:
            if self.puzzle is not None or self.value is not None:
                raise FieldError("crash", msg("error.yuncos.crash_and_puzzle"))
        else:
            if self.puzzle is None:
                raise FieldError("puzzle", msg("error.yuncos.no_puzzle"))
            if self.value is None:
                raise FieldError("value", msg("error.yuncos.no_value"))
        if self.puzzle is not None and not _CELL.match(self.puzzle):
            raise FieldError("puzzle", msg("error.yuncos.puzzle_name", got=repr(self.puzzle)))
        if self.value is not None and not 1 <= self.value <= 6:
            raise FieldError("value", msg("error.yuncos.die_value", got=self.value))
        if self.dice is not None:
            if len(self.dice) != 2 or any(not 1 <= d <= 6 for d in self.dice):
                raise FieldError("dice", msg("error.yuncos.dice", got=self.dice))
        for i, u in enumerate(self.use):
            if u not in ABILITIES and not _BOX.match(u):
                raise FieldError(f"use[{i}]", msg("error.yuncos.use", got=repr(u)))
        if self.start_at is not None and parse_square(self.start_at) is None:
            raise FieldError("from", msg("error.yuncos.map_point", got=repr(self.start_at)))
        return self


class RecordModel(Model):
    game: Literal["yuncos"]
    layout: str
    qr: str | None = None
    start: int
    solo: bool = False
    fish_marked: int
    crashes_marked: int
    used: list[str] | None = None  # ability boxes crossed out on the sheet; None: not copied
    score: WrittenScore | None = None
    in_progress: bool = False  # a game still being played: no end-of-game findings
    turn: list[TurnModel]

    _used = field_validator("used", mode="before")(_box_names)

    @field_validator("start", mode="before")
    @classmethod
    def _start_number(cls, value):
        if isinstance(value, str):  # start = "2", start = "I6"
            raise FieldError("", msg("error.yuncos.start_number", got=repr(value)))
        return value

    @model_validator(mode="after")
    def _check(self):
        if not self.turn and not self.in_progress:  # a game in progress may not have begun
            raise FieldError("turn", msg("error.yuncos.no_turns"))
        if self.fish_marked < 0:
            raise FieldError("fish_marked", msg("error.zero_or_more", got=self.fish_marked))
        if not 0 <= self.crashes_marked <= len(CRASH_TRACK):
            raise FieldError("crashes_marked", msg(
                "error.yuncos.crash_track_seventh" if self.crashes_marked > len(CRASH_TRACK) else "error.yuncos.crash_track",
                boxes=len(CRASH_TRACK), got=self.crashes_marked))
        seen: set[str] = set()  # a set: a list of thousands of names is not compared name by name
        for i, u in enumerate(self.used or []):
            if not _BOX.match(u):
                raise FieldError(f"used[{i}]", msg("error.yuncos.used", got=repr(u)))
            if u in seen:
                raise FieldError(f"used[{i}]", msg("error.listed_twice", item=u))
            seen.add(u)
        return self


# ---------------------------------------------------------------- parsed record


@dataclass(frozen=True, slots=True)
class Cell:
    kind: str  # "nest" or "lum"
    line: int  # nest row or luminary column, from 0
    index: int | None  # box in the row (from 0) / level in the column (0 = bottom); None: next free

    def name(self, index: int | None = None) -> str:
        i = self.index if index is None else index
        base = f"{self.kind}{self.line + 1}"
        return base if i is None else f"{base}.{i + 1}"


@dataclass(frozen=True, slots=True)
class Turn:
    number: int  # from 1
    steps: tuple[tuple[int, int], ...]
    cell: Cell | None
    value: int | None
    crash: bool
    dice: tuple[int, int] | None
    use: tuple[str, ...]  # ability kinds or box ids
    start_at: tuple[int, int] | None
    # the flight as it could have been meant (other_readings): a fault of this turn that the
    # other reading would not have says so
    readings: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class Record:
    model: RecordModel
    layout: Any  # sheetkit.layouts.Layout of kind "sheet"
    turns: tuple[Turn, ...]
    short_names: frozenset[str] = frozenset()  # nest ability boxes written nestR.K (short_nest_names)
    kind = "game"  # a Yuncos record is one filled sheet (a table names several: table.py)

    @property
    def spec(self):
        return self.layout.spec

    @property
    def qr(self) -> str | None:
        return self.model.qr

    @property
    def in_progress(self) -> bool:
        return self.model.in_progress

    @property
    def sheet(self):
        return self.layout

    @property
    def start(self) -> tuple[int, int]:
        return self.spec.board.starts[self.model.start]


def box_kind(spec, box: str) -> str | None:
    """The ability an ability box gives, or None when the sheet has no such box."""
    m = _BOX.match(box)
    if not m:
        return None
    if m.group(1):
        row, k = int(m.group(1)), int(m.group(2))
        if 1 <= row <= 2 and 1 <= k <= len(spec.nests.abilities[row - 1]):
            return spec.nests.abilities[row - 1][k - 1]
        return None
    if m.group(3):
        col = int(m.group(3))
        return spec.luminaries.abilities[col - 1] if 1 <= col <= spec.luminaries.columns else None
    return spec.fish_ability(int(m.group(4)))


def all_boxes(spec) -> list[str]:
    """Every ability box of the sheet, in the order they appear."""
    out = [f"nest{r + 1}.{k + 1}" for r in range(2) for k in range(len(spec.nests.abilities[r]))]
    out += [f"lum{c + 1}" for c in range(spec.luminaries.columns)]
    out += [f"fish{k}" for k in sorted(int(k) for k in spec.fish.abilities)]
    return out


def _cell(spec, text: str) -> Cell:
    m = _CELL.match(text)
    kind, line = m.group(1), int(m.group(2))
    index = int(m.group(3)) if m.group(3) else None
    if kind == "nest":
        if not 1 <= line <= 2:
            raise FieldError("puzzle", msg("error.yuncos.nest_rows", got=repr(text)))
        if index is not None and not 1 <= index <= spec.nests.length:
            raise FieldError("puzzle", msg("error.yuncos.nest_boxes", row=line, n=spec.nests.length, got=repr(text)))
    else:
        cols, height = spec.luminaries.columns, spec.luminaries.height
        if not 1 <= line <= cols:
            raise FieldError("puzzle", msg("error.yuncos.lum_columns", n=cols, got=repr(text)))
        if index is not None and not 1 <= index <= height:
            raise FieldError("puzzle", msg("error.yuncos.lum_levels", column=line, n=height, got=repr(text)))
    return Cell(kind, line - 1, None if index is None else index - 1)


def _turn(spec, i: int, t: TurnModel) -> Turn:
    board = spec.board
    cell = _cell(spec, t.puzzle) if t.puzzle is not None else None
    most = len(all_boxes(spec)) + len(ABILITIES)  # every ability box once a game, and the abilities by name
    if len(t.use) > most:
        raise FieldError("use", msg("error.yuncos.too_many_uses", n=len(t.use), most=most))
    for j, u in enumerate(t.use):
        if u not in ABILITIES and box_kind(spec, u) is None:
            raise FieldError(f"use[{j}]", msg("error.yuncos.no_box", box=repr(u), boxes=", ".join(all_boxes(spec))))
    start_at = None
    if t.start_at is not None:
        start_at = parse_square(t.start_at)
        if not board.on_map(start_at):
            raise FieldError("from", msg("error.yuncos.off_map", point=repr(t.start_at),
                                         last=vertex_name((board.width - 1, board.height - 1))))
    return Turn(i, tuple(parse_flight(t.flight)), cell, t.value, t.crash,
                tuple(t.dice) if t.dice else None, tuple(t.use), start_at, other_readings(t.flight))


def _one_level(layout, source: str | None = None, field: str | None = None):
    if layout.kind == "duplex":
        raise UserError(msg("error.yuncos.duplex", id=layout.id, levels=or_list([layout.spec.front, layout.spec.back])),
                        source=source, field=field)
    return layout


def _layout(ref: str, source: str):
    layout = layouts.load_for(ref, source, "layout", "yuncos", ("sheet", "duplex"))
    return _one_level(layout, source, "layout")


# More turns than any sheet has boxes for: refused before a single turn is read, so that a
# record of a million turns costs nothing (the sheet's own bound, `longest_game`, follows
# once its layout is loaded).
MOST_TURNS = 1000


def longest_game(spec) -> tuple[int, str]:
    """The most turns a game on this sheet can last, and why. Every turn writes a value in a
    puzzle box or marks a crash; the crash track has 6 boxes, a 7th crash eliminates the
    Yunco, and each Yunco box skips one crash. A record longer than this is not a
    transcription of a sheet at all, so it is refused as unusable input (exit 2), not
    checked into hundreds of findings: no turn past that bound could be on the paper."""
    boxes = 2 * spec.nests.length + spec.luminaries.columns * spec.luminaries.height
    yunco = sum(1 for b in all_boxes(spec) if box_kind(spec, b) == "yunco")
    most = boxes + len(CRASH_TRACK) + 1 + yunco
    return most, msg("error.yuncos.longest_why", boxes=boxes, crashes=len(CRASH_TRACK), yunco=yunco)


# The blank template's placeholder: a value still to be filled in, and what goes there.
UNFILLED = "?"
_TO_FILL = ("start", "fish_marked", "crashes_marked")  # what goes there: error.yuncos.to_fill.<key>
_TO_FILL_TURN = ("flight", "puzzle", "value", "dice", "from")  # error.yuncos.to_fill_turn.<key>


def _unfilled(value: Any) -> bool:
    return value == UNFILLED or (isinstance(value, list) and UNFILLED in value)


def _not_filled_in(data: dict[str, Any], source: str) -> None:
    """A template value left as it was: say what to write there, not that it has the wrong type."""
    for key in _TO_FILL:
        if _unfilled(data.get(key)):
            raise UserError(msg("error.not_filled_in", what=msg(f"error.yuncos.to_fill.{key}")), source=source, field=key)
    turns = data.get("turn")
    for i, t in enumerate(turns if isinstance(turns, list) else [], 1):
        for key in _TO_FILL_TURN:
            if isinstance(t, dict) and _unfilled(t.get(key)):
                raise UserError(msg("error.not_filled_in", what=msg(f"error.yuncos.to_fill_turn.{key}")),
                                source=source, field=f"turn[{i}].{key}")


def read_record(data: dict[str, Any], source: str) -> Record:
    """Validate a record read from TOML; any problem is one UserError line."""
    if data.get("kind") == "table":
        from sheetkit.games.yuncos.table import read_table

        return read_table(data, source)
    data = dict(data)
    turns = data.get("turn")
    if isinstance(turns, list) and len(turns) > MOST_TURNS:
        raise UserError(msg("error.yuncos.too_many_turns", n=len(turns), most=MOST_TURNS), source=source, field="turn")
    _not_filled_in(data, source)
    if isinstance(turns, dict):
        raise UserError(msg("error.yuncos.single_turn"), source=source, field="turn")
    if isinstance(turns, list):
        checked = []
        for i, t in enumerate(turns, 1):
            if not isinstance(t, dict):  # turn = ["E E N", ...]
                raise UserError(msg("error.yuncos.turn_table", got=repr(t)), source=source, field=f"turn[{i}]")
            try:
                checked.append(TurnModel.model_validate(t))
            except ValidationError as err:
                field, said = validation_message(err)
                raise UserError(said, source=source, field=f"turn[{i}]" + (f".{field}" if field else "")) from None
        data["turn"] = checked
    if "score" in data and not isinstance(data["score"], dict):  # score = 57
        raise UserError(msg("error.yuncos.score_table", got=repr(data["score"])), source=source, field="score")
    try:
        model = RecordModel.model_validate(data)
    except ValidationError as err:
        field, said = validation_message(err)
        raise UserError(said, source=source, field=field or None) from None
    layout = _layout(model.layout, source)
    spec = layout.spec
    board = spec.board
    if model.start not in board.starts:
        have = ", ".join(str(s) for s in board.starts)
        raise UserError(msg("error.yuncos.no_start", id=layout.id, start=model.start, have=have),
                        source=source, field="start")
    if model.fish_marked > len(spec.fish.values):
        raise UserError(msg("error.yuncos.fish_boxes", id=layout.id, n=len(spec.fish.values), got=model.fish_marked),
                        source=source, field="fish_marked")
    for i, u in enumerate(model.used or []):
        if box_kind(spec, u) is None:
            raise UserError(msg("error.yuncos.no_box", box=repr(u), boxes=", ".join(all_boxes(spec))),
                            source=source, field=f"used[{i}]")
    most, why = longest_game(spec)
    if len(model.turn) > most:
        raise UserError(msg("error.yuncos.game_too_long", n=len(model.turn), id=layout.id, most=most, why=why),
                        source=source, field="turn")
    parsed = []
    for i, t in enumerate(model.turn, 1):
        try:
            parsed.append(_turn(spec, i, t))
        except FieldError as e:
            raise UserError(e.message, source=source, field=f"turn[{i}].{e.field}") from None
    return Record(model, layout, tuple(parsed), short_nest_names(data))
