"""A whole Yuncos table: one record naming every player's sheet (docs/yuncos-records.md).

    game = "yuncos"
    kind = "table"
    [[player]]
    name = "Ana"
    sheet = "ana.toml"      # an ordinary Yuncos record, relative to this file
    [[player]]
    name = "Bea"
    [player.sheet]          # or the sheet itself, inline: one file for the whole table
    layout = "yuncos-easy"
    [[player.sheet.turn]]
    ...

A table from outside (the web page) carries every sheet inline and opens no file. The table
record is read by record.py (its models beside the sheet's); this module checks it.

Each sheet is replayed with the Yuncos rules, then the sheets are held against each other:
the dice noted on any sheet agree turn by turn (the two dice are rolled for everybody),
every sheet stops after the turn in which the first player ended the game (Y21), or after
its own elimination (Y20), and an eliminated player cannot win. Solo games stay single
sheets.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from sheetkit.checking.replay import replay
from sheetkit.messages import msg
from sheetkit.checking.verdict import ERROR, WARNING, Details, Finding, Verdict
from sheetkit.errors import UserError
from sheetkit.games.interface import Checked
from sheetkit.games.yuncos.check import verdict as sheet_verdict
from sheetkit.games.yuncos.moves import moves
from sheetkit.games.yuncos.record import Table, read_table
from sheetkit.games.yuncos.record import TableModel  # noqa: F401 (the Game object names it here: table:TableModel)
from sheetkit.games.yuncos.rules import Rules


def table_from_sheets(players: list[tuple[str, dict[str, Any]]], source: str, in_progress: bool = False) -> Table:
    """A table whose sheets are held in memory, (name, record data) per player: the web page's
    plays. The same reading as a table record with its sheets inline, and no file is opened:
    a sheet here may name only a shipped layout (`layout = "yuncos-easy"`)."""
    from sheetkit.checking.outside import refuse_files

    for name, sheet in players:
        if not isinstance(sheet, dict) or sheet.get("kind") == "table":
            raise UserError(msg("error.yuncos.not_a_sheet", name=name), source=source, field="player")
    data = {"game": "yuncos", "kind": "table", "in_progress": in_progress,
            "player": [{"name": name, "sheet": sheet} for name, sheet in players]}
    refuse_files(data, source)
    return read_table(data, source)


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


def check_table(table: Table, source: str, prior: Checked | None = None) -> Checked:
    """The table's sheets replayed and held together. `prior`: the check of this table some
    turns earlier: each sheet goes on from its replay there (checking.replay)."""
    in_progress = table.in_progress
    findings: list[Finding] = []
    states, verdicts, replays = {}, {}, {}
    earlier = prior.replayed if prior is not None and isinstance(prior.replayed, dict) else {}
    for name, rec in zip(table.names, table.sheets):
        rules = Rules(rec)
        replayed = replay(rules, rec.turns, finished=False,  # the table decides when the game ended
                          prior=rules.prior(earlier.get(name)), setup=rules.setup)
        replays[name] = replayed
        states[name] = replayed.state
        verdicts[name] = sheet_verdict(rules, replayed.state, replayed.findings, rec.model.layout, in_progress)
    spec = table.sheets[0].spec

    # The dice are rolled for everybody: every sheet that notes a turn's dice notes the same.
    longest = max(len(r.turns) for r in table.sheets)
    dice_rule = "Y4" if spec.level == "easy" else "Y5"
    for n in range(1, longest + 1):
        noted = [(name, tuple(sorted(r.turns[n - 1].dice))) for name, r in zip(table.names, table.sheets)
                 if n <= len(r.turns) and r.turns[n - 1].dice is not None]
        counts = Counter(d for _, d in noted)
        if len(counts) < 2:
            continue
        top = counts.most_common()
        if top[0][1] > top[1][1]:  # the dice most sheets note are the table's: the odd sheets are at fault
            table_dice = top[0][0]
            first = next(name for name, d in noted if d == table_dice)
            for name, dice in noted:
                if dice != table_dice:
                    findings.append(Finding(dice_rule, _at(name, n), msg(
                        "finding.yuncos.table_dice", dice=msg("yuncos.dice", a=dice[0], b=dice[1]),
                        table=msg("yuncos.dice", a=table_dice[0], b=table_dice[1]), other=first),
                        ERROR, {"player": name, "turn": n, "dice": list(dice)}))
        else:  # no majority: nothing says which sheet is right, so each one is marked
            said = [msg("yuncos.dice_of", player=name, dice=msg("yuncos.dice", a=d[0], b=d[1])) for name, d in noted]
            for name, dice in noted:
                findings.append(Finding(dice_rule, _at(name, n), msg("finding.yuncos.table_dice_split", turn=n, noted=said),
                                        ERROR, {"player": name, "turn": n, "dice": list(dice)}))

    # The first player to end the game ends it for all (Y21), at the step where it happens:
    # a Yunco eliminated later in the same flight still ended it (the rules keep such an end
    # and drop one that an earlier crash prevented); an eliminated player stops (Y20).
    ends = [(s.end[0], i, name, s.end[1]) for i, (name, s) in enumerate(states.items()) if s.end is not None]
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
        if turns < last and not stopped and not in_progress:  # in progress: that turn is still to enter
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
    nxt = _next(table, states, details.end) if in_progress else None
    v = Verdict(game="yuncos", source=source, findings=findings, scores=scores, winners=winners, details=details,
                in_progress=in_progress, to_move=None if nxt is None else table.names[nxt.seat])
    return Checked(states, v, replays)


# --- the next move of a table in progress (`sheetkit moves TABLE`) ---------------------------

@dataclass(frozen=True, slots=True)
class NextTurn:
    """Who enters what next at a table: the seat (index in the table's order), the turn,
    and that turn's dice when another sheet noted them already (rolled for everybody)."""

    seat: int
    turn: int
    dice: tuple[int, int] | None
    noted_by: str | None  # the player whose sheet notes those dice


def next_turn(table: Table, checked: Checked) -> NextTurn | None:
    """The next turn to enter, turn by turn in the table's order; None once the game is
    over: everybody has entered the turn in which the first player ended it (Y21), or every
    Yunco is eliminated (Y20)."""
    return _next(table, checked.state, checked.verdict.details.end)


def _next(table: Table, states: dict[str, Any], end: dict[str, Any] | None) -> NextTurn | None:
    alive = [i for i, name in enumerate(table.names) if states[name].eliminated is None]
    due = whose_turn([len(r.turns) for r in table.sheets], alive, end is not None)
    return None if due is None else NextTurn(*due, *noted_dice(table, due[1]))


def whose_turn(lengths: list[int], alive: list[int], ended: bool) -> tuple[int, int] | None:
    """(seat, turn) to enter next at a table, turn by turn in the table's order: the first
    sheet not eliminated that is behind the others, else the next turn of the first one;
    None once every Yunco is eliminated or the game has ended (Y20, Y21). `lengths`: the
    turns of each sheet; `alive`: the seats not eliminated."""
    if not alive:
        return None
    longest = max(lengths)
    behind = [i for i in alive if lengths[i] < longest]
    if behind:
        return behind[0], longest
    return None if ended else (alive[0], longest + 1)


def noted_dice(table: Table, turn: int) -> tuple[tuple[int, int] | None, str | None]:
    """The dice of `turn` as the first sheet that notes them has them, and whose it is."""
    for name, rec in zip(table.names, table.sheets):
        if turn <= len(rec.turns) and rec.turns[turn - 1].dice is not None:
            a, b = rec.turns[turn - 1].dice
            return (a, b), name
    return None, None


@dataclass(frozen=True, slots=True)
class TableMoves:
    """The legal next moves of one sheet of a table (sheetkit.games.yuncos.moves.Moves) and
    whose sheet it is; `moves` None and `over` said when no turn follows at the table."""

    player: str | None
    moves: Any  # the sheet's Moves
    over: Any = None  # why no turn follows (a Msg)
    dice_from: str | None = None  # the sheet whose noted dice were taken (none given)

    def to_json(self) -> dict[str, Any]:
        from sheetkit.checking.verdict import say

        out: dict[str, Any] = self.moves.to_json() if self.moves is not None else {"game": "yuncos"}
        out.update({"kind": "table", "player": self.player, "dice_from": self.dice_from,
                    "over": None if self.over is None else say(self.over, "en")})
        return out

    def lines(self, lang: str = "en") -> list[str]:
        from sheetkit.messages import text

        if self.moves is None:
            return [text("moves.yuncos.table_over", lang, why=self.over)]
        head = text("moves.yuncos.table_player", lang, player=self.player, turn=self.moves.turn)
        if self.dice_from is not None and self.moves.dice is not None:
            a, b = self.moves.dice
            head += " " + text("moves.yuncos.table_dice", lang, a=a, b=b, other=self.dice_from)
        return [head] + self.moves.lines(lang)


def table_moves(table: Table, checked: Checked, dice: tuple[int, ...] | None = None,
                player: str | None = None) -> TableMoves:
    """The legal next moves at a table: for the player whose sheet is next (or `player`'s
    sheet), with the dice given, else that turn's dice if another sheet noted them."""
    if player is not None and player not in table.names:
        raise UserError(msg("error.yuncos.moves_player", player=repr(player), names=", ".join(table.names)),
                        source=table.source)
    nxt = next_turn(table, checked)
    end = checked.verdict.details.end
    if nxt is None:
        over = msg("yuncos.ended_by", player=end["player"], reason=end["reason"]) if end else msg("moves.yuncos.all_eliminated")
        return TableMoves(player, None, over)
    name = player if player is not None else table.names[nxt.seat]
    rec = table.sheets[table.names.index(name)]
    noted, by = noted_dice(table, len(rec.turns) + 1) if dice is None else (None, None)
    answer = moves(rec, Checked(checked.state[name], checked.verdict), dice if dice is not None else noted)
    if answer.over is None and end is not None and len(rec.turns) >= end["turn"]:  # another player ended it
        answer = replace(answer, over=msg("yuncos.ended_by", player=end["player"], reason=end["reason"]), options=())
    return TableMoves(name, answer, answer.over, by)
