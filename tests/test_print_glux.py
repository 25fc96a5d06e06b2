"""Glüx printed like a publisher's: the tiled boards' seams on grid lines with every label
and registration mark whole on one piece, plain words under each sheet; the chips apart
by gutters, their colour running the bleed past the cut on all four sides, cut lines only
without bleed, crop marks only with it and never over colour, backs behind their fronts.
Measured on the real PDFs (pypdfium2's page objects), in both languages, on both papers."""

from __future__ import annotations

import ctypes

import pypdfium2 as pdfium
import pypdfium2.raw as R
import pytest

from sheetkit import layouts
from sheetkit.games.glux import compose as C
from sheetkit.paper import marks, printing, tiling
from sheetkit.paper.scene import PAPERS, SAFE_MARGIN, Text, Use, bounds

PT = 72 / 25.4
BOARDS = ["glux-board-2p", "glux-board-34p"]


# ---- reading the PDF's page objects --------------------------------------------------

def _objects(path, page):
    """(kind, x0, y0, x1, y1 in mm from the top-left, filled, stroked) of every path."""
    doc = pdfium.PdfDocument(str(path))
    pg = doc[page]
    H = pg.get_height()
    out = []
    for o in pg.get_objects(max_depth=4):
        if o.type != R.FPDF_PAGEOBJ_PATH:
            continue
        l, b, r, t = o.get_bounds()
        mode, stroke = ctypes.c_int(), ctypes.c_int()
        R.FPDFPath_GetDrawMode(o.raw, ctypes.byref(mode), ctypes.byref(stroke))
        out.append((l / PT, (H - t) / PT, r / PT, (H - b) / PT, bool(mode.value), bool(stroke.value)))
    return out


def _squares(objs, side, filled=True, tol=0.05):
    return sorted({(round(x0, 2), round(y0, 2)) for x0, y0, x1, y1, f, s in objs
                   if f == filled and abs(x1 - x0 - side) < tol and abs(y1 - y0 - side) < tol})


def _thin_lines(objs, length, tol=0.6):
    """Stroked lines about `length` mm long (their bounds include the stroke)."""
    out = []
    for x0, y0, x1, y1, f, s in objs:
        w, h = x1 - x0, y1 - y0
        if s and not f and ((abs(w - length) < tol and h < 0.5) or (abs(h - length) < tol and w < 0.5)):
            out.append((x0, y0, x1, y1))
    return out


# ---- the boards ------------------------------------------------------------------------

@pytest.mark.parametrize("lid", BOARDS)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_seam_on_a_grid_line_and_off_every_label(lid, paper):
    spec = layouts.load(lid).spec
    for lang in ("en", "es"):
        p = C.board_plan(spec, paper, lang)
        xs, ys = p.cuts()
        assert xs or ys  # the board is tiled at all
        for at in xs + ys:
            assert at % spec.square == pytest.approx(0) and 0 < at
        assert tiling.seam_problems(p, (spec.square, spec.square), p.keep) == []
        boxes = C.label_boxes(spec, lang)
        assert len(boxes) > spec.width * spec.height  # every square's name, and the rooms and starts
        for b in boxes:
            assert not any(b[0] < x < b[2] for x in xs) and not any(b[1] < y < b[3] for y in ys), b
        # the fewest sheets: no tile could be longer on its page (4 corners, 2 per 2p side)
        assert len(p.tiles) == {"glux-board-2p": 2, "glux-board-34p": 4}[lid]


@pytest.mark.parametrize("lid", BOARDS)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_registration_marks_whole_on_the_sheet_on_top_and_inside_the_strip(lid, paper):
    spec = layouts.load(lid).spec
    p = C.board_plan(spec, paper, "en")
    boxes = C.label_boxes(spec, "en")
    seams = 0
    for t in p.tiles:
        for x, y in tiling.registration_marks(p, t):
            mb = tiling.mark_box(x, y)
            on_top = [u for u in p.tiles if u.x < mb[0] and mb[2] < p.piece(u)[2] and u.y < mb[1]
                      and mb[3] < p.piece(u)[3]]
            assert len(on_top) == 1, (t.label, x, y)  # whole on one piece, off every cut
            # and whole inside the glue strip of the sheet underneath
            under = [u for u in p.tiles if u is not on_top[0] and u.x <= mb[0] and mb[2] <= u.x + u.w
                     and u.y <= mb[1] and mb[3] <= u.y + u.h]
            assert under, (t.label, x, y)
            assert not any(mb[0] < b[2] and b[0] < mb[2] and mb[1] < b[3] and b[1] < mb[3] for b in boxes)
        for u in p.tiles:
            if (u.row, u.col) in ((t.row, t.col + 1), (t.row + 1, t.col)):
                seams += 1
                assert len(set(tiling.registration_marks(p, t)) & set(tiling.registration_marks(p, u))) == 2
    assert seams == p.rows * (p.cols - 1) + p.cols * (p.rows - 1) > 0


