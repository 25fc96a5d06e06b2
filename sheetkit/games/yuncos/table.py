"""A whole Yuncos table: one record naming every player's sheet (docs/yuncos-records.md).

    game = "yuncos"
    kind = "table"
    [[player]]
    name = "Ana"
    sheet = "ana.toml"      # an ordinary Yuncos record, relative to this file

Each sheet is replayed with the Yuncos rules, then the sheets are held against each other:
the dice noted on any sheet agree turn by turn (the two dice are rolled for everybody),
every sheet stops after the turn in which the first player ended the game (Y21), or after
its own elimination (Y20), and an eliminated player cannot win. Solo games stay single
sheets.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from pydantic import model_validator

from sheetkit.checking.replay import replay
from sheetkit.checking.messages import msg
from sheetkit.checking.verdict import ERROR, WARNING, Details, Finding, Verdict
from sheetkit.errors import FieldError, UserError
from sheetkit.games.interface import Checked
from sheetkit.schema import Model, validate
from sheetkit.tomlfile import read_toml

MOST_PLAYERS = 6  # Yuncos is for 1-6 players; a table has 2 or more


class PlayerModel(Model):
    name: str
    sheet: str  # the player's record, relative to the table record


class TableModel(Model):
    game: Literal["yuncos"]
    kind: Literal["table"]
    in_progress: bool = False
    player: list[PlayerModel]

    @model_validator(mode="after")
    def _check(self):
        if not 2 <= len(self.player) <= MOST_PLAYERS:
            raise FieldError("player", msg("error.yuncos.table_players", most=MOST_PLAYERS, got=len(self.player)))
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
    from sheetkit.games.yuncos.record import read_record

    model = validate(TableModel, data, source)
    base = Path(source).parent
    sheets, seen = [], {}
    for i, p in enumerate(model.player):
        field = f"player[{i}].sheet"
        path = base / Path(p.sheet).expanduser()
        if not path.is_file():
            raise UserError(msg("error.yuncos.no_sheet_file", path=repr(str(path))), source=source, field=field)
        key = path.resolve()
        if key in seen:
            raise UserError(msg("error.yuncos.same_sheet", a=p.name, b=seen[key], sheet=repr(p.sheet)), source=source, field=field)
        seen[key] = p.name
        sheet_data = read_toml(path)
        if sheet_data.get("kind") == "table":
            raise UserError(msg("error.yuncos.table_in_table", sheet=repr(p.sheet)), source=source, field=field)
        sheet_data.pop("lang", None)  # a sheet's own language: the table's (or --lang) is spoken
        rec = read_record(sheet_data, str(path))
        if rec.model.solo:
            raise UserError(msg("error.yuncos.solo_at_table", name=p.name), source=str(path), field="solo")
        sheets.append(rec)
    return _table(model, source, sheets)


def table_from_sheets(players: list[tuple[str, dict[str, Any]]], source: str, in_progress: bool = False) -> Table:
    """A table whose sheets are held in memory, (name, record data) per player: the web page's
    plays. The same checks as a table record read from its file, and no file is opened: a
    sheet here may name only a shipped layout (`layout = "yuncos-easy"`)."""
    from sheetkit import layouts
    from sheetkit.games.yuncos.record import read_record

    data = {"game": "yuncos", "kind": "table", "in_progress": in_progress,
            "player": [{"name": name, "sheet": f"{name}'s sheet"} for name, _ in players]}
    model = validate(TableModel, data, source)
    sheets = []
    for (name, sheet), p in zip(players, model.player):
        if not isinstance(sheet, dict) or sheet.get("kind") == "table":
            raise UserError(msg("error.yuncos.not_a_sheet", name=name), source=source, field="player")
        if sheet.get("layout") not in layouts.shipped_ids():
            raise UserError(msg("error.yuncos.shipped_level", name=name, got=repr(sheet.get("layout"))), source=source,
                            field="player")
        rec = read_record(sheet, f"{source}: {p.sheet}")
        if rec.model.solo:
            raise UserError(msg("error.yuncos.solo_at_table", name=name), source=source, field="solo")
        sheets.append(rec)
    return _table(model, source, sheets)


def _table(model: TableModel, source: str, sheets: list[Any]) -> Table:
    """The table of checked sheets, all of one level."""
    layouts = {(r.layout.id, r.layout.version) for r in sheets}
    if len(layouts) > 1:
        shown = ", ".join(f"{n}: {r.layout.id}" for n, r in zip((p.name for p in model.player), sheets))
        raise UserError(msg("error.yuncos.levels_differ", shown=shown), source=source,
                        field="player")
    return Table(model, source, tuple(p.name for p in model.player), tuple(sheets))


@dataclass(frozen=True, slots=True)
class TableDetails(Details):
    """A checked table: when and why the game ended, the ranking, and each player's sheet."""

    layout: str
    layout_version: str
    level: str
    turns: int  # turns the game lasted (so far)
    end: dict[str, Any] | None  # {"turn", "reason", "player"}: the first player to end it (Y21)
    ranking: list[dict[str, Any]]  # {"rank", "player", "total", "eliminated"}, best first; ties share a rank
    sheets: dict[str, Any]  # player -> that sheet's SheetDetails


