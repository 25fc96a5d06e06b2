"""Simulated photos of filled score pads (Glüx, IUNU, Level X), for the tests and
bench/bench_pad_photo.py.

A random legal final result of the game (Level X: a random game played to its end by
sheetkit's random player; Glüx: each player's pips room by room; IUNU: the castes'
majorities, citizens, bread and Deben) is written into the numbered pad, cell by cell as a
player fills it in (sheetkit.photo.padwriting: each player a hand of their own, in the
styles kept apart from those the digit reader was trained on), and photographed at one of
three tiers (TIERS): flat and bright; a typical phone photo at a table; steep, shadowed
and small (sheetkit.photo.simulate.photograph). The truth is the values of every field.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

import numpy as np

from sheetkit.photo import padwriting
from sheetkit.photo.simulate import SHEET_PX_PER_MM, photograph

GAME_PADS = {"levelx": "levelx-score-pad", "glux": "glux-score-pad", "iunu": "iunu-score-pad"}
TIERS = {
    "flat": dict(size=(3000, 4000), tilt=0.3, quality=90, blur=1.0),
    "table": dict(size=(2448, 3264), tilt=1.0),
    "steep": dict(size=(2048, 1536), wide=True),
}


@dataclass
class PadSample:
    jpeg: bytes
    game: str
    layout: str
    paper: str
    serial: int
    values: dict  # field key -> the value written (a number, True for a ticked circle; absent: empty)
    players: list[int]  # the columns in use
    scores: dict  # "Player N" (N = the column + 1) -> the truth's score
    first: int | None = None  # Level X: the first player's column
    homography: object = None  # sheet px (SHEET_PX_PER_MM) -> photo px, as photographed


def _levelx_truth(rng: random.Random, n: int):
    from sheetkit.games.levelx.play import random_game

    names = [f"n{i}" for i in range(n)]
    _, final = random_game(rng, names)
    first = rng.randrange(4 - n + 1) if n < 4 else 0
    cols = list(range(first, first + n))  # seats left to right; the first player's (1) ticked
    values, scores = {}, {}
    for c, pl in zip(cols, final["player"]):
        total = 0
        for v in (5, 6, 7, 8, 9, 10):
            k = pl["chips"].get(str(v), 0)
            if k:
                values[f"t0.chips.{v}.count.p{c}"] = k
                values[f"t0.chips.{v}.result.p{c}"] = k * v
                total += k * v
        b = sum(pl["bonuses"])
        if b:
            values[f"t0.bonuses.value.p{c}"] = b
        values[f"t0.total.value.p{c}"] = total + b
        scores[f"Player {c + 1}"] = total + b
    values[f"t0.first.mark.p{first}"] = True
    return values, cols, scores, first


def _glux_truth(rng: random.Random, n: int):
    from sheetkit.games.glux import rules

    rooms = list("ABCDEFGH") + (["I", "J"] if n > 2 else []) + ["middle"]
    cols = list(range(n))
    names = [f"Player {c + 1}" for c in cols]
    values, per = {}, []
    for r in rooms:
        pips = {nm: (0 if rng.random() < 0.35 else rng.randint(1, 14)) for nm in names}
        res = rules.score_room(r, pips, names)
        per.append((r, pips))
        for c, nm in zip(cols, names):
            if pips[nm]:
                values[f"t0.room.{r}.pips.p{c}"] = pips[nm]
                values[f"t0.room.{r}.place.p{c}"] = res.place[nm]
                values[f"t0.room.{r}.vp.p{c}"] = res.vp[nm]
    result = rules.score(per, names, len(rooms) - 1)
    for c, nm in zip(cols, names):
        values[f"t0.total.value.p{c}"] = result.totals[nm]
        values[f"t0.tiebreak.value.p{c}"] = per[-1][1][nm]
        if nm in result.winners:
            values[f"t0.winner.mark.p{c}"] = True
    return values, cols, dict(result.totals), None


IUNU_BONUS = {"farmer": 8, "baker": 7, "soldier": 6, "merchant": 5, "noble": 4, "priest": 5, "scribe": 3,
              "pharaoh": 2, "ninth": 4}


def _iunu_truth(rng: random.Random, n: int):
    cols = list(range(n))
    values, scores = {}, {}
    parts = {c: 0 for c in cols}
    for caste, b in IUNU_BONUS.items():
        values[f"t0.caste.{caste}.bonus.all"] = b
        if rng.random() < 0.7:
            c = rng.choice(cols)
            m = 1 if rng.random() < 0.6 else rng.randint(2, 3)
            values[f"t0.caste.{caste}.count.p{c}"] = b
            values[f"t0.caste.{caste}.factor.p{c}"] = m
            values[f"t0.caste.{caste}.result.p{c}"] = b * m
            parts[c] += b * m
    for c in cols:
        cit, bread, deben = rng.randint(0, 35), rng.randint(0, 10), rng.randint(0, 25)
        values[f"t0.citizens.value.p{c}"] = cit
        values[f"t0.bread.value.p{c}"] = bread
        values[f"t0.deben.value.p{c}"] = deben
        values[f"t0.deben3.value.p{c}"] = deben // 3
        total = parts[c] + cit + bread + deben // 3
        values[f"t0.total.value.p{c}"] = total
        scores[f"Player {c + 1}"] = total
    best = max(scores.values())
    for c in cols:
        if scores[f"Player {c + 1}"] == best:
            values[f"t0.winner.mark.p{c}"] = True
    return values, cols, scores, None


TRUTHS = {"levelx": _levelx_truth, "glux": _glux_truth, "iunu": _iunu_truth}


@functools.lru_cache(maxsize=12)
def _unnumbered(layout_id: str, paper: str, lang: str, px_per_mm: float):
    from sheetkit.paper import png, printing

    layout, scene = printing.compose(layout_id, paper, lang)
    img = png.page_image(scene, 0, dpi=px_per_mm * 25.4).convert("L")
    return np.asarray(img, dtype=np.float32) / 255.0, layout, scene


def render(layout_id: str, paper: str, lang: str, serial: int, px_per_mm: float = SHEET_PX_PER_MM):
    """The numbered blank (grey, 1 = white) at px_per_mm, and its page (fields, marks): the
    page drawn once, each copy's stamp (its serial and QR code, pads.stamp_items) on top."""
    from sheetkit.checking.qr import qr_text_for
    from sheetkit.paper import pads, png
    from sheetkit.paper import scene as S

    base, layout, scene = _unnumbered(layout_id, paper, lang, px_per_mm)
    page = scene.pages[0]
    text = qr_text_for(layout.id, layout.version, serial, str(layout.path))
    stamp = S.Scene([S.Page(page.width, page.height, pads.stamp_items(page.stamp, text, serial, lang))])
    top = np.asarray(png.page_image(stamp, 0, dpi=px_per_mm * 25.4).convert("L"), dtype=np.float32) / 255.0
    return np.minimum(base, top), page


