"""Reading the pencilled digits 1-6 of a box, and narrowing a group of boxes by its rule.

classify() turns one box's ink (what the photo leaves once the blank sheet is subtracted)
into probabilities of 1-6 and None (empty). It sizes the ink to a fixed frame, takes
gradient histograms (HOG), a coarse picture and a few ink amounts, and runs a small neural
network whose weights ship with sheetkit (digits_model.npz, written by
scripts/train_digits.py from simulated pencil digits with a fixed seed): nothing is
downloaded. narrow() then picks the most likely joint reading of a nest row or a luminary
column among those its rule allows, by exact search.
"""

from __future__ import annotations

import functools
import itertools
import math
from pathlib import Path

import cv2
import numpy as np

MODEL = Path(__file__).with_name("digits_model.npz")
CLASSES: tuple[int | None, ...] = (None, 1, 2, 3, 4, 5, 6)
RULES = ("all_different", "descending", "rising", "none")
MIN_SIDE, MAX_SIDE = 16, 2000  # px: a box's inside in a phone photo is ~30-130 px
FRAME, DIGIT = 28, 20  # the digit is scaled into DIGIT px, centred in a FRAME px square
# How much less likely a reading that breaks its group's rule is, a priori, than one that
# keeps it: a sheet can be illegal, and then the ink must be very clear to say so.
ILLEGAL = 1e-3

