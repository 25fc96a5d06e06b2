"""Score tables on paper: a label column and one column per player, row by row.

Used by the IUNU, the Level X and the Glüx score pads, so they share one way of drawing boxes,
formulas and marks, and of showing a filled pad with its findings (`check --render`). Everything in millimetres, text in
points; black and white only.
"""

from __future__ import annotations

from dataclasses import dataclass

from sheetkit.paper import scene as S
from sheetkit.paper.measure import clip_text, fit_size, text_width

HEAVY = S.Style(width=0.5)
NORMAL = S.Style(width=0.3)
RULE = S.Style(width=0.15)
SHADE = S.Style(stroke=None, fill="#e6e6e6")
SHADED_BOX = S.Style(width=0.3, fill="#e6e6e6")  # the box of a split row that holds the points

MIN_PT = 6.0
SYM = 4.0  # mm for the "×" and "=" of a formula: room around each sign
FACTOR_SLOT = "00"  # a printed factor takes the room of two digits, so "× 5 =" and "× 10 =" line up


@dataclass(frozen=True, slots=True)
class Row:
    """One line of a score table.

    kind:
      "name"     a wide box per player to write the name in
      "value"    one box per player
      "formula"  [box] x [factor] = [box]: factor is printed text (e.g. "5"), or None for a
                 box to fill (e.g. the afterlife multiplier)
      "mark"     a circle per player to tick (first player, winner)
      "section"  a heading across the table, no boxes
      "heads"    the names of `parts` over the sub-columns of each player (e.g. pips,
                 place, VP)
      "split"    one box per part in each player column, the last (the points) shaded
    """

    kind: str
    label: str
    note: str = ""  # a smaller second line under the label
    factor: str | None = None
    bold: bool = False
    left_box: bool = False  # a box in the label column (e.g. a caste's bonus, filled once)
    write_in: bool = False  # the label is a line to write on (a caste to be named)
    parts: tuple[str, ...] = ()  # a player column's sub-columns ("heads" and "split" rows)


@dataclass(frozen=True, slots=True)
class Geometry:
    x: float  # left edge of the table
    y: float  # top edge
    label_w: float  # label column width
    col_w: float  # width of each player column
    players: int
    row_h: float  # height of a row of boxes
    box: float  # side of a digit box (height; formula boxes are this wide)
    section_h: float = 7.0

    @property
    def width(self) -> float:
        return self.label_w + self.players * self.col_w


def row_height(g: Geometry, row: Row) -> float:
    return g.section_h if row.kind in ("section", "heads") else g.row_h


def draw(g: Geometry, rows: list[Row], items: list[S.Item], player_word: str = "",
         cells: dict | None = None) -> float:
    """Draw the table into `items`; return its bottom edge.

    If `cells` is given, it receives the boxes drawn, left to right, as (x, y, w, h):
    cells[row index, player index] for the player columns (player index from 0), and
    cells[row index, -1] for a box in the label column; a write-in label's line is
    cells[row index, "label"]. Overlays write a record's numbers into them."""
    y = g.y
    top = y
    for i, row in enumerate(rows):
        h = row_height(g, row)
        if row.kind == "section":
            items.append(S.Rect(g.x, y, g.width, h, style=SHADE))
            size = fit_size(row.label, g.width - 4, 8.0, True, MIN_PT)
            items.append(S.Text(g.x + 2, y + h / 2 + size * 0.13, row.label, size=size, bold=True))
        else:
            n0 = len(items)
            _label(g, row, y, h, items)
            if cells is not None:
                cells[i, -1] = _boxes(items[n0:])
                if row.write_in:
                    cells[i, "label"] = [(g.x + 2.0, y, g.label_w - 4.0 - g.box - 1.5, h * 0.62)]
            for p in range(g.players):
                cx = g.x + g.label_w + p * g.col_w
                items.append(S.Line(cx, y, cx, y + h, style=NORMAL))
                n0 = len(items)
                _cell(g, row, cx, y, h, items, p + 1, player_word)
                if cells is not None:
                    cells[i, p] = _boxes(items[n0:])
        y += h
        if i < len(rows) - 1:
            heavy = row.bold or rows[i + 1].bold
            items.append(S.Line(g.x, y, g.x + g.width, y, style=NORMAL if heavy else RULE))
    # frame and column rules
    items.append(S.Rect(g.x, top, g.width, y - top, style=HEAVY))
    return y


def _boxes(items: list[S.Item]) -> list[tuple[float, float, float, float]]:
    out = []
    for it in items:
        if isinstance(it, S.Rect):
            out.append((it.x, it.y, it.w, it.h))
        elif isinstance(it, S.Circle):
            out.append((it.x - it.r, it.y - it.r, 2 * it.r, 2 * it.r))
    return out


INK = "#1f3f8f"  # a pen's blue, for what an overlay writes in the boxes


def write(items: list[S.Item], box: tuple[float, float, float, float], text: str, size: float = 10.0,
          anchor: str = "middle") -> None:
    """Write `text` into a box, as a filled-in value: smaller if need be, down to the
    smallest legible size, then shortened with an ellipsis."""
    x, y, w, h = box
    size = fit_size(text, w - 1.0, size, True, MIN_PT)
    text = clip_text(text, w - 1.0, size, True)
    tx = {"middle": x + w / 2, "start": x + 1.0, "end": x + w - 1.0}[anchor]
    items.append(S.Text(tx, y + h / 2 + size * 0.13, text, size=size, bold=True, anchor=anchor, color=INK))


