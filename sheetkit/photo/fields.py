"""What the pencil left on a registered photo, field by field, each with a probability.

The ink image is the photo's darkening against the blank: pencil over white paper or over
the printed grid. The blank is first spread by a pixel (a minimum filter), so a printed
line a pixel off in the photo leaves no ink. Positions all come from the sheet's
SheetGeometry, in mm, times PX_PER_MM.

Each probability is a logistic function of a few measures taken on the photo itself (the
pencil line's own width and darkness among them), its weights fitted on simulated photos
by scripts/fit_fields.py (seeded; the weights are the constants below).

A turn's end is told from a mere corner, a crossing or a line's end cap by the shape of the
ink around the grid point once the pencilled lines through it are taken away: a dot is a
blob wider than the line (it survives an opening with a disc wider than the line), a small
circle fills a ring around the point, a tick leaves ink across the line. Where the blank is
printed dark (a star's centre, a light, a land dot) the photo cannot show pencil: those
pixels are left out of every measure, not counted as blank paper.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from sheetkit.photo import PX_PER_MM
from sheetkit.photo.digits import median, percentile  # numpy's, value for value, without importing numpy.ma

INK = 0.13  # darker than the blank by this much: pencil
K = PX_PER_MM
DIAGONALS = ((1, -1), (1, 1))  # the two diagonals of a square, from its left corners


def sigmoid(x: float) -> float:
    return float(1 / (1 + np.exp(-x)))


def ink_image(photo: np.ndarray, blank: np.ndarray, blur: float = 1.0) -> np.ndarray:
    """The pencil: where the photo is darker than the blank can be, the blank blurred as
    the photo is and spread by a pixel."""
    spread = cv2.erode(blank, np.ones((3, 3), np.uint8))
    if blur > 0.3:
        np.minimum(spread, cv2.GaussianBlur(spread, (0, 0), blur), out=spread)
    # clip(spread - photo, 0, 1), in place
    return np.clip(np.subtract(spread, photo, out=spread), 0, 1, out=spread)


def photo_blur(photo: np.ndarray, blank: np.ndarray, box) -> float:
    """The blur (Gaussian sigma, px) that makes the blank look most like the photo in `box`."""
    x0, y0, x1, y1 = (int(v) for v in box)
    p, b = photo[y0:y1, x0:x1], blank[y0:y1, x0:x1]
    return min((0.0, 0.7, 1.2, 1.8, 2.5, 3.5),
               key=lambda s: float(np.abs(p - (cv2.GaussianBlur(b, (0, 0), s) if s else b)).mean()))


def map_blur(reg) -> float:
    """The blur of a registered photo (register.Registered), measured over the map."""
    from sheetkit.photo import PX_PER_MM as k

    g = reg.blank.geometry
    return photo_blur(reg.photo, reg.blank_image, (g.map_x * k, g.map_y * k, (g.map_x + g.map_w) * k,
                                                   (g.map_y + g.map_h) * k))


def ability_boxes(g) -> dict[str, tuple[float, float, float, float]]:
    """Every ability box (its short id, as in the records: nest1.2, lum3, fish2) -> mm box."""
    from sheetkit.games.yuncos.record import all_boxes

    out = {}
    for b in all_boxes(g.spec):
        if b.startswith("nest"):
            row, k = b[4:].split(".")
            out[b] = g.nest_ability(int(row) - 1, int(k) - 1)
        elif b.startswith("lum"):
            out[b] = g.lum_ability(int(b[3:]) - 1)
        else:
            out[b] = g.fish_ability(int(b[4:]) - 1)
    return out


def long_box(b: str) -> str:
    """nest1.2 -> nest1.ability2, lum3 -> lum3.ability: the names no one takes for a number box."""
    if b.startswith("nest"):
        row, k = b.split(".")
        return f"{row}.ability{k}"
    return f"{b}.ability"


@dataclass
class Fields:
    edges: dict = field(default_factory=dict)  # (v, w) with v < w -> probability of pencil
    ends: dict = field(default_factory=dict)  # vertex -> probability of a turn-end dot
    starts: dict = field(default_factory=dict)  # start number -> probability it is marked
    fish: list = field(default_factory=list)  # probability each fish box is marked
    crashes: list = field(default_factory=list)
    abilities: dict = field(default_factory=dict)  # short box id -> probability crossed out
    cells: dict = field(default_factory=dict)  # nest1.3 / lum2.1 -> ink image of its inside
    dice: dict = field(default_factory=dict)  # (turn, 0 or 1) -> ink image
    line: tuple = (0.4 * K * 0.4, 1.3)  # this photo's pencil line: ink per px of length, spread (px)
    hidden_slash: bool = False  # more diagonal steps on the map than diagonal boxes read crossed


def _box_share(ink: np.ndarray, box, inset=0.8, level=INK) -> float:
    x0, y0, x1, y1 = _inside_px(box, inset)
    sub = ink[y0:y1, x0:x1]
    return float((sub > level).mean()) if sub.size else 0.0


def _inside(box, inset=0.8):
    x, y, w, h = box
    return ((x + inset) * K, (y + inset) * K, (x + w - inset) * K, (y + h - inset) * K)


def _inside_px(box, inset=0.8) -> tuple[int, int, int, int]:
    """_inside in whole pixels (x0, y0, x1, y1); a negative inset takes the paper around."""
    return tuple(int(round(v)) for v in _inside(box, inset))


def pencil_mm(a: np.ndarray, line: tuple) -> float:
    """How much pencil a box's ink holds, in mm of this photo's own pencil line (a digit holds
    5-30 mm, an empty box none): the ink darker than a third of the line's peak, summed,
    over the line's ink per mm of length. Measured in mm, it does not depend on the photo's
    resolution, and against the line, not on how hard this player presses."""
    mass, sd = line
    peak = mass / max(np.sqrt(2 * np.pi) * sd, 1.0)
    level = max(0.35 * peak, 0.05)
    return float(a[a > level].sum()) / max(mass, 1e-6) / K


def crop(ink: np.ndarray, box, inset=0.8) -> np.ndarray:
    x0, y0, x1, y1 = _inside_px(box, inset)
    return ink[y0:y1, x0:x1].astype(np.float64)


SPILL = 0.45  # a digit may run out of its box by this share of the box's side


def digit_crops(ink: np.ndarray, boxes: dict, inset: float) -> dict:
    """Each box's digit ink (key -> image), cut as `crop` cuts the box's inside, but
    following the digit where a hand writes it over the box's edge: the pencil around a box,
    up to SPILL of its side, is taken apart into strokes; a stroke lying mostly outside
    every box (a printed edge's leftover) or more in a neighbouring box than in this one (the
    neighbour's digit) is cleared, and the window grows to hold this box's strokes where
    they run out of it. The strokes are the ink above a third of the box's own darkest
    pencil, so a faint hand's digit is one stroke as a dark hand's is."""
    h_img, w_img = ink.shape
    inner = {k: _inside(b, inset) for k, b in boxes.items()}  # px
    reach = {k: _inside(b, -SPILL * min(b[2], b[3])) for k, b in boxes.items()}  # px: the box and around it
    out = {}
    for key in boxes:
        x0, y0, x1, y1 = reach[key]
        X0, Y0 = max(0, int(round(x0))), max(0, int(round(y0)))
        X1, Y1 = min(w_img, int(round(x1))), min(h_img, int(round(y1)))
        a = ink[Y0:Y1, X0:X1].astype(np.float64)

        def window(k):  # a box's inside in this cut's pixels
            bx0, by0, bx1, by1 = (int(round(v)) for v in inner[k])
            return max(0, by0 - Y0), max(0, by1 - Y0), max(0, bx0 - X0), max(0, bx1 - X0)

        iy0, iy1, ix0, ix1 = window(key)
        mine = a[iy0:iy1, ix0:ix1]
        if not mine.size:
            out[key] = crop(ink, boxes[key], inset)
            continue
        flat = mine.ravel()
        top = int(0.99 * (flat.size - 1))
        level = max(0.05, 0.3 * float(np.partition(flat, top)[top]))  # the box's darkest pencil
        n, labels = cv2.connectedComponents((a > level).astype(np.uint8), connectivity=8)
        total = np.bincount(labels.ravel(), a.ravel(), n)
        inside = np.bincount(labels[iy0:iy1, ix0:ix1].ravel(), mine.ravel(), n)
        # each stroke belongs to the box its ink centre is nearest (inside it: 0)
        rows, cols = np.indices(a.shape)
        cy = np.bincount(labels.ravel(), (a * rows).ravel(), n) / np.maximum(total, 1e-9)
        cx = np.bincount(labels.ravel(), (a * cols).ravel(), n) / np.maximum(total, 1e-9)

        def distance(k):
            y0_, y1_, x0_, x1_ = window(k)
            return np.hypot(np.maximum(0, np.maximum(x0_ - cx, cx - x1_)), np.maximum(0, np.maximum(y0_ - cy, cy - y1_)))

        near = [k for k in boxes if k != key and _overlap(reach[key], inner[k])]
        own = distance(key) <= (np.min([distance(k) for k in near], axis=0) if near else np.inf)
        own[0] = False  # the paper around the strokes
        # a stroke mostly in the box is its digit's; one wholly outside it only as a piece of
        # that digit (a printed edge's leftover or a speck is a thin part of it, not a piece)
        keep = own & (inside > 0.15 * total)
        if keep.any():
            keep |= own & (total >= 0.25 * total[keep].max())
        kept = keep[labels]
        cleared = cv2.dilate(((labels > 0) & ~kept).astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool) & ~kept
        a[cleared] = 0.0
        if kept.any():
            ys, xs = np.nonzero(kept)
            iy0, iy1 = min(iy0, int(ys.min())), max(iy1, int(ys.max()) + 1)
            ix0, ix1 = min(ix0, int(xs.min())), max(ix1, int(xs.max()) + 1)
        out[key] = a[iy0:iy1, ix0:ix1]
    return out


def _overlap(a, b) -> bool:
    """Whether two rectangles (x0, y0, x1, y1) overlap."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


# Logistic weights (intercept first), fitted by scripts/fit_fields.py; see measure_* below.
EDGE_W = (-4.5, 60.0)
END_W = (-6.405, -0.2102, 6.627, 4.435, 0.1206, -0.187, 0.8736, 4.792, 3.938, 4.868, 6.243, -0.05864, 0.2807, -4.057)
END_MEASURES = 13  # measure_ends' columns
BOX_W = (23.26, 2.288, -0.07506, 0.4723, 0.1023, 3.814, 0.4568)
PASSED_START = 0.5  # the most a start point a pencilled path passes over is marked as the start
DRIFT = 1.2  # mm: how far beside the grid line a hand's pencil line is still that edge's
VISIBLE = 0.3  # the blank at least this light: pencil over it shows
CLEAR = 0.6  # lighter than this all around: no dark print's edge near (the grid is lighter)


def logistic(w, x) -> np.ndarray:
    """w[0] + w[1:] . x through the logistic function; x: (n, len(w) - 1)."""
    z = w[0] + np.asarray(x, np.float64) @ np.asarray(w[1:], np.float64)
    return 1 / (1 + np.exp(-np.clip(z, -30, 30)))


def relative_ink(photo: np.ndarray, blank: np.ndarray, blur: float) -> tuple[np.ndarray, np.ndarray]:
    """The pencil as the share of light it takes away from the blank (graphite darkens what
    is under it by a factor, a grey grid line as well as white paper), the blank blurred as
    the photo is and spread by two pixels (so a printed line a pixel or two off leaves
    nothing, and pencil over a grey grid line still shows as the share it takes away); and
    where the blank is clear of dark print by two pixels (the light grey grid lines stay in)."""
    soft = cv2.GaussianBlur(blank, (0, 0), blur) if blur > 0.3 else blank
    spread = cv2.erode(soft, np.ones((5, 5), np.uint8))
    valid = spread > CLEAR
    # clip(1 - photo / max(spread, VISIBLE), 0, 1) where valid, else 0: in place, the same
    # operations in the photo's float32
    rel = np.maximum(spread, VISIBLE)
    np.divide(photo, rel, out=rel)
    np.subtract(1, rel, out=rel)
    np.clip(rel, 0, 1, out=rel)
    rel[~valid] = 0
    return rel.astype(np.float32, copy=False), valid


def _profiles(rel: np.ndarray, segments, off: np.ndarray) -> np.ndarray | None:
    """The median profile of `rel` across the middles of `segments` [((x, y), (x, y)) px]."""
    h, w = rel.shape
    out = []
    for (x0, y0), (x1, y1) in segments:
        d = np.array([x1 - x0, y1 - y0], np.float64)
        n = np.linalg.norm(d)
        nx, ny = -d[1] / n, d[0] / n
        for t in (0.35, 0.5, 0.65):
            cx, cy = x0 + d[0] * t, y0 + d[1] * t
            xs = np.clip(np.rint(cx + off * nx).astype(int), 0, w - 1)
            ys = np.clip(np.rint(cy + off * ny).astype(int), 0, h - 1)
            out.append(rel[ys, xs])
    return median(np.array(out, np.float64), axis=0) if out else None


def line_profile(rel: np.ndarray, pencilled, blank) -> tuple[float, float]:
    """The pencil line of this photo, across: its ink per px of length (the sum across) and
    its spread (standard deviation, px): the profile across pencilled edges less the one
    across blank edges (what the printed grid line leaves)."""
    off = np.arange(-12, 12.5, 0.5)
    p, b = _profiles(rel, pencilled, off), _profiles(rel, blank, off)
    if p is None:
        return 0.4 * K * 0.4, 1.3  # no line to measure: a 0.4 mm line, 40 % dark
    prof = np.clip(p - (b if b is not None else 0), 0, None)
    prof = np.clip(prof - median(prof), 0, None)
    m = prof.sum() * 0.5
    if m <= 0:
        return 0.4 * K * 0.4, 1.3
    mu = (prof * off).sum() * 0.5 / m
    return float(m), float(np.sqrt((prof * (off - mu) ** 2).sum() * 0.5 / m))


def _ray_distance(dx: np.ndarray, dy: np.ndarray, ux: float, uy: float) -> np.ndarray:
    """Distance of each offset (dx, dy) from the ray from 0 along the unit vector (ux, uy)."""
    t = np.maximum(dx * ux + dy * uy, 0)
    return np.hypot(dx - t * ux, dy - t * uy)


DIRECTIONS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]


