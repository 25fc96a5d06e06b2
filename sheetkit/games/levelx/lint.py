"""Game sense of Level X layouts: the board against L1-L3, legibility of both."""

from __future__ import annotations

from sheetkit.paper import tables
from sheetkit.games.levelx.rules import BONUSES, CHIPS, ROWS, SQUARES
from sheetkit.checking.verdict import Finding


def lint(layout) -> list[Finding]:
    spec = layout.spec
    out: list[Finding] = []
    if layout.kind == "board":
        numbers = [r.number for r in spec.rows]
        if numbers != list(ROWS):
            out.append(Finding("L1", "rows", f"rows {numbers}; the board has rows {list(ROWS)} in order"))
        for i, r in enumerate(spec.rows):
            if r.number in SQUARES and r.squares != SQUARES[r.number]:
                out.append(Finding("L1", f"row {r.number}", f"{r.squares} squares; the row has "
                                                            f"{SQUARES[r.number]}, the last one X"))
            if r.number in CHIPS and r.chips != CHIPS[r.number]:
                out.append(Finding("L2", f"row {r.number}", f"a stack of {r.chips} chips; with 4 players "
                                                            f"it is {CHIPS[r.number]}"))
        if spec.bonuses != list(BONUSES):
            out.append(Finding("L3", "bonuses", f"{spec.bonuses}; the tiles are {list(BONUSES)}, highest first"))
        if spec.square < 18:
            out.append(Finding("print", "square", f"{spec.square} mm squares: pawns and chips need about 20 mm"))
    from sheetkit.games.levelx.compose import pad_geometry

    for paper in ("a4", "letter"):
        if layout.kind == "score-pad":
            g = pad_geometry(spec, paper, 0)
            need = tables.formula_width(g, "10")
            if need > g.col_w - 1:
                out.append(Finding("print", paper, f"a chip line needs {need:.1f} mm; player columns "
                                                   f"are {g.col_w:.1f} mm"))
    return out
