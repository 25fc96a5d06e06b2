"""`sheetkit check --render`: the sheet with its transcription and the findings on it.

The path in pencil grey with every turn's end marked and numbered (the numbers placed
clear of the stars' letters and every printed mark), the numbers in their boxes, the
marked boxes crossed, the dice and the score written in, and every finding marked in red
where it happened with a numbered tag (sheetkit.paper.annotate): a box outlined (a
double line, clear of its digits), a vertex ringed, a turn's flight traced on the map. Positions come from the sheet's own SheetGeometry, so
the drawing lands exactly on the printed boxes.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from sheetkit.memo import Memo
from sheetkit.messages import text
from sheetkit.paper import annotate
from sheetkit.paper import labels as L
from sheetkit.paper import scene as S
from sheetkit.paper.scene import SAFE_MARGIN
from sheetkit.games.yuncos.layout import vertex_name

PENCIL = "#6e6e6e"

PATH = S.Style(stroke=PENCIL, width=0.6)
MARK = S.Style(stroke=PENCIL, width=0.45)
DOT = S.Style(stroke=None, fill=PENCIL)
LEADER = S.Style(stroke=PENCIL, width=0.2)
TURN_PT = 6.0  # the turn numbers on the map: the smallest text sheetkit prints


# The items below are S.kept: the page draws the sheet again at every move, the same items
# for every turn before the last one.

@functools.lru_cache(maxsize=1 << 10)
def _cross(box) -> tuple[S.Item, ...]:
    x, y, w, h = box
    m = min(w, h) * 0.18
    return (S.kept(S.Line, x + m, y + m, x + w - m, y + h - m, MARK),
            S.kept(S.Line, x + w - m, y + m, x + m, y + h - m, MARK))


def _number(box, value, size: float = 12.0) -> S.Text:
    return _written(box, str(value), size)


@functools.lru_cache(maxsize=1 << 12)
def _written(box, text: str, size: float) -> S.Text:
    x, y, w, h = box
    return S.kept(S.Text, x + w / 2, y + h / 2 + size * 0.125, text, size=size, anchor="middle", color=PENCIL)


def _ability_box(g, box_id: str):
    if box_id.startswith("nest"):
        row, k = box_id[4:].split(".")
        return g.nest_ability(int(row) - 1, int(k) - 1)
    if box_id.startswith("lum"):
        return g.lum_ability(int(box_id[3:]) - 1)
    return g.fish_ability(int(box_id[4:]) - 1)


def _cell_box(g, name: str):
    base, _, idx = name.partition(".")
    i = int(idx) - 1 if idx else 0
    if base.startswith("nest"):
        return g.nest_box(int(base[4:]) - 1, i)
    return g.lum_box(int(base[3:]) - 1, i)


def line_boxes(pts, half: float = 0.35, step: float = 0.6) -> list[tuple[float, float, float, float]]:
    """Small boxes covering the polyline `pts`: a line that no number may sit on."""
    import math

    out = []
    for a, b in zip(pts, pts[1:]):
        n = max(1, math.ceil(math.hypot(b[0] - a[0], b[1] - a[1]) / step))
        for k in range(n + 1):
            x, y = a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n
            out.append((x - half, y - half, x + half, y + half))
    return out


@functools.lru_cache(maxsize=1 << 12)
def _gapped(pts: tuple, gaps: tuple, r: float, style: S.Style) -> tuple[S.Path, ...]:
    """The polyline `pts` broken off within `r` of every point of `gaps` (the stars): a
    flight drawn through a star would hide its letter or shape."""
    import math

    out, cur = [], [pts[0]] if pts[0] not in gaps else []
    for a, b in zip(pts, pts[1:]):
        d = math.hypot(b[0] - a[0], b[1] - a[1])
        if d == 0:
            continue
        ux, uy = (b[0] - a[0]) / d, (b[1] - a[1]) / d
        if a in gaps:  # leaving a star: start clear of it
            cur = [(a[0] + ux * r, a[1] + uy * r)]
        if b in gaps:  # reaching a star: stop short of it
            cur.append((b[0] - ux * r, b[1] - uy * r))
            out.append(cur)
            cur = []
        else:
            cur.append(b)
    out.append(cur)
    return tuple(S.kept(S.Path, tuple(p), style=style) for p in out if len(p) > 1)


def icon_boxes(spec, g) -> list[tuple[float, float, float, float]]:
    """The map's own marks that nothing may cover: stars (their letter or shape), fish,
    lights and start points, each as the square box around it."""
    b, sq = spec.board, g.square
    out = []
    for vs, r in ((b.stars, sq * 0.42), (b.fish, sq * 0.38), (b.lights, sq * 0.3),
                  (b.starts.values(), max(sq * 0.26, 2.0))):
        for v in vs:
            x, y = g.vertex(v)
            out.append((x - r, y - r, x + r, y + r))
    return out


@dataclass(frozen=True)
class _Blank:
    """A level's blank sheet, composed once: the page draws every move over it."""

    scene: S.Scene
    top: float  # mm: where the sheet begins on the page
    fixed: object  # what no turn number may cover: its printed words, the map's marks and frame (labels.indexed)
    segments: L.Groups  # the map's segments a flight took, each covered by its line boxes


