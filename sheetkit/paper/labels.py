"""Numbered tags for findings, placed where they cover nothing that must stay readable.

A checked sheet marks every finding at its place with a short tag ("1", "2", ...). The
tags must not cover each other, nor the sheet's own marks (star letters, square names,
turn numbers), and must stay inside the printable area. `place` puts each tag beside its
anchor when there is room, else in the nearest free space within `reach` mm and draws a
leader line back to the anchor; a tag with no free space within reach is returned as
unplaced (the findings page lists it), never drawn over something.

Everything is in millimetres, y downwards, like sheetkit.paper.scene. Rectangles are
(x0, y0, x1, y1). Placement is deterministic: tags are placed in the order given, each
trying the same candidate positions in the same order.

The cost is near linear in the tags: the obstacles, the placed tags and the leader lines
are each bucketed in a grid, so a candidate is held only against what lies near it; and a
tag at the same place and of the same size as an earlier one resumes that tag's candidates
where it stopped, since what blocked a candidate then blocks it still (nothing placed is
ever taken away). Twenty findings on one square cost one scan of its candidates, not twenty.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field
from itertools import islice
from typing import Iterable, Sequence

from sheetkit.paper import scene as S

Box = tuple[float, float, float, float]  # x0, y0, x1, y1

TAG_PT = 6.5  # tag text size, points
PAD = 0.45  # mm of white around a tag's text
CLEAR = 0.4  # mm kept free between a tag and anything else
NEAR = 2.5  # mm: a tag at most this far from its anchor's ring needs no leader
REACH = 30.0  # mm: how far a tag may go to find free space
STEP = 1.25  # mm between candidate rings
CELL = 6.0  # mm: the side of a cell of the spatial index
# Directions tried at every distance, in this order: upper right first (where a reader
# looks for a label), then right, the other diagonals and the sides; then the 16-point
# directions between them. Angles in degrees, 0 = east, counter-clockwise (y is down).
_DIRS = (45, 0, -45, 90, 135, -90, 180, -135, 22.5, -22.5, 67.5, 112.5, 157.5, -157.5, -112.5, -67.5)
# each direction's unit vector (y down) and its larger component
_UNITS = tuple((math.cos(math.radians(a)), -math.sin(math.radians(a)),
                max(abs(math.cos(math.radians(a))), abs(math.sin(math.radians(a))))) for a in _DIRS)


@dataclass(frozen=True, slots=True)
class Tag:
    """A short text for the finding at `anchor` (x, y in mm). `radius` is the ring drawn
    around the anchor: the tag sits outside it and the ring is kept free for all tags."""

    text: str
    anchor: tuple[float, float]
    radius: float = 0.0
    size: float = TAG_PT
    toward: float | None = None  # a direction (degrees, 0 = east) tried first at every distance
    only: bool = False  # `toward` alone: a tag beside its line of text, or nowhere (and no leader)


@dataclass(frozen=True, slots=True)
class Placed:
    tag: Tag
    box: Box  # the tag's white box; its text is centred in it
    leader: tuple[float, float, float, float] | None  # from the box to the anchor's ring, or None


@dataclass(frozen=True, slots=True)
class Placement:
    placed: tuple[Placed, ...]
    unplaced: tuple[Tag, ...]  # no free space within reach: list them on the findings page
    # the work done, for the tests of its cost: candidate boxes tried, and boxes or lines
    # a candidate was held against (not part of the result)
    tried: int = field(default=0, compare=False)
    compared: int = field(default=0, compare=False)
    # each tag given, in order, with the candidate it took and its Placed (None: unplaced),
    # for a later `place(after=)` to go on from
    taken: tuple[tuple[Tag, int | None, Placed | None], ...] = field(default=(), compare=False, repr=False)


def tag_size(text: str, size: float = TAG_PT) -> tuple[float, float]:
    """Width and height (mm) of a tag's box for `text` set bold at `size` points."""
    from sheetkit.paper.measure import text_width

    em = size * 25.4 / 72
    return text_width(text, size, True) + 2 * PAD, 0.78 * em + 2 * PAD


def text_box(t: S.Text, dx: float = 0.0, dy: float = 0.0) -> Box:
    """The ink box of a Text item (as scene.bounds measures it), moved by (dx, dy)."""
    from sheetkit.paper.measure import text_width

    w = text_width(t.text, t.size, t.bold)
    x0 = t.x + dx - {"start": 0.0, "middle": w / 2, "end": w}[t.anchor]
    pt = t.size * 25.4 / 72
    return (x0, t.y + dy - 0.8 * pt, x0 + w, t.y + dy + 0.25 * pt)


