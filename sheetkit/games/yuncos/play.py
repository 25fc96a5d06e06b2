"""A random Yuncos player: plays legal solo games on a sheet level and writes the record.

Used by the property tests (the checker must accept every game and agree with its score)
and the benchmark. The player keeps its own simple account of the game, written from the
rules and independent of `rules.py`, so the two check each other.

    game = play(layout, random.Random(7))
    print(game.toml)            # a record that `sheetkit check` accepts
    game.total                  # the score the player worked out
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from sheetkit.tomlfile import dump_toml
from sheetkit.games.yuncos.layout import STEPS

DIAG = {"NE": (1, -1), "NW": (-1, -1), "SE": (1, 1), "SW": (-1, 1)}
NAMES = {v: k for k, v in {**STEPS, **DIAG}.items()}
TRACK = (2, 5, 9, 14, 20, 27)
ORIENT = (
    lambda x, y: (x, y), lambda x, y: (-y, x), lambda x, y: (-x, -y), lambda x, y: (y, -x),
    lambda x, y: (-x, y), lambda x, y: (x, -y), lambda x, y: (y, x), lambda x, y: (-y, -x),
)


@dataclass
class Game:
    record: dict[str, Any]
    parts: dict[str, int]
    total: int
    end: str | None  # why the game ended, None if it stopped at max_turns
    log: list[dict[str, Any]] = field(default_factory=list)  # per turn: what the player did
    eliminated: bool = False  # by its crashes (Y20); `end` is "island" if it came back there first (Y21)

    @property
    def toml(self) -> str:
        return to_toml(self.record)


class _Player:
    def __init__(self, spec, rng: random.Random, ability_rate: float, home_after: int = 8):
        self.home_after = home_after
        self.spec = spec
        self.board = spec.board
        self.rng = rng
        self.rate = ability_rate
        self.nests: list[list[int]] = [[], []]
        self.lums: list[list[int]] = [[] for _ in range(spec.luminaries.columns)]
        self.boxes: dict[str, dict] = {}  # id -> {"kind", "unlocked", "used"}
        self.eaten: set = set()
        self.stars: dict = {}
        self.visited: set = set()
        self.diag_squares: dict = {}
        self.marks = 0

    # ---- abilities

    def unlock(self, box: str, kind: str, turn: int) -> None:
        self.boxes.setdefault(box, {"kind": kind, "unlocked": turn, "used": None})

    def ready(self, kind: str, turn: int) -> list[str]:
        ids = [b for b, s in self.boxes.items() if s["kind"] == kind and s["used"] is None and s["unlocked"] < turn]
        return sorted(ids, key=lambda b: self.boxes[b]["unlocked"])

    def take(self, kind: str, turn: int) -> str:
        box = self.ready(kind, turn)[0]
        self.boxes[box]["used"] = turn
        return box

    def standing(self) -> dict[str, Any]:
        """What the sheet shows now: the marked boxes and the score parts (Y22)."""
        spec = self.spec
        fish = min(len(self.eaten), len(spec.fish.values))
        crashes = min(self.marks, len(TRACK))
        parts = {
            "nests": 2 * sum(len(r) for r in self.nests),
            "luminaries": 6 * sum(1 for c in self.lums if len(c) == spec.luminaries.height),
            "fish": spec.fish.values[fish - 1] if fish else 0,
            "navigation": len(self.stars) * len(set(self.stars.values())),
            "crashes": -(TRACK[crashes - 1] if crashes else 0),
        }
        return {"fish_marked": fish, "crashes_marked": crashes,
                "used": sorted(b for b, s in self.boxes.items() if s["used"] is not None), "parts": parts}

    # ---- puzzles

    def fits(self, v: int) -> list[str]:
        out = []
        L = self.spec.nests.length
        if len(self.nests[0]) < L and v not in self.nests[0]:
            out.append("nest1")
        if len(self.nests[1]) < L and (not self.nests[1] or v < self.nests[1][-1]):
            out.append("nest2")
        H = self.spec.luminaries.height
        for c, col in enumerate(self.lums):
            lvl = len(col)
            if lvl < H and (not col or v > col[-1]) and all(len(o) <= lvl or o[lvl] != v for o in self.lums):
                out.append(f"lum{c + 1}")
        return out

    def slack(self, cell: str, v: int) -> float:
        """How much room writing v there leaves for the boxes still to fill (higher is better)."""
        if cell == "nest1":
            return 1.0
        if cell == "nest2":
            left = self.spec.nests.length - len(self.nests[1]) - 1
            return (v - 1) - left
        col = self.lums[int(cell[3:]) - 1]
        left = self.spec.luminaries.height - len(col) - 1
        return (6 - v) - left

    def choose(self, cells: list[str], v: int) -> str:
        return max(cells, key=lambda c: min(self.slack(c, v), 2) + self.rng.random() * 1.5)

    def write(self, cell: str, v: int, turn: int) -> str:
        """Write v; returns the explicit box name."""
        if cell.startswith("nest"):
            r = int(cell[4:]) - 1
            self.nests[r].append(v)
            n = len(self.nests[r])
            if n % 2 == 0:
                self.unlock(f"nest{r + 1}.{n // 2}", self.spec.nests.abilities[r][n // 2 - 1], turn)
            return f"{cell}.{n}"
        c = int(cell[3:]) - 1
        self.lums[c].append(v)
        if len(self.lums[c]) == self.spec.luminaries.height:
            self.unlock(f"lum{c + 1}", self.spec.luminaries.abilities[c], turn)
        return f"{cell}.{len(self.lums[c])}"

    def complete(self) -> bool:
        s = self.spec
        return (all(len(r) == s.nests.length for r in self.nests)
                and all(len(c) == s.luminaries.height for c in self.lums))

    # ---- flights

    def candidates(self, pos, face: int, diagonal: bool) -> list[list[tuple[int, int]]]:
        rng = self.rng
        if self.spec.level == "hard":
            base = self.spec.pattern(face)
            shapes = [[o(x, y) for x, y in base] for o in ORIENT]
        else:
            shapes = [self._walk(pos, face) for _ in range(24)]
        out = []
        for s in shapes:
            if diagonal:
                d = rng.choice(list(DIAG.values()))
                s = [d] + s if rng.random() < 0.5 else s + [d]
            if self._on_map(pos, s):
                out.append(s)
        return out

    def _walk(self, pos, n: int) -> list[tuple[int, int]]:
        """A random walk that avoids the path drawn so far when it can."""
        x, y = pos
        seen = {pos}
        out = []
        for _ in range(n):
            dirs = list(STEPS.values())
            self.rng.shuffle(dirs)
            fresh = [d for d in dirs if self.board.on_map((x + d[0], y + d[1]))
                     and (x + d[0], y + d[1]) not in self.visited and (x + d[0], y + d[1]) not in seen]
            dx, dy = fresh[0] if fresh else dirs[0]
            x, y = x + dx, y + dy
            seen.add((x, y))
            out.append((dx, dy))
        return out

    def _on_map(self, pos, steps) -> bool:
        x, y = pos
        for dx, dy in steps:
            x, y = x + dx, y + dy
            if not self.board.on_map((x, y)):
                return False
        return True

    def value(self, pos, steps, turn) -> float:
        """How much the player likes a flight: food and stars good, crashes bad."""
        b = self.board
        x, y = pos
        seen = set()
        score = self.rng.random() * 2
        for dx, dy in steps:
            x, y = x + dx, y + dy
            v = (x, y)
            if v in self.visited or v in seen:
                score -= 6
            if v in b.lights:
                score -= 5
            if v in b.fish and v not in self.eaten and v not in seen:
                score += 3
            if v in b.stars and v not in self.stars and v not in seen:
                score += 5 + (3 if b.stars[v] not in self.stars.values() else 0)
            seen.add(v)
        # Head for the nearest star not yet passed, or home once 4 stars are passed.
        home = len(self.stars) >= 4 and turn > self.home_after
        targets = list(b.land) if home else [s for s in b.stars if s not in self.stars]
        if targets:
            d = min(abs(x - tx) + abs(y - ty) for tx, ty in targets)
            score -= 0.6 * d
        return score

    def fly(self, pos, steps, turn) -> dict:
        """Draw the flight: what it meets."""
        b = self.board
        lights = 0
        crossing = False
        end = None
        light_steps: list[int] = []  # the step of each light flown into
        crossing_step = None  # the step of the first crossing
        x, y = pos
        for k, (dx, dy) in enumerate(steps, 1):
            nx, ny = x + dx, y + dy
            v = (nx, ny)
            crossed = crossing
            if v in self.visited:
                crossing = True
            if dx and dy:
                sq = (min(x, nx), min(y, ny))
                slope = dx * dy > 0
                got = self.diag_squares.setdefault(sq, set())
                if (not slope) in got:
                    crossing = True
                got.add(slope)
            if crossing and not crossed:
                crossing_step = k
            self.visited.add(v)
            if v in b.lights:
                lights += 1
                light_steps.append(k)
            if v in b.fish and v not in self.eaten:
                self.eaten.add(v)
                n = len(self.eaten)
                kind = self.spec.fish_ability(n)
                if kind:
                    self.unlock(f"fish{n}", kind, turn)
            if v in b.stars and v not in self.stars:
                self.stars[v] = b.stars[v]
            if end is None and v in b.land and len(self.stars) >= 4:
                end = k  # the step the Yunco came back to the island
            x, y = nx, ny
        return {"end": (x, y), "lights": lights, "crossing": crossing, "island": end,
                "light_steps": light_steps, "crossing_step": crossing_step}


def play(layout, rng: random.Random, *, solo: bool = True, dice: bool = True, ability_rate: float = 0.6,
         max_turns: int = 30, name_boxes: float = 0.3, explicit_cells: float = 0.3,
         start: int | None = None, home_after: int = 8, rolls: list[tuple[int, int]] | None = None) -> Game:
    """Play one legal game on a sheet level; the record and the player's own score.

    The player heads for stars, and back to the island once it has passed 4 of them and
    `home_after` turns are played (a large value makes long games, e.g. for benchmarks).
    `rolls` are the dice of each turn when they are shared at a table (the game stops when
    they run out); otherwise the player rolls its own."""
    spec = layout.spec
    p = _Player(spec, rng, ability_rate, home_after)
    starts = spec.board.starts
    start = start if start is not None else rng.choice(sorted(starts))
    pos = starts[start]
    p.visited.add(pos)
    turns: list[dict] = []
    log: list[dict] = []
    end = None
    eliminated = False
    if rolls is not None:
        max_turns = min(max_turns, len(rolls))
    for t in range(1, max_turns + 1):
        d = list(rolls[t - 1]) if rolls is not None else [rng.randint(1, 6), rng.randint(1, 6)]
        rolled = list(d)
        use: list[str] = []
        named: list[str] = []

        def spend(kind):
            box = p.take(kind, t)
            use.append(kind)
            named.append(box)

        # Plus or minus one on a die, now and then.
        pm = 0
        if p.ready("plusminus", t) and rng.random() < ability_rate:
            which = rng.randrange(2)
            delta = rng.choice([-1, 1])
            if not 1 <= d[which] + delta <= 6:
                delta = -delta
            d[which] += delta
            pm = 1
            spend("plusminus")
        # Which die flies: prefer writing a value that fits somewhere.
        diagonal = bool(p.ready("diagonal", t)) and rng.random() < ability_rate
        best = None
        for i in (0, 1):  # which die flies: weigh the flight and the value left to write
            options = p.candidates(pos, d[i], diagonal) or p.candidates(pos, d[i], False)
            while not options:  # a walk that stays on the map always exists; keep trying
                options = p.candidates(pos, d[i], False)
            flight = max(options, key=lambda s: p.value(pos, s, t))
            write = max((min(p.slack(c, d[1 - i]), 2) for c in p.fits(d[1 - i])), default=-9)
            worth = p.value(pos, flight, t) + 3 * write
            if best is None or worth > best[0]:
                best = (worth, i, flight)
        _, fly_i, steps = best
        face, w = d[fly_i], d[1 - fly_i]
        n_diag = sum(1 for s in steps if s in DIAG.values())
        diag_boxes = []
        for _ in range(n_diag):
            diag_boxes.append(p.take("diagonal", t))
        met = p.fly(pos, steps, t)
        pos = met["end"]
        # The puzzle.
        cells = p.fits(w)
        entry: dict[str, Any] = {"flight": " ".join(NAMES[s] for s in steps)}
        ground = 0
        if cells:
            cell = p.choose(cells, w)
            box = p.write(cell, w, t)
            entry["puzzle"] = box if rng.random() < explicit_cells else cell
            entry["value"] = w
        else:
            entry["crash"] = True
            ground = 1
        events = met["lights"] + (1 if met["crossing"] else 0) + ground
        yunco = 0
        while events - yunco > 0 and p.ready("yunco", t) and rng.random() < ability_rate:
            spend("yunco")
            yunco += 1
        # Diagonal uses are read from the flight; name them now and then.
        if diag_boxes and rng.random() < name_boxes:
            use.extend(["diagonal"] * len(diag_boxes))
            named.extend(diag_boxes)
        if dice:
            entry["dice"] = [rolled[fly_i], rolled[1 - fly_i]] if rng.random() < 0.8 else [rolled[1 - fly_i], rolled[fly_i]]
        if use:
            entry["use"] = [b if rng.random() < name_boxes else k for k, b in zip(use, named)]
        turns.append(entry)
        before = p.marks
        p.marks += events - yunco
        log.append({"turn": t, "dice": rolled, "fly": face, "write": w, "plusminus": pm, "diagonal": n_diag,
                    "yunco": yunco, "lights": met["lights"], "crossing": met["crossing"], "ground": ground,
                    "island": met["island"],
                    "cell": None if ground else cell, "end": pos, "sheet": p.standing()})
        if p.marks > len(TRACK):
            eliminated = True
            # Y21: back at the island before the crash that eliminates it, the Yunco still
            # ended the game (crashes marked as flown, the Yunco ability on the first ones
            # noted, the ground crash last)
            noted = met["light_steps"] + ([met["crossing_step"]] if met["crossing"] else []) + ([len(steps) + 1] if ground else [])
            fatal = sorted(noted[yunco:])[len(TRACK) - before]
            end = "island" if met["island"] and fatal >= met["island"] else "eliminated"
            break
        if met["island"]:
            end = "island"
            break
        if p.complete():
            end = "puzzles"
            break
    sheet = p.standing()
    record: dict[str, Any] = {"game": "yuncos", "layout": layout.id, "start": start}
    if solo:
        record["solo"] = True
    record.update({"fish_marked": sheet["fish_marked"], "crashes_marked": sheet["crashes_marked"],
                   "used": sheet["used"], "turn": turns})
    return Game(record, sheet["parts"], sum(sheet["parts"].values()), end, log, eliminated)


def play_table(layout, rng: random.Random, players: int = 3, **kw) -> list[Game]:
    """One game at a table: every player plays on the same dice, each with its own start
    and choices; the game stops after the turn in which the first player ends it (Y21), and
    the other sheets are cut there, as they were when the game stopped. Eliminated players
    stop on their own."""
    rolls = [(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(kw.pop("max_turns", 30))]
    games = [play(layout, random.Random(rng.getrandbits(32)), solo=False, rolls=rolls, **kw)
             for _ in range(players)]
    ended = [len(g.log) for g in games if g.end in ("island", "puzzles")]
    last = min(ended) if ended else max(len(g.log) for g in games)
    out = []
    for g in games:
        if len(g.log) <= last:
            out.append(g)
            continue
        sheet = g.log[last - 1]["sheet"]
        record = dict(g.record, turn=g.record["turn"][:last], fish_marked=sheet["fish_marked"],
                      crashes_marked=sheet["crashes_marked"], used=sheet["used"])
        out.append(Game(record, sheet["parts"], sum(sheet["parts"].values()), None, g.log[:last]))
    return out


def to_toml(record: dict[str, Any]) -> str:
    """A record dict as TOML (the turns as [[turn]] tables)."""
    return dump_toml(record)
