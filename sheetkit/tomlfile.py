"""The one way in for every file sheetkit reads: a regular file of bounded size, TOML of
bounded nesting with 64-bit integers, each problem told in one line. No pydantic here:
fast commands use it too.

Files named inside other files (a record's layout, board or deck) come in the same way.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import tomllib
from os import PathLike
from typing import Any

from sheetkit.messages import msg
from sheetkit.errors import UserError

MAX_BYTES = 1_000_000  # the largest shipped layout is 5 kB; a record of the longest game far less
MAX_DEPTH = 20  # tables and arrays inside each other; the formats need 4
INT_MIN, INT_MAX = -(2**63), 2**63 - 1  # TOML integers are 64-bit

_PATH_ERRORS = {  # the message ids under error.file
    errno.ENOENT: "missing",
    errno.ENAMETOOLONG: "name_too_long",
    errno.EACCES: "access",
    errno.EPERM: "permission",
    errno.ENOTDIR: "not_a_folder",
    errno.ELOOP: "links",
    errno.EISDIR: "folder",
}
MISSING = msg("error.file.missing")  # what problem() says of a file that is not there


def _path_problem(e: OSError):
    known = _PATH_ERRORS.get(e.errno)
    return msg(f"error.file.{known}") if known else msg("error.file.cannot_read", why=e.strerror or "?")


def problem(path: str | PathLike):
    """Why `path` cannot be read as an input file, a message; None if it can be tried.
    Never raises: a name too long or a folder closed to the user is a problem like any other."""
    try:
        st = os.stat(path)
    except (OSError, ValueError) as e:  # ValueError: a NUL byte in the name
        return _path_problem(e) if isinstance(e, OSError) else msg("error.file.nul_name")
    return _kind_problem(st.st_mode, st.st_size)


def _kind_problem(mode: int, size: int, limit: int = MAX_BYTES):
    if stat.S_ISDIR(mode):
        return msg("error.file.folder")
    if not stat.S_ISREG(mode):
        return msg("error.file.not_regular")
    if size > limit:
        return msg("error.file.too_large", size=f"{size:,}", limit=f"{limit:,}")
    return None


def is_file(path: str | PathLike) -> bool:
    """True if `path` names a regular file that may be read (a readable size, no errors)."""
    return problem(path) is None


def read_bytes(path: str | PathLike, limit: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (MAX_BYTES unless a caller reads
    something larger, e.g. a history export); UserError otherwise. A named pipe is opened
    without waiting for a writer and refused; a file growing while read is cut at the limit
    and refused, so /dev/zero-like input never fills memory."""
    source = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as e:
        raise UserError(_path_problem(e), source=source) from None
    except ValueError:
        raise UserError(msg("error.file.nul_name"), source=source) from None
    try:
        st = os.fstat(fd)
        bad = _kind_problem(st.st_mode, st.st_size, limit)
        if bad:
            raise UserError(bad, source=source)
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(limit + 1 - size, 1 << 24))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise UserError(msg("error.file.grew_too_large", limit=f"{limit:,}"), source=source)
        return b"".join(chunks)
    except OSError as e:
        raise UserError(_path_problem(e), source=source) from None
    finally:
        os.close(fd)


def read_toml(path: str | PathLike) -> dict[str, Any]:
    return parse_toml(read_bytes(path), str(path))


