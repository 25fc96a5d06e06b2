"""The Yuncos sheet: Layout -> Scene.

All positions come from SheetGeometry, so the sheet and the checker's overlay (which
writes a transcription onto the sheet) agree on where every box and vertex is.
The content is a block 188 mm wide centred on the page, as tall as the page allows
(MARGINS): on A4 the map has the layout's square and spare height opens the gaps between
sections; on US Letter, shorter, the map is drawn smaller so that 10 mm and more stay
clear at every edge.
"""

from __future__ import annotations

import math
from functools import cached_property

from sheetkit.paper import marks
from sheetkit.paper import scene as S
from sheetkit.games.yuncos.layout import STEPS, YuncosSheet, vertex_name
from sheetkit.games.yuncos.scoring import CRASH_TRACK, rank_ranges
from sheetkit.paper.measure import fit_size, text_width, wrap

CONTENT_W = 188.0  # the content block's width: inside 10 mm margins on A4 and Letter, strokes included
BOX = 9.0  # puzzle and counter boxes: room for a pencilled digit
SMALL_BOX = 7.0  # dice log and ability boxes
ABILITY = 6.5
PATTERN_COLUMN = 26.0
DICE_GAP = 3.2  # between rows of the dice log: room for the turn numbers
TITLE_PT = 14.0
HEADER_H = 13.2  # the header band (title; subtitle and the player's name line), closed by a thin rule
STRIP_PT = 7.0  # the rules strip: a heading and a few lines of 7 pt per column
STRIP_LEAD = 2.75
STRIP_GAP = 4.0  # between the strip's columns
GUTTER = 4.0  # between the nests and the luminaries
NAME_W = 64.0  # the player's name line in the header band, its label included
CUE_R = 1.6  # the white discs of nest row 2's ">" cues
MARK = 3.6  # the registration squares by which a photo of the sheet is aligned (sheetkit read)
# The content block is centred on the page and fills it but for these margins (top and
# bottom, mm): A4 is used, not left 20 mm short; Letter, shorter, keeps 10 mm and more from
# its edges by drawing the map smaller (the layout's `square` is the map's size on A4).
MARGINS = {"a4": 11.8, "letter": 10.8}
GAPS = 7  # the vertical gaps between the sheet's sections that spare height on A4 widens
MAX_PAD = 3.0  # mm added to each of them at most

GRID = S.Style(stroke="#8c8c8c", width=0.15)
INK = S.Style(width=0.3)
HEAVY = S.Style(width=0.5)
LAND_TINT = "#ece3c8"
GREY = "#555555"
LANGS = ("es", "en")


def strip_layout(spec: YuncosSheet) -> tuple[float, int]:
    """The width of a column of the rules strip and the most lines any of its texts takes in
    any language (the geometry is the same in every language: a photo is read over it)."""
    cols = spec.labels.strip
    if not cols:
        return 0.0, 0
    w = (CONTENT_W - STRIP_GAP * (len(cols) - 1)) / len(cols)
    return w, max(len(wrap(c.text(lang), w, STRIP_PT)) for c in cols for lang in LANGS)


def _grid(mm: float, to=round) -> float:
    """`mm` on a 0.1 mm grid: the sections of a sheet move by whole tenths of a millimetre
    as the page's spare height is shared out, so positions stay round numbers (and whole
    pixels of the photo reader's simulated pencil, drawn at 10 px/mm by sheetkit.photo.simulate)."""
    return to(mm * 10 + 1e-9) / 10


