"""A second photo simulator for `sheetkit read`: pencil on a printed Yuncos sheet, and a phone.

It is written apart from sheetkit's own photo code and shares nothing with it but the
printed sheet (sheetkit's composer and PNG renderer draw the numbered blank, QR code and
registration squares included) and the random legal games of `sheetkit.games.yuncos.play`.
Everything a player adds, and everything the camera does, is drawn here:

* **The game.** A random legal game on the Easy or the Hard level, a solo game or one
  player's sheet of a table of 2-4 (`play_table`), its record kept as the truth; the
  numbered A4 sheet printed in English or (a third of the time) Spanish.
* **The pencil** (`Pencil`): graphite as coverage that darkens the print
  multiplicatively, its darkness, width and pressure per player, broken up by the paper's
  tooth (a grain texture); overlapping strokes darken further. Rubbed-out marks are a
  separate, blurred, faint layer.
* **The flight**: each turn drawn as one or a few strokes along the grid lines, a little
  off the line, wobbling, corners cut or overshot, the pencil lifted now and then at a
  vertex or around the icons the player does not want to cover; each turn's end marked
  in the player's way (a pressed dot, a small ring, a tick across the line, a small
  cross, or a dot with the turn's number beside it), now and then in another way or
  forgotten. The start point is circled, ticked or filled in.
* **The digits** (`Hand`): stroke skeletons of 1-6, three or four shapes each (a plain
  or flagged or footed 1, a curved, looped or Z-like 2, a round or flat-topped 3, an
  open, closed or "h" 4, ...), one shape per digit and per player, jittered at every
  stroke, slanted, sized and placed as that player writes; or, for a few players, the
  digits of a plain system typeface (Liberation, DejaVu Serif: not the faces sheetkit
  prints with). Puzzle boxes, the dice log (the two dice as the record lists them), and
  on some finished sheets the score boxes. A wrong digit rubbed out under a right one
  now and then.
* **The boxes**: fish and crash counters and the ability boxes marked with a slash, a
  backslash, a cross, a tick, a filled-in scribble or a loop, in a style per player
  with exceptions; now and then a box marked and rubbed out again, and a wrong step of
  the flight rubbed out.
* **The camera** (`photograph`): the sheet on a table (wood, laminate, cloth, a white
  desk), dice and a pencil lying beside it; a pinhole phone camera (a 26 mm-equivalent
  field of view) tilted up to 35 degrees about any axis and turned any angle; the paper
  bowed, lifted at an edge or creased (a smooth height field, projected, shading its
  slopes); a lamp's falloff, its colour half corrected by white balance, vignetting, the
  shadow of a hand and arm; defocus (varying across a tilted sheet) and motion blur;
  shot and read noise for the exposure, amplified in low light; the phone's noise
  reduction (bilateral, median or chroma smoothing) and sharpening; JPEG at quality
  60-90 with 4:2:0 chroma, sometimes stored turned with an EXIF orientation tag; the
  sheet 5 to 14 px/mm on 12, 8, 5, 3 and 2 megapixel frames.

Three tiers differ in the camera only (the pencil is drawn from the same distributions):
**easy** (flat, square-on within 8 degrees, a quarter turn at most off, good light, 9-13.5
px/mm), **medium** (a phone photo at a table: 5-22 degrees, any angle, a lamp, often a
shadow, 6.5-11 px/mm) and **hard** (20-35 degrees, a hand's shadow, low light, blur, small:
5-7.5 px/mm, JPEG 60-75).

    python bench/unseen/simulate.py --seed 3 --tier medium --out /tmp/sheets

writes `<name>.jpg` (the photo), `<name>.toml` (the true record) and `<name>.json` (the
tier, the level, the camera and pencil parameters). Everything follows from the seed.
`--pencil end_style=dot,drift=0` fixes some of the player's ways (the fields of `Player`),
to see which of them a reading depends on.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import random
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from sheetkit import layouts
from sheetkit.games.yuncos.compose import compose, sheet_geometry
from sheetkit.games.yuncos.play import play, play_table, to_toml
from sheetkit.paper import pads, png

TIERS = ("easy", "medium", "hard")
UNIT = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
DIAG = {"NE": (1, -1), "NW": (-1, -1), "SE": (1, 1), "SW": (-1, 1)}
NAMES = ("Ana", "Bea", "Carlos", "Dani", "Eva", "Fer")
FONT_DIR = Path("/usr/share/fonts/truetype")
FONTS = ("liberation/LiberationSans-Italic.ttf", "liberation/LiberationSerif-Italic.ttf",
         "dejavu/DejaVuSerif-Italic.ttf", "liberation/LiberationMono-Regular.ttf",
         "liberation/LiberationSansNarrow-Regular.ttf")


# ---- the record, as it lies on paper -------------------------------------------------------

def flight_steps(text: str) -> list[tuple[int, int]]:
    """The steps of a record's flight ("E E N", "3E N", "NE E E", "EEN"); ValueError if
    it is not written in the records' notation."""
    out: list[tuple[int, int]] = []
    for tok in re.split(r"[\s,]+", str(text).strip().upper()):
        if not tok:
            continue
        if tok in DIAG:
            out.append(DIAG[tok])
            continue
        m = re.fullmatch(r"(\d+)([NESW])", tok)
        if m:
            out += [UNIT[m.group(2)]] * int(m.group(1))
            continue
        if not re.fullmatch(r"[NESW]+", tok):
            raise ValueError(f"not a flight token: {tok!r}")
        out += [UNIT[c] for c in tok]
    return out


def canon_box(name: str) -> str:
    """An ability box's long name: nest1.2 -> nest1.ability2, lum3 -> lum3.ability,
    fish2 -> fish2.ability (names ignore case and spaces)."""
    n = re.sub(r"\s+", "", str(name)).lower()
    m = re.fullmatch(r"nest(\d+)\.(?:ability)?(\d+)", n)
    if m:
        return f"nest{m.group(1)}.ability{m.group(2)}"
    m = re.fullmatch(r"(lum|fish)(\d+)(?:\.ability)?", n)
    if m:
        return f"{m.group(1)}{m.group(2)}.ability"
    return n


def ability_boxes(spec, g) -> dict[str, tuple[float, float, float, float]]:
    """Every ability box of a level, by long name, with its rectangle (mm)."""
    out = {}
    for r, row in enumerate(spec.nests.abilities):
        for k in range(len(row)):
            out[f"nest{r + 1}.ability{k + 1}"] = g.nest_ability(r, k)
    for c in range(spec.luminaries.columns):
        out[f"lum{c + 1}.ability"] = g.lum_ability(c)
    for key in spec.fish.abilities:
        out[f"fish{int(key)}.ability"] = g.fish_ability(int(key) - 1)
    return out


def resolve_cells(record: dict) -> list[str | None]:
    """Each turn's puzzle box as an explicit name (nest1.3, lum2.1), None for a crash:
    a short name (nest1, lum2) is the group's next free box."""
    filled: dict[str, int] = {}
    out: list[str | None] = []
    for t in record.get("turn", []):
        p = t.get("puzzle")
        if not isinstance(p, str):
            out.append(None)
            continue
        m = re.fullmatch(r"(nest|lum)(\d+)(?:\.(\d+))?", re.sub(r"\s+", "", p).lower())
        if not m:
            out.append(p)
            continue
        group = f"{m.group(1)}{m.group(2)}"
        idx = int(m.group(3)) if m.group(3) else filled.get(group, 0) + 1
        filled[group] = max(filled.get(group, 0), idx)
        out.append(f"{group}.{idx}")
    return out


@dataclass
class OnPaper:
    """What a record puts on its sheet, in page millimetres."""

    start: tuple[float, float]
    start_r: float
    turns: list[list[tuple[float, float]]]  # each turn's points, its start first
    digits: list[tuple[int, tuple, str]]  # (digit, box, "puzzle" | "dice")
    marked: list[tuple[tuple, str]]  # (box, "counter" | "ability")
    unmarked: list[tuple[tuple, str]]  # boxes left empty (a rubbed-out mark may lie there)
    empty_cells: list[tuple]  # puzzle boxes left empty
    icons: list[tuple[float, float]]  # stars, fish and lights on the map
    square: float


def on_paper(layout, record: dict, g) -> OnPaper:
    spec = layout.spec
    b = spec.board
    v = b.starts[record["start"]]
    start = g.vertex(v)
    turns = []
    for t in record["turn"]:
        pts = [g.vertex(v)]
        for dx, dy in flight_steps(t["flight"]):
            v = (v[0] + dx, v[1] + dy)
            pts.append(g.vertex(v))
        turns.append(pts)
    digits: list[tuple[int, tuple, str]] = []
    used_cells = set()
    for i, (t, cell) in enumerate(zip(record["turn"], resolve_cells(record)), 1):
        if cell:
            group, idx = cell.split(".")
            box = (g.nest_box(int(group[4:]) - 1, int(idx) - 1) if group.startswith("nest")
                   else g.lum_box(int(group[3:]) - 1, int(idx) - 1))
            used_cells.add(cell)
            digits.append((int(t["value"]), box, "puzzle"))
        if "dice" in t:
            digits.append((int(t["dice"][0]), g.dice_box(i, 0), "dice"))
            digits.append((int(t["dice"][1]), g.dice_box(i, 1), "dice"))
    empty = [g.nest_box(r, i) for r in range(2) for i in range(spec.nests.length)
             if f"nest{r + 1}.{i + 1}" not in used_cells]
    empty += [g.lum_box(c, lv) for c in range(spec.luminaries.columns) for lv in range(spec.luminaries.height)
              if f"lum{c + 1}.{lv + 1}" not in used_cells]
    marked, unmarked = [], []
    for i in range(len(spec.fish.values)):
        (marked if i < record["fish_marked"] else unmarked).append((g.fish_box(i), "counter"))
    for i in range(6):
        (marked if i < record["crashes_marked"] else unmarked).append((g.crash_box(i), "counter"))
    used = {canon_box(u) for u in record.get("used", [])}
    for name, box in ability_boxes(spec, g).items():
        (marked if name in used else unmarked).append((box, "ability"))
    icons = [g.vertex(p) for p in (*b.stars, *b.fish, *b.lights)]
    return OnPaper(start, max(g.square * 0.26, 2.0), turns, digits, marked, unmarked, empty, icons, g.square)


