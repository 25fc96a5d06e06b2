"""What a request may bring in, read defensively: numbers, names, and record text.

Every form value is text of any length and content; each reader here turns it into the
value the engine expects or raises FormError with one sentence for the page. Nothing from
a request is ever used as a file path: records are parsed from memory, and a field that
would name a file (a layout path, an IUNU deck file, a Yuncos table's sheet file) is
refused before any path is looked at.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Callable, Mapping

from sheetkit.errors import UserError

_INT = re.compile(r"[+-]?[0-9]{1,9}")


class FormError(Exception):
    """One sentence for the page, already in the page's language."""


def said(e: UserError) -> str:
    """An engine's error line in the page's language (through the message catalogues)."""
    from sheetkit.web.i18n import page_lang

    return e.line(page_lang())


def shown(value: str, most: int = 24) -> str:
    """A typed value quoted in a message: control characters as escapes, long text cut."""
    text = value.encode("unicode_escape").decode("ascii") if any(unicodedata.category(c) == "Cc" for c in value) else value
    return repr(text if len(text) <= most else text[:most] + "…")


def integer(form: Mapping[str, str], key: str, field: str, lo: int, hi: int, t: Callable, default: int = 0) -> int:
    raw = form.get(key, "")
    if not isinstance(raw, str):
        raise FormError(t("err_int", field=field, lo=lo, hi=hi, got="?"))
    text = raw.strip()
    if not text:
        return default
    if not _INT.fullmatch(text) or not lo <= int(text) <= hi:
        raise FormError(t("err_int", field=field, lo=lo, hi=hi, got=shown(raw)))
    return int(text)


def name(form: Mapping[str, str], key: str, field: str, t: Callable) -> str:
    """A name as the history keeps it (the same characters, the same length): emoji
    sequences welcome, control and text-reordering characters refused."""
    from sheetkit.history.store import MAX_NAME, name_refused

    raw = form.get(key, "")
    if not isinstance(raw, str) or name_refused(raw):
        raise FormError(t("err_name_chars", field=field))
    text = " ".join(raw.split())
    if len(text) > MAX_NAME:
        raise FormError(t("err_name_long", field=field, n=MAX_NAME))
    return text


def choice(form: Mapping[str, str], key: str, field: str, options, t: Callable, default: str) -> str:
    raw = form.get(key, default)
    if raw not in options:
        raise FormError(t("err_choice", field=field))
    return raw


def players(names: list[tuple[str, str]], game: str, t: Callable) -> list[str]:
    """The names given, (field label, name) in order, empty ones left out: 2 to 4, no
    name twice (however it is capitalised)."""
    seen: dict[str, str] = {}
    out = []
    for field, n in names:
        if not n:
            continue
        if n.casefold() in seen:
            raise FormError(t("err_name_twice", field=field, name=n))
        seen[n.casefold()] = n
        out.append(n)
    if not 2 <= len(out) <= 4:
        raise FormError(t("err_players", game=game, n=len(out)))
    return out


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


