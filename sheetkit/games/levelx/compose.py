"""Level X on paper: the board (one page, squares at real size) and the score pad."""

from __future__ import annotations

from sheetkit.paper import marks
from sheetkit.paper import scene as S
from sheetkit.paper import tables as T
from sheetkit.paper.pads import STAMP
from sheetkit.games.levelx.layout import Board, ScorePad
from sheetkit.paper.measure import fit_size, text_width

INNER = 12.0  # mm from the paper edge to the drawing (the printer margin is 10 mm)
GREY = "#b0b0b0"
SQUARE = S.Style(width=0.4)
X_SQUARE = S.Style(width=0.9)
START = S.Style(width=0.3, dash=(1.5, 1.0))


def compose(layout, paper: str, lang: str, scale: str = "real") -> S.Scene:
    if layout.kind == "board":
        return compose_board(layout.spec, paper, lang)
    return compose_pad(layout.spec, paper, lang)


def _page(scene: S.Scene, name: str, W: float, H: float, items: list[S.Item]) -> None:
    scene.forms[name] = S.Form(W, H, items)
    scene.pages.append(S.Page(W, H, [S.Use(name)], stamp=(W - INNER - STAMP, INNER, STAMP)))


def _title(text: str, W: float, items: list[S.Item]) -> None:
    size = fit_size(text, W - 2 * INNER - STAMP - 4, 15.0, True)
    items.append(S.Text(INNER, INNER + 6, text, size=size, bold=True))


# -- the board -------------------------------------------------------------------------------
#
# The rows are stacked in the layout's order (5 at the top, the longest, 10, at the bottom on
# the shipped board), their X squares in one column on the right, each row's start area just
# before its first square and its number before that: a staircase, the short rows leaving
# room on the left, where the bonus tiles go when they fit (two by two). A row of 7 squares
# (140 mm), its start area and number fill the page's width, so the chip stacks cannot sit
# beside the X squares: they are a line of their own under the rows, each chip printed with
# its row's number as the real chips are. Then the rules and the scale check.

GAP = 4.0  # mm between rows
TILE_GAP = 6.0  # mm between bonus tiles