_BLANKS = Memo(32)  # a level's layout, the paper and the language -> its _Blank


def _blank(layout, paper: str, lang: str) -> _Blank:
    return _BLANKS.kept((str(layout.path), layout.version, paper, lang), (), lambda: _composed(layout, paper, lang))


def _composed(layout, paper: str, lang: str) -> _Blank:
    from sheetkit.games.yuncos.compose import compose, sheet_geometry

    scene = compose(layout, paper, lang)
    page = scene.pages[0]
    spec, g = layout.spec, sheet_geometry(layout.spec, paper)
    x0, y0 = g.vertex((0, 0))
    x1, y1 = g.vertex((spec.board.width - 1, spec.board.height - 1))
    frame = line_boxes([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)])
    fixed = L.indexed(L.text_boxes(page.items, scene.forms) + icon_boxes(spec, g) + frame)
    return _Blank(scene, S.bounds(page.items, scene.forms)[1], fixed, L.Groups())


_TURN_NUMBERS = Memo(256)  # a drawing's turn numbers, by its blank sheet, marks and flight -> their Placement


def _segments(paths) -> tuple:
    """Each segment of the map the flight takes, once, in the order flown: a flight that
    goes over its own track covers no more of the sheet, so the obstacles are bounded by the
    map, not by the length of the record."""
    return tuple(dict.fromkeys((min(a, b), max(a, b)) for pts in paths for a, b in zip(pts, pts[1:]) if a != b))


def _turn_numbers(blank: _Blank, g, page, flights: "_Flights", abilities: list) -> L.Placement:
    """The turn numbers placed clear of the sheet's words and marks (indexed with the blank
    sheet), of the flight and of each other; gone on from the drawing one turn earlier
    when it was made (the page draws the sheet again at every move), which places them
    exactly as from nothing (labels.place). A segment of the map is indexed with the blank
    sheet the first time a flight takes it. Kept by the very flights too (_flights keeps
    them), so that the page finds them again without hashing every turn's number."""
    abilities = tuple(abilities)
    got = _TURN_NUMBERS.get(abilities, (blank, flights))
    if got is not None:
        return got
    ends, paths = list(flights.tags), flights.paths
    segments = _segments(paths)
    key = (tuple(ends), abilities, segments)
    got = _TURN_NUMBERS.get(key, (blank,))
    if got is None:
        before = _TURN_NUMBERS.get((tuple(ends[:-1]), abilities, _segments(paths[:-1])), (blank,))
        lines = blank.segments.using({(u, v): functools.partial(line_boxes, [g.vertex(u), g.vertex(v)])
                                      for u, v in segments})
        got = _TURN_NUMBERS.put(key, (blank,), L.place(ends, abilities, L.drawable(page), base=(blank.fixed, lines),
                                                       after=before))
    return _TURN_NUMBERS.put(abilities, (blank, flights), got)


_NUMBERS_DRAWN = Memo(256)  # a Placement of the turn numbers and their size -> their items


def _numbers_drawn(turns: L.Placement) -> tuple[S.Item, ...]:
    """The turn numbers' items: each in the box it was placed in (a leader to it when it
    sits away from its turn's end), or beside its dot when there was no room at all."""
    got = _NUMBERS_DRAWN.get(TURN_PT, (turns,))
    if got is not None:
        return got
    items: list[S.Item] = []
    for p in turns.placed:
        x0, y0, x1, y1 = p.box
        if p.leader:
            items.append(S.kept(S.Line, *p.leader, style=LEADER))
        items.append(S.kept(S.Text, (x0 + x1) / 2, (y0 + y1) / 2 + 0.36 * TURN_PT * 25.4 / 72, p.tag.text,
                            size=TURN_PT, anchor="middle", color=PENCIL))
    for t in turns.unplaced:  # no free space at all: beside the dot, as before
        items.append(S.Text(t.anchor[0] + 1.2, t.anchor[1] - 1.0, t.text, size=TURN_PT, color=PENCIL))
    return _NUMBERS_DRAWN.put(TURN_PT, (turns,), tuple(items))


