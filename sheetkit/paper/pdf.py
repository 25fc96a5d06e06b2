"""Scene -> PDF with ReportLab: vector, fonts embedded, byte-identical for the same input.

Forms become PDF Form XObjects, written once and placed on every page that uses them.
"""

from __future__ import annotations

from pathlib import Path

from reportlab import rl_config
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from sheetkit.paper import scene as S
from sheetkit.paper.atomic import replacing
from sheetkit.paper import qr
from sheetkit.resources import font_path

FONT, FONT_BOLD = "SheetSans", "SheetSans-Bold"
# Compressed streams stay binary, not ASCII85 text: files a fifth smaller, written faster.
rl_config.useA85 = 0


def _register_fonts() -> None:
    if FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(FONT, str(font_path(False))))
        pdfmetrics.registerFont(TTFont(FONT_BOLD, str(font_path(True))))


def _color(hexstr: str):
    h = hexstr.lstrip("#")
    return tuple(int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))


class _Painter:
    """Draws items on a ReportLab canvas in a frame `height` mm tall (y flipped)."""

    def __init__(self, c: Canvas, height: float):
        self.c = c
        self.h = height

    def X(self, x: float) -> float:
        return x * mm

    def Y(self, y: float) -> float:
        return (self.h - y) * mm

    def style(self, st: S.Style) -> tuple[int, int]:
        c = self.c
        if st.stroke:
            c.setStrokeColorRGB(*_color(st.stroke))
            c.setLineWidth(st.width * mm)
            c.setDash([d * mm for d in st.dash] if st.dash else [])
        if st.fill:
            c.setFillColorRGB(*_color(st.fill))
        return (1 if st.stroke else 0), (1 if st.fill else 0)

    def draw(self, items, forms: dict[str, S.Form]) -> None:
        c = self.c
        for it in items:
            if isinstance(it, S.Line):
                self.style(it.style)
                c.line(self.X(it.x1), self.Y(it.y1), self.X(it.x2), self.Y(it.y2))
            elif isinstance(it, S.Path):
                stroke, fill = self.style(it.style)
                p = c.beginPath()
                (x0, y0), *rest = it.points
                p.moveTo(self.X(x0), self.Y(y0))
                for x, y in rest:
                    p.lineTo(self.X(x), self.Y(y))
                if it.closed:
                    p.close()
                c.drawPath(p, stroke=stroke, fill=fill if it.closed else 0)
            elif isinstance(it, S.Rect):
                stroke, fill = self.style(it.style)
                args = (self.X(it.x), self.Y(it.y + it.h), it.w * mm, it.h * mm)
                if it.radius:
                    c.roundRect(*args, it.radius * mm, stroke=stroke, fill=fill)
                else:
                    c.rect(*args, stroke=stroke, fill=fill)
            elif isinstance(it, S.Circle):
                stroke, fill = self.style(it.style)
                c.circle(self.X(it.x), self.Y(it.y), it.r * mm, stroke=stroke, fill=fill)
            elif isinstance(it, S.Text):
                c.setFillColorRGB(*_color(it.color))
                c.setFont(FONT_BOLD if it.bold else FONT, it.size)
                x, y = self.X(it.x), self.Y(it.y)
                if it.anchor == "middle":
                    c.drawCentredString(x, y, it.text)
                elif it.anchor == "end":
                    c.drawRightString(x, y, it.text)
                else:
                    c.drawString(x, y, it.text)
            elif isinstance(it, S.QR):
                n, rects = qr.rects(it.data)
                m = it.size / n * mm
                q = qr.QUIET_ZONE * m
                c.saveState()
                c.setFillColorRGB(0, 0, 0)
                # In a frame of one unit per module, y down from the code's top-left corner
                # (inside the quiet zone), the whole code is one path of whole-number
                # rectangles: small and fast.
                c.transform(m, 0, 0, -m, self.X(it.x) + q, self.Y(it.y) - q)
                k = qr.QUIET_ZONE
                c.addLiteral("\n".join(f"{x - k} {y - k} {w} {h} re" for x, y, w, h in rects) + "\nf")
                c.restoreState()
            elif isinstance(it, S.Use):
                form = forms[it.name]
                c.saveState()
                if it.clip:
                    cx, cy, cw, ch = it.clip
                    p = c.beginPath()
                    p.rect(self.X(cx), self.Y(cy + ch), cw * mm, ch * mm)
                    c.clipPath(p, stroke=0, fill=0)
                c.translate(self.X(it.x), self.Y(it.y + form.height))
                c.doForm(_form_name(it.name))
                c.restoreState()
            else:  # pragma: no cover - a new primitive without a backend case
                raise TypeError(f"cannot draw {type(it).__name__}")