def board_geometry(spec: Board, paper: str) -> dict:
    """Where everything of the board goes, in mm: `rows` (per row: `y`, `first` square's x,
    `start` area's x and width, `num` the number's centre), `chips` (per row: the chip's
    centre `cx`, `cy`), `tiles` (per bonus tile: its top-left corner; `tile` its side) and
    `bonus_head` (the tiles' heading), `text_y` (the rules' first line) and `bottom`."""
    W, H = S.paper_size(paper)
    s = spec.square
    num_w = 17.0
    chip_d = s + 4
    most = max(r.squares for r in spec.rows)
    width = lambda r: num_w + spec.start + 1.5 + r.squares * s  # noqa: E731
    total = max(width(r) for r in spec.rows)
    x0 = max(INNER, (W - total) / 2)
    xX = x0 + total - s  # the X squares' column
    y0 = INNER + STAMP + 8
    rows = []
    for i, r in enumerate(spec.rows):
        first = xX - (r.squares - 1) * s
        sx = first - 1.5 - spec.start
        rows.append({"y": y0 + i * (s + GAP), "first": first, "start": sx, "start_w": spec.start,
                     "num": sx - num_w / 2, "left": sx - num_w})
    below = y0 + len(spec.rows) * (s + GAP) - GAP
    # the bonus tiles: two by two in the room the short rows leave on the left, if there is
    # room; else in a line under the chips
    tile, n = s + 2, len(spec.bonuses)
    cols = 2
    lines = -(-n // cols) if n else 0
    block_w, block_h = cols * tile + (cols - 1) * TILE_GAP, 8 + lines * tile + max(lines - 1, 0) * 5
    tiles = []
    beside = False
    for top in (y0, below - block_h):  # the short rows at the top (the shipped board), or at the bottom
        spans = [row for row in rows if row["y"] < top + block_h and row["y"] + s > top]
        if n and top >= y0 and all(x0 + block_w + 4 <= row["left"] for row in spans):
            beside, bonus_head = True, (x0, top)
            for k in range(n):
                tiles.append((x0 + (k % cols) * (tile + TILE_GAP), top + 8 + (k // cols) * (tile + 5)))
            break
    # the chips: one line, a column each, the count and the count with 2-3 players under each
    cw = min((W - 2 * INNER) / max(len(spec.rows), 1), chip_d + 12)
    cx0 = W / 2 - cw * len(spec.rows) / 2 + cw / 2
    cy = below + 7 + chip_d / 2
    chips = [{"cx": cx0 + i * cw, "cy": cy, "w": cw} for i in range(len(spec.rows))]
    y = cy + chip_d / 2 + 14.5  # under the counts, and the chips left a checked board writes there
    if not beside:
        bonus_head = (x0, y + 2)
        for k in range(n):
            tiles.append((x0 + k * (tile + TILE_GAP + 2), y + 10))
        y += (10 + tile + 3) if n else 0
    return {"W": W, "H": H, "s": s, "num_w": num_w, "chip_d": chip_d, "x0": x0, "xX": xX, "y0": y0,
            "gap": GAP, "total": total, "most": most, "rows": rows, "chips": chips, "tiles": tiles,
            "tile": tile, "bonus_head": bonus_head, "tiles_beside": beside, "below": below,
            "text_y": y + 4, "chip_text": 9.0}


def compose_board(spec: Board, paper: str, lang: str) -> S.Scene:
    g = board_geometry(spec, paper)
    W, H, s = g["W"], g["H"], g["s"]
    L = spec.labels
    items: list[S.Item] = []
    _title(spec.title(lang), W, items)
    for row, at in zip(spec.rows, g["rows"]):
        y = at["y"]
        mid = y + s / 2
        items.append(S.Text(at["num"], mid + 2.8, str(row.number), size=22.0, bold=True, anchor="middle"))
        sx, first = at["start"], at["first"]
        items.append(S.Rect(sx, y, at["start_w"], s, style=START, radius=2.0))
        items.append(S.Text(sx + 1.5, y + 3.6, L.start(lang), size=6.5))
        for k in range(row.squares):
            qx = first + k * s
            last = k == row.squares - 1
            if last:
                items.append(S.Text(qx + s / 2, mid + 5.5, "X", size=44.0, bold=True, anchor="middle",
                                    color=GREY))
            items.append(S.Rect(qx, y, s, s, style=X_SQUARE if last else SQUARE))
            items.append(S.Text(qx + 1.2, y + 3.4, str(row.number), size=6.5))

    # the chip stacks, each chip with its row's number
    r = g["chip_d"] / 2
    for row, c in zip(spec.rows, g["chips"]):
        cx, cy = c["cx"], c["cy"]
        items.append(S.Circle(cx, cy, r, style=SQUARE))
        items.append(S.Circle(cx, cy, r - 1.5, style=T.RULE))
        items.append(S.Text(cx, cy + 2.6, str(row.number), size=20.0, bold=True, anchor="middle"))
        count = f"× {row.chips} {L.chips(lang)}"
        items.append(S.Text(cx, cy + r + 4.5, count, size=fit_size(count, c["w"] - 1, g["chip_text"], True),
                            bold=True, anchor="middle"))
        fewer = L.fewer_players(lang).replace("{n}", str(row.chips - 1))
        items.append(S.Text(cx, cy + r + 8.5, fewer, size=fit_size(fewer, c["w"] - 1, 7.0), anchor="middle"))

    # the bonus tiles, highest first
    hx, hy = g["bonus_head"]
    items.append(S.Text(hx, hy + 4, L.bonus(lang), size=11.0, bold=True))
    tile = g["tile"]
    for i, (b, (bx, by)) in enumerate(zip(spec.bonuses, g["tiles"])):
        items.append(S.Rect(bx, by, tile, tile, style=SQUARE, radius=2.5))
        items.append(S.Text(bx + tile / 2, by + tile / 2 + 3, str(b), size=20.0, bold=True, anchor="middle"))
        if i < len(spec.bonuses) - 1 and g["tiles"][i + 1][1] == by:
            nx = g["tiles"][i + 1][0]
            items.append(S.Text((bx + tile + nx) / 2, by + tile / 2 + 1.5, "›", size=14.0, anchor="middle"))
    y = g["text_y"]
    x0 = INNER + 1
    usable = W - 2 * INNER - 1
    for line in [L.bonus_note(lang)] + [rule(lang) for rule in L.rules]:
        text = "· " + line
        items.append(S.Text(x0, y, text, size=fit_size(text, usable, 8.0)))
        y += 4.4
    # the squares are real size: a scale check under the rules
    items += marks.scale_check(x0, y - 2.4, lang, width=80)

    scene = S.Scene(title=spec.title(lang))
    _page(scene, f"levelx-board-{paper}-{lang}", W, H, items)
    return scene


# -- the score pad ---------------------------------------------------------------------------

def pad_rows(spec: ScorePad, lang: str) -> list[T.Row]:
    L = spec.labels
    rows = [T.Row("name", L.player(lang))]
    for v in (5, 6, 7, 8, 9, 10):
        rows.append(T.Row("formula", f"{L.chips(lang)} {v}", factor=str(v)))
    rows += [
        T.Row("value", L.bonuses(lang), note=L.bonuses_note(lang)),
        T.Row("value", L.total(lang), bold=True),
        T.Row("mark", L.first(lang), note=L.first_note(lang), factor="(1)"),
    ]
    return rows


def pad_geometry(spec: ScorePad, paper: str, y: float) -> T.Geometry:
    W, _ = S.paper_size(paper)
    label_w = 44.0
    return T.Geometry(x=INNER, y=y, label_w=label_w, col_w=(W - 2 * INNER - label_w) / spec.players,
                      players=spec.players, row_h=spec.row, box=spec.box)


def pad_items(spec: ScorePad, paper: str, lang: str, cells: dict | None = None,
              tables: list | None = None) -> tuple[list[S.Item], float]:
    """The pad page's drawing and the bottom of what is drawn; `cells` receives the boxes of
    the first game's table (see tables.draw), `tables` each game's (its Geometry, its cells)."""
    W, H = S.paper_size(paper)
    L = spec.labels
    items: list[S.Item] = []
    _title(spec.title(lang), W, items)
    rows = pad_rows(spec, lang)
    y = INNER + STAMP + 4
    for n in range(spec.games):
        items.append(S.Text(INNER, y + 4, L.game(lang), size=9.0, bold=True))
        gx = INNER + text_width(L.game(lang), 9.0, True) + 2
        items.append(S.Line(gx, y + 4.5, gx + 40, y + 4.5, style=T.RULE))
        g = pad_geometry(spec, paper, y + 7)
        got = cells if n == 0 and cells is not None else {}
        y = T.draw(g, rows, items, cells=got) + 7
        if tables is not None:
            tables.append((g, got))
    foot = L.footer(lang)
    items.append(S.Text(INNER, y - 2, foot, size=fit_size(foot, W - 2 * INNER, 7.0)))
    return items, y - 2


# What each row of the pad holds (pad_rows), the same in every language: a photo reader
# reads the boxes by these keys (pads.table_fields).
PAD_KEYS = ("name",) + tuple(f"chips.{v}" for v in (5, 6, 7, 8, 9, 10)) + ("bonuses", "total", "first")


def compose_pad(spec: ScorePad, paper: str, lang: str) -> S.Scene:
    from sheetkit.paper import pads

    W, H = S.paper_size(paper)
    tables: list = []
    items, _ = pad_items(spec, paper, lang, tables=tables)
    other = [pad_items(spec, paper, lg)[0] for lg in ("es", "en") if lg != lang]
    stamp = (W - INNER - STAMP, INNER, STAMP)
    # the squares at the corners of what is read: the first game's top, the last game's bottom
    g0, g1 = tables[0][0], tables[-1][0]
    bottom = max(y + h for boxes in tables[-1][1].values() for _, y, _, h in boxes) + spec.row / 2
    # (the footer fills the bottom left on Letter: the third square goes under the middle)
    targets = [(g0.x, g0.y - 8), (g0.x + g0.width, g0.y - 8), (g1.x + g1.width / 2, bottom + 4),
               (g1.x + g1.width, bottom + 4)]
    squares = pads.add_marks(items, other, W, H, stamp, targets)
    rows = pad_rows(spec, lang)
    fields = [f for n, (_, cells) in enumerate(tables) for f in pads.table_fields(n, rows, PAD_KEYS, cells)]
    scene = S.Scene(title=spec.title(lang))
    _page(scene, f"levelx-pad-{paper}-{lang}", W, H, items)
    scene.pages[-1].marks, scene.pages[-1].fields = squares, tuple(fields)
    return scene
