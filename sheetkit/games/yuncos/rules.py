"""Yuncos rules Y1-Y23 (RULES.md) in the shared replay shape (checking/replay.py).

No I/O. `Rules(record)` gives the sheet before the first turn (`initial`), the sheet after
one more turn with what is wrong with that turn (`step`), and what is wrong with the record
as a finished game (`end`). check.py replays a record through it and holds the paper
against the replayed sheet. Decisions on points the rules leave open are listed in
docs/yuncos-records.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from sheetkit.games.yuncos.notation import (DIAGONALS, STEP_NAMES, Record, Turn, all_boxes, box_kind, flight_text,
                                            vertex_name)
from sheetkit.games.yuncos.scoring import CRASH_TRACK
from sheetkit.messages import Msg, msg
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


def nest_problem(nests: list[list], row: int, idx: int, v: int) -> Msg | None:
    """Why value v cannot go into nest row `row`, box idx (Y11), or None."""
    line = nests[row]
    if row == 0:
        if v in [x for j, x in enumerate(line) if x is not None and j != idx]:
            return msg("finding.yuncos.Y11_row1_repeat", value=v)
    else:
        left = _last_filled_before(line, idx)
        if left is not None and v >= left:
            return msg("finding.yuncos.Y11_row2_descends", value=v, left=left)
    return None


def lum_problem(lums: list[list], col: int, level: int, v: int) -> Msg | None:
    """Why value v cannot go into luminary column col at level (Y12), or None."""
    below = _last_filled_before(lums[col], level)
    if below is not None and v <= below:
        return msg("finding.yuncos.Y12_rises", value=v, below=below)
    for other, line in enumerate(lums):
        if other != col and line[level] == v:
            return msg("finding.yuncos.Y12_row_repeat", value=v, column=other + 1)
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


def cell_words(name: str) -> Msg:
    """A puzzle cell's name ("nest1.2") in words: "nest row 1, box 2"."""
    kind, _, rest = name.partition(".")
    if kind.startswith("nest"):
        row = int(kind[4:])
        return msg("yuncos.cell.nest_box", row=row, box=int(rest)) if rest else msg("yuncos.cell.nest_row", row=row)
    column = int(kind[3:])
    return (msg("yuncos.cell.lum_level", column=column, level=int(rest)) if rest
            else msg("yuncos.cell.lum_column", column=column))


def box_words(box: str) -> "Msg | str":
    """An ability box's name ("nest2.1", "lum3", "fish2", or the long "nest2.ability1") in
    words, as the sheet shows it: "nest row 2's ability box 1"."""
    m = re.fullmatch(r"(nest|lum|fish)(\d+)(?:\.(?:ability)?(\d*))?", box)
    if m is None:
        return box
    kind, n, k = m.group(1), int(m.group(2)), m.group(3)
    if kind == "nest" and k:
        return msg("yuncos.cell.ability_nest", row=n, k=int(k))
    if kind == "lum":
        return msg("yuncos.cell.ability_lum", column=n)
    if kind == "fish":
        return msg("yuncos.cell.ability_fish", n=n)
    return box


def ability(kind: str) -> Msg:
    """An ability kind ("plusminus") in words."""
    return msg(f"yuncos.ability.{kind}")


