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
from sheetkit.errors import FieldError, UserError
from sheetkit.games.yuncos.layout import ABILITIES, STEPS, vertex_name
from sheetkit.games.yuncos.scoring import CRASH_TRACK
from sheetkit.grid import parse_square
from sheetkit.schema import Model, validation_message

DIAGONALS = {"NE": (1, -1), "NW": (-1, -1), "SE": (1, 1), "SW": (-1, 1)}
ALL_STEPS = {**STEPS, **DIAGONALS}
STEP_NAMES = {v: k for k, v in ALL_STEPS.items()}

BAD_STEP = "is not a step; expected N, E, S, W, or NE/NW/SE/SW with the diagonal ability"
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
            raise FieldError("flight", f"{ch!r} {BAD_STEP}")
        token = token.upper()
        if token in DIAGONALS:
            steps.append(DIAGONALS[token])
            continue
        m = _COUNTED.match(token)
        if m:
            n = int(m.group(1)) if len(m.group(1)) <= 3 else 0
            if not 1 <= n <= 12:
                raise FieldError("flight", f"{token!r}: a repeat count is 1-12")
            steps.extend([STEPS[m.group(2)]] * n)
            continue
        if token.isdigit():
            raise FieldError("flight", f"{token!r} is a count without its step: write it right before "
                             f"the letter, e.g. {token}E")
        for ch in token:
            if ch not in STEPS:
                hint = " (west is W)" if ch == "O" else ""
                raise FieldError("flight", f"{ch!r} {BAD_STEP}{hint}")
            steps.append(STEPS[ch])
    if not steps:
        raise FieldError("flight", "empty: every turn flies at least one step")
    return steps


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
            raise FieldError("", f"expected the two dice of the turn as a list, e.g. dice = [3, 5] (got {value!r})")
        return value

    @model_validator(mode="after")
    def _check(self):
        parse_flight(self.flight)
        if self.crash:
            if self.puzzle is not None or self.value is not None:
                raise FieldError("crash", "a turn either writes its value in a puzzle or marks a ground/sea crash, not both")
        else:
            if self.puzzle is None:
                raise FieldError("puzzle", "missing: every turn writes its value in a puzzle "
                                 "(puzzle = \"nest1\", value = 4) or marks crash = true")
            if self.value is None:
                raise FieldError("value", "missing: the number written in the puzzle, 1-6")
        if self.puzzle is not None and not _CELL.match(self.puzzle):
            raise FieldError("puzzle", f"expected nest1, nest2, lumN, or a box like nest1.3 or lum2.1 (got {self.puzzle!r})")
        if self.value is not None and not 1 <= self.value <= 6:
            raise FieldError("value", f"expected a die value 1-6 (got {self.value})")
        if self.dice is not None:
            if len(self.dice) != 2 or any(not 1 <= d <= 6 for d in self.dice):
                raise FieldError("dice", f"expected the two dice of the turn, e.g. [3, 5], each 1-6 (got {self.dice})")
        for i, u in enumerate(self.use):
            if u not in ABILITIES and not _BOX.match(u):
                raise FieldError(f"use[{i}]", f"expected plusminus, diagonal, yunco, or an ability box "
                                 f"like fish2, nest1.1, lum3 (got {u!r})")
        if self.start_at is not None and parse_square(self.start_at) is None:
            raise FieldError("from", f"expected a map point like C7 (got {self.start_at!r})")
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
            raise FieldError("", f"expected the number of the starting point marked on the island, without "
                             f"quotes, e.g. start = 2 (got {value!r})")
        return value

    @model_validator(mode="after")
    def _check(self):
        if not self.turn and not self.in_progress:  # a game in progress may not have begun
            raise FieldError("turn", "no turns: add one [[turn]] table per turn played")
        if self.fish_marked < 0:
            raise FieldError("fish_marked", f"expected 0 or more (got {self.fish_marked})")
        if not 0 <= self.crashes_marked <= len(CRASH_TRACK):
            seventh = (" (a crash with no box left is not marked: it eliminates the Yunco, so copy 6)"
                       if self.crashes_marked > len(CRASH_TRACK) else "")
            raise FieldError("crashes_marked", f"the crash track has {len(CRASH_TRACK)} boxes; expected 0-6 "
                             f"(got {self.crashes_marked}){seventh}")
        for i, u in enumerate(self.used or []):
            if not _BOX.match(u):
                raise FieldError(f"used[{i}]", f"expected an ability box like fish2, nest1.1, lum3 (got {u!r})")
            if u in (self.used or [])[:i]:
                raise FieldError(f"used[{i}]", f"{u} is listed twice")
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
            raise FieldError("puzzle", f"the nests have rows nest1 and nest2 (got {text!r})")
        if index is not None and not 1 <= index <= spec.nests.length:
            raise FieldError("puzzle", f"nest row {line} has boxes 1-{spec.nests.length} (got {text!r})")
    else:
        cols, height = spec.luminaries.columns, spec.luminaries.height
        if not 1 <= line <= cols:
            raise FieldError("puzzle", f"the luminaries have columns lum1-lum{cols} (got {text!r})")
        if index is not None and not 1 <= index <= height:
            raise FieldError("puzzle", f"luminary column {line} has levels 1-{height} from the bottom (got {text!r})")
    return Cell(kind, line - 1, None if index is None else index - 1)


