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
ART = "glux-board-art"  # the board without its labels: what the glue strips show


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
                names: bool = True, labels_aside: bool = False, part: str = "all") -> list[Item]:
    """The board drawn with squares of `sq` mm, its top-left corner at (ox, oy).
    `labels_aside`: room labels small in a square's bottom-left corner, leaving its middle
    free for a chip drawn on top. `part`: "all", "art" (tints, patterns, grid, walls and
    border: what a tile's glue strip shows, with no label to be printed clipped) or
    "labels" (square names, start circles and room labels, each inside its square)."""
    g = spec
    if part == "art":
        return board_items(spec, lang, sq, ox, oy, names, labels_aside)[:_art_count(spec, sq, ox, oy)]
    if part == "labels":
        return board_items(spec, lang, sq, ox, oy, names, labels_aside)[_art_count(spec, sq, ox, oy):]
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
    # everything from here on is a label
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
        numbers, word = "-".join(str(n) for n in sorted(counts)), spec.labels.players(lang)
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


def _art_count(spec: GluxBoard, sq: float, ox: float, oy: float) -> int:
    """How many of board_items' items are the art (drawn before the first label): up to
    and including the border."""
    items = board_items(spec, "en", sq, ox, oy, names=False)
    return next(i for i, it in enumerate(items) if isinstance(it, Rect) and it.style == BORDER) + 1


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
    numbers = "-".join(str(n) for n in counts)
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
    art = Form(form.width, form.height, board_items(spec, lang, spec.square, part="art"))
    pages = tiling.tile_pages(FORM, form, paper, text, overview=overview, step=(spec.square, spec.square),
                              keep=label_boxes(spec, lang), art=ART)
    return Scene(pages, {FORM: form, ART: art}, title)


def label_boxes(spec: GluxBoard, lang: str) -> tuple[tiling.Box, ...]:
    """Where the board's labels lie at real size (square names, start circles and their
    words, room labels with their boxes): what no seam and no registration mark may cross."""
    from sheetkit.paper.scene import bounds

    out = []
    for it in board_items(spec, lang, spec.square, part="labels"):
        b = bounds([it])
        if b is not None:
            out.append(b)
    return tuple(sorted(set(out)))


def board_plan(spec: GluxBoard, paper: str, lang: str) -> tiling.Plan:
    """The tiles a board side prints on at real size (what compose_board uses)."""
    return tiling.plan(spec.width * spec.square, spec.height * spec.square, paper,
                       step=(spec.square, spec.square), keep=label_boxes(spec, lang))


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


CROP_LEN = 2.5  # mm: each crop mark (outside the block: on its edges)
MAX_BLEED = 3.0  # mm
GUTTER = 4.0  # mm of white between neighbouring chips' printed colour (between their cut lines without bleed)
CROP_CLEAR = 0.5  # mm between a crop mark and any colour
HEAD = 11.0  # mm above the chips for the title and the colour key
CUT_LINE = Style(stroke=BLACK, width=0.25)
SIDE = 22.0  # mm beside the chips that the stamp square and the scale check need


def chip_pitch(spec: GluxChips, bleed: float = 0.0) -> float:
    """From one chip's cut line to the next one's: the chip, its bleed on both sides of the
    gutter, and the white gutter between the colours where the crop marks go."""
    return spec.chip + 2 * bleed + GUTTER


def chip_outer(bleed: float = 0.0) -> float:
    """How far the printing reaches past the outer cut lines: the bleed and, in bleed mode,
    the crop marks beyond it; the cut lines' half stroke without."""
    return bleed + CROP_CLEAR + CROP_LEN + marks.CROP.width if bleed else CUT_LINE.width / 2 + 0.5