def text_boxes(items: Iterable[S.Item], forms: dict[str, S.Form] | None = None,
               keep=lambda t: True) -> list[Box]:
    """The boxes of every Text among `items` (those of placed forms too) for which
    `keep(text)` holds: the printed words and numbers a tag must not cover."""
    out: list[Box] = []

    def walk(its, dx, dy):
        for it in its:
            if isinstance(it, S.Text):
                if it.text.strip() and keep(it):
                    out.append(text_box(it, dx, dy))
            elif isinstance(it, S.Use) and forms and it.name in forms:
                walk(forms[it.name].items, dx + it.x, dy + it.y)

    walk(items, 0.0, 0.0)
    return out


def drawable(page: S.Page, margin: float = S.SAFE_MARGIN) -> Box:
    return (margin, margin, page.width - margin, page.height - margin)


class _Grid:
    """Boxes bucketed by the CELL x CELL squares they touch: a query looks only at the
    boxes near it, so placing a tag costs the same on a busy sheet as on an empty one.
    `looked` counts the boxes queries were handed (the cost the tests count)."""

    def __init__(self):
        self.cells: dict[tuple[int, int], list[int]] = {}
        self.boxes: list[Box] = []
        self.looked = 0

    @staticmethod
    def _span(b: Box):
        return (range(math.floor(b[0] / CELL), math.floor(b[2] / CELL) + 1),
                range(math.floor(b[1] / CELL), math.floor(b[3] / CELL) + 1))

    def add(self, b: Box) -> None:
        k = len(self.boxes)
        self.boxes.append(b)
        cells = self.cells
        j0, j1 = math.floor(b[1] / CELL), math.floor(b[3] / CELL) + 1
        for i in range(math.floor(b[0] / CELL), math.floor(b[2] / CELL) + 1):
            for j in range(j0, j1):
                ks = cells.get((i, j))
                if ks is None:
                    cells[(i, j)] = [k]
                else:
                    ks.append(k)

    def hits(self, b: Box, unless=None) -> bool:
        """Whether a box overlaps `b` (and `unless` of it does not hold)."""
        xs, ys = self._span(b)
        boxes = self.boxes
        for i in xs:
            for j in ys:
                ks = self.cells.get((i, j), ())
                self.looked += len(ks)
                for k in ks:
                    if _overlap(b, boxes[k]) and (unless is None or not unless(boxes[k])):
                        return True
        return False

    def near(self, b: Box) -> set[int]:
        xs, ys = self._span(b)
        out = {k for i in xs for j in ys for k in self.cells.get((i, j), ())}
        self.looked += len(out)
        return out

    def near_boxes(self, b: Box) -> set[Box]:
        return set(map(self.boxes.__getitem__, self.near(b)))


class Groups:
    """Obstacles that come in named groups, each indexed once, the first time it is used
    (a map's segments, each covered by its boxes): a drawing holds its tags against the
    groups it names, `using(names)`, so that a long flight costs no indexing that a
    shorter one did not (the map has only so many segments). Shared by the threads of a
    server: a group is added whole under a lock before anything reads it."""

    def __init__(self):
        self.cells: dict[tuple[int, int], list[tuple[object, Box]]] = {}
        self._indexed: set = set()
        self._lock = threading.Lock()

    def using(self, groups: dict) -> "_Using":
        """The obstacles of `groups` (a name -> a function giving its boxes, called the
        first time that name is used)."""
        new = [n for n in groups if n not in self._indexed]
        if new:
            with self._lock:
                for name in new:
                    if name in self._indexed:
                        continue
                    for b in dict.fromkeys(groups[name]()):
                        xs, ys = _Grid._span(b)
                        for i in xs:
                            for j in ys:
                                self.cells.setdefault((i, j), []).append((name, b))
                    self._indexed.add(name)
        return _Using(self, set(groups))


