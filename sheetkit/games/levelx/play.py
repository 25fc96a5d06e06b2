"""Random legal games of Level X, for tests, examples and benchmarks, played by a small
simulation of its own written from RULES.md L1-L9: it shares no code with the checker
(rules.py), so a bug there cannot hide itself in the games that test it.

The rows' lengths are read from the board layout the game is played on (L1: the shipped
`levelx-board`, or a designer's board file given as `board`), as a player reads them off the
printed board; the records it writes name that board.

`Table` is the simulation; `random_game(rng, players)` rolls and groups at random, with a
greedy eye on progress (so that games end in a reasonable number of turns), until the game
is over. `play_out(players, choices)` plays the turns it is given, each as (dice, which
grouping), and finishes the game with fixed dice: hypothesis draws the choices, so that a
failing game shrinks to a short one.
"""

from __future__ import annotations

import random
from functools import lru_cache

BOARD = "levelx-board"  # the shipped board
STACK = {5: 12, 6: 11, 7: 10, 8: 9, 9: 8, 10: 7}  # L2, with 4 players
TILES = [15, 12, 9, 6]  # L3, highest first
MAX_TURNS = 4000


@lru_cache(maxsize=8)
def _lengths_of_file(path: str, stamp: float) -> tuple[tuple[int, int], ...]:
    from sheetkit.tomlfile import read_toml

    return tuple((int(r["number"]), int(r["squares"])) for r in read_toml(path)["rows"])


def lengths(board: str = BOARD) -> dict[int, int]:
    """L1: squares per row (the last one is X), as the board layout `board` prints them: a
    shipped layout id or a layout file's path."""
    from pathlib import Path

    from sheetkit import layouts

    path = layouts.resolve(board)
    return dict(_lengths_of_file(str(path), Path(path).stat().st_mtime))


def splits(dice: list[int]) -> list[list[list[int]]]:
    """Every split of the dice into groups, each die in one group (set partitions)."""
    if not dice:
        return [[]]
    first, rest = dice[0], dice[1:]
    out = []
    for part in splits(rest):
        out.append([[first], *part])
        for k in range(len(part)):
            out.append(part[:k] + [[first, *part[k]]] + part[k + 1:])
    return out


class Table:
    """A game of Level X being played: where every pawn stands, what is left, who holds what."""

    def __init__(self, names: list[str], board: str = BOARD):
        self.names = list(names)
        self.board = board
        self.length = lengths(board)
        self.square = {(p, r): 0 for p in names for r in self.length}  # 0: before the first square
        self.left = {r: STACK[r] - (1 if len(names) < 4 else 0) for r in self.length}
        self.held = {p: {r: 0 for r in self.length} for p in names}
        self.tiles = list(TILES)
        self.won = {p: [] for p in names}
        self.played = 0
        self.last: int | None = None  # the game's last turn, once its end is known (L8)

    def mover(self) -> str:
        return self.names[self.played % len(self.names)]

    def finished(self) -> bool:
        return self.last is not None and self.played >= self.last

    def worth(self, groups: list[list[int]]) -> int:
        """How much a grouping helps the player to move: chips first, then steps."""
        p, v = self.mover(), 0
        for g in groups:
            t = sum(g)
            if t in self.length:
                near = self.square[p, t] + 1 >= self.length[t] and self.left[t]
                v += 3 if near else 1
        return v

    def play(self, dice: list[int], groups: list[list[int]]) -> dict:
        """Play a turn; its record entry, with the chips and tiles it took."""
        p = self.mover()
        self.played += 1
        chips, tiles = [], []
        for g in groups:
            t = sum(g)
            if t not in self.length:  # L4: nothing happens
                continue
            x = self.length[t]
            if self.square[p, t] < x:
                self.square[p, t] += 1
                if self.square[p, t] == x:  # L5: whoever else stood on X goes back
                    for q in self.names:
                        if q != p and self.square[q, t] == x:
                            self.square[q, t] = 0
            if self.square[p, t] == x and self.left[t]:  # L6
                self.left[t] -= 1
                self.held[p][t] += 1
                chips.append(t)
                while self.tiles and min(self.held[p].values()) > len(self.won[p]):  # L7
                    tiles.append(self.tiles.pop(0))
                    self.won[p].append(tiles[-1])
        empty = [r for r in self.length if not self.left[r]]
        if self.last is None and (not self.tiles or len(empty) >= 3):  # L8: finish the round
            n = len(self.names)
            self.last = (self.played + n - 1) // n * n
        return {"player": p, "dice": list(dice), "groups": [list(g) for g in groups],
                "chips": chips, "bonuses": tiles}

    def record(self, turns: list[dict]) -> dict:
        board = {} if self.board == BOARD else {"board": self.board}  # the shipped board goes unnamed
        return {"game": "levelx", "kind": "game", "players": list(self.names), **board, "turn": turns}

    def final(self) -> dict:
        return {"game": "levelx", "kind": "final",
                "player": [{"name": p, "chips": {str(r): n for r, n in self.held[p].items() if n},
                            "bonuses": list(self.won[p])} for p in self.names]}


def random_game(rng: random.Random, players: list[str], greedy: float = 0.7,
                board: str = BOARD) -> tuple[dict, dict]:
    """(turn-by-turn record, final-position record), both legal, on `board`."""
    table = Table(players, board)
    turns = []
    while not table.finished():
        if table.played >= MAX_TURNS:  # pragma: no cover - a game that never ends is a bug
            raise RuntimeError("random game did not end")
        dice = [rng.randint(1, 6) for _ in range(4)]
        options = splits(dice)
        if rng.random() < greedy:
            best = max(map(table.worth, options))
            options = [g for g in options if table.worth(g) == best]
        groups = rng.choice(options)
        rng.shuffle(groups)
        turns.append(table.play(dice, groups))
    return table.record(turns), table.final()


def play_out(players: list[str], choices: list[tuple[list[int], int]], finish: bool = True,
             board: str = BOARD) -> tuple[dict, dict, int]:
    """Play the given turns, each (dice, index into splits(dice)); stop early if the game
    ends. With `finish`, play on with fixed dice and greedy groupings until it is over.
    Returns the two records and how many of the turns were the given ones."""
    table = Table(players, board)
    turns = []
    for dice, k in choices:
        if table.finished():
            break
        options = splits(dice)
        turns.append(table.play(dice, options[k % len(options)]))
    given = len(turns)
    rng = random.Random(0)
    while finish and not table.finished():
        dice = [rng.randint(1, 6) for _ in range(4)]
        turns.append(table.play(dice, max(splits(dice), key=table.worth)))
    return table.record(turns), table.final(), given
