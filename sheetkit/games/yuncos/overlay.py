"""`sheetkit check --render`: the sheet with its transcription and the findings on it.

The path in pencil grey with every turn's end marked and numbered, the numbers in their
boxes, the marked boxes crossed, the dice and the score written in, and every finding
circled in red with its rule id. Positions come from the sheet's own SheetGeometry, so
the drawing lands exactly on the printed boxes.
"""

from __future__ import annotations

from sheetkit.paper import scene as S
from sheetkit.paper.annotate import RED, list_findings
from sheetkit.paper.scene import SAFE_MARGIN
from sheetkit.games.yuncos.layout import vertex_name

PENCIL = "#6e6e6e"

PATH = S.Style(stroke=PENCIL, width=0.6)
MARK = S.Style(stroke=PENCIL, width=0.45)
DOT = S.Style(stroke=None, fill=PENCIL)
RING = S.Style(stroke=RED, width=0.5)


def _cross(box) -> list[S.Item]:
    x, y, w, h = box
    m = min(w, h) * 0.18
    return [S.Line(x + m, y + m, x + w - m, y + h - m, MARK), S.Line(x + w - m, y + m, x + m, y + h - m, MARK)]


def _number(box, value, size: float = 12.0) -> S.Text:
    x, y, w, h = box
    return S.Text(x + w / 2, y + h / 2 + size * 0.125, str(value), size=size, anchor="middle", color=PENCIL)


def _ability_box(g, box_id: str):
    if box_id.startswith("nest"):
        row, k = box_id[4:].split(".")
        return g.nest_ability(int(row) - 1, int(k) - 1)
    if box_id.startswith("lum"):
        return g.lum_ability(int(box_id[3:]) - 1)
    return g.fish_ability(int(box_id[4:]) - 1)


def _cell_box(g, name: str):
    base, _, idx = name.partition(".")
    i = int(idx) - 1 if idx else 0
    if base.startswith("nest"):
        return g.nest_box(int(base[4:]) - 1, i)
    return g.lum_box(int(base[3:]) - 1, i)


def _turn_paths(record) -> list[list[tuple[int, int]]]:
    """Each turn's vertices, its start first (a `from` jump starts a new polyline)."""
    out = []
    pos = record.start
    for turn in record.turns:
        if turn.start_at is not None:
            pos = turn.start_at
        pts = [pos]
        for dx, dy in turn.steps:
            pos = (pos[0] + dx, pos[1] + dy)
            pts.append(pos)
        out.append(pts)
    return out


