"""Printing a drawing bigger than the paper: tiles across pages, game-independent.

The drawing is one `scene.Form`; every tile page places it with `scene.Use(..., clip=...)`,
so the PDF carries the drawing once however many tiles show it. Neighbouring tiles share
an overlap strip. Each seam is a cut line: the sheet on top is trimmed there (its top and
left edges) and laid over the strip of the sheet underneath, which lies wholly beyond the
cut and is printed hatched grey with the word "glue". For a drawing on a grid (a board's
squares) `plan(..., step=...)` puts every cut on a grid line and keeps it off the `keep`
rectangles (labels), so nothing the players read is ever cut; the strip may then show a
second drawing (`art`: the board without its labels), so no label is printed clipped in it.
Registration marks sit whole on the sheet on top, `MARK_IN` mm inside its cut, and the same
marks whole inside the strip underneath: laid over it, the two coincide (hold the pair to
the light to check). Every tile carries a 50 mm scale check below its drawing. A first
page shows how the tiles assemble: a reduced drawing of the whole with the sheets' pieces
numbered on it, in the orientation that suits the drawing, and keeps a square free for a
serial number and QR code.

Every page keeps all drawing at least `SAFE_MARGIN` from the paper's edge.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from sheetkit.paper import marks
from sheetkit.paper.measure import text_width, wrap
from sheetkit.paper.pads import STAMP  # the square kept free on the first page
from sheetkit.paper.scene import (BLACK, SAFE_MARGIN, Circle, Form, Item, Line, Page, Path, QR, Rect, Style,
                            Text, Use, hatch, paper_size)

OVERLAP = 12.0  # mm of drawing printed on both neighbouring tiles
HEADER = 9.0  # mm above each tile's drawing for its label
FOOTER = 13.0  # mm below it for the scale check
GAP = 3.0  # mm between the drawing's edge and the safe margin (room for the edge marks)
MARK_R = 1.8  # mm: a registration mark's circle; its arms reach 1 mm further
MARK_IN = 6.0  # mm from the cut line into the sheet on top: a mark's centre
MARK = Style(stroke=BLACK, width=0.2)
CUT = Style(stroke=BLACK, width=0.2, dash=(2.0, 1.5))
GRID = Style(stroke="#c0392b", width=0.35)

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in the form's coordinates


@dataclass(frozen=True, slots=True)
class Tile:
    row: int
    col: int
    x: float  # the part of the drawing this tile shows, in the form's coordinates
    y: float
    w: float
    h: float
    number: int = 0  # its sheet number, 1 first, rows first

    @property
    def label(self) -> str:
        return str(self.number)


@dataclass(frozen=True, slots=True)
class Plan:
    page_w: float
    page_h: float
    rows: int
    cols: int
    tiles: tuple[Tile, ...]
    overlap: float
    keep: tuple[Box, ...] = ()  # what no seam, strip edge or mark may cross

    def tile(self, row: int, col: int) -> Tile:
        return self.tiles[row * self.cols + col]

    def cuts(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """The vertical cut lines' x and the horizontal ones' y (form coordinates)."""
        return (tuple(self.tile(0, c).x for c in range(1, self.cols)),
                tuple(self.tile(r, 0).y for r in range(1, self.rows)))

    def piece(self, t: Tile) -> Box:
        """What stays visible of tile `t` once the board is glued: its drawing up to its
        right and bottom neighbours' cut lines."""
        x1 = t.x + t.w - (self.overlap if t.col < self.cols - 1 else 0)
        y1 = t.y + t.h - (self.overlap if t.row < self.rows - 1 else 0)
        return t.x, t.y, x1, y1


@dataclass(frozen=True, slots=True)
class TileText:
    """The words on the pages, in the sheet's language."""

    title: str
    assembly: str = "How to assemble"
    note: str = ("Trim each sheet along the dashed line at its top and left (not in the first row or "
                 "column) and glue it over its neighbour's overlap strip, matching the registration marks.")
    tile: str = "Sheet"
    row: str = "row"
    column: str = "column"
    overlap: str = "overlap"
    lang: str = "en"  # for the scale check, the glue label and the sentences under each sheet


