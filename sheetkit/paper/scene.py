"""What goes on paper, in millimetres, origin at the top-left corner, y downwards.

A Scene knows nothing of ReportLab or Pillow: the backends in sheetkit.paper (pdf, png) turn it
into a PDF or a PNG. Text sizes are in points (that is how people think of type);
everything else is in millimetres.

Reused drawings are Forms: a page places one with `Use`, optionally clipped. The PDF
backend writes each form once as a Form XObject, so a 200-page pad or a board tiled over
six pages carries its static drawing only once.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

BLACK = "#000000"
WHITE = "#ffffff"

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
# Printers cannot reach the paper's edge; nothing is drawn closer than this.
SAFE_MARGIN = 10.0


@dataclass(frozen=True, slots=True)
class Style:
    stroke: str | None = BLACK
    fill: str | None = None
    width: float = 0.2  # mm; 0.2 mm is 0.57 pt
    dash: tuple[float, ...] | None = None  # mm on, mm off


THIN = Style(width=0.15)
FILLED = Style(stroke=None, fill=BLACK)


@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    style: Style = Style()


@dataclass(frozen=True, slots=True)
class Path:
    """A polyline, or a polygon when closed."""

    points: tuple[tuple[float, float], ...]
    closed: bool = False
    style: Style = Style()


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    style: Style = Style()
    radius: float = 0.0


@dataclass(frozen=True, slots=True)
class Circle:
    x: float
    y: float
    r: float
    style: Style = Style()


@dataclass(frozen=True, slots=True)
class Text:
    """`y` is the baseline; `anchor` is start, middle or end."""

    x: float
    y: float
    text: str
    size: float = 9.0  # pt
    bold: bool = False
    anchor: str = "start"
    color: str = BLACK


@dataclass(frozen=True, slots=True)
class QR:
    """A QR code with its quiet zone inside the `size` x `size` square."""

    x: float
    y: float
    size: float
    data: str


@dataclass(frozen=True, slots=True)
class Use:
    """Place form `name` with its top-left corner at (x, y), clipped to `clip` if given
    (x, y, w, h in page coordinates)."""

    name: str
    x: float = 0.0
    y: float = 0.0
    clip: tuple[float, float, float, float] | None = None


Item = Line | Path | Rect | Circle | Text | QR | Use


@functools.lru_cache(maxsize=1 << 14)
def kept(kind, *values, **named):
    """The item `kind(*values, **named)`, the very same object whenever it is asked for with
    equal values: a drawing made again at every move (a sheet under its turns) then hands
    the SVG writer the items it drew before, which it finds by identity (paper.svg), not by
    their values. Frozen, so shared safely."""
    return kind(*values, **named)


@dataclass(slots=True)
class Form:
    width: float
    height: float
    items: list[Item] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class FieldBox:
    """A box a player fills in, as drawn, with its meaning: not drawn itself (the Rect or
    Circle that is drawn is an Item); a photo reader reads it.

    kind: "digits" (a number, one or more digits), "tick" (a circle or box to mark), "name"
    (a player's name: kept as a picture). table: which table on the page (a page may hold
    several games); row: the row's key in the layout ("chips.5", "room.A", "total"); part: the
    box's role in its row ("count", "factor", "result", "pips", "place", "vp", "value",
    "bonus", "mark", "name"); player: the player column from 0, or None for a box in the
    label column (filled once for the table)."""

    kind: str
    table: int
    row: str
    part: str
    player: int | None
    box: tuple[float, float, float, float]  # x, y, w, h in mm on the page

    @property
    def key(self) -> str:
        """A name for the field, unique on its page: "t0.chips.5.count.p1"."""
        who = "all" if self.player is None else f"p{self.player}"
        return f"t{self.table}.{self.row}.{self.part}.{who}"


@dataclass(slots=True)
class Page:
    width: float
    height: float
    items: list[Item] = field(default_factory=list)
    # The square (x, y, size) kept free for a pad's serial number and QR code; None when
    # this page carries none (e.g. the back of a duplex sheet, a tile other than the first).
    stamp: tuple[float, float, float] | None = None
    # (layout id, version) of what this page shows, when it differs from the layout that
    # was rendered (the pages of a two-sided sheet are each one level's layout).
    source: tuple[str, str] | None = None
    # True for the back of a two-sided sheet: printed on the reverse of the page before it,
    # so a printer profile's back-side offset moves it (sheetkit.paper.printers).
    back: bool = False
    # (x, y, w, h) mm: where the sheet is cut (the PDF's TrimBox), and how far the printed
    # colour runs past that cut (BleedBox); None on pages that are not cut out.
    trim: tuple[float, float, float, float] | None = None
    bleed: tuple[float, float, float, float] | None = None
    # The solid registration squares (x, y, size) drawn on this page, by which a photo of it
    # is laid over the blank (sheetkit read), and the fields a player fills in, each with its
    # meaning (FieldBox): what a photo reader reads, taken from what was drawn.
    marks: tuple[tuple[float, float, float], ...] = ()
    fields: tuple["FieldBox", ...] = ()


@dataclass(slots=True)
class Scene:
    pages: list[Page] = field(default_factory=list)
    forms: dict[str, Form] = field(default_factory=dict)
    title: str = ""
    lang: str = "en"  # the language of its words (a pad's serial is "N.º 0042" in Spanish)

    @property
    def duplex(self) -> bool:
        """Printed on both sides of the paper (flip on the long edge)."""
        return any(p.back for p in self.pages)

    def form_items(self, name: str) -> list[Item]:
        return self.forms[name].items


def paper_size(paper: str) -> tuple[float, float]:
    return PAPERS[paper]


def copied(scene: Scene) -> Scene:
    """A scene to draw over, sharing nothing mutable with `scene`: a composed blank is kept
    and copied for each drawing on it (items are frozen, so their lists are copied alone)."""
    from dataclasses import replace

    forms = {name: replace(f, items=list(f.items)) for name, f in scene.forms.items()}
    return Scene([replace(p, items=list(p.items)) for p in scene.pages], forms, scene.title, scene.lang)


def hatch(x: float, y: float, w: float, h: float, spacing: float, angle: float = 45.0,
          style: Style = THIN) -> list[Line]:
    """Parallel lines filling the rectangle, clipped to it: a tint that survives
    black-and-white printing. `angle` in degrees; 0 is horizontal."""
    return list(_hatch(x, y, w, h, spacing, angle, style))


@functools.lru_cache(maxsize=4096)
def _hatch(x: float, y: float, w: float, h: float, spacing: float, angle: float, style: Style) -> tuple[Line, ...]:
    """hatch's lines, kept: a board's tinted squares are drawn again under every move."""
    a = math.radians(angle)
    dx, dy = math.cos(a), math.sin(a)  # line direction
    nx, ny = -dy, dx  # normal
    corners = [(x, y), (x + w, y), (x, y + h), (x + w, y + h)]
    offsets = [cx * nx + cy * ny for cx, cy in corners]
    lo, hi = min(offsets), max(offsets)
    lines: list[Line] = []
    k = math.ceil(lo / spacing)
    while k * spacing <= hi:
        seg = _clip_line_to_rect(k * spacing, nx, ny, dx, dy, x, y, w, h)
        if seg:
            lines.append(Line(*seg, style=style))
        k += 1
    return tuple(lines)


def _clip_line_to_rect(c, nx, ny, dx, dy, x, y, w, h):
    """The segment of the line {p : p.n = c} inside the rectangle, or None."""
    px, py = c * nx, c * ny  # a point on the line
    t0, t1 = -math.inf, math.inf
    for p, d, lo, hi in ((px, dx, x, x + w), (py, dy, y, y + h)):
        if abs(d) < 1e-12:
            if not lo <= p <= hi:
                return None
            continue
        a, b = (lo - p) / d, (hi - p) / d
        t0, t1 = max(t0, min(a, b)), min(t1, max(a, b))
    if t1 - t0 < 1e-6:
        return None
    return (px + t0 * dx, py + t0 * dy, px + t1 * dx, py + t1 * dy)


def bounds(items: list[Item], forms: dict[str, Form] | None = None) -> tuple[float, float, float, float] | None:
    """(x0, y0, x1, y1) around everything drawn, for fit-the-page checks."""
    xs: list[float] = []
    ys: list[float] = []

    def add(x0, y0, x1, y1, pad=0.0):
        xs.extend((x0 - pad, x1 + pad))
        ys.extend((y0 - pad, y1 + pad))

    for it in items:
        style = getattr(it, "style", None)
        pad = style.width / 2 if style is not None and style.stroke else 0.0  # strokes straddle the edge
        if isinstance(it, Line):
            add(min(it.x1, it.x2), min(it.y1, it.y2), max(it.x1, it.x2), max(it.y1, it.y2), pad)
        elif isinstance(it, Path):
            px = [p[0] for p in it.points]
            py = [p[1] for p in it.points]
            add(min(px), min(py), max(px), max(py), pad)
        elif isinstance(it, Rect):
            add(it.x, it.y, it.x + it.w, it.y + it.h, pad)
        elif isinstance(it, Circle):
            add(it.x - it.r, it.y - it.r, it.x + it.r, it.y + it.r, pad)
        elif isinstance(it, QR):
            add(it.x, it.y, it.x + it.size, it.y + it.size)
        elif isinstance(it, Text):
            from sheetkit.paper.measure import text_width

            tw = text_width(it.text, it.size, it.bold)
            x0 = it.x - {"start": 0, "middle": tw / 2, "end": tw}[it.anchor]
            pt = it.size * 25.4 / 72
            add(x0, it.y - 0.8 * pt, x0 + tw, it.y + 0.25 * pt)
        elif isinstance(it, Use):
            if it.clip:
                cx, cy, cw, ch = it.clip
                add(cx, cy, cx + cw, cy + ch)
            elif forms and it.name in forms:
                b = bounds(forms[it.name].items, forms)
                if b:
                    add(b[0] + it.x, b[1] + it.y, b[2] + it.x, b[3] + it.y)
    if not xs:
        return None
    return min(xs), min(ys), max(xs), max(ys)