class SheetGeometry:
    """Where everything on a sheet level is, in page millimetres."""

    def __init__(self, spec: YuncosSheet, paper: str):
        self.spec = spec
        self.paper = paper
        self.page = S.paper_size(paper)
        pw, ph = self.page
        self.ox = (pw - CONTENT_W) / 2
        self.content_w = CONTENT_W
        self.strip_w, self.strip_lines = strip_layout(spec)
        # the layout's square on A4; smaller where the page is shorter; spare height widens the gaps
        avail = ph - 2 * MARGINS.get(paper, 10.8)
        square = spec.map.square
        need = self._stack(square, 0.0)
        if need > avail and paper != "a4":  # on A4 the map keeps its size (lint says if it does not fit)
            slope = self._stack(square + 1, 0.0) - need
            square = max(4.0, square - (need - avail) / slope)
            pad = 0.0
        elif need > avail:
            pad = 0.0
        else:
            pad = _grid(min(MAX_PAD, (avail - need) / GAPS), math.floor)
        self.pad = pad
        self.content_h = self._stack(square, pad)
        self.oy = _grid((ph - self.content_h) / 2)
        self._place(square, pad)

    def _stack(self, square: float, pad: float) -> float:
        """The content block's height with the map's `square` and `pad` mm added to every gap."""
        self.oy = 0.0
        self._place(square, pad)
        return self.bottom

    def _place(self, square: float, pad: float) -> None:
        spec = self.spec
        board = spec.board
        self.square = square
        hard = spec.level == "hard"
        map_area = CONTENT_W - (PATTERN_COLUMN + 4 if hard else 0) - 7  # 7 mm for row numbers
        self.map_w = (board.width - 1) * self.square
        self.map_h = (board.height - 1) * self.square
        self.map_x = self.ox + 7 + max(0.0, (map_area - self.map_w) / 2)
        # the column letters (6.5 pt, their baseline 0.45 square + 1.2 mm over the map) 2 mm
        # and more under the header band's rule
        self.header_y = self.oy + HEADER_H
        self.map_y = self.header_y + pad + _grid(2.3 + 1.85 + 1.2 + 0.45 * self.square)
        self.pattern_x = self.ox + CONTENT_W - PATTERN_COLUMN + 3
        y = self.map_y + self.map_h + 4.5 + pad
        self.legend_y = y
        y += 7.5 + pad
        self.puzzles_y = y
        # nests: the rows, the ">" discs under row 2, the abilities key under them
        nest_h = 9 + 2 * BOX + 3 + 13.7
        lum_h = 5 + ABILITY + 1 + spec.luminaries.height * BOX
        y += max(nest_h, lum_h) + 2 + pad
        self.counters_y = y
        y += 26.0 + pad
        self.dice_y = y
        self.dice_per_row = 12
        rows = math.ceil(spec.dice_log / self.dice_per_row)
        y += 9.0 + rows * (SMALL_BOX + DICE_GAP) - DICE_GAP + 2.0 + pad
        self.score_y = y
        self.strip_y = self.score_y + 4 + BOX + 1.5 + pad
        self.bottom = self.strip_y + (5.6 + (self.strip_lines - 1) * STRIP_LEAD + 0.7 if self.strip_lines else 0.0)

    # the map
    def vertex(self, v: tuple[int, int]) -> tuple[float, float]:
        return (self.map_x + v[0] * self.square, self.map_y + v[1] * self.square)

    # puzzles: nests on the left, luminaries on the right
    def _nest_x(self, i: int) -> float:
        """Box i of a nest row; an ability box follows every 2nd box."""
        return self.ox + 6 + i * (BOX + 1) + (i // 2) * (ABILITY + 2)

    def nest_box(self, row: int, i: int):
        y = self.puzzles_y + 9 + row * (BOX + 3)
        return (self._nest_x(i), y, BOX, BOX)

    def nest_ability(self, row: int, k: int):
        x, y, _, _ = self.nest_box(row, 2 * k + 1)
        return (x + BOX + 1, y + (BOX - ABILITY) / 2, ABILITY, ABILITY)

    @cached_property
    def nests_right(self) -> float:
        """The right edge of the nest rows (their last ability box)."""
        n = self.spec.nests
        return max(self.nest_ability(row, len(n.abilities[row]) - 1)[0] + ABILITY if n.abilities[row]
                   else self.nest_box(row, n.length - 1)[0] + BOX for row in range(2))

    @cached_property
    def lum_x(self) -> float:
        """The luminaries' first column: a gutter of GUTTER mm after the nests, the grid's
        arrow (3.5 mm left of it) included."""
        return max(self.ox + 94, self.nests_right + GUTTER + 3.5)

    def lum_box(self, col: int, level: int):
        h = self.spec.luminaries.height
        top = self.puzzles_y + 5 + ABILITY + 1
        return (self.lum_x + col * BOX, top + (h - 1 - level) * BOX, BOX, BOX)

    def lum_ability(self, col: int):
        return (self.lum_x + col * BOX + (BOX - ABILITY) / 2, self.puzzles_y + 5, ABILITY, ABILITY)

    # counters
    def fish_box(self, i: int):
        return (self.ox + i * (BOX - 0.5 + 0.5), self.counters_y + 5, BOX - 0.5, BOX)

    def fish_ability(self, i: int):
        x, y, w, h = self.fish_box(i)
        return (x + (w - ABILITY) / 2, y + h + 4, ABILITY, ABILITY)

    @cached_property
    def crash_x(self) -> float:
        return self.ox + len(self.spec.fish.values) * BOX + 8

    def crash_box(self, i: int):
        return (self.crash_x + i * BOX, self.counters_y + 5, BOX, BOX)

    @cached_property
    def stamp(self) -> tuple[float, float, float]:
        size = 22.0
        return (self.ox + CONTENT_W - size, self.counters_y - 1, size)

    @cached_property
    def marks(self) -> tuple[tuple[float, float, float], ...]:
        """The four registration squares (x, y, size), in places no player writes: left and
        right above the map (under the header band), between the fish counter and the crash
        track (level with their boxes, away from the ability boxes, which it would pass for),
        and between the crash track and the QR code. With the QR code they let a photo of a
        filled sheet be laid exactly over the blank (sheetkit read); the lower two stand at
        the code's height, so that two of them and the code still place the sheet."""
        fx, fy, fw, fh = self.fish_box(len(self.spec.fish.values) - 1)
        cx, cy, cw, ch = self.crash_box(len(CRASH_TRACK) - 1)
        gap = (self.stamp[0] - cx - cw - MARK) / 2
        return ((self.ox, self.map_y - 5.3, MARK),
                (self.ox + CONTENT_W - MARK, self.map_y - 2.6, MARK),
                ((fx + fw + self.crash_x - MARK) / 2, cy + (ch - MARK) / 2, MARK),
                (cx + cw + gap, cy + (ch - MARK) / 2, MARK))

    # dice log
    def dice_box(self, turn: int, which: int):
        row, col = divmod(turn - 1, self.dice_per_row)
        pitch = CONTENT_W / self.dice_per_row
        x = self.ox + col * pitch + (pitch - 2 * SMALL_BOX - 0.6) / 2 + which * (SMALL_BOX + 0.6)
        y = self.dice_y + 9.0 + row * (SMALL_BOX + DICE_GAP)
        return (x, y, SMALL_BOX, SMALL_BOX)

    # score
    SCORE_PARTS = ("nests", "luminaries", "fish", "navigation", "crashes", "total")

    def score_box(self, name: str):
        i = self.SCORE_PARTS.index(name)
        w = 16.0
        return (self.ox + i * (w + 6), self.score_y + 4, w, BOX)


def sheet_geometry(spec: YuncosSheet, paper: str) -> SheetGeometry:
    return SheetGeometry(spec, paper)


# ---- icons -------------------------------------------------------------------------

def _star_points(x: float, y: float, r: float) -> tuple[tuple[float, float], ...]:
    pts = []
    for k in range(10):
        a = -math.pi / 2 + k * math.pi / 5
        rr = r if k % 2 == 0 else r * 0.45
        pts.append((x + rr * math.cos(a), y + rr * math.sin(a)))
    return tuple(pts)


def _tint(hexstr: str, amount: float) -> str:
    """Mix a colour with white: light fills keep a black letter readable in any print."""
    h = hexstr.lstrip("#")
    rgb = [int(h[i:i + 2], 16) for i in (0, 2, 4)]
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in rgb)