def chip_sheets(spec: GluxChips, paper: str, bleed: float = 0.0) -> list[list[list[tuple]]]:
    """The chips sheet by sheet, column by column: each column one colour and one pair of
    faces (G1: `per_pair` chips of 1|6, of 2|5, of 3|4), as many whole colours to a sheet as
    fit its width (3 columns each), a column split where it is taller than the page.
    Each chip: (colour, front face, back face)."""
    W, H = paper_size(paper)
    s, p, o = spec.chip, chip_pitch(spec, bleed), chip_outer(bleed)
    fit_cols = max(1, int((W - 2 * SAFE_MARGIN - 2 * o + p - s) // p))
    fit_rows = max(1, int((H - 2 * SAFE_MARGIN - HEAD - 2 * o + p - s) // p))
    columns = []
    for colour in spec.colours:
        for lo, hi in PAIRS:
            chips = [(colour, lo, hi)] * spec.per_pair
            for k in range(0, len(chips), fit_rows):
                columns.append(chips[k:k + fit_rows])
    per_colour = len(PAIRS) * math.ceil(spec.per_pair / fit_rows)
    per_sheet = (fit_cols // per_colour) * per_colour or fit_cols
    return [columns[k:k + per_sheet] for k in range(0, len(columns), per_sheet)]


def chip_grid(spec: GluxChips, paper: str, bleed: float = 0.0) -> tuple[float, float, int, int]:
    """(x of the first chip's left cut line on a front page, y of its top cut line, the
    columns and rows of the fullest sheet)."""
    sheets = chip_sheets(spec, paper, bleed)
    cols = max(len(sh) for sh in sheets)
    rows = max(len(c) for sh in sheets for c in sh)
    o, p = chip_outer(bleed), chip_pitch(spec, bleed)
    W = paper_size(paper)[0]
    gw = cols * p - (p - spec.chip)
    x0 = SAFE_MARGIN + o
    y0 = SAFE_MARGIN + HEAD + o
    side = W - SAFE_MARGIN - (x0 + gw + o) - 1.5
    below = paper_size(paper)[1] - SAFE_MARGIN - (y0 + rows * p - (p - spec.chip) + o) - 1.5
    if side < SIDE and below > side:  # more room below: centred, the stamp below
        x0 = (W - gw) / 2
    return x0, y0, cols, rows


def chip_faces(spec: GluxChips) -> list[tuple[int, int, object, int, int]]:
    """(row, column, colour, front face, back face) of every chip, on the sheet it is printed
    on (A4; the sheet is not part of the tuple)."""
    out = []
    for sheet in chip_sheets(spec, "a4"):
        for col, column in enumerate(sheet):
            for row, (colour, lo, hi) in enumerate(column):
                out.append((row, col, colour, lo, hi))
    return out


def chip_x(spec: GluxChips, paper: str, col: int, back: bool, bleed: float = 0.0) -> float:
    """Left cut line of a chip: on the back, mirrored so it lands behind its front (long-edge flip)."""
    x0, _, _, _ = chip_grid(spec, paper, bleed)
    x = x0 + col * chip_pitch(spec, bleed)
    if back:
        return paper_size(paper)[0] - x - spec.chip
    return x


def chip_crop_marks(boxes: list[tuple[float, float]], s: float, bleed: float) -> list[Item]:
    """Crop marks for chips of side `s` whose top-left corners are `boxes`: at every corner,
    short lines on the extension of its two cut lines, in the white gutter beyond the bleed
    (never over colour); marks that two neighbours share are drawn once."""
    reach = bleed + CROP_CLEAR
    lines = set()
    for x, y in boxes:
        for cx, sx in ((x, -1), (x + s, 1)):
            for cy, sy in ((y, -1), (y + s, 1)):
                # the horizontal cut line y = cy, beyond the chip's side; the vertical one x = cx
                a, b = cx + sx * reach, cx + sx * (reach + CROP_LEN)
                lines.add((round(min(a, b), 4), round(cy, 4), round(max(a, b), 4), round(cy, 4)))
                a, b = cy + sy * reach, cy + sy * (reach + CROP_LEN)
                lines.add((round(cx, 4), round(min(a, b), 4), round(cx, 4), round(max(a, b), 4)))
    return [Line(*ln, marks.CROP) for ln in sorted(lines)]


def compose_chips(layout, paper: str, lang: str, bleed: float = 0.0) -> Scene:
    """The chips sheet by sheet, each a front page then its back page (mirrored for a
    long-edge flip), chips apart by a white gutter. Without bleed each chip has its cut
    line; with `bleed` mm its colour runs that far past the cut on all four sides and crop
    marks in the gutters (outside the colour) replace the cut lines. The PDF's TrimBox is
    the block from the outer cut lines, its BleedBox that grown by the bleed."""
    spec: GluxChips = layout.spec
    W, H = paper_size(paper)
    s, b, pitch, o = spec.chip, bleed, chip_pitch(spec, bleed), chip_outer(bleed)
    x0, y0, _, _ = chip_grid(spec, paper, b)
    sheets = chip_sheets(spec, paper, b)
    pages = []
    n_sheets = len(sheets)
    for si, sheet in enumerate(sheets):
        cols, rows = len(sheet), max(len(c) for c in sheet)
        gw, gh = cols * pitch - (pitch - s), rows * pitch - (pitch - s)
        for back in (False, True):
            gx = W - x0 - gw if back else x0
            items: list[Item] = []
            corners = []
            for ci, column in enumerate(sheet):
                for ri, (colour, lo, hi) in enumerate(column):
                    x = chip_x(spec, paper, ci, back, b)
                    y = y0 + ri * pitch
                    corners.append((x, y))
                    if b:
                        items.append(Rect(x - b, y - b, s + 2 * b, s + 2 * b, Style(stroke=None, fill=colour.tint)))
                    items += chip_items(x, y, s, hi if back else lo, colour, lang)
                    if not b:
                        items.append(Rect(x, y, s, s, CUT_LINE))
            if b:
                items += chip_crop_marks(corners, s, b)
            # the colour key: each colour's letter and name above its columns
            k = 0
            while k < cols:
                colour = sheet[k][0][0]
                n = 1
                while k + n < cols and sheet[k + n][0][0] is colour:
                    n += 1
                left = chip_x(spec, paper, k + n - 1 if back else k, back, b)
                key = f"{colour.letter_in(lang)} · {colour.name(lang)}"
                items.append(Text(left, y0 - o - 1.2, key, size=8, bold=True, color=colour.ink))
                k += n
            side = spec.labels.backs(lang) if back else spec.labels.fronts(lang)
            head = f"{spec.title(lang)} · {side}"
            if n_sheets > 1:
                head += f" · {marks.words(lang, 'sheet_only', n=si + 1, total=n_sheets)}"
            note = spec.labels.note(lang)
            left, right = gx - o, gx + gw + o
            head_w = right - left - text_width(note, 7) - 4
            ty = SAFE_MARGIN + 3.2
            items.append(Text(left, ty, head, size=fit_size(head, head_w, 9, True, min_pt=6), bold=True))
            items.append(Text(right, ty, note, size=7, anchor="end"))
            stamp = None
            if not back:
                items_side, stamp = _chip_side(spec, lang, paper, gx + gw + o, y0 - o, y0 + gh + o, si == 0)
                items += items_side
            trim = (gx, y0, gw, gh)
            bleed_box = (gx - b, y0 - b, gw + 2 * b, gh + 2 * b)
            pages.append(Page(W, H, items, stamp=stamp, back=back, trim=trim, bleed=bleed_box))
    return Scene(pages, {}, spec.title(lang))


def _chip_side(spec: GluxChips, lang: str, paper: str, right: float, top: float, bottom: float,
               first: bool) -> tuple[list[Item], tuple[float, float, float] | None]:
    """Beside the chips on a front page (below them if the side is too narrow): the stamp
    square (first sheet only) and the scale check; the chips are cut at real size."""
    W, H = paper_size(paper)
    m = SAFE_MARGIN
    side_w = W - m - right - 1.5
    below_h = H - m - bottom - 1.5
    items: list[Item] = []
    if side_w >= SIDE or side_w >= below_h:
        x, y, w = right + 1.5, top, side_w
        size = min(STAMP, w)
        stamp = (x, y, size) if first else None
        sy = y + (size + 4 if first else 0)
        sq = min(15.0, math.floor(w - 1))
        items += marks.scale_square(x + 0.5, sy, sq, lang, w - 2)
    else:
        x, y = m + 0.5, bottom + 1.5
        size = min(STAMP, below_h)
        stamp = (W - m - size, y, size) if first else None
        sq = min(15.0, math.floor(below_h - 9))
        items += marks.scale_square(x, y, max(sq, 5), lang, 60)
    return items, stamp


# ------------------------------------------------------------------ score track and pad


TRACK_GAP = 2.0  # mm: the least gap between two rows of the track (its connector's length)
TRACK_TITLE_PT, TRACK_TEXT_PT, TRACK_LEAD = 9.0, 6.5, 2.6  # the words of a half-page track


def _track_cell(v: int, n: int) -> tuple[int, int]:
    """(row, column) of value v: the rows go back and forth."""
    r, k = divmod(v, n)
    return r, (k if r % 2 == 0 else n - 1 - k)


def _track_half(spec: GluxScoreTrack, W: float, H: float, lang: str) -> tuple[list[Item], tuple] | None:
    """The track drawn in the top half of the page, 10 mm clear of the middle: the boxes at
    their size with shorter gaps, the stamp square and the words in the free end of the last
    row. Its items and stamp square; None when it does not fit there."""
    from sheetkit.paper.measure import wrap
    from sheetkit.paper.pads import MIN_STAMP

    m, b, n = SAFE_MARGIN, spec.box, spec.per_row
    rows = spec.last // n + 1
    avail = H / 2 - 2 * m - 1.0  # half a stroke's room at the top and at the bottom
    if rows < 2 or b < MIN_STAMP or n * b > W - 2 * m - 1.0:
        return None
    gap = min(6.0, (avail - rows * b) / (rows - 1))
    free = n - (spec.last % n + 1)  # empty cells at the end of the last row
    words_w = free * b - b - 6.0
    if gap < TRACK_GAP or words_w < 60.0:
        return None
    lines = [spec.title(lang), spec.labels.note(lang)] + [label(lang) for label in spec.labels.scoring]
    sizes = [fit_size(t, words_w, TRACK_TITLE_PT if i == 0 else TRACK_TEXT_PT, i == 0, 6.0) for i, t in enumerate(lines)]
    if any(len(wrap(t, words_w, pt, i == 0)) > 1 for i, (t, pt) in enumerate(zip(lines, sizes))):
        return None
    if 3.4 + (len(lines) - 1) * TRACK_LEAD > b:
        return None
    x0, y0 = (W - n * b) / 2, m + 0.5
    items = _track_boxes(spec, x0, y0, gap)
    yl = y0 + (rows - 1) * (b + gap)  # the last row
    last_row_left = (rows - 1) % 2 == 1  # a reversed row fills from the right
    sx = x0 if last_row_left else x0 + (n - 1) * b
    tx = sx + b + 3.0 if last_row_left else x0 + (n - free) * b + 3.0
    y = yl + 3.4
    for i, (t, pt) in enumerate(zip(lines, sizes)):
        items.append(Text(tx, y, t, size=pt, bold=i == 0))
        y += TRACK_LEAD if i else 3.1
    return items, (sx, yl, b)


def _track_boxes(spec: GluxScoreTrack, x0: float, y0: float, rowgap: float) -> list[Item]:
    b, n = spec.box, spec.per_row
    items: list[Item] = []
    for v in range(spec.last + 1):
        r, c = _track_cell(v, n)
        x, y = x0 + c * b, y0 + r * (b + rowgap)
        thick = v % 5 == 0
        st = Style(stroke=BLACK, width=0.6 if thick else 0.3, fill="#eeeeee" if v % 10 == 0 else None)
        items.append(Rect(x, y, b, b, st))
        items.append(Text(x + b / 2, y + b / 2 + 2.2, str(v), size=13 if thick else 11, bold=thick,
                          anchor="middle", color="#222222"))
        # the way on to the next row: a connector at the row's end
        if v % n == n - 1 and v < spec.last:
            cx = x + b / 2
            items.append(Line(cx, y + b, cx, y + b + rowgap, Style(stroke=BLACK, width=0.6)))
    return items


def compose_track(layout, paper: str, lang: str) -> Scene:
    """Two tracks a page, one above the other, where one fits in half the paper (pads.two_up:
    `--copies N` numbers each half); else one track a page."""
    from sheetkit.paper import pads

    spec: GluxScoreTrack = layout.spec
    W, H = paper_size(paper)
    half = _track_half(spec, W, H, lang)
    if half is not None:
        items, stamp = half
        name = f"glux-track-{paper}-{lang}"
        return Scene([pads.two_up(W, H, name, stamp)], {name: Form(W, H / 2, items)}, spec.title(lang))
    m = SAFE_MARGIN
    b = spec.box
    n = spec.per_row
    x0 = (W - n * b) / 2
    y0 = m + STAMP + 6
    items: list[Item] = [Text(m, m + 7, spec.title(lang), size=15, bold=True),
                         Text(m, m + 13, spec.labels.note(lang), size=9)]
    rowgap = 6.0
    items += _track_boxes(spec, x0, y0, rowgap)
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


def pad_geometry(spec: GluxScorePad, paper: str) -> T.Geometry:
    W, _ = paper_size(paper)
    label_w = 44.0
    inner = SAFE_MARGIN + 2  # the table's frame clear of the printer margin
    return T.Geometry(x=inner, y=SAFE_MARGIN + STAMP + 4, label_w=label_w,
                      col_w=(W - 2 * inner - label_w) / spec.players, players=spec.players,
                      row_h=spec.row_height, box=spec.row_height - 3)


def pad_keys(spec: GluxScorePad) -> list:
    """What each row of pad_rows holds, the same in every language: a photo reader reads
    the boxes by these keys (pads.table_fields)."""
    parts = ("pips", "place", "vp")
    return (["name", None] + [(f"room.{r}", parts) for r in spec.rooms]
            + [("room.middle", parts), "total", "tiebreak", "winner"])


def compose_pad(layout, paper: str, lang: str) -> Scene:
    from sheetkit.paper import pads

    spec: GluxScorePad = layout.spec
    W, H = paper_size(paper)
    cells: dict = {}
    items, bottom = pad_items(spec, paper, lang, cells)
    other = [pad_items(spec, paper, lg)[0] for lg in ("es", "en") if lg != lang]
    stamp = (W - SAFE_MARGIN - STAMP, SAFE_MARGIN, STAMP)
    g = pad_geometry(spec, paper)
    # at the corners of the table: above it, and under the notes below it
    targets = [(g.x, g.y - 4), (g.x + g.width, g.y - 4), (g.x, bottom + 4), (g.x + g.width, bottom + 4)]
    squares = pads.add_marks(items, other, W, H, stamp, targets)
    fields = pads.table_fields(0, pad_rows(spec, lang), pad_keys(spec), cells)
    name = f"glux-pad-{paper}-{lang}"
    return Scene([Page(W, H, [Use(name)], stamp=stamp, marks=squares, fields=tuple(fields))],
                 {name: Form(W, H, items)}, spec.title(lang))


def pad_items(spec: GluxScorePad, paper: str, lang: str, cells: dict | None = None) -> tuple[list[Item], float]:
    """The pad's drawing, and the bottom of what is drawn; `cells` receives the table's
    boxes (tables.draw)."""
    L = spec.labels
    W, H = paper_size(paper)
    m = SAFE_MARGIN
    items: list[Item] = [Text(m, m + 7, spec.title(lang), size=fit_size(spec.title(lang), W - 2 * m - STAMP - 4, 15, True),
                              bold=True)]
    date = L.date(lang)
    items.append(Text(m, m + 15, date, size=8))
    dx = m + text_width(date, 8) + 2
    items.append(Line(dx, m + 15.5, dx + 50, m + 15.5, T.RULE))
    g = pad_geometry(spec, paper)
    y = T.draw(g, pad_rows(spec, lang), items, player_word=L.player(lang), cells=cells) + 6
    for note in [L.side_note(lang)] + [r(lang) for r in L.rules]:
        for ln in tiling.wrap(note, W - 2 * m, 8):
            items.append(Text(m, y, ln, size=8))
            y += 4
    return items, y - 4


def compose(layout, paper: str, lang: str, scale: str = "real", bleed: float = 0.0) -> Scene:
    if layout.kind == "chips":
        return compose_chips(layout, paper, lang, bleed)
    if layout.kind == "board":
        return compose_board(layout, paper, lang, scale)
    if layout.kind == "score-track":
        return compose_track(layout, paper, lang)
    return compose_pad(layout, paper, lang)


# ------------------------------------------------------------------ a checked record
