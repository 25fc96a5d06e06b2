"""Level X rules L1-L9 (RULES.md): the board, the supply, and a replayable game state.

One `Game` object is the single source of truth while a turn-by-turn record is replayed:
legality is asked of it, and it reports what happened (moves, bumps, chips, bonuses).
"""

from __future__ import annotations

from dataclasses import dataclass, field

ROWS = (5, 6, 7, 8, 9, 10)  # L1
SQUARES = {5: 4, 6: 4, 7: 3, 8: 3, 9: 2, 10: 2}  # L1: the last square is X
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


class Game:
    """The position of a game of Level X and the rules that change it."""

    def __init__(self, players: list[str]):
        self.players = list(players)
        self.n = len(players)
        # pawn position per player and row: 0 is the start area, SQUARES[row] is X
        self.pos = {p: {r: 0 for r in ROWS} for p in players}
        self.on_x: dict[int, str | None] = {r: None for r in ROWS}
        self.stacks = supply(self.n)
        self.chips = {p: {r: 0 for r in ROWS} for p in players}
        self.bonus_left = list(BONUSES)
        self.bonuses: dict[str, list[int]] = {p: [] for p in players}
        self.turns = 0  # turns played
        self.ended_at: int | None = None  # turn number (from 1) on which the end was triggered

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
        return -(-self.ended_at // self.n) * self.n

    def over(self) -> bool:
        last = self.last_turn()
        return last is not None and self.turns >= last

    def player_of_turn(self, turn: int) -> str:
        """Turn numbers from 1; the first player (players[0]) plays turns 1, n+1, ..."""
        return self.players[(turn - 1) % self.n]

    # -- a turn (L4-L7) ------------------------------------------------------------------

    def play_group(self, player: str, total: int) -> Event:
        ev = Event(total)
        if total not in SQUARES:
            return ev  # L4: totals outside 5-10 do nothing
        row = total
        x = SQUARES[row]
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
        return ev

    def play_turn(self, groups: list[list[int]]) -> list[Event]:
        """Play the next turn (its player is implied by the turn order)."""
        self.turns += 1
        player = self.player_of_turn(self.turns)
        events = [self.play_group(player, sum(g)) for g in groups]
        if self.ended_at is None and self.end_triggered():
            self.ended_at = self.turns
        return events

    def score(self, player: str) -> int:
        return chip_points(self.chips[player]) + sum(self.bonuses[player])


def is_partition(dice: list[int], groups: list[list[int]]) -> bool:
    """L4: every die in exactly one group."""
    return sorted(dice) == sorted(d for g in groups for d in g) and all(groups)


def winners(totals: dict[str, int]) -> list[str]:
    """L9: most points; a tie is shared."""
    best = max(totals.values())
    return [p for p, t in totals.items() if t == best]
