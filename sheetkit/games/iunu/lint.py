"""Game sense of IUNU layouts."""

from __future__ import annotations

from sheetkit.paper import tables
from sheetkit.games.iunu.record import CASTES_IN_DECK, KNOWN_CASTES
from sheetkit.checking.verdict import Finding


def lint(layout) -> list[Finding]:
    spec = layout.spec
    out: list[Finding] = []
    keys = [c.key for c in spec.castes]
    for k in KNOWN_CASTES:
        if k not in keys:
            out.append(Finding("I2", "castes", f"the caste {k!r} has no line on the pad"))
    if len(keys) != CASTES_IN_DECK:
        out.append(Finding("I2", "castes", f"{len(keys)} caste lines; IUNU has {CASTES_IN_DECK} castes"))
    from sheetkit.games.iunu.compose import geometry

    for paper in ("a4", "letter"):
        g = geometry(spec, paper)
        need = tables.formula_width(g, None)
        if need > g.col_w - 1:
            out.append(Finding("print", paper, f"a majority line needs {need:.1f} mm; player columns "
                                               f"are {g.col_w:.1f} mm (smaller box or fewer players)"))
    return out
