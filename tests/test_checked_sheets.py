"""The checked sheets of `check --render`, measured on the real scene the overlays draw
(and on the PDF for a few): every finding marked at its place with a numbered tag; no tag
covers another, a printed or written text (star letters, square names, turn numbers,
values) or a star; each tag sits within a few mm of its finding's place or is led there by
a line whose far end lies within 1 mm of it. For every illegal example and for random
games with one wrong mark planted in them."""

from __future__ import annotations

import copy
import math
import random
import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sheetkit import layouts
from sheetkit.checking import records
from sheetkit.paper import labels as L
from sheetkit.paper import scene as S
from sheetkit.games.yuncos.overlay import TURN_PT
from sheetkit.paper.annotate import OUTLINE, RED, TRACE

from test_iunu_props import records as iunu_records

EX = Path(__file__).resolve().parent.parent / "examples"
ILLEGAL = sorted(p.name for p in EX.glob("*illegal*.toml") if p.name != "yuncos-table-3p-illegal.toml")
NEAR = 3.0  # mm: "within a few mm" of the place
FEW = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def checked_scene(loaded, lang="en", paper="a4"):
    checked = records.check(loaded)
    return checked, loaded.kind.overlay(loaded.record, checked, paper, lang=lang)


# --- what the scene shows -----------------------------------------------------------------


# a tag: its findings' numbers (several findings at one place share one tag, "2, 3"), and
# the record's value at fault after them
TAG = re.compile(r"^(\d+(?:, \d+)*)(: .+)?$")


def is_tag(i) -> bool:
    return isinstance(i, S.Text) and i.color == RED and i.bold and TAG.match(i.text) is not None


def tags_of(page):
    """(number, box, leader or None) of every finding's tag drawn on the page (a tag of
    several findings once for each)."""
    frames = [i for i in page.items if isinstance(i, S.Rect) and i.style.stroke == RED and i.style.fill == S.WHITE]
    texts = [i for i in page.items if is_tag(i)]
    leaders = [i for i in page.items if isinstance(i, S.Line) and i.style.stroke == RED and i.style.width == 0.25]
    out = []
    for f in frames:
        box = (f.x, f.y, f.x + f.w, f.y + f.h)
        inside = [t for t in texts if box[0] < t.x < box[2] and box[1] < t.y < box[3]]
        assert len(inside) == 1, (box, inside)
        led = [ln for ln in leaders if L.gap(box, (ln.x1, ln.y1)) < 1e-6]
        out += [(int(n), box, led[0] if led else None) for n in TAG.match(inside[0].text).group(1).split(", ")]
    assert len(leaders) == len({(b, id(ln)) for _, b, ln in out if ln is not None})  # every leader starts on a tag
    return out


def protected(page, forms, extra=()):
    """The boxes no tag may cover: every text on the page that is not a tag's own number
    (the sheet's words and numbers, star letters, square names, turn numbers, values)."""
    tag_texts = {id(i) for i in page.items if is_tag(i)}
    return L.text_boxes([i for i in page.items if id(i) not in tag_texts], forms) + list(extra)


def seg_dist(p, a, b):
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def box_dist(box: tuple, shape) -> float:
    """How far a tag's box is from a place: ('point', (x, y), r) a ring, ('box', x0 y0 x1 y1),
    ('line', points)."""
    kind = shape[0]
    if kind == "point":
        return max(0.0, L.gap(box, shape[1]) - shape[2])
    if kind == "box":
        b = shape[1]
        dx = max(b[0] - box[2], 0.0, box[0] - b[2])
        dy = max(b[1] - box[3], 0.0, box[1] - b[3])
        return math.hypot(dx, dy)
    corners = [(box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])]
    return min(seg_dist(c, a, b) for c in corners for a, b in zip(shape[1], shape[1][1:]))


def point_dist(p, shape) -> float:
    """How far a leader's far end is from a place's edge (a ring, a box's outline, a line)."""
    kind = shape[0]
    if kind == "point":
        return abs(math.hypot(p[0] - shape[1][0], p[1] - shape[1][1]) - shape[2]) if shape[2] else \
            math.hypot(p[0] - shape[1][0], p[1] - shape[1][1])
    if kind == "box":
        x0, y0, x1, y1 = shape[1]
        return min(seg_dist(p, a, b) for a, b in [((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)),
                                                  ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))])
    return min(seg_dist(p, a, b) for a, b in zip(shape[1], shape[1][1:]))