def measure_ends(rel, valid, centres: dict, pencilled: dict, mass: float, sd: float, radius: float):
    """The measures of a turn-end mark at each grid point (px centre) once the pencilled
    lines through it (`pencilled`: vertex -> the directions (dx, dy) pencilled from it) and
    the printed grid lines are taken away. One row per grid point, in the order of `centres`:

    - the ink left around the point, in mm of this photo's pencil line (its log(1 + x));
    - the fullest ring around the point: the share of it inked (a dot, a small circle);
    - the share of the point's middle that a blob wider than the line covers (a dot);
    - the two darkest directions from the point that no pencilled edge takes, along the
      grid line or diagonal out to 1.8 mm, less the photo's usual there (a tick across the
      line, a dot), in units of the pencil's darkness (from -1 to 4);
    - the darkest spot near the point, in units of the pencil's darkness;
    - where the point lies on the pencilled path: a corner, straight through, a crossing
      (three or four lines), a line's end (each 0 or 1), and the ink left at a corner and
      straight through (a hand's wobbly or heavy corner leaves ink that is no mark);
    - how much of the point's middle the printed sheet leaves visible (on a star, a fish or
      a light a mark cannot be seen)."""
    h, w = rel.shape
    R = int(np.ceil(radius))
    dy, dx = np.mgrid[-R:R + 1, -R:R + 1].astype(np.float64)
    dist = np.hypot(dx, dy)
    disc = dist <= radius
    half = max(0.45 * K, 2.2 * sd)  # a pencil line's half width, and a hand's wobble
    unit = {d: _ray_distance(dx, dy, d[0] / np.hypot(*d), d[1] / np.hypot(*d)) for d in DIRECTIONS}
    strips = {d: u <= half for d, u in unit.items()}
    grid = np.zeros_like(disc)
    for d in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        grid |= unit[d] <= 1.6  # the printed grid line, a pixel either side
    arms = {d: (u <= 1.0) & (dist >= 0.4 * K) & (dist <= 1.8 * K) for d, u in unit.items()}
    rings = [(dist >= r - 0.9) & (dist <= r + 0.9) for r in np.arange(0.6 * K, radius - 0.3 * K, 0.3 * K)]
    middle = dist <= 1.1 * K
    # pencil: a third of the line's peak darkness, and above the noise
    level = max(0.35 * mass / max(np.sqrt(2 * np.pi) * sd, 1.0), 0.06)
    # a blob wider than the line: what an opening with a disc 1.5 line widths across leaves
    inked = (rel > level) | ~valid
    d = max(3, int(round(1.5 * 2.355 * sd)) | 1)
    blob = cv2.morphologyEx(inked.astype(np.uint8), cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d))).astype(bool)
    spot = cv2.blur(np.where(valid, rel, 0).astype(np.float32), (3, 3))
    near = dist <= 0.7 * K
    peak = max(mass / max(np.sqrt(2 * np.pi) * sd, 1.0), 0.05)
    # what every point uses, worked out once (counts of pixels are exact: counted so, the
    # shares and means below are the very numbers numpy's sums and means give)
    disc_off_grid = disc & ~grid
    outside = {d: ~s for d, s in strips.items()}
    rings = [(rg, 0.3 * np.count_nonzero(rg)) for rg in rings]
    count = np.count_nonzero
    middle_n = count(middle)
    rows, arm_vals, darkest = [], [], []
    for v, (cx, cy) in centres.items():
        x, y = int(round(cx)), int(round(cy))
        if not (R <= x < w - R and R <= y < h - R):
            rows.append((0.0, 0.0, 0.0, 0.0))
            arm_vals.append({})
            darkest.append(0.0)
            continue
        sl = np.s_[y - R:y + R + 1, x - R:x + R + 1]
        r_, ok = rel[sl], valid[sl]
        off = disc_off_grid & ok
        taken = pencilled.get(v, ())
        for dd in taken:
            off &= outside[dd]
        dark = r_ > level
        left = float(r_[off & dark].sum()) / max(mass, 1e-6) / K
        ring = 0.0
        for rg, enough in rings:
            m = rg & off
            n = count(m)
            if n >= enough:
                ring = max(ring, float(count(dark & m) / n))
        mid = middle & ok
        n = count(mid)
        b = float(count(blob[sl] & mid) / n) if n >= 8 else 0.0
        rows.append((left, ring, b, n / middle_n))
        darkest.append(float(np.clip(spot[sl][near].max() / peak, 0, 4)))
        av = {}
        for dd, arm in arms.items():
            if dd in taken:
                continue
            m = arm & ok
            if count(m) >= 4:
                av[dd] = float(r_[m].mean())
        arm_vals.append(av)
    # the photo's usual darkness along an arm that nothing is pencilled on (grid or diagonal)
    usual = {}
    for kind in (0, 1):
        vals = [a for av in arm_vals for dd, a in av.items() if (dd[0] and dd[1]) == kind]
        usual[kind] = float(median(vals)) if vals else 0.0
    out = []
    for v, row, av, dk in zip(centres, rows, arm_vals, darkest):
        ex = sorted((a - usual[bool(dd[0] and dd[1])] for dd, a in av.items()), reverse=True) + [0.0, 0.0]
        taken = pencilled.get(v, ())
        straight = len(taken) == 2 and taken[0] == (-taken[1][0], -taken[1][1])
        corner = len(taken) == 2 and not straight
        left = np.log1p(row[0])
        out.append((left,) + row[1:3] + tuple(float(np.clip(e / max(level, 1e-6), -1, 4)) for e in ex[:2])
                   + (dk, float(corner), float(straight), float(len(taken) >= 3), float(len(taken) == 1),
                      corner * left, straight * left, row[3]))
    return np.array(out, np.float64).reshape(-1, END_MEASURES)


