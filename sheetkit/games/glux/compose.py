"""Glüx layouts -> Scenes: the board sides (tiled at real size, or fitted on one page), the
chips (fronts and mirrored backs for duplex printing), the score track and the score pad,
and the final board of a checked record with its findings marked."""

from __future__ import annotations

import math

from sheetkit.paper import tables as T
from sheetkit.paper import tiling
from sheetkit.paper.pads import STAMP
from sheetkit.games.glux.rules import PAIRS
from sheetkit.games.glux.layout import GluxBoard, GluxChips, GluxScorePad, GluxScoreTrack
from sheetkit.grid import square_name
from sheetkit.paper import marks
from sheetkit.paper.measure import fit_size, text_width
from sheetkit.paper.scene import (BLACK, SAFE_MARGIN, WHITE, Circle, Form, Item, Line, Page, Rect, Scene, Style,
                            Text, Use, hatch, paper_size)

GRID_LINE = Style(stroke="#6b6b6b", width=0.2)
WALL = Style(stroke=BLACK, width=0.9)
BORDER = Style(stroke=BLACK, width=1.2)
PATTERN = Style(stroke="#8c8c8c", width=0.15)
FORM = "glux-board"


# ------------------------------------------------------------------ the board


def _label_square(squares) -> tuple[int, int]:
    """The square of a room nearest its centre: where its label goes."""
    cx = sum(c for c, _ in squares) / len(squares)
    cy = sum(r for _, r in squares) / len(squares)
    return min(squares, key=lambda s: ((s[0] - cx) ** 2 + (s[1] - cy) ** 2, s[1], s[0]))


def _pattern(kind: str, x: float, y: float, s: float) -> list[Item]:
    gap = s * 0.16
    if kind == "lines-45":
        return hatch(x, y, s, s, gap, 45, PATTERN)
    if kind == "lines-135":
        return hatch(x, y, s, s, gap, 135, PATTERN)
    if kind == "lines-0":
        return hatch(x, y, s, s, gap, 0, PATTERN)
    if kind == "lines-90":
        return hatch(x, y, s, s, gap, 90, PATTERN)
    if kind == "grid":
        return hatch(x, y, s, s, gap * 1.2, 0, PATTERN) + hatch(x, y, s, s, gap * 1.2, 90, PATTERN)
    if kind == "cross":
        return hatch(x, y, s, s, gap * 1.3, 45, PATTERN) + hatch(x, y, s, s, gap * 1.3, 135, PATTERN)
    if kind == "dots":
        n = 5
        step = s / n
        return [Circle(x + (i + 0.5) * step, y + (j + 0.5) * step, s * 0.022, Style(stroke=None, fill="#6b6b6b"))
                for i in range(n) for j in range(n)]
    return []


