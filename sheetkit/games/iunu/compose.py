"""The IUNU score pad on paper: one game per page, one column per player."""

from __future__ import annotations

from sheetkit.paper import scene as S
from sheetkit.paper import tables as T
from sheetkit.paper.pads import STAMP
from sheetkit.games.iunu.layout import ScorePad
from sheetkit.paper.measure import fit_size

INNER = 12.0  # mm from the paper edge to the drawing (the printer margin is 10 mm)


def rows(spec: ScorePad, lang: str) -> list[T.Row]:
    L = spec.labels
    out = [
        T.Row("name", L.player(lang)),
        T.Row("value", L.citizens(lang), note=L.citizens_note(lang)),
        T.Row("section", L.majorities(lang)),
    ]
    for c in spec.castes:
        name = c.name(lang)
        if name:
            out.append(T.Row("formula", name, left_box=True))
        else:
            out.append(T.Row("formula", L.write_caste(lang), left_box=True, write_in=True))
    out += [
        T.Row("value", L.bread(lang), note=L.bread_note(lang)),
        T.Row("value", L.deben(lang)),
        T.Row("value", L.deben_third(lang)),
        T.Row("value", L.total(lang), bold=True),
        T.Row("mark", L.winner(lang), note=L.winner_note(lang)),
    ]
    return out


def geometry(spec: ScorePad, paper: str) -> T.Geometry:
    W, _ = S.paper_size(paper)
    label_w = 44.0
    return T.Geometry(x=INNER, y=INNER + STAMP + 5, label_w=label_w,
                      col_w=(W - 2 * INNER - label_w) / spec.players, players=spec.players,
                      row_h=spec.row, box=spec.box)


def pad_items(spec: ScorePad, paper: str, lang: str, cells: dict | None = None) -> tuple[list[S.Item], float]:
    """The pad's drawing, and the bottom of what is drawn."""
    W, H = S.paper_size(paper)
    items: list[S.Item] = []
    title = spec.title(lang)
    usable = W - 2 * INNER
    tsize = fit_size(title, usable - STAMP - 4, 15.0, True)
    items.append(S.Text(INNER, INNER + 6, title, size=tsize, bold=True))
    date = spec.labels.date(lang)
    items.append(S.Text(INNER, INNER + 16, date, size=8.0))
    items.append(S.Line(INNER + 14, INNER + 16.5, INNER + 70, INNER + 16.5, style=T.RULE))

    g = geometry(spec, paper)
    bottom = T.draw(g, rows(spec, lang), items, player_word="", cells=cells)
    foot = spec.labels.footer(lang)
    items.append(S.Text(INNER, bottom + 5, foot, size=fit_size(foot, usable, 7.0)))
    deck_note = spec.labels.deck_box(lang)
    items.append(S.Text(INNER, bottom + 9, deck_note, size=fit_size(deck_note, usable, 7.0)))
    return items, bottom + 9


def row_keys(spec: ScorePad) -> list[str | None]:
    """What each row of `rows` holds, the same in every language: a photo reader reads the
    boxes by these keys (pads.table_fields)."""
    return (["name", "citizens", None] + [f"caste.{c.key}" for c in spec.castes]
            + ["bread", "deben", "deben3", "total", "winner"])


def compose(layout, paper: str, lang: str, scale: str = "real") -> S.Scene:
    from sheetkit.paper import pads

    spec: ScorePad = layout.spec
    W, H = S.paper_size(paper)
    cells: dict = {}
    items, bottom = pad_items(spec, paper, lang, cells)
    other = [pad_items(spec, paper, lg)[0] for lg in ("es", "en") if lg != lang]
    stamp = (W - INNER - STAMP, INNER, STAMP)
    g = geometry(spec, paper)
    # at the corners of the table: above it, and under the notes below it
    targets = [(g.x, g.y - 4), (g.x + g.width, g.y - 4), (g.x, bottom + 5), (g.x + g.width, bottom + 5)]
    squares = pads.add_marks(items, other, W, H, stamp, targets)
    name = f"iunu-pad-{paper}-{lang}"
    scene = S.Scene(title=spec.title(lang))
    scene.forms[name] = S.Form(W, H, items)
    fields = pads.table_fields(0, rows(spec, lang), row_keys(spec), cells)
    scene.pages.append(S.Page(W, H, [S.Use(name)], stamp=stamp, marks=squares, fields=tuple(fields)))
    return scene
