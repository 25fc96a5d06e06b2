"""Random legal games of Glüx, for tests and examples: each player draws from a bag of 24
chips (G1), places by counting (G4-G7), now and then uses the start option (G8), must use
it when nothing else is possible and is out when even that is gone (G9)."""

from __future__ import annotations

import random

from sheetkit.games.glux import rules
from sheetkit.games.glux.geometry import PAIRS, Geometry
from sheetkit.grid import square_name

PLAYER_NAMES = ("Ana", "Ben", "Carla", "Dario")
COLOURS = ("yellow", "green", "red", "violet")


def _bag(rng: random.Random) -> list[tuple[int, int]]:
    bag = [pair for pair in PAIRS for _ in range(rules.PER_PAIR)]
    rng.shuffle(bag)
    return bag


def random_game(geom: Geometry, n_players: int, rng: random.Random, start_chance: float = 0.03,
                ) -> tuple[list[rules.PlayerSetup], list[rules.Placement]]:
    """Play one legal game to its end; the players' setups and every placement in order."""
    starts = geom.start_squares(n_players)
    rng.shuffle(starts)
    bags = {}
    setups = []
    for i in range(n_players):
        name = PLAYER_NAMES[i]
        bags[name] = _bag(rng)
        face = rng.choice(bags[name].pop())
        setups.append(rules.PlayerSetup(name, name[0], starts[i], face))
    board = rules.Board(geom)
    for s in setups:
        board.put(s.start, rules.Chip(s.name, s.start_chip))
    start_of = {s.name: s.start for s in setups}
    used: set[str] = set()
    out: set[str] = set()
    placements: list[rules.Placement] = []
    names = [s.name for s in setups]
    while True:
        moved = False
        for name in names:
            if name in out or not bags[name]:
                continue
            foreign = {sq for who, sq in start_of.items() if who != name}
            moves = rules.counted_placements(board, name, foreign)
            can_start = name not in used and board.count(start_of[name]) < rules.FULL
            face = rng.choice(bags[name].pop())
            if can_start and (not moves or rng.random() < start_chance):
                used.add(name)
                board.put(start_of[name], rules.Chip(name, face))
                placements.append(rules.Placement(name, face))
            elif moves:
                m = rng.choice(moves)
                board.put(m.dest, rules.Chip(name, face))
                placements.append(rules.Placement(name, face, m.origin, m.dest))
            else:
                out.add(name)
                continue
            moved = True
        if not moved:
            return setups, placements


def _head(kind: str, layout_id: str, setups: list[rules.PlayerSetup], comment: str,
          start_chips: bool) -> list[str]:
    """A record's first lines: the comment, game, kind, board and the players."""
    lines = [f"# {comment}", 'game = "glux"', f'kind = "{kind}"', f'board = "{layout_id}"', "players = ["]
    for i, s in enumerate(setups):
        chip = f", start_chip = {s.start_chip}" if start_chips else ""
        lines.append(f'  {{ name = "{s.name}", letter = "{s.letter}", colour = "{COLOURS[i]}", '
                     f'start = "{square_name(s.start)}"{chip} }},')
    return lines + ["]"]


def game_toml(layout_id: str, setups: list[rules.PlayerSetup], placements: list[rules.Placement],
              comment: str = "") -> str:
    letters = {s.name: s.letter for s in setups}
    lines = _head("game", layout_id, setups, comment or "A game of Glüx, every placement in order.", True)
    lines += ['moves = """']
    for p in placements:
        if p.start:
            lines.append(f"{letters[p.player]} start {p.face}")
        else:
            lines.append(f"{letters[p.player]} {square_name(p.origin)}-{square_name(p.dest)} {p.face}")
    lines.append('"""')
    return "\n".join(lines) + "\n"


def board_toml(layout_id: str, setups: list[rules.PlayerSetup], board: rules.Board, comment: str = "") -> str:
    from sheetkit.games.glux.check import grid_text

    letters = {s.name: s.letter for s in setups}
    lines = _head("board", layout_id, setups, comment or "The final board of a game of Glüx.", False)
    lines += ['grid = """', grid_text(board, letters), '"""']
    return "\n".join(lines) + "\n"
