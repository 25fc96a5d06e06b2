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

def board_geometry(spec: Board, paper: str) -> dict:
    W, H = S.paper_size(paper)
    s = spec.square
    num_w = 17.0
    chip_d = s + 4
    most = max(r.squares for r in spec.rows)
    texts = []
    for r in spec.rows:
        texts.append(text_width(f"× {r.chips} {spec.labels.chips.en}", 9.0, True))
        texts.append(text_width(f"× {r.chips} {spec.labels.chips.es}", 9.0, True))
    text_w = max(texts) + 2
    total = num_w + spec.start + most * s + 4 + chip_d + 3 + text_w
    x0 = max(INNER, (W - total) / 2)
    return {"W": W, "H": H, "s": s, "num_w": num_w, "chip_d": chip_d, "x0": x0,
            "xX": x0 + num_w + spec.start + (most - 1) * s, "y0": INNER + STAMP + 8, "gap": 5.0,
            "text_w": text_w, "total": total}


def compose_board(spec: Board, paper: str, lang: str) -> S.Scene:
    g = board_geometry(spec, paper)
    W, H, s = g["W"], g["H"], g["s"]
    L = spec.labels
    items: list[S.Item] = []
    _title(spec.title(lang), W, items)
    x0, xX = g["x0"], g["xX"]
    y = g["y0"]
    for row in spec.rows:
        mid = y + s / 2
        items.append(S.Text(x0 + g["num_w"] / 2, mid + 2.8, str(row.number), size=22.0, bold=True,
                            anchor="middle"))
        first = xX - (row.squares - 1) * s
        sx = x0 + g["num_w"]
        items.append(S.Rect(sx, y, first - 1.5 - sx, s, style=START, radius=2.0))
        items.append(S.Text(sx + 1.5, y + 3.6, L.start(lang), size=6.5))
        for k in range(row.squares):
            qx = first + k * s
            last = k == row.squares - 1
            if last:
                items.append(S.Text(qx + s / 2, mid + 5.5, "X", size=44.0, bold=True, anchor="middle",
                                    color=GREY))
            items.append(S.Rect(qx, y, s, s, style=X_SQUARE if last else SQUARE))
            items.append(S.Text(qx + 1.2, y + 3.4, str(row.number), size=6.5))
        cx = xX + s + 4 + g["chip_d"] / 2
        items.append(S.Circle(cx, mid, g["chip_d"] / 2, style=SQUARE))
        items.append(S.Circle(cx, mid, g["chip_d"] / 2 - 1.5, style=T.RULE))
        items.append(S.Text(cx, mid + 2.6, str(row.number), size=20.0, bold=True, anchor="middle"))
        tx = cx + g["chip_d"] / 2 + 3
        items.append(S.Text(tx, mid - 0.5, f"× {row.chips} {L.chips(lang)}", size=9.0, bold=True))
        fewer = L.fewer_players(lang).replace("{n}", str(row.chips - 1))
        items.append(S.Text(tx, mid + 3.5, fewer, size=fit_size(fewer, W - INNER - tx, 7.0)))
        y += s + g["gap"]

    # the bonus tiles, highest first
    y += 4
    usable = W - 2 * INNER
    items.append(S.Text(x0, y + 4, L.bonus(lang), size=11.0, bold=True))
    y += 8
    tile = s + 2
    for i, b in enumerate(spec.bonuses):
        bx = x0 + i * (tile + 8)
        items.append(S.Rect(bx, y, tile, tile, style=SQUARE, radius=2.5))
        items.append(S.Text(bx + tile / 2, y + tile / 2 + 3, str(b), size=20.0, bold=True, anchor="middle"))
        if i < len(spec.bonuses) - 1:
            items.append(S.Text(bx + tile + 4, y + tile / 2 + 1.5, "›", size=14.0, anchor="middle"))
    y += tile + 5
    note = L.bonus_note(lang)
    items.append(S.Text(x0, y, note, size=fit_size(note, usable - (x0 - INNER), 8.0)))
    y += 7
    for line in L.rules:
        text = "· " + line(lang)
        items.append(S.Text(x0, y, text, size=fit_size(text, usable - (x0 - INNER), 8.0)))
        y += 4.4
    # the squares are real size: a scale check under the rules
    items += marks.scale_check(x0, y + 1, lang, width=80)

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


def pad_items(spec: ScorePad, paper: str, lang: str, cells: dict | None = None) -> tuple[list[S.Item], float]:
    """The pad page's drawing and the bottom of what is drawn; `cells` receives the boxes of
    the first game's table (see tables.draw)."""
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
        y = T.draw(g, rows, items, cells=cells if n == 0 else None) + 7
    foot = L.footer(lang)
    items.append(S.Text(INNER, y - 2, foot, size=fit_size(foot, W - 2 * INNER, 7.0)))
    return items, y - 2


def compose_pad(spec: ScorePad, paper: str, lang: str) -> S.Scene:
    W, H = S.paper_size(paper)
    items, _ = pad_items(spec, paper, lang)
    scene = S.Scene(title=spec.title(lang))
    _page(scene, f"levelx-pad-{paper}-{lang}", W, H, items)
    return scene
