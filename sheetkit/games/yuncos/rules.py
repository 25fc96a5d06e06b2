"""Yuncos rules Y1-Y23 (RULES.md) in the shared replay shape (checking/replay.py).

No I/O. `Rules(record)` gives the sheet before the first turn (`initial`), the sheet after
one more turn with what is wrong with that turn (`step`), and what is wrong with the record
as a finished game (`end`). check.py replays a record through it and holds the paper
against the replayed sheet. Decisions on points the rules leave open are listed in
docs/yuncos-records.md.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from sheetkit.games.yuncos.layout import vertex_name
from sheetkit.games.yuncos.record import (DIAGONALS, STEP_NAMES, Record, Turn, all_boxes, box_kind,
                                          flight_text)
from sheetkit.games.yuncos.scoring import CRASH_TRACK
from sheetkit.checking.verdict import ERROR, WARNING, Finding

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


# ------------------------------------------------------------------ the replay (checking/replay.py)


@dataclass(frozen=True, slots=True)
class Box:
    """One ability box of the sheet: the turns it was unlocked and used in."""

    id: str
    kind: str
    unlocked: int | None = None
    used: int | None = None


class Chain:
    """A persistent list: adding to it makes a new chain that shares the old one, so a
    state's history costs nothing to keep when the next state is made."""

    __slots__ = ("last", "before", "size")

    def __init__(self, last=None, before: "Chain | None" = None):  # Chain(): the empty chain
        self.last, self.before = last, before
        self.size = 0 if before is None else before.size + 1

    def add(self, item) -> "Chain":
        return Chain(item, self)

    def __len__(self) -> int:
        return self.size

    def __iter__(self):
        out, c = [], self
        while c is not None and c.size:
            out.append(c.last)
            c = c.before
        return reversed(out)


EMPTY = Chain()


@dataclass(frozen=True, slots=True)
class Sheet:
    """The state of the sheet after some turns: what the overlay draws and the legal-move
    questions are asked of. Immutable. What grows with the game (the crashes) is a Chain;
    the rest is bounded by the sheet and the map, so a turn copies only what is small."""

    pos: Vertex  # where the next flight starts
    turns: int = 0  # turns replayed
    # The path so far as bits of one int, for what the next flight may touch or cross (Y10):
    # every vertex visited, and (square, rising) of every diagonal step; Rules.bit numbers
    # them. An int is immutable, and its size is the map's, not the game's.
    path: int = 0
    fish: tuple[tuple[int, Vertex], ...] = ()  # (turn, vertex) eaten, in order
    stars: tuple[tuple[Vertex, str], ...] = ()  # passed, in order, with their colours
    crashes: Chain = EMPTY  # every crash event, a dict {"turn", "kind", "step", "vertex"[, "skipped"]}
    marks: int = 0  # crash marks due (events minus Yunco)
    nests: tuple[tuple[int | None, ...], ...] = ()
    lums: tuple[tuple[int | None, ...], ...] = ()
    boxes: tuple[Box, ...] = ()  # every ability box, in the sheet's order
    end: tuple[int, str] | None = None  # (turn, why) the game ended (Y21)
    eliminated: int | None = None  # the turn the Yunco was eliminated in (Y20)
    late: bool = False  # a turn after the end was already reported

    def box(self, box_id: str) -> Box | None:
        return next((b for b in self.boxes if b.id == box_id), None)

    @property
    def over(self) -> bool:
        return self.end is not None or self.eliminated is not None


class _Turn:
    """The scratch copy one step works on: the small parts of the sheet as mutable lists,
    frozen again into the next Sheet. The given Sheet is never touched."""

    def __init__(self, s: Sheet):
        self.pos = s.pos
        self.path = s.path
        self.fish = list(s.fish)
        self.stars = dict(s.stars)
        self.events: list[dict] = []  # this turn's crashes
        self.marks = s.marks
        self.nests = [list(line) for line in s.nests]
        self.lums = [list(line) for line in s.lums]
        self.boxes = {b.id: b for b in s.boxes}
        self.end, self.eliminated = s.end, s.eliminated
        self.findings: list[Finding] = []

    def add(self, rule: str, where: str, message: str, severity: str = ERROR, **at) -> None:
        self.findings.append(Finding(rule, where, message, severity, at))

    def set_box(self, box: Box, **changes) -> Box:
        new = replace(box, **changes)
        self.boxes[box.id] = new
        return new

    def unlock(self, box: str, turn: int) -> None:
        b = self.boxes.get(box)
        if b is not None and b.unlocked is None:
            self.set_box(b, unlocked=turn)