def assert_readable(page, forms, places, extra=()):
    """The promise of a checked sheet, measured on its page. `places[k]` are finding k+1's
    places, worked out by the test from the finding (not by the overlay)."""
    tags = tags_of(page)
    boxes = list(dict.fromkeys(b for _, b, _ in tags))  # a tag of several findings once
    for n, b, _ in tags:  # inside the page's printable area: clear of the border
        assert L._inside(b, L.drawable(page)), (n, b)
    for i, b in enumerate(boxes):
        for c in boxes[i + 1:]:
            assert not L._overlap(b, c), (b, c)
    for o in protected(page, forms, extra):
        for n, b, _ in tags:
            assert not L._overlap(b, o), (n, b, o)
    seen = set()
    for n, b, leader in tags:
        assert 1 <= n <= len(places) and places[n - 1], (n, b)
        seen.add(n)
        if leader is None:
            assert min(box_dist(b, s) for s in places[n - 1]) <= NEAR, (n, b, places[n - 1])
        else:
            assert min(point_dist((leader.x2, leader.y2), s) for s in places[n - 1]) <= 1.0, (n, leader)
    assert seen == {k for k, p in enumerate(places, 1) if p}  # every finding with a place has its tag


# --- each finding's place, worked out from the finding -----------------------------------


def yuncos_places(record, findings, paper="a4"):
    from sheetkit.games.yuncos.compose import sheet_geometry

    g = sheet_geometry(record.spec, paper)
    board = record.spec.board
    pos, flights = record.start, []
    for turn in record.turns:
        pos = turn.start_at if turn.start_at is not None else pos
        pts = [pos]
        for dx, dy in turn.steps:
            pos = (pos[0] + dx, pos[1] + dy)
            pts.append(pos)
        flights.append(pts)

    def v(p):
        return g.vertex((min(max(p[0], 0), board.width - 1), min(max(p[1], 0), board.height - 1)))

    def box(b):
        x, y, w, h = b
        return ("box", (x, y, x + w, y + h))

    out = []
    for f in findings:
        at = f.at
        if "cell" in at:
            base, _, idx = at["cell"].partition(".")
            i = int(idx) - 1 if idx else 0
            b = g.nest_box(int(base[4:]) - 1, i) if base.startswith("nest") else g.lum_box(int(base[3:]) - 1, i)
            out.append([box(b)])
        elif isinstance(at.get("box"), str):
            b = at["box"]
            if b.startswith("nest"):
                row, k = b[4:].split(".")
                out.append([box(g.nest_ability(int(row) - 1, int(k) - 1))])
            elif b.startswith("lum"):
                out.append([box(g.lum_ability(int(b[3:]) - 1))])
            else:
                out.append([box(g.fish_ability(int(b[4:]) - 1))])
        elif at.get("counter") == "fish":
            out.append([box(g.fish_box(min(at.get("box", 1), len(record.spec.fish.values)) - 1))])
        elif at.get("counter") == "crashes":
            out.append([box(g.crash_box(min(at.get("box", 1), 6) - 1))])
        elif "score" in at:
            out.append([box(g.score_box(at["score"]))])
        elif "vertex" in at and f.rule != "Y21":  # a turn too many (Y21): its flight, below
            out.append([("point", v(at["vertex"]), 2.5)])
        else:
            t, here = at.get("turn", 0), []
            if 1 <= t <= len(flights):
                pts = [v(p) for p in flights[t - 1]]
                here.append(("line", pts) if len(pts) > 1 else ("point", pts[0], 2.5))
            if "dice" in at and 1 <= t <= record.spec.dice_log:
                (x0, y0, _, h), (x1, _, w1, _) = g.dice_box(t, 0), g.dice_box(t, 1)
                here.append(("box", (x0, y0, x1 + w1, y0 + h)))
            out.append(here)
    return out


def star_boxes(record, paper="a4"):
    from sheetkit.games.yuncos.compose import sheet_geometry

    g = sheet_geometry(record.spec, paper)
    r = g.square * 0.42
    return [(x - r, y - r, x + r, y + r) for x, y in (g.vertex(v) for v in record.spec.board.stars)]


