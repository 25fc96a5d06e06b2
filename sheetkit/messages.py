"""What sheetkit says to players, in Spanish and English: one catalogue per language.

The catalogues are TOML files shipped in the package (sheetkit/locale/en.toml, es.toml):
a message id (dotted: "finding.yuncos.Y11_row1_repeat") names a text with named
{placeholders} (str.format), or a table of plural forms. `text(id, lang, **values)` gives
the message (`msg(id, **values)` keeps one to be rendered later, in the output's
language, e.g. in a Finding); a message or language that does not exist is never papered over with
English: it raises MessageError in strict mode (always under pytest, or with
SHEETKIT_STRICT_MESSAGES=1), else gives a visible ⟦id⟧ marker. docs/i18n.md explains.

The language of an output: `resolve_lang(--lang, the record's language, environment)`.
"""

from __future__ import annotations

import os
import re
import string
from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping

from sheetkit.errors import UserError

LANGS = ("en", "es")
DEFAULT = "en"  # for a system locale that is neither language


class MessageError(LookupError):
    """A message id, language or placeholder value that the catalogues do not have."""


@lru_cache(maxsize=4096)
def _names(forms: tuple[str, ...]) -> frozenset[str]:
    """The placeholders of a message's forms (kept: a page says hundreds of messages)."""
    return frozenset(name.split(".")[0].split("[")[0]
                     for form in forms for _, name, _, _ in string.Formatter().parse(form) if name is not None)


@dataclass(frozen=True, slots=True)
class Message:
    """One message in one language: a text, or plural forms chosen by `count`."""

    forms: dict[str, str]  # {"text": ...} or {"one": ..., "other": ...}
    count: str | None = None

    def pick(self, values: Mapping[str, object]) -> str:
        if self.count is None:
            return self.forms["text"]
        return self.forms["one"] if values[self.count] == 1 else self.forms["other"]

    @property
    def placeholders(self) -> frozenset[str]:
        names = _names(tuple(self.forms.values()))
        return names | {self.count} if self.count else names


@dataclass(frozen=True, slots=True)
class Msg:
    """A message not yet put into words: its id and values, to be rendered in whatever
    language the output is in. A value may itself be a Msg (a box's name, a pair of dice)
    or a list of them (joined with ", ")."""

    id: str
    values: dict[str, object]

    def __call__(self, lang: str) -> str:
        return text(self.id, lang, **self.values)

    def __str__(self) -> str:  # where a message is used as a plain string: English, as before
        return self("en")

    def __hash__(self) -> int:  # kept in immutable states (a game's end reason), so hashable
        return hash((self.id, repr(sorted(self.values.items()))))

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "values": {k: _plain(v) for k, v in self.values.items()}}

    @staticmethod
    def from_json(data, prefix: str) -> "Msg | None":
        """A message kept by to_json, its id (and those of the messages in its values) under
        `prefix`; None for anything else (kept data is not trusted to name any message)."""
        def back(v):
            if isinstance(v, dict):
                inner = Msg.from_json(v, prefix)
                if inner is None:
                    raise ValueError
                return inner
            if isinstance(v, list):
                return [back(x) for x in v]
            if v is None or isinstance(v, (str, int, float)):
                return v
            raise ValueError

        if not (isinstance(data, dict) and isinstance(data.get("id"), str) and data["id"].startswith(prefix)
                and isinstance(data.get("values", {}), dict) and has(data["id"], "en")):
            return None
        try:
            return Msg(data["id"], {str(k): back(v) for k, v in data.get("values", {}).items()})
        except ValueError:
            return None


def msg(message_id: str, **values) -> Msg:
    return Msg(message_id, values)


def _plain(v):
    if isinstance(v, Msg):
        return v.to_json()
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def or_list(items) -> "Msg | str":
    """`a or b or c` in any language (a message joining them two by two)."""
    items = [str(i) for i in items]
    out: Msg | str = items[0] if items else ""
    for item in items[1:]:
        out = msg("error.or", a=out, b=item)
    return out