def _split(length: float, avail: float, overlap: float) -> tuple[int, float]:
    """How many tiles cover `length` with tiles at most `avail` long, and their length."""
    if length <= avail:
        return 1, length
    n = math.ceil((length - overlap) / (avail - overlap))
    return n, (length + (n - 1) * overlap) / n


def _crosses(at: float, keep: tuple[Box, ...], axis: int, pad: float = 0.0) -> bool:
    return any(b[axis] - pad < at < b[axis + 2] + pad for b in keep)


def grid_cuts(length: float, avail: float, overlap: float, step: float, keep: tuple[Box, ...] = (),
              axis: int = 0) -> list[float] | None:
    """Cut positions on multiples of `step` covering `length` with tiles at most `avail`
    long (a tile runs from its cut to the next cut plus `overlap`; the last to the end),
    none crossing a `keep` box along `axis` (0: x, 1: y): the fewest tiles, and of those
    the cuts that make the longest tile shortest (the sheets filled alike, none left
    nearly empty). None if no such cuts exist."""
    from functools import lru_cache

    eps = 1e-6
    cands = [k * step for k in range(1, math.ceil(length / step))
             if k * step < length - eps and not _crosses(k * step, keep, axis)]

    @lru_cache(maxsize=None)
    def best(start: float) -> tuple[int, float, tuple[float, ...]] | None:
        if length - start <= avail + eps:
            return 1, length - start, ()
        out = None
        for c in cands:
            if c <= start + eps or c + overlap - start > avail + eps:
                continue
            rest = best(c)
            if rest is None:
                continue
            got = (rest[0] + 1, max(rest[1], c + overlap - start), (c,) + rest[2])
            if out is None or got[:2] < out[:2]:
                out = got
        return out

    found = best(0.0)
    return None if found is None else list(found[2])


def _edges(length: float, cuts: list[float], overlap: float) -> list[tuple[float, float]]:
    starts = [0.0] + cuts
    ends = [c + overlap for c in cuts] + [length]
    return list(zip(starts, ends))


def plan(width: float, height: float, paper: str, overlap: float = OVERLAP,
         step: tuple[float, float] | None = None, keep: tuple[Box, ...] = ()) -> Plan:
    """Tiles for a `width` x `height` mm drawing: the paper orientation needing fewer pages
    (portrait on a tie), neighbours overlapping by exactly `overlap`. Without `step`, tiles
    of equal size; with `step` (the grid's (x, y) pitch), every cut on a grid line, clear of
    the `keep` boxes, each tile as big as its page allows."""
    best = None
    pw, ph = paper_size(paper)
    for w, h in ((pw, ph), (ph, pw)):
        aw = w - 2 * SAFE_MARGIN - 2 * GAP
        ah = h - 2 * SAFE_MARGIN - HEADER - FOOTER - 2 * GAP
        if step is None:
            cols, tw = _split(width, aw, overlap)
            rows, th = _split(height, ah, overlap)
            xs = [(c * (tw - overlap), c * (tw - overlap) + tw) for c in range(cols)]
            ys = [(r * (th - overlap), r * (th - overlap) + th) for r in range(rows)]
        else:
            cx = grid_cuts(width, aw, overlap, step[0], keep, 0)
            cy = grid_cuts(height, ah, overlap, step[1], keep, 1)
            if cx is None or cy is None:
                continue
            xs, ys = _edges(width, cx, overlap), _edges(height, cy, overlap)
        n = len(xs) * len(ys)
        if best is None or n < best[0]:
            best = (n, w, h, xs, ys)
    if best is None:  # no grid line will do: equal tiles, and lint says so
        return plan(width, height, paper, overlap, None, keep)
    _, w, h, xs, ys = best
    tiles = tuple(Tile(r, c, x0, y0, x1 - x0, y1 - y0, r * len(xs) + c + 1)
                  for r, (y0, y1) in enumerate(ys) for c, (x0, x1) in enumerate(xs))
    return Plan(w, h, len(ys), len(xs), tiles, overlap, tuple(keep))


