"""Printing a drawing bigger than the paper: tiles across pages, game-independent.

The drawing is one `scene.Form`; every tile page places it with `scene.Use(..., clip=...)`,
so the PDF carries the drawing once however many tiles show it. Neighbouring tiles share
an overlap strip: the same part of the drawing is printed on both. The sheet underneath
shows its strip shaded and labelled as the glue area; the sheet on top is trimmed along its
cut line (top and left edges) and laid over it. Registration marks sit on that cut line:
trimming leaves half of each mark on the top sheet's edge, and the sheet below, whose copy
of the mark is not covered on that side, completes it, so the marks still line up once the
sheets are glued. Every tile carries a 50 mm scale check below its drawing. A first page shows how the tiles assemble: a reduced drawing
of the whole with the tile grid, and keeps a square free for a serial number and QR code.

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
MARK = Style(stroke=BLACK, width=0.2)
CUT = Style(stroke=BLACK, width=0.2, dash=(2.0, 1.5))
GRID = Style(stroke="#c0392b", width=0.35)


@dataclass(frozen=True, slots=True)
class Tile:
    row: int
    col: int
    x: float  # the part of the drawing this tile shows, in the form's coordinates
    y: float
    w: float
    h: float

    @property
    def label(self) -> str:
        return f"{self.row + 1}-{self.col + 1}"


@dataclass(frozen=True, slots=True)
class Plan:
    page_w: float
    page_h: float
    rows: int
    cols: int
    tiles: tuple[Tile, ...]
    overlap: float

    def tile(self, row: int, col: int) -> Tile:
        return self.tiles[row * self.cols + col]


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
    lang: str = "en"  # for the scale check and the glue label


def _split(length: float, avail: float, overlap: float) -> tuple[int, float]:
    """How many tiles cover `length` with tiles at most `avail` long, and their length."""
    if length <= avail:
        return 1, length
    n = math.ceil((length - overlap) / (avail - overlap))
    return n, (length + (n - 1) * overlap) / n


def plan(width: float, height: float, paper: str, overlap: float = OVERLAP) -> Plan:
    """Tiles for a `width` x `height` mm drawing: the paper orientation needing fewer pages
    (portrait on a tie), tiles of equal size overlapping by exactly `overlap`."""
    best = None
    pw, ph = paper_size(paper)
    for w, h in ((pw, ph), (ph, pw)):
        aw = w - 2 * SAFE_MARGIN - 2 * GAP
        ah = h - 2 * SAFE_MARGIN - HEADER - FOOTER - 2 * GAP
        cols, tw = _split(width, aw, overlap)
        rows, th = _split(height, ah, overlap)
        if best is None or rows * cols < best[0]:
            best = (rows * cols, w, h, rows, cols, tw, th)
    _, w, h, rows, cols, tw, th = best
    tiles = tuple(Tile(r, c, c * (tw - overlap), r * (th - overlap), tw, th)
                  for r in range(rows) for c in range(cols))
    return Plan(w, h, rows, cols, tiles, overlap)


def registration_marks(p: Plan, t: Tile) -> list[tuple[float, float]]:
    """Centres (form coordinates) of the marks in the strips `t` shares with its neighbours;
    a neighbour computes the same points for the same strip."""
    ov = p.overlap
    pts = []

    def along(lo: float, hi: float) -> list[float]:
        return [lo + (hi - lo) * f for f in (0.2, 0.8)]

    for r, c in ((t.row, t.col), (t.row, t.col + 1)):  # vertical seams: left and right
        if 0 < c < p.cols and 0 <= r < p.rows:
            right = p.tile(r, c)  # the tile right of the seam
            x = right.x  # on the cut line of the tile on top
            lo = right.y + (ov if r > 0 else 0)
            hi = right.y + right.h - (ov if r < p.rows - 1 else 0)
            pts += [(x, y) for y in along(lo, hi)]
    for r, c in ((t.row, t.col), (t.row + 1, t.col)):  # horizontal seams: top and bottom
        if 0 < r < p.rows and 0 <= c < p.cols:
            below = p.tile(r, c)
            y = below.y
            lo = below.x + (ov if c > 0 else 0)
            hi = below.x + below.w - (ov if c < p.cols - 1 else 0)
            pts += [(x, y) for x in along(lo, hi)]
    return pts


def mark(x: float, y: float, r: float = 1.8) -> list[Item]:
    """A circle and cross; 2.8 mm from its centre to the arms' ends, so a mark on a tile's
    cut line stays inside the page's safe area."""
    return [Circle(x, y, r, MARK), Line(x - r - 1.0, y, x + r + 1.0, y, MARK),
            Line(x, y - r - 1.0, x, y + r + 1.0, MARK)]


GLUE = Style(stroke="#9a9a9a", width=0.12)


