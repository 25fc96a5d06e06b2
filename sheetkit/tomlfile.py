"""Reading a TOML file, with one-line errors. No pydantic here: fast commands use it too."""

from __future__ import annotations

import tomllib
from os import PathLike
from typing import Any

from sheetkit.errors import UserError


def read_toml(path: str | PathLike) -> dict[str, Any]:
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        raise UserError("no such file", source=str(path)) from None
    except IsADirectoryError:
        raise UserError("is a folder, expected a .toml file", source=str(path)) from None
    except OSError as e:
        raise UserError(e.strerror or "cannot read", source=str(path)) from None
    try:
        return tomllib.loads(raw.decode("utf-8-sig"))  # a byte order mark (Notepad) is skipped
    except UnicodeDecodeError as e:
        line = raw[:e.start].count(b"\n") + 1
        raise UserError(f"not UTF-8 text (line {line}); save it as UTF-8", source=str(path)) from None
    except tomllib.TOMLDecodeError as e:
        raise UserError(f"not valid TOML: {e}", source=str(path)) from None
