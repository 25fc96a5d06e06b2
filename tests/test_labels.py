"""The label placer: tags never overlap each other or a protected mark, stay on the page,
and sit by their anchor or have a leader line to it."""

from __future__ import annotations

import math

from hypothesis import given, settings, strategies as st

from sheetkit.paper import labels as L
from sheetkit.paper import scene as S
from sheetkit.paper.annotate import RED

A4 = S.Page(210.0, 297.0)
AREA = L.drawable(A4)


def assert_sound(placement: L.Placement, obstacles, area, tags):
    """What `place` promises, checked from its result alone."""
    boxes = [p.box for p in placement.placed]
    assert len(placement.placed) + len(placement.unplaced) == len(tags)
    assert sorted(map(repr, [p.tag for p in placement.placed] + list(placement.unplaced))) == sorted(map(repr, tags))
    for i, p in enumerate(placement.placed):
        x0, y0, x1, y1 = p.box
        assert area[0] <= x0 and area[1] <= y0 and x1 <= area[2] and y1 <= area[3], p
        for q in boxes[i + 1:]:
            assert not L._overlap(p.box, q), (p.box, q)
        for o in obstacles:
            assert not L._overlap(p.box, o), (p, o)
        for t in tags:  # no tag covers any finding's ring
            if t.radius > 0:
                assert L.gap(p.box, t.anchor) >= t.radius - 1e-6, (p, t)
        near = L.gap(p.box, p.tag.anchor) <= p.tag.radius + L.NEAR + 1e-6
        if p.leader is None:
            assert near, p
        else:
            bx, by, ax, ay = p.leader
            assert L.gap(p.box, (bx, by)) < 1e-6  # starts on the tag
            assert math.isclose(math.hypot(ax - p.tag.anchor[0], ay - p.tag.anchor[1]), p.tag.radius,
                                abs_tol=1e-6)  # ends on the anchor's ring
            for q in boxes:
                if q != p.box:
                    assert not L.segment_hits_box(*p.leader, q)
            for o in obstacles:  # unless the anchor lies in that very mark
                assert L.gap(o, (ax, ay)) == 0 or not L.segment_hits_box(*p.leader, o)
        assert L.gap(p.box, p.tag.anchor) <= p.tag.radius + L.REACH + 1e-6


box = st.builds(lambda x, y, w, h: (x, y, x + w, y + h),
                st.floats(0, 200), st.floats(0, 287), st.floats(0.5, 12), st.floats(0.5, 6))
anchor = st.tuples(st.floats(5, 205), st.floats(5, 292))


@settings(max_examples=150, deadline=None)
@given(st.lists(box, max_size=120), st.lists(st.tuples(anchor, st.floats(0, 4), st.integers(1, 120)), max_size=40))
def test_random_obstacles_and_anchors(obstacles, specs):
    tags = [L.Tag(str(n), a, r) for a, r, n in specs]
    placement = L.place(tags, obstacles, AREA)
    assert_sound(placement, obstacles, AREA, tags)


@settings(max_examples=40, deadline=None)
@given(st.lists(box, max_size=60), st.lists(anchor, min_size=1, max_size=25))
def test_the_naive_index_places_exactly_the_same(obstacles, anchors):
    tags = [L.Tag(str(n), a, 2.0) for n, a in enumerate(anchors, 1)]
    assert L.place(tags, obstacles, AREA) == L.place(tags, obstacles, AREA, naive=True)


@settings(max_examples=40, deadline=None)
@given(st.lists(box, max_size=60), st.lists(st.lists(box, max_size=8), max_size=12), st.data())
def test_obstacles_indexed_beforehand_place_as_if_given(obstacles, groups, data):
    """A blank sheet's obstacles (indexed) and named groups of them (a map's segments,
    indexed the first time a drawing uses them, shared between drawings) hold the tags off
    exactly as the same boxes handed over each time do."""
    split = data.draw(st.integers(0, len(obstacles)))
    anchors = data.draw(st.lists(anchor, min_size=1, max_size=20))
    tags = [L.Tag(str(n), a, data.draw(st.sampled_from([0.0, 0.9, 2.0]))) for n, a in enumerate(anchors, 1)]
    shared = L.Groups()
    shared.using({("other", k): (lambda g=g: g) for k, g in enumerate(groups[::2])})  # another drawing's
    used = {k: (lambda g=g: g) for k, g in enumerate(groups)}
    base = (L.indexed(obstacles[:split]), shared.using(used))
    given_all = obstacles + [b for g in groups for b in g]
    placed = L.place(tags, obstacles[split:], AREA, base=base)
    assert placed == L.place(tags, given_all, AREA)
    assert placed == L.place(tags, obstacles[split:], AREA, base=base, naive=True)
    assert placed == L.place(tags, obstacles[split:], AREA, base=(base[0], shared.using(used)))  # used again