def _words(v, lang: str):
    """A value as it is written into a message in `lang`."""
    if isinstance(v, Msg):
        return v(lang)
    if isinstance(v, UserError):  # an error inside another ("cannot use layout ...: <why>")
        return v.line(lang)
    if isinstance(v, (list, tuple)):
        return ", ".join(str(_words(x, lang)) for x in v)
    return v


def _strict() -> bool:
    return "PYTEST_CURRENT_TEST" in os.environ or os.environ.get("SHEETKIT_STRICT_MESSAGES", "") not in ("", "0")


def _flatten(table: dict, prefix: str, out: dict[str, Message], lang: str) -> None:
    for key, value in table.items():
        mid = f"{prefix}{key}"
        if isinstance(value, str):
            out[mid] = Message({"text": value})
        elif isinstance(value, dict) and "count" in value:
            forms = {k: v for k, v in value.items() if k != "count"}
            if set(forms) != {"one", "other"} or not all(isinstance(v, str) for v in forms.values()):
                raise MessageError(f"{lang}.toml: {mid}: plural forms are `one` and `other`, both texts")
            out[mid] = Message(forms, value["count"])
        elif isinstance(value, dict):
            _flatten(value, mid + ".", out, lang)
        else:
            raise MessageError(f"{lang}.toml: {mid}: expected a text or a table")


@lru_cache(maxsize=None)
def catalogue(lang: str) -> dict[str, Message]:
    """Every message of one language, by id (read once, on first use)."""
    import tomllib

    if lang not in LANGS:
        raise MessageError(f"no messages in language {lang!r} (sheetkit speaks {', '.join(LANGS)})")
    # beside this package's modules (plain os.path: importlib.resources costs the quick
    # tallies more time than reading the file)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale", f"{lang}.toml")
    with open(path, "rb") as f:
        data = tomllib.load(f)
    out: dict[str, Message] = {}
    _flatten(data, "", out, lang)
    return out


_HEADER = re.compile(r"\[([A-Za-z0-9_.-]+)\][ \t]*(?:#[^\n]*)?")  # a table's header line, its name bare


@lru_cache(maxsize=None)
def _tables(lang: str) -> dict[str, tuple[str, ...]] | None:
    """The catalogue's text cut before each table header: header -> the tables so named,
    each with its header ("" for the keys before the first), so that a message is read from
    the tables that can hold it, not the whole file (a command says a few dozen of its
    thousands of messages: a whole catalogue is ~25 ms to read). None where a cut could
    split a value (a multi-line string, an array of tables, a header not plain): the whole
    file then."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale", f"{lang}.toml")
    with open(path, encoding="utf-8") as f:
        whole = f.read()
    if '"""' in whole or "'''" in whole:
        return None
    out: dict[str, list[str]] = {}
    name, start = "", 0
    for m in re.finditer(r"^\[.*$", whole, re.MULTILINE):
        header = _HEADER.fullmatch(m.group(0))
        if header is None:
            return None
        out.setdefault(name, []).append(whole[start:m.start()])
        name, start = header.group(1), m.start()
    out.setdefault(name, []).append(whole[start:])
    return {k: tuple(v) for k, v in out.items()}


@lru_cache(maxsize=None)
def _table(lang: str, header: str) -> dict[str, Message]:
    """The messages of the tables named `header` in the catalogue of `lang`, by full id."""
    import tomllib

    out: dict[str, Message] = {}
    for chunk in _tables(lang)[header]:
        _flatten(tomllib.loads(chunk), "", out, lang)
    return out


def _message(message_id: str, lang: str) -> Message | None:
    """The message `message_id` of a language sheetkit speaks, or None: found in the tables
    whose name begins its id (a table holds its own keys and its dotted keys' messages)."""
    tables = _tables(lang) if lang in LANGS else None
    if tables is None:
        return catalogue(lang).get(message_id)
    parts = message_id.split(".")
    for n in range(len(parts) + 1):
        header = ".".join(parts[:n])
        if header in tables:
            found = _table(lang, header).get(message_id)
            if found is not None:
                return found
    return None


def has(message_id: str, lang: str) -> bool:
    """Whether the catalogue of `lang` has the message (MessageError for a language
    sheetkit does not speak)."""
    return _message(message_id, lang) is not None