FAINT_MARK = 0.13  # a counter box whose darkest 3 % is lighter than this is not surely marked
NOISY_BOX = 0.35  # a box's probability where the photo's noise decides it: unmarked, but asked
PAPER_QUIET = 0.04  # ink: what plain paper beside a box reaches, at its 97th percentile, in a clean photo
NOISY_PAPER = 0.03  # paper noise (paper_noise) from which no box is read surely ...
NOISY_SURE = 0.75  # ... but at most this sure either way: asked
HIDDEN_SLASH = 0.4  # a diagonal box read blank where a slash may lie unseen on its arrow: asked
COVER_INK = 0.03  # darker than the typical edge by this much: a diagonal's point is pencilled
FLOWN = 0.8  # a diagonal pencilled over this share of its length is a step flown


def paper_noise(ink: np.ndarray, blank: np.ndarray, boxes) -> float:
    """How much ink this photo's plain paper shows beyond a clean photo's: the 97th percentile
    of the paper 0.4-1.6 mm around the boxes (mm), where the blank has no print within 5 px
    (a sheet laid up to 4 px off leaves print's blurred edges as ink), less PAPER_QUIET. A dim, noisy
    photo mottles a box's inside as much as a faint cross would, and no cross is marked in
    this paper alone."""
    rings = []
    for box in boxes:
        o, i = _inside_px(box, -1.6), _inside_px(box, -0.4)
        if min(o) < 0 or o[3] > ink.shape[0] or o[2] > ink.shape[1]:
            continue
        keep = cv2.erode(blank[o[1]:o[3], o[0]:o[2]], np.ones((11, 11), np.uint8)) > 0.9
        keep[i[1] - o[1]:i[3] - o[1], i[0] - o[0]:i[2] - o[0]] = False
        rings.append(ink[o[1]:o[3], o[0]:o[2]][keep])
    return max(0.0, float(percentile(np.concatenate(rings), 97)) - PAPER_QUIET) if rings else 0.0


