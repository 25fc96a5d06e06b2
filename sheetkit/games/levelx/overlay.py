"""`sheetkit check RECORD --render out.pdf` for Level X: the score pad filled in from the
checked state (a final position, or the position at the end of a replayed game), every
finding marked on its cells, the verdict and the numbered findings below; for a replayed
game, a last page with the board and every pawn where the game left it."""

from __future__ import annotations

from sheetkit import layouts
from sheetkit.messages import text
from sheetkit.paper import annotate
from sheetkit.paper import scene as S
from sheetkit.paper import tables as T
from sheetkit.games.levelx.compose import INNER, pad_items, pad_rows
from sheetkit.games.levelx import GAME
from sheetkit.games.levelx.rules import ROWS
from sheetkit.paper.measure import clip_text, fit_size, text_width


def overlay(record, checked, paper: str = "a4", lang: str = "en") -> S.Scene:
    state, verdict = checked.state, checked.verdict
    layout = layouts.load(GAME.pad)
    spec = layout.spec.model_copy(update={"games": 1})  # one game: room for the findings
    cells: dict = {}
    items, bottom = pad_items(spec, paper, lang, cells)
    rows = pad_rows(spec, lang)
    chip_row = {int(r.factor): i for i, r in enumerate(rows) if r.kind == "formula"}
    bonus_i, total_i, first_i = len(rows) - 3, len(rows) - 2, len(rows) - 1
    fill: list[S.Item] = []
    for p, name in enumerate(state.players[:spec.players]):
        mark = "  (1)" if p == 0 else ""
        room = cells[0, p][0][2] - 1.0 - text_width(mark, T.MIN_PT, True)
        T.write(fill, cells[0, p][0], clip_text(name, room, T.MIN_PT, True) + mark, size=9.0)
        chips = state.chips[name]
        for r in ROWS:
            n = chips[r]
            if n:
                a, res = cells[chip_row[r], p]
                T.write(fill, a, str(n))
                T.write(fill, res, str(n * r))
        bonuses = state.bonuses[name]
        T.write(fill, cells[bonus_i, p][0], str(sum(bonuses)))
        if bonuses:
            x, y, w, h = cells[bonus_i, p][0]
            fill.append(S.Text(x - 1.5, y + h / 2 + 1, "+".join(map(str, bonuses)), size=7.0,
                               anchor="end", color=T.INK))
        T.write(fill, cells[total_i, p][0], str(state.score(name)))
        if p == 0:
            x, y, w, h = cells[first_i, p][0]
            fill.append(S.Circle(x + w / 2, y + h / 2, w / 2 + 0.8, style=S.Style(stroke=T.INK, width=0.6)))
        if name in verdict.winners and not verdict.in_progress and verdict.legal:  # an illegal record has no winner
            x, y, w, h = cells[total_i, p][0]
            fill.append(S.Rect(x - 1, y - 1, w + 2, h + 2, style=S.Style(stroke=T.INK, width=0.6)))

    note = f", {text('checked.turns', lang, n=verdict.details.turns)}" if verdict.details.kind == "game" else ""
    if verdict.legal:  # an illegal record has no winner, nor a leader
        note += f"; {verdict.result_label(lang)}: {', '.join(verdict.ahead)}"
    column = {name: p for p, name in enumerate(state.players[:spec.players])}
    turns = getattr(record, "turn", [])

    def across(i: int) -> list[annotate.Spot]:
        return [annotate.cell(*annotate.union(b for q in column.values() for b in cells[i, q]))]

    def places(f) -> list[annotate.Spot]:
        """The fields of a finding: a chip row or the bonus row across the players; for a
        turn, the fields of that turn in its player's column (the bonus box of a bonus tile
        taken, the rows of the chips taken, else the rows its dice groups add up to), with
        the record's value beside; a turn out of order: the names of who played and of who
        should have; a player's name; the game's end: the totals."""
        at = f.at
        if at.get("row") in chip_row:
            return across(chip_row[at["row"]])
        if "bonus" in at:
            return across(bonus_i)
        who, turn = at.get("player"), None
        after = getattr(f.place, "id", "") in ("where.levelx.after_turn", "where.levelx.end")  # the game's end
        if isinstance(at.get("turn"), int) and 1 <= at["turn"] <= len(turns) and not after:
            turn = turns[at["turn"] - 1]
            who = who or turn.player or state.players[(at["turn"] - 1) % len(state.players)]
        if turn is not None and getattr(f.text, "id", "") == "finding.levelx.L8_wrong_player":
            # out of turn: the name of who played, and of who should have
            due = state.players[(at["turn"] - 1) % len(state.players)]
            return [annotate.cell(*cells[0, column[n]][0], side="beside")
                    for n in dict.fromkeys((turn.player, due)) if n in column]
        if who in column and turn is not None:
            p = column[who]
            if f.rule == "L7" or (turn.bonuses and not turn.chips):
                return [annotate.cell(*cells[bonus_i, p][0], value="+".join(map(str, turn.bonuses or [])) or None,
                                      side="beside")]
            rows_ = [c for c in (turn.chips or []) if c in chip_row]
            value = lambda r: str((turn.chips or []).count(r)) if turn.chips else None  # noqa: E731
            if not rows_:
                rows_ = [sum(g) for g in turn.groups if sum(g) in chip_row]
            spots = [annotate.cell(*annotate.union(cells[chip_row[r], p]), value=value(r), side="beside")
                     for r in dict.fromkeys(rows_)]
            return spots or [annotate.cell(*cells[0, p][0], side="beside")]
        if who in column:
            return [annotate.cell(*cells[bonus_i if f.rule == "L7" else 0, column[who]][0], side="beside")]
        return across(total_i) if f.rule == "L8" else []

    scene = T.filled_scene("Level X", verdict, paper, INNER, items, fill, bottom, note,
                           places=[places(f) for f in verdict.findings], lang=lang)
    if hasattr(state, "pos"):  # a replayed game: where the pawns stand, on a last page of their own
        scene.pages.append(board_page(scene, state, paper, lang))
    return scene