def text(message_id: str, lang: str, **values) -> str:
    """The message `message_id` in `lang` with its placeholders filled from `values`."""
    try:
        if lang not in LANGS:
            raise MessageError(f"no messages in language {lang!r} (sheetkit speaks {', '.join(LANGS)})")
        found = _message(message_id, lang)
        if found is None:
            raise MessageError(f"no message {message_id!r} in {lang}.toml")
        missing = found.placeholders - set(values)
        if missing:
            raise MessageError(f"message {message_id!r} needs {', '.join(sorted(missing))}")
        return found.pick(values).format(**{k: _words(v, lang) for k, v in values.items()})
    except MessageError:
        if _strict():
            raise
        shown = ", ".join(f"{k}={v}" for k, v in values.items())
        return f"⟦{message_id}{': ' + shown if shown else ''}⟧"  # visibly not a sentence in any language


PAGE = "page.say."  # a message said otherwise on the phone page: `page.say.<its id>`


def on_page(words, lang: str) -> str:
    """Words as the phone page says them: a message that, for the command line, names the
    record's notation (`fish_marked = 3`, `rounds = ...`) has its page wording under
    `page.say.<id>` (the same placeholders, the fix said as a player does it on the page);
    any other message, or plain text, as everywhere."""
    if isinstance(words, Msg):
        return page_msg(words, lang)(lang)
    return str(words)


def page_msg(m: Msg, lang: str) -> Msg:
    """The message as the phone page words it in `lang` (see on_page): its page wording
    where it has one, else itself."""
    if lang in LANGS and has(PAGE + m.id, lang):
        return Msg(PAGE + m.id, m.values)
    return m


def finding_on_page(f, lang: str) -> dict[str, str]:
    """A finding (sheetkit.checking.verdict.Finding) as the phone page shows it: its rule,
    severity, where and sentence in the page's language, the fix as a player makes it."""
    return {"rule": f.rule, "severity": f.severity, "where": f.where_in(lang),
            "message": on_page(f.text, lang) if f.text is not None else f.message}


def problems(cats: Mapping[str, dict[str, Message]] | None = None) -> list[str]:
    """What is wrong between the catalogues (by default the shipped ones): an id in one
    language and not the other, or placeholders that differ. The tests require none."""
    out = []
    cats = cats if cats is not None else {lang: catalogue(lang) for lang in LANGS}
    ids = sorted(set().union(*cats.values()))
    for mid in ids:
        have = {lang: cats[lang].get(mid) for lang in cats}
        absent = [lang for lang, m in have.items() if m is None]
        if absent:
            out.append(f"{mid}: missing in {', '.join(f'{a}.toml' for a in absent)}")
            continue
        marks = {lang: m.placeholders for lang, m in have.items()}
        if len(set(marks.values())) > 1:
            out.append(f"{mid}: placeholders differ: " + "; ".join(
                f"{lang} {{{', '.join(sorted(m))}}}" for lang, m in marks.items()))
    return out


# ---------------------------------------------------------------- which language


def _locale_lang(environ: Mapping[str, str]) -> str | None:
    """The language the system locale asks for, looked up as gettext does: LANGUAGE (a
    list, first match wins), then LC_ALL, LC_MESSAGES, LANG. "C" and "POSIX" ask for none."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(var, "")
        if not value:
            continue
        for item in value.split(":") if var == "LANGUAGE" else [value]:
            code = item.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
            if code in LANGS:
                return code
        if var != "LANGUAGE":
            return None  # the first variable set decides, as in gettext
    return None


def resolve_lang(option: str | None = None, record: str | None = None,
                 environ: Mapping[str, str] | None = None) -> str:
    """The language of an output: `--lang` if given, else the record's own language (the
    `lang` of the record or of its layout), else the system locale's, else English."""
    for given, what in ((option, "--lang"), (record, msg("error.lang.the_records"))):
        if given is not None:
            if given not in LANGS:
                raise UserError(msg("error.lang.unknown", what=what, given=repr(given), langs=or_list(LANGS)))
            return given
    return _locale_lang(os.environ if environ is None else environ) or DEFAULT