class Rules:
    """Yuncos as the shared replay shape: `initial()`, `step(sheet, turn, n)`, `end(sheet)`.

    Made for one record: a use named by its kind ("plusminus") crosses out the box the
    player's sheet shows crossed out, or one no later turn names, so the rules know the
    record's `used` list and the boxes its turns name."""

    def __init__(self, record: Record):
        self.rec = record
        self.spec = spec = record.spec
        self.board = spec.board
        self.paper_used = frozenset(record.model.used or [])
        self.named = frozenset(u for t in record.turns for u in t.use if box_kind(spec, u) is not None)
        self.length = len(record.turns)
        # bit numbers of the path's vertices and diagonals: the map's vertices first; points
        # off the map (only illegal flights reach them) numbered as they are first met
        self._bits: dict = {(x, y): y * self.board.width + x
                            for y in range(self.board.height) for x in range(self.board.width)}

    def bit(self, key) -> int:
        """The bit of a vertex, or of a (square, rising) diagonal, in Sheet.path. The table
        only grows: every state made so far keeps its meaning."""
        n = self._bits.get(key)
        if n is None:
            n = self._bits[key] = len(self._bits)
        return 1 << n

    def initial(self) -> Sheet:
        spec = self.spec
        start = self.rec.start
        return Sheet(pos=start, path=self.bit(start),
                     nests=tuple((None,) * spec.nests.length for _ in range(2)),
                     lums=tuple((None,) * spec.luminaries.height for _ in range(spec.luminaries.columns)),
                     boxes=tuple(Box(b, box_kind(spec, b)) for b in all_boxes(spec)))

    def name(self, v: Vertex) -> str:
        """A map point as on the sheet ("C7"); a point a flight reached off the map is named by
        the edge point beside it, never by a made-up column or row 0 ("Z8", "I0")."""
        b = self.board
        if b.on_map(v):
            return vertex_name(v)
        edge = (min(max(v[0], 0), b.width - 1), min(max(v[1], 0), b.height - 1))
        return f"a point off the map beyond {vertex_name(edge)}"

    # -- one turn

    def step(self, sheet: Sheet, turn: Turn, number: int | None = None) -> tuple[Sheet, list[Finding]]:
        t = turn.number if number is None else number
        nxt, found = self._step(sheet, turn, t)
        errors = sum(1 for f in found if f.severity == ERROR)
        for words, steps in turn.readings if errors else ():
            # A flight that could have been meant another way ("NE" or "N E"): when the other
            # reading has fewer faults, every fault of the turn says both readings.
            _, other = self._step(sheet, replace(turn, steps=steps, readings=()), t)
            fewer = errors - sum(1 for f in other if f.severity == ERROR)
            if fewer > 0:
                also = "this turn would be legal" if fewer == errors else f"this turn would have {errors - fewer} fault(s)"
                note = f" (read as written: {words}, {also})"
                found = [replace(f, message=f.message + note) if f.severity == ERROR else f for f in found]
                break
        return nxt, found

    def _step(self, sheet: Sheet, turn: Turn, t: int) -> tuple[Sheet, list[Finding]]:
        w = _Turn(sheet)
        if not sheet.late and sheet.over:
            self._late(w, sheet, t)
        self._flight_and_puzzle(w, turn, t)
        return Sheet(
            pos=w.pos, turns=sheet.turns + 1, path=w.path,
            fish=tuple(w.fish), stars=tuple(w.stars.items()),
            crashes=_extend(sheet.crashes, w.events), marks=w.marks,
            nests=tuple(map(tuple, w.nests)), lums=tuple(map(tuple, w.lums)),
            boxes=tuple(w.boxes[b.id] for b in sheet.boxes), end=w.end, eliminated=w.eliminated,
            late=sheet.late or sheet.over,
        ), w.findings

    def _late(self, w: _Turn, s: Sheet, t: int) -> None:
        """The first turn after the game ended (Y21) or the Yunco was eliminated (Y20)."""
        if s.eliminated is not None and (s.end is None or s.eliminated <= s.end[0]):
            w.add("Y20", f"turn {t}", f"the Yunco was eliminated in turn {s.eliminated} (a crash with no box "
                  "left); no turns follow", turn=t, vertex=list(s.pos))
        else:
            more = max(self.length - t, 0)
            w.add("Y21", f"turn {t}", f"the game ended after turn {s.end[0]} ({s.end[1]}); "
                  f"this turn{f' and {more} more' if more else ''} should not be on the sheet", turn=t,
                  vertex=list(s.pos))

    def use(self, w: _Turn, t: int, want: str) -> str | None:
        """Resolve one use of an ability (a kind or a box id) in turn t; Y15, Y16."""
        where = f"turn {t}"
        boxes = w.boxes
        if want in boxes:
            b = boxes[want]
            if b.used is not None:
                w.add("Y15", where, f"ability box {b.id} ({b.kind}) was already used in turn {b.used}; each box is used once",
                      turn=t, box=b.id)
                return b.id
            if b.unlocked is None:
                w.add("Y15", where, f"ability box {b.id} ({b.kind}) is used but not unlocked", turn=t, box=b.id)
            elif b.unlocked == t:
                w.add("Y16", where, f"ability box {b.id} ({b.kind}) was unlocked this turn; it can be used from the next turn on",
                      turn=t, box=b.id)
            w.set_box(b, used=t)
            return b.id
        kind = want
        ready = [b for b in boxes.values() if b.kind == kind and b.used is None and b.unlocked is not None and b.unlocked < t]
        if ready:
            ready.sort(key=lambda b: (b.id in self.named, b.id not in self.paper_used, b.unlocked))
            w.set_box(ready[0], used=t)
            return ready[0].id
        fresh = [b for b in boxes.values() if b.kind == kind and b.used is None and b.unlocked == t]
        if fresh:
            w.add("Y16", where, f"the {kind} ability ({fresh[0].id}) was unlocked this turn; it can be used from the next turn on",
                  turn=t, box=fresh[0].id)
            w.set_box(fresh[0], used=t)
            return fresh[0].id
        spent = [b for b in boxes.values() if b.kind == kind and b.unlocked is not None]
        if spent:
            w.add("Y15", where, f"{kind} is used, but every {kind} box unlocked so far is already used "
                  f"({', '.join(b.id for b in spent)})", turn=t)
        else:
            w.add("Y15", where, f"{kind} is used, but no {kind} ability is unlocked yet", turn=t)
        return None

    def _flight_and_puzzle(self, w: _Turn, turn: Turn, t: int) -> None:
        spec = self.spec
        if turn.start_at is not None and turn.start_at != w.pos:
            prev = "the first flight starts at the starting point" if t == 1 else f"turn {t - 1} ended at"
            w.add("Y6", f"turn {t}", f"the flight starts at {vertex_name(turn.start_at)}, but {prev} "
                  f"{self.name(w.pos)}", turn=t, vertex=list(turn.start_at))
            w.pos = turn.start_at  # the paper shows a jump; the path goes on from there
            w.path |= self.bit(turn.start_at)

        # Abilities (Y15-Y19). Diagonal steps drawn are diagonal uses even when not listed.
        steps = turn.steps
        n_diag = sum(1 for s in steps if s in DIAGONALS.values())
        wants = list(turn.use)
        kinds = [w.boxes[u].kind if u in w.boxes else u for u in wants]
        declared_diag = kinds.count("diagonal")
        for _ in range(n_diag - declared_diag):
            wants.append("diagonal")
            kinds.append("diagonal")
        pm = kinds.count("plusminus")
        yunco = kinds.count("yunco")
        if declared_diag > n_diag:
            w.add("Y18", f"turn {t}", f"diagonal is used {declared_diag} time(s) but the flight has {n_diag} diagonal step(s)",
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
                at = w.pos
                for dx, dy in steps[:k]:
                    at = (at[0] + dx, at[1] + dy)
                w.add("Y18", f"turn {t}, step {k + 1}", f"the diagonal step from {self.name(at)} is in the middle "
                      "of the flight; a diagonal goes before or after it", turn=t, step=k + 1, vertex=list(at))
        unit = tuple(s for s, d in zip(steps, is_diag) if not d)
        faces = flight_faces(spec, unit)
        if not faces:
            beyond = 6 if unit else 1  # the die that +1 (or -1) takes to 7 unit steps (or none)
            if spec.level == "easy" and pm and len(unit) in (0, 7) and (turn.dice is None or beyond in turn.dice):
                w.add("Y17", f"turn {t}", f"the flight has {len(unit)} unit steps: "
                      f"{'+1 on a 6' if unit else '-1 on a 1'} is no die value; plus or minus keeps a die within 1-6",
                      turn=t, vertex=list(w.pos))
            elif spec.level == "easy":
                w.add("Y4", f"turn {t}", f"the flight has {len(unit)} unit steps; a die flies 1 to 6",
                      turn=t, vertex=list(w.pos))
            else:
                w.add("Y5", f"turn {t}", f"the flight {flight_text(list(unit))} matches no die face's pattern in any orientation",
                      turn=t, vertex=list(w.pos))

        # The flight itself (Y1, Y3, Y7-Y10, Y21).
        board = self.board
        pos = w.pos
        crossing: tuple[int, Vertex] | None = None
        off_map = False
        for k, (dx, dy) in enumerate(steps, 1):
            nxt = (pos[0] + dx, pos[1] + dy)
            if not off_map and not board.on_map(nxt):
                off_map = True
                what = "leaves the map" if board.on_map(pos) else "stays off the map"
                w.add("Y3", f"turn {t}, step {k}", f"step {STEP_NAMES[(dx, dy)]} from {self.name(pos)} {what}",
                      turn=t, step=k, vertex=list(pos))
            here = self.bit(nxt)
            hit = bool(w.path & here)
            if dx and dy:
                sq = (min(pos[0], nxt[0]), min(pos[1], nxt[1]))
                slope = dx * dy > 0
                if w.path & self.bit((sq, not slope)):
                    hit = True
                w.path |= self.bit((sq, slope))
            if hit and crossing is None:
                crossing = (k, nxt)
            w.path |= here
            pos = nxt
            if nxt in board.lights:
                w.events.append({"turn": t, "kind": "light", "step": k, "vertex": list(nxt)})
            if nxt in board.fish and all(v != nxt for _, v in w.fish):
                w.fish.append((t, nxt))
                if spec.fish_ability(len(w.fish)):
                    w.unlock(f"fish{len(w.fish)}", t)
            if nxt in board.stars and nxt not in w.stars:
                w.stars[nxt] = board.stars[nxt]
            if w.end is None and nxt in board.land and len(w.stars) >= 4:
                w.end = (t, f"touched Choros Island at {vertex_name(nxt)} after passing {len(w.stars)} stars")
        w.pos = pos
        if crossing is not None:
            k, v = crossing
            w.events.append({"turn": t, "kind": "obstacle", "step": k, "vertex": list(v)})

        # The puzzle (Y11-Y13), with the dice when known.
        fits_now = None
        if turn.crash:
            fits_now = {v: placements(w.nests, w.lums, v) for v in range(1, 7)}
        if turn.dice is not None:
            self.dice(w, turn, t, faces, pm, fits_now)
        elif turn.crash and all(fits_now[v] for v in range(1, 7)):
            v = min(range(1, 7), key=lambda v: len(fits_now[v]))
            w.add("Y13", f"turn {t}", "a ground/sea crash is marked, but every value 1-6 still fits in a puzzle "
                  f"(e.g. {v} in {cell_words(fits_now[v][0])})", turn=t, vertex=list(pos))
        if turn.crash:
            w.events.append({"turn": t, "kind": "ground", "step": None, "vertex": list(pos)})
        else:
            self.place(w, turn, t)

        # Which boxes the uses cross out: resolved once this turn's own unlocks are known,
        # so that using a box unlocked by this very turn reads as Y16.
        for u in wants:
            self.use(w, t, u)

        # Crash marks (Y19, Y20).
        events = w.events
        skipped = min(yunco, len(events))
        if yunco > len(events):
            w.add("Y19", f"turn {t}", f"Yunco is used {yunco} time(s) but the turn has {len(events)} crash(es) to skip",
                  WARNING, turn=t)
        for c in events[:skipped]:
            c["skipped"] = True
        for _ in range(len(events) - skipped):
            w.marks += 1
            if w.marks > len(CRASH_TRACK) and w.eliminated is None:
                w.eliminated = t

        if w.end is None and all(v is not None for line in w.nests + w.lums for v in line):
            w.end = (t, "both puzzles are complete")

    def dice(self, w: _Turn, turn: Turn, t: int, faces: set[int], pm: int, fits_now) -> None:
        """One die flies, the other is written (Y4, Y5, Y11-Y13, Y17)."""
        dice = turn.dice
        flight_faces_ = faces or set(range(1, 7))
        adjust = [(a, b) for a in range(-pm, pm + 1) for b in range(-pm, pm + 1) if abs(a) + abs(b) <= pm]
        flies = []
        for i in (0, 1):
            for a, b in adjust:
                f, v = dice[i] + a, dice[1 - i] + b
                if 1 <= f <= 6 and 1 <= v <= 6 and f in flight_faces_:
                    flies.append((i, f, v))
        plus = " with ±1" if pm else ""
        shown = f"{dice[0]} and {dice[1]}"
        # What a player who took a die past 1-6 may have meant: 6+1 as 1, 1-1 as 6 (Y17).
        wrapped = []
        for i in (0, 1):
            for a, b in adjust:
                f, v = dice[i] + a, dice[1 - i] + b
                if not (1 <= f <= 6 and 1 <= v <= 6) and (f - 1) % 6 + 1 in flight_faces_:
                    past = (dice[i], a) if not 1 <= f <= 6 else (dice[1 - i], b)
                    wrapped.append(((f - 1) % 6 + 1, (v - 1) % 6 + 1, past))
        if not flies and wrapped:
            f, _, past = wrapped[0]
            w.add("Y17", f"turn {t}", f"the flight is a {f} only if {past[0]}{past[1]:+d} wrapped round to {f}; "
                  f"plus or minus keeps a die within 1-6 (dice {shown})", turn=t, dice=list(dice))
            return
        if not flies:
            rule = "Y4" if self.spec.level == "easy" else "Y5"
            n = len(turn.steps) - sum(1 for s in turn.steps if s in DIAGONALS.values())
            what = f"a flight of {n} unit step{'s' if n != 1 else ''}" if rule == "Y4" else "the flight's shape"
            w.add(rule, f"turn {t}", f"{what} matches neither die ({shown}{plus})", turn=t, dice=list(dice))
            return
        written = sorted({v for _, _, v in flies})
        if turn.crash:
            if all(fits_now[v] for v in written):
                v = written[0]
                w.add("Y13", f"turn {t}", f"a ground/sea crash is marked, but the puzzle die {v} fits in "
                      f"{cell_words(fits_now[v][0])}", turn=t, dice=list(dice))
        elif turn.value not in written:
            cell = turn.cell
            rule = "Y11" if cell.kind == "nest" else "Y12"
            past = next((p for _, v, p in wrapped if v == turn.value), None)
            line = w.nests[cell.line] if cell.kind == "nest" else w.lums[cell.line]
            idx = cell.index if cell.index is not None else next_free(line)
            name = cell.name(idx if idx is not None else len(line) - 1)
            if past is not None:
                w.add("Y17", f"turn {t}, {cell_words(name)}", f"{turn.value} is written as if {past[0]}{past[1]:+d} "
                      f"wrapped round to {turn.value}; plus or minus keeps a die within 1-6, so with dice {shown} and "
                      f"this flight the puzzle die is {' or '.join(map(str, written))}", turn=t, cell=name)
                return
            w.add(rule, f"turn {t}, {cell_words(name)}",
                  f"{turn.value} is written, but with dice {shown}{plus} and this flight the puzzle die is "
                  f"{' or '.join(map(str, written))}", turn=t, cell=name)

    def place(self, w: _Turn, turn: Turn, t: int) -> None:
        cell, v = turn.cell, turn.value
        line = w.nests[cell.line] if cell.kind == "nest" else w.lums[cell.line]
        rule = "Y11" if cell.kind == "nest" else "Y12"
        nxt = next_free(line)
        idx = cell.index if cell.index is not None else nxt
        if idx is None:
            w.add(rule, f"turn {t}, {cell_words(cell.name())}", f"{cell_words(cell.name())} is full; {v} has no box there",
                  turn=t, cell=cell.name(len(line) - 1))
            return
        name = cell.name(idx)
        where = f"turn {t}, {cell_words(name)}"
        if line[idx] is not None:
            w.add(rule, where, f"that box already holds {line[idx]}", turn=t, cell=name)
            return
        if idx != nxt:
            order = "left to right" if cell.kind == "nest" else "bottom to top"
            w.add(rule, where, f"boxes are filled {order} without gaps; the next free box is {cell_words(cell.name(nxt))}",
                  turn=t, cell=name)
        problem = (nest_problem(w.nests, cell.line, idx, v) if cell.kind == "nest"
                   else lum_problem(w.lums, cell.line, idx, v))
        if problem:
            w.add(rule, where, problem, turn=t, cell=name)
        line[idx] = v
        if cell.kind == "nest":
            filled = sum(1 for x in line if x is not None)
            if filled % 2 == 0:
                w.unlock(f"nest{cell.line + 1}.{filled // 2}", t)
        elif all(x is not None for x in line):
            w.unlock(f"lum{cell.line + 1}", t)

    # -- the end of the record

    def end(self, sheet: Sheet) -> list[Finding]:
        """A solo record that stops before the game ended (Y21): a warning. Not asked of a
        game in progress."""
        if sheet.over or not self.rec.model.solo or not sheet.turns:
            return []
        last = sheet.turns
        return [Finding("Y21", f"turn {last}", f"the record stops after turn {last} but the solo game has not ended "
                        "(no completed puzzles, no return to the island with 4 stars)", WARNING,
                        {"turn": last, "vertex": list(sheet.pos)})]


def _extend(chain: Chain, items: list) -> Chain:
    for item in items:
        chain = chain.add(item)
    return chain