# ---- pencil --------------------------------------------------------------------------------

class Pencil:
    """Graphite on the page at `k` px/mm: coverage layers, combined by `darkness`."""

    def __init__(self, shape: tuple[int, int], k: float):
        self.k = k
        self.ink = np.zeros(shape, np.float32)
        self.ghost = np.zeros(shape, np.float32)  # rubbed out: blurred and faint in the end

    def stroke(self, pts, width: float, pressure=1.0, ghost: bool = False) -> None:
        """A polyline (mm) `width` mm wide; `pressure` (0-1) per point or one value."""
        p = np.asarray(pts, np.float64) * self.k
        if len(p) == 0:
            return
        if len(p) == 1:
            p = np.vstack([p, p])
        pr = np.broadcast_to(np.asarray(pressure, np.float64), (len(p),))
        wpx = max(1.0, width * self.k)
        pad = int(wpx) + 3
        layer = self.ghost if ghost else self.ink
        H, W = layer.shape
        x0, y0 = max(int(p[:, 0].min()) - pad, 0), max(int(p[:, 1].min()) - pad, 0)
        x1, y1 = min(int(p[:, 0].max()) + pad + 1, W), min(int(p[:, 1].max()) + pad + 1, H)
        if x1 <= x0 or y1 <= y0:
            return
        canvas = np.zeros((y1 - y0, x1 - x0), np.uint8)
        q = np.round((p - (x0, y0)) * 16).astype(np.int32)
        for i in range(len(q) - 1):
            a = 0.5 * (pr[i] + pr[i + 1])
            th = max(1, int(round(wpx * (0.7 + 0.3 * a))))
            cv2.line(canvas, (int(q[i, 0]), int(q[i, 1])), (int(q[i + 1, 0]), int(q[i + 1, 1])),
                     int(255 * min(1.0, 0.5 + 0.5 * a)), th, cv2.LINE_AA, 4)
        cov = canvas.astype(np.float32) / 255.0
        cov = cv2.GaussianBlur(cov, (0, 0), max(0.4, 0.14 * wpx))  # graphite thins out at the line's edges
        roi = layer[y0:y1, x0:x1]
        roi[...] = 1.0 - (1.0 - roi) * (1.0 - cov)

    def blob(self, c, rx: float, ry: float, angle: float, pressure: float) -> None:
        """A filled, pressed-in spot (mm): a dot at a turn's end."""
        H, W = self.ink.shape
        k = self.k
        pad = int((max(rx, ry) + 1) * k) + 2
        cx, cy = c[0] * k, c[1] * k
        x0, y0 = max(int(cx) - pad, 0), max(int(cy) - pad, 0)
        x1, y1 = min(int(cx) + pad, W), min(int(cy) + pad, H)
        if x1 <= x0 or y1 <= y0:
            return
        canvas = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.ellipse(canvas, (int(round((cx - x0) * 16)), int(round((cy - y0) * 16))),
                    (max(1, int(rx * k * 16)), max(1, int(ry * k * 16))), angle, 0, 360,
                    int(255 * pressure), -1, cv2.LINE_AA, 4)
        cov = canvas.astype(np.float32) / 255.0
        roi = self.ink[y0:y1, x0:x1]
        roi[...] = 1.0 - (1.0 - roi) * (1.0 - cov)

    def darkness(self, rng: np.random.Generator, dmax: float, grain: float, residue: float) -> np.ndarray:
        """The share of light the graphite takes away, per pixel (0-1)."""
        k = self.k
        ghost = cv2.GaussianBlur(self.ghost, (0, 0), max(0.5, 0.3 * k)) * residue
        a = 1.0 - (1.0 - self.ink) * (1.0 - ghost)
        tile = rng.random((512, 512), dtype=np.float32)
        tile = cv2.GaussianBlur(tile, (0, 0), max(0.6, 0.04 * k), borderType=cv2.BORDER_REFLECT)
        tile = np.clip((tile - tile.mean()) / (tile.std() + 1e-6) * 0.35 + 0.5, 0, 1)
        H, W = a.shape
        tooth = np.tile(tile, (H // 512 + 1, W // 512 + 1))[:H, :W]
        # d = dmax * a * (1 - grain * (1 - tooth) * (1 - a / 2)), in place
        tooth -= 1.0
        tooth *= grain
        tooth *= 1.0 - 0.5 * a
        tooth += 1.0
        tooth *= a
        tooth *= dmax
        return np.clip(tooth, 0, 0.97, out=tooth)


def _smooth_noise(rng: random.Random, n: int, wavelength: float, ds: float) -> np.ndarray:
    """A smooth random wave of unit amplitude over n samples ds mm apart."""
    s = np.arange(n) * ds
    out = np.zeros(n)
    for _ in range(3):
        lam = wavelength * rng.uniform(0.5, 1.6)
        out += math.sqrt(2 / 3) * np.sin(2 * math.pi * s / lam + rng.uniform(0, 2 * math.pi))
    return out


def _densify(pts, ds: float) -> np.ndarray:
    p = np.asarray(pts, np.float64)
    out = [p[0]]
    for a, b in zip(p, p[1:]):
        d = float(np.hypot(*(b - a)))
        n = max(1, int(math.ceil(d / ds)))
        for j in range(1, n + 1):
            out.append(a + (b - a) * j / n)
    return np.array(out)


def _round_corners(pts, r: float) -> list:
    """Cut every corner of a polyline by up to r mm with a quadratic curve."""
    p = [np.asarray(q, np.float64) for q in pts]
    if len(p) < 3 or r <= 0:
        return p
    out = [p[0]]
    for a, v, b in zip(p, p[1:], p[2:]):
        da, db = v - a, b - v
        la, lb = np.hypot(*da), np.hypot(*db)
        if la == 0 or lb == 0 or abs(da[0] * db[1] - da[1] * db[0]) / (la * lb) < 1e-6:
            out.append(v)
            continue
        rr = min(r, 0.45 * la, 0.45 * lb)
        p0, p2 = v - da / la * rr, v + db / lb * rr
        for t in np.linspace(0, 1, 6):
            out.append((1 - t) ** 2 * p0 + 2 * t * (1 - t) * v + t * t * p2)
    out.append(p[-1])
    return out


def hand_line(pts, rng: random.Random, amp: float, drift: tuple[float, float], corner: float,
              start_ext: float, end_ext: float, ds: float = 0.25) -> np.ndarray:
    """A hand-drawn version of a polyline (mm): ends extended (or cut short) along the line,
    corners cut, a smooth wobble across it and a constant drift off it."""
    p = [np.asarray(q, np.float64) for q in pts]
    if len(p) >= 2:
        d0 = p[1] - p[0]
        n0 = np.hypot(*d0)
        if n0 > 0:
            p[0] = p[0] - d0 / n0 * start_ext
        d1 = p[-1] - p[-2]
        n1 = np.hypot(*d1)
        if n1 > 0:
            p[-1] = p[-1] + d1 / n1 * end_ext
    p = _round_corners(p, corner)
    q = _densify(p, ds)
    if len(q) < 2:
        return q + np.asarray(drift)
    t = np.gradient(q, axis=0)
    t /= np.maximum(np.hypot(t[:, 0], t[:, 1]), 1e-9)[:, None]
    nrm = np.stack([-t[:, 1], t[:, 0]], axis=1)
    wob = amp * _smooth_noise(rng, len(q), rng.uniform(6, 18), ds)
    wob += amp * 0.15 * np.array([rng.gauss(0, 1) for _ in range(len(q))])
    wob = np.convolve(wob, np.ones(5) / 5, mode="same")
    return q + nrm * wob[:, None] + np.asarray(drift)


def pressure_profile(n: int, rng: random.Random, base: float, ds: float = 0.25, taper: float = 1.2) -> np.ndarray:
    """Pressure along a stroke of n samples: a slow swell and lighter ends."""
    s = np.arange(n) * ds
    length = s[-1] if n else 0
    p = base * (1 + 0.12 * _smooth_noise(rng, n, 12, ds))
    tp = max(0.3, taper * rng.uniform(0.5, 1.5))
    ramp = np.clip(np.minimum(s, length - s) / tp, 0, 1)
    p *= 0.45 + 0.55 * ramp
    return np.clip(p, 0.1, 1.0)


# ---- handwriting ----------------------------------------------------------------------------
# Digits as strokes in a unit box (x right, y down); a repeated point is a sharp corner.

SKELETONS: dict[int, list[list[list[tuple[float, float]]]]] = {
    1: [
        [[(0.5, 0.0), (0.5, 1.0)]],
        [[(0.15, 0.28), (0.52, 0.0), (0.52, 0.0), (0.5, 1.0)]],
        [[(0.18, 0.25), (0.52, 0.0), (0.52, 0.0), (0.5, 1.0)], [(0.15, 1.0), (0.85, 1.0)]],
        [[(0.0, 0.42), (0.35, 0.18), (0.62, 0.0), (0.62, 0.0), (0.56, 0.5), (0.5, 1.0)]],
    ],
    2: [
        [[(0.08, 0.25), (0.3, 0.03), (0.65, 0.0), (0.9, 0.22), (0.8, 0.5), (0.4, 0.78), (0.05, 1.0),
          (0.05, 1.0), (0.5, 0.98), (0.95, 1.0)]],
        [[(0.12, 0.22), (0.42, 0.0), (0.85, 0.12), (0.8, 0.45), (0.32, 0.85), (0.12, 0.98), (0.22, 0.8),
          (0.42, 0.92), (0.95, 1.0)]],
        [[(0.08, 0.12), (0.5, 0.0), (0.88, 0.14), (0.86, 0.32), (0.05, 1.0), (0.05, 1.0), (0.95, 1.0)]],
    ],
    3: [
        [[(0.08, 0.15), (0.45, 0.0), (0.85, 0.15), (0.8, 0.38), (0.4, 0.48), (0.4, 0.48), (0.85, 0.6),
          (0.92, 0.85), (0.5, 1.0), (0.05, 0.88)]],
        [[(0.08, 0.0), (0.88, 0.0), (0.88, 0.0), (0.38, 0.42), (0.38, 0.42), (0.85, 0.56), (0.92, 0.82),
          (0.5, 1.0), (0.05, 0.88)]],
        [[(0.02, 0.22), (0.35, 0.0), (0.78, 0.08), (0.72, 0.36), (0.28, 0.5), (0.28, 0.5), (0.8, 0.62),
          (0.86, 0.9), (0.4, 1.0), (0.0, 0.84)]],
    ],
    4: [
        [[(0.58, 0.0), (0.05, 0.68), (0.05, 0.68), (0.95, 0.68)], [(0.72, 0.28), (0.72, 1.0)]],
        [[(0.72, 1.0), (0.72, 0.0), (0.72, 0.0), (0.05, 0.68), (0.05, 0.68), (0.95, 0.68)]],
        [[(0.15, 0.0), (0.1, 0.6), (0.1, 0.6), (0.92, 0.6)], [(0.7, 0.05), (0.7, 1.0)]],
    ],
    5: [
        [[(0.22, 0.02), (0.16, 0.45), (0.16, 0.45), (0.55, 0.38), (0.88, 0.6), (0.85, 0.88), (0.5, 1.0),
          (0.08, 0.88)], [(0.22, 0.02), (0.88, 0.0)]],
        [[(0.9, 0.0), (0.22, 0.02), (0.22, 0.02), (0.16, 0.45), (0.16, 0.45), (0.55, 0.38), (0.9, 0.62),
          (0.82, 0.9), (0.45, 1.0), (0.1, 0.85)]],
        [[(0.86, 0.02), (0.26, 0.02), (0.26, 0.02), (0.18, 0.42), (0.6, 0.35), (0.93, 0.65), (0.7, 0.97),
          (0.3, 0.98), (0.06, 0.8)]],
    ],
    6: [
        [[(0.8, 0.05), (0.45, 0.05), (0.15, 0.45), (0.1, 0.75), (0.4, 1.0), (0.8, 0.9), (0.85, 0.65),
          (0.5, 0.5), (0.15, 0.7)]],
        [[(0.72, 0.0), (0.72, 0.0), (0.2, 0.6), (0.15, 0.82), (0.45, 1.0), (0.82, 0.85), (0.75, 0.6),
          (0.4, 0.55), (0.18, 0.72)]],
        [[(0.86, 0.14), (0.6, 0.0), (0.25, 0.14), (0.08, 0.55), (0.2, 0.92), (0.55, 1.0), (0.88, 0.78),
          (0.7, 0.5), (0.35, 0.52), (0.1, 0.72)]],
    ],
}
# a digit 0, 7, 8, 9 is only needed for the score boxes
SKELETONS[0] = [[[(0.5, 0.0), (0.12, 0.25), (0.1, 0.7), (0.5, 1.0), (0.88, 0.72), (0.88, 0.25), (0.5, 0.0),
                  (0.45, 0.04)]]]
SKELETONS[7] = [[[(0.05, 0.02), (0.92, 0.0), (0.92, 0.0), (0.38, 1.0)]],
                [[(0.05, 0.02), (0.92, 0.0), (0.92, 0.0), (0.38, 1.0)], [(0.3, 0.5), (0.8, 0.5)]]]
SKELETONS[8] = [[[(0.55, 0.48), (0.85, 0.22), (0.55, 0.0), (0.18, 0.2), (0.5, 0.48), (0.9, 0.75), (0.5, 1.0),
                  (0.1, 0.75), (0.55, 0.48)]]]
SKELETONS[9] = [[[(0.85, 0.3), (0.5, 0.48), (0.15, 0.3), (0.45, 0.0), (0.85, 0.18), (0.85, 0.3),
                  (0.8, 0.7), (0.6, 1.0)]]]


def catmull_rom(pts, per: int = 10) -> np.ndarray:
    p = np.asarray(pts, np.float64)
    if len(p) < 3:
        return _densify(p, np.hypot(*(p[-1] - p[0])) / per + 1e-9) if len(p) == 2 else p
    ext = np.vstack([2 * p[0] - p[1], p, 2 * p[-1] - p[-2]])
    out = []
    for i in range(1, len(ext) - 2):
        p0, p1, p2, p3 = ext[i - 1], ext[i], ext[i + 1], ext[i + 2]
        for t in np.linspace(0, 1, per, endpoint=False):
            t2, t3 = t * t, t * t * t
            out.append(0.5 * ((2 * p1) + (-p0 + p2) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t2
                              + (-p0 + 3 * p1 - 3 * p2 + p3) * t3))
    out.append(p[-1])
    return np.array(out)


def _skeleton_stroke(shape: np.ndarray, half: float) -> np.ndarray:
    """The morphological skeleton of a filled shape, drawn `half` px either side: a glyph's
    outline turned into a pencil stroke of even width (0-1 coverage)."""
    img = shape.astype(np.uint8)
    skel = np.zeros_like(img)
    cross = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
    while img.any():
        eroded = cv2.erode(img, cross)
        skel |= img & (1 - cv2.dilate(eroded, cross))
        img = eroded
    dist = cv2.distanceTransform((1 - skel).astype(np.uint8), cv2.DIST_L2, 3)
    a = np.clip(half + 0.5 - dist, 0, 1).astype(np.float32)
    return cv2.GaussianBlur(a, (0, 0), max(0.4, 0.3 * half))


class Hand:
    """One player's way of writing digits."""

    def __init__(self, rng: random.Random):
        self.shape = {d: rng.randrange(len(SKELETONS[d])) for d in SKELETONS}
        self.slant = rng.gauss(0.12, 0.14)
        self.size = rng.uniform(0.5, 0.8)
        self.aspect = rng.uniform(0.48, 0.75)
        self.width = rng.uniform(0.26, 0.5)
        self.pressure = rng.uniform(0.72, 1.0)
        self.jitter = rng.uniform(0.015, 0.05)
        self.place = (rng.gauss(0, 0.06), rng.gauss(0.02, 0.06))
        self.scatter = rng.uniform(0.03, 0.1)
        self.font = None
        if rng.random() < 0.15:
            path = FONT_DIR / rng.choice(FONTS)
            if path.exists():
                self.font = str(path)

    def describe(self) -> dict:
        return {"shapes": "".join(str(self.shape[d]) for d in range(1, 7)), "slant": round(self.slant, 2),
                "size": round(self.size, 2), "width": round(self.width, 2), "font": self.font and Path(self.font).stem}

    def write(self, pen: Pencil, rng: random.Random, text: str, box, ghost: bool = False, scale: float = 1.0) -> None:
        x, y, w, h = box
        H = h * self.size * scale * rng.uniform(0.9, 1.1)
        W = H * self.aspect * rng.uniform(0.92, 1.08)
        gap = W * rng.uniform(0.25, 0.45)
        total = len(text) * W + (len(text) - 1) * gap
        cx = x + w / 2 + (self.place[0] + rng.gauss(0, self.scatter)) * w - total / 2 + W / 2
        cy = y + h / 2 + (self.place[1] + rng.gauss(0, self.scatter)) * h
        cy = min(max(cy, y + H * 0.42), y + h - H * 0.42)
        rot = math.radians(rng.gauss(0, 4))
        for ch in text:
            if ch == "-":
                pts = hand_line([(cx - W * 0.4, cy), (cx + W * 0.4, cy - W * 0.05)], rng, 0.05, (0, 0), 0, 0, 0)
                pen.stroke(pts, self.width, self.pressure, ghost)
            elif self.font:
                self._font_digit(pen, rng, ch, (cx, cy), H, rot, ghost)
            else:
                self._digit(pen, rng, int(ch), (cx, cy), W, H, rot, ghost)
            cx += W + gap

    def _digit(self, pen, rng, d, c, W, H, rot, ghost):
        shape = SKELETONS[d][self.shape.get(d, 0) % len(SKELETONS[d])]
        cr, sr = math.cos(rot), math.sin(rot)
        for stroke in shape:
            pts = np.array(stroke, np.float64) + np.array([[rng.gauss(0, self.jitter), rng.gauss(0, self.jitter)]
                                                           for _ in stroke])
            pts = catmull_rom(pts, 9)
            u, v = pts[:, 0] - 0.5, pts[:, 1] - 0.5
            px = u * W + self.slant * (-v) * H
            py = v * H
            mm = np.stack([c[0] + cr * px - sr * py, c[1] + sr * px + cr * py], axis=1)
            n = len(mm)
            pr = self.pressure * (0.8 + 0.2 * np.sin(np.linspace(0, math.pi, n))) * rng.uniform(0.85, 1.05)
            pr[: max(1, n // 12)] *= 0.7
            pr[-max(1, n // 10):] *= 0.6
            pen.stroke(mm, self.width * rng.uniform(0.9, 1.1), np.clip(pr, 0.1, 1), ghost)

    def _font_digit(self, pen, rng, ch, c, H, rot, ghost):
        k = pen.k
        px = max(8, int(H * k * 1.35))
        font = ImageFont.truetype(self.font, px)
        img = Image.new("L", (px * 2, px * 2), 0)
        ImageDraw.Draw(img).text((px, px), ch, font=font, fill=255, anchor="mm")
        a = np.asarray(img, np.float32) / 255.0
        M = cv2.getRotationMatrix2D((px, px), -math.degrees(rot), 1.0)
        M[0, 1] += self.slant * 0.3
        a = cv2.warpAffine(a, M, (px * 2, px * 2))
        # a typeface's strokes are wider than a pencil's, and uneven: draw its skeleton with
        # the pencil's width instead
        a = _skeleton_stroke(a > 0.5, 0.5 * self.width * k)
        a *= self.pressure * rng.uniform(0.8, 1.0)
        layer = pen.ghost if ghost else pen.ink
        Hh, Ww = layer.shape
        x0, y0 = int(c[0] * k) - px, int(c[1] * k) - px
        xs, ys = max(0, -x0), max(0, -y0)
        x1, y1 = min(Ww, x0 + 2 * px), min(Hh, y0 + 2 * px)
        if x1 <= max(x0, 0) or y1 <= max(y0, 0):
            return
        roi = layer[max(y0, 0):y1, max(x0, 0):x1]
        sub = a[ys:ys + roi.shape[0], xs:xs + roi.shape[1]]
        roi[...] = 1.0 - (1.0 - roi) * (1.0 - sub)


# ---- a player's sheet -------------------------------------------------------------------------

END_STYLES = ("dot", "ring", "tick", "cross", "numbered")
BOX_STYLES = ("slash", "backslash", "cross", "tick", "fill", "loop")


@dataclass
class Player:
    """How one player pencils a sheet."""

    width: float
    dmax: float
    grain: float
    pressure: float
    wobble: float
    drift: float
    corner: float
    lift: float
    skirt: float  # radius (mm) left clear around icons, 0 if the player draws over them
    end_style: str
    end_size: float
    forget: float
    counter_style: str
    ability_style: str
    start_style: str
    hand: Hand
    extras: dict = field(default_factory=dict)

    @classmethod
    def random(cls, rng: random.Random) -> "Player":
        hand = Hand(rng)
        counter = rng.choice(BOX_STYLES)
        return cls(
            width=rng.uniform(0.28, 0.55), dmax=rng.uniform(0.68, 0.95), grain=rng.uniform(0.15, 0.5),
            pressure=rng.uniform(0.75, 1.0), wobble=rng.uniform(0.06, 0.3), drift=rng.uniform(0.0, 0.35),
            corner=rng.uniform(0.0, 0.9), lift=rng.uniform(0.0, 0.2),
            skirt=rng.uniform(1.4, 2.6) if rng.random() < 0.25 else 0.0,
            end_style=rng.choices(END_STYLES, (35, 25, 20, 10, 10))[0], end_size=rng.uniform(0.8, 1.25),
            forget=0.02, counter_style=counter,
            ability_style=counter if rng.random() < 0.5 else rng.choice(BOX_STYLES),
            start_style=rng.choices(("ring", "tick", "fill"), (65, 15, 20))[0], hand=hand)

    def describe(self) -> dict:
        return {"width": round(self.width, 2), "dmax": round(self.dmax, 2), "wobble": round(self.wobble, 2),
                "skirt": round(self.skirt, 2), "end": self.end_style, "counter": self.counter_style,
                "ability": self.ability_style, "start": self.start_style, "hand": self.hand.describe(),
                **self.extras}


def _line(pen, rng, me: Player, pts, width=None, pressure=None, ghost=False, amp=None, ext=(0.2, 0.2)):
    q = hand_line(pts, rng, me.wobble * 0.5 if amp is None else amp, (rng.gauss(0, 0.1), rng.gauss(0, 0.1)),
                  0.0, rng.uniform(-ext[0], ext[0]), rng.uniform(-ext[1], ext[1]))
    pr = pressure_profile(len(q), rng, me.pressure if pressure is None else pressure, taper=0.5)
    pen.stroke(q, me.width if width is None else width, pr, ghost)


def mark_box(pen: Pencil, rng: random.Random, me: Player, box, style: str, ghost: bool = False) -> None:
    x, y, w, h = box
    cx, cy = x + w / 2 + rng.gauss(0, 0.04) * w, y + h / 2 + rng.gauss(0, 0.04) * h
    s = min(w, h) * rng.uniform(0.55, 1.0)
    wd = me.width * rng.uniform(0.8, 1.1)
    if style in ("slash", "cross"):
        _line(pen, rng, me, [(cx - s * 0.42, cy + s * 0.45), (cx + s * 0.42, cy - s * 0.45)], wd, ghost=ghost)
    if style in ("backslash", "cross"):
        _line(pen, rng, me, [(cx - s * 0.42, cy - s * 0.45), (cx + s * 0.42, cy + s * 0.45)], wd, ghost=ghost)
    if style == "tick":
        _line(pen, rng, me, [(cx - s * 0.4, cy - s * 0.02), (cx - s * 0.12, cy + s * 0.35), (cx + s * 0.45, cy - s * 0.45)],
              wd, ghost=ghost)
    if style == "fill":
        n = max(4, int(s / max(0.35, wd * 0.9)))
        pts = []
        for i in range(n + 1):
            yy = cy - s * 0.42 + s * 0.84 * i / n
            pts.append((cx - s * 0.42 + rng.gauss(0, 0.15), yy) if i % 2 == 0 else (cx + s * 0.42 + rng.gauss(0, 0.15), yy + s * 0.03))
        q = hand_line(pts, rng, 0.05, (0, 0), 0.2, 0, 0)
        pen.stroke(q, wd * 1.2, pressure_profile(len(q), rng, me.pressure * 0.9), ghost)
    if style == "loop":
        t = np.linspace(0, 2 * math.pi + rng.uniform(0.2, 0.8), 60)
        r = s * 0.38 * (1 + 0.06 * np.sin(3 * t + rng.uniform(0, 6)))
        q = np.stack([cx + r * np.cos(t + 1), cy + 0.9 * r * np.sin(t + 1)], axis=1)
        pen.stroke(q, wd, pressure_profile(len(q), rng, me.pressure), ghost)


def end_mark(pen: Pencil, rng: random.Random, me: Player, at, before, style: str, turn: int) -> None:
    """Mark a turn's end at `at` (mm), the flight arriving from `before`."""
    e = me.end_size
    x, y = at[0] + rng.gauss(0, 0.12), at[1] + rng.gauss(0, 0.12)
    dx, dy = at[0] - before[0], at[1] - before[1]
    n = math.hypot(dx, dy) or 1.0
    dx, dy = dx / n, dy / n
    if style in ("dot", "numbered"):
        r = rng.uniform(0.45, 0.85) * e
        pen.blob((x, y), r, r * rng.uniform(0.75, 1.0), rng.uniform(0, 180), min(1.0, me.pressure * 1.15))
        t = np.linspace(0, 4 * math.pi, 40)  # pressed in with a small circling
        q = np.stack([x + r * 0.5 * np.cos(t), y + r * 0.5 * np.sin(t)], axis=1)
        pen.stroke(q, me.width, 1.0)
    if style == "ring":
        r = rng.uniform(0.9, 1.6) * e
        a0 = rng.uniform(0, 2 * math.pi)
        t = np.linspace(a0, a0 + 2 * math.pi + rng.uniform(0.1, 0.7), 70)
        rr = r * (1 + 0.08 * np.sin(2 * t + rng.uniform(0, 6)))
        q = np.stack([x + rr * np.cos(t), y + rr * np.sin(t) * rng.uniform(0.85, 1.0)], axis=1)
        pen.stroke(q, me.width * 0.9, pressure_profile(len(q), rng, me.pressure, taper=0.6))
    if style == "tick":
        a = math.atan2(dy, dx) + math.pi / 2 + math.radians(rng.gauss(0, 18))
        L = rng.uniform(1.0, 1.7) * e
        _line(pen, rng, me, [(x - L * math.cos(a), y - L * math.sin(a)), (x + L * math.cos(a), y + L * math.sin(a))],
              ext=(0.1, 0.1))
    if style == "cross":
        L = rng.uniform(0.8, 1.3) * e
        a = math.radians(45 + rng.gauss(0, 10))
        for b in (a, a + math.pi / 2):
            _line(pen, rng, me, [(x - L * math.cos(b), y - L * math.sin(b)), (x + L * math.cos(b), y + L * math.sin(b))],
                  ext=(0.1, 0.1))
    if style == "numbered":
        # the turn's number beside the dot, away from the arriving line
        side = rng.choice((-1, 1))
        ox, oy = -dy * side * 2.2 - dx * 0.6, dx * side * 2.2 - dy * 0.6
        box = (x + ox - 2.0, y + oy - 1.5, 4.0, 3.0)
        me.hand.write(pen, rng, str(turn), box, scale=0.9)


def draw_flight(pen: Pencil, rng: random.Random, me: Player, paper: OnPaper) -> dict:
    forgotten = []
    for ti, pts in enumerate(paper.turns, 1):
        # the strokes of a turn: lifts at some vertices
        pieces, cur = [], [pts[0]]
        for j, v in enumerate(pts[1:], 1):
            cur.append(v)
            if j < len(pts) - 1 and rng.random() < me.lift:
                pieces.append(cur)
                cur = [v]
        pieces.append(cur)
        drift = (rng.gauss(0, me.drift), rng.gauss(0, me.drift))
        for piece in pieces:
            if len(piece) < 2:
                continue
            q = hand_line(piece, rng, me.wobble, drift, me.corner * rng.uniform(0.5, 1.2),
                          rng.uniform(-0.5, 0.6), rng.uniform(-0.5, 0.7))
            pr = pressure_profile(len(q), rng, me.pressure * rng.uniform(0.85, 1.05))
            if me.skirt:
                keep = np.ones(len(q), bool)
                for ic in paper.icons:
                    d = np.hypot(q[:, 0] - ic[0], q[:, 1] - ic[1])
                    keep &= d > me.skirt
                runs, start = [], None
                for i, kflag in enumerate(keep):
                    if kflag and start is None:
                        start = i
                    if not kflag and start is not None:
                        runs.append((start, i))
                        start = None
                if start is not None:
                    runs.append((start, len(q)))
                for a, b in runs:
                    if b - a >= 2:
                        pen.stroke(q[a:b], me.width, pr[a:b])
            else:
                pen.stroke(q, me.width, pr)
        if rng.random() < me.forget:
            forgotten.append(ti)
            continue
        style = me.end_style if rng.random() > 0.1 else rng.choice(END_STYLES[:4])
        end_mark(pen, rng, me, pts[-1], pts[-2] if len(pts) > 1 else pts[-1], style, ti)
    return {"forgotten_ends": forgotten}


def draw_start(pen, rng, me: Player, paper: OnPaper) -> None:
    x, y = paper.start
    r = paper.start_r
    if me.start_style == "ring":
        rr = r + rng.uniform(0.5, 1.3)
        a0 = rng.uniform(0, 6.3)
        t = np.linspace(a0, a0 + 2 * math.pi + rng.uniform(0.2, 0.9), 90)
        q = np.stack([x + rr * np.cos(t) * (1 + 0.05 * np.sin(3 * t)), y + rr * np.sin(t)], axis=1)
        pen.stroke(q, me.width, pressure_profile(len(q), rng, me.pressure))
    elif me.start_style == "tick":
        s = r * 1.6
        _line(pen, rng, me, [(x + r * 0.7, y - s * 0.2), (x + r * 1.1, y + s * 0.3), (x + r * 2.1, y - s * 0.8)])
    else:  # scribbled over the printed number
        pts = []
        for i in range(9):
            yy = y - r * 0.8 + 1.6 * r * i / 8
            half = math.sqrt(max(0.0, r * r - (yy - y) ** 2)) * 0.9
            pts.append((x - half, yy) if i % 2 == 0 else (x + half, yy))
        q = hand_line(pts, rng, 0.04, (0, 0), 0.2, 0, 0)
        pen.stroke(q, me.width * 1.2, pressure_profile(len(q), rng, me.pressure))


def pencil_sheet(pen: Pencil, rng: random.Random, me: Player, paper: OnPaper, layout, g, record, extras) -> None:
    """Everything the player writes on the sheet."""
    draw_start(pen, rng, me, paper)
    info = draw_flight(pen, rng, me, paper)
    me.extras.update(info)
    # numbers and dice
    for d, box, kind in paper.digits:
        me.hand.write(pen, rng, str(d), box, scale=1.0 if kind == "puzzle" else 0.95)
    # counters and ability boxes
    for box, kind in paper.marked:
        style = me.counter_style if kind == "counter" else me.ability_style
        if rng.random() < 0.1:
            style = rng.choice(BOX_STYLES)
        mark_box(pen, rng, me, box, style)
    # rubbed out again: a box marked by mistake, a wrong digit under a right one, a wrong step
    rubbed = []
    if rng.random() < 0.45 and paper.unmarked:
        for box, kind in rng.sample(paper.unmarked, min(len(paper.unmarked), rng.randint(1, 3))):
            mark_box(pen, rng, me, box, me.counter_style if kind == "counter" else me.ability_style, ghost=True)
            rubbed.append("box")
    if rng.random() < 0.3 and paper.digits:
        for d, box, kind in rng.sample(paper.digits, min(len(paper.digits), rng.randint(1, 2))):
            wrong = rng.choice([x for x in range(1, 7) if x != d])
            me.hand.write(pen, rng, str(wrong), box, ghost=True)
            rubbed.append("digit")
    if rng.random() < 0.2 and paper.empty_cells:
        box = rng.choice(paper.empty_cells)
        me.hand.write(pen, rng, str(rng.randint(1, 6)), box, ghost=True)
        rubbed.append("empty cell")
    if rng.random() < 0.25:
        pts = rng.choice(paper.turns)
        v = rng.choice(pts)
        sq = paper.square
        dx, dy = rng.choice(list(UNIT.values()))
        path = [v]
        for _ in range(rng.randint(1, 2)):
            path.append((path[-1][0] + dx * sq, path[-1][1] + dy * sq))
        q = hand_line(path, rng, me.wobble, (0, 0), 0, 0, 0.2)
        pen.stroke(q, me.width, pressure_profile(len(q), rng, me.pressure), ghost=True)
        rubbed.append("step")
    me.extras["rubbed_out"] = rubbed
    # the score, on some finished sheets; a name on a table sheet
    if extras.get("score") and rng.random() < 0.5:
        for name, value in extras["score"].items():
            box = g.score_box(name)
            text = str(abs(value))
            me.hand.write(pen, rng, text, box, scale=0.85)
        me.extras["score_written"] = True
    if extras.get("name"):
        x = g.ox + g.content_w - 40
        y = g.header_y - 6.5
        _name(pen, rng, me, extras["name"], (x, y))


def _name(pen, rng, me: Player, name: str, at) -> None:
    """A name on the header's line: a quick joined scrawl (letters are not read by anybody)."""
    x, y = at
    pts = []
    for i, ch in enumerate(name):
        h = 3.2 if ch.isupper() or ch in "bdfhklt" else 2.0
        for t in np.linspace(0, math.pi, 5):
            pts.append((x + i * 2.1 + t / math.pi * 1.8 + 0.8 * math.sin(t) * 0.3, y + 3.6 - h * math.sin(t) * rng.uniform(0.8, 1.1)))
    q = hand_line(pts, rng, 0.05, (0, 0), 0.2, 0, 0)
    pen.stroke(q, me.width * 0.8, pressure_profile(len(q), rng, me.pressure))


# ---- the printed sheet with its pencil ---------------------------------------------------------

def srgb_to_linear(a: np.ndarray) -> np.ndarray:
    return np.where(a <= 0.04045, a / 12.92, ((a + 0.055) / 1.055) ** 2.4).astype(np.float32)


def linear_to_srgb(a: np.ndarray) -> np.ndarray:
    a = np.clip(a, 0, 1)
    return np.where(a <= 0.0031308, a * 12.92, 1.055 * np.power(a, 1 / 2.4) - 0.055).astype(np.float32)


TO_LINEAR = srgb_to_linear(np.arange(256, dtype=np.float32) / 255.0)


def printed_sheet(layout, serial: int, k: float, lang: str = "en") -> np.ndarray:
    """The numbered blank as printed (A4, in `lang`), RGB, linear light, `k` px/mm."""
    scene = pads.pad(compose(layout, "a4", lang), layout, 1, serial)
    img = png.page_image(scene, 0, dpi=k * 25.4)
    return TO_LINEAR[np.asarray(img)]


# ---- the camera ------------------------------------------------------------------------------

CAMERA = {
    "easy": dict(s=(9.0, 13.5), tilt=(0, 8), rot="quarter", bend=(0.0, 1.0), lamp=(0.03, 0.15), shadow=0.1,
                 exposure=(0.75, 1.0), blur=(0.35, 0.8), jpeg=(80, 90), motion=0.0),
    "medium": dict(s=(6.5, 11.0), tilt=(5, 22), rot="any", bend=(0.8, 3.0), lamp=(0.12, 0.35), shadow=0.5,
                   exposure=(0.45, 0.85), blur=(0.5, 1.3), jpeg=(70, 88), motion=0.15),
    "hard": dict(s=(5.0, 7.5), tilt=(20, 35), rot="any", bend=(2.0, 5.0), lamp=(0.25, 0.55), shadow=1.0,
                 exposure=(0.2, 0.45), blur=(0.8, 1.8), jpeg=(60, 75), motion=0.35),
}
SENSORS = ((4032, 3024), (4000, 3000), (3264, 2448), (2592, 1944), (2048, 1536), (1600, 1200))
PAGE = (210.0, 297.0)


def _rodrigues(axis, ang):
    a = np.asarray(axis, np.float64)
    a = a / np.linalg.norm(a)
    K = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + math.sin(ang) * K + (1 - math.cos(ang)) * K @ K


class Height:
    """The paper's height above the table (mm) as a smooth function of the page point."""

    def __init__(self, rng: random.Random, amount: float):
        self.terms = []
        if amount <= 0:
            return
        a = rng.uniform(0, math.pi)  # a gentle bow across the sheet
        self.terms.append(("bow", (math.cos(a), math.sin(a)), amount * rng.uniform(0.3, 1.0) * rng.choice((-1, 1))))
        if rng.random() < 0.6:  # one edge lifting
            a = rng.choice((0, 0.5, 1.0, 1.5)) * math.pi + rng.gauss(0, 0.2)
            self.terms.append(("lift", (math.cos(a), math.sin(a)), amount * rng.uniform(0.6, 1.6)))
        if rng.random() < 0.25:  # a fold, flattened again
            a = rng.choice((0.0, 0.5 * math.pi)) + rng.gauss(0, 0.03)
            self.terms.append(("fold", (math.cos(a), math.sin(a)), amount * rng.uniform(0.2, 0.6)))

    def __call__(self, X, Y):
        h = np.zeros_like(X)
        half = 0.5 * math.hypot(*PAGE)
        for kind, (ux, uy), amp in self.terms:
            t = (X * ux + Y * uy) / half  # -1 .. 1 across the sheet
            if kind == "bow":
                h += amp * (1 - t * t)
            elif kind == "lift":
                h += amp * np.clip((t - 0.35) / 0.65, 0, None) ** 2
            else:
                h += amp * np.exp(-(t / 0.06) ** 2)
        return h

    def describe(self):
        return [(k, round(a, 2)) for k, _, a in self.terms]


@dataclass
class Camera:
    W: int
    H: int
    f: float
    R: np.ndarray
    t: np.ndarray
    offset: np.ndarray
    height: Height

    def project(self, X, Y, Z):
        """Page point (mm from the page centre) at height Z -> image point."""
        P = np.stack([X, Y, -Z], axis=0).reshape(3, -1)
        Pc = self.R @ P + self.t[:, None]
        u = self.f * Pc[0] / Pc[2] + self.W / 2 + self.offset[0]
        v = self.f * Pc[1] / Pc[2] + self.H / 2 + self.offset[1]
        return u.reshape(np.shape(X)), v.reshape(np.shape(X))

    def flat(self) -> np.ndarray:
        K = np.array([[self.f, 0, self.W / 2 + self.offset[0]], [0, self.f, self.H / 2 + self.offset[1]], [0, 0, 1]])
        return K @ np.column_stack([self.R[:, 0], self.R[:, 1], self.t])

    def inverse(self, U, V, iters: int = 4):
        """The page point (mm, bent paper) seen at image points U, V."""
        Hi = np.linalg.inv(self.flat())

        def unflat(u, v):
            w = Hi[2, 0] * u + Hi[2, 1] * v + Hi[2, 2]
            return (Hi[0, 0] * u + Hi[0, 1] * v + Hi[0, 2]) / w, (Hi[1, 0] * u + Hi[1, 1] * v + Hi[1, 2]) / w

        X0, Y0 = unflat(U, V)
        X, Y = X0.copy(), Y0.copy()
        for _ in range(iters):
            u2, v2 = self.project(X, Y, self.height(X, Y))
            Xb, Yb = unflat(u2, v2)
            X, Y = X0 - (Xb - X), Y0 - (Yb - Y)
        return X, Y


def _content_box(g) -> tuple[float, float, float, float]:
    """The printed content (mm, from the page centre) that must be in the photo."""
    x0, y0 = g.ox - 1.5, g.oy - 1.5
    x1, y1 = g.ox + g.content_w + 1.5, g.oy + g.content_h + 1.5
    return (x0 - PAGE[0] / 2, y0 - PAGE[1] / 2, x1 - PAGE[0] / 2, y1 - PAGE[1] / 2)


def _aim(W, H, f, R, height, s_goal, pts) -> Camera:
    """A camera whose distance gives the content a mean scale of s_goal px/mm."""
    xs, ys = pts
    bx0, bx1, by0, by1 = xs[0], xs[1], ys[0], ys[2]
    area = (bx1 - bx0) * (by1 - by0)
    s = s_goal
    for _ in range(3):
        cam = Camera(W, H, f, R, np.array([0.0, 0.0, f / s]), np.zeros(2), height)
        u, v = cam.project(xs[:4], ys[:4], height(xs[:4], ys[:4]))
        quad = np.stack([u, v], axis=1).astype(np.float32)
        s *= s_goal / math.sqrt(abs(cv2.contourArea(quad)) / area)
    return Camera(W, H, f, R, np.array([0.0, 0.0, f / s]), np.zeros(2), height)


def place_camera(rng: random.Random, tier: str, g) -> tuple[Camera, dict]:
    """Where the phone is: its frame, focal length, tilt, turn and distance, the sheet's
    bend; the printed content wholly inside the frame."""
    c = CAMERA[tier]
    s_goal = rng.uniform(*c["s"])
    tilt = math.radians(rng.uniform(*c["tilt"]))
    az = rng.uniform(0, 2 * math.pi)
    roll = (rng.choice((0, 90, 180, 270)) + rng.gauss(0, 3)) if c["rot"] == "quarter" else rng.uniform(0, 360)
    R = _rodrigues((0, 0, 1), math.radians(roll)) @ _rodrigues((math.cos(az), math.sin(az), 0), tilt)
    height = Height(rng, rng.uniform(*c["bend"]))
    bx0, by0, bx1, by1 = _content_box(g)
    xs = np.array([bx0, bx1, bx1, bx0, (bx0 + bx1) / 2, bx0, bx1, (bx0 + bx1) / 2])
    ys = np.array([by0, by0, by1, by1, by0, (by0 + by1) / 2, (by0 + by1) / 2, by1])
    fov = rng.uniform(0.68, 0.8)  # f over the long side: a 24-28 mm equivalent main camera
    weights = (40, 20, 12, 10, 8, 10)
    fits, best = [], None
    for idx, (w0, h0) in enumerate(SENSORS):
        for W, H in ((h0, w0), (w0, h0)):
            f = fov * max(W, H)
            trial = _aim(W, H, f, R, height, s_goal, (xs, ys))
            u, v = trial.project(xs, ys, height(xs, ys))
            margin = 0.02 * min(W, H)
            spare_u = W - 2 * margin - (u.max() - u.min())
            spare_v = H - 2 * margin - (v.max() - v.min())
            fill = min((u.max() - u.min()) / W, (v.max() - v.min()) / H)
            if spare_u >= 0 and spare_v >= 0:
                fits.append((idx, trial, u, v, spare_u, spare_v, fill))
            fit = min((W - 2 * margin) / (u.max() - u.min()), (H - 2 * margin) / (v.max() - v.min()))
            if best is None or fit > best[0]:
                best = (fit, W, H, f)
    # people frame the sheet: it fills at least half of the picture, on any phone
    framed = [x for x in fits if x[6] >= 0.5]
    if framed:
        idx, cam, u, v, spare_u, spare_v, _ = rng.choices(framed, [weights[x[0]] for x in framed])[0]
    elif fits:
        idx, cam, u, v, spare_u, spare_v, _ = max(fits, key=lambda x: x[6])
    else:  # too large for every frame at this scale: the phone steps back
        fit, W, H, f = best
        s_goal *= fit * 0.98
        cam = _aim(W, H, f, R, height, s_goal, (xs, ys))
        u, v = cam.project(xs, ys, height(xs, ys))
        spare_u = spare_v = 0.0
    # roughly centred, as people aim
    off = [min(1.0, max(-1.0, rng.gauss(0, 0.35))) for _ in range(2)]
    cam.offset = np.array([cam.W / 2 - (u.max() + u.min()) / 2 + off[0] * spare_u / 2,
                           cam.H / 2 - (v.max() + v.min()) / 2 + off[1] * spare_v / 2])
    meta = {"frame": [cam.W, cam.H], "px_per_mm": round(s_goal, 2), "tilt_deg": round(math.degrees(tilt), 1),
            "tilt_axis_deg": round(math.degrees(az), 1), "roll_deg": round(roll % 360, 1),
            "focal_px": round(cam.f), "distance_mm": round(float(cam.t[2])), "bend": height.describe()}
    return cam, meta


def _local_scale_range(cam: Camera, g) -> tuple[float, float]:
    bx0, by0, bx1, by1 = _content_box(g)
    X, Y = np.meshgrid(np.linspace(bx0, bx1, 9), np.linspace(by0, by1, 9))
    u, v = cam.project(X, Y, cam.height(X, Y))
    du = np.hypot(np.diff(u, axis=1), np.diff(v, axis=1)) / ((bx1 - bx0) / 8)
    return float(du.min()), float(du.max())


def _background(rng: random.Random, W: int, H: int) -> tuple[np.ndarray, str]:
    """A table top, linear RGB, at a quarter of the frame's size."""
    w, h = W // 2, H // 2
    kind = rng.choices(("wood", "laminate", "cloth", "white"), (40, 25, 20, 15))[0]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    nrng = np.random.default_rng(rng.getrandbits(32))
    if kind == "wood":
        a = rng.uniform(0, math.pi)
        t = (xx * math.cos(a) + yy * math.sin(a)) / max(w, h)
        n = cv2.GaussianBlur(nrng.standard_normal((h // 8, w // 8)).astype(np.float32), (0, 0), 6)
        n = cv2.resize(n, (w, h), interpolation=cv2.INTER_CUBIC)
        n /= n.std() + 1e-6
        across = (-xx * math.sin(a) + yy * math.cos(a)) / max(w, h)
        streaks = np.convolve(nrng.standard_normal(4096), np.ones(3) / 3, mode="same").astype(np.float32)
        idx = ((t - t.min()) / (np.ptp(t) + 1e-9) * 4095).astype(np.int32)
        fine = streaks[idx] + 0.3 * cv2.GaussianBlur(nrng.standard_normal((h, w)).astype(np.float32), (0, 0), 1)
        rings = np.sin(t * rng.uniform(60, 160) + 1.2 * n + 1.5 * np.sin(across * 5)) * 0.5 + 0.5
        grain = 0.6 * rings ** 3 + 0.4 * np.clip(0.5 + 0.3 * fine, 0, 1)
        base = np.array([rng.uniform(0.25, 0.45), rng.uniform(0.13, 0.24), rng.uniform(0.05, 0.11)], np.float32)
        img = base * (0.75 + 0.35 * grain[..., None])
    elif kind == "laminate":
        v = rng.uniform(0.05, 0.3)
        base = np.array([v, v * rng.uniform(0.95, 1.05), v * rng.uniform(0.9, 1.1)], np.float32)
        n = cv2.GaussianBlur(nrng.standard_normal((h, w)).astype(np.float32), (0, 0), 2)
        img = base * (1 + 0.06 * n[..., None])
    elif kind == "cloth":
        base = np.array(rng.choice(((0.35, 0.05, 0.04), (0.05, 0.12, 0.3), (0.08, 0.2, 0.08), (0.3, 0.3, 0.3))),
                        np.float32)
        period = rng.uniform(8, 20)
        chk = ((np.floor(xx / period) + np.floor(yy / period)) % 2).astype(np.float32)
        img = base * (0.7 + 0.5 * chk[..., None])
    else:
        v = rng.uniform(0.55, 0.8)
        img = np.full((h, w, 3), v, np.float32) * np.array([1.0, 0.99, 0.96], np.float32)
    return cv2.resize(img, (W, H), interpolation=cv2.INTER_LINEAR), kind


def _objects(rng: random.Random, cam: Camera, img: np.ndarray, g) -> list[str]:
    """Dice and a pencil on the table beside the sheet (never over its printed content)."""
    out = []
    bx0, by0, bx1, by1 = _content_box(g)

    def shadow(pts, depth=0.55, soft=4.0):
        """Darken the image under a polygon (image px), its edge soft."""
        H, W = img.shape[:2]
        pad = int(4 * soft) + 2
        x0, y0 = max(int(pts[:, 0].min()) - pad, 0), max(int(pts[:, 1].min()) - pad, 0)
        x1, y1 = min(int(pts[:, 0].max()) + pad, W), min(int(pts[:, 1].max()) + pad, H)
        if x1 <= x0 or y1 <= y0:
            return
        m = np.zeros((y1 - y0, x1 - x0), np.float32)
        cv2.fillPoly(m, [np.round((pts - (x0, y0)) * 4).astype(np.int32)], 1.0, cv2.LINE_AA, 2)
        m = cv2.GaussianBlur(m, (0, 0), soft)
        img[y0:y1, x0:x1] *= (1 - depth * m)[..., None]

    def poly(pts_mm):
        X = np.array([p[0] for p in pts_mm])
        Y = np.array([p[1] for p in pts_mm])
        u, v = cam.project(X, Y, np.zeros_like(X))
        return np.stack([u, v], axis=1)

    def clear(x, y):
        return not (bx0 - 12 < x < bx1 + 12 and by0 - 12 < y < by1 + 12)

    def beside():
        for _ in range(20):
            x = rng.uniform(-PAGE[0] * 0.9, PAGE[0] * 0.9)
            y = rng.uniform(-PAGE[1] * 0.7, PAGE[1] * 0.7)
            if clear(x, y):
                return x, y
        return None

    for _ in range(rng.choice((0, 0, 1, 2))):
        at = beside()
        if not at:
            continue
        x, y = at
        a = rng.uniform(0, math.pi / 2)
        s = 8.0
        corners = [(x + s * math.cos(a + q * math.pi / 2) * 1.414, y + s * math.sin(a + q * math.pi / 2) * 1.414)
                   for q in (0.5, 1.5, 2.5, 3.5)]
        shadow(poly([(cx + 3, cy + 4) for cx, cy in corners]), 0.6, 3.0)
        top = poly(corners)
        cv2.fillPoly(img, [np.round(top * 4).astype(np.int32)], (0.75, 0.74, 0.7), cv2.LINE_8, 2)
        pips = rng.randint(1, 6)
        spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
                 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}[pips]
        for px, py in spots:
            cxm = x + (px * math.cos(a) - py * math.sin(a)) * s * 0.5
            cym = y + (px * math.sin(a) + py * math.cos(a)) * s * 0.5
            ring = poly([(cxm + 1.1 * math.cos(t), cym + 1.1 * math.sin(t)) for t in np.linspace(0, 6.28, 10)])
            cv2.fillPoly(img, [np.round(ring * 4).astype(np.int32)], (0.02, 0.02, 0.02), cv2.LINE_8, 2)
        out.append("die")
    if rng.random() < 0.4:
        at = beside()
        a = rng.uniform(0, 2 * math.pi)
        L, r = 150, 3.6
        if at and not all(clear(at[0] + math.cos(a) * d, at[1] + math.sin(a) * d) for d in range(-20, L + 1, 5)):
            at = None  # it would lie across the printed sheet
        if at:
            x, y = at
            dx, dy, nx, ny = math.cos(a), math.sin(a), -math.sin(a), math.cos(a)
            body = [(x + nx * r, y + ny * r), (x + dx * L + nx * r, y + dy * L + ny * r),
                    (x + dx * L - nx * r, y + dy * L - ny * r), (x - nx * r, y - ny * r)]
            tip = [(x + nx * r, y + ny * r), (x - dx * 18, y - dy * 18), (x - nx * r, y - ny * r)]
            shadow(poly([(px + 2.5, py + 3.5) for px, py in body]), 0.5, 3.0)
            cv2.fillPoly(img, [np.round(poly(body) * 4).astype(np.int32)], (0.7, 0.45, 0.02), cv2.LINE_8, 2)
            cv2.fillPoly(img, [np.round(poly(tip) * 4).astype(np.int32)], (0.55, 0.4, 0.25), cv2.LINE_8, 2)
            out.append("pencil")
    return out


def _shadow_mask(rng: random.Random, w: int, h: int) -> np.ndarray:
    """A hand and forearm (or a phone) coming in from an edge of the frame: 0-1, soft."""
    m = np.zeros((h, w), np.float32)
    side = rng.randrange(4)
    t = rng.uniform(0.15, 0.85)
    start = [(t * w, -0.1 * h), (1.1 * w, t * h), (t * w, 1.1 * h), (-0.1 * w, t * h)][side]
    reach = rng.uniform(0.2, 0.55)
    inward = [(0, 1), (-1, 0), (0, -1), (1, 0)][side]
    ang = math.atan2(inward[1], inward[0]) + rng.gauss(0, 0.35)
    end = (start[0] + math.cos(ang) * reach * max(w, h), start[1] + math.sin(ang) * reach * max(w, h))
    arm = max(2, int(rng.uniform(0.12, 0.22) * min(w, h)))
    cv2.line(m, (int(start[0]), int(start[1])), (int(end[0]), int(end[1])), 1.0, arm)
    cv2.ellipse(m, (int(end[0]), int(end[1])), (int(arm * 0.9), int(arm * 0.65)), math.degrees(ang), 0, 360, 1.0, -1)
    if rng.random() < 0.5:  # fingers
        for k in range(4):
            a2 = ang + (k - 1.5) * 0.22
            fx, fy = end[0] + math.cos(a2) * arm * 1.3, end[1] + math.sin(a2) * arm * 1.3
            cv2.line(m, (int(end[0]), int(end[1])), (int(fx), int(fy)), 1.0, max(1, arm // 4))
    return cv2.GaussianBlur(m, (0, 0), rng.uniform(0.02, 0.06) * min(w, h))


_TIMES: list = []


def _tick(label) -> None:
    """Time the steps of a photo (printed with --timing)."""
    _TIMES.append((label, time.perf_counter()))


def photograph(page: np.ndarray, k: float, rng: random.Random, tier: str, g, cam: Camera, meta: dict) -> bytes:
    """The sheet (linear RGB at k px/mm) photographed by `cam`: JPEG bytes; `meta` gets
    what was done."""
    c = CAMERA[tier]
    _tick(None)
    nrng = np.random.default_rng(rng.getrandbits(32))
    W, H = cam.W, cam.H
    lo, hi = _local_scale_range(cam, g)
    meta["px_per_mm_range"] = [round(lo, 2), round(hi, 2)]
    # where each photo pixel looks on the page: on a grid 8 px apart, then interpolated
    step = 8
    gu = (np.arange(W // step) + 0.5) * step - 0.5
    gv = (np.arange(H // step) + 0.5) * step - 0.5
    U, V = np.meshgrid(gu, gv)
    X, Y = cam.inverse(U, V)
    _tick("inverse")
    mapx = ((X + PAGE[0] / 2) * k - 0.5).astype(np.float32)
    mapy = ((Y + PAGE[1] / 2) * k - 0.5).astype(np.float32)
    # shading of the bent paper: its slope towards the lamp
    e = 0.5
    hx = (cam.height(X + e, Y) - cam.height(X - e, Y)) / (2 * e)
    hy = (cam.height(X, Y + e) - cam.height(X, Y - e)) / (2 * e)
    la = rng.uniform(0, 2 * math.pi)
    lel = math.radians(rng.uniform(30, 70))
    L = np.array([math.cos(la) * math.cos(lel), math.sin(la) * math.cos(lel), math.sin(lel)])
    shade8 = ((-hx * L[0] - hy * L[1] + L[2]) / np.sqrt(hx * hx + hy * hy + 1)) / L[2]
    shade8 = np.clip(shade8, 0.5, 1.3).astype(np.float32)
    Hp, Wp = page.shape[:2]
    inside8 = np.minimum.reduce([mapx + 0.5, Wp - 0.5 - mapx, mapy + 0.5, Hp - 0.5 - mapy])
    mapx = cv2.resize(mapx, (W, H), interpolation=cv2.INTER_LINEAR)
    mapy = cv2.resize(mapy, (W, H), interpolation=cv2.INTER_LINEAR)
    _tick("maps")
    # the page seen through the lens (antialiased first where the page is finer than the photo),
    # only where the paper is
    ratio = k / max(lo, 1e-3)
    src = page
    if ratio > 1.35:
        src = cv2.GaussianBlur(page, (0, 0), 0.42 * math.sqrt(ratio * ratio - 1))
    rows = np.nonzero((inside8 > -4 * k).any(axis=1))[0]
    cols = np.nonzero((inside8 > -4 * k).any(axis=0))[0]
    r0, r1 = max(0, rows[0] * step - step), min(H, rows[-1] * step + 2 * step)
    c0, c1 = max(0, cols[0] * step - step), min(W, cols[-1] * step + 2 * step)
    mx, my = mapx[r0:r1, c0:c1], mapy[r0:r1, c0:c1]
    sheet = cv2.remap(src, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    del src
    _tick("remap")
    # the paper's edge, antialiased: page pixels to its border, in photo pixels
    edge = cv2.min(cv2.min(mx + 0.5, (Wp - 0.5) - mx), cv2.min(my + 0.5, (Hp - 0.5) - my))
    del mapx, mapy, mx, my
    edge *= 1.0 / ratio
    edge += 0.5
    mask = np.clip(edge, 0, 1, out=edge)
    _tick("mask")
    img, bg_kind = _background(rng, W, H)
    _tick("background")
    # the paper lies on the table: a little contact shadow around it
    w8, h8 = W // step, H // step
    m8 = np.clip(inside8 / (k / max(lo, 1e-3) * step) + 0.5, 0, 1).astype(np.float32)
    halo = cv2.GaussianBlur(m8, (0, 0), max(1.0, 0.004 * max(W, H) / step))
    halo = cv2.resize(np.clip(halo - m8, 0, 1) * -0.45 + 1.0, (W, H), interpolation=cv2.INTER_LINEAR)
    img *= halo[..., None]
    del halo
    shade = cv2.resize(shade8, (W, H), interpolation=cv2.INTER_LINEAR)[r0:r1, c0:c1]
    shade *= mask
    sheet *= shade[..., None]
    roi = img[r0:r1, c0:c1]
    mask -= 1.0
    roi *= -mask[..., None]
    roi += sheet
    del sheet, shade, mask, roi
    objects = _objects(rng, cam, img, g)
    _tick("compose")
    # light: lamp falloff, vignetting, a shadow, the lamp's colour (white balance corrects most)
    yy, xx = np.mgrid[0:h8, 0:w8].astype(np.float32)
    lx, ly = rng.uniform(-0.5, 1.5) * w8, rng.uniform(-0.5, 1.5) * h8
    d2 = ((xx - lx) ** 2 + (yy - ly) ** 2)
    g_lamp = rng.uniform(*c["lamp"])
    light = 1 - g_lamp * np.clip(d2 / d2.max(), 0, 1)
    vig = rng.uniform(0.05, 0.25)
    light *= 1 - vig * (((xx - w8 / 2) / (w8 / 2)) ** 2 + ((yy - h8 / 2) / (h8 / 2)) ** 2) / 2
    warm = rng.uniform(-0.25, 0.35)  # + warm tungsten, - cool daylight
    awb = rng.uniform(0.6, 0.92)
    cast = np.array([1 + 0.25 * warm, 1.0, 1 - 0.35 * warm], np.float32) ** (1 - awb)
    light3 = light[..., None] * cast
    if rng.random() < c["shadow"]:
        sh = _shadow_mask(rng, w8, h8)
        depth = rng.uniform(0.3, 0.65) if tier != "easy" else rng.uniform(0.15, 0.3)
        light3 = light3 * (1 - depth * sh[..., None] * np.array([1.0, 0.97, 0.85], np.float32))
        meta["shadow_depth"] = round(depth, 2)
    illum = cv2.resize(light3.astype(np.float32), (W, H), interpolation=cv2.INTER_LINEAR)
    img *= illum
    del illum
    _tick("light")
    # optics: defocus, more on one side of a tilted sheet; a shaken hand
    # (in px of a 12 MP frame: a smaller frame is mostly a 12 MP one scaled down)
    shrink = (max(W, H) / 4032) ** 0.6
    b0, b1 = sorted(max(0.35, rng.uniform(*c["blur"]) * shrink) for _ in range(2))
    if b1 - b0 > 0.15:
        soft = cv2.GaussianBlur(img, (0, 0), b1)
        cv2.GaussianBlur(img, (0, 0), b0, dst=img)
        a = rng.uniform(0, 2 * math.pi)
        ramp8 = np.clip(np.cos(a) * (xx / w8 - 0.5) + np.sin(a) * (yy / h8 - 0.5) + 0.5, 0, 1).astype(np.float32)
        ramp = cv2.resize(ramp8, (W, H), interpolation=cv2.INTER_LINEAR)[..., None]
        soft -= img
        soft *= ramp
        img += soft
        del soft, ramp
    else:
        cv2.GaussianBlur(img, (0, 0), b0, dst=img)
    motion = 0.0
    _tick("defocus")
    if rng.random() < c["motion"]:
        motion = max(1.0, rng.uniform(1.5, 4.0) * shrink)
        n = int(math.ceil(motion)) * 2 + 1
        kern = np.zeros((n, n), np.float32)
        a = rng.uniform(0, math.pi)
        cv2.line(kern, (int(round(n / 2 - math.cos(a) * motion / 2)), int(round(n / 2 - math.sin(a) * motion / 2))),
                 (int(round(n / 2 + math.cos(a) * motion / 2)), int(round(n / 2 + math.sin(a) * motion / 2))), 1.0, 1,
                 cv2.LINE_AA)
        img = cv2.filter2D(img, -1, kern / kern.sum())
    # the sensor: exposure, photon and read noise; the gain brings it back up
    expo = rng.uniform(*c["exposure"])
    photons = rng.uniform(1500, 3000) * expo
    white = max(0.3, float(np.percentile(img[::16, ::16], 97)))
    img *= expo
    tile = nrng.standard_normal((1024, 1024, 3), dtype=np.float32)
    tile = cv2.GaussianBlur(tile, (3, 3), 0.6) * 1.7  # demosaicking correlates neighbours
    tile = np.roll(tile, tuple(nrng.integers(0, 1024, 2)), axis=(0, 1))
    for by in range(0, H, 1024):
        for bx in range(0, W, 1024):
            block = img[by:by + 1024, bx:bx + 1024]
            std = np.maximum(block, 0)
            std *= 1.0 / photons
            std += 0.003 ** 2
            np.sqrt(std, out=std)
            std *= tile[:block.shape[0], :block.shape[1]]
            block += std
    _tick("noise")
    # the phone brightens a dim scene, but not all the way
    bright = rng.uniform(0.95, 1.12) if tier != "hard" else rng.uniform(0.6, 0.9)
    gain = bright / expo / white
    # tone: gain, a slight S-curve, sRGB, through one table
    lin = np.linspace(0, 1, 4096, dtype=np.float32)
    curve = linear_to_srgb(lin)
    contrast = rng.uniform(0.0, 0.5)
    curve = np.clip(curve - 0.04 * contrast * np.sin(2 * math.pi * curve), 0, 1)
    lut = (curve * 255 + 0.5).astype(np.uint8)
    img *= gain * 4095
    np.clip(img, 0, 4095, out=img)
    u8 = lut[img.astype(np.uint16)]
    del img
    _tick("tone")
    # the phone's processing: noise reduction, sharpening
    nr = rng.choice(("bilateral", "median", "chroma"))
    if nr == "bilateral":
        u8 = cv2.bilateralFilter(u8, 5, rng.uniform(15, 40), rng.uniform(2, 4))
    elif nr == "median":
        u8 = cv2.medianBlur(u8, 3 if tier == "easy" else rng.choice((3, 5)))
    else:
        ycc = cv2.cvtColor(u8, cv2.COLOR_RGB2YCrCb)
        ycc[..., 1:] = cv2.GaussianBlur(ycc[..., 1:], (0, 0), 3)
        ycc[..., 0] = cv2.GaussianBlur(ycc[..., 0], (0, 0), 0.7)
        u8 = cv2.cvtColor(ycc, cv2.COLOR_YCrCb2RGB)
    amount = rng.uniform(0.1, 0.5)
    blurred = cv2.GaussianBlur(u8, (0, 0), rng.uniform(1.2, 2.5))
    u8 = cv2.addWeighted(u8, 1 + amount, blurred, -amount, 0)
    del blurred
    _tick("isp")
    q = rng.randint(*c["jpeg"])
    im = Image.fromarray(u8)
    orient = None
    save = {"quality": q, "subsampling": 2}
    if rng.random() < 0.3:  # stored as the sensor saw it, turned for display by the EXIF tag
        orient = rng.choice((6, 8, 3))
        turn = {6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270, 3: Image.Transpose.ROTATE_180}[orient]
        im = im.transpose(turn)
        exif = Image.Exif()
        exif[0x0112] = orient
        save["exif"] = exif.tobytes()
    buf = io.BytesIO()
    im.save(buf, format="JPEG", **save)
    _tick("jpeg")
    meta.update({"background": bg_kind, "objects": objects, "lamp_falloff": round(g_lamp, 2),
                 "exposure": round(expo, 2), "blur_px": [round(b0, 2), round(b1, 2)], "motion_px": round(motion, 1),
                 "noise_reduction": nr, "sharpen": round(amount, 2), "jpeg_quality": q, "exif_orientation": orient})
    return buf.getvalue()


# ---- one photo --------------------------------------------------------------------------------

@dataclass
class Shot:
    name: str
    photo: Path
    truth: Path
    meta: dict


def game_for(rng: random.Random, level: str, table: bool):
    """A random legal game: the layout, the record of the sheet photographed, its extras."""
    layout = layouts.load(f"yuncos-{level}")
    home = rng.randint(5, 14)
    if table:
        n = rng.randint(2, 4)
        games = play_table(layout, rng, players=n, home_after=home)
        k = rng.randrange(n)
        game, name = games[k], NAMES[k]
    else:
        game, name = play(layout, rng, solo=True, home_after=home), None
    record = game.record
    extras = {"name": name}
    if game.end is not None:
        extras["score"] = dict(game.parts, total=game.total)
    return layout, record, extras, game


def simulate(seed: int, tier: str, out_dir: str | Path, level: str | None = None, table: bool | None = None,
             name: str | None = None, pencil: dict | None = None) -> Shot:
    """Draw one game's sheet and photograph it; write the photo, its true record and its
    description into `out_dir`. Deterministic from (seed, tier, level, table).

    `pencil` fixes some of the player's ways, e.g. {"end_style": "dot", "drift": 0}
    (the fields of `Player`): to see which of them a reading depends on."""
    if tier not in TIERS:
        raise ValueError(f"tier must be one of {TIERS}")
    rng = random.Random(f"sheet:{seed}")
    level = level or rng.choice(("easy", "hard"))
    table = rng.random() < 0.4 if table is None else table
    layout, record, extras, game = game_for(rng, level, table)
    serial = rng.randint(1, 9999)
    g = sheet_geometry(layout.spec, "a4")
    cam_rng = random.Random(f"camera:{seed}:{tier}")
    cam, cam_meta = place_camera(cam_rng, tier, g)
    # the sheet is drawn a little finer than the photo will see it anywhere
    k = float(min(16.0, max(8.0, math.ceil(_local_scale_range(cam, g)[1] * 1.15))))
    lang = "es" if rng.random() < 0.35 else "en"
    page = printed_sheet(layout, serial, k, lang)
    # the printer and the paper: paper white, toner density, a little unevenness
    paper_rng = np.random.default_rng(rng.getrandbits(32))
    white = np.array([rng.uniform(0.86, 0.92), rng.uniform(0.86, 0.92), rng.uniform(0.8, 0.9)], np.float32)
    dens = rng.uniform(0.86, 0.97)
    page *= dens
    page += 1 - dens
    page *= white
    Hp, Wp = page.shape[:2]
    fib = paper_rng.standard_normal((Hp // 4, Wp // 4)).astype(np.float32)
    fib = cv2.GaussianBlur(fib, (0, 0), 0.75 * k / 10 + 0.5)
    fib = cv2.resize(fib * (0.02 / (fib.std() + 1e-6)) + 1.0, (Wp, Hp), interpolation=cv2.INTER_LINEAR)
    # the pencil
    me = Player.random(rng)
    for key, value in (pencil or {}).items():
        if not hasattr(me, key) or key in ("hand", "extras"):
            raise ValueError(f"no such pencil setting: {key!r}")
        setattr(me, key, type(getattr(me, key))(value))
        me.extras.setdefault("fixed", {})[key] = value
    pen = Pencil(page.shape[:2], k)
    paper = on_paper(layout, record, g)
    pencil_sheet(pen, rng, me, paper, layout, g, record, extras)
    dark = pen.darkness(paper_rng, me.dmax, me.grain, rng.uniform(0.12, 0.3))
    del pen
    dark -= 1.0
    dark *= -fib  # (1 - dark) * paper unevenness
    del fib
    page *= dark[..., None]
    del dark
    jpeg = photograph(page, k, cam_rng, tier, g, cam, cam_meta)
    del page
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    name = name or f"{tier}-{seed}"
    photo, truth = out / f"{name}.jpg", out / f"{name}.toml"
    photo.write_bytes(jpeg)
    truth.write_text(to_toml(record), encoding="utf-8")
    meta = {"seed": seed, "tier": tier, "level": level, "table": table, "player": extras.get("name"),
            "serial": serial, "lang": lang, "turns": len(record["turn"]), "end": game.end, "render_px_per_mm": k,
            "camera": cam_meta, "pencil": me.describe()}
    (out / f"{name}.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
    return Shot(name, photo, truth, meta)


def parse_pencil(text: str) -> dict:
    """"end_style=dot,drift=0" -> {"end_style": "dot", "drift": "0"}"""
    out = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        if not sep:
            raise SystemExit(f"--pencil: {part!r} is not KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tier", choices=TIERS, default="medium")
    ap.add_argument("--level", choices=("easy", "hard"))
    ap.add_argument("--table", action="store_true", help="one player's sheet of a table game")
    ap.add_argument("--solo", action="store_true", help="a solo game")
    ap.add_argument("--out", default="/tmp/unseen")
    ap.add_argument("--timing", action="store_true", help="print how long each step of the camera took")
    ap.add_argument("--pencil", default="", help="fix the player's ways, e.g. end_style=dot,drift=0")
    a = ap.parse_args(argv)
    table = True if a.table else (False if a.solo else None)
    t = time.perf_counter()
    shot = simulate(a.seed, a.tier, a.out, a.level, table, pencil=parse_pencil(a.pencil))
    print(f"{shot.photo}  ({shot.meta['level']}, {'table' if shot.meta['table'] else 'solo'}, "
          f"{shot.meta['turns']} turns, {shot.meta['camera']['px_per_mm']} px/mm, "
          f"{time.perf_counter() - t:.1f} s)")
    if a.timing:
        for (_, t0), (label, t1) in zip(_TIMES, _TIMES[1:]):
            print(f"  {label:14s} {t1 - t0:6.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