@settings(max_examples=60, deadline=None)
@given(st.lists(box, max_size=80), st.lists(anchor, min_size=1, max_size=30), st.data())
def test_going_on_from_the_placement_before_places_the_same(obstacles, anchors, data):
    """A drawing after one more move (more tags, more obstacles) gone on from the drawing
    before it places every tag exactly as a placement from nothing: tags whose box a new
    obstacle covers move, and so may every tag after them."""
    tags = [L.Tag(str(n), a, data.draw(st.sampled_from([0.0, 0.9, 2.0]))) for n, a in enumerate(anchors, 1)]
    # a few tags at one place, as the turns that end on one point
    tags += [L.Tag(str(len(tags) + k), tags[0].anchor, tags[0].radius) for k in range(data.draw(st.integers(0, 3)))]
    earlier = data.draw(st.integers(0, len(tags)))
    kept = sorted(data.draw(st.sets(st.integers(0, max(len(obstacles) - 1, 0)))) if obstacles else [])
    before = L.place(tags[:earlier], [obstacles[k] for k in kept], AREA)
    # the move's new marks: some where a tag stood (it must move), some anywhere
    covered = [p.box for p in before.placed if data.draw(st.booleans())]
    obstacles = obstacles + [(x0 + 0.2, y0 + 0.2, x1 - 0.2, y1 - 0.2) for x0, y0, x1, y1 in covered]
    assert L.place(tags, obstacles, AREA, after=before) == L.place(tags, obstacles, AREA)
    assert L.place(tags, obstacles, AREA, after=L.place(tags, obstacles, AREA)) == L.place(tags, obstacles, AREA)


def test_an_obstacle_the_size_of_a_ring_is_an_obstacle_still():
    """A mark exactly where a later finding's ring goes stays a mark for every tag: going on
    from the drawing before places as from nothing (the ring's circle frees only itself)."""
    a, b = L.Tag("1", (100.0, 100.0), 0.0), L.Tag("2", (100.5, 100.0), 4.0)
    o = L._ring_box(b)
    fresh = L.place([a, b], [o], AREA)
    assert L.place([a, b], [o], AREA, after=L.place([a], [o], AREA)) == fresh
    assert_sound(fresh, [o], AREA, [a, b])


def test_the_work_counted_is_this_placements_own():
    base = L.indexed([(90.0, 90.0, 95.0, 95.0)])
    counts = {L.place([L.Tag("1", (100.0, 100.0))], [], AREA, base=(base,)).compared for _ in range(3)}
    assert len(counts) == 1


def test_free_page_puts_the_tag_beside_its_anchor_upper_right():
    p = L.place([L.Tag("1", (100.0, 100.0), 3.0)], [], AREA).placed[0]
    assert p.leader is None
    assert p.box[0] > 100 and p.box[3] < 100  # up and to the right
    assert L.gap(p.box, (100.0, 100.0)) <= 3.0 + L.CLEAR + 1e-6


def test_crowded_anchor_gets_a_leader_to_free_space():
    # The anchor sits in a block of printed numbers 16 mm wide: no room beside it.
    wall = [(x, y, x + 1.9, y + 1.9) for x in range(90, 110, 2) for y in range(90, 110, 2)]
    p = L.place([L.Tag("7", (100.0, 100.0))], wall, AREA).placed[0]
    assert p.leader is not None
    assert_sound(L.place([L.Tag("7", (100.0, 100.0))], wall, AREA), wall, AREA, [L.Tag("7", (100.0, 100.0))])


def test_no_free_space_within_reach_is_said_not_drawn():
    full = [AREA]  # the whole drawable area is protected
    tag = L.Tag("3", (100.0, 100.0))
    placement = L.place([tag], full, AREA)
    assert placement.placed == () and placement.unplaced == (tag,)


def test_a_tag_by_the_margin_stays_on_the_page():
    tag = L.Tag("12", (AREA[2] - 0.5, AREA[1] + 0.5), 1.0)
    p = L.place([tag], [], AREA).placed[0]
    assert p.box[2] <= AREA[2] and p.box[1] >= AREA[1]


def test_many_tags_on_one_spot_fan_out_without_overlap():
    tags = [L.Tag(str(n), (60.0, 60.0), 3.0) for n in range(1, 9)]
    placement = L.place(tags, [], AREA)
    assert not placement.unplaced
    assert_sound(placement, [], AREA, tags)
    # Twenty: once the spot is ringed with tags no leader can reach it; the rest are
    # reported, never drawn over the others.
    tags = [L.Tag(str(n), (60.0, 60.0), 3.0) for n in range(1, 21)]
    placement = L.place(tags, [], AREA)
    assert len(placement.placed) >= 8 and placement.unplaced
    assert_sound(placement, [], AREA, tags)


def test_same_input_same_placement():
    obstacles = [(10 + 7 * i % 180, 10 + 11 * i % 270, 14 + 7 * i % 180, 12 + 11 * i % 270) for i in range(300)]
    tags = [L.Tag(str(n), (20 + 37 * n % 170, 20 + 53 * n % 250), 2.0) for n in range(60)]
    assert L.place(tags, obstacles, AREA) == L.place(list(tags), list(obstacles), AREA)


