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


def validation_message(err: ValidationError) -> tuple[str, str]:
    """(field path, message) of the first error, in plain words."""
    e = err.errors(include_url=False)[0]
    loc = _loc(tuple(p for p in e["loc"] if not str(p).startswith("function-")))
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
        field, msg = validation_message(err)
        raise UserError(msg, source=source, field=field or None) from None
    except FieldError as err:  # raised outside pydantic's wrapping
        raise UserError(err.message, source=source, field=err.field) from None


def load(model: type[M], path: str | Path) -> M:
    return validate(model, read_toml(path), str(path))
