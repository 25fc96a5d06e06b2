"""Pencil on paper, simulated: handwritten digits 1-6, pencil lines and marks in boxes.

The photo tests and benchmarks draw games onto rendered blank sheets with these, and the
digit reader is trained on what they draw. The canvas is a 2-D float array, 1 = white paper,
changed in place. Pencil darkens multiplicatively (graphite over printing stays visible as
darker), with a grey level between 0.35 (pressed hard) and 0.8 (light), a grainy texture and
a width that varies from stroke to stroke.

Digits come from handwriting fonts (Debian packages, see FONTS) or from hand-drawn strokes:
per-digit skeletons in three styles, jittered in shape, slant, size and place in the box.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import cv2
import numpy as np

# style name -> font file name (found under /usr/share/fonts). Debian packages:
# fonts-dkg-handwriting fonts-humor-sans fonts-breip fonts-klee fonts-comic-neue
# (not fonts-femkeklaver: its digits are outlines, no pencil draws those)
FONTS = {
    "dkg": "dkg.ttf",
    "dkg-oblique": "dkgIt.ttf",
    "humor-sans": "Humor-Sans.ttf",
    "breip": "Breip.ttf",
    "klee": "KleeOne-Regular.ttf",
    "comic-neue": "ComicNeue-Regular.otf",
    "comic-neue-italic": "ComicNeue-Italic.otf",
}
FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))

GREY = (0.35, 0.8)  # pencil grey level: pressed hard .. light


# Stroke skeletons: x and y in [0, 1] across the digit's own box (y down). A stroke is a
# smooth curve through its points; a sharp corner is where one stroke ends and the next begins.
def _arc(cx, cy, rx, ry, a0, a1, n=7):
    """Points on an ellipse from angle a0 to a1 (degrees, 0 = right, 90 = down)."""
    return [(cx + rx * math.cos(math.radians(a)), cy + ry * math.sin(math.radians(a)))
            for a in np.linspace(a0, a1, n)]


SKELETONS: dict[str, dict[int, list[list[tuple[float, float]]]]] = {
    # plain print: a bare 1, a round 2, an open 4
    "print": {
        1: [[(0.42, 0.12), (0.58, 0.0)], [(0.58, 0.0), (0.56, 1.0)]],
        2: [[(0.15, 0.25), (0.3, 0.05), (0.55, 0.0), (0.8, 0.12), (0.8, 0.35), (0.55, 0.62), (0.15, 1.0)],
            [(0.15, 1.0), (0.88, 0.98)]],
        3: [[(0.18, 0.12), (0.45, 0.0), (0.75, 0.1), (0.75, 0.32), (0.42, 0.47)],
            [(0.42, 0.47), (0.8, 0.62), (0.82, 0.85), (0.5, 1.0), (0.15, 0.9)]],
        4: [[(0.3, 0.0), (0.12, 0.62)], [(0.12, 0.62), (0.9, 0.6)], [(0.66, 0.28), (0.64, 1.0)]],
        5: [[(0.82, 0.0), (0.28, 0.02)], [(0.28, 0.02), (0.24, 0.45)],
            [(0.24, 0.45), (0.5, 0.38), (0.8, 0.52), (0.82, 0.8), (0.5, 1.0), (0.15, 0.9)]],
        6: [[(0.72, 0.04), (0.45, 0.05), (0.25, 0.35), (0.18, 0.65), (0.3, 0.93), (0.55, 1.0),
             (0.8, 0.85), (0.78, 0.62), (0.52, 0.5), (0.28, 0.58), (0.2, 0.7)]],
    },
    # rounded, quick: a 2 with a loop, a 3 in one go, a 6 curling in
    "round": {
        1: [[(0.3, 0.2), (0.55, 0.0)], [(0.55, 0.0), (0.52, 0.55), (0.5, 1.0)]],
        2: [[(0.15, 0.3), (0.35, 0.02), (0.7, 0.05), (0.75, 0.35), (0.4, 0.75), (0.15, 0.98),
             (0.3, 0.86), (0.55, 0.92), (0.9, 1.0)]],
        3: [[(0.2, 0.1), (0.5, 0.0), (0.75, 0.15), (0.65, 0.38), (0.4, 0.48), (0.7, 0.55),
             (0.85, 0.78), (0.6, 1.0), (0.3, 0.98), (0.15, 0.85)]],
        4: [[(0.35, 0.0), (0.25, 0.35), (0.15, 0.62), (0.55, 0.64), (0.9, 0.6)],
            [(0.7, 0.2), (0.68, 0.6), (0.66, 1.0)]],
        5: [[(0.3, 0.02), (0.26, 0.45), (0.55, 0.4), (0.8, 0.6), (0.7, 0.92), (0.4, 1.0), (0.15, 0.88)],
            [(0.3, 0.02), (0.85, 0.0)]],
        6: [[(0.75, 0.0), (0.4, 0.2), (0.2, 0.6), (0.35, 0.98), (0.7, 0.95), (0.8, 0.7),
             (0.55, 0.52), (0.3, 0.62)]],
    },
    # careful, angular: a 1 with flag and foot, a Z-like 2, a flat-topped 3, a closed 4
    "serif": {
        1: [[(0.25, 0.22), (0.55, 0.0)], [(0.55, 0.0), (0.55, 1.0)], [(0.3, 1.0), (0.8, 1.0)]],
        2: [[(0.15, 0.2), (0.5, 0.0), (0.82, 0.2), (0.75, 0.45)], [(0.75, 0.45), (0.15, 1.0)],
            [(0.15, 1.0), (0.88, 1.0)]],
        3: [[(0.15, 0.0), (0.82, 0.0)], [(0.82, 0.0), (0.42, 0.42)],
            [(0.42, 0.42), (0.75, 0.5), (0.85, 0.75), (0.6, 1.0), (0.15, 0.92)]],
        4: [[(0.62, 0.0), (0.1, 0.68)], [(0.1, 0.68), (0.92, 0.68)], [(0.62, 0.0), (0.62, 1.0)]],
        5: [[(0.8, 0.0), (0.25, 0.0)], [(0.25, 0.0), (0.2, 0.45)], [(0.2, 0.45), (0.65, 0.4), (0.85, 0.7),
            (0.65, 0.97), (0.15, 0.95)]],
        6: [[(0.7, 0.0), (0.3, 0.45)], [(0.3, 0.45), (0.18, 0.75), (0.4, 1.0), (0.75, 0.92), (0.8, 0.65),
            (0.5, 0.5), (0.3, 0.6), (0.22, 0.72)]],
    },
}


@functools.cache
def _font_paths() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for d in FONT_DIRS:
        if d.is_dir():
            for p in d.rglob("*"):
                found.setdefault(p.name, p)
    return {style: found[name] for style, name in FONTS.items() if name in found}


def font_styles() -> list[str]:
    """The font styles whose font is installed on this machine."""
    return sorted(_font_paths())


def styles() -> list[str]:
    """Every style draw_digit can use here: the installed fonts, then the stroke styles."""
    return font_styles() + sorted(SKELETONS)


def _check_canvas(canvas) -> None:
    if not isinstance(canvas, np.ndarray) or canvas.ndim != 2 or canvas.dtype.kind != "f":
        raise ValueError("the canvas must be a 2-D float array (1 = white)")


def _check_box(box) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = (float(v) for v in box)
    if not all(math.isfinite(v) for v in (x0, y0, x1, y1)) or x1 - x0 < 4 or y1 - y0 < 4:
        raise ValueError(f"a box must be finite and at least 4 px wide and high, not {box!r}")
    return x0, y0, x1, y1


class _Patch:
    """A supersampled piece of the canvas to draw pencil coverage into, then lay down."""

    def __init__(self, canvas: np.ndarray, x0: float, y0: float, x1: float, y1: float, scale: int):
        h, w = canvas.shape
        self.canvas = canvas
        self.ix0, self.iy0 = max(0, math.floor(x0)), max(0, math.floor(y0))
        self.ix1, self.iy1 = min(w, math.ceil(x1)), min(h, math.ceil(y1))
        self.scale = scale
        pw, ph = max(0, self.ix1 - self.ix0), max(0, self.iy1 - self.iy0)
        self.cover = np.zeros((ph * scale, pw * scale), np.float32)

    def to_patch(self, pts: np.ndarray) -> np.ndarray:
        """Canvas px -> supersampled patch px."""
        return (pts - (self.ix0, self.iy0)) * self.scale

    def lay(self, rng: np.random.Generator, grey: float) -> None:
        """Darken the canvas under the coverage: grainy graphite of the given grey level."""
        if self.cover.size == 0:
            return
        ph, pw = self.iy1 - self.iy0, self.ix1 - self.ix0
        cov = cv2.resize(self.cover, (pw, ph), interpolation=cv2.INTER_AREA)
        grain = 1.0 - 0.3 * rng.random(cov.shape)
        dark = np.clip(cov, 0, 1) * grain * (1.0 - grey)
        self.canvas[self.iy0:self.iy1, self.ix0:self.ix1] *= 1.0 - dark


def _spline(points: np.ndarray, per_seg: int = 8) -> np.ndarray:
    """A Catmull-Rom curve through the points (ends repeated)."""
    if len(points) < 3:
        return points
    p = np.vstack([points[:1], points, points[-1:]])
    t = np.linspace(0, 1, per_seg, endpoint=False)[:, None]
    out = []
    for i in range(1, len(p) - 2):
        p0, p1, p2, p3 = p[i - 1], p[i], p[i + 1], p[i + 2]
        out.append(0.5 * ((2 * p1) + (-p0 + p2) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t ** 2
                          + (-p0 + 3 * p1 - 3 * p2 + p3) * t ** 3))
    out.append(points[-1:])
    return np.vstack(out)


def _polyline(patch: _Patch, pts: np.ndarray, width: float, rng: np.random.Generator) -> None:
    """Pencil coverage along a polyline (canvas px): the pressure wavers along the way."""
    q = patch.to_patch(pts)
    shift = 4  # cv2 sub-pixel coordinates
    qi = np.round(q * (1 << shift)).astype(np.int64)
    w = max(1, round(width * patch.scale))
    level = 0.85 + 0.15 * rng.random()
    for a, b in zip(qi[:-1], qi[1:]):
        level = float(np.clip(level + rng.normal(0, 0.04), 0.7, 1.0))
        cv2.line(patch.cover, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), level,
                 thickness=w, lineType=cv2.LINE_AA, shift=shift)


def _pencil(rng: np.random.Generator) -> float:
    return float(rng.uniform(*GREY))


def _box_shape(rng, x0, y0, x1, y1):
    """Where the digit goes in the box: height, width, centre and slant, all jittered."""
    bw, bh = x1 - x0, y1 - y0
    h = bh * rng.uniform(0.5, 0.85)
    w = min(bw * 0.85, h * rng.uniform(0.5, 0.8))
    slant = rng.normal(0.12, 0.12)  # x shift per unit of height, to the right going up
    rot = math.radians(rng.normal(0, 5))
    spare_x = max(0.0, bw - w - abs(slant) * h) / 2
    spare_y = max(0.0, bh - h) / 2
    cx = (x0 + x1) / 2 + rng.uniform(-0.8, 0.8) * spare_x
    cy = (y0 + y1) / 2 + rng.uniform(-0.8, 0.8) * spare_y
    return w, h, cx, cy, slant, rot


def _affine(w, h, cx, cy, slant, rot) -> np.ndarray:
    """Unit digit box (x, y in [0, 1], y down) -> canvas px, as a 2x3 matrix."""
    c, s = math.cos(rot), math.sin(rot)
    # scale to w x h around the centre, slant (top to the right), then rotate
    a = np.array([[w, -slant * h, 0.0], [0.0, h, 0.0]])
    a[:, 2] = -a[:, :2] @ (0.5, 0.5)
    r = np.array([[c, -s], [s, c]])
    m = r @ a
    m[:, 2] += (cx, cy)
    return m


def draw_digit(canvas: np.ndarray, box, digit: int, rng: np.random.Generator,
               style: str | None = None) -> str:
    """Pencil the digit (1-6) into box (x0, y0, x1, y1 px) of the canvas, in place.

    style: a font style (font_styles()) or a stroke style ("print", "round", "serif");
    None picks one of styles() at random. Returns the style used.
    """
    _check_canvas(canvas)
    x0, y0, x1, y1 = _check_box(box)
    if not isinstance(digit, (int, np.integer)) or not 1 <= digit <= 6:
        raise ValueError(f"a digit is 1-6, not {digit!r}")
    choices = styles()
    if style is None:
        style = choices[int(rng.integers(len(choices)))]
    elif style not in choices:
        raise ValueError(f"unknown or uninstalled style {style!r}; here: {', '.join(choices)}")
    w, h, cx, cy, slant, rot = _box_shape(rng, x0, y0, x1, y1)
    m = _affine(w, h, cx, cy, slant, rot)
    scale = max(2, math.ceil(96 / max(1.0, y1 - y0)))
    pad = (y1 - y0) * 0.3
    patch = _Patch(canvas, x0 - pad, y0 - pad, x1 + pad, y1 + pad, scale)
    width = (y1 - y0) * rng.uniform(0.035, 0.09)  # a 0.3-0.8 mm pencil line in a 9 mm box
    if style in SKELETONS:
        for stroke in SKELETONS[style][int(digit)]:
            p = np.array(stroke, float) + rng.normal(0, 0.025, (len(stroke), 2))
            p = _spline(p)
            pts = p @ m[:, :2].T + m[:, 2]
            _polyline(patch, pts, width, rng)
    else:
        _glyph(patch, style, int(digit), m, width, rng)
    patch.lay(rng, _pencil(rng))
    return style


@functools.cache
def _glyph_mask(style: str, digit: int) -> np.ndarray:
    """The digit as the font draws it, cropped to its ink, float in [0, 1], ~160 px high."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(str(_font_paths()[style]), 200)
    im = Image.new("L", (300, 300), 0)
    ImageDraw.Draw(im).text((50, 20), str(digit), font=font, fill=255)
    a = np.asarray(im, np.float32) / 255.0
    ys, xs = np.nonzero(a > 0.05)
    return np.ascontiguousarray(a[ys.min():ys.max() + 1, xs.min():xs.max() + 1])