def _name(canvas, box, rng: np.random.Generator, k: float) -> None:
    """A name, as a few quick pencil strokes along the box."""
    x, y, w, h = (v * k for v in box)
    n = int(rng.integers(3, 7))
    xs = x + w * 0.08 + np.cumsum(rng.uniform(0.6, 1.0, n)) * (w * 0.6 / n)
    for a in xs:
        pts = [(a + rng.uniform(-1, 1) * h * 0.1, y + h * rng.uniform(0.25, 0.4)),
               (a + h * 0.15, y + h * rng.uniform(0.65, 0.8)), (a + h * 0.3, y + h * rng.uniform(0.3, 0.5))]
        padwriting.hw.draw_stroke(canvas, pts, rng, width=k * 0.35)


def fill(canvas: np.ndarray, page, values: dict, cols: list[int], rng: np.random.Generator,
         styles=padwriting.HELD_OUT, k: float = SHEET_PX_PER_MM) -> None:
    """Write `values` into the pad's fields on `canvas` (the blank at k px/mm), in place:
    each player column in one of `styles`."""
    hand = {c: styles[int(rng.integers(len(styles)))] for c in cols}
    for f in page.fields:
        x, y, w, h = f.box
        box = (x * k + 0.06 * w * k, y * k + 0.08 * h * k, (x + w) * k - 0.06 * w * k, (y + h) * k - 0.08 * h * k)
        if f.kind == "name" and f.player in cols:
            _name(canvas, f.box, rng, k)
        v = values.get(f.key)
        if v is None:
            continue
        if f.kind == "tick":
            padwriting.draw_tick(canvas, (x * k + 0.15 * w * k, y * k + 0.15 * h * k, (x + w) * k - 0.15 * w * k,
                                          (y + h) * k - 0.15 * h * k), rng)
        elif f.kind == "digits":
            padwriting.draw_number(canvas, box, int(v), rng, hand.get(f.player, styles[0]))


def sample(seed: int, game: str = "levelx", tier: str = "table", paper: str | None = None,
           lang: str | None = None, styles=padwriting.HELD_OUT) -> PadSample:
    """One simulated photo of a filled pad of `game`: everything from `seed`."""
    rng = np.random.default_rng([seed, 27])
    prng = random.Random(seed)
    n = prng.randint(2, 4)
    values, cols, scores, first = TRUTHS[game](prng, n)
    paper = paper or ("a4" if prng.random() < 0.7 else "letter")
    lang = lang or ("en" if prng.random() < 0.6 else "es")
    serial = prng.randint(1, 999)
    layout = GAME_PADS[game]
    sheet, page = render(layout, paper, lang, serial)
    sheet = sheet.copy()
    fill(sheet, page, values, cols, rng, styles)
    applied: dict = {}
    jpeg = photograph(sheet, rng, transform=applied, **TIERS[tier])
    return PadSample(jpeg, game, layout, paper, serial, values, cols, scores, first, applied["homography"])


def field_errors(draft, s: PadSample) -> tuple[int, list]:
    """The fields of the draft's player columns compared with the truth: how many were
    compared, and the wrong ones (key, read, truth, unsure)."""
    n, wrong = 0, []
    for f in draft.fields.values():
        if f.kind == "name" or (f.player is not None and f.player not in s.players) or f.table != 0:
            continue
        if f.player is None and f.kind != "digits":
            continue
        truth = s.values.get(f.key)
        read = f.value
        if f.kind == "tick":
            truth, read = bool(truth), bool(read)
        elif f.kind == "digits":
            truth, read = truth or 0, read or 0
        n += 1
        if truth != read:
            wrong.append((f.key, f.value, s.values.get(f.key), f.unsure))
    return n, wrong


def confirmed(draft, s: PadSample) -> dict:
    """What a player confirming the draft's unsure fields against the pad fixes them to."""
    out = {}
    for key in draft.unsure:
        f = draft.fields[key]
        v = s.values.get(key)
        out[key] = bool(v) if f.kind == "tick" else v
    return out


def write(s: PadSample, path) -> None:
    with open(path, "wb") as fh:
        fh.write(s.jpeg)
