"""Scene -> PNG with Pillow: a preview drawn from the same scene as the PDF."""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from sheetkit.paper import scene as S
from sheetkit.paper.atomic import replacing
from sheetkit.paper import qr
from sheetkit.resources import font_path


@lru_cache(maxsize=64)
def _font(px: int, bold: bool):
    return ImageFont.truetype(str(font_path(bold)), px)


class _Painter:
    def __init__(self, img: Image.Image, dpi: float, ox: float = 0.0, oy: float = 0.0):
        self.img = img
        self.d = ImageDraw.Draw(img)
        self.k = dpi / 25.4  # pixels per mm
        self.dpi = dpi
        self.ox, self.oy = ox, oy  # mm offset of this image's top-left in scene coordinates

    def P(self, x: float, y: float) -> tuple[float, float]:
        return ((x - self.ox) * self.k, (y - self.oy) * self.k)

    def w(self, st: S.Style) -> int:
        return max(1, round(st.width * self.k))

    @staticmethod
    def _dash_runs(length: float, dash: tuple[float, ...], phase: float = 0.0):
        """The inked stretches (from, to) of a dashed stroke `length` mm long, the pattern
        (on, off, on, off, ...) as in PDF, starting `phase` mm into it."""
        pattern = list(dash) * (2 if len(dash) % 2 else 1)  # an odd pattern repeats, as in PDF
        period = sum(pattern)
        if period <= 0:
            return [(0.0, length)]
        runs = []
        t = -(phase % period)
        while t < length:
            for i, d in enumerate(pattern):
                if i % 2 == 0 and t + d > 0 and t < length:
                    runs.append((max(t, 0.0), min(t + d, length)))
                t += d
        return runs

    def _dashed(self, a, b, st: S.Style, phase: float = 0.0) -> None:
        (x1, y1), (x2, y2) = a, b
        length = math.hypot(x2 - x1, y2 - y1)
        if length == 0:
            return
        for t, t2 in self._dash_runs(length, st.dash, phase):
            p = (x1 + (x2 - x1) * t / length, y1 + (y2 - y1) * t / length)
            q = (x1 + (x2 - x1) * t2 / length, y1 + (y2 - y1) * t2 / length)
            self.d.line([self.P(*p), self.P(*q)], fill=st.stroke, width=self.w(st))

    def _dashed_outline(self, points, st: S.Style) -> None:
        """A dashed polyline, the pattern running on from one segment to the next."""
        run = 0.0
        for a, b in zip(points, points[1:]):
            self._dashed(a, b, st, run)
            run += math.hypot(b[0] - a[0], b[1] - a[1])

    def _dashed_circle(self, it: S.Circle) -> None:
        st = it.style
        box = [self.P(it.x - it.r, it.y - it.r), self.P(it.x + it.r, it.y + it.r)]
        length = 2 * math.pi * it.r
        if length == 0:
            return
        for t, t2 in self._dash_runs(length, st.dash):
            self.d.arc(box, t / length * 360, t2 / length * 360, fill=st.stroke, width=self.w(st))

    @staticmethod
    def _rounded_outline(x: float, y: float, w: float, h: float, r: float):
        """The outline of a rounded rectangle as a closed polyline (corners as short chords)."""
        r = max(0.0, min(r, w / 2, h / 2))
        pts = []
        for cx, cy, start in ((x + w - r, y + r, -90), (x + w - r, y + h - r, 0),
                              (x + r, y + h - r, 90), (x + r, y + r, 180)):
            for k in range(9):
                a = math.radians(start + k * 90 / 8)
                pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        return pts + pts[:1]

    def segment(self, a, b, st: S.Style) -> None:
        if not st.stroke:
            return
        if st.dash:
            self._dashed(a, b, st)
        else:
            self.d.line([self.P(*a), self.P(*b)], fill=st.stroke, width=self.w(st))

    def draw(self, items, forms: dict[str, S.Form]) -> None:
        d = self.d
        for it in items:
            if isinstance(it, S.Line):
                self.segment((it.x1, it.y1), (it.x2, it.y2), it.style)
            elif isinstance(it, S.Path):
                pts = list(it.points)
                if it.closed and it.style.fill:
                    d.polygon([self.P(*p) for p in pts], fill=it.style.fill)
                if it.closed:
                    pts.append(pts[0])
                if it.style.stroke and not it.style.dash:
                    d.line([self.P(*p) for p in pts], fill=it.style.stroke, width=self.w(it.style), joint="curve")
                elif it.style.stroke:
                    self._dashed_outline(pts, it.style)
            elif isinstance(it, S.Rect):
                box = [self.P(it.x, it.y), self.P(it.x + it.w, it.y + it.h)]
                kw = dict(fill=it.style.fill, outline=it.style.stroke,
                          width=self.w(it.style) if it.style.stroke else 0)
                if it.style.dash:
                    kw["outline"] = None
                if it.radius:
                    d.rounded_rectangle(box, radius=it.radius * self.k, **kw)
                else:
                    d.rectangle(box, **kw)
                if it.style.dash and it.style.stroke:
                    if it.radius:
                        c = self._rounded_outline(it.x, it.y, it.w, it.h, it.radius)
                    else:
                        c = [(it.x, it.y), (it.x + it.w, it.y), (it.x + it.w, it.y + it.h), (it.x, it.y + it.h), (it.x, it.y)]
                    self._dashed_outline(c, it.style)
            elif isinstance(it, S.Circle):
                box = [self.P(it.x - it.r, it.y - it.r), self.P(it.x + it.r, it.y + it.r)]
                dashed = bool(it.style.dash and it.style.stroke)
                if it.style.fill or not dashed:
                    d.ellipse(box, fill=it.style.fill, outline=None if dashed else it.style.stroke,
                              width=self.w(it.style) if it.style.stroke and not dashed else 0)
                if dashed:
                    self._dashed_circle(it)
            elif isinstance(it, S.Text):
                px = max(1, round(it.size / 72 * self.dpi))
                anchor = {"start": "ls", "middle": "ms", "end": "rs"}[it.anchor]
                d.text(self.P(it.x, it.y), it.text, font=_font(px, it.bold), fill=it.color, anchor=anchor)
            elif isinstance(it, S.QR):
                n, dark = qr.runs(it.data)
                m = it.size / n
                for r, col, length in dark:
                    x0, y0 = self.P(it.x + col * m, it.y + r * m)
                    x1, y1 = self.P(it.x + (col + length) * m, it.y + (r + 1) * m)
                    l, t = round(x0), round(y0)  # at least one pixel, however small the module
                    d.rectangle([l, t, max(l, round(x1) - 1), max(t, round(y1) - 1)], fill="#000000")
            elif isinstance(it, S.Use):
                form = forms[it.name]
                if it.clip:
                    cx, cy, cw, ch = it.clip
                else:
                    cx, cy, cw, ch = it.x, it.y, form.width, form.height
                x0, y0 = self.P(cx, cy)
                x1, y1 = self.P(cx + cw, cy + ch)
                box = (round(x0), round(y0), round(x1), round(y1))
                if box[2] <= box[0] or box[3] <= box[1]:
                    continue
                sub = Image.new("RGB", (box[2] - box[0], box[3] - box[1]), "white")
                # the sub-image's top-left, in the form's own coordinates
                sub_ox = self.ox + box[0] / self.k - it.x
                sub_oy = self.oy + box[1] / self.k - it.y
                sub.paste(self.img.crop(box))
                _Painter(sub, self.dpi, sub_ox, sub_oy).draw(form.items, forms)
                self.img.paste(sub, box[:2])
            else:  # pragma: no cover
                raise TypeError(f"cannot draw {type(it).__name__}")


def page_image(scene: S.Scene, page: int = 0, dpi: float = 100, upto: int | None = None) -> Image.Image:
    """The page drawn; `upto`: only its first items, so that the rest can be drawn later on a
    copy (draw_onto), the very pixels the whole page gives."""
    pg = scene.pages[page]
    img = Image.new("RGB", (round(pg.width / 25.4 * dpi), round(pg.height / 25.4 * dpi)), "white")
    _Painter(img, dpi).draw(pg.items[:upto], scene.forms)
    return img


def draw_onto(img: Image.Image, scene: S.Scene, page: int = 0, dpi: float = 100, start: int = 0) -> Image.Image:
    """The page's items from `start` on drawn onto `img` (page_image's of the items before)."""
    _Painter(img, dpi).draw(scene.pages[page].items[start:], scene.forms)
    return img


def write(scene: S.Scene, out: str | Path, page: int = 0, dpi: float = 100) -> Path:
    out = Path(out)
    img = page_image(scene, page, dpi)
    with replacing(out) as tmp:
        img.save(tmp, format="PNG", dpi=(dpi, dpi))
    return out
