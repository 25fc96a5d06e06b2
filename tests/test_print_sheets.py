"""What the printed pages tell a player: the scale check and "print at actual size" line on
every real-size page, the Yuncos rules strip, the descending cue of nest row 2, star
shapes instead of initials. Read back from the PDFs."""

from __future__ import annotations

import pytest

from sheetkit import layouts
from sheetkit.games.yuncos.compose import sheet_geometry
from sheetkit.paper import printing, scene as S
from tests.pdfutil import text

ACTUAL = {"es": "Imprime a tamaño real (100 %)", "en": "Print at actual size (100 %)"}


def _pdf(tmp_path, ref, paper, lang, scale="real"):
    layout, scene = printing.compose(ref, paper, lang, scale)
    out = tmp_path / f"{ref}-{paper}-{lang}-{scale}.pdf"
    printing.write_pdf(scene, out)
    return scene, out


def _flat(t: str) -> str:
    return " ".join(t.replace("\r", " ").replace("\n", " ").split())


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("ref", ["yuncos-easy", "yuncos-hard"])
def test_yuncos_sheet_carries_the_rules_strip_and_the_scale_check(tmp_path, ref, paper, lang):
    scene, out = _pdf(tmp_path, ref, paper, lang)
    words = _flat(text(out))
    assert ACTUAL[lang] in words
    assert "5 × 4 = 20" in words
    must = {"es": ["Nidos: 2 por casilla", "6 por columna completa", "última casilla marcada",
                   "al pasar por una luz", "propio vuelo", "no cabe en ningún sitio", "los dos puzles",
                   "4 estrellas", "a partir del turno siguiente", "táchalas al usarlas"],
            "en": ["Nests: 2 per filled box", "6 per completed column", "last marked box", "touching a light",
                   "your own flight", "fits nowhere", "both puzzles", "4 stars", "from the next turn on"]}[lang]
    for m in must:
        assert m in words, m
    g = sheet_geometry(layouts.load(ref).spec, paper)
    b = S.bounds(scene.pages[0].items)
    assert b[3] <= S.paper_size(paper)[1] - S.SAFE_MARGIN + 1e-6
    strip = [it for it in scene.pages[0].items if isinstance(it, S.Text) and it.y > g.strip_y]
    assert strip and all(it.size >= 6 for it in strip)


def test_every_pair_of_nest_row_2_boxes_has_a_visible_descending_cue():
    spec = layouts.load("yuncos-easy").spec
    g = sheet_geometry(spec, "a4")
    from sheetkit.games.yuncos.compose import sheet_items

    items = sheet_items(spec, g, "en")
    cues = [it for it in items if isinstance(it, S.Text) and it.text == ">"]
    assert len(cues) == spec.nests.length - 1
    for i, cue in enumerate(cues):
        x, y, w, h = g.nest_box(1, i)
        nx = g.nest_box(1, i + 1)[0]
        assert x + w < cue.x < nx + 0.2 and cue.size >= 8 and cue.bold
        # a white disc under it, drawn after the boxes: nothing covers the mark
        disc = items[items.index(cue) - 1]
        assert isinstance(disc, S.Circle) and disc.style.fill == "#ffffff"
        assert all(items.index(r) < items.index(disc) for r in items
                   if isinstance(r, S.Rect) and (r.x, r.y) in {(x, y), (nx, y)})


@pytest.mark.parametrize("ref", ["yuncos-easy", "yuncos-hard"])
def test_stars_carry_shapes_the_same_in_both_languages(ref):
    spec = layouts.load(ref).spec
    shapes = [c.shape for c in spec.colours.values()]
    assert None not in shapes and len(set(shapes)) == len(shapes)
    from sheetkit.games.yuncos.compose import sheet_items

    for lang in ("es", "en"):
        items = sheet_items(spec, sheet_geometry(spec, "a4"), lang)
        letters = {c.letter for c in spec.colours.values()}
        # no star letter printed anywhere (a capital alone in a text item)
        assert not [it for it in items if isinstance(it, S.Text) and it.text in letters and it.bold
                    and it.text not in "X"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("ref", ["glux-board-2p", "glux-board-34p"])
def test_a_fitted_board_says_its_square_size_and_nothing_runs_out_of_a_start_circle(tmp_path, ref, paper, lang):
    from sheetkit.paper.measure import text_width

    scene, out = _pdf(tmp_path, ref, paper, lang, "fit")
    words = _flat(text(out))
    assert {"es": "las fichas reales no caben", "en": "the real chips will not fit"}[lang] in words
    assert {"es": "mm; las fichas", "en": "mm squares"}[lang] in words
    items = scene.pages[0].items
    circles = [it for it in items if isinstance(it, S.Circle) and it.style.width == 0.2 and it.style.dash]
    assert circles
    for c in circles:  # every text in a start circle fits the circle's chord at its height
        inside = [t for t in items if isinstance(t, S.Text) and abs(t.x - c.x) < 0.01 and abs(t.y - c.y) < c.r]
        assert inside
        for t in inside:
            w = text_width(t.text, t.size, t.bold)
            pt = t.size * 25.4 / 72
            for yy in (t.y - 0.72 * pt, t.y):  # the top of the capitals and the baseline
                half = (max(0.0, c.r ** 2 - (yy - c.y) ** 2)) ** 0.5
                assert w / 2 <= half + 0.3, (t.text, c)


@pytest.mark.parametrize("lang, sign", [("es", "N.º 0007"), ("en", "No. 0007")])
def test_a_pad_serial_is_written_in_the_sheet_language(tmp_path, lang, sign):
    from sheetkit.paper import pads

    layout, scene = printing.compose("yuncos-easy", "a4", lang)
    out = tmp_path / "pad.pdf"
    printing.write_pdf(pads.pad(scene, layout, 1, 7), out)
    assert sign in text(out)
