"""A verdict written on paper, the same way for every game's `check --render`.

Each finding is marked where it happened (a ring around a place, a cell outlined and
hatched, a flight traced) in the finding ink, red, never the values' blue or the pencil
grey; the marks survive black-and-white printing by their shape (thick outlines, hatching,
dashes). A short numbered tag sits by each mark, placed by sheetkit.paper.labels clear of
the sheet's own text and of every other tag (with a leader line when it had to move), and
the numbered list of findings follows on the page: the full sentences under a drawing, or a
short key where the sheet fills the page and the sentences on a page of their own.

A sheet shows at most MOST_TAGS findings: past a few dozen numbered tags a sheet is red
noise nobody reads, and placing them is the bulk of the work of a checked sheet. The first
findings are marked and listed, and the list ends with how many more there are (every
other output lists them all). `shown` says how many, for every game alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from sheetkit.checking.messages import text
from sheetkit.paper import labels as L
from sheetkit.paper import scene as S
from sheetkit.paper.measure import fit_size, text_width, wrap
from sheetkit.paper.scene import BLACK, SAFE_MARGIN, Page, Text

RED = "#d40000"  # the finding ink
SIZE = 7.5
# Findings one checked sheet marks and lists: this many tags still find room beside their
# places on the busiest sheet (Yuncos, among its own turn numbers), and this many sentences
# of the list, most of them on two lines, fill about one A4 page.
MOST_TAGS = 36

RING = S.Style(stroke=RED, width=0.6)
OUTLINE = S.Style(stroke=RED, width=0.9)
HATCH = S.Style(stroke=RED, width=0.2)
TRACE = S.Style(stroke=RED, width=0.9, dash=(1.4, 0.7))

Box = L.Box


@dataclass(frozen=True, slots=True)
class Spot:
    """One place where a finding happened: the tag's anchor (x, y) with the ring radius
    kept free around it, and how the place is marked: a ring (the default), a cell
    outlined and hatched (`cell`, x0 y0 x1 y1), or a traced line (`path`) besides."""

    x: float
    y: float
    r: float
    cell: Box | None = None
    path: tuple[tuple[float, float], ...] | None = None
    hatch: bool = True  # a cell's hatching (not over a board's own patterns)

    @property
    def anchor(self) -> tuple[float, float]:
        return self.x, self.y


def ring(x: float, y: float, r: float) -> Spot:
    return Spot(x, y, r)


def cell(x: float, y: float, w: float, h: float, hatch: bool = True) -> Spot:
    """A box of a table or puzzle (x, y, w, h as tables give them); its tag goes by its
    top right corner, outside it (the box is kept free of tags)."""
    return Spot(x + w, y, 0.6, cell=(x, y, x + w, y + h), hatch=hatch)


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
        if spot.hatch:
            out += S.hatch(x0, y0, x1 - x0, y1 - y0, 1.6, 45.0, HATCH)
        out.append(S.Rect(x0, y0, x1 - x0, y1 - y0, style=OUTLINE))
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
    marks: list[S.Item] = []
    seen: set[tuple] = set()
    tags: list[L.Tag] = []
    numbers: dict[int, list[Spot]] = {}
    for k, spots in enumerate(places, 1):
        for spot in spots:
            numbers.setdefault(k, []).append(spot)
            key = (round(spot.x, 1), round(spot.y, 1), spot.cell, spot.path, spot.hatch)
            if key not in seen:  # several findings at one place: one mark, a tag each
                seen.add(key)
                marks += _mark_items(spot)
            tags.append(L.Tag(str(k), spot.anchor, spot.r))
    cells = {s.cell for spots in places for s in spots if s.cell is not None}
    blocked = L.text_boxes(page.items, forms) + list(obstacles) + sorted(cells)
    placement = L.place(tags, blocked, area or L.drawable(page))
    return Marked(marks, L.items(placement, RED), placement, numbers)


def numbered(findings, lang: str = "en", count: int | None = None) -> list[str]:
    """The list under a sheet: each of the first `count` findings (MOST_TAGS unless the
    caller's `shown` says fewer) with its tag's number, then how many more there are."""
    count = min(len(findings), MOST_TAGS if count is None else count)
    out = [f"{k}. {f.line(lang)}" for k, f in enumerate(findings[:count], 1)]
    if len(findings) > count:
        out.append(text("checked.and_more", lang, n=len(findings) - count))
    return out


def key(findings, lang: str = "en", count: int | None = None) -> list[str]:
    """The short key of the tags: number, rule id and place, for the first page (the first
    `count` findings, as `numbered`)."""
    count = min(len(findings), MOST_TAGS if count is None else count)
    return [f"{k} {f.rule} {f.where_in(lang)}" for k, f in enumerate(findings[:count], 1)]


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
        items.append(Text(x, y + i * 3.2, r, size=size, color=RED))
    return len(rows)


def list_findings(pages: list[Page], y: float, head: str, findings, color: str = BLACK,
                  margin: float = SAFE_MARGIN, lang: str = "en", count: int | None = None) -> None:
    """Write `head` at `y` on the last page, then each finding below it, numbered as its
    tag on the sheet (continuation lines indented), the first `count` of them (as
    `numbered`); a new page of the same size whenever one is full."""
    width, height = pages[-1].width, pages[-1].height
    text_w = width - 2 * margin
    pages[-1].items.append(Text(margin, y, head, size=fit_size(head, text_w, 9.0, True), bold=True, color=color))
    for line_ in numbered(findings, lang, count):
        for k, line in enumerate(wrap(line_, text_w - 5, SIZE)):
            y += 4.2 if k == 0 else 3.2
            if y > height - margin - 2:
                more = text("status.continued", lang, head=head)
                pages.append(Page(width, height, [Text(margin, margin + 4, more, size=fit_size(more, text_w, 9.0, True),
                                                       bold=True, color=color)]))
                y = margin + 10
            pages[-1].items.append(Text(margin + (5 if k else 0), y, line, size=SIZE, color=color))
