"""Helpers for the Glüx tests: small board sides built as layout models, and a whole
replay of a game in the shared shape."""

from __future__ import annotations

from types import SimpleNamespace

from sheetkit.checking.replay import replay
from sheetkit.games.glux import rules
from sheetkit.games.glux.layout import GluxBoard


def _label(text: str) -> dict:
    return {"es": text, "en": text}


def side(grid: str, legend: dict, players: list[int], middle: str = "m") -> GluxBoard:
    """A board side from a text grid; `legend` maps characters to room ids, "corridor" or
    a list of player counts (a start square)."""
    entries = {}
    for ch, what in legend.items():
        if isinstance(what, list):
            entries[ch] = {"start": what}
        elif what == "corridor":
            entries[ch] = {"corridor": True}
        else:
            entries[ch] = {"room": what}
    rooms = {r: {"label": _label(r), "middle": r == middle}
             for r in sorted({w for w in legend.values() if isinstance(w, str) and w != "corridor"})}
    labels = {k: _label(k) for k in ("side", "start", "players", "assembly", "assembly_note", "tile", "row",
                                     "column", "overlap")}
    return GluxBoard.model_validate({
        "game": "glux", "kind": "board", "title": _label("test"), "side": "2p", "players": players,
        "square": 25.0, "grid": grid, "legend": entries, "rooms": rooms, "labels": labels})


# One row of 7 squares, start squares at both ends and a room of one square in the middle.
ROW = side("S . . m . . S", {"S": [2], ".": "corridor", "m": "m"}, [2])
# 5 x 5 squares: a 3 x 3 middle room, the four corners start squares.
CRAMPED = side("""
S . . . F
. m m m .
. m m m .
. m m m .
F . . . S
""", {"S": [2, 4], "F": [4], ".": "corridor", "m": "m"}, [2, 4])


def run(board_side, setups, placements, finished: bool = True) -> SimpleNamespace:
    """Replay a game: its findings, the state at the end, and the players out (G9) and
    the turns of their start placements (G8) as the checker reports them."""
    table = rules.GluxRules(board_side, setups)
    done = replay(table, placements, finished=finished)
    state = table.settle(done.state)
    return SimpleNamespace(findings=done.findings, state=done.state, board=state.board, out=state.out_since(),
                           used_start=state.used_start(), table=table)
