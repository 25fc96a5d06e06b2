"""A verdict written on paper, the same way for every game's `check --render`.

Each finding is marked where it happened (a ring around a place, a field outlined with a
double line, thick and solid inside, thin and dashed outside, a flight traced) in the
finding ink, red, never the values' blue or the pencil grey; the marks survive
black-and-white printing by their shape (double outlines, rings, dashes), and never cover
the digits at fault (no hatching over a field). A short numbered tag sits by each mark,
placed by sheetkit.paper.labels clear of the sheet's own text and of every other tag (with
a leader line when it had to move); where the record has a value for the field at fault
the tag shows it after the number ("3: -2"). The numbered list of findings follows in
black, 9 pt: the full sentences under a drawing, or a short key where the sheet fills the
page and the sentences on a page of their own.

A sheet shows at most MOST_TAGS findings: past a few dozen numbered tags a sheet is red
noise nobody reads, and placing them is the bulk of the work of a checked sheet. The first
findings are marked and listed, and the list ends with how many more there are (every
other output lists them all). `shown` says how many, for every game alike.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Sequence

from sheetkit.messages import text
from sheetkit.paper import labels as L
from sheetkit.paper import scene as S
from sheetkit.paper.measure import fit_size, text_width, wrap
from sheetkit.paper.scene import BLACK, SAFE_MARGIN, Page, Text

RED = "#d40000"  # the finding ink
SIZE = 9.0  # the sentences of the list, black (a reader's text size)
HEAD_PT = 10.0
# Findings one checked sheet marks and lists: this many tags still find room beside their
# places on the busiest sheet (Yuncos, among its own turn numbers), and this many sentences
# of the list, most of them on two lines, fill about one A4 page.
MOST_TAGS = 36

RING = S.Style(stroke=RED, width=0.6)
OUTLINE = S.Style(stroke=RED, width=0.9)  # a field at fault: this thick line on its edge,
DOUBLE = S.Style(stroke=RED, width=0.35, dash=(1.0, 0.6))  # and this dashed one around it
DOUBLE_GAP = 0.75  # mm between the two lines of a field's outline
TRACE = S.Style(stroke=RED, width=0.9, dash=(1.4, 0.7))

Box = L.Box


@dataclass(frozen=True, slots=True)
class Spot:
    """One place where a finding happened: the tag's anchor (x, y) with the ring radius
    kept free around it, and how the place is marked: a ring (the default), a field
    outlined (`cell`, x0 y0 x1 y1: a double line, never hatching over its digits), or a
    traced line (`path`) besides. `value`: what the record holds there, shown in the tag
    after its number; `toward`: the direction (degrees, 0 = east) the tag tries first, or
    with `only` the one it may go."""

    x: float
    y: float
    r: float
    cell: Box | None = None
    path: tuple[tuple[float, float], ...] | None = None
    value: str | None = None
    toward: float | None = None
    only: bool = False  # the tag goes `toward` or nowhere (beside a line of a legend)

    @property
    def anchor(self) -> tuple[float, float]:
        return self.x, self.y


def ring(x: float, y: float, r: float) -> Spot:
    return Spot(x, y, r)


def cell(x: float, y: float, w: float, h: float, value: str | None = None, side: str | None = None) -> Spot:
    """A box of a table or puzzle (x, y, w, h as tables give them); its tag goes by its
    top right corner, outside it (the box and its outline are kept free of tags); with
    `side` "beside", right of it and level with it where there is room (a pad's row: the
    tag is on that row, not on the rule between two); with "line", there or nowhere (a
    line of a legend: the tag is on that line, never between two)."""
    if side:
        return Spot(x + w, y + h / 2, 0.6, cell=(x, y, x + w, y + h), value=value, toward=0.0, only=side == "line")
    return Spot(x + w, y, 0.6, cell=(x, y, x + w, y + h), value=value)


def union(boxes: Iterable[tuple[float, float, float, float]]) -> tuple[float, float, float, float]:
    """The (x, y, w, h) box around several (x, y, w, h) boxes."""
    bs = list(boxes)
    x0, y0 = min(b[0] for b in bs), min(b[1] for b in bs)
    x1, y1 = max(b[0] + b[2] for b in bs), max(b[1] + b[3] for b in bs)
    return x0, y0, x1 - x0, y1 - y0


@dataclass(frozen=True, slots=True)
class Marked:
    """What `mark` drew: the marks, the tags (placed), and which finding each tag names."""

    marks: list[S.Item]
    tags: list[S.Item]
    placement: L.Placement
    numbers: dict[int, list[Spot]]  # finding number (from 1) -> its places


def shown(places: Sequence[Sequence[Spot]]) -> int:
    """How many findings, the first ones, a sheet marks and lists: at most MOST_TAGS of
    them, and no more than MOST_TAGS tags in all (a finding of several places has a tag at
    each). Needs only the number of findings when each has at most one place."""
    k = tags = 0
    for spots in places:
        tags += len(spots)
        if k == MOST_TAGS or tags > MOST_TAGS:
            break
        k += 1
    return k


def _mark_items(spot: Spot) -> list[S.Item]:
    out: list[S.Item] = []
    if spot.path and len(spot.path) > 1:
        out.append(S.Path(spot.path, style=TRACE))
    if spot.cell is not None:
        x0, y0, x1, y1 = spot.cell
        d = DOUBLE_GAP
        out.append(S.Rect(x0, y0, x1 - x0, y1 - y0, style=OUTLINE))
        out.append(S.Rect(x0 - d, y0 - d, x1 - x0 + 2 * d, y1 - y0 + 2 * d, style=DOUBLE))
    elif not spot.path:
        out.append(S.Circle(spot.x, spot.y, spot.r, RING))
    return out


def mark(page: Page, forms: dict[str, S.Form] | None, places: Sequence[Sequence[Spot]],
         obstacles: Iterable[Box] = (), area: Box | None = None) -> Marked:
    """Mark finding number k+1 at each of `places[k]` and tag it with its number, for the
    first `shown(places)` findings. The tags
    keep clear of every text on `page` (its forms' too), of
    `obstacles` (marks without text: stars, chips) and of one another. Nothing is added to
    the page: the caller puts the marks under or over its values and the tags on top."""
    places = places[:shown(places)]
    if not any(places):  # nothing to mark (a legal sheet): no need to measure the page's words
        return Marked([], [], L.Placement((), ()), {})
    marks: list[S.Item] = []
    at: dict[tuple, list] = {}  # each place once: its spot, and the findings (number, value) there
    numbers: dict[int, list[Spot]] = {}
    for k, spots in enumerate(places, 1):
        for spot in spots:
            numbers.setdefault(k, []).append(spot)
            key = (round(spot.x, 1), round(spot.y, 1), spot.cell, spot.path)
            if key not in at:  # several findings at one place: one mark and one tag, "2, 3, 4"
                at[key] = [spot]
                marks += _mark_items(spot)
            if k not in (n for n, _ in at[key][1:]):
                at[key].append((k, spot.value))
    tags: list[L.Tag] = []
    fields_of: dict[int, Box] = {}  # a field's tag (by its index): its field
    for spot, *found in at.values():
        values = {v for _, v in found}
        value = values.pop() if len(values) == 1 else None
        words = ", ".join(str(n) for n, _ in found) + (f": {value}" if value else "")
        tags.append(L.Tag(words, spot.anchor, spot.r, toward=spot.toward, only=spot.only))
        if spot.cell is not None and not spot.only:
            fields_of[len(tags) - 1] = spot.cell
    g = DOUBLE_GAP + 0.2  # a field and both lines of its outline
    fields = {s.cell for spots in places for s in spots if s.cell is not None}
    cells = fields | {(c[0] - g, c[1] - g, c[2] + g, c[3] + g) for c in fields}
    blocked = L.text_boxes(page.items, forms) + list(obstacles) + sorted(cells)
    area = area or L.drawable(page)
    placement = L.place(tags, blocked, area)
    short = {id(t) for t in placement.unplaced if ": " in t.text}
    if short:  # no room for a tag and its value: the number alone (the value is in the box)
        tags = [replace(t, text=t.text.split(": ")[0]) if id(t) in short else t for t in tags]
        placement = L.place(tags, blocked, area)
    stuck = {id(t) for t in placement.unplaced}
    if any(id(t) in stuck for k, t in enumerate(tags) if k in fields_of):
        # no room by the field's top right corner (a row across the table between two other
        # rows at fault): by its top left one, beside the row's name, before it is only listed
        tags = [replace(t, anchor=fields_of[k][:2], toward=None) if id(t) in stuck and k in fields_of else t
                for k, t in enumerate(tags)]
        placement = L.place(tags, blocked, area)
    left = {id(t) for t in placement.unplaced}
    stuck = [(t, fields_of[k]) for k, t in enumerate(tags) if k in fields_of and id(t) in left]
    if stuck:
        placement = _inside_fields(placement, stuck, blocked, cells, area)
    return Marked(marks, L.items(placement, RED), placement, numbers)


def _inside_fields(placement: L.Placement, stuck: list, blocked: list, cells: set, area: Box) -> L.Placement:
    """The tags still without room whose field lies inside another finding's outlined field
    (a box of a row at fault): placed again with that outline open to them (a tag inside
    it, or a leader across it), clear of the tags placed and their leaders, rather than
    only listed on the findings page."""
    taken = [L._grow(p.box, L.CLEAR) for p in placement.placed]
    taken += [(min(a, c), min(b, d), max(a, c), max(b, d)) for p in placement.placed if p.leader
              for a, b, c, d in [p.leader]]
    tags = []
    open_ = set()
    for t, (x0, y0, x1, y1) in stuck:
        # the outlines it lies in (another field's, and that one grown by its double line)
        around = {c for c in cells if c[0] < x0 and c[1] < y0 and x1 < c[2] and y1 < c[3]}
        if around:
            tags.append(t)
            open_ |= around
    if not tags:
        return placement
    more = L.place(tags, [b for b in blocked if b not in open_] + taken, area)
    return L.Placement(placement.placed + more.placed,
                       tuple(t for t in placement.unplaced if not any(t is u for u in tags)) + more.unplaced,
                       placement.tried + more.tried, placement.compared + more.compared,
                       placement.taken + more.taken)


def sentence(f, lang: str = "en") -> str:
    """A finding as a player reads it: where, what and what to do, then its rule named in
    words ("rule Y4"), never a bare rule id."""
    from sheetkit.checking.verdict import WARNING

    warn = text("status.warning", lang) + ": " if f.severity == WARNING else ""
    return f"{warn}{f.where_in(lang)}: {f.message_in(lang)} ({text('checked.rule', lang, rule=f.rule)})"


def numbered(findings, lang: str = "en", count: int | None = None) -> list[str]:
    """The list under a sheet: each of the first `count` findings (MOST_TAGS unless the
    caller's `shown` says fewer) with its tag's number, then how many more there are."""
    count = min(len(findings), MOST_TAGS if count is None else count)
    out = [f"{k}. {sentence(f, lang)}" for k, f in enumerate(findings[:count], 1)]
    if len(findings) > count:
        out.append(text("checked.and_more", lang, n=len(findings) - count))
    return out


def key(findings, lang: str = "en", count: int | None = None) -> list[str]:
    """The short key of the tags: number and place, for the first page (the first `count`
    findings, as `numbered`; the rules are named in the sentences)."""
    count = min(len(findings), MOST_TAGS if count is None else count)
    return [f"{k} {f.where_in(lang)}" for k, f in enumerate(findings[:count], 1)]


def write_key(items: list[S.Item], x: float, y: float, width: float, lines: int, entries: list[str],
              more: str, size: float = 7.0) -> int:
    """The key's entries, " · " between them, on at most `lines` lines of `width` mm from
    baseline y (3.2 mm apart); what does not fit ends in `more`. Returns the lines used."""
    sep = "  ·  "
    rows: list[str] = [""]
    for k, e in enumerate(entries):
        cand = (rows[-1] + sep + e) if rows[-1] else e
        if text_width(cand, size) <= width:
            rows[-1] = cand
            continue
        if len(rows) < lines:
            rows.append(e)
            continue
        rows[-1] = rows[-1] + sep + more  # the rest is on the findings page
        while text_width(rows[-1], size) > width and sep in rows[-1][:-len(sep + more)]:
            head = rows[-1][:-len(sep + more)].rsplit(sep, 1)[0]
            rows[-1] = head + sep + more
        break
    for i, r in enumerate(rows):
        items.append(Text(x, y + i * 3.2, r, size=size, color=BLACK))
    return len(rows)


def list_findings(pages: list[Page], y: float, head: str, findings, color: str = BLACK,
                  margin: float = SAFE_MARGIN, lang: str = "en", count: int | None = None) -> None:
    """Write `head` at `y` on the last page, then each finding below it, numbered as its
    tag on the sheet (continuation lines indented), the first `count` of them (as
    `numbered`), in black at SIZE points; a new page of the same size whenever one is
    full. `color` is the head's (the sentences are always black)."""
    width, height = pages[-1].width, pages[-1].height
    text_w = width - 2 * margin
    entries = [wrap(line_, text_w - 5, SIZE) for line_ in numbered(findings, lang, count)]
    need = 1.0 + sum(4.4 + 3.7 * (len(e) - 1) for e in entries)
    pages[-1].items.append(Text(margin, y, head, size=fit_size(head, text_w, HEAD_PT, True, 7.0), bold=True,
                                color=color))
    if entries and y + need > height - margin - 2 and margin + 10 + need <= height - margin - 2:
        # the list fits on a page of its own, not here: all of it on page 2, never split
        pages[-1].items.append(Text(margin, y + 4.4, text("checked.more", lang), size=SIZE, color=color))
        pages.append(Page(width, height, [Text(margin, margin + 4, head, size=fit_size(head, text_w, HEAD_PT, True,
                                                                                       7.0), bold=True, color=color)]))
        y = margin + 4
    y += 1.0
    for wrapped in entries:
        for k, line in enumerate(wrapped):
            y += 4.4 if k == 0 else 3.7
            if y > height - margin - 2:
                more = text("status.continued", lang, head=head)
                pages.append(Page(width, height, [Text(margin, margin + 4, more,
                                                       size=fit_size(more, text_w, HEAD_PT, True, 7.0),
                                                       bold=True, color=color)]))
                y = margin + 10
            pages[-1].items.append(Text(margin + (5 if k else 0), y, line, size=SIZE, color=BLACK))