def _turn(spec, i: int, t: TurnModel) -> Turn:
    board = spec.board
    cell = _cell(spec, t.puzzle) if t.puzzle is not None else None
    for j, u in enumerate(t.use):
        if u not in ABILITIES and box_kind(spec, u) is None:
            raise FieldError(f"use[{j}]", f"this sheet has no ability box {u!r}; its boxes: {', '.join(all_boxes(spec))}")
    start_at = None
    if t.start_at is not None:
        start_at = parse_square(t.start_at)
        if not board.on_map(start_at):
            raise FieldError("from", f"{t.start_at!r} is not on the map (A1 to {vertex_name((board.width - 1, board.height - 1))})")
    return Turn(i, tuple(parse_flight(t.flight)), cell, t.value, t.crash,
                tuple(t.dice) if t.dice else None, tuple(t.use), start_at, other_readings(t.flight))


def _one_level(layout, source: str | None = None, field: str | None = None):
    if layout.kind == "duplex":
        raise UserError(f"layout {layout.id} is the two-sided sheet; name the level played, e.g. "
                        f"{layout.spec.front} or {layout.spec.back}", source=source, field=field)
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
    return most, (f"{boxes} puzzle boxes, {len(CRASH_TRACK)} crash boxes and the crash that eliminates, "
                  f"{yunco} Yunco box(es)")


# The blank template's placeholder: a value still to be filled in, and what goes there.
UNFILLED = "?"
_TO_FILL = {
    "start": "the number of the starting point marked on the island, e.g. start = 2",
    "fish_marked": "how many boxes of the fish counter are marked, e.g. fish_marked = 3",
    "crashes_marked": "how many boxes of the crash track are marked (0-6), e.g. crashes_marked = 1",
}
_TO_FILL_TURN = {
    "flight": 'the steps drawn this turn, e.g. flight = "E E N" (docs/yuncos-records.md: Flights)',
    "puzzle": 'where this turn\'s number went, e.g. puzzle = "nest1" or "lum2"; a turn with no number '
              "says crash = true instead",
    "value": "the number written in the puzzle, 1-6, e.g. value = 4",
    "dice": "the turn's two dice from the dice log, e.g. dice = [3, 5], or leave the line out",
    "from": 'the map point this flight starts from, e.g. from = "K6", or leave the line out',
}


def _unfilled(value: Any) -> bool:
    return value == UNFILLED or (isinstance(value, list) and UNFILLED in value)


def _not_filled_in(data: dict[str, Any], source: str) -> None:
    """A template value left as it was: say what to write there, not that it has the wrong type."""
    for key, what in _TO_FILL.items():
        if _unfilled(data.get(key)):
            raise UserError(f"not filled in: {what}", source=source, field=key)
    turns = data.get("turn")
    for i, t in enumerate(turns if isinstance(turns, list) else [], 1):
        for key, what in _TO_FILL_TURN.items():
            if isinstance(t, dict) and _unfilled(t.get(key)):
                raise UserError(f"not filled in: {what}", source=source, field=f"turn[{i}].{key}")


def read_record(data: dict[str, Any], source: str) -> Record:
    """Validate a record read from TOML; any problem is one UserError line."""
    if data.get("kind") == "table":
        from sheetkit.games.yuncos.table import read_table

        return read_table(data, source)
    data = dict(data)
    turns = data.get("turn")
    if isinstance(turns, list) and len(turns) > MOST_TURNS:
        raise UserError(f"{len(turns)} turns: no Yuncos sheet has room for more than {MOST_TURNS}",
                        source=source, field="turn")
    _not_filled_in(data, source)
    if isinstance(turns, dict):
        raise UserError("a single [turn] table; write each turn as its own [[turn]] table (two brackets)",
                        source=source, field="turn")
    if isinstance(turns, list):
        checked = []
        for i, t in enumerate(turns, 1):
            if not isinstance(t, dict):  # turn = ["E E N", ...]
                raise UserError(f"expected a [[turn]] table with flight, puzzle and value (got {t!r})",
                                source=source, field=f"turn[{i}]")
            try:
                checked.append(TurnModel.model_validate(t))
            except ValidationError as err:
                field, msg = validation_message(err)
                raise UserError(msg, source=source, field=f"turn[{i}]" + (f".{field}" if field else "")) from None
        data["turn"] = checked
    if "score" in data and not isinstance(data["score"], dict):  # score = 57
        raise UserError(f"expected a [score] table of the score boxes, e.g. total = 57 under [score] "
                        f"(got {data['score']!r})", source=source, field="score")
    try:
        model = RecordModel.model_validate(data)
    except ValidationError as err:
        field, msg = validation_message(err)
        raise UserError(msg, source=source, field=field or None) from None
    layout = _layout(model.layout, source)
    spec = layout.spec
    board = spec.board
    if model.start not in board.starts:
        have = ", ".join(str(s) for s in board.starts)
        raise UserError(f"{layout.id} has no start point {model.start}; its start points are {have}",
                        source=source, field="start")
    if model.fish_marked > len(spec.fish.values):
        raise UserError(f"the fish counter of {layout.id} has {len(spec.fish.values)} boxes (got {model.fish_marked})",
                        source=source, field="fish_marked")
    for i, u in enumerate(model.used or []):
        if box_kind(spec, u) is None:
            raise UserError(f"this sheet has no ability box {u!r}; its boxes: {', '.join(all_boxes(spec))}",
                            source=source, field=f"used[{i}]")
    most, why = longest_game(spec)
    if len(model.turn) > most:
        raise UserError(f"{len(model.turn)} turns: a game on {layout.id} lasts at most {most} turns ({why})",
                        source=source, field="turn")
    parsed = []
    for i, t in enumerate(model.turn, 1):
        try:
            parsed.append(_turn(spec, i, t))
        except FieldError as e:
            raise UserError(e.message, source=source, field=f"turn[{i}].{e.field}") from None
    return Record(model, layout, tuple(parsed), short_nest_names(data))