# Each player's pawn: a colour and a frame pattern that a black-and-white print still tells
# apart (the Glüx chips' colours), and the player's number in turn order.
PAWNS = (("#8a6d00", "#fff1a8", None), ("#1f6b2c", "#d4f2c8", (1.2, 0.8)),
         ("#a1221a", "#ffd2cc", "double"), ("#5b2a86", "#e6d8f7", (0.3, 0.7)))


def pawn(x: float, y: float, r: float, k: int) -> list[S.Item]:
    ink, tint, frame = PAWNS[k % len(PAWNS)]
    items: list[S.Item] = [S.Circle(x, y, r, S.Style(stroke=ink, fill=tint, width=0.6,
                                                     dash=frame if isinstance(frame, tuple) else None))]
    if frame == "double":
        items.append(S.Circle(x, y, r - 0.9, S.Style(stroke=ink, width=0.35)))
    size = r * 1.25 * 72 / 25.4
    items.append(S.Text(x, y + size * 0.3528 * 0.36, str(k + 1), size=size, bold=True, anchor="middle", color=ink))
    return items


def board_spec():
    """The shipped board layout, read once per process: reading it costs more than drawing
    a whole position on it (the web page draws one per move)."""
    from sheetkit.games.levelx.board import shipped

    return shipped()


