"""Reading TOML files into typed, validated models, with one-line errors.

Models forbid unknown keys and do not coerce types ("5" is not 5). Checks that span
several fields raise FieldError(field path, message) from a validator; the loader turns
any failure into a UserError naming the file, the field and what was expected.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationError

from sheetkit.memo import NOT_PLAIN, Memo, data_unchanged, plain
from sheetkit.messages import Msg, msg
from sheetkit.errors import FieldError, UserError
from sheetkit.tomlfile import read_toml  # noqa: F401  (re-exported: schema.load reads through it)

M = TypeVar("M", bound=BaseModel)
_MISSING: Any = object()

# Bounds every layout keeps, whatever its game: what fits on a sheet of paper.
PAGE_MM = 300.0  # the long side of A4 is 297 mm: no single size on paper is larger
MAX_TEXT = 500  # characters in one printed text; the longest shipped one has 199


class Model(BaseModel):
    # no NaN or infinity anywhere: `square = nan` is refused like any other wrong value
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)


def _size(low: float, high: float):
    def check(v: float) -> float:
        if not low < v <= high:
            raise ValueError(msg("error.schema.size_mm", low=f"{low:g}", high=f"{high:g}"))
        return v
    return check


def Mm(high: float = PAGE_MM, low: float = 0.0):
    """A size in millimetres: above `low` (0: positive), at most `high` (what fits a page).
    The layout's own checks may narrow it further."""
    return Annotated[float, AfterValidator(_size(low, high))]


def Count(low: int, high: int, what: str = ""):
    """A whole number from `low` to `high`: the most the game could need, so an absurd
    value is refused before anything is drawn or counted."""
    said = msg("error.unit." + re.sub(r"\W+", "_", what)) if what else None  # "boxes a row": error.unit.boxes_a_row

    def check(v: int) -> int:
        if not low <= v <= high:
            raise ValueError(msg("error.schema.count_of", what=said, low=low, high=high) if what
                             else msg("error.schema.count_range", low=low, high=high))
        return v
    return Annotated[int, AfterValidator(check)]


def printable(text: str, *, lines: bool = False) -> str:
    """A text drawn on paper: no control characters (line breaks only where `lines`), at
    most MAX_TEXT characters a line. ValueError otherwise."""
    for i, ch in enumerate(text):
        if ch == "\n" and lines:
            continue
        if unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp"):
            what = msg("error.schema.line_break") if ch in "\r\n\u2028\u2029\x85" else msg(
                "error.schema.control_char", char=repr(ch))
            raise ValueError(msg("error.schema.not_printable", what=what, at=i + 1))
    longest = max((len(line) for line in text.split("\n")), default=0) if lines else len(text)
    if longest > MAX_TEXT:
        raise ValueError(msg("error.schema.text_too_long", n=longest, limit=MAX_TEXT))
    return text


Text = Annotated[str, AfterValidator(printable)]


class Label(Model):
    """A text given in both languages of the sheets."""

    es: Text
    en: Text

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
    """(field path, message) of the first error, in plain words: the message is a catalogue
    message (Msg), or a plain string only where a check gave one. Given the input `data`,
    union members are told from fields more surely."""
    e = err.errors(include_url=False)[0]
    loc = _loc(_field_parts(tuple(e["loc"]), data))
    cause = (e.get("ctx") or {}).get("error")
    if isinstance(cause, FieldError):
        field = f"{loc}.{cause.field}" if loc and cause.field else (cause.field or loc)
        return field, cause.message
    kind = e["type"]
    if kind == "extra_forbidden":
        return loc, msg("error.schema.unknown_field")
    if kind == "missing":
        return loc, msg("error.schema.missing_field")
    said = _pydantic_words(kind, e.get("ctx") or {}, e["msg"])
    if "input" in e and kind not in ("missing",):
        said = msg("error.schema.got", what=said, got=_short(e["input"]))
    return loc, said


_PYDANTIC = {  # pydantic's error types said in the catalogues (error.schema.<type>); English as pydantic says it
    "int_type", "int_parsing", "int_from_float", "string_type", "float_type", "float_parsing", "bool_type",
    "list_type", "dict_type", "model_attributes_type", "finite_number", "tuple_type", "set_type",
}