def star_icon(x: float, y: float, r: float, ink: str, letter: str, shape: str | None = None) -> list[S.Item]:
    """A star in its colour with its letter, or its shape (the same in every language)."""
    items: list[S.Item] = [
        S.Path(_star_points(x, y, r), closed=True, style=S.Style(stroke="#000000", fill=_tint(ink, 0.35), width=0.25))]
    if shape is None:
        return items + [S.Text(x, y + r * 0.3, letter, size=r * 2.2, bold=True, anchor="middle")]
    return items + shape_icon(x, y + r * 0.06, r * 0.3, shape)


def shape_icon(x: float, y: float, s: float, shape: str) -> list[S.Item]:
    """A small black mark about 2`s` across centred on (x, y): circle, square, triangle,
    diamond, bar or ring, told apart in any print."""
    if shape == "circle":
        return [S.Circle(x, y, s * 0.95, S.FILLED)]
    if shape == "ring":
        return [S.Circle(x, y, s * 0.8, S.Style(width=max(0.3, s * 0.35)))]
    if shape == "square":
        return [S.Rect(x - s * 0.85, y - s * 0.85, s * 1.7, s * 1.7, S.FILLED)]
    if shape == "triangle":
        return [S.Path(((x, y - s * 1.1), (x + s * 1.1, y + s * 0.8), (x - s * 1.1, y + s * 0.8)), closed=True,
                       style=S.FILLED)]
    if shape == "diamond":
        return [S.Path(((x, y - s * 1.2), (x + s * 0.9, y), (x, y + s * 1.2), (x - s * 0.9, y)), closed=True,
                       style=S.FILLED)]
    return [S.Rect(x - s * 1.2, y - s * 0.45, s * 2.4, s * 0.9, S.FILLED)]  # bar


