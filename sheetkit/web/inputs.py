"""What a request may bring in, read defensively: numbers, names, and record text.

Every form value is text of any length and content; each reader here turns it into the
value the engine expects or raises FormError with one sentence for the page. Nothing from
a request is ever used as a file path: records are parsed from memory, and a field that
would name a file (a layout path, a deck file, a table's sheet file: RecordKind.files) is
refused before any path is looked at.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Callable, Mapping

from sheetkit.errors import UserError

from sheetkit.forms import FormError, choice, integer, name, players, shown  # noqa: F401  (the page's form readers)


def said(e: UserError) -> str:
    """An engine's error line in the page's language (through the message catalogues)."""
    from sheetkit.web.i18n import page_lang

    return e.line(page_lang())


# --- records from memory ---------------------------------------------------------------

def toml_text(raw: bytes, source: str, t: Callable) -> dict[str, Any]:
    """TOML data from uploaded bytes, read as every file sheetkit reads is (tomlfile: size,
    UTF-8, NUL, nesting, 64-bit integers); FormError with that one line otherwise."""
    from sheetkit.tomlfile import parse_toml

    try:
        return parse_toml(raw, source)
    except UserError as e:
        raise FormError(said(e)) from None


def refuse_paths(data: dict[str, Any], source: str, t: Callable) -> None:
    """A record from the page may name no file (the fields each record kind lists in the
    game interface): refused before any path is looked at (sheetkit.checking.outside)."""
    from sheetkit.checking.outside import refuse_files

    try:
        refuse_files(data, source)
    except UserError as e:
        raise FormError(said(e)) from None


def safe_source(filename: str | None) -> str:
    """The name shown for an uploaded record: its last path part, printable, short, never
    with a folder (it only ever names the record in messages)."""
    base = re.split(r"[\\/]", filename or "")[-1]
    base = "".join(c for c in base if unicodedata.category(c)[0] not in "CZ" or c == " ").strip()
    return (base[:60] or "record.toml").lstrip(".") or "record.toml"


def parse_record(raw: bytes, source: str, t: Callable):
    """(Loaded, Checked) of an uploaded or built record, through the same engine as
    `sheetkit check`. FormError for unusable input."""
    from sheetkit.checking import records

    data = toml_text(raw, source, t)
    refuse_paths(data, source, t)
    try:
        loaded = records.parse(data, source)
        return loaded, records.check(loaded)
    except UserError as e:
        raise FormError(said(e)) from None