@pytest.fixture(scope="module")
def board_pdfs(tmp_path_factory):
    out = tmp_path_factory.mktemp("boards")
    made = {}
    for lid in BOARDS:
        for paper, lang in (("a4", "en"), ("letter", "es")):
            layout, scene = printing.compose(lid, paper, lang)
            made[lid, paper, lang] = printing.write_pdf(scene, out / f"{lid}-{paper}-{lang}.pdf"), layout, scene
    return made


def _long_lines(img, dpi, vertical, lo, hi, dark=140, share=0.97):
    """Positions (mm) of the straight lines crossing the whole band lo..hi mm (across the
    other axis): the board's grid lines, walls and border, and a dashed cut line."""
    k = dpi / 25.4
    if not vertical:
        img = img.transpose(0).rotate(90, expand=True)  # rows become columns
    band = img.crop((0, round(lo * k), img.width, round(hi * k)))
    px = band.load()
    xs = [x for x in range(band.width) if sum(px[x, y] < dark for y in range(band.height)) >= share * band.height]
    lines: list[list[int]] = []
    for x in xs:
        if lines and x - lines[-1][-1] <= 2:
            lines[-1].append(x)
        else:
            lines.append([x])
    return [sum(l) / len(l) / k for l in lines]


@pytest.mark.parametrize("lid", BOARDS)
@pytest.mark.parametrize("paper, lang", [("a4", "en"), ("letter", "es")])
def test_the_printed_seams_fall_on_grid_lines(board_pdfs, lid, paper, lang):
    """Measured on the rendered pages: on every sheet the board's long lines (grid, walls,
    border) lie a whole number of 25 mm squares from the sheet's cut lines, and the piece
    ends on one, so every seam is a grid line of the printed board."""
    from pdfutil import raster

    path, layout, scene = board_pdfs[lid, paper, lang]
    p = C.board_plan(layout.spec, paper, lang)
    ox, oy = tiling.tile_origin(p)
    dpi = 150
    for i, t in enumerate(p.tiles):
        img = raster(path, 1 + i, dpi)
        x0, y0, x1, y1 = p.piece(t)
        w, h = x1 - x0, y1 - y0
        xs = _long_lines(img, dpi, True, oy + 1, oy + h - 1)
        ys = _long_lines(img, dpi, False, ox + 1, ox + w - 1)
        for found, start, size in ((xs, ox, w), (ys, oy, h)):
            inside = [v - start for v in found if start - 0.5 <= v <= start + size + 0.5]
            assert len(inside) >= 3, (t.label, inside)  # some are broken by labels or walls
            for v in inside:
                assert min(v % 25, 25 - v % 25) < 0.7, (t.label, v)  # the clipped border: half its width


@pytest.mark.parametrize("lid", BOARDS)
@pytest.mark.parametrize("paper, lang", [("a4", "en"), ("letter", "es")])
def test_no_label_printed_across_a_seam_or_in_a_strip(board_pdfs, lid, paper, lang):
    """On every tile page the labelled drawing is clipped to the sheet's own piece (from its
    cut lines to its neighbours'), the strips show the board without labels, and every
    word of the page (the "glue" words too) lies wholly inside one region."""
    path, layout, scene = board_pdfs[lid, paper, lang]
    p = C.board_plan(layout.spec, paper, lang)
    assert set(scene.forms) == {C.FORM, C.ART}
    assert not any(isinstance(it, Text) for it in scene.forms[C.ART].items)
    ox, oy = tiling.tile_origin(p)
    for t, page in zip(p.tiles, scene.pages[1:]):
        uses = [it for it in page.items if isinstance(it, Use)]
        full = [u for u in uses if u.name == C.FORM]
        assert len(full) == 1
        x0, y0, x1, y1 = p.piece(t)
        assert full[0].clip == pytest.approx((ox, oy, x1 - x0, y1 - y0))
        strips = [u.clip for u in uses if u.name == C.ART]
        assert len(strips) == (t.col < p.cols - 1) + (t.row < p.rows - 1)
        words = {marks.words(lang, "glue"), marks.words(lang, "glue_short")}
        glue = [it for it in page.items if isinstance(it, Text) and it.text in words]
        assert bool(glue) == bool(strips)
        for g in glue:
            b = bounds([g])
            assert any(c[0] <= b[0] and b[2] <= c[0] + c[2] and c[1] - 0.2 <= b[1] and b[3] <= c[1] + c[3] + 0.2
                       for c in strips), (g.text, b)
    # the PDF really holds both forms: the labelled one and the strips' one
    assert pdfium.PdfDocument(str(path))[1].get_textpage().count_chars() > 0