def fish_icon(x: float, y: float, s: float) -> list[S.Item]:
    """A fish facing left, about `s` mm long, centred on (x, y)."""
    body = []
    for k in range(16):
        a = 2 * math.pi * k / 16
        body.append((x - s * 0.12 + s * 0.32 * math.cos(a), y + s * 0.2 * math.sin(a)))
    tail = ((x + s * 0.18, y), (x + s * 0.45, y - s * 0.2), (x + s * 0.45, y + s * 0.2))
    fill = S.Style(stroke="#000000", fill="#6d8fb3", width=0.2)
    return [S.Path(tail, closed=True, style=fill), S.Path(tuple(body), closed=True, style=fill),
            S.Circle(x - s * 0.3, y - s * 0.04, s * 0.04, S.FILLED)]


def light_icon(x: float, y: float, r: float) -> list[S.Item]:
    """A black bulb with rays: a hazard that reads the same in colour and in grey."""
    items: list[S.Item] = [S.Circle(x, y, r * 0.5, S.Style(stroke="#000000", fill="#222222", width=0.2))]
    for k in range(8):
        a = k * math.pi / 4
        items.append(S.Line(x + r * 0.65 * math.cos(a), y + r * 0.65 * math.sin(a),
                            x + r * math.cos(a), y + r * math.sin(a), S.Style(width=0.3)))
    return items


def start_icon(x: float, y: float, r: float, n: int) -> list[S.Item]:
    return [S.Circle(x, y, r, S.Style(stroke="#000000", fill="#ffffff", width=0.35)),
            S.Text(x, y + r * 0.42, str(n), size=r * 3.1, bold=True, anchor="middle")]


def ability_icon(box: tuple[float, float, float, float], ability: str) -> list[S.Item]:
    """A rounded box to cross out when used, with the ability's symbol."""
    x, y, w, h = box
    cx, cy = x + w / 2, y + h / 2
    items: list[S.Item] = [S.Rect(x, y, w, h, S.Style(width=0.3, fill="#f2f2f2"), radius=1.2)]
    if ability == "plusminus":
        items.append(S.Text(cx, cy + 1.1, "±1", size=8, bold=True, anchor="middle"))
    elif ability == "diagonal":
        d = w * 0.28
        items += [S.Line(cx - d, cy + d, cx + d, cy - d, S.Style(width=0.45)),
                  S.Path(((cx + d - 1.3, cy - d), (cx + d, cy - d), (cx + d, cy - d + 1.3)), style=S.Style(width=0.45))]
    elif ability == "yunco":
        d = w * 0.3
        items.append(S.Path(((cx - d, cy + 0.4), (cx - d / 2, cy - d / 2), (cx, cy + 0.4),
                             (cx + d / 2, cy - d / 2), (cx + d, cy + 0.4)), style=S.Style(width=0.45)))
    return items


def die_face(x: float, y: float, s: float, n: int) -> list[S.Item]:
    items: list[S.Item] = [S.Rect(x, y, s, s, S.Style(width=0.3), radius=s * 0.15)]
    q = s / 4
    spots = {1: [(2, 2)], 2: [(1, 1), (3, 3)], 3: [(1, 1), (2, 2), (3, 3)],
             4: [(1, 1), (3, 1), (1, 3), (3, 3)], 5: [(1, 1), (3, 1), (2, 2), (1, 3), (3, 3)],
             6: [(1, 1), (3, 1), (1, 2), (3, 2), (1, 3), (3, 3)]}[n]
    items += [S.Circle(x + a * q, y + b * q, s * 0.08, S.FILLED) for a, b in spots]
    return items


# ---- the page ------------------------------------------------------------------------

def _title(x: float, y: float, text: str, max_w: float = 90) -> S.Text:
    return S.Text(x, y, text, size=fit_size(text, max_w, 10, bold=True), bold=True)


def _note(x: float, y: float, text: str, max_w: float, size: float = 6.5, anchor: str = "start") -> S.Text:
    return S.Text(x, y, text, size=fit_size(text, max_w, size), anchor=anchor, color=GREY)


def _box(box, style: S.Style = INK) -> S.Rect:
    return S.Rect(*box, style=style)


