"""Game sense of IUNU layouts."""

from __future__ import annotations

from sheetkit.paper import tables
from sheetkit.games.iunu.record import CASTES_IN_DECK, KNOWN_CASTES
from sheetkit.messages import msg
from sheetkit.checking.verdict import Finding


def lint(layout) -> list[Finding]:
    spec = layout.spec
    out: list[Finding] = []
    keys = [c.key for c in spec.castes]
    for k in KNOWN_CASTES:
        if k not in keys:
            out.append(Finding("I2", "castes", msg("lint.iunu.no_line", caste=repr(k))))
    if len(keys) != CASTES_IN_DECK:
        out.append(Finding("I2", "castes", msg("lint.iunu.lines", n=len(keys), castes=CASTES_IN_DECK)))
    from sheetkit.games.iunu.compose import geometry

    for paper in ("a4", "letter"):
        g = geometry(spec, paper)
        need = tables.formula_width(g, None)
        if need > g.col_w - 1:
            out.append(Finding("print", paper, msg("lint.iunu.majority_width", need=f"{need:.1f}", col=f"{g.col_w:.1f}")))
    return out