def turn_at(t: int, step: int | None = None, cell: str | None = None) -> Msg:
    """The where of a finding in turn t: "turn 7", "turn 7, step 3", "turn 7, nest row 1, box 2"."""
    if step is not None:
        return msg("where.yuncos.turn_step", turn=t, step=step)
    if cell is not None:
        return msg("where.yuncos.turn_cell", turn=t, cell=cell_words(cell))
    return msg("where.yuncos.turn", turn=t)


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

    def __eq__(self, other) -> bool:  # the same items: a sheet replayed again equals the one kept
        return isinstance(other, Chain) and (self is other or (self.size == other.size and list(self) == list(other)))

    def __hash__(self) -> int:
        return hash(tuple(self))


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
        self.end_step: int | None = None  # the step of this turn's flight where the game ended (Y21)
        self.findings: list[Finding] = []

    def add(self, rule: str, where: Msg, message: Msg, severity: str = ERROR, **at) -> None:
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

    @property
    def setup(self) -> tuple:
        """What these rules are made of besides the turns (the boxes the turns name order the
        uses): a replay goes on from an earlier one only under the same (checking.replay)."""
        return (self.rec.model.layout, self.rec.start, bool(self.rec.model.solo), self.paper_used, self.named)

    @staticmethod
    def prior(earlier):
        """An earlier replay of the sheet to go on from, or None: a turn after the end says
        how many turns follow it, so a sheet that has ended is replayed whole."""
        if earlier is None or earlier.state.end is not None or earlier.state.eliminated is not None:
            return None
        return earlier

    def go_on_from(self, earlier: "Rules") -> None:
        """Play on from a replay made by `earlier` (checking.replay): its states' path bits
        name the points it numbered, so this table starts as that one."""
        self._bits = dict(earlier._bits)

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

    def name(self, v: Vertex) -> "str | Msg":
        """A map point as on the sheet ("C7"); a point a flight reached off the map is named by
        the edge point beside it, never by a made-up column or row 0 ("Z8", "I0")."""
        b = self.board
        if b.on_map(v):
            return vertex_name(v)
        edge = (min(max(v[0], 0), b.width - 1), min(max(v[1], 0), b.height - 1))
        return msg("yuncos.off_map", point=vertex_name(edge))

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
                also = (msg("yuncos.would_be_legal") if fewer == errors
                        else msg("yuncos.would_have_faults", n=errors - fewer))
                found = [replace(f, message=msg("finding.yuncos.read_as_written", finding=f.text, words=words, also=also))
                         if f.severity == ERROR else f for f in found]
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
            w.add("Y20", turn_at(t), msg("finding.yuncos.Y20_after_elimination", eliminated=s.eliminated),
                  turn=t, vertex=list(s.pos))
        else:
            more = max(self.length - t, 0)
            said = (msg("finding.yuncos.Y21_after_end_more", end=s.end[0], reason=s.end[1], more=more) if more
                    else msg("finding.yuncos.Y21_after_end", end=s.end[0], reason=s.end[1]))
            w.add("Y21", turn_at(t), said, turn=t, vertex=list(s.pos))

    def use(self, w: _Turn, t: int, want: str) -> str | None:
        """Resolve one use of an ability (a kind or a box id) in turn t; Y15, Y16."""
        where = turn_at(t)
        boxes = w.boxes
        if want in boxes:
            b = boxes[want]
            if b.used is not None:
                w.add("Y15", where, msg("finding.yuncos.Y15_box_used_twice", box=b.id, named=box_words(b.id), kind=ability(b.kind), used=b.used),
                      turn=t, box=b.id)
                return b.id
            if b.unlocked is None:
                w.add("Y15", where, msg("finding.yuncos.Y15_box_locked", box=b.id, named=box_words(b.id), kind=ability(b.kind)), turn=t, box=b.id)
            elif b.unlocked == t:
                w.add("Y16", where, msg("finding.yuncos.Y16_box_fresh", box=b.id, named=box_words(b.id), kind=ability(b.kind)),
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
            w.add("Y16", where, msg("finding.yuncos.Y16_kind_fresh", kind=ability(kind), box=fresh[0].id),
                  turn=t, box=fresh[0].id)
            w.set_box(fresh[0], used=t)
            return fresh[0].id
        spent = [b for b in boxes.values() if b.kind == kind and b.unlocked is not None]
        if spent:
            w.add("Y15", where, msg("finding.yuncos.Y15_kind_spent", kind=ability(kind),
                                    boxes=", ".join(b.id for b in spent)), turn=t)
        else:
            w.add("Y15", where, msg("finding.yuncos.Y15_kind_locked", kind=ability(kind)), turn=t)
        return None

    def _flight_and_puzzle(self, w: _Turn, turn: Turn, t: int) -> None:
        spec = self.spec
        if turn.start_at is not None and turn.start_at != w.pos:
            said = (msg("finding.yuncos.Y6_first_flight", point=vertex_name(turn.start_at), start=self.name(w.pos))
                    if t == 1 else msg("finding.yuncos.Y6_later_flight", point=vertex_name(turn.start_at),
                                       previous=t - 1, end=self.name(w.pos)))
            w.add("Y6", turn_at(t), said, turn=t, vertex=list(turn.start_at))
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
            w.add("Y18", turn_at(t), msg("finding.yuncos.Y18_count", used=declared_diag, steps=n_diag),
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
                w.add("Y18", turn_at(t, step=k + 1), msg("finding.yuncos.Y18_middle", point=self.name(at)),
                      turn=t, step=k + 1, vertex=list(at))
        unit = tuple(s for s, d in zip(steps, is_diag) if not d)
        faces = flight_faces(spec, unit)
        if not faces:
            beyond = 6 if unit else 1  # the die that +1 (or -1) takes to 7 unit steps (or none)
            if spec.level == "easy" and pm and len(unit) in (0, 7) and (turn.dice is None or beyond in turn.dice):
                w.add("Y17", turn_at(t), msg("finding.yuncos.Y17_seven" if unit else "finding.yuncos.Y17_none",
                                             steps=len(unit)), turn=t, vertex=list(w.pos))
            elif spec.level == "easy":
                w.add("Y4", turn_at(t), msg("finding.yuncos.Y4_length", steps=len(unit)),
                      turn=t, vertex=list(w.pos))
            else:
                w.add("Y5", turn_at(t), msg("finding.yuncos.Y5_no_pattern", flight=flight_text(list(unit))),
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
                what = "finding.yuncos.Y3_leaves_map" if board.on_map(pos) else "finding.yuncos.Y3_stays_off_map"
                w.add("Y3", turn_at(t, step=k), msg(what, step=STEP_NAMES[(dx, dy)], point=self.name(pos)),
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
                w.end = (t, msg("yuncos.end_island", point=vertex_name(nxt), stars=len(w.stars)))
                w.end_step = k
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
            w.add("Y13", turn_at(t), msg("finding.yuncos.Y13_every_value_fits", value=v, cell=cell_words(fits_now[v][0])),
                  turn=t, vertex=list(pos))
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
            w.add("Y19", turn_at(t), msg("finding.yuncos.Y19_count", used=yunco, crashes=len(events)),
                  WARNING, turn=t)
        for c in events[:skipped]:
            c["skipped"] = True
        before = w.marks
        for _ in range(len(events) - skipped):
            w.marks += 1
            if w.marks > len(CRASH_TRACK) and w.eliminated is None:
                w.eliminated = t
        if w.eliminated == t and w.end_step is not None:
            # Y21: the end is met at the step where it happens. Only a crash earlier in the
            # flight than the island (the crashes marked in the order flown, the ground
            # crash last) eliminates the Yunco before it; a later one does not undo the end.
            flown = sorted((c for c in events if not c.get("skipped")),
                           key=lambda c: len(turn.steps) + 1 if c["step"] is None else c["step"])
            fatal = flown[len(CRASH_TRACK) - before]
            if fatal["step"] is not None and fatal["step"] < w.end_step:
                w.end = None

        # the puzzles are completed when the number is written, after the flight: a Yunco
        # eliminated by this flight's crashes is gone before (Y20, Y21)
        if w.end is None and w.eliminated is None and all(v is not None for line in w.nests + w.lums for v in line):
            w.end = (t, msg("yuncos.end_puzzles"))

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
        shown = msg("yuncos.dice", a=dice[0], b=dice[1])
        shown_pm = msg("yuncos.dice_plusminus", a=dice[0], b=dice[1]) if pm else shown
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
            w.add("Y17", turn_at(t), msg("finding.yuncos.Y17_wrapped_flight", face=f, past=f"{past[0]}{past[1]:+d}",
                                         dice=shown), turn=t, dice=list(dice))
            return
        if not flies:
            rule = "Y4" if self.spec.level == "easy" else "Y5"
            n = len(turn.steps) - sum(1 for s in turn.steps if s in DIAGONALS.values())
            said = (msg("finding.yuncos.Y4_neither_die", steps=n, dice=shown_pm) if rule == "Y4"
                    else msg("finding.yuncos.Y5_neither_die", dice=shown_pm))
            w.add(rule, turn_at(t), said, turn=t, dice=list(dice))
            return
        written = sorted({v for _, _, v in flies})
        if turn.crash:
            if all(fits_now[v] for v in written):
                v = written[0]
                w.add("Y13", turn_at(t), msg("finding.yuncos.Y13_die_fits", value=v, cell=cell_words(fits_now[v][0])),
                      turn=t, dice=list(dice))
        elif turn.value not in written:
            cell = turn.cell
            rule = "Y11" if cell.kind == "nest" else "Y12"
            past = next((p for _, v, p in wrapped if v == turn.value), None)
            line = w.nests[cell.line] if cell.kind == "nest" else w.lums[cell.line]
            idx = cell.index if cell.index is not None else next_free(line)
            name = cell.name(idx if idx is not None else len(line) - 1)
            if past is not None:
                w.add("Y17", turn_at(t, cell=name), msg("finding.yuncos.Y17_wrapped_value", value=turn.value,
                                                        past=f"{past[0]}{past[1]:+d}", dice=shown,
                                                        dies=either(written)), turn=t, cell=name)
                return
            w.add(rule, turn_at(t, cell=name),
                  msg("finding.yuncos.written_not_die", value=turn.value, dice=shown_pm, dies=either(written)),
                  turn=t, cell=name)

    def place(self, w: _Turn, turn: Turn, t: int) -> None:
        cell, v = turn.cell, turn.value
        line = w.nests[cell.line] if cell.kind == "nest" else w.lums[cell.line]
        rule = "Y11" if cell.kind == "nest" else "Y12"
        nxt = next_free(line)
        idx = cell.index if cell.index is not None else nxt
        if idx is None:
            w.add(rule, turn_at(t, cell=cell.name()), msg("finding.yuncos.line_full", cell=cell_words(cell.name()), value=v),
                  turn=t, cell=cell.name(len(line) - 1))
            return
        name = cell.name(idx)
        where = turn_at(t, cell=name)
        if line[idx] is not None:
            w.add(rule, where, msg("finding.yuncos.box_taken", value=line[idx]), turn=t, cell=name)
            return
        if idx != nxt:
            order = msg("yuncos.left_to_right") if cell.kind == "nest" else msg("yuncos.bottom_to_top")
            w.add(rule, where, msg("finding.yuncos.box_gap", order=order, cell=cell_words(cell.name(nxt))),
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
        return [Finding("Y21", turn_at(last), msg("finding.yuncos.Y21_not_ended", turn=last), WARNING,
                        {"turn": last, "vertex": list(sheet.pos)})]


def either(values) -> "str | Msg":
    """"4 or 5": the values a die can be."""
    values = [str(v) for v in values]
    out: "str | Msg" = values[-1]
    for v in reversed(values[:-1]):
        out = msg("yuncos.either", a=v, b=out)
    return out


def _extend(chain: Chain, items: list) -> Chain:
    for item in items:
        chain = chain.add(item)
    return chain
