"""Chips to cut out: TrimBox and BleedBox in the PDF, crop marks outside the cut area, the
colour running exactly `--bleed` mm past the outer cut lines. Measured on the PDF."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from sheetkit.paper import printing
from sheetkit.paper.scene import SAFE_MARGIN, paper_size

PT = 72 / 25.4


def _render(tmp_path, paper, bleed, lang="en"):
    layout, scene = printing.compose("glux-chips", paper, lang, bleed=bleed)
    out = tmp_path / f"chips-{paper}-{bleed}.pdf"
    printing.write_pdf(scene, out)
    return scene, out


def _box(page, name):
    x0, y0, x1, y1 = (float(v) / PT for v in page[name])
    return x0, y0, x1, y1


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [0.0, 2.0, 3.0])
def test_trim_and_bleed_boxes_frame_the_chips(tmp_path, paper, bleed):
    scene, out = _render(tmp_path, paper, bleed)
    reader = PdfReader(out)
    W, H = paper_size(paper)
    for page in reader.pages:
        tx0, ty0, tx1, ty1 = _box(page, "/TrimBox")
        bx0, by0, bx1, by1 = _box(page, "/BleedBox")
        assert (tx1 - tx0, ty1 - ty0) == (pytest.approx(160.0, abs=0.01), pytest.approx(240.0, abs=0.01))
        for a, b in ((tx0 - bx0, bleed), (bx1 - tx1, bleed), (ty0 - by0, bleed), (by1 - ty1, bleed)):
            assert a == pytest.approx(b, abs=0.01)
        assert SAFE_MARGIN <= bx0 and bx1 <= W - SAFE_MARGIN and SAFE_MARGIN <= by0 and by1 <= H - SAFE_MARGIN


@pytest.mark.parametrize("bleed", [0.0, 2.0])
def test_crop_marks_lie_outside_the_trim_beyond_the_bleed(tmp_path, bleed):
    """Every thin line object outside the trim box is a crop mark on the extension of a cut
    line; none reaches into the bleed, and every cut line has its marks on both ends."""
    scene, out = _render(tmp_path, "letter", bleed)
    pg = pdfium.PdfDocument(str(out))[0]
    trim = [float(v) for v in PdfReader(out).pages[0]["/TrimBox"]]
    tx0, ty0, tx1, ty1 = trim
    marks = []
    for o in pg.get_objects():
        if o.type != pdfium.raw.FPDF_PAGEOBJ_PATH:
            continue
        l, b, r, t = o.get_bounds()
        if r < tx0 or l > tx1 or t < ty0 or b > ty1:  # wholly outside the trim
            marks.append((l, b, r, t))
    vertical = [m for m in marks if (m[3] - m[1]) > 2 * PT and m[2] - m[0] < 0.5 * PT]
    horizontal = [m for m in marks if (m[2] - m[0]) > 2 * PT and m[3] - m[1] < 0.5 * PT]
    assert len(vertical) == 2 * 9 and len(horizontal) == 2 * 13  # 9 vertical cuts, 13 horizontal
    gap = (bleed + 1) * PT - 0.3 * PT  # strokes straddle the line
    for l, b, r, t in vertical:
        assert b >= ty1 + gap or t <= ty0 - gap
    for l, b, r, t in horizontal:
        assert l >= tx1 + gap or r <= tx0 - gap
    xs = sorted({round((l + r) / 2 / PT, 2) for l, b, r, t in vertical})
    assert xs[-1] - xs[0] == pytest.approx(160.0, abs=0.02) and len(xs) == 9


@pytest.mark.parametrize("bleed", [2.0, 3.0])
def test_the_colour_runs_exactly_the_bleed_past_the_outer_cut(tmp_path, bleed):
    scene, out = _render(tmp_path, "a4", bleed)
    dpi = 600
    img = pdfium.PdfDocument(str(out))[0].render(scale=dpi / 72).to_pil().convert("RGB")
    tx0, ty0, tx1, ty1 = (float(v) / PT for v in PdfReader(out).pages[0]["/TrimBox"])
    H = paper_size("a4")[1]
    k = dpi / 25.4
    y = H - (ty0 + ty1) / 2 + 3  # a row of chips, between pips, from the PDF's y-up box
    row = [img.getpixel((px, round(y * k))) for px in range(round((tx0 - 6) * k), round(tx0 * k))]
    tinted = [i for i, c in enumerate(row) if c != (255, 255, 255)]
    left_mm = (len(row) - tinted[0]) / k
    assert left_mm == pytest.approx(bleed, abs=0.1)


def test_bleed_is_for_chips_only_and_within_3_mm(tmp_path):
    from sheetkit.errors import UserError

    with pytest.raises(UserError, match="nothing to cut out"):
        printing.compose("yuncos", "a4", "en", bleed=2)
    for bad in (-1.0, 3.5, float("nan"), 1e9):
        with pytest.raises(UserError, match="expected 0 to 3 mm"):
            printing.compose("glux-chips", "a4", "en", bleed=bad)
