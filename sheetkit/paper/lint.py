"""`sheetkit lint`: a layout's game sense (the game's own checks), and for every layout that
it fits the page and can be read off a home printer."""

from __future__ import annotations

import itertools

from sheetkit import layouts
from sheetkit.paper import scene as S
from sheetkit.paper.printing import MAX_BLEED
from sheetkit.paper.scene import PAPERS, SAFE_MARGIN, bounds
from sheetkit.checking.messages import msg
from sheetkit.checking.verdict import Finding


MIN_TEXT_PT = 6.0
MIN_LINE_MM = 0.25 * 25.4 / 72  # 0.25 pt: thinner lines vanish on a home printer


def legible(scene: S.Scene, where) -> list[Finding]:
    """Text at least 6 pt and lines at least 0.25 pt, on every page and form."""
    small, thin = set(), set()
    for items in [f.items for f in scene.forms.values()] + [p.items for p in scene.pages]:
        for it in items:
            if isinstance(it, S.Text) and it.text.strip() and it.size < MIN_TEXT_PT - 1e-6:
                small.add((it.text, round(it.size, 2)))
            style = getattr(it, "style", None)
            if style is not None and style.stroke and style.width < MIN_LINE_MM - 1e-9:
                thin.add(round(style.width, 3))
    out = []
    if small:
        text, size = min(small, key=lambda ts: ts[1])
        out.append(Finding("print", where, msg("lint.small_text", n=len(small), pt=f"{MIN_TEXT_PT:g}", text=repr(text),
                                               size=size)))
    if thin:
        out.append(Finding("print", where, msg("lint.thin_lines", mm=min(thin))))
    return out


def on_paper(layout: layouts.Layout) -> list[Finding]:
    """Every page, on both papers and in both languages, keeps clear of the printer's margin
    and is legible."""
    compose = layout.kind_entry.compose
    out: list[Finding] = []
    # boards print at real size or fitted to one page; other layouts ignore the scale
    # pieces cut out are also checked with the most bleed they can have
    bleeds = (0.0, MAX_BLEED) if layout.kind_entry.bleed else (0.0,)
    for paper, lang, scale, bleed in itertools.product(PAPERS, ("es", "en"), ("real", "fit"), bleeds):
        where = f"{paper}, {lang}" + (", --scale fit" if scale == "fit" else "") + (f", --bleed {bleed:g}" if bleed else "")  # options: the same words in both languages
        scene = compose(layout, paper, lang, scale, bleed=bleed) if bleed else compose(layout, paper, lang, scale)
        out += legible(scene, where)
        for n, page in enumerate(scene.pages, 1):
            b = bounds(page.items, scene.forms)
            if b is None:
                continue
            x0, y0, x1, y1 = b
            over = max(SAFE_MARGIN - x0, SAFE_MARGIN - y0,
                       x1 - (page.width - SAFE_MARGIN), y1 - (page.height - SAFE_MARGIN))
            if over > 0.01:
                out.append(Finding("page", msg("lint.where.page", where=where, n=n),
                                   msg("lint.margin", over=f"{over:.1f}", margin=f"{SAFE_MARGIN:.0f}")))
    return out


def lint(ref: str) -> tuple[layouts.Layout, list[Finding]]:
    layout = layouts.load(ref)
    findings = list(layout.kind_entry.lint(layout))
    findings += on_paper(layout)
    return layout, findings
