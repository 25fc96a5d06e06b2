"""The checked Glüx board of `check --render`: the final board with the findings circled."""

from __future__ import annotations

from sheetkit.games.glux.check import squares_of
from sheetkit.games.glux.compose import fit_page, board_items
from sheetkit.paper.annotate import RED, list_findings
from sheetkit.paper.measure import fit_size
from sheetkit.paper.scene import BLACK, WHITE, Circle, Scene, Style, Text


def overlay(record, checked, paper: str, lang: str = "en") -> Scene:
    """The final board of a record on one page: every top chip (owner letter and pips, a
    double ring on stacks), the findings circled with their rule ids, and the scores."""
    board, verdict = checked.state.board, checked.verdict
    spec = record.board
    letters = {p.name: p.letter for p in record.spec.players}
    title = f"{verdict.source}: {spec.title(lang)}"
    page, sq, bx, by = fit_page(spec, paper, title, bottom=30)
    page.stamp = None
    page.items += board_items(spec, lang, sq, bx, by, names=True, labels_aside=True)
    for (c, r), stack in board.stacks.items():
        top = stack[-1]
        if top.owner not in letters:
            continue
        x, y = bx + c * sq + sq / 2, by + r * sq + sq / 2
        rad = sq * 0.3
        items = [Circle(x, y, rad, Style(stroke=BLACK, width=0.4, fill=WHITE))]
        if len(stack) > 1:
            items.append(Circle(x, y, rad + 1.0, Style(stroke=BLACK, width=0.4)))
        size = fit_size(f"{letters[top.owner]}{top.pips}", rad * 1.6, 12, bold=True, min_pt=5)
        items.append(Text(x, y + size * 0.3528 * 0.36, f"{letters[top.owner]}{top.pips}", size=size, bold=True,
                          anchor="middle"))
        page.items += items
    for (c, r), f in squares_of(verdict.findings):
        if not spec.on_board((c, r)):
            continue  # a placement off the board: listed below, nowhere to circle
        x, y = bx + c * sq + sq / 2, by + r * sq + sq / 2
        page.items.append(Circle(x, y, sq * 0.46, Style(stroke=RED, width=0.8)))
        page.items.append(Text(x + sq * 0.5, y - sq * 0.3, f.rule, size=7, bold=True, color=RED, anchor="end"))
    g = spec
    y = by + g.height * sq + 5
    from sheetkit.checking.messages import text

    scores = ", ".join(text("glux.score", lang, player=s.player, vp=s.total) for s in verdict.scores)
    head = (text("glux.head_winner", lang, status=verdict.status(lang), scores=scores, winners=", ".join(verdict.winners))
            if verdict.winners else text("glux.head", lang, status=verdict.status(lang), scores=scores))
    pages = [page]
    list_findings(pages, y, head, verdict.findings, lang=lang)
    return Scene(pages, {}, title)