def _glyph(patch: _Patch, style: str, digit: int, m: np.ndarray, width: float,
           rng: np.random.Generator) -> None:
    g = _glyph_mask(style, digit)
    gh, gw = g.shape
    # glyph px -> unit box -> canvas px -> patch px; a thin glyph (a 1) keeps its own width
    aspect = gw / gh
    ux = 1.0 if aspect > 0.45 else aspect / 0.6
    to_unit = np.array([[ux / gw, 0, (1 - ux) / 2], [0, 1 / gh, 0], [0, 0, 1]])
    full = np.vstack([m, (0, 0, 1)]) @ to_unit
    full[:2] *= patch.scale
    full[:2, 2] -= (patch.ix0 * patch.scale, patch.iy0 * patch.scale)
    ph, pw = patch.cover.shape
    if ph == 0 or pw == 0:
        return
    cover = cv2.warpAffine(g, full[:2], (pw, ph), flags=cv2.INTER_LINEAR, borderValue=0)
    # the font's own line width, thickened or thinned toward the pencil's
    px_scale = abs(np.linalg.det(full[:2, :2])) ** 0.5  # patch px per glyph px
    native = _stroke_width(style, digit) * px_scale
    want = width * patch.scale
    k = int(round((want - native) / 2))
    if k > 0:
        cover = cv2.dilate(cover, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1)))
    elif k < 0 and native > 3 * -k:
        cover = cv2.erode(cover, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (-2 * k + 1, -2 * k + 1)))
    patch.cover = np.maximum(patch.cover, cover)


