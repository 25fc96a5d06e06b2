"""Pads: many copies of a layout, each numbered, each with a QR code naming the sheet.

The QR text (format 1) is

    SK1:<layout id>:<layout version>:<serial>        e.g.  SK1:yuncos-easy:e7bc4f0d:0042

- `SK1` names the format, so a later format can be told apart;
- the layout id is the layout's file name without `.toml` (dashes, dots, even colons are
  fine: the text is split at its last two colons);
- the version is the layout's content hash (`Layout.version`, 8 lowercase hex digits);
- the serial is a decimal number, written with at least 4 digits.

A pad keeps the drawing of every page once, as a Form, and each copy places it with `Use`
and adds only its own part: the serial and the QR code, inside the page's `stamp` square.
So the PDF carries the static page once however many copies it has, and pages of a pad
differ only inside the stamp square. A pad that fits in half the paper is a two-up page
(`two_up`): two copies a page, each half with its own serial and QR code, the half drawn once. A page that shows another layout than the one
rendered (`Page.source`: the sides of a two-sided sheet) names that layout in its QR text;
all pages of a copy carry the same serial. docs/pads.md has the whole story.

Nothing here imports reportlab, Pillow or qrcode at module level: `identify`, `parse` and
the record check stay light.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from sheetkit.errors import UserError
from sheetkit.messages import msg
from sheetkit.checking.verdict import WARNING, Finding

if TYPE_CHECKING:
    from sheetkit.paper import scene as S  # imported where a pad is composed: checking needs no scene

PREFIX = "SK1"
EXAMPLE = "SK1:yuncos-easy:e7bc4f0d:0042"
SERIAL_DIGITS = 4
MAX_SERIAL = 99_999_999  # keeps the text, and so the QR code, small
# The smallest stamp square that leaves a QR code a phone reads from 30 cm: the code with
# its quiet zone is the square less the serial's band, about 14 mm or more.
MIN_STAMP = 18.0
STAMP = 22.0  # mm: the stamp square of the shipped pads and sheets (the serial and the QR code)
RULE = "QR"

_VERSION = re.compile(r"[0-9a-f]{8,64}")
_SERIAL = re.compile(r"[0-9]{1,8}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _check_id(layout_id: str):
    """Why `layout_id` cannot go in a QR text, or None."""
    if not layout_id:
        return msg("error.qr.id_empty")
    if _CONTROL.search(layout_id):
        return msg("error.qr.id_control")
    if layout_id != layout_id.strip():
        return msg("error.qr.id_space")
    return None


def format_serial(serial: int) -> str:
    return f"{serial:0{SERIAL_DIGITS}d}"


def qr_text(layout, serial: int) -> str:
    """The QR text of copy `serial` of `layout` (a layouts.Layout)."""
    return _text(layout.id, layout.version, serial, str(layout.path))


def _text(layout_id: str, version: str, serial: int, source: str | None = None) -> str:
    problem = _check_id(layout_id)
    if problem:
        raise UserError(msg("error.qr.rename", problem=problem), source=source)
    if not _VERSION.fullmatch(version):
        raise ValueError(f"layout version {version!r} is not a content hash")
    if not 0 <= serial <= MAX_SERIAL:
        raise UserError(msg("error.qr.serial_range", serial=serial, most=MAX_SERIAL))
    return f"{PREFIX}:{layout_id}:{version}:{format_serial(serial)}"


def _malformed(text: str, reason) -> UserError:
    shown = text if len(text) <= 60 else text[:57] + "..."
    return UserError(msg("error.qr.malformed", shown=repr(shown), reason=reason, shape=msg("error.qr.shape", prefix=PREFIX), example=EXAMPLE))


def parse(text: str) -> tuple[str, str, int]:
    """(layout id, version, serial) of a QR text; UserError (one line) if it is malformed.

    Surrounding white space (scanners often add a newline) is ignored."""
    t = text.strip()
    head, sep, rest = t.partition(":")
    if not sep or head != PREFIX:
        if head.upper() == PREFIX or re.fullmatch(r"SK[0-9]+", head, re.IGNORECASE):
            raise _malformed(text, msg("error.qr.format", head=repr(head)))
        raise _malformed(text, msg("error.qr.prefix", prefix=PREFIX))
    parts = rest.rsplit(":", 2)
    if len(parts) != 3:
        raise _malformed(text, msg("error.qr.fields"))
    layout_id, version, serial = parts
    problem = _check_id(layout_id)
    if problem:
        raise _malformed(text, problem)
    if not _VERSION.fullmatch(version.lower()):
        raise _malformed(text, msg("error.qr.version", version=repr(version)))
    if not _SERIAL.fullmatch(serial):
        raise _malformed(text, msg("error.qr.serial", serial=repr(serial)))
    return layout_id, version.lower(), int(serial)


def _installed(layout_id: str):
    """The shipped layout of that id, or None. Only shipped ids are looked up: a QR text
    never names a file path."""
    from sheetkit import layouts

    if layout_id not in layouts.shipped_ids():
        return None
    return layouts.load(layout_id)


def identify(text: str) -> dict[str, Any]:
    """What a QR text means, and whether that layout version is the one installed now.

    Keys: text, layout, version, serial, installed (the layout id is shipped),
    installed_version (or None), current (the installed layout is that very version)."""
    layout_id, version, serial = parse(text)
    layout = _installed(layout_id)
    return {
        "text": text.strip(),
        "layout": layout_id,
        "version": version,
        "serial": serial,
        "installed": layout is not None,
        "installed_version": layout.version if layout else None,
        "current": bool(layout and layout.version == version),
    }


def describe(info: dict[str, Any], lang: str = "en") -> str:
    """`identify`'s answer in words, in `lang`: two lines."""
    head = msg("identify.head", text=info["text"], serial=format_serial(info["serial"]), layout=info["layout"],
               version=info["version"])(lang)
    if not info["installed"]:
        tail = msg("identify.not_installed", layout=repr(info["layout"]))(lang)
    elif info["current"]:
        tail = msg("identify.current", layout=info["layout"])(lang)
    else:
        tail = msg("identify.changed", layout=info["layout"], installed=info["installed_version"])(lang)
    return f"{head}\n  {tail}"