def sheet_parts(spec: YuncosSheet, g: SheetGeometry, lang: str) -> dict[str, list[S.Item]]:
    """The sheet's drawing by named part, in drawing order: what the space checks
    (tests/test_yuncos_space.py) measure the gaps between."""
    L = spec.labels
    P: dict[str, list[S.Item]] = {}
    ox, oy = g.ox, g.oy

    # the header band: the title and the level; the map note and the player's name line
    title = spec.title(lang)
    level_w = text_width(L.level(lang), 12, True)
    P["header"] = [S.Text(ox, oy + 4.2, title, size=fit_size(title, CONTENT_W - level_w - 8, TITLE_PT, True), bold=True),
                   S.Text(ox + CONTENT_W, oy + 4.2, L.level(lang), size=12, bold=True, anchor="end"),
                   _note(ox, oy + 10.8, L.map_note(lang), CONTENT_W - NAME_W - 5, size=7)]
    # a name line: sheets are shuffled and dealt after the start points are chosen
    name = L.player(lang) + ":"
    x = ox + CONTENT_W - NAME_W
    P["player"] = [S.Text(x, oy + 10.8, name, size=8),
                   S.Line(x + text_width(name, 8) + 1.5, oy + 11.2, ox + CONTENT_W, oy + 11.2, S.Style(width=0.25))]
    P["header_rule"] = [S.Line(ox, g.header_y, ox + CONTENT_W, g.header_y, S.Style(stroke=GREY, width=0.2))]

    drawn = map_items(spec, g)
    letters = [it for it in drawn if isinstance(it, S.Text) and it.y < g.map_y]
    P["map"] = [it for it in drawn if not any(it is t for t in letters)]
    P["column_letters"] = letters
    if spec.level == "hard":
        P["patterns"] = pattern_items(spec, g, lang)
    P["legend"] = legend_items(spec, g, lang)
    P.update(puzzle_items(spec, g, lang))
    P.update(counter_items(spec, g, lang))
    P.update(dice_items(spec, g, lang))
    P["score"] = score_items(spec, g, lang)
    P["strip"] = strip_items(spec, g, lang)
    P["marks"] = [S.Rect(x, y, size, size, S.FILLED) for x, y, size in g.marks]
    return P


def sheet_items(spec: YuncosSheet, g: SheetGeometry, lang: str) -> list[S.Item]:
    return [it for part in sheet_parts(spec, g, lang).values() for it in part]


def map_items(spec: YuncosSheet, g: SheetGeometry) -> list[S.Item]:
    b = spec.board
    sq = g.square
    out: list[S.Item] = []
    # island: tint every square whose four corners are land, then grid, then land dots
    for r in range(b.height - 1):
        for c in range(b.width - 1):
            if all(v in b.land for v in ((c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1))):
                x, y = g.vertex((c, r))
                out.append(S.Rect(x, y, sq, sq, S.Style(stroke=None, fill=LAND_TINT)))
    x0, y0 = g.vertex((0, 0))
    x1, y1 = g.vertex((b.width - 1, b.height - 1))
    for c in range(b.width):
        x = g.vertex((c, 0))[0]
        out.append(S.Line(x, y0, x, y1, GRID))
        out.append(S.Text(x, y0 - sq * 0.45 - 1.2, vertex_name((c, 0))[:-1], size=6.5, anchor="middle", color=GREY))
    for r in range(b.height):
        y = g.vertex((0, r))[1]
        out.append(S.Line(x0, y, x1, y, GRID))
        out.append(S.Text(x0 - sq * 0.45 - 0.6, y + 0.8, str(r + 1), size=6.5, anchor="end", color=GREY))
    out.append(S.Rect(x0, y0, x1 - x0, y1 - y0, S.Style(width=0.4)))
    for v in sorted(b.land):
        if v not in b.lights and v not in b.starts.values():
            out.append(S.Circle(*g.vertex(v), 0.55, S.Style(stroke=None, fill="#7a6a45")))
    for v in sorted(b.fish):
        out += fish_icon(*g.vertex(v), sq * 0.75)
    for v in sorted(b.lights):
        out += light_icon(*g.vertex(v), sq * 0.3)
    for v, colour in sorted(b.stars.items()):
        c = spec.colours[colour]
        out += star_icon(*g.vertex(v), sq * 0.42, c.ink, c.letter, c.shape)
    for n, v in b.starts.items():
        out += start_icon(*g.vertex(v), max(sq * 0.26, 2.0), n)  # numbers of 6 pt at least
    return out


