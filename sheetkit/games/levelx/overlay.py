"""`sheetkit check RECORD --render out.pdf` for Level X: the score pad filled in from the
checked state (a final position, or the position at the end of a replayed game), with the
verdict and its findings below."""

from __future__ import annotations

from sheetkit import layouts
from sheetkit.checking.messages import text
from sheetkit.paper import annotate
from sheetkit.paper import scene as S
from sheetkit.paper import tables as T
from sheetkit.games.levelx.compose import INNER, pad_items, pad_rows
from sheetkit.games.levelx import GAME
from sheetkit.games.levelx.rules import ROWS
from sheetkit.paper.measure import clip_text, text_width


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
    if not verdict.legal:
        pass  # an illegal record has no winner, nor a leader
    elif verdict.in_progress:
        note += f"; {text('checked.leading', lang)}: {', '.join(verdict.winners)}"
    else:
        label = text("status.winner" if len(verdict.winners) == 1 else "status.shared_win", lang)
        note += f"; {label}: {', '.join(verdict.winners)}"
    column = {name: p for p, name in enumerate(state.players[:spec.players])}
    turns = getattr(record, "turn", [])

    def across(i: int) -> list[annotate.Spot]:
        return [annotate.cell(*annotate.union(b for q in column.values() for b in cells[i, q]))]

    def places(f) -> list[annotate.Spot]:
        """The cells of a finding: a chip row or the bonus row across the players, a
        player's bonus box (L7) or name, the player of a turn; the game's end: the totals."""
        at = f.at
        if at.get("row") in chip_row:
            return across(chip_row[at["row"]])
        if "bonus" in at:
            return across(bonus_i)
        who = at.get("player")
        if who is None and isinstance(at.get("turn"), int) and 1 <= at["turn"] <= len(turns):
            who = turns[at["turn"] - 1].player or state.players[(at["turn"] - 1) % len(state.players)]
        if who in column:
            return [annotate.cell(*cells[bonus_i if f.rule == "L7" else 0, column[who]][0])]
        return across(total_i) if f.rule == "L8" else []

    return T.filled_scene("Level X", verdict, paper, INNER, items, fill, bottom, note,
                          places=[places(f) for f in verdict.findings], lang=lang)