@functools.cache
def _stroke_width(style: str, digit: int) -> float:
    """The font's line width in glyph px: twice the largest distance inside the ink."""
    g = (_glyph_mask(style, digit) > 0.5).astype(np.uint8)
    d = cv2.distanceTransform(np.pad(g, 1), cv2.DIST_L2, 3)
    return 2.0 * float(np.percentile(d[d > 0], 90))


def draw_stroke(canvas: np.ndarray, points, rng: np.random.Generator, width: float | None = None,
                grey: float | None = None) -> None:
    """A pencil line through points [(x, y) px, ...], slightly wobbly, in place.

    width: in px; by default a 0.5 mm line, taking the canvas as a page about 210 mm wide.
    grey: the pencil's grey level; by default random in GREY.
    """
    _check_canvas(canvas)
    pts = np.asarray(points, float)
    if pts.ndim != 2 or pts.shape[1] != 2 or len(pts) < 2 or not np.isfinite(pts).all():
        raise ValueError("a stroke needs at least two finite (x, y) points")
    if width is None:
        width = 0.5 * canvas.shape[1] / 210.0 * rng.uniform(0.7, 1.3)
    width = max(0.8, float(width))
    # a hand does not rule lines: a gentle sideways wobble, densely sampled
    seg = np.linalg.norm(np.diff(pts, axis=0), axis=1)
    dense = [pts[0]]
    for a, b, n in zip(pts[:-1], pts[1:], seg):
        k = max(2, int(n / max(4.0, 3 * width)))
        t = np.linspace(0, 1, k + 1)[1:, None]
        line = a + (b - a) * t
        if n > 0:
            normal = np.array([-(b - a)[1], (b - a)[0]]) / n
            wob = rng.normal(0, 0.12 * width, k) * np.sin(np.pi * t[:, 0])
            line = line + wob[:, None] * normal
        dense.extend(line)
    dense = np.array(dense)
    lo, hi = dense.min(axis=0) - 2 * width - 2, dense.max(axis=0) + 2 * width + 2
    scale = 4 if width < 6 else 2
    patch = _Patch(canvas, lo[0], lo[1], hi[0], hi[1], scale)
    _polyline(patch, dense, width, rng)
    patch.lay(rng, _pencil(rng) if grey is None else float(grey))