@pytest.mark.parametrize("lid", BOARDS)
@pytest.mark.parametrize("paper, lang", [("a4", "en"), ("letter", "es")])
def test_sheets_say_in_plain_words_where_they_go(board_pdfs, lid, paper, lang):
    from pdfutil import text

    path, layout, scene = board_pdfs[lid, paper, lang]
    n = len(scene.pages) - 1
    words = {"en": ("Sheet 2 of {n}: glue to sheet 1 along the shaded strip", "Sheet 1 of {n}: lay it down first"),
             "es": ("Hoja 2 de {n}: pégala a la hoja 1 por la franja sombreada", "Hoja 1 de {n}: ponla primero")}[lang]
    assert words[1].format(n=n) in text(path, 1)
    assert words[0].format(n=n) in text(path, 2)
    first = text(path, 0)
    assert "sheets · 1/" not in first and {"en": f"how the board's {n} sheets", "es": f"las {n} hojas"}[lang] in first
    if n == 2:
        assert {"en": "Sheet 1 of 2: lay it down first; sheet 2 is glued onto its shaded strip",
                "es": "Hoja 1 de 2: ponla primero; la hoja 2 se pega sobre su franja sombreada"}[lang] in text(path, 1)
    if n == 4:
        last = {"en": "Sheet 4 of 4: glue to sheets 2 and 3 along the shaded strips",
                "es": "Hoja 4 de 4: pégala a las hojas 2 y 3 por las franjas sombreadas"}[lang]
        assert last in text(path, 4)


@pytest.mark.parametrize("lid", BOARDS)
@pytest.mark.parametrize("paper, lang", [("a4", "en"), ("letter", "es")])
def test_the_assembly_page_turns_to_suit_the_board(board_pdfs, lid, paper, lang):
    from pdfutil import ink_box_mm, page_sizes_mm, raster

    path, layout, scene = board_pdfs[lid, paper, lang]
    w, h = page_sizes_mm(path)[0]
    assert w > h  # both sides are wider than tall
    x0, y0, x1, y1 = ink_box_mm(raster(path, 0, 50), 50)
    # the reduced board and its words fill the page's safe area in both directions
    assert (x1 - x0) > 0.9 * (w - 2 * SAFE_MARGIN) or (y1 - y0) > 0.9 * (h - 2 * SAFE_MARGIN)


# ---- the chips -------------------------------------------------------------------------

def _chips(tmp_path, paper, bleed, lang="en"):
    layout, scene = printing.compose("glux-chips", paper, lang, bleed=bleed)
    out = tmp_path / f"chips-{paper}-{lang}-{bleed}.pdf"
    printing.write_pdf(scene, out)
    return layout.spec, scene, out


@pytest.mark.parametrize("paper, lang", [("a4", "en"), ("letter", "es")])
@pytest.mark.parametrize("bleed", [0.0, 2.0, 3.0])
def test_chips_apart_with_the_bleed_on_all_four_sides(tmp_path, paper, lang, bleed):
    spec, scene, out = _chips(tmp_path, paper, bleed, lang)
    s = spec.chip
    total = 0
    for i in range(0, len(scene.pages), 2):  # the fronts
        objs = _objects(out, i)
        chips = _squares(objs, s)
        total += len(chips)
        xs = sorted({x for x, _ in chips})
        ys = sorted({y for _, y in chips})
        gaps = [b - a - s for a, b in zip(xs, xs[1:])] + [b - a - s for a, b in zip(ys, ys[1:])]
        assert gaps and all(abs(g - (C.GUTTER + 2 * bleed)) < 0.03 for g in gaps)  # the same gutter everywhere
        if bleed:
            tints = _squares(objs, s + 2 * bleed)
            # one colour square per chip, reaching exactly `bleed` past each of its four cut lines
            assert sorted((round(x + bleed, 2), round(y + bleed, 2)) for x, y in tints) == chips
            # neighbours' colours stay apart: the white gutter between them
            for (ax, ay), (bx, by) in zip(tints, tints[1:]):
                assert abs(ax - bx) >= s + 2 * bleed + C.GUTTER - 0.01 or abs(ay - by) >= s + 2 * bleed + C.GUTTER - 0.01
    assert total == 96


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [0.0, 2.0, 3.0])
def test_cut_lines_without_bleed_crop_marks_only_with_it(tmp_path, paper, bleed):
    spec, scene, out = _chips(tmp_path, paper, bleed)
    s = spec.chip
    for i in range(len(scene.pages)):
        objs = _objects(out, i)
        chips = _squares(objs, s)
        cuts = [o for o in objs if o[5] and not o[4] and abs(o[2] - o[0] - s) < 0.6 and abs(o[3] - o[1] - s) < 0.6]
        marks = _thin_lines(objs, C.CROP_LEN + 0.4, tol=0.3)  # bounds include the stroke
        if not bleed:
            assert len(cuts) == len(chips) and not marks
            continue
        assert not cuts
        colour = [(x - bleed, y - bleed, x + s + bleed, y + s + bleed) for x, y in chips]
        # every chip corner has its two marks, on the extension of its cut lines
        for x, y in chips:
            for cx in (x, x + s):
                for cy in (y, y + s):
                    assert any(abs((m[0] + m[2]) / 2 - cx) < 0.05 and min(abs(m[1] - cy), abs(m[3] - cy)) < bleed + 1.2
                               for m in marks), (cx, cy)
                    assert any(abs((m[1] + m[3]) / 2 - cy) < 0.05 and min(abs(m[0] - cx), abs(m[2] - cx)) < bleed + 1.2
                               for m in marks), (cx, cy)
        for m in marks:  # outside every chip, never over colour
            assert not any(m[0] < c[2] - 0.05 and c[0] + 0.05 < m[2] and m[1] < c[3] - 0.05 and c[1] + 0.05 < m[3]
                           for c in colour), m


