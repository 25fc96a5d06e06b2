"""The QR text of a printed sheet: its format, and what it says of a record copied from it.

The QR text (format 1) is

    SK1:<layout id>:<layout version>:<serial>        e.g.  SK1:yuncos-easy:e7bc4f0d:0042

- `SK1` names the format, so a later format can be told apart;
- the layout id is the layout's file name without `.toml` (dashes, dots, even colons are
  fine: the text is split at its last two colons);
- the version is the layout's content hash (`Layout.version`, 8 lowercase hex digits);
- the serial is a decimal number, written with at least 4 digits.

The pads (sheetkit.paper.pads) print it on every copy; checking a record that carries it
(`apply_qr`) says which printed sheet the record was copied from and warns when the layout
changed since; `identify` answers `sheetkit identify`. docs/pads.md has the whole story.
Nothing here draws: no scene, no reportlab, Pillow or qrcode.
"""

from __future__ import annotations

import re
from typing import Any

from sheetkit.errors import UserError
from sheetkit.messages import msg
from sheetkit.checking.verdict import WARNING, Finding

PREFIX = "SK1"
EXAMPLE = "SK1:yuncos-easy:e7bc4f0d:0042"
SERIAL_DIGITS = 4
MAX_SERIAL = 99_999_999  # keeps the text, and so the QR code, small
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
    return qr_text_for(layout.id, layout.version, serial, str(layout.path))


def qr_text_for(layout_id: str, version: str, serial: int, source: str | None = None) -> str:
    """The QR text of copy `serial` of the layout `layout_id` at `version` (a page showing
    another layout than the one printed names that one); UserError if it cannot be written."""
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