def measure_box(ink, box, inset=0.8, noise=0.0) -> tuple[float, ...]:
    """A box's measures on the ink image (the blank spread, so its printed icon leaves
    nothing): the share of its inside darkened by 7 % and by 15 %, and how dark its darkest
    3 % is (a rubbed-out mark leaves a faint trace; a light slash, a narrow dark one); then
    the logarithms of the three (small shares told apart). The ink is taken less `noise`,
    what the photo's plain paper shows (paper_noise)."""
    x0, y0, x1, y1 = _inside_px(box, inset)
    sub = ink[y0:y1, x0:x1]
    if not sub.size:
        sub = np.zeros((1, 1))
    if noise:
        sub = np.maximum(sub - noise, 0)
    m = (float((sub > 0.07).mean()), float((sub > 0.15).mean()), float(percentile(sub, 97)))
    return m + tuple(float(np.log(v + 1e-3)) for v in m)


@dataclass
class Measures:
    """What read_fields' probabilities are computed from: one row of measures per field."""
    edges: list  # (v, w) edge keys
    edge_x: np.ndarray  # (n, 1): how much darker than the typical edge its middle is
    ends: list  # grid points
    end_x: np.ndarray  # (n, END_MEASURES): see measure_ends
    boxes: list  # ("fish", i), ("crash", i), ("ability", name)
    box_x: np.ndarray  # (n, 6): see measure_box
    line: tuple  # the photo's pencil line: ink per px of length, spread (px)
    pencilled: dict = field(default_factory=dict)  # grid point -> the directions pencilled from it
    box_raw: np.ndarray | None = None  # box_x with the paper's noise left in, where it has any
    noise: float = 0.0  # paper_noise of the photo
    whole: dict = field(default_factory=dict)  # each diagonal read pencilled -> the share of its length pencilled