class _Using:
    """The obstacles of some of a Groups' groups, as `place` asks an index for them."""

    def __init__(self, groups: Groups, names: set):
        self.groups, self.names = groups, names
        self.looked = 0

    @property
    def boxes(self) -> list[Box]:
        return list(dict.fromkeys(b for ks in self.groups.cells.values() for n, b in ks if n in self.names))

    def hits(self, b: Box, unless=None) -> bool:
        xs, ys = _Grid._span(b)
        names, cells = self.names, self.groups.cells
        for i in xs:
            for j in ys:
                ks = cells.get((i, j), ())
                self.looked += len(ks)
                for n, o in ks:
                    if n in names and _overlap(b, o) and (unless is None or not unless(o)):
                        return True
        return False

    def near_boxes(self, b: Box) -> set[Box]:
        xs, ys = _Grid._span(b)
        names, cells = self.names, self.groups.cells
        out = {o for i in xs for j in ys for n, o in cells.get((i, j), ()) if n in names}
        self.looked += len(out)
        return out


class _Stack:
    """Several indexes asked as one: the blank sheet's, the groups a drawing uses, and the
    drawing's own obstacles (none of them copied)."""

    def __init__(self, *indexes):
        self.indexes = indexes

    def hits(self, b: Box, unless=None) -> bool:
        return any(ix.hits(b, unless) for ix in self.indexes)

    def near_boxes(self, b: Box) -> set[Box]:
        return set().union(*(ix.near_boxes(b) for ix in self.indexes))

    @property
    def looked(self) -> int:
        return sum(ix.looked for ix in self.indexes)


class _List:
    """The naive index: every query looks at every box (the benchmark's baseline)."""

    def __init__(self):
        self.boxes: list[Box] = []
        self.looked = 0

    def add(self, b: Box) -> None:
        self.boxes.append(b)

    def hits(self, b: Box, unless=None) -> bool:
        self.looked += len(self.boxes)
        return any(_overlap(b, o) and (unless is None or not unless(o)) for o in self.boxes)

    def near(self, b: Box) -> set[int]:
        self.looked += len(self.boxes)
        return set(range(len(self.boxes)))

    def near_boxes(self, b: Box) -> set[Box]:
        self.looked += len(self.boxes)
        return set(self.boxes)


class _Lines:
    """The leader lines drawn, indexed by the boxes they span (a leader is at most REACH
    long, so it lies in a few dozen cells at most)."""

    def __init__(self, index):
        self.index = index
        self.lines: list[tuple[float, float, float, float]] = []

    def add(self, ln: tuple[float, float, float, float]) -> None:
        self.lines.append(ln)
        self.index.add(_span_box(ln))

    def crosses(self, b: Box) -> bool:
        lines = self.lines
        return any(segment_hits_box(*lines[k], b) for k in self.index.near(b))

    @property
    def looked(self) -> int:
        return self.index.looked


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _grow(b: Box, d: float) -> Box:
    return (b[0] - d, b[1] - d, b[2] + d, b[3] + d)


def _inside(b: Box, area: Box) -> bool:
    return b[0] >= area[0] and b[1] >= area[1] and b[2] <= area[2] and b[3] <= area[3]


def gap(box: Box, point: tuple[float, float]) -> float:
    """Distance from `point` to the nearest point of `box` (0 inside it)."""
    dx = max(box[0] - point[0], 0.0, point[0] - box[2])
    dy = max(box[1] - point[1], 0.0, point[1] - box[3])
    return math.hypot(dx, dy)


def _nearest(box: Box, p: tuple[float, float]) -> tuple[float, float]:
    return min(max(p[0], box[0]), box[2]), min(max(p[1], box[1]), box[3])


def _ring_box(t: Tag) -> Box | None:
    if t.radius <= 0:
        return None
    (x, y), r = t.anchor, t.radius
    return (x - r, y - r, x + r, y + r)


def segment_hits_box(x1: float, y1: float, x2: float, y2: float, b: Box) -> bool:
    """Whether the segment crosses the open box (Liang-Barsky clipping)."""
    t0, t1 = 0.0, 1.0
    dx, dy = x2 - x1, y2 - y1
    for p, q in ((-dx, x1 - b[0]), (dx, b[2] - x1), (-dy, y1 - b[1]), (dy, b[3] - y1)):
        if abs(p) < 1e-12:
            if q <= 0:
                return False
            continue
        r = q / p
        if p < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
        if t1 - t0 <= 1e-9:
            return False
    return True


def _unit(a: float) -> tuple[float, float, float]:
    c, s = math.cos(math.radians(a)), -math.sin(math.radians(a))
    return c, s, max(abs(c), abs(s))


