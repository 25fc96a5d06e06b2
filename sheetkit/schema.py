"""Reading TOML files into typed, validated models, with one-line errors.

Models forbid unknown keys and do not coerce types ("5" is not 5). Checks that span
several fields raise FieldError(field path, message) from a validator; the loader turns
any failure into a UserError naming the file, the field and what was expected.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from sheetkit.errors import FieldError, UserError
from sheetkit.tomlfile import read_toml  # noqa: F401  (re-exported: schema.load reads through it)

M = TypeVar("M", bound=BaseModel)
_MISSING: Any = object()


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Label(Model):
    """A text given in both languages of the sheets."""

    es: str
    en: str

    def __call__(self, lang: str) -> str:
        return getattr(self, lang)


def _loc(loc: tuple) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


_SCALAR_TAGS = {"int", "str", "float", "bool", "bytes", "none", "list", "dict"}


def _field_parts(loc: tuple, data: Any = _MISSING) -> tuple:
    """The parts of a pydantic error location that are fields or list positions, without
    the names pydantic gives validators and the members of a union (`cards.int`,
    `name.Label`, `function-after[...]`). Given the input `data`, a part that is a key or
    index there always stays (a legend key may be `F`, a player `Ana`)."""
    out = []
    cur = data
    for part in loc:
        if cur is not _MISSING and ((isinstance(cur, dict) and part in cur) or (
                isinstance(cur, list) and isinstance(part, int) and 0 <= part < len(cur))):
            out.append(part)
            cur = cur[part]
            continue
        text = str(part)
        if text.startswith("function-") or "[" in text or text in _SCALAR_TAGS:
            continue  # a validator or a union member: the same input, checked another way
        if cur is not _MISSING and _is_model_name(text):
            continue  # a model as a union member (`Label`), not a key of the input
        out.append(part)
        cur = _MISSING  # off the input: a missing field, or no input given
    return tuple(out)


def _is_model_name(text: str) -> bool:
    """CamelCase like a model class (BoardRecord, Label)."""
    return len(text) > 1 and text[0].isupper() and text.isidentifier() and any(c.islower() for c in text)


def validation_message(err: ValidationError, data: Any = _MISSING) -> tuple[str, str]:
    """(field path, message) of the first error, in plain words. Given the input `data`,
    union members are told from fields more surely."""
    e = err.errors(include_url=False)[0]
    loc = _loc(_field_parts(tuple(e["loc"]), data))
    cause = (e.get("ctx") or {}).get("error")
    if isinstance(cause, FieldError):
        field = f"{loc}.{cause.field}" if loc and cause.field else (cause.field or loc)
        return field, cause.message
    kind = e["type"]
    if kind == "extra_forbidden":
        return loc, "unknown field"
    if kind == "missing":
        return loc, "missing field"
    msg = e["msg"]
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, "):]
    if "input" in e and kind not in ("missing",):
        msg += f" (got {_short(e['input'])})"
    return loc, msg


def validate(model: type[M], data: Any, source: str) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as err:
        field, msg = validation_message(err, data)
        raise UserError(msg, source=source, field=field or None) from None
    except FieldError as err:  # raised outside pydantic's wrapping
        raise UserError(err.message, source=source, field=err.field) from None


def load(model: type[M], path: str | Path) -> M:
    return validate(model, read_toml(path), str(path))


def check_players(game: str, items: list, field: str, *keys: tuple[str, Any], rule: str = "") -> None:
    """The player list of a record, the same for every game: 2 to 4 players, and each
    `(what, key)` (e.g. ("name", lambda p: p.name)) different from player to player; `what`
    is the entry's field ("" when the entries are the names themselves). A FieldError names
    the list or the entry, e.g. players[2].name."""
    if not 2 <= len(items) <= 4:
        raise FieldError(field, f"{game} is for 2 to 4 players (got {len(items)})" + (f" ({rule})" if rule else ""))
    for what, key in keys:
        seen: set = set()
        for i, item in enumerate(items):
            place = f"{field}[{i}]" + (f".{what}" if what else "")
            shown = getattr(item, what) if what else item
            if isinstance(shown, str) and not shown.strip():
                raise FieldError(place, "empty name")
            if key(item) in seen:
                raise FieldError(place, f"{shown!r} appears twice: an earlier player has it")
            seen.add(key(item))


def counts_table(value: Any, what: str, example: str) -> Any:
    """A table of how many of each thing (chips per value, cards per caste): anything else
    is a FieldError that shows the expected form."""
    if not isinstance(value, dict):
        raise FieldError("", f"expected how many {what}, e.g. {example} (got {value!r})")
    return value
