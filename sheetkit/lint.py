"""`sheetkit lint`: a layout's game sense (the game's own checks) and that it fits the page."""

from __future__ import annotations

from sheetkit import games, layouts
from sheetkit.scene import PAPERS, SAFE_MARGIN, bounds
from sheetkit.verdict import Finding


def fits_page(layout: layouts.Layout) -> list[Finding]:
    """Every page, on both papers and in both languages, keeps clear of the printer's margin."""
    game = games.get(layout.game)
    out: list[Finding] = []
    for paper in PAPERS:
        for lang in ("es", "en"):
            scene = game.compose(layout, paper, lang)
            for n, page in enumerate(scene.pages, 1):
                b = bounds(page.items, scene.forms)
                if b is None:
                    continue
                x0, y0, x1, y1 = b
                over = max(SAFE_MARGIN - x0, SAFE_MARGIN - y0,
                           x1 - (page.width - SAFE_MARGIN), y1 - (page.height - SAFE_MARGIN))
                if over > 0.01:
                    out.append(Finding("page", f"{paper}, {lang}, page {n}",
                                       f"drawing comes {over:.1f} mm into the {SAFE_MARGIN:.0f} mm printer margin"))
    return out


def lint(ref: str) -> tuple[layouts.Layout, list[Finding]]:
    layout = layouts.load(ref)
    findings = list(games.get(layout.game).lint(layout))
    findings += fits_page(layout)
    return layout, findings