def board_items(spec: GluxBoard, lang: str, sq: float, ox: float = 0.0, oy: float = 0.0,
                names: bool = True, labels_aside: bool = False) -> list[Item]:
    """The board drawn with squares of `sq` mm, its top-left corner at (ox, oy).
    `labels_aside`: room labels small in a square's bottom-left corner, leaving its middle
    free for a chip drawn on top."""
    g = spec
    items: list[Item] = []
    region = {}
    for r, row in enumerate(spec.rows):
        for c, ch in enumerate(row):
            e = spec.legend[ch]
            region[(c, r)] = e.room if e.room is not None else ("start" if e.start else None)
    W, H = g.width * sq, g.height * sq
    items.append(Rect(ox, oy, W, H, Style(stroke=None, fill=WHITE)))
    for (c, r), rid in region.items():
        if rid in spec.rooms:
            room = spec.rooms[rid]
            x, y = ox + c * sq, oy + r * sq
            items.append(Rect(x, y, sq, sq, Style(stroke=None, fill=room.tint)))
            items += _pattern(room.pattern, x, y, sq)
    for c in range(1, g.width):
        items.append(Line(ox + c * sq, oy, ox + c * sq, oy + H, GRID_LINE))
    for r in range(1, g.height):
        items.append(Line(ox, oy + r * sq, ox + W, oy + r * sq, GRID_LINE))
    # walls: between a room and anything else
    for (c, r), rid in region.items():
        for dc, dr in ((1, 0), (0, 1)):
            other = region.get((c + dc, r + dr), "edge")
            if other == "edge" or other == rid:
                continue
            if rid in spec.rooms or other in spec.rooms:
                x, y = ox + (c + dc) * sq, oy + (r + dr) * sq
                if dc:
                    items.append(Line(x, y, x, y + sq, WALL))
                else:
                    items.append(Line(x, y, x + sq, y, WALL))
    items.append(Rect(ox, oy, W, H, BORDER))
    label_size = 7 if sq >= 20 else 6
    if names and sq >= 12:
        for (c, r) in region:
            text = square_name((c, r))
            x, y = ox + c * sq, oy + r * sq
            tw = text_width(text, label_size)
            items.append(Rect(x + 0.8, y + 0.8, tw + 1.2, label_size * 0.3528 + 0.9,
                              Style(stroke=None, fill=WHITE)))
            items.append(Text(x + 1.4, y + 0.8 + label_size * 0.3528 * 0.95, text, size=label_size, color="#333333"))
    # start squares
    for s, counts in g.starts.items():
        x, y = ox + s[0] * sq + sq / 2, oy + s[1] * sq + sq / 2
        items.append(Circle(x, y, sq * 0.36, Style(stroke=BLACK, width=0.6, fill=WHITE)))
        items.append(Circle(x, y, sq * 0.30, Style(stroke=BLACK, width=0.2, dash=(1.0, 0.8))))
        start = spec.labels.start(lang)
        size = fit_size(start, sq * 0.5, 8 if sq >= 20 else 6, bold=True)
        items.append(Text(x, y - sq * 0.02, start, size=size, bold=True, anchor="middle"))
        numbers, word = "·".join(str(n) for n in sorted(counts)), spec.labels.players(lang)
        who = f"{numbers} {word}"
        size = fit_size(who, sq * 0.52, 7 if sq >= 20 else 6)
        if text_width(who, size) <= sq * 0.6:
            items.append(Text(x, y + sq * 0.14, who, size=size, anchor="middle"))
        else:  # a small board: the counts alone (the word would run out of the circle);
            # the fitted page's note says what they count
            items.append(Text(x, y + sq * 0.16, numbers, size=6, anchor="middle"))
    # room labels
    for rid, squares in g.room_squares.items():
        if not squares:
            continue
        c, r = _label_square(squares)
        label = spec.rooms[rid].label(lang)
        big = len(label) <= 2
        # a word ("middle") may use the room's run of squares in the label's row, so that
        # it stays readable where the board is printed reduced (the assembly page)
        run = 1
        while (c - run, r) in squares and (c + run, r) in squares:
            run += 1
        span = 2 * run - 1
        if labels_aside:
            size = fit_size(label, sq * 0.6, 8, bold=True, min_pt=5)
        elif big:
            size = fit_size(label, sq * 0.8, 26 * sq / 25, bold=True, min_pt=5)
        else:
            size = fit_size(label, sq * (span - 0.2), (16 if span >= 3 else 12) * sq / 25, bold=True, min_pt=5)
        tw = text_width(label, size, True)
        hgt = size * 0.3528
        x, y = ox + c * sq + sq / 2, oy + r * sq + sq / 2 + hgt * 0.36
        if labels_aside:
            x, y = ox + c * sq + 1.6 + tw / 2, oy + (r + 1) * sq - 1.6
        items.append(Rect(x - tw / 2 - 1.2, y - hgt * 0.78 - 1.0, tw + 2.4, hgt * 0.78 + 2.0,
                          Style(stroke=BLACK, width=0.3, fill=WHITE), radius=1.0))
        items.append(Text(x, y, label, size=size, bold=True, anchor="middle"))
    return items


def board_form(spec: GluxBoard, lang: str) -> Form:
    g = spec
    return Form(g.width * spec.square, g.height * spec.square, board_items(spec, lang, spec.square))


def fit_page(spec: GluxBoard, paper: str, title: str, bottom: float = 0.0) -> tuple[Page, float, float, float]:
    """A page (orientation to suit the board) with the title, the stamp square at the top
    right, and the board fitted below: (page, square size, x, y of the board)."""
    g = spec
    pw, ph = paper_size(paper)
    if g.width > g.height:
        pw, ph = max(pw, ph), min(pw, ph)
    m = SAFE_MARGIN
    top = m + STAMP + 3
    aw, ah = pw - 2 * m - 2, ph - m - top - bottom - 1
    sq = min(aw / g.width, ah / g.height, spec.square)
    x = m + 1 + (aw - g.width * sq) / 2
    page = Page(pw, ph, [Text(m, m + 7, title, size=15, bold=True)],
                stamp=(pw - m - STAMP, m, STAMP))
    return page, sq, x, top