def _grid(b):
    units, diags = [], []
    for c in range(b.width):
        for r in range(b.height):
            v = (c, r)
            for dx, dy in ((1, 0), (0, 1)):
                w = (c + dx, r + dy)
                if w[0] < b.width and w[1] < b.height:
                    units.append((v, w))
            for dx, dy in DIAGONALS:
                w = (c + dx, r + dy)
                if 0 <= w[0] < b.width and 0 <= w[1] < b.height:
                    diags.append(tuple(sorted((v, w))))
    return units, diags


def measure(g, photo: np.ndarray, blank: np.ndarray, blur: float, edge_w=None, ink=None) -> Measures:
    """Every field's measures on the registered photo; the turn ends' need the pencilled
    edges, read with the weights `edge_w` (default EDGE_W)."""
    spec = g.spec
    b = spec.board
    px = lambda v: tuple(c * K for c in g.vertex(v))  # noqa: E731
    units, diags = _grid(b)
    # An edge is pencilled when the photo along its middle is much darker than along the
    # typical edge (most are blank): pencil on a printed grid line shows so, where a
    # difference from the blank would hide it under the line.
    # The same measure on the blank (blurred as the photo is) takes out what is printed
    # there: a star's outline reaching into the edge, a light's rays.
    dark = 1 - cv2.erode(photo, np.ones((5, 5), np.uint8))
    # (spread wider than the photo's darkest-of-5x5, by the registration's pixel or two: the
    # search beside the line must not find the grid line itself a pixel off)
    printed = 1 - cv2.erode(cv2.GaussianBlur(blank, (0, 0), max(blur, 0.5)), np.ones((9, 9), np.uint8))
    edges, edge_x = [], []
    # A hand draws a line beside the grid line as often as on it: the edge's pencil is the
    # darkest line parallel to it within DRIFT of it (its neighbours are a square away).
    drift = np.arange(-DRIFT * K, DRIFT * K + 0.01, 1.5)
    h, w_ = dark.shape

    def along(group, t):
        """The photo's darkness at the points t of each edge of `group`, less what the
        blank prints there, along each line parallel to it within the drift: (lines,
        edges, points)."""
        seg = np.array([[px(v), px(w)] for v, w in group], dtype=np.float64).reshape(-1, 2, 2)
        t = t[None, :, None]
        d = seg[:, 1] - seg[:, 0]
        normal = np.stack([-d[:, 1], d[:, 0]], axis=1) / np.linalg.norm(d, axis=1, keepdims=True)
        out = []
        for o in drift:
            pts = np.rint(seg[:, None, 0] + d[:, None] * t + o * normal[:, None]).astype(int)
            ys, xs = np.clip(pts[..., 1], 0, h - 1), np.clip(pts[..., 0], 0, w_ - 1)
            out.append(dark[ys, xs] - printed[ys, xs])
        return out

    for group in (units, diags):
        vals = None
        for line in along(group, np.linspace(0.3, 0.7, 12)):
            got = median(line, axis=1)
            vals = got if vals is None else np.maximum(vals, got)
        if group is units:
            typical = float(median(vals))  # the unit edges' middles: most are blank paper
        edges += group
        edge_x += list(vals - median(vals))
    edge_x = np.array(edge_x, np.float64).reshape(-1, 1)
    p_edge = logistic(EDGE_W if edge_w is None else edge_w, edge_x)
    # A diagonal step flown is pencilled its whole length; a tick, a cross or a number
    # written over a diagonal's middle darkens only part of it.
    crossing = [e for e, p in zip(edges[len(units):], p_edge[len(units):]) if p >= 0.5]
    whole = {}
    if crossing:
        darkest = np.max(along(crossing, np.linspace(0.1, 0.9, 17)), axis=0)  # each point's, beside the line
        whole = {e: float((v > typical + COVER_INK).mean()) for e, v in zip(crossing, darkest)}
    rel, valid = relative_ink(photo, blank, blur)
    # the photo's own pencil line, across the unit edges inside the frame surely pencilled
    inner = [(e, p) for e, p in zip(edges, p_edge)
             if (e[0][0] == e[1][0] and 0 < e[0][0] < b.width - 1) or (e[0][1] == e[1][1] and 0 < e[0][1] < b.height - 1)]
    sure = [(px(v), px(w)) for (v, w), p in inner if p > 0.95]
    none = [(px(v), px(w)) for (v, w), p in inner if p < 0.05]
    mass, sd = line_profile(rel, sure[:60], none[::max(1, len(none) // 60)][:60])
    pencilled: dict = {}
    for (v, w), p in zip(edges, p_edge):
        if p >= 0.5:
            d = (w[0] - v[0], w[1] - v[1])
            pencilled.setdefault(v, []).append(d)
            pencilled.setdefault(w, []).append((-d[0], -d[1]))
    ends = [(c, r) for c in range(b.width) for r in range(b.height)]
    radius = min(2.8 * K, 0.36 * g.square * K)
    end_x = measure_ends(rel, valid, {v: px(v) for v in ends}, pencilled, mass, sd, radius)
    from sheetkit.games.yuncos.scoring import CRASH_TRACK

    boxes = [("fish", i) for i in range(len(spec.fish.values))] + [("crash", i) for i in range(len(CRASH_TRACK))]
    where = [g.fish_box(i) for i in range(len(spec.fish.values))] + [g.crash_box(i) for i in range(len(CRASH_TRACK))]
    inset = [0.8] * len(where)
    for name, box in ability_boxes(g).items():
        boxes.append(("ability", name))
        where.append(box)
        inset.append(0.9)
    ink = ink_image(photo, blank, blur) if ink is None else ink
    noise = paper_noise(ink, blank, ability_boxes(g).values())  # (the other boxes touch their neighbours)

    def box_rows(less):
        return np.array([measure_box(ink, box, i, less) for box, i in zip(where, inset)], np.float64).reshape(-1, 6)

    box_x, box_raw = box_rows(noise), (box_rows(0.0) if noise else None)
    return Measures(edges, edge_x, ends, end_x, boxes, box_x, (mass, sd), pencilled, box_raw, noise, whole)


LOCAL_SHIFT = 4  # px (0.7 mm): how far one box may lie off where the sheet's homography puts it
LOCAL_MARGIN = 0.8  # mm of paper around a box matched with it: the box's printed edge is in it
ICON_INSET = 0.9  # mm: an ability box's inside, where its icon is printed, as measure reads it


def box_regions(g) -> list[tuple[float, float, float, float]]:
    """Every box read by its ink (mm): the fish counter, the crash track, the ability boxes,
    the puzzle boxes and the dice log."""
    from sheetkit.games.yuncos.scoring import CRASH_TRACK

    spec = g.spec
    out = [g.fish_box(i) for i in range(len(spec.fish.values))] + [g.crash_box(i) for i in range(len(CRASH_TRACK))]
    out += list(ability_boxes(g).values())
    out += [g.nest_box(r, i) for r in range(2) for i in range(spec.nests.length)]
    out += [g.lum_box(c, lv) for c in range(spec.luminaries.columns) for lv in range(spec.luminaries.height)]
    out += [g.dice_box(t, w) for t in range(1, spec.dice_log + 1) for w in (0, 1)]
    return out


def align_boxes(photo: np.ndarray, blank: np.ndarray, g) -> np.ndarray:
    """The photo with each box moved onto its blank box: a sheet bowed or lifted off the
    table is no plane, so one homography leaves parts of it a pixel or four off, and a box's
    printed edge or icon a few pixels off reads as pencil in it. Each box (with the paper
    around it; a box with an icon inside, by its icon alone) is matched against its blank
    within LOCAL_SHIFT px and its inside taken from where it matches best; a box whose blank
    shows nothing to match by stays as it is."""
    out = photo.copy()
    h, w = photo.shape
    s = LOCAL_SHIFT
    for box in box_regions(g):
        outer = _inside_px(box, -LOCAL_MARGIN)
        if outer[0] - s < 0 or outer[1] - s < 0 or outer[2] + s > w or outer[3] + s > h:
            continue
        # a box with an icon printed inside is laid by its icon: that is what must
        # coincide inside it (a printer's outline, heavier or greyer, can pull a pixel off)
        for x0, y0, x1, y1 in (_inside_px(box, ICON_INSET), outer):
            tpl = blank[y0:y1, x0:x1]
            if tpl.size and float(tpl.std()) >= 0.05:
                break
        else:
            continue
        res = cv2.matchTemplate(photo[y0 - s:y1 + s, x0 - s:x1 + s], tpl, cv2.TM_CCOEFF_NORMED)
        _, best, _, (bx, by) = cv2.minMaxLoc(res)
        dx, dy = bx - s, by - s
        if best < 0.3 or not (dx or dy):
            continue
        # the box's inside (its margin stays: a neighbour's may overlap it)
        ix0, iy0, ix1, iy1 = _inside_px(box, 0)
        out[iy0:iy1, ix0:ix1] = photo[iy0 + dy:iy1 + dy, ix0 + dx:ix1 + dx]
    return out


def _diagonals_flown(f: Fields, spec, whole: dict) -> None:
    """Each diagonal step on the map was flown with a diagonal box crossed (Y18), but a
    slash along a box's printed arrow does not show: where the map has more squares crossed
    by a diagonal step than diagonal boxes read crossed, every diagonal box read blank is
    unsure. A step is pencilled over most of its length (`whole`: Measures.whole), where a
    tick or a number written over a diagonal's middle is not; a square with both diagonals
    pencilled holds an X, a mark, not two flights."""
    from sheetkit.games.yuncos.notation import box_kind

    squares: dict = {}
    for (v, w), share in whole.items():
        square = (min(v[0], w[0]), min(v[1], w[1]))
        squares.setdefault(square, []).append(share)
    steps = sum(1 for shares in squares.values() if len(shares) == 1 and shares[0] >= FLOWN)
    boxes = [b for b in f.abilities if box_kind(spec, b) == "diagonal"]
    blank = [b for b in boxes if f.abilities[b] < 0.5]
    if steps > len(boxes) - len(blank) and blank:
        f.hidden_slash = True
        for b in blank:
            f.abilities[b] = max(f.abilities[b], HIDDEN_SLASH)


def read_fields(ink: np.ndarray, g, photo: np.ndarray, blank: np.ndarray, blur: float) -> Fields:
    spec = g.spec
    b = spec.board
    f = Fields()
    m = measure(g, photo, blank, blur, ink=ink)
    f.line = m.line
    f.edges = dict(zip(m.edges, (float(p) for p in logistic(EDGE_W, m.edge_x))))
    f.ends = dict(zip(m.ends, (float(p) for p in logistic(END_W, m.end_x))))
    for n, v in b.starts.items():
        x, y = g.vertex(v)
        r = max(g.square * 0.26, 2.0)
        f.starts[n] = sigmoid((_box_share(ink, (x - r, y - r, 2 * r, 2 * r), 0.3) - 0.04) * 80)
        if len(m.pencilled.get(v, ())) >= 2:  # a path passing over the start point inks its circle as a cross does
            f.starts[n] = min(f.starts[n], PASSED_START)
    p_box = logistic(BOX_W, m.box_x)
    if m.box_raw is not None:  # a box the paper's noise alone marks or clears is unsure either way
        p_box = np.where((p_box >= 0.5) == (logistic(BOX_W, m.box_raw) >= 0.5), p_box, NOISY_BOX)
        if m.noise >= NOISY_PAPER:  # paper this mottled leaves no box sure: the counters are asked
            p_box = np.clip(p_box, 1 - NOISY_SURE, NOISY_SURE)
    # a counter's box has a heavy printed border, which a blurred photo leaves a trace of
    # inside it: a box whose darkest part is no darker than that is no sure mark (asked)
    counter = np.array([kind in ("fish", "crash") for kind, _ in m.boxes], dtype=bool)
    p_box = np.where(counter & (m.box_x[:, 2] < FAINT_MARK) & (p_box > NOISY_BOX), NOISY_BOX, p_box)
    for (kind, key), p in zip(m.boxes, p_box):
        if kind == "fish":
            f.fish.append(float(p))
        elif kind == "crash":
            f.crashes.append(float(p))
        else:
            f.abilities[key] = float(p)
    _diagonals_flown(f, spec, m.whole)
    for row in range(2):
        for i in range(spec.nests.length):
            f.cells[f"nest{row + 1}.{i + 1}"] = crop(ink, g.nest_box(row, i))
    for col in range(spec.luminaries.columns):
        for lv in range(spec.luminaries.height):
            f.cells[f"lum{col + 1}.{lv + 1}"] = crop(ink, g.lum_box(col, lv))
    f.dice = digit_crops(ink, {(t, which): g.dice_box(t, which) for t in range(1, spec.dice_log + 1)
                               for which in (0, 1)}, 0.7)
    return f