BOX_MARKS = ("x", "/", "\\", "fill", "tick", "loop")


def draw_cross(canvas: np.ndarray, box, rng: np.random.Generator, kind: str | None = None,
               erased: bool = False) -> str:
    """Mark a box (x0, y0, x1, y1 px) as players do: a cross "x", one slash "/" or "\\", or
    the box filled in with a scribble ("fill").

    kind None picks a cross or a slash (mostly crosses). erased: the mark rubbed out again, a faint trace
    of it left (darkening the paper by 2-8 %): a box that is not marked. Returns the kind.
    """
    _check_canvas(canvas)
    x0, y0, x1, y1 = _check_box(box)
    if kind is None:
        kind = ("x", "x", "x", "/", "\\")[int(rng.integers(5))]
    if kind not in BOX_MARKS:
        raise ValueError(f"a mark is one of {', '.join(BOX_MARKS)}, not {kind!r}")
    bw, bh = x1 - x0, y1 - y0
    width = min(bw, bh) * rng.uniform(0.05, 0.1)
    grey = 1 - rng.uniform(0.02, 0.08) if erased else _pencil(rng)

    def corner(fx, fy):
        return (x0 + bw * (fx + rng.normal(0, 0.05)), y0 + bh * (fy + rng.normal(0, 0.05)))

    m = rng.uniform(0.1, 0.22)  # how far inside the corners the strokes start
    if kind == "fill":  # a zigzag from top to bottom, its strokes touching
        rows = max(3, int(bh / (1.6 * width)))
        pts = [corner(m if i % 2 else 1 - m, m + (1 - 2 * m) * i / (rows - 1)) for i in range(rows)]
        draw_stroke(canvas, pts, rng, 2 * width, grey)
    if kind == "tick":  # a check mark
        draw_stroke(canvas, [corner(m, 0.55), corner(0.4, 1 - m), corner(1 - m, m)], rng, width, grey)
    if kind == "loop":  # a ring round the box's middle
        a = rng.uniform(0, 2 * np.pi) + np.linspace(0, 2 * np.pi * rng.uniform(0.95, 1.1), 16)
        cx, cy = x0 + bw / 2, y0 + bh / 2
        draw_stroke(canvas, list(zip(cx + bw * (0.5 - m) * np.cos(a), cy + bh * (0.5 - m) * np.sin(a))), rng, width, grey)
    if kind in ("x", "/"):
        draw_stroke(canvas, [corner(m, 1 - m), corner(1 - m, m)], rng, width, grey)
    if kind in ("x", "\\"):
        draw_stroke(canvas, [corner(m, m), corner(1 - m, 1 - m)], rng, width, grey)
    return kind


