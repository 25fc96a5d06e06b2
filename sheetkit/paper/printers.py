"""Printer profiles: how one printer scales the page and shifts the back of a two-sided
sheet, measured on the calibration sheet (`sheetkit render calibration`), and corrected on
every page `render --printer NAME` writes.

A profile holds corrections, applied as they are:

- `scale_x`, `scale_y`: the drawing is enlarged by this factor (about the page's centre)
  before printing. A printer that prints the 150 mm ruler as 149.4 mm needs
  150 / 149.4 = 1.004.
- `back_dx`, `back_dy`: mm the backs of two-sided sheets are moved (right and down, as
  the back page itself is seen). The calibration sheet's back scales read these numbers
  directly.

The profiles live in one TOML file, `$XDG_CONFIG_HOME/sheetkit/printers.toml` (by default
`~/.config/sheetkit/printers.toml`); `SHEETKIT_PRINTERS` names another file.
No pydantic and no rendering library here: `sheetkit printer list` starts fast.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from pathlib import Path

from sheetkit.messages import msg
from sheetkit.errors import UserError

ENV = "SHEETKIT_PRINTERS"
# A home printer that is off by more than this is broken, or the value was mistyped.
SCALE_RANGE = (0.9, 1.1)
OFFSET_LIMIT = 10.0  # mm
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,39}")
FIELDS = ("scale_x", "scale_y", "back_dx", "back_dy")


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    scale_x: float = 1.0
    scale_y: float = 1.0
    back_dx: float = 0.0
    back_dy: float = 0.0

    def line(self) -> str:
        return (f"{self.name}: scale x {self.scale_x:g}, y {self.scale_y:g}; "
                f"back moved {self.back_dx:+g} mm across, {self.back_dy:+g} mm down")


def path() -> Path:
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "sheetkit" / "printers.toml"


def check_name(name: str) -> str:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise UserError(msg("error.printer.name", name=repr(name)))
    return name


def check_value(field: str, value, source: str | None = None) -> float:
    """One profile value as a float, or a one-line UserError saying what range it needs."""
    what = field.replace("_", "-")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise UserError(msg("error.printer.number", what=what, got=repr(value)), source=source)
    v = float(value)
    if field.startswith("scale"):
        lo, hi = SCALE_RANGE
        if not (math.isfinite(v) and lo <= v <= hi):
            raise UserError(msg("error.printer.scale", what=what, lo=f"{lo:g}", hi=f"{hi:g}", got=repr(value)),
                            source=source)
    elif not (math.isfinite(v) and abs(v) <= OFFSET_LIMIT):
        raise UserError(msg("error.printer.offset", what=what, limit=f"{OFFSET_LIMIT:g}", got=repr(value)),
                        source=source)
    return v


def make(name: str, **values) -> Profile:
    return Profile(check_name(name), **{f: check_value(f, v) for f, v in values.items()})


def load_all(file: Path | None = None) -> dict[str, Profile]:
    """Every saved profile by name; none when the file does not exist yet."""
    from sheetkit.tomlfile import MISSING, problem, read_toml

    file = file or path()
    bad = problem(file)  # never raises: a name too long or a folder closed to the user is said
    if bad == MISSING or bad == msg("error.file.not_a_folder"):
        return {}  # not saved yet (a file where a folder of the path would be: nothing saved there either)
    if bad:
        raise UserError(bad, source=str(file))
    data = read_toml(file)
    table = data.get("printers", {})
    if not isinstance(table, dict):
        raise UserError(msg("error.printer.tables"), source=str(file), field="printers")
    out = {}
    for name, entry in table.items():
        where = f"printers.{name}"
        if not isinstance(entry, dict):
            raise UserError(msg("error.printer.table"), source=str(file), field=where)
        unknown = sorted(set(entry) - set(FIELDS))
        if unknown:
            raise UserError(msg("error.printer.unknown_key", key=repr(unknown[0]), fields=", ".join(FIELDS)),
                            source=str(file), field=where)
        try:
            check_name(name)
            out[name] = Profile(name, **{f: check_value(f, v) for f, v in entry.items()})
        except UserError as e:
            raise UserError(e.message, source=str(file), field=where) from None
    return out


def get(name: str, file: Path | None = None) -> Profile:
    profiles = load_all(file)
    if name not in profiles:
        known = ", ".join(sorted(profiles)) or msg("error.printer.none_yet")
        raise UserError(msg("error.printer.unknown", name=repr(name), known=known), source=str(file or path()))
    return profiles[name]


def save(profile: Profile, file: Path | None = None) -> Path:
    """Add or replace one profile, rewriting the file atomically (the others kept)."""
    from sheetkit.paper.atomic import replacing

    file = file or path()
    profiles = load_all(file)
    profiles[profile.name] = profile
    lines = ["# sheetkit printer profiles: corrections measured on `sheetkit render calibration`.", ""]
    for name in sorted(profiles):
        p = profiles[name]
        lines.append(f'[printers."{name}"]')
        lines += [f"{f} = {getattr(p, f)!r}" for f in FIELDS]
        lines.append("")
    try:
        with replacing(file) as tmp:
            Path(tmp).write_text("\n".join(lines), encoding="utf-8")
    except OSError as e:
        raise UserError(msg("error.file.cannot_write", why=e.strerror or str(e)), source=str(file)) from None
    return file


def page_matrix(profile: Profile | None, width: float, height: float, back: bool) -> tuple[float, ...] | None:
    """The correction for one page, as a PDF matrix (a, b, c, d, e, f) in points, y up: scale
    about the page's centre, then (on a back) the offset. None when nothing changes."""
    if profile is None:
        return None
    pt = 72 / 25.4
    sx, sy = profile.scale_x, profile.scale_y
    dx, dy = (profile.back_dx, profile.back_dy) if back else (0.0, 0.0)
    if sx == 1 and sy == 1 and dx == 0 and dy == 0:
        return None
    cx, cy = width / 2 * pt, height / 2 * pt
    # y up in the PDF: moving down the page is a negative PDF offset
    return (sx, 0.0, 0.0, sy, cx * (1 - sx) + dx * pt, cy * (1 - sy) - dy * pt)
