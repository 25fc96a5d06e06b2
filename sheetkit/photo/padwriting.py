"""Pencil numbers 0-9 and more digits, simulated, for the score pads' reader (padread.py).

sheetkit.photo.handwriting draws the Yuncos digits 1-6; a score pad holds any count, so
this draws every digit 0-9 and numbers of several digits side by side in one box, with
the same pencil (handwriting's patches, grain and grey levels). Stroke skeletons for 0, 7,
8 and 9 join handwriting's 1-6 in each of its three stroke styles; the fonts draw every
digit themselves. scripts/train_pad_digits.py trains on some styles (TRAIN_STYLES) and the
bench measures on the others (HELD_OUT): a hand the reader never saw.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from sheetkit.photo import handwriting as hw

MORE = {
    "print": {
        0: [[(0.5, 0.0), (0.18, 0.2), (0.12, 0.55), (0.3, 0.95), (0.65, 0.98), (0.86, 0.6), (0.8, 0.2),
             (0.5, 0.0), (0.42, 0.04)]],
        7: [[(0.12, 0.02), (0.88, 0.0)], [(0.88, 0.0), (0.55, 0.5), (0.4, 1.0)]],
        8: [[(0.55, 0.47), (0.8, 0.3), (0.75, 0.05), (0.5, 0.0), (0.25, 0.08), (0.25, 0.3), (0.5, 0.47),
             (0.8, 0.65), (0.8, 0.92), (0.5, 1.0), (0.2, 0.92), (0.2, 0.65), (0.5, 0.47)]],
        9: [[(0.82, 0.25), (0.6, 0.02), (0.3, 0.05), (0.2, 0.3), (0.4, 0.5), (0.7, 0.45), (0.82, 0.25)],
            [(0.82, 0.25), (0.78, 0.65), (0.72, 1.0)]],
    },
    "round": {
        0: [[(0.55, 0.02), (0.2, 0.25), (0.15, 0.7), (0.45, 1.0), (0.8, 0.8), (0.85, 0.35), (0.6, 0.0),
             (0.35, 0.1)]],
        7: [[(0.1, 0.1), (0.5, 0.0), (0.9, 0.02), (0.6, 0.45), (0.45, 1.0)], [(0.35, 0.5), (0.75, 0.48)]],
        8: [[(0.8, 0.1), (0.5, 0.0), (0.22, 0.15), (0.35, 0.4), (0.75, 0.62), (0.78, 0.95), (0.45, 1.0),
             (0.2, 0.85), (0.3, 0.6), (0.7, 0.35), (0.8, 0.1)]],
        9: [[(0.8, 0.15), (0.5, 0.0), (0.22, 0.15), (0.25, 0.42), (0.55, 0.48), (0.8, 0.3), (0.8, 0.15),
             (0.75, 0.6), (0.55, 1.0)]],
    },
    "serif": {
        0: [[(0.5, 0.0), (0.2, 0.15), (0.15, 0.5), (0.2, 0.85), (0.5, 1.0), (0.8, 0.85), (0.85, 0.5),
             (0.8, 0.15), (0.5, 0.0)], [(0.7, 0.2), (0.3, 0.8)]],
        7: [[(0.12, 0.15), (0.12, 0.0), (0.88, 0.0)], [(0.88, 0.0), (0.45, 1.0)], [(0.4, 0.5), (0.8, 0.5)]],
        8: [[(0.5, 0.45), (0.22, 0.3), (0.25, 0.05), (0.75, 0.05), (0.78, 0.3), (0.5, 0.45)],
            [(0.5, 0.45), (0.15, 0.7), (0.2, 0.98), (0.8, 0.98), (0.85, 0.7), (0.5, 0.45)]],
        9: [[(0.82, 0.3), (0.7, 0.02), (0.25, 0.05), (0.2, 0.4), (0.55, 0.5), (0.82, 0.3)],
            [(0.82, 0.3), (0.8, 1.0)], [(0.6, 1.0), (0.95, 1.0)]],
    },
}
SKELETONS = {s: {**hw.SKELETONS[s], **MORE[s]} for s in MORE}

TRAIN_STYLES = ("breip", "comic-neue", "comic-neue-italic", "dkg", "dkg-oblique", "klee", "print", "round")
HELD_OUT = ("humor-sans", "serif")  # one font, one stroke style: never fitted on


def styles() -> list[str]:
    return hw.font_styles() + sorted(SKELETONS)


def draw_digit(canvas: np.ndarray, box, digit: int, rng: np.random.Generator, style: str,
               width: float | None = None, grey: float | None = None) -> None:
    """Pencil one digit 0-9 into box (x0, y0, x1, y1 px) in `style`, in place."""
    hw._check_canvas(canvas)
    x0, y0, x1, y1 = hw._check_box(box)
    if not isinstance(digit, (int, np.integer)) or not 0 <= digit <= 9:
        raise ValueError(f"a digit is 0-9, not {digit!r}")
    w, h, cx, cy, slant, rot = hw._box_shape(rng, x0, y0, x1, y1)
    m = hw._affine(w, h, cx, cy, slant, rot)
    scale = max(2, math.ceil(96 / max(1.0, y1 - y0)))
    pad = (y1 - y0) * 0.3
    patch = hw._Patch(canvas, x0 - pad, y0 - pad, x1 + pad, y1 + pad, scale)
    if width is None:
        width = (y1 - y0) * rng.uniform(0.035, 0.09)
    if style in SKELETONS:
        for stroke in SKELETONS[style][int(digit)]:
            p = np.array(stroke, float) + rng.normal(0, 0.025, (len(stroke), 2))
            hw._polyline(patch, hw._spline(p) @ m[:, :2].T + m[:, 2], width, rng)
    elif style in hw.font_styles():
        hw._glyph(patch, style, int(digit), m, width, rng)
    else:
        raise ValueError(f"unknown or uninstalled style {style!r}")
    patch.lay(rng, hw._pencil(rng) if grey is None else grey)


def draw_number(canvas: np.ndarray, box, value: int, rng: np.random.Generator, style: str) -> None:
    """Pencil the whole number `value` (0 or more) into box (x0, y0, x1, y1 px), its digits
    side by side as a hand writes them: each about as wide as two thirds of its height, a
    little apart, the group somewhere in the box; one pencil for the number."""
    x0, y0, x1, y1 = (float(v) for v in box)
    s = str(int(value))
    bw, bh = x1 - x0, y1 - y0
    h = bh * rng.uniform(0.7, 0.95)
    dw = min(h * rng.uniform(0.62, 0.8), bw * 0.94 / len(s))
    gap = dw * rng.uniform(0.0, 0.12)
    total = len(s) * dw + (len(s) - 1) * gap
    left = x0 + (bw - total) / 2 + rng.uniform(-0.4, 0.4) * max(0.0, bw - total) / 2
    top = y0 + (bh - h) / 2 + rng.uniform(-0.3, 0.3) * (bh - h) / 2
    width = bh * rng.uniform(0.035, 0.075)
    grey = hw._pencil(rng)
    for k, ch in enumerate(s):
        a = left + k * (dw + gap)
        draw_digit(canvas, (a, top, a + dw, top + h), int(ch), rng, style, width, grey)


def draw_tick(canvas: np.ndarray, box, rng: np.random.Generator) -> None:
    """Mark a circle or box (x0, y0, x1, y1 px) as ticked: a cross, a tick, a slash, a fill."""
    hw.draw_cross(canvas, box, rng)


def number_crop(rng: np.random.Generator, digit: int | None, size: tuple[int, int], style: str) -> np.ndarray:
    """The ink of one digit as the reader cuts it out of a number (1 = pencil): a digit of a
    number of one to three, its neighbours' edges sometimes showing at the sides; None gives
    an empty cut (a speck, a smudge or nothing). Blurred, noised and compressed as a
    registered photo leaves it (handwriting.ink_crop's degradations)."""
    h, w = size
    canvas = np.ones((h, w), np.float32)
    if digit is not None:
        draw_digit(canvas, (w * 0.04, h * 0.02, w * 0.96, h * 0.98), digit, rng, style)
        if rng.random() < 0.3:  # a neighbour's stroke at one side
            side = rng.random() < 0.5
            x = w * (rng.uniform(0.0, 0.08) if side else rng.uniform(0.92, 1.0))
            hw.draw_stroke(canvas, [(x, h * rng.uniform(0.1, 0.4)), (x, h * rng.uniform(0.6, 0.9))], rng,
                           width=max(1.0, h * 0.05))
    ink = 1.0 - canvas
    if rng.random() < 0.25:
        r = max(1, round(min(h, w) * rng.uniform(0.01, 0.03)))
        cv2.circle(ink, (int(rng.integers(w)), int(rng.integers(h))), r, float(rng.uniform(0.2, 0.6)), -1)
    sigma = rng.uniform(0.0, 0.04 * min(h, w))
    if sigma > 0.3:
        ink = cv2.GaussianBlur(ink, (0, 0), sigma)
    ink = ink * rng.uniform(0.7, 1.3) + rng.normal(0, rng.uniform(0.0, 0.04), ink.shape)
    if rng.random() < 0.5:
        _, buf = cv2.imencode(".jpg", np.clip(255 * (1 - ink), 0, 255).astype(np.uint8),
                              [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))])
        ink = 1.0 - cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE).astype(np.float32) / 255.0
    return np.clip(ink, 0.0, 1.0).astype(np.float32)