def glux_places(page, record, findings):
    from sheetkit.games.glux.compose import GRID_LINE
    from sheetkit.grid import parse_square

    grid = [i for i in page.items if isinstance(i, S.Line) and i.style == GRID_LINE]
    x0, y0 = min(ln.x1 for ln in grid), min(ln.y1 for ln in grid)
    sq = min(ln.x1 for ln in grid if ln.x1 == ln.x2) - x0
    legend = {t.text.split(":")[0]: t for t in page.items if isinstance(t, S.Text) and re.match(r"^\w+: ", t.text)}
    out = []
    for f in findings:
        s = parse_square(f.at["square"]) if isinstance(f.at.get("square"), str) else None
        if s is not None and record.board.on_board(s):
            c, r = s
            out.append([("box", (x0 + c * sq, y0 + r * sq, x0 + (c + 1) * sq, y0 + (r + 1) * sq))])
        elif s is None and f.at.get("player") in legend:
            t = legend[f.at["player"]]
            out.append([("box", (t.x - 7.0, t.y - 4.0, t.x + 60.0, t.y + 1.5))])  # the player's line of the legend
        else:
            out.append([])
    return out


def pad_places(page, findings):
    """A pad's findings are marked on its cells: the outlined cells, any of them (which
    cell is the overlay's own test below)."""
    cells = [("box", (i.x, i.y, i.x + i.w, i.y + i.h)) for i in page.items
             if isinstance(i, S.Rect) and i.style == OUTLINE]
    return [cells for _ in findings]


def glux_obstacles(page):
    """What no tag may cover on a Glüx sheet besides its texts: every chip drawn (the
    stacks on the board and the legend's), and the board's thick border."""
    from sheetkit.games.glux.compose import BORDER

    chips = [(i.x, i.y, i.x + i.w, i.y + i.h) for i in page.items if isinstance(i, S.Rect)
             and i.style == S.Style(stroke=S.BLACK, width=0.2) and abs(i.w - i.h) < 1e-6]
    out = list(chips)
    for r in (i for i in page.items if isinstance(i, S.Rect) and i.style == BORDER):
        e = BORDER.width / 2
        x0, y0, x1, y1 = r.x, r.y, r.x + r.w, r.y + r.h
        out += [(x0 - e, y0 - e, x1 + e, y0 + e), (x0 - e, y1 - e, x1 + e, y1 + e),
                (x0 - e, y0 - e, x0 + e, y1 + e), (x1 - e, y0 - e, x1 + e, y1 + e)]
    assert chips
    return out


def assert_legend_tags_beside_their_line(page, loaded, checked):
    """A Glüx finding of a player (no square) is tagged beside that player's legend line:
    the tag's middle lies within the line's height, never between two lines."""
    legend = {t.text.split(":")[0]: t for t in page.items if isinstance(t, S.Text) and re.match(r"^\w+: ", t.text)
              and t.size == 8}
    for n, b, _ in tags_of(page):
        f = checked.verdict.findings[n - 1]
        if not isinstance(f.at.get("square"), str) and f.at.get("player") in legend:
            t = legend[f.at["player"]]
            assert t.y - 4.0 <= (b[1] + b[3]) / 2 <= t.y + 1.0 and b[0] > t.x, (n, b, t)


def places_for(loaded, checked, scene, paper="a4"):
    page, f = scene.pages[0], checked.verdict.findings
    if loaded.game == "yuncos":
        return yuncos_places(loaded.record, f, paper), star_boxes(loaded.record, paper)
    if loaded.game == "glux":
        assert_legend_tags_beside_their_line(page, loaded, checked)
        return glux_places(page, loaded.record, f), glux_obstacles(page)
    return pad_places(page, f), []


# --- the examples ---------------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("name", ILLEGAL)
def test_every_illegal_example_is_tagged_readably(name, lang, paper):
    loaded = records.load(EX / name)
    checked, scene = checked_scene(loaded, lang, paper)
    assert checked.verdict.findings
    places, extra = places_for(loaded, checked, scene, paper)
    assert_readable(scene.pages[0], scene.forms, places, extra)
    if loaded.game == "yuncos":  # the Yuncos sheet fills the page: the sentences follow on page 2
        assert len(scene.pages) >= 2


