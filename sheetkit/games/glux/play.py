"""Random legal games of Glüx, for tests and examples: each player draws from a bag of 24
chips (G1), places by counting (G4-G7), now and then uses the start option (G8), must use
it when nothing else is possible and is out when even that is gone (G9).

The game is played here on its own board, with its own reading of the rules, and shares
nothing with the checker (rules.py) but the record's data types: a test that checks these
games tests the checker against a second, independent implementation.
"""

from __future__ import annotations

import random

from sheetkit.games.glux.rules import Placement, PlayerSetup
from sheetkit.grid import square_name

PLAYER_NAMES = ("Ana", "Ben", "Carla", "Dario")
COLOURS = ("yellow", "green", "red", "violet")
FACES = ((1, 6), (2, 5), (3, 4))  # the two faces of each kind of chip, 8 of each per player


def _starts(side, n_players: int, rng: random.Random) -> list[tuple[int, int]]:
    """Start squares for the table: 2 players on either diagonal (G3), else the marked ones."""
    if n_players == 2:
        w, h = side.width - 1, side.height - 1
        return list(rng.choice(([(0, 0), (w, h)], [(w, 0), (0, h)])))
    return side.start_squares(n_players)


def random_game(side, n_players: int, rng: random.Random, start_chance: float = 0.03,
                ) -> tuple[list[PlayerSetup], list[Placement]]:
    """Play one legal game to its end on the board side `side` (its width, height and
    start squares); the players' setups and every placement in order."""
    starts = _starts(side, n_players, rng)
    rng.shuffle(starts)
    stacks: dict[tuple[int, int], list[tuple[str, int]]] = {}
    bags, setups = {}, []
    for i in range(n_players):
        name = PLAYER_NAMES[i]
        bags[name] = [chip for chip in FACES for _ in range(8)]
        rng.shuffle(bags[name])
        face = rng.choice(bags[name].pop())
        setups.append(PlayerSetup(name, name[0], starts[i], face))
        stacks[starts[i]] = [(name, face)]
    start_of = {s.name: s.start for s in setups}

    def placements_by_counting(name: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        out = []
        for (x, y), stack in sorted(stacks.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            owner, pips = stack[-1]
            if owner != name:
                continue
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                path = [(x + dx * k, y + dy * k) for k in range(1, pips + 1)]
                dest = path[-1]
                if not (0 <= dest[0] < side.width and 0 <= dest[1] < side.height):
                    continue  # off the board
                if any(sq in stacks for sq in path[:-1]):
                    continue  # blocked on the way
                if len(stacks.get(dest, ())) >= 2:
                    continue  # full
                if dest in start_of.values() and dest != start_of[name]:
                    continue  # someone else's start square
                out.append(((x, y), dest))
        return out

    used: set[str] = set()
    out: set[str] = set()
    placements: list[Placement] = []
    while True:
        moved = False
        for name in start_of:
            if name in out or not bags[name]:
                continue
            moves = placements_by_counting(name)
            can_start = name not in used and len(stacks[start_of[name]]) < 2
            face = rng.choice(bags[name].pop())
            if can_start and (not moves or rng.random() < start_chance):
                used.add(name)
                stacks[start_of[name]].append((name, face))
                placements.append(Placement(name, face))
            elif moves:
                origin, dest = rng.choice(moves)
                stacks.setdefault(dest, []).append((name, face))
                placements.append(Placement(name, face, origin, dest))
            else:
                out.add(name)
                continue
            moved = True
        if not moved:
            return setups, placements


def final_stacks(setups: list[PlayerSetup], placements: list[Placement]) -> dict[tuple[int, int], list[tuple[str, int]]]:
    """The board after a legal game (as random_game made it): square -> (owner, face) bottom first."""
    start_of = {s.name: s.start for s in setups}
    stacks = {s.start: [(s.name, s.start_chip)] for s in setups}
    for p in placements:
        stacks.setdefault(start_of[p.player] if p.start else p.dest, []).append((p.player, p.face))
    return stacks


def _head(kind: str, layout_id: str, setups: list[PlayerSetup], comment: str,
          start_chips: bool, extra: str = "") -> list[str]:
    """A record's first lines: the comment, game, kind, board and the players."""
    lines = [f"# {comment}", 'game = "glux"', f'kind = "{kind}"', f'board = "{layout_id}"']
    if extra:
        lines.append(extra)
    lines.append("players = [")
    for i, s in enumerate(setups):
        chip = f", start_chip = {s.start_chip}" if start_chips else ""
        lines.append(f'  {{ name = "{s.name}", letter = "{s.letter}", colour = "{COLOURS[i]}", '
                     f'start = "{square_name(s.start)}"{chip} }},')
    return lines + ["]"]


def move_line(letter: str, p: Placement, short: bool = False) -> str:
    """One placement in the record's notation; `short` leaves out the square counted from."""
    if p.start:
        return f"{letter} start {p.face}"
    if short or p.origin is None:
        return f"{letter} {square_name(p.dest)} {p.face}"
    return f"{letter} {square_name(p.origin)}-{square_name(p.dest)} {p.face}"


def game_toml(layout_id: str, setups: list[PlayerSetup], placements: list[Placement],
              comment: str = "", *, in_progress: bool = False, short: bool = False) -> str:
    letters = {s.name: s.letter for s in setups}
    comment = comment or ("A game of Glüx in progress." if in_progress else "A game of Glüx, every placement in order.")
    lines = _head("game", layout_id, setups, comment, True, "in_progress = true" if in_progress else "")
    lines += ['moves = """']
    lines += [move_line(letters[p.player], p, short) for p in placements]
    lines.append('"""')
    return "\n".join(lines) + "\n"


def board_toml(layout_id: str, side, setups: list[PlayerSetup], placements: list[Placement],
               comment: str = "", below: bool = True) -> str:
    """The final board of a legal game as a board record; `below` notes the chip under
    each stack ("A3/B5"), else only that there is one ("A3*")."""
    letters = {s.name: s.letter for s in setups}
    stacks = final_stacks(setups, placements)
    rows = []
    for r in range(side.height):
        toks = []
        for c in range(side.width):
            stack = stacks.get((c, r), [])
            chips = [f"{letters[o]}{f}" for o, f in reversed(stack)]
            tok = "." if not chips else chips[0] if len(chips) == 1 else (
                "/".join(chips) if below else chips[0] + "*")
            toks.append(tok)
        rows.append(" ".join(toks))
    lines = _head("board", layout_id, setups, comment or "The final board of a game of Glüx.", False)
    lines += ['grid = """', *rows, '"""']
    return "\n".join(lines) + "\n"
