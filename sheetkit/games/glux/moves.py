"""The legal-move question of Glüx, asked of a game state as python-chess asks a board:
for the player to move, every square they may place on with the squares that count to it
(G4-G7), whether the once-only start placement (G8) is still available and whether it is
forced (G9), and the faces their chips left can show (G1)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sheetkit.games.glux import rules
from sheetkit.grid import square_name


@dataclass(frozen=True, slots=True)
class Destination:
    square: rules.Square
    origins: tuple[rules.Square, ...]  # the player's chips that count exactly to it

    def to_json(self) -> dict[str, Any]:
        return {"square": square_name(self.square), "origins": [square_name(o) for o in self.origins]}


@dataclass(frozen=True, slots=True)
class GluxMoves:
    player: str | None  # None: the game is over, nobody can place
    destinations: tuple[Destination, ...] = ()
    start_square: rules.Square | None = None
    start_available: bool = False  # G8 unused and the start square not full
    start_forced: bool = False  # available and no placement by counting (G9)
    start_used: int | None = None  # the turn it was used
    faces: tuple[int, ...] = ()  # the faces the player's chips left can show (G1)

    def to_json(self) -> dict[str, Any]:
        if self.player is None:
            return {"game": "glux", "player": None, "over": True}
        return {"game": "glux", "player": self.player, "over": False,
                "destinations": [d.to_json() for d in self.destinations],
                "start": {"square": square_name(self.start_square), "available": self.start_available,
                          "forced": self.start_forced, "used": self.start_used},
                "faces": list(self.faces)}

    def lines(self, lang: str = "en") -> list[str]:
        from sheetkit.messages import text

        t = lambda mid, **kw: text(mid, lang, **kw)  # noqa: E731
        if self.player is None:
            return [t("moves.glux.over")]
        out = [t("moves.glux.head", player=self.player, faces=" ".join(map(str, self.faces)))]
        for d in self.destinations:
            out.append("  " + t("moves.glux.destination", square=square_name(d.square),
                                origins=", ".join(square_name(o) for o in d.origins)))
        start = square_name(self.start_square)
        if self.start_forced:
            out.append("  " + t("moves.glux.start_forced", square=start))
        elif self.start_available:
            out.append("  " + t("moves.glux.start_available", square=start))
        elif self.start_used is not None:
            out.append("  " + t("moves.glux.start_used", turn=self.start_used))
        else:
            out.append("  " + t("moves.glux.start_full", square=start))
        return out


def legal_moves(table: rules.GluxRules, state: rules.State) -> GluxMoves:
    """What the player due may do in `state`."""
    seat, _ = table.due(state, state.turns + 1)
    if state.over or seat is None:
        return GluxMoves(None)
    me = table.players[seat]
    by_dest: dict[rules.Square, list[rules.Square]] = {}
    for m in rules.counted_placements(state.board, me.name, table.foreign(seat)):
        by_dest.setdefault(m.dest, []).append(m.origin)
    dests = tuple(Destination(d, tuple(sorted(o, key=lambda s: (s[1], s[0]))))
                  for d, o in sorted(by_dest.items(), key=lambda kv: (kv[0][1], kv[0][0])))
    available = table.can_start(state, seat)
    faces = tuple(sorted(f for i, pair in enumerate(rules.PAIRS) if state.pairs[seat][i] < rules.PER_PAIR
                         for f in pair))
    return GluxMoves(me.name, dests, me.start, available, available and not dests, state.used[seat], faces)


def legal_moves_of(record, checked, dice=None) -> GluxMoves:
    """The legal next moves at the end of a game record (Glüx has no dice)."""
    return legal_moves(rules.GluxRules(record.board, record.spec.setups()), checked.state)