@pytest.mark.parametrize("paper, lang", [("a4", "en"), ("letter", "es")])
@pytest.mark.parametrize("bleed", [0.0, 2.0])
def test_backs_line_up_with_their_fronts(tmp_path, paper, lang, bleed):
    """Measured on the PDF: each back chip, flipped on the long edge (x -> W - x), lands on
    its front chip within 0.1 mm, colour for colour."""
    spec, scene, out = _chips(tmp_path, paper, bleed, lang)
    W = PAPERS[paper][0]
    s = spec.chip
    assert [p.back for p in scene.pages] == [False, True] * (len(scene.pages) // 2)
    for i in range(0, len(scene.pages), 2):
        front = _squares(_objects(out, i), s)
        back = _squares(_objects(out, i + 1), s)
        flipped = sorted((round(W - x - s, 2), y) for x, y in back)
        assert len(front) == len(flipped) == 48
        for (fx, fy), (bx, by) in zip(front, flipped):
            assert abs(fx - bx) <= 0.1 and abs(fy - by) <= 0.1
    faces = {(r, c): (lo, hi) for r, c, _, lo, hi in C.chip_faces(spec)}
    assert all(lo + hi == 7 for lo, hi in faces.values())


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [0.0, 2.0, 3.0])
def test_chip_pages_keep_the_margin_and_the_boxes(tmp_path, paper, bleed):
    from pdfutil import ink_box_mm, page_sizes_mm, raster

    spec, scene, out = _chips(tmp_path, paper, bleed)
    doc = pdfium.PdfDocument(str(out))
    for i, (w, h) in enumerate(page_sizes_mm(out)):
        x0, y0, x1, y1 = ink_box_mm(raster(out, i, 60), 60)
        assert x0 >= SAFE_MARGIN - 0.6 and y0 >= SAFE_MARGIN - 0.6
        assert x1 <= w - SAFE_MARGIN + 0.6 and y1 <= h - SAFE_MARGIN + 0.6
        tx, ty, tw, th = scene.pages[i].trim
        bx, by, bw, bh = scene.pages[i].bleed
        assert (tx - bx, ty - by, bw - tw, bh - th) == pytest.approx((bleed, bleed, 2 * bleed, 2 * bleed))
    assert len(doc) == 4


# ---- the lint floor --------------------------------------------------------------------

def test_lint_floor_names_a_seam_inside_a_square_and_passes_the_shipped_boards(monkeypatch):
    from sheetkit.games.glux import lint as glint

    for lid in BOARDS:
        assert glint.seam_findings(layouts.load(lid).spec) == []
    spec = layouts.load("glux-board-34p").spec

    def equal_tiles(spec, paper, lang):  # the old plan: equal tiles, seams 6.5 mm into squares
        return tiling.plan(spec.width * spec.square, spec.height * spec.square, paper,
                           keep=C.label_boxes(spec, lang))

    monkeypatch.setattr(C, "board_plan", equal_tiles)
    found = glint.seam_findings(spec)
    assert found and {f.rule for f in found} == {"print"}
    for lang, words in (("en", "inside a square, not on a grid line"), ("es", "en mitad de una casilla")):
        assert any(words in f.message_in(lang) for f in found)
    assert any(f.text.id == "lint.glux.seam_label" for f in found)  # the old seams cut labels too
