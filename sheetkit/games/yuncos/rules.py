"""Yuncos rules Y1-Y23 (RULES.md): replay a transcribed sheet and score it.

Pure functions, no I/O. `check` replays the record turn by turn on the layout's Board
and returns a Verdict: every rule broken, with its rule id and place, and the score of
what the sheet shows (the marked boxes), disagreements with the replay being findings.
Decisions on points the rules leave open are listed in docs/yuncos-records.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from sheetkit.games.yuncos.layout import vertex_name
from sheetkit.games.yuncos.record import (DIAGONALS, STEP_NAMES, Record, Turn, all_boxes, box_kind,
                                          flight_text)
from sheetkit.games.yuncos.scoring import CRASH_TRACK, SheetDetails, rank, tally
from sheetkit.checking.verdict import ERROR, WARNING, Finding, Verdict

Vertex = tuple[int, int]

_ORIENT = (
    lambda x, y: (x, y), lambda x, y: (-y, x), lambda x, y: (-x, -y), lambda x, y: (y, -x),
    lambda x, y: (-x, y), lambda x, y: (x, -y), lambda x, y: (y, x), lambda x, y: (-y, -x),
)


# ------------------------------------------------------------------ scoring (Y7, Y8, Y20, Y22, Y23)


def oriented_patterns(spec, face: int) -> frozenset[tuple[Vertex, ...]]:
    return _oriented(tuple(spec.pattern(face)))


@lru_cache(maxsize=64)
def _oriented(steps: tuple[Vertex, ...]) -> frozenset[tuple[Vertex, ...]]:
    return frozenset(tuple(o(x, y) for x, y in steps) for o in _ORIENT)


def flight_faces(spec, unit: tuple[Vertex, ...]) -> set[int]:
    """The die faces 1-6 a flight's unit steps can come from (Y4 Easy, Y5 Hard)."""
    if spec.level == "easy":
        return {len(unit)} if 1 <= len(unit) <= 6 else set()
    return {f for f in range(1, 7) if unit in oriented_patterns(spec, f)}


# ------------------------------------------------------------------ puzzles (Y11, Y12, Y13)


def next_free(line: list) -> int | None:
    for i, v in enumerate(line):
        if v is None:
            return i
    return None


def _last_filled_before(line: list, idx: int) -> int | None:
    for j in range(idx - 1, -1, -1):
        if line[j] is not None:
            return line[j]
    return None


def nest_problem(nests: list[list], row: int, idx: int, v: int) -> str | None:
    """Why value v cannot go into nest row `row`, box idx (Y11), or None."""
    line = nests[row]
    if row == 0:
        if v in [x for j, x in enumerate(line) if x is not None and j != idx]:
            return f"{v} is already in nest row 1 (row 1 holds different numbers)"
    else:
        left = _last_filled_before(line, idx)
        if left is not None and v >= left:
            return f"nest row 2 descends: {v} is not lower than {left} to its left"
    return None


def lum_problem(lums: list[list], col: int, level: int, v: int) -> str | None:
    """Why value v cannot go into luminary column col at level (Y12), or None."""
    below = _last_filled_before(lums[col], level)
    if below is not None and v <= below:
        return f"luminaries rise: {v} is not greater than {below} below it"
    for other, line in enumerate(lums):
        if other != col and line[level] == v:
            return f"{v} is already in that row of the luminaries (column {other + 1})"
    return None


def placements(nests: list[list], lums: list[list], v: int) -> list[str]:
    """Where value v can legally be written now (cell names); empty when it fits nowhere."""
    out = []
    for row in range(2):
        idx = next_free(nests[row])
        if idx is not None and nest_problem(nests, row, idx, v) is None:
            out.append(f"nest{row + 1}")
    for col in range(len(lums)):
        lvl = next_free(lums[col])
        if lvl is not None and lum_problem(lums, col, lvl, v) is None:
            out.append(f"lum{col + 1}")
    return out