def _pydantic_words(kind: str, ctx: dict, english: str):
    """A pydantic error in the catalogues' words; one not listed here keeps pydantic's English
    (wrapped, so a Spanish line still says it is an unusable value)."""
    if kind in _PYDANTIC:
        return msg(f"error.schema.{kind}")
    if kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal"):
        return msg(f"error.schema.{kind}", limit=next(iter(ctx.values()), "?"))
    if kind in ("literal_error", "enum") and "expected" in ctx:
        first, _, last = str(ctx["expected"]).rpartition(" or ")
        return msg("error.schema.literal", expected=msg("error.or", a=first, b=last) if first else last)
    if kind == "model_type":
        return msg("error.schema.model_type", name=ctx.get("class_name", "?"))
    if kind in ("too_long", "too_short", "string_too_long", "string_too_short") and \
            ctx.get("field_type", "List") in ("List", "Tuple", "Set", "Dictionary"):
        length = ctx.get("max_length", ctx.get("min_length"))
        values = {"n": length, "actual": ctx.get("actual_length", "?")}
        if not kind.startswith("string"):
            values["field_type"] = msg(f"error.schema.{ctx.get('field_type', 'List').lower()}")
        return msg(f"error.schema.{kind}", **values)
    cause = ctx.get("error")
    if isinstance(cause, ValueError) and cause.args and isinstance(cause.args[0], Msg):
        return cause.args[0]  # a validator's own message
    if kind == "value_error" and english.startswith("Value error, "):
        english = english[len("Value error, "):]
    return msg("error.schema.other", detail=english)


# Tables read before, kept by their very values: the page reads a play's whole record at
# every move, and all its turns but the last are ones it read before.
_KEPT = Memo(8192)


def kept_model(model: type[M], data: Any) -> M:
    """`model.model_validate(data)` (raising as it does), kept by the data's values once it
    validates: a model's own checks see nothing but its data; and by the very data where
    it is never changed (memo.unchanged_data: a play's records on the page)."""
    by_object = data_unchanged()
    if by_object:
        got = _KEPT.get(model, (data,))
        if got is not None:
            return got
    key = plain(data)
    got = model.model_validate(data) if key is NOT_PLAIN else _KEPT.kept((model, key), (), lambda: model.model_validate(data))
    return _KEPT.put(model, (data,), got) if by_object else got


def validate(model: type[M], data: Any, source: str) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as err:
        field, said = validation_message(err, data)
        raise UserError(said, source=source, field=field or None) from None
    except FieldError as err:  # raised outside pydantic's wrapping
        raise UserError(err.message, source=source, field=err.field) from None


def load(model: type[M], path: str | Path) -> M:
    return validate(model, read_toml(path), str(path))


def check_score_table(players: int, box: float, row: float) -> None:
    """A score pad's table, for every game's pad: 2 to 4 player columns, digit boxes of at
    least 7 mm (a digit written by hand), rows taller than their boxes."""
    if not 2 <= players <= 4:
        raise FieldError("players", msg("error.schema.pad_columns", got=players))
    if box < 7.0:
        raise FieldError("box", msg("error.schema.pad_box", got=box))
    if row < box + 1:
        raise FieldError("row", msg("error.schema.pad_row", least=box + 1, got=row))


def check_players(game: str, items: list, field: str, *keys: tuple[str, Any], rule: str = "") -> None:
    """The player list of a record, the same for every game: 2 to 4 players, and each
    `(what, key)` (e.g. ("name", lambda p: p.name)) different from player to player; `what`
    is the entry's field ("" when the entries are the names themselves). A FieldError names
    the list or the entry, e.g. players[2].name."""
    if not 2 <= len(items) <= 4:
        raise FieldError(field, msg("error.schema.players_rule" if rule else "error.schema.players", game=game,
                                    got=len(items), rule=rule))
    for what, key in keys:
        seen: set = set()
        for i, item in enumerate(items):
            place = f"{field}[{i}]" + (f".{what}" if what else "")
            shown = getattr(item, what) if what else item
            if isinstance(shown, str) and not shown.strip():
                raise FieldError(place, msg("error.schema.empty_name"))
            if key(item) in seen:
                raise FieldError(place, msg("error.schema.name_twice", name=repr(shown)))
            seen.add(key(item))


def counts_table(value: Any, what: str, example: str) -> Any:
    """A table of how many of each thing (chips per value, cards per caste): anything else
    is a FieldError that shows the expected form."""
    if not isinstance(value, dict):
        raise FieldError("", msg("error.schema.counts_table", what=what, example=example, got=repr(value)))
    return value
