"""Random legal games of Level X, for tests and examples.

`random_game(rng, players)` rolls dice and groups them, partly at random and partly with a
greedy eye on progress (so that games end in a reasonable number of turns), until the game
is over by L8. It returns the turn-by-turn record (as TOML-ready data, with the chips and
bonus tiles each turn took) and the final position derived from the same play.
"""

from __future__ import annotations

import random
from itertools import product

from sheetkit.games.levelx.rules import DICE, SQUARES, Game

MAX_TURNS = 4000


def partitions(dice: list[int]) -> list[list[list[int]]]:
    """Every way to split the dice into groups (each die in exactly one group)."""
    out: list[list[list[int]]] = []
    seen: set[tuple] = set()
    n = len(dice)
    for labels in product(range(n), repeat=n):
        # canonical labelling: first die in group 0, a new group number only when needed
        canon, mapping = [], {}
        for lab in labels:
            mapping.setdefault(lab, len(mapping))
            canon.append(mapping[lab])
        key = tuple(canon)
        if key in seen:
            continue
        seen.add(key)
        groups = [[dice[i] for i in range(n) if canon[i] == g] for g in range(len(mapping))]
        out.append(groups)
    return out


def _value(game: Game, player: str, groups: list[list[int]]) -> float:
    v = 0.0
    for g in groups:
        t = sum(g)
        if t in SQUARES:
            if game.pos[player][t] >= SQUARES[t] - 1 and game.stacks[t] > 0:
                # a chip; more so one that brings a set (and a bonus, L7) closer
                v += 3.0 + (2.0 if game.chips[player][t] == min(game.chips[player].values()) else 0.0)
            else:
                v += 1.0
    return v


def choose_groups(rng: random.Random, game: Game, player: str, dice: list[int], greedy: float) -> list[list[int]]:
    options = partitions(dice)
    if rng.random() < greedy:
        best = max(_value(game, player, g) for g in options)
        options = [g for g in options if _value(game, player, g) == best]
    groups = [list(g) for g in rng.choice(options)]
    rng.shuffle(groups)
    return groups


def random_game(rng: random.Random, players: list[str], greedy: float = 0.7) -> tuple[dict, dict]:
    """(turn-by-turn record, final-position record), both legal."""
    game = Game(players)
    turns = []
    while not game.over():
        if game.turns >= MAX_TURNS:  # pragma: no cover - a game that never ends is a bug
            raise RuntimeError("random game did not end")
        player = game.player_of_turn(game.turns + 1)
        dice = [rng.randint(1, 6) for _ in range(DICE)]
        groups = choose_groups(rng, game, player, dice, greedy)
        events = game.play_turn(groups)
        turns.append({"player": player, "dice": dice, "groups": groups,
                      "chips": [e.total for e in events if e.chip],
                      "bonuses": [b for e in events for b in e.bonuses]})
    record = {"game": "levelx", "kind": "game", "players": list(players), "turn": turns}
    return record, final_record(game)


def final_record(game: Game) -> dict:
    return {"game": "levelx", "kind": "final",
            "player": [{"name": p, "chips": {str(r): n for r, n in game.chips[p].items() if n},
                        "bonuses": list(game.bonuses[p])} for p in game.players]}