FIT_NOTE = 9.0  # mm under a fitted board for its note


def fit_note(spec: GluxBoard, lang: str, sq: float, page: Page) -> list[Item]:
    """Under a board fitted to one page: its square size, that the real chips will not fit
    on it, and what the numbers in the start circles count."""
    m = SAFE_MARGIN
    size = f"{sq:.1f}".replace(".", "," if lang == "es" else ".")
    lines = [marks.words(lang, "fit", size=size)]
    counts = sorted({n for c in spec.starts.values() for n in c})
    numbers = "·".join(str(n) for n in counts)
    lines.append(marks.words(lang, "fit_start", start=spec.labels.start(lang), nums=numbers,
                             alts=marks.words(lang, "or").join(str(n) for n in counts)))
    w = page.width - 2 * m
    y = page.height - m - FIT_NOTE + 3.5
    out: list[Item] = []
    for k, line in enumerate(lines):
        out.append(Text(m, y + k * 3.6, line, size=fit_size(line, w, 8 if k == 0 else 7, k == 0), bold=k == 0))
    return out


def compose_board(layout, paper: str, lang: str, scale: str) -> Scene:
    spec: GluxBoard = layout.spec
    title = spec.title(lang)
    if scale == "fit":
        page, sq, x, y = fit_page(spec, paper, title, bottom=FIT_NOTE)
        page.items += board_items(spec, lang, sq, x, y)
        page.items += fit_note(spec, lang, sq, page)
        return Scene([page], {}, title)
    form = board_form(spec, lang)
    lab = spec.labels
    text = tiling.TileText(title=title, assembly=lab.assembly(lang), note=lab.assembly_note(lang),
                           tile=lab.tile(lang), row=lab.row(lang), column=lab.column(lang),
                           overlap=lab.overlap(lang), lang=lang)
    # page 1 reduces the board without the square names: too small to print there
    overview = board_items(spec, lang, spec.square, names=False)
    pages = tiling.tile_pages(FORM, form, paper, text, overview=overview)
    return Scene(pages, {FORM: form}, title)


# ------------------------------------------------------------------ chips