END_MARKS = ("dot", "circle", "tick")
MORE_END_MARKS = ("small dot", "open circle", "cross", "numbered dot")  # what other hands do too


def draw_end_mark(canvas: np.ndarray, at, heading, rng: np.random.Generator, k: float,
                  kind: str | None = None) -> str:
    """The mark a player makes where a turn's flight ends, at `at` (px), the flight arriving
    along `heading` (dx, dy): a filled pencil dot ("dot", about 1.6-2.4 mm across), a small
    circle round the point ("circle", 2.4-3.6 mm across) or a short tick across the line
    ("tick", 2-3.4 mm long). k: canvas px per mm. kind None picks one. Returns the kind."""
    _check_canvas(canvas)
    if kind is None:
        kind = END_MARKS[int(rng.choice(3, p=(0.5, 0.25, 0.25)))]
    if kind not in END_MARKS + MORE_END_MARKS:
        raise ValueError(f"a turn-end mark is one of {', '.join(END_MARKS + MORE_END_MARKS)}, not {kind!r}")
    x, y = at
    if kind in MORE_END_MARKS:
        _more_end_mark(canvas, x, y, heading, rng, k, kind)
        return kind
    grey = _pencil(rng)
    width = 0.5 * k * rng.uniform(0.7, 1.3)  # the pencil's line, as draw_stroke's
    if kind == "dot":  # pressed round and round: filled
        dot = k * rng.uniform(0.55, 0.9)
        for rr in np.linspace(dot, 0, 4):
            a = np.linspace(0, 2 * np.pi, 9)
            draw_stroke(canvas, list(zip(x + rr * np.cos(a), y + rr * np.sin(a))), rng,
                        k * rng.uniform(0.45, 0.6), grey)
    elif kind == "circle":  # one loop, not quite closed, not quite round
        r = k * rng.uniform(1.2, 1.8)
        a0 = rng.uniform(0, 2 * np.pi)
        a = a0 + np.linspace(0, 2 * np.pi * rng.uniform(0.9, 1.05), 14)
        rx, ry = r * rng.uniform(0.85, 1.15), r * rng.uniform(0.85, 1.15)
        draw_stroke(canvas, list(zip(x + rx * np.cos(a), y + ry * np.sin(a))), rng, width, grey)
    else:  # across the line, about square to it
        dx, dy = heading
        n = math.hypot(dx, dy) or 1.0
        ang = math.atan2(dy / n, dx / n) + math.pi / 2 + rng.normal(0, 0.25)
        half = k * rng.uniform(1.0, 1.7)
        off = rng.normal(0, 0.15) * k
        c, s_ = math.cos(ang), math.sin(ang)
        draw_stroke(canvas, [(x - half * c + off, y - half * s_), (x + half * c + off, y + half * s_)], rng, width, grey)
    return kind