def _along(lo: float, hi: float, keep: tuple[Box, ...], across: float, vertical: bool) -> list[float]:
    """Two mark positions along a seam between `lo` and `hi`, near a fifth of the way in from
    each end, moved (in 1 mm steps) until the mark is clear of every `keep` box."""
    reach = MARK_R + 1.0 + 0.6
    out = []
    for f in (0.2, 0.8):
        target = lo + (hi - lo) * f
        for d in sorted((k * 1.0 for k in range(-int(hi - lo), int(hi - lo) + 1)), key=lambda d: (abs(d), d)):
            v = target + d
            if not lo + reach <= v <= hi - reach:
                continue
            x, y = (across, v) if vertical else (v, across)
            if not any(b[0] - reach < x < b[2] + reach and b[1] - reach < y < b[3] + reach for b in keep):
                out.append(v)
                break
        else:
            out.append(target)
    return out


def registration_marks(p: Plan, t: Tile) -> list[tuple[float, float]]:
    """Centres (form coordinates) of the marks in the strips `t` shares with its neighbours:
    `MARK_IN` mm past the cut line, whole on the sheet on top and whole inside the strip
    of the sheet underneath; a neighbour computes the same points for the same strip."""
    ov = p.overlap
    pts = []
    for r, c in ((t.row, t.col), (t.row, t.col + 1)):  # vertical seams: left and right
        if 0 < c < p.cols and 0 <= r < p.rows:
            right = p.tile(r, c)  # the tile right of the seam
            x = right.x + MARK_IN
            lo = right.y + (ov if r > 0 else 0)
            hi = right.y + right.h - (ov if r < p.rows - 1 else 0)
            pts += [(x, y) for y in _along(lo, hi, p.keep, x, True)]
    for r, c in ((t.row, t.col), (t.row + 1, t.col)):  # horizontal seams: top and bottom
        if 0 < r < p.rows and 0 <= c < p.cols:
            below = p.tile(r, c)
            y = below.y + MARK_IN
            lo = below.x + (ov if c > 0 else 0)
            hi = below.x + below.w - (ov if c < p.cols - 1 else 0)
            pts += [(x, y) for x in _along(lo, hi, p.keep, y, False)]
    return pts


def mark_box(x: float, y: float) -> Box:
    """The extent of the registration mark centred at (x, y)."""
    a = MARK_R + 1.0 + MARK.width / 2
    return x - a, y - a, x + a, y + a


def mark(x: float, y: float, r: float = MARK_R) -> list[Item]:
    """A circle and cross; 2.8 mm from its centre to the arms' ends."""
    return [Circle(x, y, r, MARK), Line(x - r - 1.0, y, x + r + 1.0, y, MARK),
            Line(x, y - r - 1.0, x, y + r + 1.0, MARK)]


GLUE = Style(stroke="#9a9a9a", width=0.12)