def hog(frame: np.ndarray, cell: int = 7, bins: int = 9) -> np.ndarray:
    """Histograms of gradient orientation (unsigned, bins over 180 degrees) per cell x cell
    square, normalised over blocks of 2 x 2 cells (L2-Hys), as Dalal and Triggs describe."""
    gx = cv2.Sobel(frame, cv2.CV_32F, 1, 0, ksize=1)
    gy = cv2.Sobel(frame, cv2.CV_32F, 0, 1, ksize=1)
    mag = np.hypot(gx, gy)
    pos = (np.arctan2(gy, gx) % np.pi) / np.pi * bins - 0.5  # between the two nearest bins
    lo = np.floor(pos).astype(np.int64)
    frac = pos - lo
    h, w = frame.shape
    ny, nx = h // cell, w // cell
    cy = np.minimum(np.arange(h) // cell, ny)[:, None]
    cx = np.minimum(np.arange(w) // cell, nx)[None, :]
    cells = (cy * (nx + 1) + cx) * bins  # a spare row and column take the leftover pixels
    size = (ny + 1) * (nx + 1) * bins
    hist = sum(np.bincount((cells + b % bins).ravel(), (mag * wgt).ravel(), size)
               for b, wgt in ((lo, 1 - frac), (lo + 1, frac)))
    hist = hist.reshape(ny + 1, nx + 1, bins)[:ny, :nx]
    blocks = []
    for y in range(ny - 1):
        for x in range(nx - 1):
            v = hist[y:y + 2, x:x + 2].ravel()
            v = np.minimum(v / (np.linalg.norm(v) + 1e-6), 0.2)
            blocks.append(v / (np.linalg.norm(v) + 1e-6))
    return np.concatenate(blocks)


def _check_ink(ink) -> np.ndarray:
    if not isinstance(ink, np.ndarray) or ink.ndim != 2:
        raise ValueError("a box's ink must be a 2-D numpy array")
    h, w = ink.shape
    if min(h, w) < MIN_SIDE or max(h, w) > MAX_SIDE:
        raise ValueError(f"a box's ink must be {MIN_SIDE}-{MAX_SIDE} px on each side, not {w}x{h}")
    if ink.dtype.kind not in "fiub":
        raise ValueError(f"a box's ink must be numbers, not {ink.dtype}")
    a = ink.astype(np.float32)
    if not np.isfinite(a).all():
        raise ValueError("a box's ink contains NaN or infinity")
    lo, hi = float(a.min()), float(a.max())
    if lo < -0.05 or hi > 1.05:
        raise ValueError(f"a box's ink must lie in [0, 1] (1 = pencil), not [{lo:g}, {hi:g}]")
    return np.clip(a, 0.0, 1.0)


def percentile(a: np.ndarray, q: float, axis: int | None = None):
    """np.percentile(a, q, axis) by its default (linear) method, value for value, without its
    overhead per call (a tenth of a millisecond, paid a thousand times a photo): the two
    order statistics around the virtual index, by partition, and numpy's own interpolation."""
    x = a.ravel() if axis is None else (a if axis == 0 else np.moveaxis(a, axis, 0))
    n = x.shape[0]
    q = q / 100
    v = (n - 1) * q  # numpy's virtual index, as its linear method computes it
    lo = n - 1 if v >= n - 1 else max(0, math.floor(v))
    hi = min(lo + 1, n - 1)
    low = _lowest(x, lo, hi) if axis is None and n >= LARGE and x.dtype.kind == "f" else None
    if low is not None:
        prev, nxt = low
    else:
        part = np.partition(x, sorted({lo, hi}), axis=0)
        prev, nxt = part[lo], part[hi]
    gamma = float(v - lo) if v < n - 1 else 0.0
    diff = nxt - prev
    return nxt - diff * (1 - gamma) if gamma >= 0.5 else prev + diff * gamma


LARGE = 1 << 16  # an array this long (a whole page's pixels) is partitioned by _lowest when it can


def _lowest(x: np.ndarray, lo: int, hi: int):
    """The order statistics lo and hi of a large 1-D float array, as np.partition puts them,
    found among the values no greater than a bound that a sample of every so many sets, so
    that only those few are partitioned (a low percentile of a page: 20 ms to 2); None when
    the two are not low in the array or the bound holds too few of its values."""
    n = len(x)
    if hi >= n // 16:
        return None
    sample = x[::max(1, n // 8192)]
    m = len(sample)
    # the sample's share of values at or under the bound: what is needed, with room to spare
    r = min(m - 1, int(2 * (hi + 1) * m / n) + 64)
    bound = np.partition(sample, r)[r]
    few = x[x <= bound]  # every value of x under these is in it, in x's own order
    if len(few) <= hi:
        return None  # too few under the bound (or it is nan): the whole array then
    part = np.partition(few, sorted({lo, hi}))
    return part[lo], part[hi]


def median(a, axis: int | None = None):
    """np.median(a, axis), value for value and type for type, as numpy works it out (the
    middle order statistics by partition, averaged by np.mean, nan where the data hold one)
    without its check for a masked array, which imports numpy.ma: 15 ms of every
    `sheetkit read`, for arrays that are never masked."""
    a = np.asanyarray(a)
    sz = a.size if axis is None else a.shape[axis]
    kth = [sz // 2 - 1, sz // 2] if sz % 2 == 0 else [(sz - 1) // 2]
    nans = np.issubdtype(a.dtype, np.inexact) or a.dtype.kind in "Mm"
    if nans:
        kth.append(-1)
    part = np.partition(a, kth, axis=axis)
    if part.shape == ():
        return part.item()
    axis = 0 if axis is None else axis
    index = part.shape[axis] // 2
    indexer = [slice(None)] * part.ndim
    indexer[axis] = slice(index, index + 1) if part.shape[axis] % 2 == 1 else slice(index - 1, index + 1)
    out = np.mean(part[tuple(indexer)], axis=axis)
    if nans and sz > 0:
        last = part.take(-1, axis=axis)
        bad = np.isnan(last)
        if bad.any():
            if isinstance(out, np.generic):
                return last
            np.copyto(out, last, where=bad)
    return out


def _strip_edges(a: np.ndarray) -> None:
    """Clear leftovers of the printed box edge: rows and columns near the border that are
    inked nearly all along, allowing a slight tilt (a digit's bar never spans 80% of the box)."""
    h, w = a.shape
    for axis, n in ((0, h), (1, w)):
        band = max(1, round(0.12 * n))
        kernel = np.ones((5, 1) if axis == 0 else (1, 5), np.uint8)
        lines = percentile(cv2.dilate(a, kernel), 20, axis=1 - axis) > 0.05
        for i in itertools.chain(range(band), range(n - band, n)):
            if lines[i]:
                if axis == 0:
                    a[i, :] = 0
                else:
                    a[:, i] = 0


def _main_ink(a: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """a where mask holds, without specks: pieces much smaller than the largest."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    if n <= 2:
        return np.where(mask, a, 0.0)
    area = stats[1:, cv2.CC_STAT_AREA]
    keep = np.concatenate([[False], area >= 0.08 * area.max()])
    return np.where(keep[labels], a, 0.0)


def _span(profile: np.ndarray) -> tuple[int, int]:
    """Where 98% of the ink lies along one axis (specks at the side do not stretch it)."""
    c = np.cumsum(profile)
    c /= c[-1]
    return int(np.searchsorted(c, 0.01)), int(np.searchsorted(c, 0.99)) + 1


def features(ink: np.ndarray) -> np.ndarray:
    """The classifier's input for one box's ink (checked as classify() does)."""
    a = _check_ink(ink)
    h, w = a.shape
    a = np.clip(a - float(median(a)), 0.0, 1.0)
    _strip_edges(a)
    k = max(3, (min(h, w) // 24) | 1)
    smooth = cv2.GaussianBlur(a, (k, k), 0)
    peak = float(smooth.max())
    ref = float(percentile(smooth, 99))  # the digit's ink level, not a dark speck's
    amounts = [float((smooth > t).mean()) for t in (0.05, 0.1, 0.2, 0.35)]
    frame = np.zeros((FRAME, FRAME), np.float32)
    shape = [0.0, 0.0, 0.0]
    strong = _main_ink(a, smooth > 0.35 * ref) if ref > 0.02 else None
    if strong is not None and strong.sum() > 0:
        y0, y1 = _span(strong.sum(axis=1))
        x0, x1 = _span(strong.sum(axis=0))
        crop = strong[y0:y1, x0:x1]
        ch, cw = crop.shape
        level = float(percentile(crop[crop > 0], 90))
        s = DIGIT / max(ch, cw)
        nh, nw = max(1, round(ch * s)), max(1, round(cw * s))
        small = cv2.resize(crop, (nw, nh), interpolation=cv2.INTER_AREA)
        oy, ox = (FRAME - nh) // 2, (FRAME - nw) // 2
        frame[oy:oy + nh, ox:ox + nw] = np.clip(small / max(level, 1e-3), 0, 1)
        shape = [math.log(cw / ch), ch / h, cw / w]
    grads = hog(frame)
    coarse = cv2.resize(frame, (14, 14), interpolation=cv2.INTER_AREA).ravel()
    return np.concatenate([grads, coarse, shape, amounts, [peak, ref]]).astype(np.float32)


@functools.cache
def _model() -> dict[str, np.ndarray]:
    with np.load(MODEL) as z:
        return {k: z[k].astype(np.float32) for k in ("mean", "std", "w1", "b1", "w2", "b2")}


def probabilities(x: np.ndarray, model: dict[str, np.ndarray] | None = None) -> np.ndarray:
    """Class probabilities (rows over CLASSES) for feature rows x."""
    m = _model() if model is None else model
    z = (np.atleast_2d(x) - m["mean"]) / m["std"]
    hidden = np.maximum(z @ m["w1"] + m["b1"], 0.0)
    logits = hidden @ m["w2"] + m["b2"]
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


def classify(ink: np.ndarray) -> dict[int | None, float]:
    """The probabilities of 1..6 and None (an empty box) for one box's ink image: a 2-D
    array in [0, 1] (1 = pencil), the blank's printing subtracted, the box's inside only,
    16 px or more on each side. A ValueError says what is wrong with an absurd one."""
    p = probabilities(features(ink))[0]
    return {c: float(v) for c, v in zip(CLASSES, p)}


@functools.cache
def _legal(rule: str, n: int) -> np.ndarray:
    """Every reading of n boxes the rule allows, as rows of class indices (0 = empty).

    The boxes fill from the first with no gaps (a nest row left to right, a luminary column
    bottom to top), then: all different, each lower than the last, or each higher."""
    rows = []
    for k in range(min(n, 6) + 1):
        if rule == "all_different":
            filled = itertools.permutations(range(1, 7), k)
        else:
            filled = itertools.combinations(range(1, 7), k)  # rising
            if rule == "descending":
                filled = (c[::-1] for c in filled)
        rows.extend(tuple(f) + (0,) * (n - k) for f in filled)
    return np.array(rows, np.int64).reshape(-1, n)


def _table(cells) -> np.ndarray:
    """cells as an n x 7 array of probabilities over CLASSES, each row summing to 1."""
    if not isinstance(cells, (list, tuple)) or not cells:
        raise ValueError("narrow() needs a non-empty list of boxes")
    if len(cells) > 36:
        raise ValueError(f"a group of {len(cells)} boxes is not a row or column of a sheet")
    p = np.zeros((len(cells), len(CLASSES)))
    for i, cell in enumerate(cells):
        if not isinstance(cell, dict) or set(cell) - set(CLASSES):
            raise ValueError(f"box {i + 1}: probabilities must be keyed by 1-6 and None")
        row = np.array([float(cell.get(c, 0.0)) for c in CLASSES])
        if not np.isfinite(row).all() or (row < 0).any() or row.sum() <= 0:
            raise ValueError(f"box {i + 1}: probabilities must be finite, >= 0, not all 0")
        p[i] = row / row.sum()
    return p


def narrow(cells: list[dict[int | None, float]], rule: str) -> list[tuple[int | None, float]]:
    """The most likely joint reading of a group of boxes that obeys rule (one of RULES),
    each box with its confidence: the probability of that value given the ink of all the
    boxes and the rule. A reading that breaks the rule stays possible, ILLEGAL times less
    likely a priori, so a sheet whose ink clearly breaks it is read as written (and the
    checker says so) rather than quietly made legal."""
    if rule not in RULES:
        raise ValueError(f"unknown rule {rule!r}: one of {', '.join(RULES)}")
    p = _table(cells)
    n = len(p)
    if rule == "none":
        best = p.argmax(axis=1)
        return [(CLASSES[b], float(p[i, b])) for i, b in enumerate(best)]
    legal = _legal(rule, n)
    logp = np.log(np.maximum(p, 1e-12))
    weight = np.exp(logp[np.arange(n), legal].sum(axis=1))  # one per legal reading
    free = p.argmax(axis=1)  # the best reading, rule or no rule
    free_w = float(np.exp(logp[np.arange(n), free].sum()))
    pick = legal[int(weight.argmax())]
    if ILLEGAL * free_w > weight.max():
        pick = free
    # each box's posterior over its values: legal readings in full, the rest at ILLEGAL
    z_legal = float(weight.sum())
    marg = np.zeros_like(p)
    for i in range(n):
        marg[i] = np.bincount(legal[:, i], weights=weight, minlength=len(CLASSES))
    post = (marg + ILLEGAL * (p - marg)) / (z_legal + ILLEGAL * (1.0 - z_legal))
    return [(CLASSES[v], float(post[i, v])) for i, v in enumerate(pick)]