def board_page(scene: S.Scene, state, paper: str, lang: str, screen: bool = False) -> S.Page:
    """The Level X board the game is played on (the one its record names: `state.board`)
    with every pawn where the game left it (the start area, a square, X), the chips left in
    each stack, the bonus tiles taken and by whom, and a legend of the players' pawns.
    `screen`: for the phone page, which shows the board at about 2 px/mm: larger pawns, and
    each stack's count in large print over the printed one."""
    from sheetkit.games.levelx.compose import board_geometry, compose_board

    spec = getattr(state, "board", None) or board_spec()
    board = compose_board(spec, paper, lang)
    page = board.pages[0]
    page.stamp = None
    scene.forms.update(board.forms)
    g = board_geometry(spec, paper)
    s, r = g["s"], g["s"] * (0.21 if screen else 0.17)
    seat = {name: k for k, name in enumerate(state.players)}
    slots = [(-0.2, -0.1), (0.2, -0.1), (-0.2, 0.28), (0.2, 0.28)]  # clear of the square's number
    for row, at_row, chip in zip(spec.rows, g["rows"], g["chips"]):
        y, first = at_row["y"], at_row["first"]
        for name, k in seat.items():
            at = state.pos[name].get(row.number, 0)
            dx, dy = slots[k % 4]
            # the start area's right end, left of the first square, holds the pawns as a square would
            cx = first + (at - 1) * s + s / 2 + dx * s - (1.5 if at == 0 else 0)
            page.items += pawn(cx, y + s / 2 + dy * s, r, k)
        left = state.stacks.get(row.number)
        if left is not None:
            page.items += _stack_left(g, chip, left, lang, screen)
    # the bonus tiles, as compose_board places them: a taken one crossed, its taker's pawn on it
    tile = g["tile"]
    holder = {b: p for p in state.players for b in state.bonuses[p]}
    for b, (bx, y) in zip(spec.bonuses, g["tiles"]):
        if b in holder:
            page.items.append(S.Line(bx, y + tile, bx + tile, y, style=S.Style(stroke=T.INK, width=0.6)))
            page.items += pawn(bx + tile - r - 1, y + tile - r - 1, r, seat[holder[b]])
    x = INNER + 1
    for k, name in enumerate(state.players):  # the legend, under the title
        page.items += pawn(x + 2.2, INNER + 12, 2.2, k)
        words = clip_text(name, 40, 8)
        page.items.append(S.Text(x + 5.6, INNER + 13.2, words, size=8))
        x += 5.6 + text_width(words, 8) + 5
    return page


def board_crop(paper: str, spec=None) -> tuple[float, float, float, float]:
    """(x, y, width, height) in mm of the board's rows, chip stacks and bonus tiles on its
    page (`spec`: the board played on; None: the shipped one): what the phone page shows."""
    from sheetkit.games.levelx.compose import board_geometry

    g = board_geometry(spec or board_spec(), paper)
    left = min([g["x0"]] + [x for x, _ in g["tiles"]])
    top = g["y0"] - 3
    bottom = max([g["chips"][0]["cy"] + g["chip_d"] / 2 + 15] + [y + g["tile"] + 1.5 for _, y in g["tiles"]])
    right = max(g["x0"] + g["total"], g["chips"][-1]["cx"] + g["chips"][-1]["w"] / 2)
    return (left - 3, top, right - left + 6, bottom - top)


def _stack_left(g: dict, chip: dict, left: int, lang: str, screen: bool) -> list[S.Item]:
    """How many chips a row's stack has left, under its printed "x 12 chips"; an empty stack
    is struck through."""
    d = g["chip_d"] / 2
    cx, cy = chip["cx"], chip["cy"]
    words = text("checked.left", lang, n=left)
    if screen:  # large, over the printed counts: the screen shows it at about 2 px/mm
        w = chip["w"] - 1
        items: list[S.Item] = [S.Rect(cx - w / 2, cy + d + 0.8, w, 9.5, style=S.Style(stroke=None, fill="#ffffff")),
                               S.Text(cx, cy + d + 7.2, words, size=fit_size(words, w, 11.0, True), bold=True,
                                      anchor="middle", color=T.INK)]
    else:
        items = [S.Text(cx, cy + d + 12.8, words, size=fit_size(words, chip["w"] - 1, 7.0, True), bold=True,
                        anchor="middle", color=T.INK)]
    if left == 0:
        items.append(S.Line(cx - d, cy + d, cx + d, cy - d, style=S.Style(stroke=T.INK, width=0.9)))
    return items