def filled_scene(game: str, verdict, paper: str, margin: float, pad: list[S.Item], fill: list[S.Item],
                 top: float, head_note: str = "", places=(), lang: str = "en") -> S.Scene:
    """A filled score pad: the blank pad drawn once as a form, the values on top, then the
    verdict's head line (the game, not the record's file: its status and the game's
    `head_note`) and every finding in full below the table in black (all of it on page 2
    when it does not fit under the table). `places` (one list of annotate.Spot per finding)
    marks each finding on its cells, under the values, with its numbered tag."""
    from sheetkit.paper import annotate

    width, height = S.paper_size(paper)
    head = f"{game}: {verdict.status(lang)}{head_note}"  # the game, not the record's file
    pages = [S.Page(width, height, [S.Use("pad"), *fill])]
    annotate.list_findings(pages, top + 7, head, verdict.findings, color=S.BLACK, margin=margin, lang=lang)
    scene = S.Scene(pages=pages, title=game)
    scene.forms["pad"] = S.Form(width, height, pad)
    marked = annotate.mark(pages[0], scene.forms, list(places) + [[]] * (len(verdict.findings) - len(places)))
    pages[0].items[1:1] = marked.marks
    pages[0].items += marked.tags
    return scene


def _label(g: Geometry, row: Row, y: float, h: float, items: list[S.Item]) -> None:
    pad = 2.0
    avail = g.label_w - 2 * pad - (g.box + 1.5 if row.left_box else 0)
    if row.write_in:
        items.append(S.Line(g.x + pad, y + h * 0.62, g.x + pad + avail, y + h * 0.62, style=RULE))
        if row.label:
            items.append(S.Text(g.x + pad, y + h * 0.62 + 2.6, row.label, size=MIN_PT))
    else:
        size = fit_size(row.label, avail, 9.0 if row.bold else 8.0, row.bold, MIN_PT)
        base = y + h / 2 + (size * 0.13 if not row.note else -0.4)
        items.append(S.Text(g.x + pad, base, row.label, size=size, bold=row.bold))
        if row.note:
            nsize = fit_size(row.note, avail, 6.5, False, MIN_PT)
            items.append(S.Text(g.x + pad, base + 3.2, row.note, size=nsize))
    if row.left_box:
        bx = g.x + g.label_w - pad - g.box
        items.append(S.Rect(bx, y + (h - g.box) / 2, g.box, g.box, style=NORMAL))


def _cell(g: Geometry, row: Row, cx: float, y: float, h: float, items: list[S.Item],
          player: int, player_word: str) -> None:
    b = g.box
    by = y + (h - b) / 2
    if row.kind == "name":
        items.append(S.Rect(cx + 1.5, by, g.col_w - 3, b, style=NORMAL))
        if player_word:
            items.append(S.Text(cx + 2.5, by + 2.4, f"{player_word} {player}", size=MIN_PT))
    elif row.kind == "value":
        w = min(g.col_w - 4, max(b, 14.0))
        items.append(S.Rect(cx + g.col_w - 2 - w, by, w, b, style=HEAVY if row.bold else NORMAL))
    elif row.kind == "mark":
        r = b / 2
        items.append(S.Circle(cx + g.col_w / 2, y + h / 2, r, style=NORMAL))
        if row.factor:
            size = fit_size(row.factor, b - 1, 7.0, False, MIN_PT)
            items.append(S.Text(cx + g.col_w / 2, y + h / 2 + size * 0.13, row.factor, size=size,
                                anchor="middle", color="#9a9a9a"))
    elif row.kind == "formula":
        _formula(g, row, cx, by, items)
    elif row.kind in ("heads", "split"):
        w = (g.col_w - 2) / len(row.parts)
        for j, part in enumerate(row.parts):
            x = cx + 1 + j * w
            if row.kind == "heads":
                size = fit_size(part, w - 1, 7.5, False, MIN_PT)
                items.append(S.Text(x + w / 2, y + h / 2 + size * 0.13, part, size=size, anchor="middle"))
            else:
                last = j == len(row.parts) - 1
                items.append(S.Rect(x + 0.5, by, w - 1, b, style=SHADED_BOX if last else HEAVY if row.bold else NORMAL))
    else:
        raise ValueError(f"unknown row kind {row.kind!r}")


def _formula(g: Geometry, row: Row, cx: float, by: float, items: list[S.Item]) -> None:
    """[a] x [factor] = [result], centred in the column."""
    b = g.box
    sym = SYM  # room for "×" or "="
    res_w = b + 1.5
    fac_w = _factor_width(b, row.factor)
    total = b + sym + fac_w + sym + res_w
    x = cx + (g.col_w - total) / 2
    mid = by + b / 2 + 1.2
    items.append(S.Rect(x, by, b, b, style=NORMAL))
    items.append(S.Text(x + b + sym / 2, mid, "×", size=9.0, anchor="middle"))
    fx = x + b + sym
    if row.factor is None:
        items.append(S.Rect(fx, by, b, b, style=NORMAL))
    else:
        items.append(S.Text(fx + fac_w / 2, mid, row.factor, size=9.0, bold=True, anchor="middle"))
    ex = fx + fac_w
    items.append(S.Text(ex + sym / 2, mid, "=", size=9.0, anchor="middle"))
    rx = ex + sym
    items.append(S.Rect(rx, by, res_w, b, style=NORMAL))


def _factor_width(b: float, factor: str | None) -> float:
    """The factor's slot: a box to fill, or the printed factor in a slot at least two digits
    wide (every row of a table then has its boxes in the same place)."""
    if factor is None:
        return b
    return max(text_width(factor, 9.0, True), text_width(FACTOR_SLOT, 9.0, True)) + 2.0


def formula_width(g: Geometry, factor: str | None) -> float:
    b = g.box
    return b + SYM + _factor_width(b, factor) + SYM + b + 1.5
