"""Chips to cut out: TrimBox and BleedBox in the PDF, crop marks outside the cut area, the
colour running exactly `--bleed` mm past the outer cut lines. Measured on the PDF."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from sheetkit import layouts
from sheetkit.games.glux.compose import CROP_CLEAR, chip_pitch
from sheetkit.paper import printing
from sheetkit.paper.scene import SAFE_MARGIN, paper_size


def scene_spec():
    return layouts.load("glux-chips").spec

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
        # the block of 6 columns x 8 rows of chips, from its outer cut lines
        pitch = chip_pitch(scene_spec(), bleed)
        assert (tx1 - tx0, ty1 - ty0) == (pytest.approx(6 * pitch - (pitch - 20), abs=0.01),
                                          pytest.approx(8 * pitch - (pitch - 20), abs=0.01))
        for a, b in ((tx0 - bx0, bleed), (bx1 - tx1, bleed), (ty0 - by0, bleed), (by1 - ty1, bleed)):
            assert a == pytest.approx(b, abs=0.01)
        assert SAFE_MARGIN <= bx0 and bx1 <= W - SAFE_MARGIN and SAFE_MARGIN <= by0 and by1 <= H - SAFE_MARGIN


@pytest.mark.parametrize("bleed", [0.0, 2.0])
def test_crop_marks_in_the_gutters_only_with_bleed(tmp_path, bleed):
    """With bleed, every thin mark lies on the extension of a cut line, in the white beyond
    the bleed: the marks' lines are the block's 12 vertical and 16 horizontal cut lines,
    spanning the TrimBox exactly. Without bleed there is no mark (the cut lines are drawn)."""
    scene, out = _render(tmp_path, "letter", bleed)
    pg = pdfium.PdfDocument(str(out))[0]
    tx0, ty0, tx1, ty1 = [float(v) for v in PdfReader(out).pages[0]["/TrimBox"]]
    marks = []
    for o in pg.get_objects():
        if o.type != pdfium.raw.FPDF_PAGEOBJ_PATH:
            continue
        l, b, r, t = o.get_bounds()
        if max(r - l, t - b) < 3.2 * PT and min(r - l, t - b) < 0.5 * PT and max(r - l, t - b) > 2.6 * PT:
            marks.append((l, b, r, t))
    if not bleed:
        assert marks == []
        return
    vertical = [m for m in marks if (m[3] - m[1]) > (m[2] - m[0])]
    horizontal = [m for m in marks if (m[2] - m[0]) > (m[3] - m[1])]
    xs = sorted({round((l + r) / 2 / PT, 2) for l, b, r, t in vertical})
    ys = sorted({round((b + t) / 2 / PT, 2) for l, b, r, t in horizontal})
    assert len(xs) == 2 * 6 and len(ys) == 2 * 8
    assert xs[-1] - xs[0] == pytest.approx((tx1 - tx0) / PT, abs=0.02)
    assert ys[-1] - ys[0] == pytest.approx((ty1 - ty0) / PT, abs=0.02)
    # each mark starts beyond the bleed of the chip whose cut it extends
    for l, b, r, t in vertical:
        assert min(abs(b / PT - y) for y in ys) >= bleed + CROP_CLEAR - 0.25 or \
            min(abs(t / PT - y) for y in ys) >= bleed + CROP_CLEAR - 0.25


@pytest.mark.parametrize("bleed", [2.0, 3.0])
def test_the_colour_runs_exactly_the_bleed_past_the_outer_cut(tmp_path, bleed):
    scene, out = _render(tmp_path, "a4", bleed)
    dpi = 600
    img = pdfium.PdfDocument(str(out))[0].render(scale=dpi / 72).to_pil().convert("RGB")
    tx0, ty0, tx1, ty1 = (float(v) / PT for v in PdfReader(out).pages[0]["/TrimBox"])
    H = paper_size("a4")[1]
    k = dpi / 25.4
    y = H - ty1 + 10 + 3  # the first row of chips, clear of the pip, from the PDF's y-up box
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
