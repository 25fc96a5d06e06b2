"""Yuncos records: the TOML transcription of a filled sheet, or of a whole table of them
(docs/yuncos-records.md).

Two stages: the pydantic models check the shape of the file (types, unknown keys, step
letters, cell names); `read_record` then checks it against its layout (the start point,
the cells and ability boxes exist on that sheet) and returns a `Record` (notation.py, plain
data) with everything parsed, ready for the rules. Turns are numbered from 1 in messages:
`turn[4]` is the fourth `[[turn]]` table. A table record (`kind = "table"`) names every
player's sheet and reads each one the same way; table.py checks them together.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator, model_validator

from sheetkit import layouts
from sheetkit.messages import msg, or_list
from sheetkit.errors import FieldError, UserError
# the notation as plain data (notation.py); parse_flight, all_boxes, box_kind and box_name
# are still imported from here by the web page's Yuncos code
from sheetkit.games.yuncos.notation import (ABILITIES, BOX_NAME, Cell, Record, Turn, all_boxes, box_kind, box_name,
                                            other_readings, parse_flight, vertex_name)
from sheetkit.games.yuncos.scoring import CRASH_TRACK
from sheetkit.grid import parse_square
from sheetkit.memo import Memo, data_unchanged
from sheetkit.schema import Model, kept_model, validate, validation_message
from sheetkit.tomlfile import MISSING, problem, read_toml

# ASCII digits only, and few of them: a box number is small, and int() of a few thousand
# digits raises instead of answering.
_CELL = re.compile(r"^(nest|lum)([0-9]{1,3})(?:\.([0-9]{1,3}))?$")


def _name(value: Any) -> Any:
    """A box or ability name as a player may write it ("Nest1", " lum 2.1", "Yunco"): no
    spaces, lower case. Anything not a string is left for the type check."""
    return re.sub(r"\s+", "", value).lower() if isinstance(value, str) else value


def _names(value: Any) -> Any:
    return [_name(v) for v in value] if isinstance(value, list) else value


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
            if u not in ABILITIES and not BOX_NAME.match(u):
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
            if not BOX_NAME.match(u):
                raise FieldError(f"used[{i}]", msg("error.yuncos.used", got=repr(u)))
            if u in seen:
                raise FieldError(f"used[{i}]", msg("error.listed_twice", item=u))
            seen.add(u)
        return self


# ---------------------------------------------------------------- parsed record


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


# Turns read, kept: the page reads a play's record again at every move, and all its turns
# but the last are the ones read before. A turn is kept by its table's very values
# (schema.kept_model) and, once checked against a sheet, by that sheet too.
_TURNS = Memo(4096)  # a sheet's spec, a turn's number and its TurnModel -> the Turn read


def _turn_of(spec, i: int, t: TurnModel) -> Turn:
    return _TURNS.kept(i, (spec, t), lambda: _turn(spec, i, t))


# A sheet's turns, each list read whole: the page reads a record three times a move (its
# sheet marked, the play's check, the record's own check), the same turns' tables each
# time. The TurnModels of the very tables, where they never change (memo.unchanged_data: a
# play's records on the page; those read passed _not_filled_in too), and the Turns of the
# very TurnModels on a sheet (frozen).
_READ_TURNS = Memo(256)  # the very turn tables -> their TurnModels
_PARSED_TURNS = Memo(256)  # a sheet's spec and the very TurnModels -> their Turns


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


def _not_filled_in(data: dict[str, Any], source: str, skip: int = 0) -> None:
    """A template value left as it was: say what to write there, not that it has the wrong
    type. `skip`: the turns before that one were found filled in already."""
    for key in _TO_FILL:
        if _unfilled(data.get(key)):
            raise UserError(msg("error.not_filled_in", what=msg(f"error.yuncos.to_fill.{key}")), source=source, field=key)
    turns = data.get("turn")
    for i, t in enumerate(turns[skip:] if isinstance(turns, list) else [], skip + 1):
        for key in _TO_FILL_TURN:
            if isinstance(t, dict) and _unfilled(t.get(key)):
                raise UserError(msg("error.not_filled_in", what=msg(f"error.yuncos.to_fill_turn.{key}")),
                                source=source, field=f"turn[{i}].{key}")


def read_record(data: dict[str, Any], source: str) -> Record | Table:
    """Validate a record read from TOML, one sheet or a whole table (`kind = "table"`); any
    problem is one UserError line."""
    if data.get("kind") == "table":
        return read_table(data, source)
    return _read_sheet(data, source)


def _read_sheet(data: dict[str, Any], source: str) -> Record:
    """One player's sheet."""
    data = dict(data)
    turns = data.get("turn")
    if isinstance(turns, list) and len(turns) > MOST_TURNS:
        raise UserError(msg("error.yuncos.too_many_turns", n=len(turns), most=MOST_TURNS), source=source, field="turn")
    done: tuple = ()  # the TurnModels of the very tables read before: all of them, or all but the last
    if isinstance(turns, list) and turns and data_unchanged():
        done = _READ_TURNS.get(None, turns) or _READ_TURNS.get(None, turns[:-1]) or ()
    _not_filled_in(data, source, skip=len(done))  # turns read before were filled in
    if isinstance(turns, dict):
        raise UserError(msg("error.yuncos.single_turn"), source=source, field="turn")
    if isinstance(turns, list):
        checked = list(done)
        for i, t in enumerate(turns[len(done):], len(done) + 1):
            if not isinstance(t, dict):  # turn = ["E E N", ...]
                raise UserError(msg("error.yuncos.turn_table", got=repr(t)), source=source, field=f"turn[{i}]")
            try:
                checked.append(kept_model(TurnModel, t))
            except ValidationError as err:
                field, said = validation_message(err)
                raise UserError(said, source=source, field=f"turn[{i}]" + (f".{field}" if field else "")) from None
        data["turn"] = checked
        if data_unchanged() and len(done) < len(turns):
            _READ_TURNS.put(None, turns, tuple(checked))
    if "score" in data and not isinstance(data["score"], dict):  # score = 57
        raise UserError(msg("error.yuncos.score_table", got=repr(data["score"])), source=source, field="score")
    turns = data.get("turn")
    whole = isinstance(turns, list) and len(turns) > 1
    if whole:  # pydantic runs a validated turn's own checks again: one turn stands for the read ones
        data["turn"] = turns[:1]
    try:
        model = RecordModel.model_validate(data)
    except ValidationError as err:
        field, said = validation_message(err)
        raise UserError(said, source=source, field=field or None) from None
    if whole:
        model = model.model_copy(update={"turn": turns})
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
    parsed = _PARSED_TURNS.get(None, (spec, *model.turn))
    if parsed is None:
        parsed = []
        for i, t in enumerate(model.turn, 1):
            try:
                parsed.append(_turn_of(spec, i, t))
            except FieldError as e:
                raise UserError(e.message, source=source, field=f"turn[{i}].{e.field}") from None
        parsed = _PARSED_TURNS.put(None, (spec, *model.turn), tuple(parsed))
    return Record(model, layout, parsed, short_nest_names(data))


