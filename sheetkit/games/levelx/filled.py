"""`sheetkit check RECORD --render out.pdf` for Level X: the score pad filled in from the
record (a final position, or the end of a replayed game), with the findings below."""

from __future__ import annotations

from sheetkit import layouts
from sheetkit import scene as S
from sheetkit.games.iunu import table as T
from sheetkit.games.levelx.paper import INNER, pad_items, pad_rows
from sheetkit.games.levelx.record import PAD_LAYOUT
from sheetkit.games.levelx.rules import ROWS
from sheetkit.measure import fit_size


def overlay(record, verdict, paper: str = "a4", lang: str = "en") -> S.Scene:
    layout = record.layout or layouts.load(PAD_LAYOUT)
    spec = layout.spec.model_copy(update={"games": 1})  # one game: room for the findings
    W, H = S.paper_size(paper)
    cells: dict = {}
    items, bottom = pad_items(spec, paper, lang, cells)
    rows = pad_rows(spec, lang)
    chip_row = {int(r.factor): i for i, r in enumerate(rows) if r.kind == "formula"}
    bonus_i, total_i, first_i = len(rows) - 3, len(rows) - 2, len(rows) - 1
    held = verdict.info["players"]
    fill: list[S.Item] = []
    for p, sc in enumerate(verdict.scores[:spec.players]):
        T.write(fill, cells[0, p][0], sc.player + ("  (1)" if p == 0 else ""), size=9.0)
        chips = held[sc.player]["chips"]
        for r in ROWS:
            n = chips[str(r)]
            if n:
                a, res = cells[chip_row[r], p]
                T.write(fill, a, str(n))
                T.write(fill, res, str(n * r))
        bonuses = held[sc.player]["bonuses"]
        T.write(fill, cells[bonus_i, p][0], str(sum(bonuses)))
        if bonuses:
            x, y, w, h = cells[bonus_i, p][0]
            fill.append(S.Text(x - 1.5, y + h / 2 + 1, "+".join(map(str, bonuses)), size=7.0,
                               anchor="end", color=T.INK))
        T.write(fill, cells[total_i, p][0], str(sc.total))
        if p == 0:
            x, y, w, h = cells[first_i, p][0]
            fill.append(S.Circle(x + w / 2, y + h / 2, w / 2 + 0.8, style=S.Style(stroke=T.INK, width=0.6)))
        if sc.player in verdict.winners:
            x, y, w, h = cells[total_i, p][0]
            fill.append(S.Rect(x - 1, y - 1, w + 2, h + 2, style=S.Style(stroke=T.INK, width=0.6)))

    pages = [S.Page(W, H, [S.Use("pad"), *fill], stamp=None)]
    errors = sum(1 for f in verdict.findings if f.severity == "error")
    head = f"{verdict.source}: {'legal' if not errors else f'ILLEGAL: {errors} finding(s)'}"
    if verdict.info.get("kind") == "game":
        head += f", {verdict.info['turns']} turns"
    head += f"; {'winner' if len(verdict.winners) == 1 else 'shared win'}: {', '.join(verdict.winners)}"
    y = bottom + 8
    text_items = [S.Text(INNER, y, head, size=fit_size(head, W - 2 * INNER, 9.0, True), bold=True, color=T.INK)]
    for line in T.findings_lines(verdict.findings, W - 2 * INNER):
        y += 4.2
        if y > H - INNER - 2:
            pages[-1].items.extend(text_items)
            pages.append(S.Page(W, H, [], stamp=None))
            text_items, y = [], INNER + 8
        text_items.append(S.Text(INNER, y, line, size=7.5, color=T.INK))
    pages[-1].items.extend(text_items)
    scene = S.Scene(title=f"Level X: {verdict.source}")
    scene.forms["pad"] = S.Form(W, H, items)
    scene.pages = pages
    return scene
