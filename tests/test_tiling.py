"""The game-independent tiling of a big drawing across pages."""

from __future__ import annotations

import pytest

from sheetkit.paper import tiling
from sheetkit.paper.scene import PAPERS, SAFE_MARGIN, Circle, Form, Line, Rect, Style, Text, Use, bounds


def test_a_drawing_that_fits_is_one_tile():
    p = tiling.plan(150, 200, "a4")
    assert (p.rows, p.cols) == (1, 1) and (p.page_w, p.page_h) == PAPERS["a4"]
    assert (p.tiles[0].w, p.tiles[0].h) == (150, 200)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", [(325, 225), (375, 275), (600, 420), (250, 700)])
def test_tiles_cover_the_drawing_with_exact_overlaps(paper, size):
    w, h = size
    p = tiling.plan(w, h, paper)
    assert len(p.tiles) == p.rows * p.cols
    for t in p.tiles:
        ox, oy = tiling.tile_origin(p)
        # a tile fits inside the safe area of its page
        assert ox >= SAFE_MARGIN and ox + t.w <= p.page_w - SAFE_MARGIN
        assert oy >= SAFE_MARGIN and oy + t.h <= p.page_h - SAFE_MARGIN
        if t.col + 1 < p.cols:
            right = p.tile(t.row, t.col + 1)
            assert t.x + t.w - right.x == pytest.approx(p.overlap)
        if t.row + 1 < p.rows:
            below = p.tile(t.row + 1, t.col)
            assert t.y + t.h - below.y == pytest.approx(p.overlap)
    last = p.tiles[-1]
    assert last.x + last.w == pytest.approx(w) and last.y + last.h == pytest.approx(h)


def test_orientation_with_fewer_pages_wins():
    # 375 x 275 mm: 4 landscape A4 pages against 6 portrait ones
    p = tiling.plan(375, 275, "a4")
    assert p.page_w > p.page_h and len(p.tiles) == 4
    q = tiling.plan(325, 225, "a4")
    assert q.page_w < q.page_h and len(q.tiles) == 2


def test_registration_marks_match_between_neighbours():
    p = tiling.plan(600, 420, "letter")
    for t in p.tiles:
        mine = set(tiling.registration_marks(p, t))
        for dr, dc in ((0, 1), (1, 0)):
            r, c = t.row + dr, t.col + dc
            if r < p.rows and c < p.cols:
                theirs = set(tiling.registration_marks(p, p.tile(r, c)))
                shared = mine & theirs
                assert len(shared) == 2  # two marks in every shared strip
                top = p.tile(r, c)
                for x, y in shared:  # whole on the tile on top, inside the strip of the one below
                    assert (x == top.x + tiling.MARK_IN) if dc else (y == top.y + tiling.MARK_IN)
                    x0, y0, x1, y1 = tiling.mark_box(x, y)
                    assert t.x < x0 and x1 < t.x + t.w and t.y < y0 and y1 < t.y + t.h
                    assert (x0 > top.x) if dc else (y0 > top.y)


def form():
    return Form(375, 275, [Rect(0, 0, 375, 275, Style(width=1.0)), Line(0, 0, 375, 275),
                           Circle(100, 100, 20), Text(10, 20, "hello", size=12)])


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pages_place_the_form_clipped_and_keep_the_margin(paper):
    f = form()
    text = tiling.TileText(title="Test board")
    pages = tiling.tile_pages("big", f, paper, text)
    p = tiling.plan(f.width, f.height, paper)
    assert len(pages) == len(p.tiles) + 1
    assert pages[0].stamp is not None
    sx, sy, ss = pages[0].stamp
    assert sx >= SAFE_MARGIN and sy + ss <= pages[0].height - SAFE_MARGIN
    for page in pages[1:]:
        uses = [it for it in page.items if isinstance(it, Use)]  # the piece, and its neighbours' strips
        assert 1 <= len(uses) <= 3 and all(u.name == "big" and u.clip is not None for u in uses)
    for page in pages:
        x0, y0, x1, y1 = bounds(page.items, {"big": f})
        assert x0 >= SAFE_MARGIN and y0 >= SAFE_MARGIN
        assert x1 <= page.width - SAFE_MARGIN and y1 <= page.height - SAFE_MARGIN
    # the assembly page's reduced drawing stays out of the stamp square
    items = [it for it in pages[0].items if not isinstance(it, Text)]
    for it in items:
        b = bounds([it])
        assert not (b[0] < sx + ss and b[2] > sx and b[1] < sy + ss and b[3] > sy)


def test_transform_scales_and_moves():
    out = tiling.transform([Line(0, 0, 10, 10), Circle(10, 10, 5), Text(0, 10, "x", size=12),
                            Text(0, 0, "small", size=10)], 0.5, 100, 200)
    assert out[0] == Line(100, 200, 105, 205, out[0].style)
    assert out[1].r == 2.5 and (out[1].x, out[1].y) == (105, 205)
    assert out[2].size == 6 and out[2].y == 205
    assert len(out) == 3  # text that would print below 6 pt is left out


def test_wrap_keeps_lines_within_width():
    from sheetkit.paper.measure import text_width, wrap

    lines = wrap("one two three four five six seven eight nine ten " * 4, 60, 9)
    assert len(lines) > 2 and all(text_width(l, 9) <= 60 for l in lines)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", [(325, 225), (375, 275), (600, 420), (250, 700)])
def test_grid_cuts_fall_on_grid_lines_off_the_kept_boxes(paper, size):
    w, h = size
    keep = ((148.0, 10.0, 153.0, 20.0), (10.0, 123.0, 20.0, 127.0))  # a label across x = 150 and y = 125
    p = tiling.plan(w, h, paper, step=(25.0, 25.0), keep=keep)
    xs, ys = p.cuts()
    for at in xs + ys:
        assert at % 25 == pytest.approx(0)
    assert 150.0 not in xs and 125.0 not in ys
    assert tiling.seam_problems(p, (25.0, 25.0), keep) == []
    ox, oy = tiling.tile_origin(p)
    for t in p.tiles:  # every tile on its page, neighbours overlapping by exactly the strip
        assert ox + t.w <= p.page_w - SAFE_MARGIN - tiling.GAP + 1e-6
        assert oy + t.h <= p.page_h - SAFE_MARGIN - tiling.FOOTER - tiling.GAP + 1e-6
        if t.col + 1 < p.cols:
            assert t.x + t.w - p.tile(t.row, t.col + 1).x == pytest.approx(p.overlap)
    last = p.tiles[-1]
    assert last.x + last.w == pytest.approx(w) and last.y + last.h == pytest.approx(h)
    # as few tiles as equal tiles off the grid would need, or one more row or column at most
    free = tiling.plan(w, h, paper)
    assert len(p.tiles) <= (free.rows + 1) * (free.cols + 1)


def test_seam_problems_name_a_cut_inside_a_square_and_through_a_label():
    p = tiling.plan(375, 275, "a4")  # equal tiles: cuts at 181.5 / 131.5 mm, inside squares
    kinds = {k for k, _, _ in tiling.seam_problems(p, (25.0, 25.0), ((178.0, 5.0, 185.0, 9.0),))}
    assert {"square", "label"} <= kinds


def test_grid_cuts_balance_the_sheets():
    # 375 mm on 271 mm pages: 175 + 12 and 200, not 250 + 12 and 125
    assert tiling.grid_cuts(375, 271, 12, 25) == [175.0]
    assert tiling.grid_cuts(100, 271, 12, 25) == []
    assert tiling.grid_cuts(375, 30, 12, 25) is None  # no tile fits between grid lines