def decode(raw: bytes, source: str) -> str:
    """The text of a file's bytes: UTF-8 (a byte order mark, as Notepad writes, is skipped);
    UserError naming `source` and the line otherwise."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw[:e.start].count(b"\n") + 1
        raise UserError(msg("error.file.not_utf8", line=line), source=source) from None


def parse_toml(raw: bytes, source: str) -> dict[str, Any]:
    """TOML from bytes, within the caps; UserError naming `source` otherwise."""
    return parse_toml_text(decode(raw, source), source)


def parse_toml_text(text: str, source: str) -> dict[str, Any]:
    """TOML from text held in memory (a record kept in the history, an import, a form),
    within the same caps as a file: at most MAX_BYTES once written as UTF-8, text that
    UTF-8 can write (no lone surrogate, as JSON's "\\ud800" gives), no NUL, nesting at
    most MAX_DEPTH, 64-bit integers; UserError naming `source` otherwise."""
    if not isinstance(text, str):  # e.g. a BLOB where the history keeps text
        raise UserError(msg("error.file.not_text"), source=source)
    if len(text) > MAX_BYTES:  # no UTF-8 encoding is shorter than the text
        raise UserError(msg("error.file.text_too_large", limit=f"{MAX_BYTES:,}"), source=source)
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError as e:
        line = text[:e.start].count("\n") + 1
        raise UserError(msg("error.file.surrogate", line=line), source=source) from None
    if size > MAX_BYTES:
        raise UserError(msg("error.file.text_too_large", limit=f"{MAX_BYTES:,}"), source=source)
    if "\x00" in text:
        raise UserError(msg("error.file.nul_char", line=text[:text.index(chr(0))].count(chr(10)) + 1), source=source)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise UserError(msg("error.toml.invalid", why=str(e)), source=source) from None
    except RecursionError:
        raise UserError(msg("error.toml.deep", limit=MAX_DEPTH), source=source) from None
    except ValueError as e:  # Python's cap on digits in int(); other ValueErrors alike
        if "digits" in str(e):
            raise UserError(msg("error.toml.digits", low=INT_MIN, high=INT_MAX), source=source) from None
        raise UserError(msg("error.toml.invalid", why=str(e)), source=source) from None
    check_bounds(data, source)
    return data


def check_bounds(data: dict, source: str, before: dict | None = None) -> None:
    """Nesting at most MAX_DEPTH (dotted keys nest without recursion in the parser) and
    every integer 64-bit; walked without recursion. A value's place is kept as a link to
    its parent's and written out only for the error (a long record has thousands).

    `before`: data that passed already, of which `data` is made (a play's record before its
    move): a table or array that is the very object at the same place there is not walked
    again, so a move costs the walk of what it added."""
    stack: list[tuple[Any, int, tuple | None, Any]] = [(data, 1, None, before)]
    while stack:
        value, depth, at, was = stack.pop()
        if value is was:
            continue  # the very value at the same place and depth: it passed
        if isinstance(value, dict):
            old = was if isinstance(was, dict) else {}
            children = [(v, depth + 1, (at, k, False), old.get(k)) for k, v in value.items()]
        elif isinstance(value, list):
            old = was if isinstance(was, list) else ()
            children = [(v, depth + 1, (at, i, True), old[i] if i < len(old) else None) for i, v in enumerate(value)]
        else:
            if isinstance(value, int) and not isinstance(value, bool) and not INT_MIN <= value <= INT_MAX:
                raise UserError(msg("error.toml.int_range", low=INT_MIN, high=INT_MAX), source=source,
                                field=_place(at))
            continue
        if depth > MAX_DEPTH:
            raise UserError(msg("error.toml.deep", limit=MAX_DEPTH), source=source, field=_place(at) or None)
        stack.extend(children)


def _place(at: tuple | None) -> str:
    """A value's place in its record (turn[3].dice), from check_bounds' links."""
    steps = []
    while at is not None:
        at, key, index = at
        steps.append((key, index))
    where = ""
    for key, index in reversed(steps):
        where = f"{where}[{key}]" if index else (f"{where}.{key}" if where else str(key))
    return where


# --- writing -------------------------------------------------------------------------

def toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # JSON string escapes are TOML's basic-string escapes
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(x)}" for k, x in v.items()) + " }" if v else "{}"
    raise TypeError(type(v).__name__)


def toml_key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k, ensure_ascii=False)


def dump_toml(data: dict[str, Any], comment: str = "", kept=None) -> str:
    """Data as TOML text that reads back as the same data (records written by the web page and
    the random players): scalars first, then tables of tables, then arrays of tables ([[turn]]).

    `kept`: a sheetkit.memo.Memo holding each item of an array of tables written before, by
    the very object, for a caller whose data is never changed once written (the page's
    records: a move makes a new record of the same turns and one more)."""
    out = [f"# {line}" for line in comment.splitlines()] + ([""] if comment else [])
    tables, arrays = [], []
    for k, v in data.items():
        if isinstance(v, dict) and v and all(isinstance(x, dict) for x in v.values()):
            tables.append((k, v))
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            arrays.append((k, v))
        else:
            out.append(f"{toml_key(k)} = {toml_value(v)}")
    for k, v in tables:
        for sub, table in v.items():
            out += ["", f"[{toml_key(k)}.{toml_key(sub)}]"] + [f"{toml_key(a)} = {toml_value(b)}" for a, b in table.items()]
    for k, items in arrays:
        key = toml_key(k)
        for item in items:
            lines = lambda: _item(key, item, ["", f"[[{key}]]"])  # noqa: E731
            out += lines() if kept is None else kept.kept(key, (item,), lines)
    return "\n".join(out) + "\n"


def _item(path: str, item: dict[str, Any], out: list[str]) -> list[str]:
    """An item of an array of tables: its values inline, but a record inside it (a Yuncos
    table's inline sheet: a table holding tables or arrays of tables) as tables of its own."""
    nested = [(a, b) for a, b in item.items() if isinstance(b, dict) and any(
        isinstance(x, dict) or (isinstance(x, list) and x and all(isinstance(y, dict) for y in x)) for x in b.values())]
    out += [f"{toml_key(a)} = {toml_value(b)}" for a, b in item.items() if (a, b) not in nested]
    for a, table in nested:
        sub = f"{path}.{toml_key(a)}"
        arrays = [(c, v) for c, v in table.items() if isinstance(v, list) and v and all(isinstance(x, dict) for x in v)]
        out += ["", f"[{sub}]"] + [f"{toml_key(c)} = {toml_value(v)}" for c, v in table.items() if (c, v) not in arrays]
        for c, v in arrays:
            for x in v:
                out += ["", f"[[{sub}.{toml_key(c)}]]"]
                _item(f"{sub}.{toml_key(c)}", x, out)
    return out
