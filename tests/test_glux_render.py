"""Glüx printables, read back from the real PDFs: page sizes, tile count, overlap strips
that carry the same image, chip fronts and backs that line up, the printer margin."""

from __future__ import annotations

import pytest
from PIL import ImageChops, ImageOps, ImageStat

from sheetkit import layouts
from sheetkit.paper import printing
from sheetkit.paper import tiling
from sheetkit.paper.scene import PAPERS, SAFE_MARGIN

from conftest import read_data

from pdfutil import ink_box_mm, page_sizes_mm, raster

DPI = 60


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory):
    out = tmp_path_factory.mktemp("glux")
    made = {}
    for lid in ("glux-board-2p", "glux-board-34p", "glux-chips", "glux-score-track", "glux-score-pad"):
        for paper in ("a4", "letter"):
            layout, scene = printing.compose(lid, paper, "en")
            made[lid, paper] = (printing.write_pdf(scene, out / f"{lid}-{paper}.pdf"), layout, scene)
    for paper in ("a4", "letter"):
        layout, scene = printing.compose("glux-board-34p", paper, "es", "fit")
        made["fit", paper] = (printing.write_pdf(scene, out / f"fit-{paper}.pdf"), layout, scene)
    return made


def crop_mm(img, x0, y0, x1, y1):
    k = DPI / 25.4
    return img.crop((round(x0 * k), round(y0 * k), round(x1 * k), round(y1 * k)))