def glue_strip(x: float, y: float, w: float, h: float, label: str | None, short: str = "",
               avoid: tuple[Box, ...] = ()) -> list[Item]:
    """The part of the sheet underneath that its neighbour covers: hatched grey, with its
    label every 40 mm (`short` where the strip is too narrow), each word wholly inside the
    strip and clear of the `avoid` boxes (the registration marks, page coordinates);
    `label` None: hatched only (the corner two strips share)."""
    from sheetkit.paper.measure import fit_size

    items: list[Item] = list(hatch(x, y, w, h, 2.0, 45.0, GLUE))
    if label is None:
        return items
    room = min(w, h, 60) if w < h else min(w, 60)
    if text_width(label, 6, True) > room - 2.4:
        label = short
    size = fit_size(label, room - 2.4, 6.5, True)
    tw = text_width(label, size, True)
    vertical = w < h
    length = h if vertical else w
    n = max(1, int(length // 40))
    for k in range(n):
        f = (k + 0.5) / n
        tx, ty = (x + w / 2, y + h * f) if vertical else (x + w * f, y + h / 2 + 1)
        box = (tx - tw / 2 - 0.6, ty - 2.4, tx + tw / 2 + 0.6, ty + 0.8)
        for d in sorted(range(-20, 21), key=abs):  # slide along the strip off a mark
            bx = (box[0] + (0 if vertical else d), box[1] + (d if vertical else 0),
                  box[2] + (0 if vertical else d), box[3] + (d if vertical else 0))
            inside = x <= bx[0] and bx[2] <= x + w and y <= bx[1] and bx[3] <= y + h
            if inside and not any(bx[0] < a[2] and a[0] < bx[2] and bx[1] < a[3] and a[1] < bx[3] for a in avoid):
                break
        else:
            continue
        items.append(Rect(bx[0], bx[1], bx[2] - bx[0], bx[3] - bx[1], Style(stroke=None, fill="#ffffff")))
        items.append(Text((bx[0] + bx[2]) / 2, bx[3] - 0.8, label, size=size, bold=True, anchor="middle",
                          color="#555555"))
    return items


def tile_origin(p: Plan) -> tuple[float, float]:
    """Where a tile's drawing starts on its page."""
    return SAFE_MARGIN + GAP, SAFE_MARGIN + HEADER + GAP


def _and(lang: str, numbers: list[int]) -> str:
    return marks.words(lang, "and").join(str(n) for n in numbers)


def sheet_sentence(p: Plan, t: Tile, lang: str) -> str:
    """What to do with this sheet, in plain words: "Sheet 2 of 3: glue to sheet 1 along the
    shaded strip"."""
    n, total = t.number, len(p.tiles)
    under = sorted(([p.tile(t.row, t.col - 1).number] if t.col > 0 else [])
                   + ([p.tile(t.row - 1, t.col).number] if t.row > 0 else []))
    if not under:
        over = [u.number for u in p.tiles if (u.row, u.col) in ((t.row, t.col + 1), (t.row + 1, t.col))]
        if not over:
            return marks.words(lang, "sheet_only", n=n, total=total)
        key = "sheet_first_one" if len(over) == 1 else "sheet_first"
        return marks.words(lang, key, n=n, total=total, others=_and(lang, over))
    if len(under) == 1:
        return marks.words(lang, "sheet_glue", n=n, total=total, to=under[0])
    return marks.words(lang, "sheet_glue_two", n=n, total=total, to=_and(lang, under))


def tile_page(form_name: str, p: Plan, t: Tile, text: TileText, art: str | None = None) -> Page:
    """One tile: its piece of the drawing, the strips its neighbours are glued over
    (showing form `art` if given, else the drawing), the cut lines, the marks, its sheet
    number and what to do with it, and the scale check."""
    ox, oy = tile_origin(p)
    ov = p.overlap
    ovr = ov if t.col < p.cols - 1 else 0.0  # the strip on the right, under the next sheet
    ovb = ov if t.row < p.rows - 1 else 0.0
    x1, y1 = ox + t.w, oy + t.h
    dx, dy = ox - t.x, oy - t.y  # form -> page
    strip_form = art or form_name
    items: list[Item] = [Use(form_name, dx, dy, (ox, oy, t.w - ovr, t.h - ovb))]
    if ovr:
        items.append(Use(strip_form, dx, dy, (x1 - ovr, oy, ovr, t.h)))
    if ovb:
        items.append(Use(strip_form, dx, dy, (ox, y1 - ovb, t.w - ovr, ovb)))
    pts = [(mx + dx, my + dy) for mx, my in registration_marks(p, t)]
    avoid = tuple(mark_box(x, y) for x, y in pts)
    glue = marks.words(text.lang, "glue"), marks.words(text.lang, "glue_short")
    if ovr:  # the right neighbour is glued over this strip
        items += glue_strip(x1 - ovr, oy, ovr, t.h - ovb, *glue, avoid=avoid)
    if ovb:
        items += glue_strip(ox, y1 - ovb, t.w - ovr, ovb, *glue, avoid=avoid)
    if ovr and ovb:
        items += glue_strip(x1 - ovr, y1 - ovb, ovr, ovb, None)
    for mx, my in pts:
        items += mark(mx, my)
    if t.col > 0:  # cut here, lay over the left neighbour
        items.append(Line(ox, oy, ox, y1, CUT))
    if t.row > 0:
        items.append(Line(ox, oy, x1, oy, CUT))
    tick = GAP - 0.8
    if ovr:  # the strip the right neighbour covers: ticks above and below it
        for yy, d in ((oy, -tick), (y1, tick)):
            items.append(Line(x1 - ovr, yy, x1 - ovr, yy + d, MARK))
            items.append(Line(x1, yy, x1, yy + d, MARK))
    if ovb:
        for xx, d in ((ox, -tick), (x1, tick)):
            items.append(Line(xx, y1 - ovb, xx + d, y1 - ovb, MARK))
            items.append(Line(xx, y1, xx + d, y1, MARK))
    head = f"{text.tile} {t.number}  ({text.row} {t.row + 1}, {text.column} {t.col + 1})"
    items.append(Text(ox, SAFE_MARGIN + 5.5, head, size=11, bold=True))
    right = p.page_w - SAFE_MARGIN - GAP
    tail = sheet_sentence(p, t, text.lang)
    from sheetkit.paper.measure import fit_size

    room = right - ox - text_width(head, 11, True) - 6
    items.append(Text(right, SAFE_MARGIN + 5.5, tail, size=fit_size(tail, room, 8.5, True, min_pt=6), bold=True,
                      anchor="end"))
    items.append(Text(right, y1 + GAP + 3.2, text.title, size=7, anchor="end", color="#555555"))
    items += marks.scale_check(ox, y1 + GAP + 0.5, text.lang, width=70)
    return Page(p.page_w, p.page_h, items)


def transform(items: list[Item], k: float, dx: float, dy: float, min_text: float = 6.0) -> list[Item]:
    """`items` scaled by `k` about the origin, then moved by (dx, dy): a reduced copy.
    Text smaller than `min_text` points after scaling is left out (too small to read on
    paper); nested forms are skipped."""
    out: list[Item] = []

    def st(s: Style) -> Style:
        return replace(s, width=max(0.09, s.width * k), dash=tuple(d * k for d in s.dash) if s.dash else None)

    for it in items:
        if isinstance(it, Line):
            out.append(Line(it.x1 * k + dx, it.y1 * k + dy, it.x2 * k + dx, it.y2 * k + dy, st(it.style)))
        elif isinstance(it, Path):
            out.append(Path(tuple((x * k + dx, y * k + dy) for x, y in it.points), it.closed, st(it.style)))
        elif isinstance(it, Rect):
            out.append(Rect(it.x * k + dx, it.y * k + dy, it.w * k, it.h * k, st(it.style), it.radius * k))
        elif isinstance(it, Circle):
            out.append(Circle(it.x * k + dx, it.y * k + dy, it.r * k, st(it.style)))
        elif isinstance(it, Text):
            if it.size * k >= min_text:
                out.append(replace(it, x=it.x * k + dx, y=it.y * k + dy, size=it.size * k))
        elif isinstance(it, QR):
            out.append(QR(it.x * k + dx, it.y * k + dy, it.size * k, it.data))
    return out


def assembly_page(form: Form, p: Plan, text: TileText, overview: list[Item] | None = None,
                  paper: str | None = None) -> Page:
    """The first page, turned to suit the drawing (landscape for a wide one): title,
    instructions, the whole drawing reduced as large as the page allows with each sheet's
    piece outlined and numbered, and the free stamp square in the bottom-right corner of
    the safe area. `overview`: the items to reduce instead of the form's (in the form's
    coordinates), for a drawing whose fine print has no place when reduced."""
    m = SAFE_MARGIN
    if paper is None:
        W, H = p.page_w, p.page_h
    else:
        pw, ph = paper_size(paper)
        W, H = (max(pw, ph), min(pw, ph)) if form.width > form.height else (min(pw, ph), max(pw, ph))
    items: list[Item] = [Text(m, m + 6, text.title, size=15, bold=True),
                         Text(m, m + 13, text.assembly, size=11, bold=True)]
    y = m + 19
    for line in wrap(text.note, W - 2 * m - STAMP - 4, 9):
        items.append(Text(m, y, line, size=9))
        y += 4.6
    y += 1
    stamp = (W - m - STAMP, m, STAMP)  # top right, beside the words
    y = max(y, m + STAMP + 3)
    foot = 6.0
    aw, ah = W - 2 * m, H - m - foot - y
    k = min(aw / form.width, ah / form.height)
    dx = m + (aw - form.width * k) / 2
    dy = y
    items += transform(form.items if overview is None else overview, k, dx, dy)
    for t in p.tiles:
        x0, y0, x1, y1 = p.piece(t)
        items.append(Rect(dx + x0 * k, dy + y0 * k, (x1 - x0) * k, (y1 - y0) * k, GRID))
    for t in p.tiles:
        x0, y0, x1, y1 = p.piece(t)
        cx, cy = dx + (x0 + x1) / 2 * k, dy + (y0 + y1) / 2 * k
        items.append(Rect(cx - 7, cy - 6, 14, 9, Style(stroke=GRID.stroke, fill="#ffffff", width=0.35), radius=1.5))
        items.append(Text(cx, cy + 1.0, t.label, size=14, bold=True, anchor="middle", color=GRID.stroke))
    n = len(p.tiles)
    items.append(Text(m, H - m - 1, marks.words(text.lang, "assembly_page", n=n), size=8))
    return Page(W, H, items, stamp=stamp)


def tile_pages(form_name: str, form: Form, paper: str, text: TileText, overlap: float = OVERLAP,
               overview: list[Item] | None = None, step: tuple[float, float] | None = None,
               keep: tuple[Box, ...] = (), art: str | None = None) -> list[Page]:
    """The assembly page (drawing `overview`, else the form, reduced), then one page per
    tile, rows first. `step`, `keep`: see `plan`; `art`: the form the glue strips show."""
    p = plan(form.width, form.height, paper, overlap, step, keep)
    return [assembly_page(form, p, text, overview, paper)] + [tile_page(form_name, p, t, text, art) for t in p.tiles]


def seam_problems(p: Plan, step: tuple[float, float] | None, keep: tuple[Box, ...]) -> list[tuple[str, float, Box | None]]:
    """What a tiled print gets wrong: ("square", at, None) for a cut off the grid,
    ("label", at, box) for a cut or a strip's far edge through a `keep` box, ("mark", at,
    box) for a registration mark not whole on the sheet on top, or over a `keep` box."""
    out: list[tuple[str, float, Box | None]] = []
    xs, ys = p.cuts()
    for axis, cuts in ((0, xs), (1, ys)):
        for at in cuts:
            if step is not None and abs(at / step[axis] - round(at / step[axis])) > 1e-6:
                out.append(("square", at, None))
            for b in keep:
                if b[axis] < at < b[axis + 2]:
                    out.append(("label", at, b))
    for t in p.tiles:
        for mx, my in registration_marks(p, t):
            mb = mark_box(mx, my)
            pieces = [p.piece(u) for u in p.tiles]
            if not any(x0 < mb[0] and mb[2] < x1 and y0 < mb[1] and mb[3] < y1 for x0, y0, x1, y1 in pieces):
                out.append(("mark", mx, mb))  # across a cut: part of it trimmed off
            for b in keep:
                if mb[0] < b[2] and b[0] < mb[2] and mb[1] < b[3] and b[1] < mb[3]:
                    out.append(("mark", mx, b))
    return out