def _candidates(t: Tag, w: float, h: float, reach: float):
    """Boxes for tag `t`, nearest to its anchor first: for every distance d from the
    anchor's ring, the box whose nearest point lies at d in each direction in turn."""
    ax, ay = t.anchor
    d = t.radius + CLEAR
    units = _UNITS if t.toward is None else (_unit(t.toward),) + (() if t.only else _UNITS)
    while d <= t.radius + reach + 1e-9:
        for ux, uy, m in units:
            cx = ax + ux * d + w / 2 * ux / m
            cy = ay + uy * d + h / 2 * uy / m
            yield (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
        d += STEP


def indexed(obstacles: Iterable[Box]) -> _Grid:
    """Obstacles indexed once, for `place(base=)`: a sheet's printed words are the same
    under every drawing of it."""
    out = _Grid()
    for b in dict.fromkeys(obstacles):
        out.add(b)
    return out


def place(tags: Sequence[Tag], obstacles: Iterable[Box], area: Box, *, reach: float = REACH,
          naive: bool = False, base: Sequence[_Grid | _Using] = (), after: Placement | None = None) -> Placement:
    """Place every tag (in order) clear of `obstacles` (and of those of the indexes in
    `base`, made beforehand: `indexed`, `Groups.using`), of the other tags and their rings,
    of the leader lines already drawn, and inside `area`; a leader line crosses no tag and
    no obstacle. `naive` checks every candidate of every tag against every box, without the
    spatial index (the benchmark's baseline): the result is the same.

    `after`: the placement of the first of these tags among some of these obstacles, in the
    same area and reach (the drawing before its last move). A tag is placed at the first of
    its candidates that nothing rules out, and obstacles only rule out more: so each of
    those tags keeps its box while that box is still free, and the tags are placed afresh
    from the first whose box is not. The result is the same as without `after`."""
    index = _List if naive else _Grid
    own = index()
    if naive:
        for b in dict.fromkeys(b for ix in base for b in ix.boxes):
            own.add(b)
        fixed = own
    else:
        fixed = _Stack(*base, own)
    # Each obstacle once, and only those a tag's probe or a leader can meet: within CLEAR of
    # the area, or between it and an anchor outside it (a record's flight off the map).
    x0, y0, x1, y1 = _grow(area, CLEAR + 1e-6)
    # ... and within reach of a tag: no candidate box lies further from its anchor than the
    # ring, the reach and the box's own size (a sheet's far corners need not be indexed)
    rx0 = ry0 = math.inf
    rx1 = ry1 = -math.inf
    for t in tags:
        (ax, ay), r = t.anchor, t.radius + 1e-6
        x0, y0, x1, y1 = min(x0, ax - r), min(y0, ay - r), max(x1, ax + r), max(y1, ay + r)
        far = t.radius + reach + max(tag_size(t.text, t.size)) + 2 * CLEAR + 1.0
        rx0, ry0, rx1, ry1 = min(rx0, ax - far), min(ry0, ay - far), max(rx1, ax + far), max(ry1, ay + far)
    near = (max(x0, rx0), max(y0, ry0), min(x1, rx1), min(y1, ry1))
    for b in dict.fromkeys(obstacles):
        if _overlap(b, near):
            own.add(b)
    # every ring stays free, so that no tag hides another finding's place; held apart from
    # the obstacles, since the rings around a tag's own anchor count by their true circles
    rings = index()
    for rb in sorted({rb for rb in map(_ring_box, tags) if rb is not None}):
        rings.add(rb)
    looked = fixed.looked  # the base indexes are shared: this placement's own looks counted
    tags_ix = index()  # the placed tags' boxes
    leaders = _Lines(index())

    def free(t: Tag, box: Box, around: set[Box]) -> tuple[bool, tuple | None]:
        """Whether `box` is free for tag `t`, and the leader it then needs."""
        if not _inside(box, area):
            return False, None
        probe = _grow(box, CLEAR)
        if (tags_ix.hits(probe) or fixed.hits(probe) or leaders.crosses(probe)
                or rings.hits(probe, unless=lambda b: b in around and _clear_of_circle(box, b))):
            return False, None
        leader = None
        if gap(box, t.anchor) > t.radius + NEAR and not t.only:  # one that keeps to its line needs none
            leader = _leader(t, box)
            span = _span_box(leader)
            if any(segment_hits_box(*leader, _grow(tags_ix.boxes[k], CLEAR)) for k in tags_ix.near(span)):
                return False, None
            end = leader[2:]  # a mark the finding's place lies in must be entered to point at it
            if any(gap(b, end) > 0 and segment_hits_box(*leader, b) for b in fixed.near_boxes(span)):
                return False, None  # a leader crossing a star letter or a number would hide it as well
            if any(b not in around and gap(b, end) > 0 and segment_hits_box(*leader, b) for b in rings.near_boxes(span)):
                return False, None
        return True, leader

    placed: list[Placed] = []
    unplaced: list[Tag] = []
    taken: list[tuple[Tag, int | None, Placed | None]] = []
    resume: dict[tuple, int | None] = {}  # (anchor, ring, size of box) -> the first candidate not yet ruled out
    before = list(after.taken) if after is not None and not naive else []
    tried = 0
    for n, t in enumerate(tags):
        w, h = tag_size(t.text, t.size)
        key = (t.anchor, t.radius, w, h, t.toward, t.only)
        start = 0 if naive else resume.get(key, 0)
        if start is None:  # an earlier tag of this place and size found no room: nor will this one
            unplaced.append(t)
            taken.append((t, None, None))
            continue
        around = _rings_around(rings, t.anchor)  # its own, and any other ring it lies in
        if n < len(before) and before[n][0] == t:
            _, i, was = before[n]
            if was is None:  # no room among fewer obstacles: none now
                unplaced.append(t)
                taken.append((t, None, None))
                resume[key] = None
                continue
            ok, _ = free(t, was.box, around)
            if ok:
                placed.append(was)
                taken.append((t, i, was))
                tags_ix.add(was.box)
                if was.leader:
                    leaders.add(was.leader)
                resume[key] = i + 1
                continue
        before = []  # this tag moves, and so may every later one
        for i, box in enumerate(islice(_candidates(t, w, h, reach), start, None), start):
            tried += 1
            ok, leader = free(t, box, around)
            if not ok:
                continue
            placed.append(Placed(t, box, leader))
            taken.append((t, i, placed[-1]))
            tags_ix.add(box)
            if leader:
                leaders.add(leader)
            resume[key] = i + 1  # this very box is taken now
            break
        else:
            unplaced.append(t)
            taken.append((t, None, None))
            resume[key] = None  # every candidate is ruled out, for good
    compared = fixed.looked - looked + tags_ix.looked + leaders.looked + rings.looked
    return Placement(tuple(placed), tuple(unplaced), tried, compared, tuple(taken))


def _rings_around(rings, p: tuple[float, float]) -> set[Box]:
    return {rb for rb in map(rings.boxes.__getitem__, rings.near((p[0], p[1], p[0], p[1])))
            if math.hypot(p[0] - (rb[0] + rb[2]) / 2, p[1] - (rb[1] + rb[3]) / 2) <= (rb[2] - rb[0]) / 2}


def _clear_of_circle(b: Box, ring: Box) -> bool:
    cx, cy, r = (ring[0] + ring[2]) / 2, (ring[1] + ring[3]) / 2, (ring[2] - ring[0]) / 2
    return gap(b, (cx, cy)) >= r + CLEAR - 1e-9


def _span_box(seg) -> Box:
    x1, y1, x2, y2 = seg
    return (min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2))