@dataclass(frozen=True)
class _Flights:
    """What a sheet's turns draw by themselves, turn by turn."""

    paths: tuple  # each turn's vertices, its start first (a `from` jump starts it anew)
    lines: tuple[S.Path, ...]  # the flights, broken off at the stars
    ends: tuple[S.Circle, ...]  # each turn's end: a dot, or a ring around the star it ends on
    tags: tuple[L.Tag, ...]  # each turn's number, to be placed
    dice: tuple[S.Text, ...]  # the dice written in the log


_FLIGHTS = Memo(256)  # a sheet's level, the paper, its start, the numbers' size and its very turns -> their _Flights


def _flights(record, g, paper: str) -> _Flights:
    """The _Flights of a record's turns; made from those of its turns but the last when
    they are kept (the page draws the sheet again at every move, one turn more)."""
    spec, turns = record.spec, record.turns
    key = (paper, record.start, TURN_PT)  # the numbers' size too: a lint or test may set another
    got = _FLIGHTS.get(key, (spec, *turns))
    if got is not None:
        return got
    done = _FLIGHTS.get(key, (spec, *turns[:-1])) if turns else None
    if done is None:
        done = _Flights((), (), (), (), ())
        todo = turns
    else:
        todo = turns[-1:]
    board = spec.board
    star_r = g.square * 0.42 + 0.5
    gaps = tuple(g.vertex(v) for v in board.stars)
    paths, lines, ends, tags, dice = (list(x) for x in (done.paths, done.lines, done.ends, done.tags, done.dice))
    pos = paths[-1][-1] if paths else record.start
    for turn in todo:
        if turn.start_at is not None:
            pos = turn.start_at
        pts = [pos]
        for dx, dy in turn.steps:
            pos = (pos[0] + dx, pos[1] + dy)
            pts.append(pos)
        paths.append(tuple(pts))
        lines += _gapped(tuple(g.vertex(v) for v in pts), gaps, star_r * 0.55, PATH)
        x, y = g.vertex(pts[-1])
        on_star = pts[-1] in board.stars
        ends.append(S.kept(S.Circle, x, y, star_r, MARK) if on_star else S.kept(S.Circle, x, y, 0.9, DOT))
        tags.append(L.Tag(str(len(paths)), (x, y), star_r if on_star else 0.9, size=TURN_PT))
        if turn.dice and turn.number <= spec.dice_log:
            dice += [_number(g.dice_box(turn.number, which), d, size=9) for which, d in enumerate(turn.dice)]
    made = _Flights(tuple(paths), tuple(lines), tuple(ends), tuple(tags), tuple(dice))
    return _FLIGHTS.put(key, (spec, *turns), made)


