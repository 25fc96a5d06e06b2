"""Reading the pencilled numbers of a score pad's cells: digits 0-9, one or more a cell.

A cell's ink (the registered photo's darkening against the blank, the printed frame left
out) is cut into digits where its columns are blank (or, for digits that touch, at the
thinnest column of a blob too wide for one digit); each digit is described as the Yuncos
digit reader does (digits.features: HOG, a coarse picture, proportions, ink amounts) and a
small network (pad_digits_model.npz, trained by scripts/train_pad_digits.py from simulated
pencil with a fixed seed) gives the probabilities of 0-9 and of no digit. A cell's reading
is a short list of whole numbers with their probabilities (or None: the cell is empty).
"""

from __future__ import annotations

import functools
import heapq
import math
from pathlib import Path

import cv2
import numpy as np

from sheetkit.photo import digits

MODEL = Path(__file__).with_name("pad_digits_model.npz")
CLASSES: tuple[int | None, ...] = (None, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
MIN_INK = 0.12  # share of the cell's height a stroke must reach to count as a digit


@functools.cache
def _model() -> dict[str, np.ndarray]:
    with np.load(MODEL) as z:
        return {k: z[k].astype(np.float32) for k in ("mean", "std", "w1", "b1", "w2", "b2")}


def probabilities(x: np.ndarray, model: dict | None = None) -> np.ndarray:
    """Rows of probabilities over CLASSES for feature rows x."""
    return digits.probabilities(x, _model() if model is None else model)


def features(ink: np.ndarray) -> np.ndarray:
    """digits.features of a digit's ink, padded to at least digits.MIN_SIDE px a side."""
    h, w = ink.shape
    if h < digits.MIN_SIDE or w < digits.MIN_SIDE:
        ph, pw = max(0, digits.MIN_SIDE - h), max(0, digits.MIN_SIDE - w)
        ink = np.pad(ink, ((ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2)))
    return digits.features(ink)


def ink_line(ink: np.ndarray) -> float:
    """How dark a pixel of the cell must be to be pencil: a share of the cell's darkest
    pencil (a light hand's graphite takes away a fifth of the light, a heavy one two
    thirds), and well above the photo's own noise in the cell (its paper, 80 % of it)."""
    v = ink.ravel()
    paper = v[v <= digits.percentile(v, 80)]
    noise = float(paper.std()) if paper.size else 0.0
    return max(0.06, 0.25 * float(digits.percentile(v, 99.5)), 4.0 * noise)


def segments(ink: np.ndarray, line: float | None = None) -> list[tuple[int, int]]:
    """The column spans (x0, x1) of the digits in a cell's ink (1 = pencil): runs of columns
    holding ink, split where a run is too wide for one digit (at its thinnest column).
    `line`: how dark ink is; by default a share of the cell's darkest pencil (a light hand's
    graphite takes away a fifth of the light, a heavy one two thirds)."""
    h, w = ink.shape
    if line is None:
        line = ink_line(ink)
    mask = ink > line
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    keep = np.zeros(n, bool)
    for i in range(1, n):
        x, y, ww, hh, a = stats[i]
        keep[i] = hh >= MIN_INK * h * 2 or (hh >= MIN_INK * h and a >= 0.02 * h * h)  # a stroke, not a speck
    strong = keep[labels]
    cols = strong.sum(axis=0)
    runs, x = [], 0
    while x < w:
        if cols[x] > 0:
            x0 = x
            while x < w and cols[x] > 0:
                x += 1
            runs.append((x0, x))
        x += 1
    rows = [np.flatnonzero(strong[:, a:b].any(axis=1)) for a, b in runs]
    tall = [len(r) and (r[-1] - r[0] + 1) >= 0.45 * h for r in rows]
    # pieces of one digit a column or two apart (a 7's flag, a broken stroke) join; two
    # tall pieces are two digits however close (a 1 beside a 3)
    merged: list[list[int]] = []
    for (a, b), t in zip(runs, tall):
        if (merged and a - merged[-1][1] <= max(1, round(0.04 * h)) and b - merged[-1][0] < 0.75 * h
                and not (t and merged[-1][2])):
            merged[-1][1] = b
            merged[-1][2] = merged[-1][2] or t
        else:
            merged.append([a, b, t])
    out = []
    for a, b, _ in merged:
        if b - a < 0.08 * h and (cols[a:b].max() < 0.3 * h):
            continue  # a dot or a short tick: no digit
        k = max(1, round((b - a) / (0.72 * h)))  # touching digits: a blob wider than one
        if k == 1:
            out.append((a, b))
            continue
        cuts = [a]
        for j in range(1, k):
            c = a + (b - a) * j // k
            lo, hi = max(a + 1, c - (b - a) // (3 * k)), min(b - 1, c + (b - a) // (3 * k))
            cuts.append(lo + int(np.argmin(cols[lo:hi])) if hi > lo else c)
        cuts.append(b)
        out += list(zip(cuts[:-1], cuts[1:]))
    return out


def waist(ink: np.ndarray, span, line: float | None = None) -> int | None:
    """Where a piece as wide as two narrow digits that touch (a 1 against a 3) may be cut:
    its thinnest column in the middle half, if that is much thinner than the piece."""
    h, _ = ink.shape
    a, b = span
    if not 0.55 * h <= b - a <= 1.1 * h:
        return None
    if line is None:
        line = ink_line(ink)
    cols = (ink[:, a:b] > line).sum(axis=0)
    lo, hi = (b - a) // 4, 3 * (b - a) // 4
    if hi <= lo:
        return None
    c = lo + int(np.argmin(cols[lo:hi]))
    return a + c if cols[c] <= 0.3 * cols.max() else None


def digit_crops(ink: np.ndarray, spans) -> list[np.ndarray]:
    """Each digit's ink: its columns with a little room each side, the cell's full height."""
    h, w = ink.shape
    out = []
    for a, b in spans:
        m = max(1, round(0.08 * h))
        out.append(ink[:, max(0, a - m):min(w, b + m)])
    return out


def read_number(ink: np.ndarray, top: int = 6, most: int = 3) -> tuple[list[tuple[int | None, float]], dict]:
    """The likeliest readings of a cell's ink: [(value or None for empty, probability), ...],
    the best first (at most `top`), and what was seen (the digits' spans and probabilities).
    A cell of more than `most` digits is read as its first `most`."""
    ink = ink.astype(np.float32).copy()
    digits._strip_edges(ink)  # what is left of the printed frame is no digit
    spans = segments(ink)[:most]
    seen = {"spans": spans, "probs": []}
    # a piece that may be two touching digits is read both ways
    ways = [spans]
    for i, sp in enumerate(spans):
        c = waist(ink, sp)
        if c is not None and len(spans) < most:
            ways.append(spans[:i] + [(sp[0], c), (c, sp[1])] + spans[i + 1:])
    if len(ways) > 1:
        got: dict = {}
        for way in ways:
            for v, p in _read_spans(ink, way, top, seen):
                got[v] = max(got.get(v, 0.0), p)
        return sorted(got.items(), key=lambda t: -t[1])[:top], seen
    if not spans:
        ink_share = float((ink > 0.1).mean())
        p_empty = 1.0 if ink_share < 0.01 else max(0.5, 1.0 - 10 * ink_share)
        return [(None, p_empty)] + ([(0, 1 - p_empty)] if p_empty < 1 else []), seen
    return _read_spans(ink, spans, top, seen), seen


def _read_spans(ink, spans, top, seen) -> list[tuple[int | None, float]]:
    crops = digit_crops(ink, spans)
    P = probabilities(np.stack([features(c) for c in crops]))
    seen["probs"] = P
    # the best numbers: a product over the digits (a digit read as "none" drops out of it),
    # the `top` best by a small best-first search over each digit's sorted classes
    order = [np.argsort(-p) for p in P]
    logp = [np.log(np.maximum(p, 1e-9)) for p in P]
    start = tuple(0 for _ in P)
    heap = [(-sum(logp[i][order[i][0]] for i in range(len(P))), start)]
    done, got = set(), {}
    while heap and len(got) < top:
        neg, idx = heapq.heappop(heap)
        if idx in done:
            continue
        done.add(idx)
        ds = [CLASSES[order[i][k]] for i, k in enumerate(idx)]
        ds = [d for d in ds if d is not None]
        value = int("".join(map(str, ds))) if ds else None
        got[value] = got.get(value, 0.0) + math.exp(-neg)
        for i in range(len(idx)):
            if idx[i] + 1 < len(CLASSES):
                nxt = idx[:i] + (idx[i] + 1,) + idx[i + 1:]
                heapq.heappush(heap, (neg + logp[i][order[i][idx[i]]] - logp[i][order[i][idx[i] + 1]], nxt))
    # not normalised: what the best few leave is the chance the cell holds something else
    return sorted(got.items(), key=lambda t: -t[1])