def _form_name(name: str) -> str:
    return "F_" + "".join(ch if ch.isalnum() else "_" for ch in name)


def _box(page: S.Page, box, matrix) -> list[float]:
    """A page box (x, y, w, h mm from the top-left) as PDF [x0 y0 x1 y1] points, moved
    with the page's printer correction so that it stays around what it frames."""
    x, y, w, h = box
    pts = [(x * mm, (page.height - y - h) * mm), ((x + w) * mm, (page.height - y) * mm)]
    if matrix:
        a, _, _, d, e, f = matrix
        pts = [(a * px + e, d * py + f) for px, py in pts]
    (x0, y0), (x1, y1) = pts
    return [round(v, 3) for v in (x0, y0, x1, y1)]


def write(scene: S.Scene, out: str | Path, *, progress=None, printer=None) -> Path:
    """Write the scene as a PDF to `out`, atomically: a temporary file renamed at the end.

    Viewers are asked to print at actual size (PrintScaling None) and, for a two-sided
    scene, on both sides flipping on the long edge. `printer`: a
    sheetkit.paper.printers.Profile whose corrections are applied to every page."""
    from sheetkit.paper.printers import page_matrix

    _register_fonts()
    out = Path(out)
    with replacing(out) as tmp:
        first = scene.pages[0]
        # the bundled font as the canvas's initial font too: otherwise every page names
        # Helvetica (never drawn with, never embedded), which PDF checkers flag
        c = Canvas(tmp, pagesize=(first.width * mm, first.height * mm), invariant=1, pageCompression=1,
                   initialFontName=FONT, initialFontSize=9, initialLeading=10.8)
        c.setTitle(scene.title or out.stem)
        c.setCreator("sheetkit")
        c.setAuthor("sheetkit")
        c.setViewerPreference("PrintScaling", "/None")
        if scene.duplex:
            c.setViewerPreference("Duplex", "/DuplexFlipLongEdge")
        for name in _forms_in_use_order(scene):
            form = scene.forms[name]
            c.beginForm(_form_name(name), lowerx=0, lowery=0, upperx=form.width * mm, uppery=form.height * mm)
            _Painter(c, form.height).draw(form.items, scene.forms)
            c.endForm()
        for i, page in enumerate(scene.pages):
            c.setPageSize((page.width * mm, page.height * mm))
            matrix = page_matrix(printer, page.width, page.height, page.back)
            c.setTrimBox(_box(page, page.trim, matrix) if page.trim else None)
            c.setBleedBox(_box(page, page.bleed, matrix) if page.bleed else None)
            if matrix:
                c.saveState()
                c.transform(*matrix)
            _Painter(c, page.height).draw(page.items, scene.forms)
            if matrix:
                c.restoreState()
            c.showPage()
            if progress:
                progress(i + 1)
        c.save()
    return out


def _forms_in_use_order(scene: S.Scene) -> list[str]:
    """Forms that use other forms must be defined after them."""
    order: list[str] = []

    def visit(name: str, stack: tuple[str, ...] = ()) -> None:
        if name in order or name in stack:
            return
        for it in scene.forms[name].items:
            if isinstance(it, S.Use):
                visit(it.name, stack + (name,))
        order.append(name)

    for name in sorted(scene.forms):
        visit(name)
    return order