def test_the_yuncos_flight_that_broke_y4_is_marked_on_the_map():
    loaded = records.load(EX / "yuncos-illegal.toml")
    checked, scene = checked_scene(loaded)
    from sheetkit.games.yuncos.compose import sheet_geometry

    g = sheet_geometry(loaded.record.spec, "a4")
    x1, y1 = g.vertex((loaded.record.spec.board.width - 1, loaded.record.spec.board.height - 1))
    traces = [i for i in scene.pages[0].items if isinstance(i, S.Path) and i.style == TRACE]
    on_map = [t for t in traces if all(g.map_x - 0.1 <= x <= x1 + 0.1 and g.map_y - 0.1 <= y <= y1 + 0.1
                                       for x, y in t.points)]
    assert on_map and len(on_map) == len(traces)
    y4 = next(n for n, f in enumerate(checked.verdict.findings, 1) if f.rule == "Y4")
    tags = [b for n, b, _ in tags_of(scene.pages[0]) if n == y4]
    assert len(tags) == 2  # one by its flight on the map, one by its dice in the log
    assert any(box_dist(b, ("line", t.points)) <= NEAR for b in tags for t in on_map)
    assert any(b[1] > y1 + 20 for b in tags)


def test_turn_numbers_and_ends_leave_the_stars_readable():
    """No turn-end dot on a star (a ring goes around it), no turn number on a star or on
    the flight's lines, no pencil line through a star."""
    loaded = records.load(EX / "yuncos-illegal.toml")
    checked, scene = checked_scene(loaded)
    page = scene.pages[0]
    stars = star_boxes(loaded.record)
    dots = [i for i in page.items if isinstance(i, S.Circle) and i.style.fill == "#6e6e6e"]
    numbers = [i for i in page.items if isinstance(i, S.Text) and i.size == TURN_PT and i.color == "#6e6e6e"]
    assert len(numbers) == len(loaded.record.turns)
    for d in dots:
        assert not any(L._overlap((d.x - d.r, d.y - d.r, d.x + d.r, d.y + d.r), s) for s in stars)
    for b in L.text_boxes(numbers):
        assert not any(L._overlap(b, s) for s in stars)
    from sheetkit.games.yuncos.compose import sheet_geometry

    g = sheet_geometry(loaded.record.spec, "a4")
    centres = [g.vertex(v) for v in loaded.record.spec.board.stars]
    rings = {(round(i.x, 1), round(i.y, 1)) for i in page.items
             if isinstance(i, S.Circle) and i.style.stroke == "#6e6e6e" and i.r > g.square * 0.42}
    assert rings and rings <= {(round(x, 1), round(y, 1)) for x, y in centres}  # turns 3 and 12, 15 end on stars
    lines = [i for i in page.items if isinstance(i, S.Path) and i.style.stroke in ("#6e6e6e", RED)]
    for ln in lines:
        for a, b in zip(ln.points, ln.points[1:]):
            assert all(seg_dist(c, a, b) > g.square * 0.2 for c in centres), (a, b)


def test_pad_findings_are_marked_on_their_players_cells():
    """IUNU: Ben's afterlife card on the Farmer majority is marked in Ben's column; Ana's
    findings in Ana's column; the caste's count across the row. Outlined in red, never
    hatched over the digits; Ana's Deben on the Deben box, with her -2 in its tag."""
    from sheetkit.games.iunu.compose import pad_items

    loaded = records.load(EX / "iunu-illegal.toml")
    checked, scene = checked_scene(loaded)
    page = scene.pages[0]
    cells: dict = {}
    pad_items(layouts.load("iunu-score-pad").spec, "a4", "en", cells)
    cols = {p: (min(b[0] for (r, q), bs in cells.items() if q == p for b in bs),
                max(b[0] + b[2] for (r, q), bs in cells.items() if q == p for b in bs)) for p in (0, 1)}
    outlines = [i for i in page.items if isinstance(i, S.Rect) and i.style == OUTLINE]
    hatching = [i for i in page.items if isinstance(i, S.Line) and i.style.stroke == RED and i.style.width < 0.25]
    assert not hatching and len(outlines) == 5
    deben = next(n for n, f in enumerate(checked.verdict.findings, 1) if f.at == {"player": "Ana"})
    tag = next(i for i in page.items if isinstance(i, S.Text) and i.color == RED and i.text.startswith(f"{deben}: "))
    assert tag.text == f"{deben}: -2"
    tags = tags_of(page)
    names = [p.name for p in loaded.record.data.player]
    for n, f in enumerate(checked.verdict.findings, 1):
        mine = [b for k, b, _ in tags if k == n]
        assert mine
        if "player" in f.at and "caste" in f.at or f.at.keys() == {"player"}:
            x0, x1 = cols[names.index(f.at["player"])]
            near = [o for o in outlines if x0 - 0.1 <= o.x and o.x + o.w <= x1 + 0.1 and
                    any(box_dist(b, ("box", (o.x, o.y, o.x + o.w, o.y + o.h))) <= NEAR for b in mine)]
            assert near, f.line()