def _leader(t: Tag, box: Box) -> tuple[float, float, float, float]:
    """From the box's nearest point to the anchor's ring (or the anchor itself)."""
    bx, by = _nearest(box, t.anchor)
    ax, ay = t.anchor
    d = math.hypot(bx - ax, by - ay)
    k = t.radius / d if d > 0 else 0.0
    return (bx, by, ax + (bx - ax) * k, ay + (by - ay) * k)


def items(placement: Placement, color: str = "#d40000") -> list[S.Item]:
    """The scene items of placed tags: a leader line, a white box with a thin border,
    the text centred in it (the white keeps a tag readable over a pencil line)."""
    out: list[S.Item] = []
    line = S.Style(stroke=color, width=0.25)
    frame = S.Style(stroke=color, fill=S.WHITE, width=0.2)
    for p in placement.placed:
        x0, y0, x1, y1 = p.box
        if p.leader:
            out.append(S.Line(*p.leader, style=line))
        out.append(S.Rect(x0, y0, x1 - x0, y1 - y0, style=frame, radius=0.6))
        em = p.tag.size * 25.4 / 72
        out.append(S.Text((x0 + x1) / 2, (y0 + y1) / 2 + 0.36 * em, p.tag.text, size=p.tag.size, bold=True,
                          anchor="middle", color=color))
    return out
