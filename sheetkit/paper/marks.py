"""Printer's marks shared by every layout: the scale check and its "print at actual size"
line, rulers, crop marks. Drawn in millimetres like the rest of a scene; the few words
they carry come from the message catalogues, in both languages of the sheets.
"""

from __future__ import annotations

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