@pytest.mark.parametrize("name", ["iunu-illegal.toml", "levelx-final-illegal.toml", "glux-game-illegal.toml",
                                  "levelx-game-illegal.toml"])
def test_an_illegal_record_shows_no_winner(name):
    loaded = records.load(EX / name)
    checked, scene = checked_scene(loaded)
    assert checked.verdict.winners  # the tally has one...
    texts = " ".join(i.text for p in scene.pages for i in p.items if isinstance(i, S.Text))
    assert "winner" not in texts and "leading" not in texts and "shared win" not in texts  # ...the sheet shows none
    from sheetkit.paper.tables import INK

    filled = [i for i in scene.pages[0].items if isinstance(i, S.Circle) and i.style.fill == INK]
    assert not filled  # IUNU: no winner's circle filled in


def test_a_legal_record_still_shows_its_winner():
    loaded = records.load(EX / "iunu-game.toml")
    checked, scene = checked_scene(loaded)
    from sheetkit.paper.tables import INK

    assert checked.verdict.legal
    assert [i for i in scene.pages[0].items if isinstance(i, S.Circle) and i.style.fill == INK]
    assert not tags_of(scene.pages[0])


def test_glux_chips_look_like_the_printed_chips_and_the_players_have_a_legend():
    from sheetkit.games.glux.overlay import player_colours

    loaded = records.load(EX / "glux-game-illegal.toml")
    checked, scene = checked_scene(loaded)
    page = scene.pages[0]
    texts = [i.text for i in page.items if isinstance(i, S.Text)]
    letters = "".join(p.letter for p in loaded.record.spec.players)
    names = [t for t in texts if re.fullmatch(rf"[{letters}][1-6]", t)]
    assert len(names) == len(set(names))  # "A5", "B4" only as the squares' own names, never on a chip
    colours = player_colours(loaded.record.spec.players)
    tints = {i.style.fill for i in page.items if isinstance(i, S.Rect) and i.style.fill}
    assert {c.tint for c in colours.values()} <= tints and len({c.frame for c in colours.values()}) == 2
    for p in loaded.record.spec.players:  # the legend: a swatch and the player's colour by name
        assert any(t.startswith(f"{p.name}: {colours[p.name].name('en')}") for t in texts)
    pips = [i for i in page.items if isinstance(i, S.Circle) and i.style.fill == S.BLACK and i.style.stroke is None]
    top = sum(s[-1].pips for s in checked.state.board.stacks.values())
    assert len(pips) >= top  # every top chip shows its pips


def test_the_pdf_of_a_checked_sheet_has_its_tags(tmp_path):
    """The real PDF: the tags' numbers are in it, and the rendered page shows red ink."""
    import pypdfium2

    from sheetkit.paper.checked import render

    for name in ("yuncos-illegal.toml", "glux-game-illegal.toml", "iunu-illegal.toml"):
        loaded = records.load(EX / name)
        checked = records.check(loaded)
        out = render(loaded, checked, tmp_path / f"{name}.pdf", lang="es")
        pdf = pypdfium2.PdfDocument(out)
        text = pdf[0].get_textpage().get_text_range()
        for n in range(1, len(checked.verdict.findings) + 1):
            assert re.search(rf"(^|[\s,]){n}(:|,|\s|$)", text), (name, n)  # "3", "2, 3", "3: -2"
        img = pdf[0].render(scale=1).to_pil().convert("RGB")
        px = img.tobytes()
        reds = sum(1 for k in range(0, len(px), 3) if px[k] > 180 and px[k + 1] < 60 and px[k + 2] < 60)
        assert reds > 200, name