def glue_strip(x: float, y: float, w: float, h: float, label: str, short: str) -> list[Item]:
    """The part of the sheet underneath that its neighbour covers: hatched grey, with its
    label every 40 mm (`short` where the strip is too narrow); covered once glued."""
    from sheetkit.paper.measure import fit_size

    items: list[Item] = list(hatch(x, y, w, h, 2.0, 45.0, GLUE))
    if text_width(label, 6, True) > min(w, 60) - 1.5:
        label = short
    size = fit_size(label, min(w, 60) - 1.5, 6.5, True)
    vertical = w < h
    n = max(1, int((h if vertical else w) // 40))
    for k in range(n):
        f = (k + 0.5) / n
        tx, ty = (x + w / 2, y + h * f) if vertical else (x + w * f, y + h / 2 + 1)
        tw = text_width(label, size, True)
        items.append(Rect(tx - tw / 2 - 0.6, ty - 2.4, tw + 1.2, 3.2, Style(stroke=None, fill="#ffffff")))
        items.append(Text(tx, ty, label, size=size, bold=True, anchor="middle", color="#555555"))
    return items


def tile_origin(p: Plan) -> tuple[float, float]:
    """Where a tile's drawing starts on its page."""
    return SAFE_MARGIN + GAP, SAFE_MARGIN + HEADER + GAP


def tile_page(form_name: str, p: Plan, t: Tile, text: TileText) -> Page:
    ox, oy = tile_origin(p)
    clip = (ox, oy, t.w, t.h)
    items: list[Item] = [Use(form_name, ox - t.x, oy - t.y, clip)]
    x1, y1 = ox + t.w, oy + t.h
    ov = p.overlap
    glue = marks.words(text.lang, "glue"), marks.words(text.lang, "glue_short")
    if t.col < p.cols - 1:  # the right neighbour is glued over this strip
        items += glue_strip(x1 - ov, oy, ov, t.h - (ov if t.row < p.rows - 1 else 0), *glue)
    if t.row < p.rows - 1:
        items += glue_strip(ox, y1 - ov, t.w, ov, *glue)
    for mx, my in registration_marks(p, t):
        items += mark(ox + mx - t.x, oy + my - t.y)
    if t.col > 0:  # cut here, lay over the left neighbour
        items.append(Line(ox, oy, ox, y1, CUT))
    if t.row > 0:
        items.append(Line(ox, oy, x1, oy, CUT))
    tick = GAP - 0.8
    if t.col < p.cols - 1:  # the strip the right neighbour covers: ticks above and below it
        for yy, dy in ((oy, -tick), (y1, tick)):
            items.append(Line(x1 - ov, yy, x1 - ov, yy + dy, MARK))
            items.append(Line(x1, yy, x1, yy + dy, MARK))
    if t.row < p.rows - 1:
        for xx, dx in ((ox, -tick), (x1, tick)):
            items.append(Line(xx, y1 - ov, xx + dx, y1 - ov, MARK))
            items.append(Line(xx, y1, xx + dx, y1, MARK))
    n = t.row * p.cols + t.col + 2  # page number: the assembly page comes first
    head = f"{text.tile} {t.label}  ({text.row} {t.row + 1}, {text.column} {t.col + 1})"
    items.append(Text(ox, SAFE_MARGIN + 5.5, head, size=11, bold=True))
    neighbours = []
    if t.col < p.cols - 1:
        neighbours.append(f"→ {p.tile(t.row, t.col + 1).label}")
    if t.row < p.rows - 1:
        neighbours.append(f"↓ {p.tile(t.row + 1, t.col).label}")
    tail = f"{text.title} · {n}/{len(p.tiles) + 1}"
    if neighbours:
        tail = f"{text.overlap}: {'  '.join(neighbours)}   ·   " + tail
    items.append(Text(p.page_w - SAFE_MARGIN - GAP, SAFE_MARGIN + 5.5, tail, size=7, anchor="end"))
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


def assembly_page(form: Form, p: Plan, text: TileText, overview: list[Item] | None = None) -> Page:
    """The first page: title, instructions, the whole drawing reduced with the tile grid on
    it, and the free stamp square in the bottom-right corner of the safe area.
    `overview`: the items to reduce instead of the form's (in the form's coordinates), for
    a drawing whose fine print (and the white boxes behind it) has no place when reduced."""
    m = SAFE_MARGIN
    W, H = p.page_w, p.page_h
    items: list[Item] = [Text(m, m + 6, text.title, size=15, bold=True),
                         Text(m, m + 13, text.assembly, size=11, bold=True)]
    y = m + 19
    for line in wrap(text.note, W - 2 * m, 9):
        items.append(Text(m, y, line, size=9))
        y += 4.6
    y += 3
    stamp = (W - m - STAMP, H - m - STAMP, STAMP)
    aw, ah = W - 2 * m - 2, H - m - STAMP - 4 - y
    k = min(aw / form.width, ah / form.height)
    dx = m + 1 + (aw - form.width * k) / 2
    dy = y
    items += transform(form.items if overview is None else overview, k, dx, dy)
    for t in p.tiles:
        items.append(Rect(dx + t.x * k, dy + t.y * k, t.w * k, t.h * k, GRID))
    for t in p.tiles:
        cx = dx + (t.x + t.w / 2) * k
        cy = dy + (t.y + t.h / 2) * k
        items.append(Rect(cx - 9, cy - 5.5, 18, 8, Style(stroke=GRID.stroke, fill="#ffffff", width=0.35), radius=1.5))
        items.append(Text(cx, cy + 0.6, t.label, size=12, bold=True, anchor="middle", color=GRID.stroke))
    n = len(p.tiles)
    items.append(Text(m, H - m - 2, f"{n} + 1 {text.tile.lower()}s · 1/{n + 1}", size=8))
    return Page(W, H, items, stamp=stamp)


def tile_pages(form_name: str, form: Form, paper: str, text: TileText, overlap: float = OVERLAP,
               overview: list[Item] | None = None) -> list[Page]:
    """The assembly page (drawing `overview`, else the form, reduced), then one page per
    tile, rows first."""
    p = plan(form.width, form.height, paper, overlap)
    return [assembly_page(form, p, text, overview)] + [tile_page(form_name, p, t, text) for t in p.tiles]
