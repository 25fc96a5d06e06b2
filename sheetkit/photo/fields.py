"""What the pencil left on a registered photo, field by field, each with a probability.

The ink image is the photo's darkening against the blank: pencil over white paper or over
the printed grid. The blank is first spread by a pixel (a minimum filter), so a printed
line a pixel off in the photo leaves no ink. Positions all come from the sheet's
SheetGeometry, in mm, times PX_PER_MM.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from sheetkit.photo import PX_PER_MM

INK = 0.13  # darker than the blank by this much: pencil
BOX_INK = 0.07
EDGE = 0.075  # an edge this much darker than the typical edge is pencilled
K = PX_PER_MM
DIAGONALS = ((1, -1), (1, 1))  # the two diagonals of a square, from its left corners


def sigmoid(x: float) -> float:
    return float(1 / (1 + np.exp(-x)))


def ink_image(photo: np.ndarray, blank: np.ndarray, blur: float = 1.0) -> np.ndarray:
    """The pencil: where the photo is darker than the blank can be, the blank blurred as
    the photo is and spread by a pixel."""
    spread = cv2.erode(blank, np.ones((3, 3), np.uint8))
    if blur > 0.3:
        spread = np.minimum(spread, cv2.GaussianBlur(spread, (0, 0), blur))
    return np.clip(spread - photo, 0, 1)


def photo_blur(photo: np.ndarray, blank: np.ndarray, box) -> float:
    """The blur (Gaussian sigma, px) that makes the blank look most like the photo in `box`."""
    x0, y0, x1, y1 = (int(v) for v in box)
    p, b = photo[y0:y1, x0:x1], blank[y0:y1, x0:x1]
    return min((0.0, 0.7, 1.2, 1.8, 2.5, 3.5),
               key=lambda s: float(np.abs(p - (cv2.GaussianBlur(b, (0, 0), s) if s else b)).mean()))


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


def _box_share(ink: np.ndarray, box, inset=0.8, level=INK) -> float:
    x0, y0, x1, y1 = (int(round(v)) for v in _inside(box, inset))
    sub = ink[y0:y1, x0:x1]
    return float((sub > level).mean()) if sub.size else 0.0


def _inside(box, inset=0.8):
    x, y, w, h = box
    return ((x + inset) * K, (y + inset) * K, (x + w - inset) * K, (y + h - inset) * K)


def crop(ink: np.ndarray, box, inset=0.8) -> np.ndarray:
    x0, y0, x1, y1 = (int(round(v)) for v in _inside(box, inset))
    return ink[y0:y1, x0:x1].astype(np.float64)


def _dot(ink: np.ndarray, c) -> float:
    """How much of a ring of 0.9 mm radius around c (px) is pencil: a dot fills it all,
    lines through the vertex only their own directions."""
    h, w = ink.shape
    shares = []
    for r in (0.6, 0.9):
        hits = 0
        angles = np.linspace(0, 2 * np.pi, 32, endpoint=False)
        for a in angles:
            x, y = int(round(c[0] + r * K * np.cos(a))), int(round(c[1] + r * K * np.sin(a)))
            hits += 0 <= x < w and 0 <= y < h and ink[y, x] > INK
        shares.append(hits / len(angles))
    return min(shares)


def read_fields(ink: np.ndarray, g, photo: np.ndarray, blank: np.ndarray, blur: float) -> Fields:
    spec = g.spec
    b = spec.board
    f = Fields()
    px = lambda v: tuple(c * K for c in g.vertex(v))  # noqa: E731
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
            f.ends[v] = sigmoid((_dot(ink, px(v)) - 0.6) * 14)
    # An edge is pencilled when the photo along its middle is much darker than along the
    # typical edge (most are blank): pencil on a printed grid line shows so, where a
    # difference from the blank would hide it under the line.
    # The same measure on the blank (blurred as the photo is) takes out what is printed
    # there: a star's outline reaching into the edge, a light's rays.
    dark = 1 - cv2.erode(photo, np.ones((5, 5), np.uint8))
    printed = 1 - cv2.erode(cv2.GaussianBlur(blank, (0, 0), max(blur, 0.5)), np.ones((5, 5), np.uint8))
    for edges in (units, diags):
        seg = np.array([[px(v), px(w)] for v, w in edges], dtype=np.float64)
        t = np.linspace(0.3, 0.7, 12)[None, :, None]
        pts = np.rint(seg[:, None, 0] + (seg[:, None, 1] - seg[:, None, 0]) * t).astype(int)
        h, w_ = dark.shape
        ys, xs = np.clip(pts[..., 1], 0, h - 1), np.clip(pts[..., 0], 0, w_ - 1)
        vals = np.median(dark[ys, xs] - printed[ys, xs], axis=1)
        base = float(np.median(vals))
        for e, v in zip(edges, vals):
            f.edges[e] = sigmoid((float(v) - base - EDGE) * 60)
    for n, v in b.starts.items():
        x, y = g.vertex(v)
        r = max(g.square * 0.26, 2.0)
        f.starts[n] = sigmoid((_box_share(ink, (x - r, y - r, 2 * r, 2 * r), 0.3) - 0.04) * 80)
    # a box's mark may be a single light slash: a fainter level, over a share of the box
    # that no empty box reaches (measured: empty boxes 0-0.3 %, the faintest marks 8 %)
    box_p = lambda box, inset=0.8: sigmoid((_box_share(ink, box, inset, BOX_INK) - 0.03) * 150)  # noqa: E731
    f.fish = [box_p(g.fish_box(i)) for i in range(len(spec.fish.values))]
    from sheetkit.games.yuncos.scoring import CRASH_TRACK

    f.crashes = [box_p(g.crash_box(i)) for i in range(len(CRASH_TRACK))]
    f.abilities = {name: box_p(box, 0.9) for name, box in ability_boxes(g).items()}
    for row in range(2):
        for i in range(spec.nests.length):
            f.cells[f"nest{row + 1}.{i + 1}"] = crop(ink, g.nest_box(row, i))
    for col in range(spec.luminaries.columns):
        for lv in range(spec.luminaries.height):
            f.cells[f"lum{col + 1}.{lv + 1}"] = crop(ink, g.lum_box(col, lv))
    for t in range(1, spec.dice_log + 1):
        for which in (0, 1):
            f.dice[(t, which)] = crop(ink, g.dice_box(t, which), 0.7)
    return f
