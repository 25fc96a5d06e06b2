"""`sheetkit lint`: a layout's game sense (the game's own checks), and for every layout that
it fits the page and can be read off a home printer (text of 6 pt at least, lines of 0.25
pt at least, on every page); for a layout a game is played on, the same floors on the
checked sheet of a random game with a planted fault, and its tags clear of every text, of
one another and of the printer margin."""

from __future__ import annotations

import itertools

from sheetkit import layouts
from sheetkit.paper import scene as S
from sheetkit.paper.printing import MAX_BLEED
from sheetkit.paper.scene import PAPERS, SAFE_MARGIN, bounds
from sheetkit.messages import msg
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
    findings += checked_sheets(layout)
    return layout, findings


# --- checked sheets: the floors hold on `check --render` of a game on this layout too ------


def _planted(layout: layouts.Layout):
    """A random legal game on `layout` (a fixed seed: lint says the same every run) with one
    value changed so that it is not legal, as a parsed record; None for a layout no
    record is played on (pads, chips, the calibration sheet) or whose game has no player."""
    import random
    import tomllib

    from sheetkit.checking import records

    rng = random.Random(7)
    game = getattr(layout, "game", None) or getattr(layout.spec, "game", None)
    if game == "yuncos" and hasattr(layout.spec, "fish"):
        from sheetkit.games.yuncos.play import play, to_toml

        rec = play(layout, rng, dice=True).record
        n = rec.get("fish_marked", 0)
        rec["fish_marked"] = n + 1 if n < len(layout.spec.fish.values) else n - 1  # one box too many
        data = tomllib.loads(to_toml(rec))
    elif game == "glux" and hasattr(layout.spec, "start_squares"):
        import dataclasses

        from sheetkit.games.glux import play

        setups, placements = play.random_game(layout.spec, 2, rng, start_chance=0.05)
        i = len(placements) // 2
        wrong = dataclasses.replace(placements[i], face=placements[i].face % 6 + 1)  # a chip that does not show its count
        data = tomllib.loads(play.game_toml(layout.id, setups, placements[:i] + [wrong] + placements[i + 1:]))
    elif game == "levelx" and layout.id == "levelx-score-pad":
        from sheetkit.games.levelx.play import random_game

        data, _ = random_game(rng, ["Ana", "Ben", "Cleo"], 0.5)
        data["turn"][len(data["turn"]) // 2]["chips"] = [5, 5, 5]  # chips the dice did not give
    else:
        return None
    return records.parse(data, "lint.toml")


def _tag_faults(page: S.Page, forms) -> int:
    """The tags (red numbers in white boxes) over a text of the sheet, over one another or
    in the printer margin."""
    from sheetkit.paper import labels as L
    from sheetkit.paper.annotate import RED

    frames = [(i.x, i.y, i.x + i.w, i.y + i.h) for i in page.items
              if isinstance(i, S.Rect) and i.style.stroke == RED and i.style.fill == S.WHITE]
    inside = lambda t, b: b[0] < t.x < b[2] and b[1] < t.y < b[3]  # noqa: E731
    own = {id(t) for t in page.items if isinstance(t, S.Text) and t.color == RED and t.bold
           and any(inside(t, b) for b in frames)}
    texts = L.text_boxes([i for i in page.items if id(i) not in own], forms)
    area = L.drawable(page)
    bad = 0
    for k, b in enumerate(frames):
        if (not L._inside(b, area) or any(L._overlap(b, c) for c in frames[k + 1:])
                or any(L._overlap(b, t) for t in texts)):
            bad += 1
    return bad


def checked_sheets(layout: layouts.Layout) -> list[Finding]:
    """The checked sheet (`check --render`) of a random game on this layout with a fault
    planted in it, on both papers and in both languages: text of at least 6 pt, lines of
    at least 0.25 pt, every tag clear of the sheet's texts, of the other tags and of the
    printer margin."""
    from sheetkit.checking import records

    try:
        loaded = _planted(layout)
    except Exception:  # noqa: BLE001 - a layout a random game cannot be played on: its own lint says why
        return []
    if loaded is None:
        return []
    checked = records.check(loaded)
    if not checked.verdict.findings:
        return []
    out: list[Finding] = []
    for paper, lang in itertools.product(PAPERS, ("es", "en")):
        where = msg("lint.where.checked", where=f"{paper}, {lang}")
        scene = loaded.kind.overlay(loaded.record, checked, paper, lang=lang)
        out += legible(scene, where)
        bad = _tag_faults(scene.pages[0], scene.forms)
        if bad:
            out.append(Finding("print", where, msg("lint.tags", n=bad)))
    return out