def pattern_items(spec: YuncosSheet, g: SheetGeometry, lang: str) -> list[S.Item]:
    L = spec.labels
    x = g.pattern_x
    out: list[S.Item] = [S.Text(x, g.map_y - 4.6, L.patterns(lang), size=fit_size(L.patterns(lang), 23, 8, True), bold=True)]
    slot = (g.map_h - 6) / 6
    for face in range(1, 7):
        top = g.map_y + 1 + (face - 1) * slot
        out += die_face(x, top + (slot - 7) / 2, 7, face)
        pts = [(0, 0)]
        for s in spec.patterns[str(face)].split():
            dx, dy = STEPS[s]
            pts.append((pts[-1][0] + dx, pts[-1][1] + dy))
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        span = max(max(xs) - min(xs), max(ys) - min(ys), 1)
        step = min(4.0, (slot - 4) / span, 12 / span)
        bx = x + 9 + (12 - (max(xs) - min(xs)) * step) / 2 - min(xs) * step
        by = top + (slot - (max(ys) - min(ys)) * step) / 2 - min(ys) * step
        mm = [(bx + px * step, by + py * step) for px, py in pts]
        for gx in range(min(xs), max(xs) + 1):  # a faint grid under the pattern
            out.append(S.Line(bx + gx * step, by + min(ys) * step, bx + gx * step, by + max(ys) * step, GRID))
        for gy in range(min(ys), max(ys) + 1):
            out.append(S.Line(bx + min(xs) * step, by + gy * step, bx + max(xs) * step, by + gy * step, GRID))
        out.append(S.Path(tuple(mm), style=S.Style(width=0.6)))
        out.append(S.Circle(*mm[0], 0.9, S.Style(stroke="#000000", fill="#ffffff", width=0.3)))
        out.append(S.Circle(*mm[-1], 0.7, S.FILLED))
    for k, line in enumerate(wrap(L.patterns_note(lang), PATTERN_COLUMN - 3, 6)):
        out.append(S.Text(x, g.map_y + g.map_h - 3 + k * 2.6, line, size=6, color=GREY))
    return out


def legend_items(spec: YuncosSheet, g: SheetGeometry, lang: str) -> list[S.Item]:
    """The map's key on one line; where its words run longer than the sheet is wide (the
    Spanish colour names of the Hard map on Letter), the gaps between them close up."""
    for gap, name_gap in ((5.0, 2.5), (3.5, 1.8), (2.5, 1.2)):
        out, end = _legend(spec, g, lang, gap, name_gap)
        if end <= g.ox + g.content_w:
            break
    return out


def _legend(spec: YuncosSheet, g: SheetGeometry, lang: str, gap: float, name_gap: float) -> tuple[list[S.Item], float]:
    L = spec.labels
    y = g.legend_y + 3
    x = g.ox
    out: list[S.Item] = []

    def label(text: str) -> None:
        nonlocal x
        out.append(S.Text(x, y + 1.1, text, size=7))
        x += text_width(text, 7) + gap

    out += fish_icon(x + 3, y, 6)
    x += 7
    label(L.fish(lang))
    out += light_icon(x + 2, y, 2.4)
    x += 5
    label(L.light(lang))
    out.append(S.Rect(x, y - 2, 5, 4, S.Style(stroke="#7a6a45", fill=LAND_TINT, width=0.2)))
    out.append(S.Circle(x + 2.5, y, 0.55, S.Style(stroke=None, fill="#7a6a45")))
    x += 6.5
    label(L.island(lang))
    out += start_icon(x + 2, y, 2.1, 1)
    x += 5
    label(L.start(lang))
    star = L.star(lang) + ":"
    out.append(S.Text(x, y + 1.1, star, size=7))
    x += text_width(star, 7) + 3
    for c in spec.colours.values():
        out += star_icon(x + 2.4, y, 2.8, c.ink, c.letter, c.shape)
        x += 5.8
        name = c.name(lang)
        out.append(S.Text(x, y + 1.1, name, size=7))
        x += text_width(name, 7) + name_gap
    return out, x - name_gap