def qr_findings(text: str, layout, source: str | None = None) -> tuple[dict[str, Any], list[Finding]]:
    """For a record that carries the QR text of its sheet and is checked against `layout`
    (a layouts.Layout): the QR's information (serial, printed layout and version) and
    warnings when the QR names another layout or the layout changed since printing.

    A malformed text is a UserError naming the record's `qr` field."""
    try:
        layout_id, version, serial = parse(text)
    except UserError as e:
        raise UserError(e.message, source=source, field="qr") from None
    info = {"text": text.strip(), "layout": layout_id, "version": version, "serial": serial,
            "checked_layout": layout.id, "checked_version": layout.version,
            "current": layout_id == layout.id and version == layout.version}
    findings: list[Finding] = []
    where = msg("where.qr.sheet", serial=format_serial(serial))
    if layout_id != layout.id:
        findings.append(Finding(RULE, where, msg("finding.qr.other_layout", printed=layout_id, checked=layout.id),
                                WARNING, {"qr": info["text"]}))
    elif version != layout.version:
        findings.append(Finding(RULE, where, msg("finding.qr.other_version", layout=layout_id, version=version,
                                                 installed=layout.version), WARNING, {"qr": info["text"]}))
    return info, findings


def apply_qr(verdict, record, source: str | None = None, pad: str | None = None):
    """The verdict with what a record's QR text says, for any game: the printed sheet
    (serial, layout, version) and the QR warnings. The record names its QR text (`qr`) and
    the layout it is checked against (`sheet`), or the game names the `pad` its records are
    copied from. A verdict without a QR text comes back as it was."""
    from dataclasses import replace

    from sheetkit.checking.verdict import Sheet

    text = record.qr
    if not isinstance(text, str) or not text.strip():
        return verdict
    layout = record.sheet
    if layout is None and pad:
        from sheetkit import layouts

        layout = layouts.load(pad)
    if layout is None or any(f.rule == RULE for f in verdict.findings):
        return verdict
    info, findings = qr_findings(text, layout, source)
    sheet = Sheet(qr=info["text"], serial=info["serial"], layout=info["layout"], version=info["version"],
                  current=info["current"])
    return replace(verdict, findings=verdict.findings + tuple(findings), sheet=sheet)


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
        items += stamp_items(page.stamp, _text(lid, version, serial, str(layout.path)), serial, scene.lang)
        if serial + 1 <= last:
            items.append(S.Use(half, 0.0, dy))
            items += stamp_items((x, y + dy, size), _text(lid, version, serial + 1, str(layout.path)), serial + 1,
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
                items += stamp_items(page.stamp, _text(lid, version, serial, str(layout.path)), serial, scene.lang)
            pages.append(replace(page, items=items))  # stamp, source, side and boxes kept
    return S.Scene(pages=pages, forms=forms, title=title, lang=scene.lang)


def default_name(layout, paper: str, lang: str, copies: int, first_serial: int, scale: str = "real") -> str:
    """E.g. yuncos-easy-a4-en-0001-0200.pdf (glux-board-34p-a4-en-fit-0001-0200.pdf for
    --scale fit)."""
    last = first_serial + copies - 1
    stem = f"{layout.id}-{paper}-{lang}" + ("-fit" if scale == "fit" else "")
    return f"{stem}-{format_serial(first_serial)}-{format_serial(last)}.pdf"
