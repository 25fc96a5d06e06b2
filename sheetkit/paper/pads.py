"""Pads: many copies of a layout, each numbered, each with a QR code naming the sheet.

The QR text, `SK1:<layout id>:<layout version>:<serial>`, is written and read by
sheetkit.checking.qr: checking a record needs it, and no drawing.

A pad keeps the drawing of every page once, as a Form, and each copy places it with `Use`
and adds only its own part: the serial and the QR code, inside the page's `stamp` square.
So the PDF carries the static page once however many copies it has, and pages of a pad
differ only inside the stamp square. A pad that fits in half the paper is a two-up page
(`two_up`): two copies a page, each half with its own serial and QR code, the half drawn once. A page that shows another layout than the one
rendered (`Page.source`: the sides of a two-sided sheet) names that layout in its QR text;
all pages of a copy carry the same serial. docs/pads.md has the whole story.

Nothing here imports reportlab, Pillow or qrcode at module level.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sheetkit.errors import UserError
from sheetkit.messages import msg
from sheetkit.checking.qr import MAX_SERIAL, format_serial, qr_text_for

if TYPE_CHECKING:
    from sheetkit.paper import scene as S  # imported where a pad is composed

# The smallest stamp square that leaves a QR code a phone reads from 30 cm: the code with
# its quiet zone is the square less the serial's band, about 14 mm or more.
MIN_STAMP = 18.0
STAMP = 22.0  # mm: the stamp square of the shipped pads and sheets (the serial and the QR code)

# --- composing a pad ---------------------------------------------------------------------

SERIAL_SIGN = {"es": "N.º", "en": "No."}


def stamp_items(stamp: tuple[float, float, float], text: str, serial: int, lang: str = "en") -> list[S.Item]:
    """The per-copy part inside the stamp square (x, y, size): the QR code (its quiet zone
    included) on top, the serial number centred in a band below it ("N.º 0042", "No. 0042")."""
    from sheetkit.paper import scene as S
    from sheetkit.paper.measure import fit_size

    x, y, size = stamp
    band = max(3.2, min(6.0, size * 0.16))
    q = size - band
    label = f"{SERIAL_SIGN.get(lang, SERIAL_SIGN['en'])} {format_serial(serial)}"
    pt = fit_size(label, size * 0.95, min(10.0, band / 0.3528 * 0.72), bold=True, min_pt=5.0)
    return [
        S.QR(x + (size - q) / 2, y, q, text),
        S.Text(x + size / 2, y + size - band * 0.22, label, size=pt, bold=True, anchor="middle"),
    ]


def _form_name(taken: dict, page: int) -> str:
    name = f"pad-page-{page}"
    k = 1
    while name in taken:
        k += 1
        name = f"pad-page-{page}-{k}"
    return name


# --- two pads a page ----------------------------------------------------------------------
# A pad that fits in half the paper is composed as a two-up page (`two_up`): its drawing is
# one half-page Form, placed at the top and again half a page lower, with a dashed cut line
# between them; `Page.stamp` is the top copy's stamp square, the lower copy's is the same
# square half a page lower. `pad` numbers the two halves as two copies: N copies are
# ceil(N / 2) pages, the last one with its top half only when N is odd.

CUT_DASH = (3.0, 2.0)  # mm on, mm off


def cut_line(width: float, height: float) -> list[S.Item]:
    """The dashed line across the middle of a two-up page, inside the printer margins."""
    from sheetkit.paper import scene as S

    m = S.SAFE_MARGIN + 1.0  # its stroke clear of the margin
    return [S.Line(m, height / 2, width - m, height / 2,
                   S.Style(width=0.2, dash=CUT_DASH))]


def two_up(width: float, height: float, form: str, stamp: tuple[float, float, float]) -> S.Page:
    """A page holding two copies of the half-page Form `form` (drawn within the top half,
    10 mm clear of the middle): at the top, and half a page lower. `stamp` is the top copy's
    stamp square."""
    from sheetkit.paper import scene as S

    return S.Page(width, height, [S.Use(form), S.Use(form, 0.0, height / 2), *cut_line(width, height)],
                  stamp=stamp)


def halves(page: S.Page) -> float | None:
    """How far below the top copy the second copy of a two-up page sits (`two_up`), or None
    for any other page."""
    from sheetkit.paper import scene as S

    if page.stamp is None or len(page.items) < 2:
        return None
    a, b = page.items[0], page.items[1]
    if (isinstance(a, S.Use) and isinstance(b, S.Use) and a.name == b.name and a.x == b.x == 0.0
            and a.y == 0.0 and b.y > 0.0 and a.clip is None and b.clip is None):
        return b.y
    return None


def _pad_two_up(scene: S.Scene, layout, first_serial: int, last: int) -> list[S.Page]:
    """The pages of a two-up pad: two copies a page, each half its own serial and QR code;
    the half-page Form is drawn once for the whole pad."""
    from dataclasses import replace

    from sheetkit.paper import scene as S

    page = scene.pages[0]
    dy = halves(page)
    half = page.items[0].name
    x, y, size = page.stamp
    lid, version = page.source or (layout.id, layout.version)
    pages = []
    for serial in range(first_serial, last + 1, 2):
        items: list[S.Item] = [S.Use(half)]
        items += stamp_items(page.stamp, qr_text_for(lid, version, serial, str(layout.path)), serial, scene.lang)
        if serial + 1 <= last:
            items.append(S.Use(half, 0.0, dy))
            items += stamp_items((x, y + dy, size), qr_text_for(lid, version, serial + 1, str(layout.path)), serial + 1,
                                 scene.lang)
            items += page.items[2:]  # the cut line
        pages.append(replace(page, items=items))
    return pages


def pad(scene: S.Scene, layout, copies: int, first_serial: int = 1) -> S.Scene:
    """`copies` numbered copies of the composed `scene` of `layout`: serials first_serial,
    first_serial + 1, ... Each page of the scene becomes a Form drawn once; a copy is the
    full set of pages, each placing its form and adding the serial and QR code in its
    stamp square (pages without a stamp get neither)."""
    from dataclasses import replace

    from sheetkit.paper import scene as S

    if copies < 1:
        raise UserError(msg("error.pad.copies", copies=copies))
    if first_serial < 0:
        raise UserError(msg("error.pad.first_serial", first=first_serial))
    last = first_serial + copies - 1
    if last > MAX_SERIAL:
        raise UserError(msg("error.pad.last_serial", first=first_serial, last=last, most=MAX_SERIAL))
    stamped = [p for p in scene.pages if p.stamp is not None]
    if not stamped:
        raise UserError(msg("error.pad.no_stamp", id=layout.id))
    for p in stamped:
        if p.stamp[2] < MIN_STAMP:
            raise UserError(msg("error.pad.small_stamp", id=layout.id, mm=f"{p.stamp[2]:g}", least=f"{MIN_STAMP:g}"))
    forms = dict(scene.forms)
    title = scene.title or layout.id
    title = f"{title} ({format_serial(first_serial)}-{format_serial(last)})"
    if len(scene.pages) == 1 and halves(scene.pages[0]) is not None:
        return S.Scene(pages=_pad_two_up(scene, layout, first_serial, last), forms=forms, title=title,
                       lang=scene.lang)
    names = []
    for i, page in enumerate(scene.pages, 1):
        name = _form_name(forms, i)
        forms[name] = S.Form(page.width, page.height, list(page.items))
        names.append(name)
    pages: list[S.Page] = []
    for serial in range(first_serial, last + 1):
        for page, name in zip(scene.pages, names):
            items: list[S.Item] = [S.Use(name)]
            if page.stamp is not None:
                # a page showing another layout (a side of a two-sided sheet) names that one
                lid, version = page.source or (layout.id, layout.version)
                items += stamp_items(page.stamp, qr_text_for(lid, version, serial, str(layout.path)), serial, scene.lang)
            pages.append(replace(page, items=items))  # stamp, source, side and boxes kept
    return S.Scene(pages=pages, forms=forms, title=title, lang=scene.lang)


def default_name(layout, paper: str, lang: str, copies: int, first_serial: int, scale: str = "real") -> str:
    """E.g. yuncos-easy-a4-en-0001-0200.pdf (glux-board-34p-a4-en-fit-0001-0200.pdf for
    --scale fit)."""
    last = first_serial + copies - 1
    stem = f"{layout.id}-{paper}-{lang}" + ("-fit" if scale == "fit" else "")
    return f"{stem}-{format_serial(first_serial)}-{format_serial(last)}.pdf"


# --- what a photo reader reads -------------------------------------------------------------
# A score pad's fields come from the table it drew (tables.draw's `cells`): each box with the
# meaning of its row (a key from the layout, the same in every language) and of its place in
# the row, so a reader needs no list of boxes of its own.

def table_fields(table: int, rows, keys, cells: dict) -> list[S.FieldBox]:
    """The FieldBoxes of table number `table`, drawn from `rows` (tables.Row) with `cells`
    filled by tables.draw. `keys[i]` is row i's key, or (key, part keys) for a split row
    (one key per sub-column); None for a row with nothing to read."""
    from sheetkit.paper import scene as S

    out: list[S.FieldBox] = []
    for i, (row, key) in enumerate(zip(rows, keys)):
        if key is None:
            continue
        key, parts = key if isinstance(key, tuple) else (key, ())
        kind = row.kind
        if (i, -1) in cells and cells[i, -1] and row.left_box:
            out.append(S.FieldBox("digits", table, key, "bonus", None, cells[i, -1][0]))
        p = 0
        while (i, p) in cells:
            boxes = cells[i, p]
            if kind == "name":
                names = [("name", "name")]
            elif kind == "value":
                names = [("digits", "value")]
            elif kind == "mark":
                names = [("tick", "mark")]
            elif kind == "formula":
                names = [("digits", "count")] + ([("digits", "factor")] if row.factor is None else []) + [
                    ("digits", "result")]
            elif kind == "split":
                names = [("digits", part) for part in parts]
            else:
                names = []
            for (k, part), box in zip(names, boxes):
                out.append(S.FieldBox(k, table, key, part, p, box))
            p += 1
    return out


def add_marks(items: list, others, width: float, height: float, stamp, targets) -> tuple[tuple[float, float, float], ...]:
    """A pad's registration squares, drawn: each in the free spot nearest its target, clear
    of `items` (the page in this language) and of `others` (the item lists of the same page
    in the other languages: the squares stand in the same place in all of them) and of the
    stamp; their items appended to `items`. The squares (x, y, size)."""
    from sheetkit.paper import marks as M

    taken = M.occupied(items) + [b for it in others for b in M.occupied(it)]
    squares = mark_squares(width, height, stamp, targets, taken)
    items += M.registration_items(squares)
    return squares


def mark_squares(width: float, height: float, stamp, targets, taken) -> tuple[tuple[float, float, float], ...]:
    """The registration squares (x, y, size) of a page `width` x `height` mm
    (marks.registration_marks): each in the free spot nearest its target, clear of the boxes
    in `taken` (those of the page in every language, so the squares stand in the same place
    in all of them) and of the `stamp` square (x, y, size)."""
    from sheetkit.paper import marks as M

    taken = list(taken)
    if stamp is not None:
        x, y, s = stamp
        taken.append((x, y, x + s, y + s))
    return M.registration_marks(taken, width, height, targets)