def puzzle_items(spec: YuncosSheet, g: SheetGeometry, lang: str) -> dict[str, list[S.Item]]:
    """The nests (their rows; the ">" cues of row 2; the abilities key) and the luminaries."""
    L = spec.labels
    out: list[S.Item] = []
    parts: dict[str, list[S.Item]] = {"nests": out}
    top = g.puzzles_y
    # nests
    width = g.lum_x - 3.5 - GUTTER - g.ox
    out.append(_title(g.ox, top + 3.5, L.nests(lang), min(90, width)))
    out.append(_note(g.ox, top + 7.2, L.nests_rule(lang), width))
    n = spec.nests
    for row in range(2):
        bx, by, _, _ = g.nest_box(row, 0)
        out.append(S.Text(g.ox + 2.5, by + BOX / 2 + 1.2, str(row + 1), size=8, bold=True, anchor="middle"))
        for i in range(n.length):
            out.append(_box(g.nest_box(row, i)))
        for k, ability in enumerate(n.abilities[row]):
            out += ability_icon(g.nest_ability(row, k), ability)
    # the descending row: a ">" on a white disc just under the row, between every two
    # neighbouring boxes (across an ability box too), clear of the boxes
    out = parts["nest_cues"] = []
    for i in range(n.length - 1):
        x, y, w, h = g.nest_box(1, i)
        nx = g.nest_box(1, i + 1)[0]
        cx, cy = (x + w + nx) / 2, y + h + 0.9 + CUE_R
        out.append(S.Circle(cx, cy, CUE_R, S.Style(stroke=GREY, fill="#ffffff", width=0.2)))
        out.append(S.Text(cx + 0.1, cy + 1.05, ">", size=8, bold=True, anchor="middle"))
    # the abilities key sits under the nests
    out = parts["nests_key"] = []
    ky = g.nest_box(1, 0)[1] + BOX + 7.6
    out.append(S.Text(g.ox, ky, L.abilities(lang), size=7.5, bold=True))
    x = g.ox
    for ab in ("plusminus", "diagonal", "yunco"):
        out += ability_icon((x, ky + 1.5, 4.6, 4.6), ab)
        text = getattr(L, ab)(lang)
        out.append(S.Text(x + 5.8, ky + 4.8, text, size=7))
        x += 5.8 + text_width(text, 7) + 4
    # luminaries
    lum = spec.luminaries
    out = parts["luminaries"] = []
    out.append(_title(g.lum_x, top + 3.5, L.luminaries(lang), 60))
    for col in range(lum.columns):
        out += ability_icon(g.lum_ability(col), lum.abilities[col])
        for level in range(lum.height):
            out.append(_box(g.lum_box(col, level)))
    # one arrow beside the grid: columns fill from the bottom up
    x, y_top, _, _ = g.lum_box(0, lum.height - 1)
    y_bottom = g.lum_box(0, 0)[1] + BOX
    ax = x - 2.5
    out.append(S.Line(ax, y_bottom - 1, ax, y_top + 2, S.Style(stroke=GREY, width=0.3)))
    out.append(S.Path(((ax - 1, y_top + 3.5), (ax, y_top + 1.5), (ax + 1, y_top + 3.5)), closed=True,
                      style=S.Style(stroke=GREY, fill=GREY, width=0.2)))
    right = g.lum_x + lum.columns * BOX + 4
    width = g.ox + CONTENT_W - right
    y = top + 9
    for line in wrap(L.luminaries_rule(lang), width, 6.5):
        out.append(S.Text(right, y, line, size=6.5, color=GREY))
        y += 2.8
    # solo ranks under the luminary rule
    y += 2
    out.append(S.Text(right, y, L.solo(lang), size=7, bold=True))
    for rng, words in reversed(rank_ranges()):  # best first, as players look for it
        y += 3
        out.append(S.Text(right, y, rng, size=6.5, bold=True))
        for k, line in enumerate(wrap(words(lang), width - 8.5, 6.5)):
            y += 2.7 if k else 0
            out.append(S.Text(right + 8.5, y, line, size=6.5))
    return parts


def counter_items(spec: YuncosSheet, g: SheetGeometry, lang: str) -> dict[str, list[S.Item]]:
    """The fish counter (boxes, values, the abilities they unlock) and the crash track."""
    L = spec.labels
    out: list[S.Item] = []
    parts = {"fish": out}
    top = g.counters_y
    out.append(_title(g.ox, top + 3.5, L.fish_counter(lang), 60))
    for i, value in enumerate(spec.fish.values):
        box = g.fish_box(i)
        out.append(_box(box))
        x, y, w, h = box
        out.append(S.Text(x + w / 2, y + h + 3, str(value), size=7, bold=True, anchor="middle"))
        ability = spec.fish_ability(i + 1)
        if ability:
            out += ability_icon(g.fish_ability(i), ability)
    out = parts["crashes"] = []
    out.append(_title(g.crash_x, top + 3.5, L.crashes(lang), 50))
    for i, value in enumerate(CRASH_TRACK):
        box = g.crash_box(i)
        out.append(_box(box, HEAVY))
        x, y, w, h = box
        out.append(S.Text(x + w / 2, y + h + 3, f"-{value}", size=7, bold=True, anchor="middle"))
    x, y, w, h = g.crash_box(len(CRASH_TRACK) - 1)
    rule_w = g.stamp[0] - 2 - g.crash_x
    for k, line in enumerate(wrap(L.crashes_rule(lang), rule_w, 6.5)[:2]):
        out.append(S.Text(g.crash_x, y + h + 7 + k * 2.8, line, size=6.5, color=GREY))
    return parts


