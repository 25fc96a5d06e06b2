"""What the Glüx rules need of a board side, as plain data: no pydantic, so the quick tally
and the rules load fast. Layout loading builds it from the validated board model."""

from __future__ import annotations

from dataclasses import dataclass

Square = tuple[int, int]
PAIRS: tuple[tuple[int, int], ...] = ((1, 6), (2, 5), (3, 4))  # G1: the two faces of a chip


@dataclass(frozen=True)
class Geometry:
    """What the rules need of a board side: its size, rooms and start squares."""

    width: int
    height: int
    rooms: dict[str, tuple[Square, ...]]  # room id -> squares in reading order
    room_of: dict[Square, str]
    middle: str  # room id of the middle room
    starts: dict[Square, frozenset[int]]  # start square -> player counts it serves
    players: tuple[int, ...]

    @classmethod
    def from_spec(cls, spec) -> "Geometry":
        rooms: dict[str, list[Square]] = {k: [] for k in spec.rooms}
        starts: dict[Square, frozenset[int]] = {}
        for r, row in enumerate(spec.rows):
            for c, ch in enumerate(row):
                e = spec.legend[ch]
                if e.room is not None:
                    rooms[e.room].append((c, r))
                elif e.start:
                    starts[(c, r)] = frozenset(e.start)
        room_of = {sq: k for k, sqs in rooms.items() for sq in sqs}
        middle = next(k for k, r in spec.rooms.items() if r.middle)
        return cls(len(spec.rows[0]), len(spec.rows), {k: tuple(v) for k, v in rooms.items()},
                   room_of, middle, starts, tuple(spec.players))

    def on_board(self, sq: Square) -> bool:
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height

    def start_squares(self, n_players: int) -> list[Square]:
        return sorted((sq for sq, ns in self.starts.items() if n_players in ns), key=lambda s: (s[1], s[0]))