@pytest.mark.parametrize("lid", ["glux-board-2p", "glux-board-34p"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_board_tiles_count_and_page_size(pdfs, lid, paper):
    from sheetkit.games.glux.compose import ART, FORM, board_plan

    path, layout, scene = pdfs[lid, paper]
    g = layout.spec
    plan = board_plan(g, paper, "en")
    sizes = page_sizes_mm(path)
    assert len(sizes) == len(plan.tiles) + 1  # the assembly page, then the tiles
    pw, ph = PAPERS[paper]
    for w, h in sizes:
        assert {round(w, 1), round(h, 1)} == {round(pw, 1), round(ph, 1)}
    assert sizes[0][0] > sizes[0][1]  # the assembly page turned to suit the wide board
    for w, h in sizes[1:]:
        assert (round(w, 1), round(h, 1)) == (round(plan.page_w, 1), round(plan.page_h, 1))
    # real size: the tiles together cover the board, squares of 25 mm
    assert plan.tiles[-1].x + plan.tiles[-1].w == pytest.approx(g.width * 25.0)
    assert plan.tiles[-1].y + plan.tiles[-1].h == pytest.approx(g.height * 25.0)
    assert len(plan.tiles) == {"glux-board-2p": 2, "glux-board-34p": 4}[lid]
    # the board is one form placed (never redrawn) by every tile, its strips a second one
    assert set(scene.forms) == {FORM, ART}
    assert scene.pages[0].stamp is not None and all(p.stamp is None for p in scene.pages[1:])


def strip_diff(a, b) -> float:
    """Mean difference of two greyscale crops after a 2 mm blur (anti-aliasing aside)."""
    size = (max(1, a.width // 4), max(1, a.height // 4))
    a, b = a.resize(size), b.resize(size)
    return ImageStat.Stat(ImageChops.difference(a, b)).mean[0]


def dark(img, level=120):
    """Only the drawing's dark ink: the glue area's light grey hatching drops out."""
    return img.point(lambda v: 0 if v < level else 255)


def white_out(img, t, ox, oy, boxes):
    """Paint white the `boxes` (form coordinates) on tile `t`'s page image."""
    from PIL import ImageDraw

    k = DPI / 25.4
    d = ImageDraw.Draw(img)
    for x0, y0, x1, y1 in boxes:
        d.rectangle([(x0 - t.x + ox) * k - 2, (y0 - t.y + oy) * k - 2, (x1 - t.x + ox) * k + 2,
                     (y1 - t.y + oy) * k + 2], fill=255)
    return img


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_neighbouring_tiles_share_their_overlap_strip(pdfs, paper):
    """The strip of the sheet underneath shows the same board as the sheet on top over it
    (its labels left out: those are only on the sheet on top, never clipped in a strip)."""
    from sheetkit.games.glux.compose import board_plan, label_boxes
    from sheetkit.paper.scene import Rect

    path, layout, scene = pdfs["glux-board-34p", paper]
    g = layout.spec
    plan = board_plan(g, paper, "en")
    ox, oy = tiling.tile_origin(plan)
    ov = plan.overlap
    assert plan.rows == 2 and plan.cols == 2
    t = plan.tile(0, 0)
    # what differs by design: the labels, and the glue words' white boxes on the strip
    hidden = list(label_boxes(g, "en"))
    for it in scene.pages[1].items:
        if isinstance(it, Rect) and it.style.fill == "#ffffff" and it.style.stroke is None:
            hidden.append((it.x - ox + t.x, it.y - oy + t.y, it.x + it.w - ox + t.x, it.y + it.h - oy + t.y))
    img = {u.label: white_out(raster(path, 1 + i, DPI), u, ox, oy, hidden) for i, u in enumerate(plan.tiles)}
    # right strip of 1 (underneath: the glue area) against the left strip of 2 (on top);
    # bottom strip of 1 against the top of 3
    right = crop_mm(img["1"], ox + t.w - ov + 0.5, oy + 1, ox + t.w - 0.5, oy + t.h - ov - 1)
    left = crop_mm(img["2"], ox + 0.5, oy + 1, ox + ov - 0.5, oy + t.h - ov - 1)
    bottom = crop_mm(img["1"], ox + 1, oy + t.h - ov + 0.5, ox + t.w - ov - 1, oy + t.h - 0.5)
    top = crop_mm(img["3"], ox + 1, oy + 0.5, ox + t.w - ov - 1, oy + ov - 0.5)
    assert ImageStat.Stat(right).mean[0] < 250  # the strip carries a drawing
    # the glue area is shaded on the sheet underneath, not on the sheet on top
    assert ImageStat.Stat(right).mean[0] < ImageStat.Stat(left).mean[0] - 5
    d = strip_diff(dark(right), dark(left))
    assert d < 8
    assert strip_diff(dark(bottom), dark(top)) < 8
    # and a strip of the same tile 5 mm further in does not match: the test can fail
    shifted = crop_mm(img["2"], ox + 5.5, oy + 1, ox + ov + 4.5, oy + t.h - ov - 1)
    assert strip_diff(dark(right), dark(shifted)) > 1.5 * d + 1


@pytest.mark.parametrize("lid", ["glux-board-2p", "glux-board-34p"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_registration_marks_are_inside_the_strips(lid, paper):
    """Every mark lies whole on the sheet on top, just past its cut line, and whole inside
    the strip of the sheet underneath, so the two copies coincide once glued; each seam
    has two of them."""
    from sheetkit.games.glux.compose import board_plan

    g = layouts.load(lid).spec
    plan = board_plan(g, paper, "en")
    seams = 0
    for t in plan.tiles:
        for x, y in tiling.registration_marks(plan, t):
            x0, y0, x1, y1 = tiling.mark_box(x, y)
            on_cut_side = [u for u in plan.tiles if (u.col > 0 and u.x < x0 < x1 < u.x + tiling.OVERLAP)
                           or (u.row > 0 and u.y < y0 < y1 < u.y + tiling.OVERLAP)]
            assert on_cut_side and t in on_cut_side + [v for v in plan.tiles if v.x < x0 and x1 < v.x + v.w
                                                      and v.y < y0 and y1 < v.y + v.h], (t.label, x, y)
        for u in plan.tiles:
            if (u.row, u.col) in ((t.row, t.col + 1), (t.row + 1, t.col)):
                seams += 1
                shared = set(tiling.registration_marks(plan, t)) & set(tiling.registration_marks(plan, u))
                assert len(shared) == 2
    assert seams == (plan.rows * (plan.cols - 1) + plan.cols * (plan.rows - 1)) > 0


@pytest.mark.parametrize("key", ["glux-board-2p", "glux-board-34p", "glux-chips", "glux-score-track",
                                 "glux-score-pad", "fit"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_nothing_within_10_mm_of_the_edge(pdfs, key, paper):
    path, _, _ = pdfs[key, paper]
    for i, (w, h) in enumerate(page_sizes_mm(path)):
        box = ink_box_mm(raster(path, i, DPI), DPI)
        assert box is not None
        x0, y0, x1, y1 = box
        slack = 0.6  # a pixel of anti-aliasing
        assert x0 >= SAFE_MARGIN - slack and y0 >= SAFE_MARGIN - slack
        assert x1 <= w - SAFE_MARGIN + slack and y1 <= h - SAFE_MARGIN + slack


@pytest.mark.parametrize("key", ["glux-board-2p", "glux-chips", "glux-score-pad", "fit"])
def test_stamp_square_is_free(pdfs, key):
    path, _, scene = pdfs[key, "a4"]
    x, y, s = scene.pages[0].stamp
    assert s >= 20
    img = raster(path, 0, DPI)
    assert ImageStat.Stat(crop_mm(img, x, y, x + s, y + s)).extrema[0][0] > 200  # blank


def vertical_lines_mm(img, y0, y1, dark=128, share=0.9):
    """x (mm) of the columns dark over `share` of the band y0..y1: the long cut lines."""
    k = DPI / 25.4
    band = img.crop((0, round(y0 * k), img.width, round(y1 * k)))
    px = band.load()
    xs = []
    for x in range(band.width):
        n = sum(1 for y in range(band.height) if px[x, y] < dark)
        if n >= share * band.height:
            xs.append(x / k)
    # merge neighbouring pixel columns into one line
    lines = []
    for x in xs:
        if lines and x - lines[-1][-1] < 1.0:
            lines[-1].append(x)
        else:
            lines.append([x])
    return [sum(l) / len(l) for l in lines]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_chip_backs_line_up_with_fronts_long_edge_flip(pdfs, paper):
    path, layout, scene = pdfs["glux-chips", paper]
    assert len(page_sizes_mm(path)) == 4  # two sheets, each a front and its back
    W, _ = PAPERS[paper]
    spec = layout.spec
    left, top, tw, _ = scene.pages[0].trim
    y0, y1 = top + 0.3, top + 1.6  # the first row of chips, above the frames inside them
    for sheet in (0, 2):
        front = raster(path, sheet, DPI)
        back = raster(path, sheet + 1, DPI)
        fx = [x for x in vertical_lines_mm(front, y0, y1) if left - 1 < x < left + tw + 1]  # not the scale square
        bx = [x for x in vertical_lines_mm(back, y0, y1) if W - left - tw - 1 < x < W - left + 1]
        assert len(fx) == 2 * 6 == len(bx)  # each chip its own cut lines, a gutter between
        mirrored = sorted(W - x for x in bx)
        assert all(abs(a - b) < 0.6 for a, b in zip(fx, mirrored)), (fx, mirrored)
        # the flipped back page, seen through the sheet, covers the front chip for chip
        flipped = ImageOps.mirror(back)
        k = DPI / 25.4
        box = (round(fx[0] * k) + 2, round(top * k), round(fx[-1] * k) - 2, round((top + 8 * spec.chip) * k))
        tint_front = front.crop(box).point(lambda v: 255 if v < 250 else 0)
        tint_back = flipped.crop(box).point(lambda v: 255 if v < 250 else 0)
        assert ImageStat.Stat(ImageChops.difference(tint_front, tint_back)).mean[0] < 40


def test_chip_faces_follow_g1():
    from sheetkit.games.glux.compose import chip_faces

    spec = layouts.load("glux-chips").spec
    faces = chip_faces(spec)
    assert len(faces) == 96
    for colour in spec.colours:
        mine = [(lo, hi) for _, _, c, lo, hi in faces if c is colour]
        assert sorted(mine) == sorted([(1, 6)] * 8 + [(2, 5)] * 8 + [(3, 4)] * 8)


def test_fit_is_one_page(pdfs):
    path, _, scene = pdfs["fit", "letter"]
    assert len(page_sizes_mm(path)) == 1 and scene.forms == {}


def test_score_pad_boxes_take_digits():
    from sheetkit.paper.scene import Rect, Text

    for paper in ("a4", "letter"):
        _, scene = printing.compose("glux-score-pad", paper, "es")
        items = [it for form in scene.forms.values() for it in form.items]  # drawn once, through tables.py
        rects = [it for it in items if isinstance(it, Rect) and it.style.stroke]
        assert min(min(r.w, r.h) for r in rects) >= 7
        assert min(r.style.width for r in rects) * 72 / 25.4 >= 0.25
        assert min(t.size for t in items if isinstance(t, Text)) >= 6
        # every room row of the pad, the middle room last, each with a box per player and part
        texts = [t.text for t in items if isinstance(t, Text)]
        for label in ["A", "J", "Centro", "Total PV", "Desempate: pips en el centro", "Ganador"]:
            assert label in texts, label
        assert texts.count("Puesto") == 4


@pytest.mark.parametrize("lid", ["glux-board-2p", "glux-board-34p"])
@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_assembly_page_names_every_room_readably(lid, lang, paper):
    """The reduced board on page 1 labels every room, the middle room too, at 6 pt or
    more, and carries no label box left empty (a square name's white backing without
    its text, or a room label box whose text was too small to keep)."""
    from sheetkit.paper.scene import Rect, Text

    layout, scene = printing.compose(lid, paper, lang)
    spec = layout.spec
    texts = [it for it in scene.pages[0].items if isinstance(it, Text)]
    shown = {t.text for t in texts}
    for room in spec.rooms.values():
        assert room.label(lang) in shown, room.label(lang)
    assert min(t.size for t in texts) >= 6
    # white boxes (square names, room labels) each hold a text
    boxes = [it for it in scene.pages[0].items if isinstance(it, Rect) and it.style.fill == "#ffffff"
             and it.w < 30 and it.h < 10]
    for b in boxes:
        assert any(b.x <= t.x <= b.x + b.w and b.y <= t.y <= b.y + b.h + 1 for t in texts), b


def test_overlay_circles_only_findings_on_the_board():
    """A placement off the board (M12 on a 9-row side) is listed, not marked somewhere
    below the board over the list of findings or in the page margin."""
    import tomllib

    from sheetkit.paper.annotate import OUTLINE
    from sheetkit.games.glux import check as checks
    from sheetkit.games.glux.compose import GRID_LINE
    from sheetkit.games.glux.overlay import overlay
    from sheetkit.paper.scene import Line, Rect

    text = """game = "glux"
kind = "game"
board = "glux-board-2p"
players = [
  { name = "Ana", letter = "A", start = "A1", start_chip = 4 },
  { name = "Ben", letter = "B", start = "M9", start_chip = 3 },
]
moves = '''
A A1-E1 2
B M9-M12 5
A E1-E9 2
'''
"""
    rec = read_data(tomllib.loads(text), "off.toml")
    checked = checks.check(rec, "off.toml")
    v = checked.verdict
    assert {f.at.get("square") for f in v.findings} >= {"M12", "E9"}
    scene = overlay(rec, checked, "a4")
    page = scene.pages[0]
    grid = [it for it in page.items if isinstance(it, Line) and it.style == GRID_LINE]
    x0, y0 = min(ln.x1 for ln in grid), min(ln.y1 for ln in grid)  # the board's inner grid lines
    x1, y1 = max(ln.x2 for ln in grid), max(ln.y2 for ln in grid)
    sq = sorted({ln.x1 for ln in grid if ln.x1 == ln.x2})[0] - x0
    marks = [it for it in page.items if isinstance(it, Rect) and it.style == OUTLINE]
    assert len(marks) == 2  # E9 (G4: E1 shows 2, not 8) and Ben's line of the legend (G10)
    legend = [m for m in marks if m.y > y1]
    assert len(legend) == 1 and legend[0].w > 3 * legend[0].h
    for m in set(marks) - set(legend):  # on the board, at E9: column E of the last row
        assert x0 <= m.x and m.x + m.w <= x1 and y0 <= m.y and m.y + m.h <= y1
        assert x0 + 4 * sq < m.x < x0 + 5 * sq and y1 - sq < m.y < y1


def test_spanish_pad_and_track_say_pips_as_the_rulebook_does():
    """The Spanish rulebook counts "pips" and scores "PV" (puntos de victoria): a pad whose
    pip column reads "Puntos" beside a "PV" column invites writing VP in it."""
    from sheetkit.paper.scene import Text

    def texts(scene):
        items = scene.pages[0].items + [it for form in scene.forms.values() for it in form.items]
        return [t.text for t in items if isinstance(t, Text)]

    for lid in ("glux-score-pad", "glux-score-track"):
        _, scene = printing.compose(lid, "a4", "es")
        words = " ".join(texts(scene))
        assert "puntos" not in words.lower().replace("puntos de victoria", ""), words
    _, pad = printing.compose("glux-score-pad", "a4", "es")
    assert "Pips" in texts(pad)
