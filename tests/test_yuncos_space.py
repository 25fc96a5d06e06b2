"""Room on the Yuncos sheet, measured on the Scene (sheetkit.games.yuncos.compose.sheet_parts)
on A4 and Letter, both levels, both languages: the header band clear of the map's column
letters with room to write a name, the dice heading clear of its turn numbers, the ">" cues
of nest row 2 clear of the boxes, a gutter between the nests and the luminaries, the
registration squares clear of everything and none near an ability box, the rules
strip at 7 pt or more, and the page used (A4 not left 20 mm short) with 10 mm clear of
every edge."""

from __future__ import annotations

import pytest

from sheetkit import layouts
from sheetkit.games.yuncos.compose import ABILITY, BOX, sheet_geometry, sheet_parts
from sheetkit.paper import scene as S

LEVELS = ["yuncos-easy", "yuncos-hard"]
CASES = [(ref, paper, lang) for ref in LEVELS for paper in S.PAPERS for lang in ("es", "en")]

HEADER_GAP = 2.0  # mm: the header band (its text, its name line) over the column letters
NAME_ROOM = 5.0  # mm of free paper above the name line to write on
DICE_GAP = 1.5  # mm: the dice heading over the turn numbers
CUE_GAP = 0.4  # mm: a ">" disc of nest row 2 off every box
GUTTER = 3.0  # mm between the nests and the luminaries
MARK_CLEAR = 1.2  # mm of paper around a registration square (the reader wants 0.9)
STRIP_PT = 7.0
MIN_PT = 6.0
MIN_LINE = 0.25 * 25.4 / 72  # 0.25 pt, in mm
EDGE = 10.0
A4_MOST = 14.0  # A4's top and bottom margins, at most: the page is used


@pytest.fixture(scope="module", params=CASES, ids=["-".join(c) for c in CASES])
def sheet(request):
    ref, paper, lang = request.param
    spec = layouts.load(ref).spec
    g = sheet_geometry(spec, paper)
    return spec, g, sheet_parts(spec, g, lang)


def box(items):
    return S.bounds(items)


def overlap(a, b) -> bool:
    """The x ranges of two bounds overlap."""
    return a[0] < b[2] and b[0] < a[2]


def separation(a, b) -> float:
    """How far apart two bounds are (0 when they touch or overlap)."""
    dx = max(b[0] - a[2], a[0] - b[2], 0.0)
    dy = max(b[1] - a[3], a[1] - b[3], 0.0)
    return max(dx, dy) if not (dx and dy) else (dx * dx + dy * dy) ** 0.5


def test_the_header_has_its_own_band_with_room_for_a_name(sheet):
    spec, g, P = sheet
    letters = box(P["column_letters"])
    top = box(P["header"] + P["player"] + P["header_rule"])
    assert letters[1] - top[3] >= HEADER_GAP, (letters[1], top[3])
    # the name line: free paper above it, as wide as the line, for a pencilled name
    line = next(it for it in P["player"] if isinstance(it, S.Line))
    above = [box([it]) for it in P["header"] if overlap(box([it]), (line.x1, 0, line.x2, 0))]
    room = line.y1 - max([b[3] for b in above if b[3] < line.y1] + [g.oy])
    assert room >= NAME_ROOM, room
    assert line.x2 - line.x1 >= 40
    # the subtitle stops short of the name's label
    label = box([P["player"][0]])
    note = box([P["header"][-1]])
    assert label[0] - note[2] >= 3.0, (label[0], note[2])


def test_the_dice_heading_is_clear_of_the_turn_numbers(sheet):
    spec, g, P = sheet
    for h in P["dice_heading"]:
        hb = box([h])
        for n in P["dice_numbers"]:
            nb = box([n])
            if overlap(hb, nb):
                assert nb[1] - hb[3] >= DICE_GAP, (h.text, n.text, nb[1] - hb[3])
    # and each row of numbers is clear of the boxes above it
    numbers = box(P["dice_numbers"][:g.dice_per_row])
    assert numbers[1] - box(P["dice_heading"])[3] >= DICE_GAP


