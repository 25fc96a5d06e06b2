"""The Yuncos map as plain data, read from the layout's text grid.

Kept free of pydantic so that the quick tally (`sheetkit score yuncos`) can read a level's
map straight from its TOML and start fast; loading a layout builds the same Board from
the validated model. The rules, the overlay and the random player all use this one Board.
`python bench/bench_coldstart.py` measures what reading it without pydantic saves the
tally: about 3x its start-up time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

Vertex = tuple[int, int]


@dataclass(frozen=True)
class Board:
    width: int  # vertices across
    height: int  # vertices down
    land: frozenset[Vertex]
    starts: dict[int, Vertex]
    fish: frozenset[Vertex]
    lights: frozenset[Vertex]
    stars: dict[Vertex, str]  # vertex -> colour key

    @classmethod
    def parse(cls, rows: list[list[str]], legend: Mapping[str, Mapping[str, Any]]) -> "Board":
        """`legend` maps a character to {terrain, icon, colour}; digits are start points."""
        land, fish, lights = set(), set(), set()
        starts: dict[int, Vertex] = {}
        stars: dict[Vertex, str] = {}
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                v = (c, r)
                if ch.isdigit():
                    land.add(v)
                    starts[int(ch)] = v
                    continue
                e = legend[ch]
                if e.get("terrain") == "land":
                    land.add(v)
                icon = e.get("icon")
                if icon == "fish":
                    fish.add(v)
                elif icon == "light":
                    lights.add(v)
                elif icon == "star":
                    stars[v] = e["colour"]
        return cls(len(rows[0]), len(rows), frozenset(land), dict(sorted(starts.items())),
                   frozenset(fish), frozenset(lights), stars)

    def on_map(self, v: Vertex) -> bool:
        return 0 <= v[0] < self.width and 0 <= v[1] < self.height