# --- random games with one wrong mark -----------------------------------------------------


def _check_random(data: dict, source: str):
    loaded = records.parse(data, source)
    checked, scene = checked_scene(loaded)
    assume(checked.verdict.findings)
    places, extra = places_for(loaded, checked, scene)
    assert_readable(scene.pages[0], scene.forms, places, extra)


@FEW
@given(lid=st.sampled_from(["yuncos-easy", "yuncos-hard"]), seed=st.integers(0, 2**32 - 1),
       plant=st.sampled_from(["fish", "repeat", "step", "crash"]), pick=st.integers(0, 100))
def test_random_yuncos_games_with_a_wrong_mark(lid, seed, plant, pick):
    from sheetkit.games.yuncos.play import play, to_toml
    from sheetkit.games.yuncos.notation import flight_text, parse_flight

    rec = copy.deepcopy(play(layouts.load(lid), random.Random(seed), dice=True).record)
    turns = rec["turn"]
    if plant == "fish":  # one box more, or one fewer on a full counter
        n = rec.get("fish_marked", 0)
        rec["fish_marked"] = n + 1 if n < len(layouts.load(lid).spec.fish.values) else n - 1
    elif plant == "crash":
        n = rec.get("crashes_marked", 0)
        rec["crashes_marked"] = n + 1 if n < 6 else n - 1
    elif plant == "repeat":
        nest = [i for i, t in enumerate(turns) if t.get("puzzle", "").startswith("nest1")]
        assume(len(nest) > 1)
        turns[nest[1 + pick % (len(nest) - 1)]]["value"] = turns[nest[0]]["value"]
    else:
        i = pick % len(turns)
        steps = parse_flight(turns[i]["flight"])
        assume(steps)
        turns[i]["flight"] = flight_text(steps + [steps[-1]])  # one step too many
    _check_random(tomllib.loads(to_toml(rec)), "gen.toml")


@FEW
@given(table=st.sampled_from([("glux-board-2p", 2), ("glux-board-34p", 3), ("glux-board-34p", 4)]),
       seed=st.integers(0, 2**31), pick=st.integers(0, 1000), face=st.integers(1, 6))
def test_random_glux_games_with_a_wrong_mark(table, seed, pick, face):
    import dataclasses

    from sheetkit.games.glux import play

    lid, n = table
    setups, placements = play.random_game(layouts.load(lid).spec, n, random.Random(seed), start_chance=0.05)
    i = pick % len(placements)
    assume(placements[i].face != face)
    placements = placements[:i] + [dataclasses.replace(placements[i], face=face)] + placements[i + 1:]
    _check_random(tomllib.loads(play.game_toml(lid, setups, placements)), "gen.toml")


@FEW
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 4), pick=st.integers(0, 1000),
       plant=st.sampled_from(["chip", "order", "bonus"]))
def test_random_levelx_games_with_a_wrong_mark(seed, n, pick, plant):
    from sheetkit.games.levelx.play import random_game

    game, final = random_game(random.Random(seed), ["Ana", "Ben", "Cleo", "Dario"][:n], 0.5)
    game = copy.deepcopy(game)
    t = game["turn"][pick % len(game["turn"])]
    if plant == "chip":
        t["chips"] = t.get("chips", []) + [5 + pick % 6]
    elif plant == "order":
        t["player"] = next(p for p in game["players"] if p != t.get("player"))
    else:
        t["bonuses"] = t.get("bonuses", []) + [15]
    _check_random(game, "gen.toml")


@FEW
@given(st.data())
def test_random_iunu_records_with_a_wrong_mark(data):
    rec = copy.deepcopy(data.draw(iunu_records()))
    p = rec["player"][data.draw(st.integers(0, len(rec["player"]) - 1))]
    p["deben"] = -1 - data.draw(st.integers(0, 5))  # a player cannot hold fewer than 0 Deben
    _check_random(rec, "gen.toml")