def overlay(record, checked, paper: str, lang: str = "en"):
    """A one-page Scene (and the findings in full on a page of their own): the sheet level
    of the record with everything written on it."""
    from sheetkit.games.yuncos.compose import sheet_geometry

    spec = record.spec
    blank = _blank(record.layout, paper, lang)
    scene = S.copied(blank.scene)
    page = scene.pages[0]
    sheet_top = blank.top
    g = sheet_geometry(spec, paper)
    rep, verdict = checked.state, checked.verdict
    abilities = [(x, y, x + w, y + h) for x, y, w, h in (_ability_box(g, b.id) for b in rep.boxes)]  # their drawn signs
    icons = icon_boxes(spec, g) + abilities
    items: list[S.Item] = []

    # The flight, turn by turn; a turn's end is a dot, or a ring around a star it ends on
    # (a dot would hide the star's letter); its number is placed clear of every mark.
    flights = _flights(record, g, paper)
    paths = flights.paths
    star_r = g.square * 0.42 + 0.5
    gaps = tuple(g.vertex(v) for v in spec.board.stars)
    items += flights.lines
    under = len(items)  # the findings' marks go here: over the flight, under every number
    sx, sy = g.vertex(record.start)
    items.append(S.kept(S.Circle, sx, sy, 1.6, MARK))
    items += flights.ends
    items += _numbers_drawn(_turn_numbers(blank, g, page, flights, abilities))

    # Puzzles, counters, abilities, dice.
    for row, line in enumerate(rep.nests):
        for i, v in enumerate(line):
            if v is not None:
                items.append(_number(g.nest_box(row, i), v))
    for col, line in enumerate(rep.lums):
        for lvl, v in enumerate(line):
            if v is not None:
                items.append(_number(g.lum_box(col, lvl), v))
    model = record.model
    for i in range(model.fish_marked):
        items.extend(_cross(g.fish_box(i)))
    for i in range(model.crashes_marked):
        items.extend(_cross(g.crash_box(i)))
    crossed = model.used if model.used is not None else [b.id for b in rep.boxes if b.used is not None]
    for box_id in crossed:
        items.extend(_cross(_ability_box(g, box_id)))
    items += flights.dice

    # The score, as the sheet shows it.
    score = verdict.scores[0]
    for name, pts in score.parts:  # the sheet prints the minus before the crashes box
        items.append(_number(g.score_box(name), abs(pts) if name == "crashes" else pts, size=11))
    items.append(_number(g.score_box("total"), score.total, size=11))
    page.items.extend(items)

    # Findings: marked where they happened, numbered; the key above the sheet.
    places = [_places(f, g, record, paths, rep) for f in verdict.findings]
    marked = annotate.mark(page, scene.forms, places, icons)  # a tag's white box may cross a pencil line
    count = annotate.shown(places)  # the findings marked, and listed: the first few dozen
    at = len(page.items) - len(items) + under
    page.items[at:at] = [m for it in marked.marks
                         for m in (_gapped(it.points, gaps, star_r * 0.55, it.style) if isinstance(it, S.Path) else [it])]
    page.items.extend(marked.tags)
    game = "Yuncos · " + scene.title.rsplit(": ", 1)[-1]  # the game and level, not the record's file
    head = text("checked.head_yuncos", lang, game=game, status=verdict.status(lang), total=score.total,
                start=vertex_name(record.start), turns=len(record.turns))
    colour = S.BLACK
    top = SAFE_MARGIN + 2.5
    if sheet_top - 4.0 >= top:  # above the sheet where the paper leaves room (A4)
        page.items.append(S.Text(g.ox, top, head, size=7, bold=True, color=colour))
        lines = int((sheet_top - 4.0 - top) // 3.2)
        if verdict.findings and lines:
            annotate.write_key(page.items, g.ox, top + 3.4, page.width - 2 * g.ox, lines,
                               annotate.key(verdict.findings, lang, count), text("checked.more", lang))
    page.stamp = None  # an overlay is one drawing, not a numbered copy
    if verdict.findings:  # the sheet has no room for sentences: they follow on a page of their own
        scene.pages.append(S.Page(page.width, page.height, []))
        annotate.list_findings(scene.pages, SAFE_MARGIN + 8, head, verdict.findings, color=colour, lang=lang,
                               count=count)
    scene.title = text("checked.title", lang, title=scene.title)
    return scene


def _cell_value(rep, name: str) -> str | None:
    base, _, idx = name.partition(".")
    i = int(idx) - 1 if idx else 0
    try:
        line = rep.nests[int(base[4:]) - 1] if base.startswith("nest") else rep.lums[int(base[3:]) - 1]
        v = line[i]
    except (IndexError, ValueError):
        return None
    return None if v is None else str(v)


def _places(f, g, record, paths, rep=None) -> list[annotate.Spot]:
    """Where a finding is marked on the sheet: its box (outlined, the value beside it), its
    vertex on the map (ringed), or, for a finding of a turn, that turn's flight traced on
    the map and the turn's dice in the log; a turn that should not be on the sheet (Y21):
    its flight, not the point it reached."""
    at = f.at
    if "cell" in at:
        return [annotate.cell(*_cell_box(g, at["cell"]), value=rep and _cell_value(rep, at["cell"]))]
    if "box" in at and isinstance(at["box"], str):
        return [annotate.cell(*_ability_box(g, at["box"]))]
    if at.get("counter") == "fish":
        n = len(record.spec.fish.values)
        return [annotate.cell(*g.fish_box(min(max(at.get("box", 1), 1), n) - 1))]
    if at.get("counter") == "crashes":
        return [annotate.cell(*g.crash_box(min(max(at.get("box", 1), 1), 6) - 1))]
    if "score" in at:
        return [annotate.cell(*g.score_box(at["score"]))]
    board = record.spec.board

    def on_sheet(v):  # a point a flight reached off the map: ring the map's edge beside it
        return g.vertex((min(max(v[0], 0), board.width - 1), min(max(v[1], 0), board.height - 1)))

    if "vertex" in at and f.rule != "Y21":
        return [annotate.ring(*on_sheet(at["vertex"]), 2.5)]
    t = at.get("turn", 0)
    out = []
    if 1 <= t <= len(paths):
        pts = tuple(on_sheet(v) for v in paths[t - 1])
        if len(pts) > 1:
            mid = pts[len(pts) // 2]
            out.append(annotate.Spot(mid[0], mid[1], 0.6, path=pts))
        else:
            out.append(annotate.ring(*pts[0], 2.5))
    if "dice" in at and 1 <= t <= record.spec.dice_log:
        out.append(annotate.cell(*annotate.union([g.dice_box(t, 0), g.dice_box(t, 1)])))
    return out  # none: a finding of the whole sheet, in the list only