def _more_end_mark(canvas, x, y, heading, rng, k, kind) -> None:
    """A small pressed dot (0.4-1.1 mm: darker than the line), a small circle left well
    open, a small cross, or a dot with the turn's number pencilled beside it."""
    grey = _pencil(rng)
    width = 0.5 * k * rng.uniform(0.7, 1.3)
    if kind in ("small dot", "numbered dot"):
        d = k * rng.uniform(0.4, 1.1)
        g = max(0.2, grey - rng.uniform(0.05, 0.25))  # pressed: darker than the hand's line
        for rr in np.linspace(d / 2, 0, 3):
            a = np.linspace(0, 2 * np.pi, 9)
            draw_stroke(canvas, list(zip(x + rr * np.cos(a) + 0.01, y + rr * np.sin(a))), rng, max(d * 0.7, 1.0), g)
        if kind == "numbered dot":
            side = k * 3.2
            ox, oy = (1 if rng.random() < 0.5 else -1) * k * rng.uniform(1.6, 2.4), -k * rng.uniform(1.6, 2.6)
            box = (x + ox - side / 2, y + oy - side / 2, x + ox + side / 2, y + oy + side / 2)
            draw_digit(canvas, box, int(rng.integers(1, 10)) % 6 + 1, rng)
    elif kind == "open circle":
        r = k * rng.uniform(0.8, 1.6)
        a0 = rng.uniform(0, 2 * np.pi)
        a = a0 + np.linspace(0, 2 * np.pi * rng.uniform(0.7, 0.9), 12)
        draw_stroke(canvas, list(zip(x + r * np.cos(a), y + r * np.sin(a))), rng, width, grey)
    else:  # a small cross over the point
        half = k * rng.uniform(0.7, 1.3)
        t = rng.uniform(0, np.pi / 2)
        for ang in (t + np.pi / 4, t - np.pi / 4):
            c, s_ = math.cos(ang), math.sin(ang)
            draw_stroke(canvas, [(x - half * c, y - half * s_), (x + half * c, y + half * s_)], rng, width, grey)