def test_three_caste_rows_at_fault_one_under_another_each_have_their_tag():
    """Found by the property test above: the Scribe, Pharaoh and Artisan rows all at fault
    (more cards at the table than the deck holds) leave the middle row no room by its top
    right corner; its tag goes by its top left one, beside the row's name, not only to the
    findings page. A box inside such a row at fault has its tag too."""
    deck = {"farmer": (8, 1, 1), "baker": (7, 1, 0), "soldier": (6, 2, 1), "merchant": (6, 2, 2), "noble": (5, 3, 1),
            "priest": (5, 2, 2), "scribe": (4, 3, 2), "pharaoh": (2, 5, 3), "artisan": (4, 2, 1)}
    held = {"Ana": {"artisan": 2, "scribe": 2}, "Ben": {"artisan": 1}, "Cleo": {"pharaoh": 3, "artisan": 2},
            "Dario": {"scribe": 3}}
    rec = {"game": "iunu", "deck": {"castes": {c: {"cards": n, "vp": vp, "bread": b} for c, (n, vp, b) in deck.items()}},
           "player": [{"name": name, "deben": -1 if name == "Ana" else 0, "cards": cards,
                       "fed": {c: 0 for c in cards}, "afterlife": []} for name, cards in held.items()]}
    loaded = records.parse(rec, "gen.toml")
    checked, scene = checked_scene(loaded)
    assert [f.at.get("caste") for f in checked.verdict.findings[:3]] == ["scribe", "pharaoh", "artisan"]
    places, extra = places_for(loaded, checked, scene)
    assert_readable(scene.pages[0], scene.forms, places, extra)
    # ... and an afterlife card on the Pharaoh majority Ana does not hold: a box inside the
    # Pharaoh row's outline, whose tag has room only once that outline is open to it
    rec["player"][0]["afterlife"] = [{"caste": "pharaoh", "multiplier": 1}]
    loaded = records.parse(rec, "gen.toml")
    checked, scene = checked_scene(loaded)
    assert any(f.at.get("afterlife") == 0 for f in checked.verdict.findings)
    places, extra = places_for(loaded, checked, scene)
    assert_readable(scene.pages[0], scene.forms, places, extra)


def test_levelx_game_ends_with_the_board_and_every_pawn_where_the_game_left_it():
    from sheetkit.games.levelx.compose import board_geometry
    from sheetkit.games.levelx.overlay import PAWNS
    from sheetkit.games.levelx.rules import ROWS

    loaded = records.load(EX / "levelx-game-illegal.toml")
    checked, scene = checked_scene(loaded)
    state, page = checked.state, scene.pages[-1]
    spec = layouts.load("levelx-board").spec
    g = board_geometry(spec, "a4")
    inks = {ink: k for k, (ink, _, _) in enumerate(PAWNS)}
    pawns = [i for i in page.items if isinstance(i, S.Circle) and i.style.stroke in inks and i.style.fill]
    legend, on_board = pawns[-len(state.players):], pawns[:-len(state.players)]
    assert len(on_board) == len(state.players) * len(ROWS)
    assert len({i.style for i in on_board}) == len(state.players)  # one colour and pattern a player
    numbers = L.text_boxes(page.items, scene.forms, keep=lambda t: t.size == 6.5 and t.text.isdigit())
    for c in on_board:  # the squares' printed numbers stay readable
        assert not any(L._overlap((c.x - c.r, c.y - c.r, c.x + c.r, c.y + c.r), b) for b in numbers)
    s = g["s"]
    for k, name in enumerate(state.players):  # each pawn in its row, in the square the game left it on
        mine = [c for c in on_board if inks[c.style.stroke] == k]
        for c, row in zip(mine, spec.rows):
            y = g["y0"] + spec.rows.index(row) * (s + g["gap"])
            assert y < c.y < y + s
            at = state.pos[name][row.number]
            first = g["xX"] - (row.squares - 1) * s
            if at:
                assert first + (at - 1) * s < c.x < first + at * s, (name, row.number, at)
            else:
                assert c.x < first
    assert all(any(t.text == name for t in page.items if isinstance(t, S.Text)) for name in state.players)