def test_text_boxes_measure_text_and_enter_forms():
    t = S.Text(50, 50, "B", size=10, bold=True, anchor="middle")
    scene = S.Scene([S.Page(210, 297, [t, S.Use("f", 10, 20), S.Text(0, 0, "  ")])],
                    {"f": S.Form(50, 50, [S.Text(5, 5, "A5")])})
    (b1, b2) = L.text_boxes(scene.pages[0].items, scene.forms)
    assert b1[0] < 50 < b1[2] and b1[1] < 50 < b1[3] + 1
    assert b2[0] == 15 and b2[1] < 25 < b2[3]


# --- A real checked sheet: the Yuncos illegal example ------------------------------------


def yuncos_checked(path="examples/yuncos-illegal.toml"):
    from sheetkit.checking import records

    loaded = records.load(path)
    checked = records.check(loaded)
    return loaded, checked, loaded.kind.overlay(loaded.record, checked, "a4")


def yuncos_anchors(record, findings):
    """Each finding's place on the sheet, as the Yuncos overlay finds it, except that a
    finding of a turn is marked on the map (where the turn's flight ends), not in the dice log."""
    from sheetkit.games.yuncos.compose import sheet_geometry

    g = sheet_geometry(record.spec, "a4")
    pos, ends = record.start, []
    for turn in record.turns:
        pos = turn.start_at if turn.start_at is not None else pos
        for dx, dy in turn.steps:
            pos = (pos[0] + dx, pos[1] + dy)
        ends.append(pos)
    board = record.spec.board

    def on_map(v):
        return g.vertex((min(max(v[0], 0), board.width - 1), min(max(v[1], 0), board.height - 1)))

    def around(box):
        x, y, w, h = box
        return (x + w / 2, y + h / 2), max(w, h) / 2 + 1.2

    out = []
    for f in findings:
        at = f.at
        if "cell" in at:
            base, _, idx = at["cell"].partition(".")
            i = int(idx) - 1 if idx else 0
            box = g.nest_box(int(base[4:]) - 1, i) if base.startswith("nest") else g.lum_box(int(base[3:]) - 1, i)
            out.append(around(box))
        elif at.get("counter") == "fish":
            out.append(around(g.fish_box(at["box"] - 1)))
        elif "box" in at:
            b = at["box"]
            row, k = b[4:].split(".")
            out.append(around(g.nest_ability(int(row) - 1, int(k) - 1)))
        elif "vertex" in at:
            out.append((on_map(at["vertex"]), 3.0))
        else:
            out.append((on_map(ends[at["turn"] - 1]), 3.0))
    return out


def test_yuncos_illegal_sheet_tags_cover_no_star_letter_or_turn_number():
    loaded, checked, scene = yuncos_checked()
    page = scene.pages[0]
    findings = checked.verdict.findings
    assert len(findings) == 7
    # Everything written on the sheet stays readable: the sheet's own text (star letters,
    # square names, labels) and the overlay's (turn numbers, values, dice); not the red
    # rule ids, which the tags replace.
    from sheetkit.games.yuncos.compose import sheet_geometry

    # the stars' marks (a shape or a letter, in a star drawn 0.42 of a square wide)
    g = sheet_geometry(loaded.record.spec, "a4")
    sq = g.vertex((1, 0))[0] - g.vertex((0, 0))[0]
    stars = [(x - sq * 0.42, y - sq * 0.42, x + sq * 0.42, y + sq * 0.42)
             for x, y in (g.vertex(v) for v in loaded.record.spec.board.stars)]
    obstacles = L.text_boxes(page.items, scene.forms, keep=lambda t: t.color != RED) + stars
    turn_numbers = [i for i in page.items if isinstance(i, S.Text) and i.size == 6.0 and i.color == "#6e6e6e"]
    assert stars and len(turn_numbers) == len(loaded.record.turns)
    tags = [L.Tag(str(n), a, r) for n, (a, r) in enumerate(yuncos_anchors(loaded.record, findings), 1)]
    placement = L.place(tags, obstacles, L.drawable(page))
    assert not placement.unplaced
    assert_sound(placement, obstacles, L.drawable(page), tags)
    for p in placement.placed:  # each tag within a few mm of its place, or led to it
        assert p.leader is not None or L.gap(p.box, p.tag.anchor) <= p.tag.radius + L.NEAR
    assert sum(p.leader is None for p in placement.placed) >= 5


def test_yuncos_tags_drawn_render(tmp_path):
    from sheetkit.paper import png

    loaded, checked, scene = yuncos_checked()
    page = scene.pages[0]
    obstacles = L.text_boxes(page.items, scene.forms, keep=lambda t: t.color != RED)
    tags = [L.Tag(str(n), a, r) for n, (a, r) in enumerate(yuncos_anchors(loaded.record, checked.verdict.findings), 1)]
    page.items[:] = [i for i in page.items if not (isinstance(i, S.Text) and i.color == RED)]
    page.items.extend(L.items(L.place(tags, obstacles, L.drawable(page))))
    out = png.write(S.Scene([page], scene.forms), tmp_path / "tags.png", dpi=150)
    assert out.stat().st_size > 10_000