def ink_crop(rng: np.random.Generator, digit: int | None, size: int | tuple[int, int],
             style: str | None = None) -> np.ndarray:
    """A simulated ink image of one box's inside, as a photo leaves it once registered and
    the blank sheet subtracted: 1 = pencil, float32 of size (h, w) (an int: square).

    digit None gives an empty box. Besides the pencil: blur, an uneven gain, noise, JPEG
    compression, sometimes a thin leftover of the printed box edge (registration off by a
    pixel) or a speck or an eraser smudge.
    """
    h, w = (size, size) if isinstance(size, (int, np.integer)) else size
    h, w = int(h), int(w)
    if h < 8 or w < 8:
        raise ValueError("an ink crop is at least 8x8 px")
    canvas = np.ones((h, w), np.float32)
    if digit is not None:
        draw_digit(canvas, (0.0, 0.0, float(w), float(h)), digit, rng, style)
    ink = 1.0 - canvas
    if rng.random() < 0.35:  # leftovers of the box's printed edge, on one side or two
        for side in rng.permutation(4)[:int(rng.integers(1, 3))]:
            t = max(1, round(min(h, w) * rng.uniform(0.01, 0.04)))
            level = float(rng.uniform(0.1, 0.7))
            at = rng.uniform(0, 0.03, 2) * min(h, w)  # a slight tilt: each end its own offset
            ends = ((0, at[0]), (w, at[1])) if side < 2 else ((at[0], 0), (at[1], h))
            if side in (1, 3):  # the bottom or right edge
                ends = tuple((w - 1 - x, y) if side == 3 else (x, h - 1 - y) for x, y in ends)
            (xa, ya), (xb, yb) = ends
            line = np.zeros_like(ink)
            cv2.line(line, (round(xa * 16), round(ya * 16)), (round(xb * 16), round(yb * 16)), level,
                     thickness=t, lineType=cv2.LINE_AA, shift=4)
            ink = np.maximum(ink, line)
    if rng.random() < 0.2:  # a speck of dust or graphite
        r = max(1, round(min(h, w) * rng.uniform(0.01, 0.03)))
        cx, cy = int(rng.integers(w)), int(rng.integers(h))
        cv2.circle(ink, (cx, cy), r, float(rng.uniform(0.2, 0.6)), -1)
    if rng.random() < 0.15:  # an erased digit's smudge
        blob = np.zeros_like(ink)
        cv2.ellipse(blob, (w // 2, h // 2), (w // 4, h // 3), 0, 0, 360, 1.0, -1)
        ink = np.maximum(ink, cv2.GaussianBlur(blob, (0, 0), min(h, w) / 8) * rng.uniform(0.03, 0.12))
    sigma = rng.uniform(0.0, 0.04 * min(h, w))
    if sigma > 0.3:
        ink = cv2.GaussianBlur(ink, (0, 0), sigma)
    gy, gx = np.mgrid[0:h, 0:w] / max(h, w)
    ink = ink * (rng.uniform(0.7, 1.4) + rng.normal(0, 0.1) * gx + rng.normal(0, 0.1) * gy)
    ink = ink + rng.normal(0, rng.uniform(0.0, 0.04), ink.shape) + rng.normal(0, 0.01)
    if rng.random() < 0.5:
        q = int(rng.integers(40, 95))
        _, buf = cv2.imencode(".jpg", np.clip(255 * (1 - ink), 0, 255).astype(np.uint8),
                              [cv2.IMWRITE_JPEG_QUALITY, q])
        ink = 1.0 - cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE).astype(np.float32) / 255.0
    return np.clip(ink, 0.0, 1.0).astype(np.float32)


def crop_set(rng: np.random.Generator, per_class: int, styles_: list[str],
             sides: tuple[float, float] = (18, 130)) -> tuple[list[np.ndarray], list[int | None]]:
    """per_class simulated ink crops of each of 1-6 and of an empty box, in random order:
    styles drawn in turn from styles_, sides (px) spread evenly on a log scale."""
    labels: list[int | None] = [d for d in (None, 1, 2, 3, 4, 5, 6) for _ in range(per_class)]
    order = rng.permutation(len(labels))
    labels = [labels[i] for i in order]
    inks = []
    for k, digit in enumerate(labels):
        side = math.exp(rng.uniform(math.log(sides[0]), math.log(sides[1])))
        h = max(16, round(side))
        w = max(16, round(side * rng.uniform(0.85, 1.15)))
        inks.append(ink_crop(rng, digit, (h, w), styles_[k % len(styles_)]))
    return inks, labels
