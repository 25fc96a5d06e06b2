"""Game sense of Level X layouts: the board against L1-L3, legibility of both."""

from __future__ import annotations

from sheetkit.paper import tables
from sheetkit.games.levelx.rules import BONUSES, CHIPS, ROWS
from sheetkit.messages import msg
from sheetkit.checking.verdict import Finding


def lint(layout) -> list[Finding]:
    spec = layout.spec
    out: list[Finding] = []
    if layout.kind == "board":
        numbers = [r.number for r in spec.rows]
        if numbers != list(ROWS):
            out.append(Finding("L1", "rows", msg("lint.levelx.rows", rows=str(numbers), want=str(list(ROWS)))))
        # L1: "each row of a different length"; which lengths is the board's (the rules
        # are checked on the board a record names), so only a length shared is a finding
        seen: dict[int, int] = {}
        for r in spec.rows:
            if r.squares in seen:
                out.append(Finding("L1", msg("lint.where.row", n=r.number),
                                   msg("lint.levelx.same_length", n=r.squares, other=seen[r.squares])))
            seen.setdefault(r.squares, r.number)
        for i, r in enumerate(spec.rows):
            if r.number in CHIPS and r.chips != CHIPS[r.number]:
                out.append(Finding("L2", msg("lint.where.row", n=r.number), msg("lint.levelx.stack", n=r.chips,
                                                                                  want=CHIPS[r.number])))
        if spec.bonuses != list(BONUSES):
            out.append(Finding("L3", "bonuses", msg("lint.levelx.bonuses", got=str(spec.bonuses), want=str(list(BONUSES)))))
        if spec.square < 18:
            out.append(Finding("print", "square", msg("lint.levelx.square", mm=spec.square)))
    from sheetkit.games.levelx.compose import pad_geometry

    for paper in ("a4", "letter"):
        if layout.kind == "score-pad":
            g = pad_geometry(spec, paper, 0)
            need = tables.formula_width(g, "10")
            if need > g.col_w - 1:
                out.append(Finding("print", paper, msg("lint.levelx.chip_width", need=f"{need:.1f}", col=f"{g.col_w:.1f}")))
    return out
