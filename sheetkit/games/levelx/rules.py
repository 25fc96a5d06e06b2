"""Level X rules L1-L9 (RULES.md): the board, the supply, the position of a game, and the
rules that play a turn on it in the shared replay shape (sheetkit/checking/replay.py).

A `State` is the whole position (pawns, X squares, stacks, chips, bonus tiles, the end)
on the board it is played on (L1: the rows' lengths are that board layout's, see
board.py): a few dozen numbers whatever the length of the game, so a step copies it and returns the
copy, and an earlier state stays as it was (undo, the legal-move question, prefixes).
`Rules.step` plays one recorded turn and says what is wrong with it; `Rules.end` what is
wrong with the record as a finished game (L8).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from itertools import product
from typing import Any

from sheetkit.messages import Msg, msg
from sheetkit.checking.verdict import Finding
from sheetkit.games.levelx.board import ROWS  # L1: the rows are the dice totals; their lengths are the board's

CHIPS = {5: 12, 6: 11, 7: 10, 8: 9, 9: 8, 10: 7}  # L2, with 4 players
BONUSES = (15, 12, 9, 6)  # L3, taken highest first (L7)
DICE = 4  # L3
EMPTY_ROWS_TO_END = 3  # L8


def supply(players: int) -> dict[int, int]:
    """Chips per row at the start (L2): one fewer in each stack below 4 players."""
    return {r: CHIPS[r] - (1 if players < 4 else 0) for r in ROWS}


def full_sets(chips: dict[int, int]) -> int:
    """How many complete sets (one chip of each value 5-10) a player holds (L7)."""
    return min(chips.get(r, 0) for r in ROWS)


def chip_points(chips: dict[int, int]) -> int:
    return sum(r * n for r, n in chips.items())


@dataclass(slots=True)
class Event:
    """What one group of dice did on a turn."""

    total: int
    moved: bool = False  # the pawn in row `total` stepped forward
    bumped: str | None = None  # the player sent back to the start from X (L5)
    chip: bool = False  # a chip was taken (L6)
    bonuses: list[int] = field(default_factory=list)  # bonus tiles taken right after (L7)
    square: int | None = None  # where the pawn in row `total` stands after it (None: no such row)
    x: int | None = None  # the X square of row `total` on this board: its length (None: no such row)

    def to_json(self) -> dict:
        return {"total": self.total, "moved": self.moved, "square": self.square, "x": self.x, "bumped": self.bumped,
                "chip": self.chip, "bonuses": list(self.bonuses)}


@dataclass(slots=True)
class State:
    """The position of a game of Level X. Changed only on a fresh copy (`play`)."""

    players: tuple[str, ...]
    squares: dict[int, int]  # L1: squares per row on the board played on, the last one X
    pos: dict[str, dict[int, int]]  # per player and row: 0 is the start area, squares[row] is X
    on_x: dict[int, str | None]
    stacks: dict[int, int]
    chips: dict[str, dict[int, int]]
    bonus_left: list[int]
    bonuses: dict[str, list[int]]
    turns: int = 0  # turns played
    ended_at: int | None = None  # turn number (from 1) on which the end was triggered
    # (player, row) -> (by whom, on which turn) the pawn was last sent back: why no chip (L5)
    bumps: dict[tuple[str, int], tuple[str, int]] = field(default_factory=dict)
    after_end: int = 0  # turns recorded after the game was over (not played)
    board: Any = field(default=None, compare=False, repr=False)  # the board layout (layout.Board) played on, to draw it

    @classmethod
    def start(cls, players, board=None) -> State:
        """The start of a game on `board` (a board layout; None: the shipped board)."""
        if board is None:
            from sheetkit.games.levelx.board import shipped

            board = shipped()
        players = tuple(players)
        return cls(players, {r.number: r.squares for r in board.rows}, {p: {r: 0 for r in ROWS} for p in players},
                   {r: None for r in ROWS}, supply(len(players)), {p: {r: 0 for r in ROWS} for p in players},
                   list(BONUSES), {p: [] for p in players}, board=board)

    def copy(self) -> State:
        return replace(self, pos={p: dict(v) for p, v in self.pos.items()}, on_x=dict(self.on_x),
                       stacks=dict(self.stacks), chips={p: dict(v) for p, v in self.chips.items()},
                       bonus_left=list(self.bonus_left), bonuses={p: list(v) for p, v in self.bonuses.items()},
                       bumps=dict(self.bumps))

    # -- the end (L8) --------------------------------------------------------------------

    def empty_rows(self) -> int:
        return sum(1 for r in ROWS if self.stacks[r] == 0)

    def end_triggered(self) -> bool:
        return not self.bonus_left or self.empty_rows() >= EMPTY_ROWS_TO_END

    def last_turn(self) -> int | None:
        """The number of the last turn of the game, once the end is triggered: the round
        is completed so that every player has had the same number of turns."""
        if self.ended_at is None:
            return None
        n = len(self.players)
        return -(-self.ended_at // n) * n

    def over(self) -> bool:
        last = self.last_turn()
        return last is not None and self.turns >= last

    def player_of_turn(self, turn: int) -> str:
        """Turn numbers from 1; the first player (players[0]) plays turns 1, n+1, ..."""
        return self.players[(turn - 1) % len(self.players)]

    def to_move(self) -> str | None:
        return None if self.over() else self.player_of_turn(self.turns + 1)

    def score(self, player: str) -> int:
        return chip_points(self.chips[player]) + sum(self.bonuses[player])

    # -- a turn (L4-L7) ------------------------------------------------------------------

    def play(self, groups: list[list[int]]) -> tuple[State, list[Event]]:
        """The state after the next turn (its player is implied by the turn order)."""
        s = self.copy()
        s.turns += 1
        player = s.player_of_turn(s.turns)
        events = [s._group(player, sum(g)) for g in groups]
        for e in events:
            if e.bumped:
                s.bumps[e.bumped, e.total] = (player, s.turns)
        if s.ended_at is None and s.end_triggered():
            s.ended_at = s.turns
        return s, events

    def play_group(self, player: str, total: int) -> tuple[State, Event]:
        """The state after one group of dice totalling `total` for `player`."""
        s = self.copy()
        return s, s._group(player, total)

    def _group(self, player: str, total: int) -> Event:  # on a fresh copy only
        ev = Event(total)
        if total not in self.squares:
            return ev  # L4: totals outside 5-10 do nothing
        row = total
        x = ev.x = self.squares[row]
        if self.pos[player][row] < x:  # L4: a pawn on X does not move
            self.pos[player][row] += 1
            ev.moved = True
            if self.pos[player][row] == x:
                occupant = self.on_x[row]
                if occupant is not None and occupant != player:  # L5
                    self.pos[occupant][row] = 0
                    ev.bumped = occupant
                self.on_x[row] = player
        if self.pos[player][row] == x and self.stacks[row] > 0:  # L6
            self.stacks[row] -= 1
            self.chips[player][row] += 1
            ev.chip = True
            # L7: a bonus as soon as a set completes, highest first, while bonuses remain
            while self.bonus_left and full_sets(self.chips[player]) > len(self.bonuses[player]):
                tile = self.bonus_left.pop(0)
                self.bonuses[player].append(tile)
                ev.bonuses.append(tile)
        ev.square = self.pos[player][row]
        return ev


def is_partition(dice: list[int], groups: list[list[int]]) -> bool:
    """L4: every die in exactly one group."""
    return sorted(dice) == sorted(d for g in groups for d in g) and all(groups)


def groupings(dice: list[int]) -> list[list[list[int]]]:
    """Every way to split the dice into groups (each die in exactly one group), each once
    even when dice show the same value."""
    out: list[list[list[int]]] = []
    seen: set[tuple] = set()
    n = len(dice)
    for labels in product(range(n), repeat=n):
        # canonical labelling: first die in group 0, a new group number only when needed
        canon, mapping = [], {}
        for lab in labels:
            mapping.setdefault(lab, len(mapping))
            canon.append(mapping[lab])
        groups = [[dice[i] for i in range(n) if canon[i] == g] for g in range(len(mapping))]
        key = tuple(sorted(tuple(sorted(g)) for g in groups))
        if key not in seen:
            seen.add(key)
            out.append(groups)
    return out


def winners(totals: dict[str, int]) -> list[str]:
    """L9: most points; a tie is shared."""
    best = max(totals.values())
    return [p for p, t in totals.items() if t == best]


# -- the replay (sheetkit/checking/replay.py) --------------------------------------------------

class Rules:
    """Level X in the shared replay shape: a move is one recorded turn (an object with
    player, dice, groups and optional chips and bonuses, as record.Turn)."""

    def __init__(self, players: list[str], board=None):
        self.players = list(players)
        self.board = board  # the board layout the record names (None: the shipped board)

    def initial(self) -> State:
        return State.start(self.players, self.board)

    def step(self, state: State, turn, number: int) -> tuple[State, list[Finding]]:
        where, at = msg("where.levelx.turn", turn=number), {"turn": number}
        if state.over():  # said once, with the count, by `overrun`
            return replace(state, after_end=state.after_end + 1), []
        findings: list[Finding] = []
        expected = state.player_of_turn(state.turns + 1)
        if turn.player is not None and turn.player != expected:
            findings.append(Finding("L8", where, msg("finding.levelx.L8_wrong_player", player=turn.player,
                                                     expected=expected, order=", ".join(self.players)), at=at))
        if not is_partition(turn.dice, turn.groups):
            findings.append(Finding("L4", where, msg("finding.levelx.L4_partition", groups=str(turn.groups),
                                                     dice=str(turn.dice)), at=at))
        after, events = state.play(turn.groups)
        got_chips = [e.total for e in events if e.chip]
        got_bonus = [b for e in events for b in e.bonuses]
        if turn.chips is not None and sorted(turn.chips) != sorted(got_chips):
            why = (_why_no_chip(after, expected, turn.groups, turn.chips, got_chips)
                   or _why_chip(events, turn.chips))
            said = msg("finding.levelx.L6_chips", recorded=str(sorted(turn.chips)), got=str(sorted(got_chips)))
            findings.append(Finding("L6", where, msg("finding.levelx.because", said=said, why=why) if why else said,
                                    at=at))
        if turn.bonuses is not None and sorted(turn.bonuses) != sorted(got_bonus):
            sets, tiles = full_sets(after.chips[expected]), len(after.bonuses[expected])
            left = ", ".join(map(str, after.bonus_left)) or msg("levelx.none")
            findings.append(Finding("L7", where, msg("finding.levelx.L7_bonuses", recorded=str(sorted(turn.bonuses)),
                                                     got=str(sorted(got_bonus)), player=expected, sets=sets,
                                                     tiles=tiles, left=left), at=at))
        return after, findings

    def overrun(self, state: State) -> list[Finding]:
        """Turns recorded after the game was over (L8): wrong in a game in progress too."""
        if not state.after_end:
            return []
        first = state.turns + 1
        return [Finding("L8", msg("where.levelx.turn", turn=first),
                        msg("finding.levelx.L8_overrun", last=state.last_turn(), ended=state.ended_at,
                            more=state.after_end), at={"turn": first})]

    def end(self, state: State) -> list[Finding]:
        if state.over():
            return self.overrun(state)
        last = state.turns
        if state.ended_at is None:
            return [Finding("L8", msg("where.levelx.after_turn", turn=last),
                            msg("finding.levelx.L8_stops_early", tiles=", ".join(map(str, state.bonus_left)),
                                empty=state.empty_rows()), at={"turn": last})]
        missing = [state.player_of_turn(k) for k in range(state.turns + 1, state.last_turn() + 1)]
        return [Finding("L8", msg("where.levelx.after_turn", turn=last),
                        msg("finding.levelx.L8_round_incomplete", ended=state.ended_at, players=", ".join(missing)),
                        at={"turn": last})]


def _why_chip(events: list[Event], claimed: list[int]) -> "Msg | None":
    """Why a chip left out of the record was taken, for the first such value (L6)."""
    missing = sorted((Counter(e.total for e in events if e.chip) - Counter(claimed)).elements())
    if not missing:
        return None
    r = missing[0]
    first = next(e for e in events if e.chip and e.total == r)
    if first.moved:
        return msg("levelx.why.reaches_x", row=r)
    return msg("levelx.why.already_on_x", row=r)


def _why_no_chip(after: State, player: str, groups: list[list[int]], claimed: list[int], got: list[int]) -> "Msg | None":
    """Why a claimed chip was not taken, for the first value claimed too often (L6):
    after the turn, since only the player moves on their turn."""
    extra = sorted((Counter(claimed) - Counter(got)).elements())
    if not extra:
        return None
    r = extra[0]
    rolled = sum(1 for g in groups if sum(g) == r)
    if rolled == 0:
        return msg("levelx.why.no_group", row=r)
    if Counter(claimed)[r] > rolled:
        return msg("levelx.why.one_per_group", row=r, groups=rolled)
    if after.on_x[r] != player:
        if (player, r) in after.bumps:
            by, turn = after.bumps[player, r]
            return msg("levelx.why.sent_back", row=r, by=by, turn=turn)
        if after.on_x[r]:
            return msg("levelx.why.held_by", row=r, player=after.on_x[r])
        return msg("levelx.why.not_on_x", row=r)
    if after.stacks[r] == 0:
        return msg("levelx.why.row_empty", row=r)
    return msg("levelx.why.short_of_x", row=r)
