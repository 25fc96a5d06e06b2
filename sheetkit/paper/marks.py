"""Printer's marks shared by every layout: the scale check and its "print at actual size"
line, rulers, crop marks. Drawn in millimetres like the rest of a scene; the few words
they carry come from the message catalogues, in both languages of the sheets.
"""

from __future__ import annotations

from functools import lru_cache

from sheetkit.paper.scene import BLACK, Item, Line, Rect, Style, Text

GREY = "#555555"
BAR = 50.0  # mm: the scale check's length

def words(lang: str, key: str, **kw) -> str:
    """The printer's words, from the message catalogues (`print.<key>`)."""
    from sheetkit.messages import text

    return text(f"print.{key}", lang, **kw)


def scale_bar(x: float, y: float, length: float = BAR) -> list[Item]:
    """A black bar `length` mm long with a tick every 10 mm; (x, y) is its top-left corner.
    About 4 mm tall, ticks included."""
    items: list[Item] = [Rect(x, y + 1, length, 1.6, Style(stroke=None, fill=BLACK))]
    for k in range(int(length // 10) + 1):
        items.append(Line(x + 10 * k, y, x + 10 * k, y + 3.6, Style(width=0.25)))
    return items


def scale_check(x: float, y: float, lang: str, width: float = BAR, label: str | None = None,
                actual: str | None = None) -> list[Item]:
    """The 50 mm bar with its label above and the "print at actual size" line below, at
    most `width` mm wide (the text shrinks to fit, never below 6 pt): 11 mm tall, (x, y) the
    top-left corner of the label. `label`, `actual`: shorter words for a tight spot."""
    from sheetkit.paper.measure import fit_size

    bar, actual = label or words(lang, "bar"), actual or words(lang, "actual")
    w = max(width, BAR)
    return ([Text(x, y + 2.2, bar, size=fit_size(bar, w, 6.5, min_pt=6), color=GREY)]
            + scale_bar(x, y + 3.2)
            + [Text(x, y + 10.4, actual, size=fit_size(actual, w, 6.5, True, min_pt=6), bold=True)])


SCALE_CHECK_H = 11.0


def scale_square(x: float, y: float, size: float, lang: str, width: float) -> list[Item]:
    """For a narrow spot: a ruled square `size` mm a side (a tick every 5 mm inside two
    edges, its size written in it) with the "print at actual size" line wrapped below it,
    in a column `width` mm wide. (x, y): the square's top-left corner."""
    from sheetkit.paper.measure import wrap

    items: list[Item] = [Rect(x, y, size, size, Style(width=0.25))]
    for k in range(5, int(size), 5):
        items.append(Line(x + k, y + size, x + k, y + size - 1.5, Style(width=0.2)))
        items.append(Line(x, y + k, x + 1.5, y + k, Style(width=0.2)))
    items.append(Text(x + size / 2, y + size / 2 + 1, f"{size:g} mm", size=6.5, bold=True, anchor="middle"))
    for n, line in enumerate(wrap(words(lang, "actual_short"), width, 6, True)):
        items.append(Text(x, y + size + 3 + n * 2.5, line, size=6, bold=True))
    return items


def ruler(x: float, y: float, length: float, vertical: bool = False, label_every: int = 10) -> list[Item]:
    """A millimetre ruler `length` mm long from (x, y): ticks every mm (taller every 5 and
    10), centimetre numbers. Horizontal ticks hang down from y; vertical ones go right of x."""
    thin, thick = Style(width=0.12), Style(width=0.25)
    items: list[Item] = []
    n = int(round(length))
    for k in range(n + 1):
        t = 4.0 if k % 10 == 0 else 2.6 if k % 5 == 0 else 1.6
        st = thick if k % 10 == 0 else thin
        if vertical:
            items.append(Line(x, y + k, x + t, y + k, st))
            if k % label_every == 0:
                items.append(Text(x + 5, y + k + 1.0, str(k // 10), size=6.5))
        else:
            items.append(Line(x + k, y, x + k, y + t, st))
            if k % label_every == 0:
                items.append(Text(x + k, y + 7, str(k // 10), size=6.5, anchor="middle"))
    if vertical:
        items.append(Line(x, y, x, y + length, thick))
    else:
        items.append(Line(x, y, x + length, y, thick))
    return items


CROP = Style(stroke=BLACK, width=0.2)


def crop_marks(trim: tuple[float, float, float, float], gap: float, length: float = 5.0,
               cuts_x: tuple[float, ...] = (), cuts_y: tuple[float, ...] = ()) -> list[Item]:
    """Crop marks around the cut area `trim` (x, y, w, h): short lines on the extension of
    each cut, starting `gap` mm outside it (beyond any bleed) so no mark is left on a cut
    piece. `cuts_x`, `cuts_y`: the inner cut lines (between pieces), marked the same way."""
    x, y, w, h = trim
    xs = (x, *cuts_x, x + w)
    ys = (y, *cuts_y, y + h)
    items: list[Item] = []
    for cx in xs:
        items.append(Line(cx, y - gap - length, cx, y - gap, CROP))
        items.append(Line(cx, y + h + gap, cx, y + h + gap + length, CROP))
    for cy in ys:
        items.append(Line(x - gap - length, cy, x - gap, cy, CROP))
        items.append(Line(x + w + gap, cy, x + w + gap + length, cy, CROP))
    return items


# --- registration squares ----------------------------------------------------------------
# A photo of a filled sheet is laid over its blank by four solid black squares and the QR
# code (sheetkit read). Solid black is never a box to fill in, and 3.6 mm of it with paper
# around survives a phone's blur and low resolution. Each square goes in the free spot of
# the page nearest a target (a corner of what is read), so it overlaps nothing whatever the
# layout draws there.

REG_MARK = 3.6  # mm: a registration square's side
REG_CLEAR = 2.0  # mm of paper kept around it


def occupied(items: list[Item], forms=None) -> list[tuple[float, float, float, float]]:
    """The extent (x0, y0, x1, y1) of each item drawn."""
    from sheetkit.paper.scene import bounds

    out = []
    for it in items:
        b = bounds([it], forms)
        if b is not None:
            out.append(b)
    return out


def registration_marks(taken: list[tuple[float, float, float, float]], width: float, height: float,
                       targets: list[tuple[float, float]], size: float = REG_MARK, clear: float = REG_CLEAR,
                       margin: float | None = None, step: float = 0.5) -> tuple[tuple[float, float, float], ...]:
    """One square (x, y, size) per target point: the one whose centre is nearest the target
    among those `clear` mm clear of every box in `taken`, of the squares chosen before and
    inside the printer's margin. A target with no free spot within 80 mm gets none: the
    caller's layout is too full (ValueError)."""
    from sheetkit.paper.scene import SAFE_MARGIN

    m = SAFE_MARGIN if margin is None else margin
    boxes = list(taken)
    out = []
    for tx, ty in targets:
        near = [b for b in boxes if b[0] - clear < tx + 90 and b[2] + clear > tx - 90
                and b[1] - clear < ty + 90 and b[3] + clear > ty - 90]
        best = None
        for d in range(int(80 / step) + 1):  # ring by ring outwards; in a ring, the nearest first
            # the ring's four sides, each with the boxes that may come near a square on it
            # (x and y grow with i and j: a box clear of a side's ends is clear of all of it)
            xl, xr = tx + -d * step - size / 2, tx + d * step - size / 2
            yt, yb = ty + -d * step - size / 2, ty + d * step - size / 2
            sides = {side: [b for b in near if x0 - clear < b[2] and b[0] < x1 + size + clear
                            and y0 - clear < b[3] and b[1] < y1 + size + clear]
                     for side, (x0, x1, y0, y1) in (("left", (xl, xl, yt, yb)), ("right", (xr, xr, yt, yb)),
                                                    ("top", (xl, xr, yt, yt)), ("bottom", (xl, xr, yb, yb)))}
            for i, j in _ring(d):
                x, y = tx + i * step - size / 2, ty + j * step - size / 2
                if x < m or y < m or x + size > width - m or y + size > height - m:
                    continue
                side = "left" if i == -d else "right" if i == d else "top" if j == -d else "bottom"
                if any(x - clear < b[2] and b[0] < x + size + clear and y - clear < b[3]
                       and b[1] < y + size + clear for b in sides[side]):
                    continue
                best = (round(x, 2), round(y, 2), size)
                break
            if best is not None:
                break
        if best is None:
            raise ValueError(f"no room for a registration square near ({tx:g}, {ty:g}) mm")
        out.append(best)
        boxes.append((best[0], best[1], best[0] + size, best[1] + size))
    return tuple(out)


@lru_cache(maxsize=None)
def _ring(d: int) -> tuple[tuple[int, int], ...]:
    """The steps (i, j) of the square ring d steps out, the nearest first (then by i, j)."""
    return tuple((i, j) for _, i, j in sorted((i * i + j * j, i, j) for i in range(-d, d + 1)
                                              for j in range(-d, d + 1) if max(abs(i), abs(j)) == d))


def registration_items(squares) -> list[Item]:
    """The squares, drawn solid black."""
    return [Rect(x, y, s, s, Style(stroke=None, fill=BLACK)) for x, y, s in squares]
