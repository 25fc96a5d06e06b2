"""What a form brings in, read defensively: numbers, choices and names from the page.

Every form value is text of any length and content; each reader here turns it into the
value a game expects or raises FormError: one sentence for the page, already in the page's
language (`t`, the page's words: `t(key, **values)` says the catalogue's `page.<key>`).
The readers sit on the ground floor because the games' own page code (their `entry.py`)
reads its forms with them, and a game knows nothing of the web package.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Callable, Mapping

from sheetkit.errors import UserError

_INT = re.compile(r"[+-]?[0-9]{1,9}")
MAX_NAME = 60  # characters of a player's name: what the history keeps (sheetkit.history.store)
_BIDI = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class FormError(UserError):
    """A form value that is no move at all: a field error as the records raise them, its
    sentence already in the page's language (so `line()` of any language is that sentence)."""

    def __init__(self, message: str, *, field: str | None = None):
        super().__init__(str(message), field=None)
        self.form_field = field

    def line(self, lang: str) -> str:
        return self.message

    def __str__(self) -> str:
        return self.message


class Words:
    """The page's words in one language: `t(key, **values)` says the catalogue's
    `page.<key>`; `t.lang` is the language (for an engine's message said on the page)."""

    __slots__ = ("lang",)

    def __init__(self, lang: str):
        self.lang = lang

    def __call__(self, key: str, **values) -> str:
        from sheetkit.messages import text

        return text(f"page.{key}", self.lang, **values)


english = Words("en")  # a game's `t` when no page asks (tests, the benches)


def shown(value: str, most: int = 24) -> str:
    """A typed value quoted in a message: control characters as escapes, long text cut."""
    text = value.encode("unicode_escape").decode("ascii") if any(unicodedata.category(c) == "Cc" for c in value) else value
    return repr(text if len(text) <= most else text[:most] + "…")


def integer(form: Mapping[str, str], key: str, field: str, lo: int, hi: int, t: Callable, default: int | None = 0) -> int:
    raw = form.get(key, "")
    if not isinstance(raw, str):
        raise FormError(t("err_int", field=field, lo=lo, hi=hi, got="?"), field=key)
    text = raw.strip()
    if not text:
        return default
    if not _INT.fullmatch(text) or not lo <= int(text) <= hi:
        raise FormError(t("err_int", field=field, lo=lo, hi=hi, got=shown(raw)), field=key)
    return int(text)


def choice(form: Mapping[str, str], key: str, field: str, options, t: Callable, default: str) -> str:
    raw = form.get(key, default)
    if raw not in options:
        raise FormError(t("err_choice", field=field), field=key)
    return raw


def name_refused(name: str) -> bool:
    """A name holding control characters, or the invisible ones that reorder text on a
    terminal; the joiners and tags of emoji sequences are welcome."""
    return any(unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn") or c in _BIDI for c in name)


def name(form: Mapping[str, str], key: str, field: str, t: Callable) -> str:
    """A name as the history keeps it (the same characters, the same length): emoji
    sequences welcome, control and text-reordering characters refused."""
    raw = form.get(key, "")
    if not isinstance(raw, str) or name_refused(raw):
        raise FormError(t("err_name_chars", field=field), field=key)
    text = " ".join(raw.split())
    if len(text) > MAX_NAME:
        raise FormError(t("err_name_long", field=field, n=MAX_NAME), field=key)
    return text


BIG = 999  # a count above what any box of any game holds, to catch typos as out of range


def players(names: list[tuple[str, str]], game: str, t: Callable, lo: int = 2, hi: int = 4) -> list[str]:
    """The names given, (field label, name) in order, empty ones left out: `lo` to `hi`,
    no name twice (however it is capitalised)."""
    seen: dict[str, str] = {}
    out = []
    for field, n in names:
        if not n:
            continue
        if n.casefold() in seen:
            raise FormError(t("err_name_twice", field=field, name=n))
        seen[n.casefold()] = n
        out.append(n)
    if not lo <= len(out) <= hi:
        raise FormError(t("err_players", game=game, n=len(out)))
    return out


def named_slots(form: Mapping[str, str], t: Callable, filled: Callable[[int], bool], slots: int = 4):
    """(slot, name) of the player slots in use (a slot with a name, or with numbers typed:
    then the name is missing), and (field label, name) of every slot."""
    out, names = [], []
    for i in range(slots):
        field = t("name_n", n=i + 1)
        n = name(form, f"name{i}", field, t)
        if not n and filled(i):
            raise FormError(t("err_empty_name", field=field), field=f"name{i}")
        names.append((field, n))
        if n:
            out.append((i, n))
    return out, names


def one_record(records, game: str) -> dict:
    """The one record of a one-record play of `game` (never changed in place)."""
    if len(records) != 1 or not isinstance(records[0][1], dict) or records[0][1].get("game") != game:
        raise FormError(f"not a play of {game}")
    return records[0][1]