def test_the_cues_of_nest_row_2_are_clear_of_the_boxes(sheet):
    spec, g, P = sheet
    discs = [it for it in P["nest_cues"] if isinstance(it, S.Circle)]
    assert len(discs) == spec.nests.length - 1
    boxes = [it for it in P["nests"] if isinstance(it, S.Rect) and it.w in (BOX, ABILITY)]
    assert len(boxes) == 2 * spec.nests.length + sum(len(r) for r in spec.nests.abilities)
    for d in discs:
        for b in boxes:
            assert separation(box([d]), box([b])) >= CUE_GAP, (d, b)
    # the abilities key under them is clear of them too
    assert box(P["nests_key"])[1] - box(P["nest_cues"])[3] >= 1.0


def test_a_gutter_between_the_nests_and_the_luminaries(sheet):
    spec, g, P = sheet
    nests = box(P["nests"] + P["nest_cues"] + P["nests_key"])
    lum = box(P["luminaries"])
    assert lum[0] - nests[2] >= GUTTER, lum[0] - nests[2]


def test_the_registration_squares_are_clear_and_none_passes_for_an_ability_box(sheet):
    spec, g, P = sheet
    marks = P["marks"]
    assert len(marks) == 4
    others = [it for name, part in P.items() if name != "marks" for it in part]
    for m in marks:
        mb = box([m])
        near = min(separation(mb, box([it])) for it in others)
        assert near >= MARK_CLEAR, (m, near)
        # not in the row of the fish counter's ability boxes, nor beside any ability box
        for it in P["fish"] + P["nests"] + P["luminaries"]:
            if isinstance(it, S.Rect) and it.w == ABILITY:
                assert separation(mb, box([it])) >= 8.0, (m, it)
        pw, ph = g.page
        assert mb[0] >= EDGE and mb[1] >= EDGE and mb[2] <= pw - EDGE and mb[3] <= ph - EDGE
    # spread over the sheet: two at the top corners, two lower down on either side of the
    # crash track, at the QR code's height (two of them and the code still place a photo)
    top, right, low, code = marks
    assert right.x - top.x > 0.9 * g.content_w and low.y - top.y > 0.5 * g.content_h
    stamp = g.stamp
    for m in (low, code):
        assert stamp[1] <= m.y + m.h / 2 <= stamp[1] + stamp[2]
    assert code.x - low.x > 0.3 * g.content_w


def test_the_rules_strip_is_at_seven_points_and_every_text_at_six(sheet):
    spec, g, P = sheet
    strip = [it for it in P["strip"] if isinstance(it, S.Text)]
    assert strip and all(it.size >= STRIP_PT for it in strip)
    for part in P.values():
        for it in part:
            if isinstance(it, S.Text):
                assert it.size >= MIN_PT, it
            style = getattr(it, "style", None)
            if style is not None and style.stroke and not isinstance(it, S.Text):
                assert style.width >= MIN_LINE - 1e-9, it


def test_the_page_is_used_and_every_edge_kept_clear(sheet):
    spec, g, P = sheet
    pw, ph = g.page
    x0, y0, x1, y1 = box([it for part in P.values() for it in part])
    assert min(x0, y0, pw - x1, ph - y1) >= EDGE, (x0, y0, pw - x1, ph - y1)
    if g.paper == "a4":
        assert y0 <= A4_MOST and ph - y1 <= A4_MOST, (y0, ph - y1)
        assert g.square == spec.map.square  # the layout's own square on A4
    # the geometry is the same in both languages: a photo is read over it
    assert y1 <= g.oy + g.content_h + 1e-6


@pytest.mark.parametrize("ref", LEVELS)
def test_the_sheet_parts_are_drawn_whole(ref):
    """sheet_items is every part, in order: nothing measured here is left off the page."""
    from sheetkit.games.yuncos.compose import sheet_items

    spec = layouts.load(ref).spec
    g = sheet_geometry(spec, "a4")
    parts = sheet_parts(spec, g, "en")
    assert sheet_items(spec, g, "en") == [it for part in parts.values() for it in part]