PIP_SPOTS = {
    1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def chip_items(x: float, y: float, s: float, face: int, colour, lang: str = "en") -> list[Item]:
    """One square chip of side `s` at (x, y) showing `face` pips."""
    ink = colour.ink
    items: list[Item] = [Rect(x, y, s, s, Style(stroke=None, fill=colour.tint))]
    inset = s * 0.09
    fx, fy, fs = x + inset, y + inset, s - 2 * inset
    if colour.frame == "solid":
        items.append(Rect(fx, fy, fs, fs, Style(stroke=ink, width=0.6), radius=1.2))
    elif colour.frame == "dashed":
        items.append(Rect(fx, fy, fs, fs, Style(stroke=ink, width=0.6, dash=(1.6, 1.0))))
    elif colour.frame == "double":
        items.append(Rect(fx, fy, fs, fs, Style(stroke=ink, width=0.35)))
        items.append(Rect(fx + 0.9, fy + 0.9, fs - 1.8, fs - 1.8, Style(stroke=ink, width=0.35)))
    else:  # dotted
        items.append(Rect(fx, fy, fs, fs, Style(stroke=ink, width=0.7, dash=(0.3, 0.9))))
    cx, cy = x + s / 2, y + s / 2
    step = s * 0.17
    for dx, dy in PIP_SPOTS[face]:
        items.append(Circle(cx + dx * step, cy + dy * step, s * 0.058, Style(stroke=None, fill=BLACK)))
    size = 7 * s / 20
    pad = 1.6 if colour.frame == "double" else 1.0
    # the letter in the two corners that the pips of 2 and 3 leave free
    letter = colour.letter_in(lang)
    items.append(Text(fx + fs - pad, fy + pad + size * 0.3528 * 0.75, letter, size=size, bold=True,
                      anchor="end", color=ink))
    items.append(Text(fx + pad, fy + fs - pad, letter, size=size, bold=True, color=ink))
    return items


CROP_LEN = 2.5  # mm: each crop mark
MAX_BLEED = 3.0  # mm


def chip_grid(spec: GluxChips, paper: str, bleed: float = 0.0) -> tuple[float, float, int, int]:
    """(x of the grid on the front page, y, columns, rows): room left of and above it for
    the bleed and the crop marks beyond it."""
    cols = spec.per_pair
    rows = len(spec.colours) * len(PAIRS)
    out = bleed + 1 + CROP_LEN + 0.2  # the marks start 1 mm past the bleed
    return SAFE_MARGIN + out, SAFE_MARGIN + 8 + bleed, cols, rows


def chip_faces(spec: GluxChips) -> list[tuple[int, int, object, int, int]]:
    """(row, column, colour, front face, back face) of every chip."""
    out = []
    for ci, colour in enumerate(spec.colours):
        for pi, (lo, hi) in enumerate(PAIRS):
            for k in range(spec.per_pair):
                out.append((ci * len(PAIRS) + pi, k, colour, lo, hi))
    return out


def chip_x(spec: GluxChips, paper: str, col: int, back: bool, bleed: float = 0.0) -> float:
    """Left edge of a chip: on the back, mirrored so it lands behind its front (long-edge flip)."""
    x0, _, _, _ = chip_grid(spec, paper, bleed)
    x = x0 + col * spec.chip
    if back:
        return paper_size(paper)[0] - x - spec.chip
    return x


def compose_chips(layout, paper: str, lang: str, bleed: float = 0.0) -> Scene:
    """The fronts and the backs of the chips, with crop marks outside the cut area (the
    PDF's TrimBox) and, with `bleed` mm, the chips' colour running that far past the outer
    cut lines (BleedBox); inside the grid, neighbouring chips' colours meet on the cut."""
    spec: GluxChips = layout.spec
    W, H = paper_size(paper)
    s = spec.chip
    b = bleed
    x0, y0, cols, rows = chip_grid(spec, paper, b)
    pages = []
    for back in (False, True):
        gx = chip_x(spec, paper, cols - 1, True, b) if back else x0
        gw, gh = cols * s, rows * s
        items: list[Item] = []
        if b:  # each row's tint past the outer cut lines
            for r in range(rows):
                tint = spec.colours[r // len(PAIRS)].tint
                top = y0 + r * s - (b if r == 0 else 0)
                h = s + (b if r == 0 else 0) + (b if r == rows - 1 else 0)
                items.append(Rect(gx - b, top, gw + 2 * b, h, Style(stroke=None, fill=tint)))
        for row, col, colour, lo, hi in chip_faces(spec):
            items += chip_items(chip_x(spec, paper, col, back, b), y0 + row * s, s, hi if back else lo, colour, lang)
        cut = Style(stroke=BLACK, width=0.25)
        for c in range(cols + 1):
            items.append(Line(gx + c * s, y0, gx + c * s, y0 + gh, cut))
        for r in range(rows + 1):
            items.append(Line(gx, y0 + r * s, gx + gw, y0 + r * s, cut))
        trim = (gx, y0, gw, gh)
        items += marks.crop_marks(trim, b + 1, CROP_LEN, tuple(gx + c * s for c in range(1, cols)),
                                  tuple(y0 + r * s for r in range(1, rows)))
        head = f"{spec.title(lang)} · {spec.labels.backs(lang) if back else spec.labels.fronts(lang)}"
        note = spec.labels.note(lang)
        head_w = gw - text_width(note, 7) - 4
        ty = SAFE_MARGIN + 3.2  # above the crop marks
        items.append(Text(gx, ty, head, size=fit_size(head, head_w, 9, True), bold=True))
        items.append(Text(gx + gw, ty, note, size=7, anchor="end"))
        stamp = None
        if not back:
            kx = x0 + gw + b + 1 + CROP_LEN + 0.8
            stamp = (kx, y0, min(STAMP, W - SAFE_MARGIN - kx))
            # the colour key beside the chips, below the stamp square
            ky = y0 + STAMP + 8
            for i, colour in enumerate(spec.colours):
                yy = ky + i * len(PAIRS) * s
                items.append(Text(kx, yy, colour.letter_in(lang), size=9, bold=True, color=colour.ink))
                items.append(Text(kx, yy + 4, colour.name(lang), size=6.5))
            # the scale check under the key: the chips are cut at real size
            kw = W - SAFE_MARGIN - kx
            items += marks.scale_square(kx + 1.5, ky + (len(spec.colours) - 1) * len(PAIRS) * s + 8,
                                        min(15.0, math.floor(kw - 2)), lang, kw - 1.5)
        bleed_box = (gx - b, y0 - b, gw + 2 * b, gh + 2 * b)
        pages.append(Page(W, H, items, stamp=stamp, back=back, trim=trim, bleed=bleed_box))
    return Scene(pages, {}, spec.title(lang))


# ------------------------------------------------------------------ score track and pad


def compose_track(layout, paper: str, lang: str) -> Scene:
    spec: GluxScoreTrack = layout.spec
    W, H = paper_size(paper)
    m = SAFE_MARGIN
    b = spec.box
    n = spec.per_row
    x0 = (W - n * b) / 2
    y0 = m + STAMP + 6
    items: list[Item] = [Text(m, m + 7, spec.title(lang), size=15, bold=True),
                         Text(m, m + 13, spec.labels.note(lang), size=9)]
    rowgap = 6.0
    for v in range(spec.last + 1):
        r, k = divmod(v, n)
        c = k if r % 2 == 0 else n - 1 - k
        x, y = x0 + c * b, y0 + r * (b + rowgap)
        thick = v % 5 == 0
        st = Style(stroke=BLACK, width=0.6 if thick else 0.3, fill="#eeeeee" if v % 10 == 0 else None)
        items.append(Rect(x, y, b, b, st))
        items.append(Text(x + b / 2, y + b / 2 + 2.2, str(v), size=13 if thick else 11, bold=thick,
                          anchor="middle", color="#222222"))
        # the way on to the next row: a connector at the row's end
        if k == n - 1 and v < spec.last:
            cx = x + b / 2
            items.append(Line(cx, y + b, cx, y + b + rowgap, Style(stroke=BLACK, width=0.6)))
    rows = spec.last // n + 1
    y = y0 + rows * (b + rowgap) + 6
    for label in spec.labels.scoring:
        for line in tiling.wrap(label(lang), W - 2 * m, 10):
            items.append(Text(m, y, line, size=10))
            y += 5
    page = Page(W, H, items, stamp=(W - m - STAMP, m, STAMP))
    return Scene([page], {}, spec.title(lang))


def pad_rows(spec: GluxScorePad, lang: str) -> list[T.Row]:
    """The names, then a row per room (pips, place and VP for each player), the middle
    room last and bold, the totals, the tiebreak and the winner."""
    L = spec.labels
    parts = (L.pips(lang), L.place(lang), L.vp(lang))
    return ([T.Row("name", L.player(lang)), T.Row("heads", L.room(lang), parts=parts)]
            + [T.Row("split", room, parts=parts) for room in spec.rooms]
            + [T.Row("split", L.middle(lang), parts=parts, bold=True),
               T.Row("value", L.total(lang), bold=True),
               T.Row("value", L.tiebreak(lang)),
               T.Row("mark", L.winner(lang))])


def compose_pad(layout, paper: str, lang: str) -> Scene:
    spec: GluxScorePad = layout.spec
    L = spec.labels
    W, H = paper_size(paper)
    m = SAFE_MARGIN
    items: list[Item] = [Text(m, m + 7, spec.title(lang), size=fit_size(spec.title(lang), W - 2 * m - STAMP - 4, 15, True),
                              bold=True)]
    date = L.date(lang)
    items.append(Text(m, m + 15, date, size=8))
    dx = m + text_width(date, 8) + 2
    items.append(Line(dx, m + 15.5, dx + 50, m + 15.5, T.RULE))
    label_w = 44.0
    inner = m + 2  # the table's frame clear of the printer margin
    g = T.Geometry(x=inner, y=m + STAMP + 4, label_w=label_w, col_w=(W - 2 * inner - label_w) / spec.players,
                   players=spec.players, row_h=spec.row_height, box=spec.row_height - 3)
    y = T.draw(g, pad_rows(spec, lang), items, player_word=L.player(lang)) + 6
    for note in [L.side_note(lang)] + [r(lang) for r in L.rules]:
        for ln in tiling.wrap(note, W - 2 * m, 8):
            items.append(Text(m, y, ln, size=8))
            y += 4
    name = f"glux-pad-{paper}-{lang}"
    return Scene([Page(W, H, [Use(name)], stamp=(W - m - STAMP, m, STAMP))], {name: Form(W, H, items)},
                 spec.title(lang))


def compose(layout, paper: str, lang: str, scale: str = "real", bleed: float = 0.0) -> Scene:
    if layout.kind == "chips":
        return compose_chips(layout, paper, lang, bleed)
    if layout.kind == "board":
        return compose_board(layout, paper, lang, scale)
    if layout.kind == "score-track":
        return compose_track(layout, paper, lang)
    return compose_pad(layout, paper, lang)


# ------------------------------------------------------------------ a checked record