def overlay(record, checked, paper: str, lang: str = "en"):
    """A one-page Scene: the sheet level of the record with everything written on it, its
    words in `lang`."""
    from sheetkit.checking.messages import text
    from sheetkit.games.yuncos.compose import compose, sheet_geometry

    spec = record.spec
    scene = compose(record.layout, paper, lang)
    page = scene.pages[0]
    g = sheet_geometry(spec, paper)
    rep, verdict = checked.state, checked.verdict
    items: list[S.Item] = []

    # The flight, turn by turn.
    paths = _turn_paths(record)
    for pts in paths:
        items.append(S.Path(tuple(g.vertex(v) for v in pts), style=PATH))
    sx, sy = g.vertex(record.start)
    items.append(S.Circle(sx, sy, 1.6, MARK))
    for n, pts in enumerate(paths, 1):
        x, y = g.vertex(pts[-1])
        items.append(S.Circle(x, y, 0.9, DOT))
        items.append(S.Text(x + 1.2, y - 1.0, str(n), size=5.5, color=PENCIL))

    # Puzzles, counters, abilities, dice.
    for row, line in enumerate(rep.nests):
        for i, v in enumerate(line):
            if v is not None:
                items.append(_number(g.nest_box(row, i), v))
    for col, line in enumerate(rep.lums):
        for lvl, v in enumerate(line):
            if v is not None:
                items.append(_number(g.lum_box(col, lvl), v))
    model = record.model
    for i in range(model.fish_marked):
        items.extend(_cross(g.fish_box(i)))
    for i in range(model.crashes_marked):
        items.extend(_cross(g.crash_box(i)))
    crossed = model.used if model.used is not None else [b.id for b in rep.boxes if b.used is not None]
    for box_id in crossed:
        items.extend(_cross(_ability_box(g, box_id)))
    for turn in record.turns:
        if turn.dice and turn.number <= spec.dice_log:
            for which, d in enumerate(turn.dice):
                items.append(_number(g.dice_box(turn.number, which), d, size=9))

    # The score, as the sheet shows it.
    score = verdict.scores[0]
    for name, pts in score.parts:  # the sheet prints the minus before the crashes box
        items.append(_number(g.score_box(name), abs(pts) if name == "crashes" else pts, size=11))
    items.append(_number(g.score_box("total"), score.total, size=11))

    # Findings, circled in red with their rule ids.
    seen: dict[tuple[float, float], int] = {}
    for f in verdict.findings:
        x, y, r = _place(f.at, g, record, paths)
        n = seen.get((round(x, 1), round(y, 1)), 0)  # several findings on one spot: labels side by side
        seen[(round(x, 1), round(y, 1))] = n + 1
        if n == 0:
            items.append(S.Circle(x, y, r, RING))
        items.append(S.Text(x + r * 0.75 + 5.0 * n, y - r * 0.75 - 0.4, f.rule, size=6.5, bold=True, color=RED))
    ox, oy = g.ox, g.oy
    head = text("yuncos.overlay_head", lang, status=verdict.status(lang), total=score.total,
                start=vertex_name(record.start), turns=len(record.turns))
    colour = RED if not verdict.legal else PENCIL
    if oy - 3.0 >= SAFE_MARGIN + 2.5:  # above the sheet where the paper leaves room (A4)
        items.append(S.Text(ox, oy - 3.0, head, size=7, bold=True, color=colour))
    page.items.extend(items)
    page.stamp = None  # an overlay is one drawing, not a numbered copy
    if verdict.findings:  # the sheet has no room for sentences: they follow on a page of their own
        scene.pages.append(S.Page(page.width, page.height, []))
        list_findings(scene.pages, SAFE_MARGIN + 8, head, verdict.findings, color=colour, lang=lang)
    scene.title = f"{scene.title} (checked)"
    return scene


def _place(at: dict, g, record, paths) -> tuple[float, float, float]:
    """Where a finding goes on the sheet: (x, y, circle radius)."""
    def around(box, pad=1.2):
        x, y, w, h = box
        return x + w / 2, y + h / 2, max(w, h) / 2 + pad

    if "cell" in at:
        return around(_cell_box(g, at["cell"]))
    if "box" in at and isinstance(at["box"], str):
        return around(_ability_box(g, at["box"]))
    if at.get("counter") == "fish":
        n = len(record.spec.fish.values)
        return around(g.fish_box(min(max(at.get("box", 1), 1), n) - 1))
    if at.get("counter") == "crashes":
        return around(g.crash_box(min(max(at.get("box", 1), 1), 6) - 1))
    if "score" in at:
        return around(g.score_box(at["score"]))
    if "dice" in at and 1 <= at.get("turn", 0) <= record.spec.dice_log:
        x0, y0, w, h = g.dice_box(at["turn"], 0)
        x1, _, w1, _ = g.dice_box(at["turn"], 1)
        return (x0 + x1 + w1) / 2, y0 + h / 2, (x1 + w1 - x0) / 2 * 0.72  # snug around the pair
    board = record.spec.board

    def on_sheet(v):  # a point a flight reached off the map: circle the map's edge beside it
        return g.vertex((min(max(v[0], 0), board.width - 1), min(max(v[1], 0), board.height - 1)))

    if "vertex" in at:
        x, y = on_sheet(at["vertex"])
        return x, y, 3.0
    if "turn" in at and 1 <= at["turn"] <= len(paths):
        x, y = on_sheet(paths[at["turn"] - 1][-1])
        return x, y, 3.0
    return g.ox + 4, g.oy + 4, 3.0