def cell_words(name: str) -> str:
    kind, _, rest = name.partition(".")
    if kind.startswith("nest"):
        base = f"nest row {kind[4:]}"
        return f"{base}, box {rest}" if rest else base
    base = f"luminary column {kind[3:]}"
    return f"{base}, level {rest}" if rest else base


# ------------------------------------------------------------------ the replay


@dataclass
class _Box:
    id: str
    kind: str
    unlocked: int | None = None  # turn
    used: int | None = None  # turn


@dataclass
class Replay:
    """The state of the sheet after replaying some turns: also useful to the overlay."""

    path: list[Vertex]  # every vertex in order, the start first
    turn_ends: list[Vertex] = field(default_factory=list)
    fish: list[tuple[int, Vertex]] = field(default_factory=list)  # (turn, vertex) eaten
    stars: dict[Vertex, str] = field(default_factory=dict)  # passed, in order -> colour
    crashes: list[dict] = field(default_factory=list)  # every crash event
    marks: int = 0  # crash marks due (events minus Yunco)
    nests: list[list] = field(default_factory=list)
    lums: list[list] = field(default_factory=list)
    boxes: dict[str, _Box] = field(default_factory=dict)
    end: tuple[int, str] | None = None
    eliminated: int | None = None


class _Checker:
    def __init__(self, record: Record):
        self.rec = record
        self.spec = spec = record.spec
        self.board = spec.board
        self.findings: list[Finding] = []
        self.paper_used = set(record.model.used or [])
        self.r = Replay(path=[record.start])
        self.r.nests = [[None] * spec.nests.length for _ in range(2)]
        self.r.lums = [[None] * spec.luminaries.height for _ in range(spec.luminaries.columns)]
        self.r.boxes = {b: _Box(b, box_kind(spec, b)) for b in all_boxes(spec)}
        self.named = {u for t in record.turns for u in t.use if u in self.r.boxes}  # boxes named by a turn
        self.visited: set[Vertex] = {record.start}
        self.diagonals: dict[Vertex, set[bool]] = {}
        self.eaten: set[Vertex] = set()

    # -- helpers

    def name(self, v: Vertex) -> str:
        """A map point as on the sheet ("C7"); a point a flight reached off the map is named by
        the edge point beside it, never by a made-up column or row 0 ("Z8", "I0")."""
        b = self.board
        if b.on_map(v):
            return vertex_name(v)
        edge = (min(max(v[0], 0), b.width - 1), min(max(v[1], 0), b.height - 1))
        return f"a point off the map beyond {vertex_name(edge)}"

    def add(self, rule: str, where: str, message: str, severity: str = ERROR, **at) -> None:
        self.findings.append(Finding(rule, where, message, severity, at))

    def unlock(self, box: str, turn: int) -> None:
        b = self.r.boxes.get(box)
        if b is not None and b.unlocked is None:
            b.unlocked = turn

    def use(self, t: int, want: str) -> str | None:
        """Resolve one use of an ability (a kind or a box id) in turn t; Y15, Y16."""
        where = f"turn {t}"
        boxes = self.r.boxes
        if want in boxes:
            b = boxes[want]
            if b.used is not None:
                self.add("Y15", where, f"ability box {b.id} ({b.kind}) was already used in turn {b.used}; each box is used once",
                         turn=t, box=b.id)
                return b.id
            if b.unlocked is None:
                self.add("Y15", where, f"ability box {b.id} ({b.kind}) is used but not unlocked", turn=t, box=b.id)
            elif b.unlocked == t:
                self.add("Y16", where, f"ability box {b.id} ({b.kind}) was unlocked this turn; it can be used from the next turn on",
                         turn=t, box=b.id)
            b.used = t
            return b.id
        kind = want
        ready = [b for b in boxes.values() if b.kind == kind and b.used is None and b.unlocked is not None and b.unlocked < t]
        if ready:
            ready.sort(key=lambda b: (b.id in self.named, b.id not in self.paper_used, b.unlocked))
            ready[0].used = t
            return ready[0].id
        fresh = [b for b in boxes.values() if b.kind == kind and b.used is None and b.unlocked == t]
        if fresh:
            self.add("Y16", where, f"the {kind} ability ({fresh[0].id}) was unlocked this turn; it can be used from the next turn on",
                     turn=t, box=fresh[0].id)
            fresh[0].used = t
            return fresh[0].id
        spent = [b for b in boxes.values() if b.kind == kind and b.unlocked is not None]
        if spent:
            self.add("Y15", where, f"{kind} is used, but every {kind} box unlocked so far is already used "
                     f"({', '.join(b.id for b in spent)})", turn=t)
        else:
            self.add("Y15", where, f"{kind} is used, but no {kind} ability is unlocked yet", turn=t)
        return None

    # -- one turn

    def turn(self, turn: Turn) -> None:
        t = turn.number
        r = self.r
        spec = self.spec
        if turn.start_at is not None and turn.start_at != r.path[-1]:
            prev = "the first flight starts at the starting point" if t == 1 else f"turn {t - 1} ended at"
            self.add("Y6", f"turn {t}", f"the flight starts at {vertex_name(turn.start_at)}, but {prev} "
                     f"{self.name(r.path[-1])}", turn=t, vertex=list(turn.start_at))
            r.path.append(turn.start_at)  # the paper shows a jump; the path goes on from there
            self.visited.add(turn.start_at)

        # Abilities (Y15-Y19). Diagonal steps drawn are diagonal uses even when not listed.
        steps = turn.steps
        n_diag = sum(1 for s in steps if s in DIAGONALS.values())
        wants = list(turn.use)
        kinds = [r.boxes[u].kind if u in r.boxes else u for u in wants]
        declared_diag = kinds.count("diagonal")
        for _ in range(n_diag - declared_diag):
            wants.append("diagonal")
            kinds.append("diagonal")
        pm = kinds.count("plusminus")
        yunco = kinds.count("yunco")
        if declared_diag > n_diag:
            self.add("Y18", f"turn {t}", f"diagonal is used {declared_diag} time(s) but the flight has {n_diag} diagonal step(s)",
                     WARNING, turn=t)

        # Flight shape (Y4, Y5, Y18).
        is_diag = [s in DIAGONALS.values() for s in steps]
        lead = 0
        while lead < len(steps) and is_diag[lead]:
            lead += 1
        trail = 0
        while trail < len(steps) - lead and is_diag[len(steps) - 1 - trail]:
            trail += 1
        for k in range(lead, len(steps) - trail):
            if is_diag[k]:
                at = r.path[-1]
                for dx, dy in steps[:k]:
                    at = (at[0] + dx, at[1] + dy)
                self.add("Y18", f"turn {t}, step {k + 1}", f"the diagonal step from {self.name(at)} is in the middle "
                         "of the flight; a diagonal goes before or after it", turn=t, step=k + 1, vertex=list(at))
        unit = tuple(s for s, d in zip(steps, is_diag) if not d)
        faces = flight_faces(spec, unit)
        if not faces:
            if spec.level == "easy":
                self.add("Y4", f"turn {t}", f"the flight has {len(unit)} unit steps; a die flies 1 to 6",
                         turn=t, vertex=list(r.path[-1]))
            else:
                self.add("Y5", f"turn {t}", f"the flight {flight_text(list(unit))} matches no die face's pattern in any orientation",
                         turn=t, vertex=list(r.path[-1]))

        # The flight itself (Y1, Y3, Y7-Y10, Y21).
        start = r.path[-1]
        pos = start
        crossing: tuple[int, Vertex] | None = None
        off_map = False
        for k, (dx, dy) in enumerate(steps, 1):
            nxt = (pos[0] + dx, pos[1] + dy)
            if not off_map and not self.board.on_map(nxt):
                off_map = True
                what = "leaves the map" if self.board.on_map(pos) else "stays off the map"
                self.add("Y3", f"turn {t}, step {k}", f"step {STEP_NAMES[(dx, dy)]} from {self.name(pos)} {what}",
                         turn=t, step=k, vertex=list(pos))
            hit = nxt in self.visited
            if dx and dy:
                sq = (min(pos[0], nxt[0]), min(pos[1], nxt[1]))
                slope = dx * dy > 0
                seen = self.diagonals.setdefault(sq, set())
                if (not slope) in seen:
                    hit = True
                seen.add(slope)
            if hit and crossing is None:
                crossing = (k, nxt)
            self.visited.add(nxt)
            r.path.append(nxt)
            pos = nxt
            if nxt in self.board.lights:
                r.crashes.append({"turn": t, "kind": "light", "step": k, "vertex": list(nxt)})
            if nxt in self.board.fish and nxt not in self.eaten:
                self.eaten.add(nxt)
                r.fish.append((t, nxt))
                if spec.fish_ability(len(r.fish)):
                    self.unlock(f"fish{len(r.fish)}", t)
            if nxt in self.board.stars and nxt not in r.stars:
                r.stars[nxt] = self.board.stars[nxt]
            if r.end is None and nxt in self.board.land and len(r.stars) >= 4:
                r.end = (t, f"touched Choros Island at {vertex_name(nxt)} after passing {len(r.stars)} stars")
        r.turn_ends.append(pos)
        if crossing is not None:
            k, v = crossing
            r.crashes.append({"turn": t, "kind": "obstacle", "step": k, "vertex": list(v)})

        # The puzzle (Y11-Y13), with the dice when known.
        fits_now = None
        if turn.crash:
            fits_now = {v: placements(r.nests, r.lums, v) for v in range(1, 7)}
        if turn.dice is not None:
            self.dice(turn, faces, pm, fits_now)
        elif turn.crash and all(fits_now[v] for v in range(1, 7)):
            v = min(range(1, 7), key=lambda v: len(fits_now[v]))
            self.add("Y13", f"turn {t}", "a ground/sea crash is marked, but every value 1-6 still fits in a puzzle "
                     f"(e.g. {v} in {cell_words(fits_now[v][0])})", turn=t, vertex=list(pos))
        if turn.crash:
            r.crashes.append({"turn": t, "kind": "ground", "step": None, "vertex": list(pos)})
        else:
            self.place(turn)

        # Which boxes the uses cross out: resolved once this turn's own unlocks are known,
        # so that using a box unlocked by this very turn reads as Y16.
        for u in wants:
            self.use(t, u)

        # Crash marks (Y19, Y20).
        events = [c for c in r.crashes if c["turn"] == t]
        skipped = min(yunco, len(events))
        if yunco > len(events):
            self.add("Y19", f"turn {t}", f"Yunco is used {yunco} time(s) but the turn has {len(events)} crash(es) to skip",
                     WARNING, turn=t)
        for c in events[:skipped]:
            c["skipped"] = True
        for _ in range(len(events) - skipped):
            r.marks += 1
            if r.marks > len(CRASH_TRACK) and r.eliminated is None:
                r.eliminated = t

        if r.end is None and all(v is not None for line in r.nests + r.lums for v in line):
            r.end = (t, "both puzzles are complete")

    def dice(self, turn: Turn, faces: set[int], pm: int, fits_now) -> None:
        """One die flies, the other is written (Y4, Y5, Y11-Y13, Y17)."""
        t = turn.number
        dice = turn.dice
        flight_faces_ = faces or set(range(1, 7))
        adjust = [(a, b) for a in range(-pm, pm + 1) for b in range(-pm, pm + 1) if abs(a) + abs(b) <= pm]
        flies = []
        for i in (0, 1):
            for a, b in adjust:
                f, w = dice[i] + a, dice[1 - i] + b
                if 1 <= f <= 6 and 1 <= w <= 6 and f in flight_faces_:
                    flies.append((i, f, w))
        plus = " with ±1" if pm else ""
        shown = f"{dice[0]} and {dice[1]}"
        if not flies:
            rule = "Y4" if self.spec.level == "easy" else "Y5"
            n = len(turn.steps) - sum(1 for s in turn.steps if s in DIAGONALS.values())
            what = f"a flight of {n} unit step{'s' if n != 1 else ''}" if rule == "Y4" else "the flight's shape"
            self.add(rule, f"turn {t}", f"{what} matches neither die ({shown}{plus})", turn=t, dice=list(dice))
            return
        written = sorted({w for _, _, w in flies})
        if turn.crash:
            if all(fits_now[w] for w in written):
                w = written[0]
                self.add("Y13", f"turn {t}", f"a ground/sea crash is marked, but the puzzle die {w} fits in "
                         f"{cell_words(fits_now[w][0])}", turn=t, dice=list(dice))
        elif turn.value not in written:
            cell = turn.cell
            rule = "Y11" if cell.kind == "nest" else "Y12"
            line = self.r.nests[cell.line] if cell.kind == "nest" else self.r.lums[cell.line]
            idx = cell.index if cell.index is not None else next_free(line)
            name = cell.name(idx if idx is not None else len(line) - 1)
            self.add(rule, f"turn {t}, {cell_words(name)}",
                     f"{turn.value} is written, but with dice {shown}{plus} and this flight the puzzle die is "
                     f"{' or '.join(map(str, written))}", turn=t, cell=name)

    def place(self, turn: Turn) -> None:
        t = turn.number
        r = self.r
        cell, v = turn.cell, turn.value
        line = r.nests[cell.line] if cell.kind == "nest" else r.lums[cell.line]
        rule = "Y11" if cell.kind == "nest" else "Y12"
        nxt = next_free(line)
        idx = cell.index if cell.index is not None else nxt
        if idx is None:
            self.add(rule, f"turn {t}, {cell_words(cell.name())}", f"{cell_words(cell.name())} is full; {v} has no box there",
                     turn=t, cell=cell.name(len(line) - 1))
            return
        name = cell.name(idx)
        where = f"turn {t}, {cell_words(name)}"
        if line[idx] is not None:
            self.add(rule, where, f"that box already holds {line[idx]}", turn=t, cell=name)
            return
        if idx != nxt:
            order = "left to right" if cell.kind == "nest" else "bottom to top"
            self.add(rule, where, f"boxes are filled {order} without gaps; the next free box is {cell_words(cell.name(nxt))}",
                     turn=t, cell=name)
        problem = (nest_problem(r.nests, cell.line, idx, v) if cell.kind == "nest"
                   else lum_problem(r.lums, cell.line, idx, v))
        if problem:
            self.add(rule, where, problem, turn=t, cell=name)
        line[idx] = v
        if cell.kind == "nest":
            filled = sum(1 for x in line if x is not None)
            if filled % 2 == 0:
                self.unlock(f"nest{cell.line + 1}.{filled // 2}", t)
        elif all(x is not None for x in line):
            self.unlock(f"lum{cell.line + 1}", t)

    # -- the whole record

    def run(self, source: str) -> Verdict:
        rec, r, spec, model = self.rec, self.r, self.spec, self.rec.model
        late_reported = False
        for turn in rec.turns:
            t = turn.number
            if not late_reported and (r.eliminated is not None or r.end is not None):
                late_reported = True
                if r.eliminated is not None and (r.end is None or r.eliminated <= r.end[0]):
                    self.add("Y20", f"turn {t}", f"the Yunco was eliminated in turn {r.eliminated} (a crash with no box "
                             "left); no turns follow", turn=t, vertex=list(r.path[-1]))
                else:
                    more = len(rec.turns) - t
                    self.add("Y21", f"turn {t}", f"the game ended after turn {r.end[0]} ({r.end[1]}); "
                             f"this turn{f' and {more} more' if more else ''} should not be on the sheet", turn=t,
                             vertex=list(r.path[-1]))
            self.turn(turn)
        last = rec.turns[-1].number
        if r.end is None and r.eliminated is None and model.solo:
            self.add("Y21", f"turn {last}", f"the record stops after turn {last} but the solo game has not ended "
                     "(no completed puzzles, no return to the island with 4 stars)", WARNING,
                     turn=last, vertex=list(r.path[-1]))

        # What is marked on the paper against the replay.
        eaten = len(r.fish)
        due = min(eaten, len(spec.fish.values))
        if model.fish_marked != due:
            extra = f" (the counter holds {len(spec.fish.values)})" if eaten > due else ""
            self.add("Y7", "fish counter", f"{eaten} fish eaten{extra}, but {model.fish_marked} box(es) marked",
                     counter="fish", box=max(model.fish_marked, due))
        marks_due = min(r.marks, len(CRASH_TRACK))
        if model.crashes_marked != marks_due:
            kinds = {}
            for c in r.crashes:
                if not c.get("skipped"):
                    kinds[c["kind"]] = kinds.get(c["kind"], 0) + 1
            detail = ", ".join(f"{n} {k}" for k, n in kinds.items()) or "none"
            yunco = sum(1 for c in r.crashes if c.get("skipped"))
            detail += f"; {yunco} skipped with Yunco" if yunco else ""
            full = (f"; the track holds {len(CRASH_TRACK)}, the next one eliminated the Yunco"
                    if r.marks > len(CRASH_TRACK) else "")
            self.add("Y20", "crash track", f"the turns give {r.marks} crash mark(s) ({detail}{full}), so {marks_due} "
                     f"box(es) should be marked, but {model.crashes_marked} are", counter="crashes",
                     box=max(model.crashes_marked, marks_due))
        if model.used is not None:
            used = {b.id: b for b in r.boxes.values() if b.used is not None}
            for bid, b in used.items():
                if bid not in self.paper_used:
                    self.add("Y15", f"ability box {bid}", f"{b.kind} is used in turn {b.used} but box {bid} is not crossed out",
                             box=bid, turn=b.used)
            for bid in sorted(self.paper_used - set(used)):
                self.add("Y15", f"ability box {bid}", f"box {bid} is crossed out but no turn uses it",
                         WARNING, box=bid)

        # The score of what the sheet shows (Y22, Y23).
        nests = sum(1 for line in r.nests for x in line if x is not None)
        columns = sum(1 for line in r.lums if all(x is not None for x in line))
        colours = len(set(r.stars.values()))
        score = tally(spec.fish.values, nests=nests, columns=columns, fish=model.fish_marked, stars=len(r.stars), colours=colours,
                      crashes=model.crashes_marked, solo=model.solo, eliminated=r.eliminated is not None)
        if r.eliminated is not None:
            score.notes.append(f"eliminated in turn {r.eliminated}: cannot win")
        if model.score is not None:
            parts = dict(score.parts)
            parts["crashes"] = -parts["crashes"]
            parts["total"] = score.total
            for name, want in parts.items():
                got = getattr(model.score, name)
                # the sheet prints a minus before the crashes box: copied with it, it is the same number
                same = got == want or (name == "crashes" and got == -want)
                if got is not None and not same:
                    self.add("Y22", f"score box {name}", f"{got} is written, but the sheet gives {want}", score=name)

        details = SheetDetails(
            layout=rec.layout.id,
            layout_version=rec.layout.version,
            level=spec.level,
            start=vertex_name(rec.start),
            turns=len(rec.turns),
            solo=model.solo,
            end=None if r.end is None else {"turn": r.end[0], "reason": r.end[1]},
            eliminated=r.eliminated,
            fish=[{"turn": t, "vertex": vertex_name(v)} for t, v in r.fish],
            stars=[{"vertex": vertex_name(v), "colour": c} for v, c in r.stars.items()],
            crashes=[{**c, "vertex": self.name(tuple(c["vertex"]))} for c in r.crashes],
            abilities={b.id: {"kind": b.kind, "unlocked": b.unlocked, "used": b.used}
                          for b in r.boxes.values() if b.unlocked is not None or b.used is not None},
            qr=model.qr,
            rank=rank(score.total) if model.solo else None,
        )
        return Verdict(game="yuncos", source=source, findings=self.findings, scores=[score], details=details)