# ---------------------------------------------------------------- a whole table
# (docs/yuncos-records.md: one record naming every player's sheet; checked by table.py)

MOST_PLAYERS = 6  # Yuncos is for 1-6 players; a table has 2 or more


class PlayerModel(Model):
    name: str
    # the player's record: a file relative to the table record, or the record's own data
    sheet: str | dict[str, Any]


class TableModel(Model):
    game: Literal["yuncos"]
    kind: Literal["table"]
    in_progress: bool = False
    player: list[PlayerModel]

    @model_validator(mode="after")
    def _check(self):
        if not 2 <= len(self.player) <= MOST_PLAYERS:
            why = "error.yuncos.table_players_one" if len(self.player) < 2 else "error.yuncos.table_players"
            raise FieldError("player", msg(why, most=MOST_PLAYERS, got=len(self.player)))
        names: set[str] = set()
        for i, p in enumerate(self.player):
            if not p.name.strip():
                raise FieldError(f"player[{i}].name", msg("error.schema.empty_name"))
            if p.name in names:
                raise FieldError(f"player[{i}].name", msg("error.schema.name_twice", name=repr(p.name)))
            names.add(p.name)
        return self


@dataclass(frozen=True, slots=True)
class Table:
    model: TableModel
    source: str
    names: tuple[str, ...]
    sheets: tuple[Any, ...]  # each player's record.Record, in the table's order
    kind = "table"
    qr = None  # each sheet has its own
    sheet = None

    @property
    def in_progress(self) -> bool:
        return self.model.in_progress


def read_table(data: dict[str, Any], source: str) -> Table:
    """A table record: each sheet read from its file (relative to the table record) or
    from its inline data."""
    model = validate(TableModel, data, source)
    sheets, seen = [], {}
    for i, p in enumerate(model.player):
        field = f"player[{i}].sheet"
        if isinstance(p.sheet, dict):
            sheet_data, sheet_source = dict(p.sheet), f"{source}: {field}"  # a layout path is still beside `source`
        else:
            path = _sheet_path(source, p.sheet, field)
            key = path.resolve()
            if key in seen:
                raise UserError(msg("error.yuncos.same_sheet", a=p.name, b=seen[key], sheet=repr(p.sheet)), source=source,
                                field=field)
            seen[key] = p.name
            sheet_data, sheet_source = read_toml(path), str(path)
        if sheet_data.get("kind") == "table":
            shown = repr(p.sheet) if isinstance(p.sheet, str) else field
            raise UserError(msg("error.yuncos.table_in_table", sheet=shown), source=source, field=field)
        sheet_data.pop("lang", None)  # a sheet's own language: the table's (or --lang) is spoken
        rec = _read_sheet(sheet_data, sheet_source)
        if rec.model.solo:
            raise UserError(msg("error.yuncos.solo_at_table", name=p.name), source=sheet_source, field="solo")
        sheets.append(rec)
    return _table(model, source, sheets)


def _sheet_path(source: str, sheet: str, field: str) -> Path:
    """The file a table's `sheet = "..."` names, relative to the table record; one line for
    any path that cannot be a sheet (missing, a folder, a device or pipe, a name too long,
    an unknown ~user)."""
    path = Path(source).parent / os.path.expanduser(sheet)  # os.path's leaves an unknown ~user as written
    bad = problem(path)
    if bad == MISSING:
        raise UserError(msg("error.yuncos.no_sheet_file", path=repr(str(path))), source=source, field=field)
    if bad is not None:
        raise UserError(msg("error.yuncos.sheet_file", path=repr(str(path)), why=bad), source=source, field=field)
    return path


def _table(model: TableModel, source: str, sheets: list[Any]) -> Table:
    """The table of checked sheets, all of one level."""
    levels = {(r.layout.id, r.layout.version) for r in sheets}
    if len(levels) > 1:
        shown = ", ".join(f"{n}: {r.layout.id}" for n, r in zip((p.name for p in model.player), sheets))
        raise UserError(msg("error.yuncos.levels_differ", shown=shown), source=source,
                        field="player")
    return Table(model, source, tuple(p.name for p in model.player), tuple(sheets))
