"""What a request may bring in, read defensively: numbers, names, and record text.

Every form value is text of any length and content; each reader here turns it into the
value the engine expects or raises FormError with one sentence for the page. Nothing from
a request is ever used as a file path: records are parsed from memory, and the files a
record may name (a layout, an IUNU deck) are refused unless they are shipped layout ids.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from typing import Any, Callable, Mapping

from sheetkit.errors import UserError

MAX_NAME = 40
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
    raw = form.get(key, "")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co") for c in raw):
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
    """TOML data from uploaded bytes, within the same caps as every file sheetkit reads
    (nesting, 64-bit integers); FormError for what is not UTF-8 TOML."""
    from sheetkit.tomlfile import check_bounds

    try:
        data = _toml(raw, t)
    except FormError as e:
        raise FormError(f"{source}: {e}") from None
    try:
        check_bounds(data, source)
    except UserError as e:
        raise FormError(said(e)) from None
    return data


def _toml(raw: bytes, t: Callable) -> dict[str, Any]:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise FormError(t("err_utf8", line=raw[:e.start].count(b"\n") + 1)) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise FormError(t("err_toml", msg=str(e))) from None
    except (RecursionError, MemoryError):
        raise FormError(t("err_deep")) from None
    except ValueError as e:  # e.g. an integer of thousands of digits
        raise FormError(t("err_toml", msg=str(e)[:120])) from None


def refuse_paths(data: dict[str, Any], source: str, t: Callable) -> None:
    """Uploaded records may name only shipped layouts, and carry their IUNU deck inline:
    any other reference would be resolved on the server's disk."""
    from sheetkit import layouts

    game = data.get("game")
    refs = {"yuncos": "layout", "glux": "board"}
    key = refs.get(game) if isinstance(game, str) else None
    if key is not None and isinstance(data.get(key), str):
        known = layouts.shipped_ids()
        if data[key] not in known:
            ids = ", ".join(i for i in known if i.startswith(game))
            raise FormError(f"{source}: " + t("err_path", field=key, known=ids))
    if game == "iunu" and isinstance(data.get("deck"), str):
        raise FormError(f"{source}: " + t("err_deck_path"))


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