def dice_items(spec: YuncosSheet, g: SheetGeometry, lang: str) -> dict[str, list[S.Item]]:
    """The dice log: its heading, the turn numbers, the boxes."""
    L = spec.labels
    heading = [_title(g.ox, g.dice_y + 3.5, L.dice(lang), 70),
               _note(g.ox + CONTENT_W, g.dice_y + 3.5, L.dice_rule(lang), 110, anchor="end")]
    numbers: list[S.Item] = []
    boxes: list[S.Item] = []
    for turn in range(1, spec.dice_log + 1):
        a = g.dice_box(turn, 0)
        b = g.dice_box(turn, 1)
        numbers.append(S.Text((a[0] + b[0] + b[2]) / 2, a[1] - 0.7, str(turn), size=6, anchor="middle", color=GREY))
        boxes.append(S.Rect(*a, style=S.Style(width=0.25)))
        boxes.append(S.Rect(*b, style=S.Style(width=0.25, dash=(0.8, 0.5))))
    return {"dice_heading": heading, "dice_numbers": numbers, "dice_boxes": boxes}


def score_items(spec: YuncosSheet, g: SheetGeometry, lang: str) -> list[S.Item]:
    L = spec.labels
    out: list[S.Item] = []
    ops = ["+", "+", "+", "−", "="]
    for i, name in enumerate(g.SCORE_PARTS):
        x, y, w, h = g.score_box(name)
        text = getattr(L, f"score_{name}")(lang)
        bold = name == "total"
        out.append(S.Text(x + w / 2, y - 1, text, size=fit_size(text, w + 5, 7, bold), bold=bold, anchor="middle"))
        out.append(_box((x, y, w, h), HEAVY if bold else INK))
        if i < len(ops):
            out.append(S.Text(x + w + 3, y + h / 2 + 1.4, ops[i], size=11, bold=True, anchor="middle"))
    # the scale check: a 50 mm bar and "print at actual size", right of the score boxes
    x0 = g.ox + CONTENT_W - 52
    out += marks.scale_check(x0, g.score_y + 2, lang, width=52, label=L.calibration(lang),
                             actual=marks.words(lang, "actual_short"))
    return out


def strip_items(spec: YuncosSheet, g: SheetGeometry, lang: str) -> list[S.Item]:
    """The scoring and rules strip: the layout's columns side by side, a heading and the
    text of each (as many lines as the longest takes in any language), under a thin rule."""
    cols = spec.labels.strip
    if not cols:
        return []
    y = g.strip_y
    out: list[S.Item] = [S.Line(g.ox, y, g.ox + CONTENT_W, y, S.Style(stroke=GREY, width=0.2))]
    w = g.strip_w
    for k, col in enumerate(cols):
        x = g.ox + k * (w + STRIP_GAP)
        out.append(S.Text(x, y + 2.8, col.title(lang), size=fit_size(col.title(lang), w, STRIP_PT, True, STRIP_PT),
                          bold=True))
        for n, line in enumerate(wrap(col.text(lang), w, STRIP_PT)[:g.strip_lines]):
            out.append(S.Text(x, y + 5.6 + n * STRIP_LEAD, line, size=STRIP_PT))
    return out


def compose_page(spec: YuncosSheet, paper: str, lang: str) -> S.Page:
    g = sheet_geometry(spec, paper)
    return S.Page(g.page[0], g.page[1], sheet_items(spec, g, lang), stamp=g.stamp)


def duplex_levels(layout) -> list:
    """The front and back levels a two-sided sheet names: ids, or paths beside its file."""
    from sheetkit import layouts

    return [layouts.load_for(getattr(layout.spec, side), str(layout.path), side, "yuncos", ("sheet",))
            for side in ("front", "back")]


def compose(layout, paper: str, lang: str, scale: str = "real") -> S.Scene:
    title = f"{layout.spec.title(lang)}"
    if layout.kind == "duplex":
        pages = []
        for side, level in enumerate(duplex_levels(layout)):
            page = compose_page(level.spec, paper, lang)
            page.source = (level.id, level.version)
            page.back = side == 1
            pages.append(page)
        return S.Scene(pages, title=title)
    return S.Scene([compose_page(layout.spec, paper, lang)], title=f"{title}: {layout.spec.labels.level(lang)}")
