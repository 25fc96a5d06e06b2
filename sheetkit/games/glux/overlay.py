"""The checked Glüx board of `check --render`: the final board with every chip drawn as the
printed chips look (its player's colour and frame pattern, its pips), a legend of the
players, every finding marked at its square with a numbered tag, and the numbered
findings and scores below."""

from __future__ import annotations

from dataclasses import replace

from sheetkit import layouts
from sheetkit.memo import Memo
from sheetkit.messages import text
from sheetkit.games.glux.check import squares_of
from sheetkit.games.glux.compose import board_items, chip_items, fit_page
from sheetkit.paper import annotate
from sheetkit.paper.measure import clip_text, text_width
from sheetkit.paper.scene import BLACK, Rect, Scene, Style, Text

CHIPS = "glux-chips"
SHADOW = 0.9  # mm: each chip under the top one shows this much of its edge


def player_colours(players) -> dict[str, object]:
    """Each player's chip colour from the chips layout: the one the record names, else
    the first colours in the layout's order that no other player named."""
    colours = layouts.load(CHIPS).spec.colours
    by_name = {c.name("en"): c for c in colours}
    taken = {p.colour for p in players if p.colour}
    free = iter([c for c in colours if c.name("en") not in taken])
    return {p.name: by_name[p.colour] if p.colour in by_name else next(free, colours[0]) for p in players}


def board_page(record, paper: str, title: str = ""):
    """The checked sheet's page and where its board lies on it: (page, square, x, y). The
    web page lays its tap squares over the board drawn here, so both ask this one place."""
    return fit_page(record.board, paper, title, bottom=34 + 6.5 * len(record.spec.players))


def overlay(record, checked, paper: str, lang: str = "en") -> Scene:
    board, verdict = checked.state.board, checked.verdict
    spec = record.board
    players = record.spec.players
    colours = player_colours(players)
    title = spec.title(lang)  # the game and board, not the record's file
    page, sq, bx, by = board_page(record, paper, title)
    page.stamp = None
    page.items += _board_drawn(spec, lang, sq, bx, by)
    chip_boxes = []
    s = sq * 0.55  # a chip smaller than its square, at its top right: the square's name
    for (c, r), stack in sorted(board.stacks.items()):  # (top left) and a room's label (bottom left) stay in view
        shown = stack[-3:]
        x, y = bx + c * sq + sq - s - 1.0 - (len(shown) - 1) * SHADOW, by + r * sq + 1.0
        for depth, chip in enumerate(shown):
            if chip.owner not in colours:
                continue
            d = (len(shown) - 1 - depth) * SHADOW  # the chips underneath peek out to the lower right
            page.items += _chip(x + d, y + d, s, chip.pips, colours[chip.owner], lang)
        d = (len(shown) - 1) * SHADOW
        chip_boxes.append((x, y, x + s + d, y + s + d))

    # The legend: each player's chip colour and pattern.
    y = by + spec.height * sq + 5
    entries = {}
    for i, p in enumerate(players):
        ly = y + i * 6.5
        page.items += _legible(chip_items(bx, ly, 4.2, 1, colours[p.name], lang))
        page.items.append(Rect(bx, ly, 4.2, 4.2, Style(stroke=BLACK, width=0.2)))
        score = next((sc.total for sc in verdict.scores if sc.player == p.name), 0)
        words = text("checked.legend", lang, name=p.name, colour=colours[p.name].name(lang), points=score)
        words = clip_text(words, 90, 8)
        page.items.append(Text(bx + 6.0, ly + 3.2, words, size=8))
        entries[p.name] = (bx - 0.6, ly - 0.5, 6.0 + text_width(words, 8) + 1.2, 4.2 + 1.0)
    y += len(players) * 6.5 + 4.5  # the head clear of the last line's outline

    places = []
    for f in verdict.findings:
        found = squares_of([f])
        sqr = found[0][0] if found else None
        if sqr is not None and spec.on_board(sqr):
            c, r = sqr
            inset = 0.9  # the square outlined just inside its lines: its name and the rooms' borders stay clear
            places.append([annotate.cell(bx + c * sq + inset, by + r * sq + inset, sq - 2 * inset, sq - 2 * inset)])
        elif sqr is None and f.at.get("player") in entries:  # a fault of no square: beside the player's legend line
            places.append([annotate.cell(*entries[f.at["player"]], side="line")])
        else:
            places.append([])
    scores = ", ".join(text("glux.score", lang, player=sc.player, vp=sc.total) for sc in verdict.scores)
    head = text("glux.head", lang, status=verdict.status(lang), scores=scores)
    if verdict.ahead and verdict.legal:  # an illegal record has no winner
        head += f"; {verdict.result_label(lang)}: {', '.join(verdict.ahead)}"
    pages = [page]
    annotate.list_findings(pages, y, head, verdict.findings, lang=lang, color=BLACK, count=annotate.shown(places))
    # after the list: the tags keep clear of it; and of the chips and the board's thick border
    W, H = spec.width * sq, spec.height * sq
    e = 0.6 + 0.1
    border = [(bx - e, by - e, bx + W + e, by + e), (bx - e, by + H - e, bx + W + e, by + H + e),
              (bx - e, by - e, bx + e, by + H + e), (bx + W - e, by - e, bx + W + e, by + H + e)]
    marked = annotate.mark(page, {}, places, chip_boxes + border)
    page.items += marked.marks + marked.tags
    return Scene(pages, {}, title)


_BOARDS = Memo(32)  # a side, where and how it is drawn -> its items


def _board_drawn(spec, lang: str, sq: float, bx: float, by: float) -> list:
    """The board side's items as the checked sheet draws them (6 pt text at least), drawn
    once: the page draws the same side under every move."""
    return list(_BOARDS.kept((lang, sq, bx, by), (spec,), lambda: tuple(
        replace(it, size=6.0) if isinstance(it, Text) and it.size < 6.0 else it
        for it in board_items(spec, lang, sq, bx, by, names=True, labels_aside="line"))))


_CHIPS = Memo(4096)  # a chip on the board, by its place, size, face, colour and language -> its items


def _chip(x: float, y: float, s: float, pips: int, colour, lang: str) -> list:
    """A chip on the checked sheet, outlined; kept: the page draws every chip on the board
    again at every move."""
    return _CHIPS.kept((x, y, s, pips, lang), (colour,), lambda: _legible(chip_items(x, y, s, pips, colour, lang))
                       + [Rect(x, y, s, s, Style(stroke=BLACK, width=0.2))])


def _legible(items: list) -> list:
    """A chip drawn on the checked sheet, smaller than a printed chip: its colour letters
    would be under 6 pt there, so they are left out (the colour, the frame's pattern and
    the legend's words tell the players apart)."""
    return [it for it in items if not (isinstance(it, Text) and it.size < 6.0)]