def _at(name: str, turn: int):
    return msg("where.yuncos.player", player=name, where=msg("where.yuncos.turn", turn=turn))


def _tag(name: str, f: Finding) -> Finding:
    return Finding(f.rule, msg("where.yuncos.player", player=name, where=f.place or f.where), f.text or f.message,
                   f.severity, {"player": name, **f.at})


def check_table(table: Table, source: str) -> Checked:
    from sheetkit.games.yuncos.check import verdict as sheet_verdict
    from sheetkit.games.yuncos.rules import Rules

    in_progress = table.in_progress
    findings: list[Finding] = []
    states, verdicts = {}, {}
    for name, rec in zip(table.names, table.sheets):
        rules = Rules(rec)
        replayed = replay(rules, rec.turns, finished=False)  # the table decides when the game ended
        states[name] = replayed.state
        verdicts[name] = sheet_verdict(rules, replayed.state, replayed.findings, rec.model.layout)
    spec = table.sheets[0].spec

    # The dice are rolled for everybody: every sheet that notes a turn's dice notes the same.
    longest = max(len(r.turns) for r in table.sheets)
    dice_rule = "Y4" if spec.level == "easy" else "Y5"
    for n in range(1, longest + 1):
        noted = [(name, tuple(sorted(r.turns[n - 1].dice))) for name, r in zip(table.names, table.sheets)
                 if n <= len(r.turns) and r.turns[n - 1].dice is not None]
        # the dice most sheets note are the table's (in a tie, the first sheet's)
        counts = Counter(d for _, d in noted)
        table_dice = max(counts, key=lambda d: (counts[d], -next(i for i, (_, e) in enumerate(noted) if e == d))) if noted else None
        first = next(((name, d) for name, d in noted if d == table_dice), None)
        for name, dice in noted:
            if dice != first[1]:
                findings.append(Finding(dice_rule, _at(name, n), msg(
                    "finding.yuncos.table_dice", dice=msg("yuncos.dice", a=dice[0], b=dice[1]),
                    table=msg("yuncos.dice", a=first[1][0], b=first[1][1]), other=first[0]),
                    ERROR, {"player": name, "turn": n, "dice": list(dice)}))

    # The first player to end the game ends it for all (Y21); an eliminated player stops (Y20),
    # and a Yunco eliminated in the turn it came back to the island ends nothing: it is gone.
    ends = [(s.end[0], i, name, s.end[1]) for i, (name, s) in enumerate(states.items())
            if s.end is not None and not (s.eliminated is not None and s.eliminated <= s.end[0])]
    end = min(ends)[:1] + min(ends)[2:] if ends else None  # (turn, player, why); in a tie, the first listed
    last = end[0] if end else longest
    for name, rec in zip(table.names, table.sheets):
        s, turns = states[name], len(rec.turns)
        own_late = s.end is not None and s.end[0] < turns  # already reported on the sheet itself
        gone = s.eliminated is not None and s.eliminated < turns
        if end is not None and turns > last and not own_late and not gone and end[1] != name:
            more = turns - last - 1
            reason = msg("yuncos.ended_by", player=end[1], reason=end[2])
            said = (msg("finding.yuncos.Y21_after_end_more", end=last, reason=reason, more=more) if more
                    else msg("finding.yuncos.Y21_after_end", end=last, reason=reason))
            findings.append(Finding("Y21", _at(name, last + 1), said, ERROR, {"player": name, "turn": last + 1}))
        stopped = s.eliminated is not None
        if turns < last and not stopped and not (in_progress and end is None):
            why = "finding.yuncos.Y21_sheet_stops_ended" if end else "finding.yuncos.Y21_sheet_stops_others"
            findings.append(Finding("Y21", _at(name, turns), msg(why, turn=turns, last=last), ERROR,
                                    {"player": name, "turn": turns}))
    if end is None and not in_progress:
        alive = [n for n, s in states.items() if s.eliminated is None]
        if alive:
            findings.append(Finding("Y21", msg("where.yuncos.turn", turn=last), msg("finding.yuncos.Y21_table_not_ended",
                                                                                     turn=last), WARNING, {"turn": last}))
    for name in table.names:
        findings += [_tag(name, f) for f in verdicts[name].findings]

    # The result: every score, the ranking, the winner(s) among those not eliminated (Y20, Y22).
    scores = [replace(verdicts[name].scores[0], player=name) for name in table.names]
    order = sorted(scores, key=lambda sc: -sc.total)
    ranking = []
    for sc in order:
        rank = 1 + sum(1 for o in order if o.total > sc.total)
        ranking.append({"rank": rank, "player": sc.player, "total": sc.total, "eliminated": sc.eliminated})
    standing = [sc for sc in scores if not sc.eliminated]
    best = max((sc.total for sc in standing), default=None)
    winners = [sc.player for sc in scores if not sc.eliminated and sc.total == best]
    first = table.sheets[0]
    details = TableDetails(
        layout=first.layout.id, layout_version=first.layout.version, level=spec.level, turns=last,
        end=None if end is None else {"turn": end[0], "reason": end[2], "player": end[1]},
        ranking=ranking, sheets={name: verdicts[name].details for name in table.names},
    )
    v = Verdict(game="yuncos", source=source, findings=findings, scores=scores, winners=winners, details=details,
                in_progress=in_progress)
    return Checked(states, v)
