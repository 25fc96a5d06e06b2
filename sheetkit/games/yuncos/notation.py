"""The Yuncos notation as plain data: what the rules, the checker, the moves and the photo
reader share, with no pydantic behind it.

The steps of a flight (N E S W, the diagonals NE NW SE SW) and their names, vertex names
("C7"), the abilities, the ability boxes of a sheet (`nest1.2`, `lum3`, `fish2`), and the
record once read (`Record`, `Turn`, `Cell`). Reading a record file into these is
record.py's work (its pydantic models); the rules take them as they are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sheetkit.errors import FieldError
from sheetkit.grid import square_name
from sheetkit.messages import msg

STEPS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
ABILITIES: tuple[str, ...] = ("plusminus", "diagonal", "yunco")  # what an ability box unlocks (layout.Ability)
vertex_name = square_name  # a map vertex (column, row) from (0, 0) as printed: "C7"

DIAGONALS = {"NE": (1, -1), "NW": (-1, -1), "SE": (1, 1), "SW": (-1, 1)}
ALL_STEPS = {**STEPS, **DIAGONALS}
STEP_NAMES = {v: k for k, v in ALL_STEPS.items()}

# ASCII digits only, and few of them: a box number is small, and int() of a few thousand
# digits raises instead of answering.
_COUNTED = re.compile(r"^([0-9]+)([NESW])$")
BOX_NAME = re.compile(r"^(?:nest([0-9]{1,3})\.([0-9]{1,3})|lum([0-9]{1,3})|fish([0-9]{1,3}))$")


def parse_flight(text: str) -> list[tuple[int, int]]:
    """Steps from a flight string. Tokens are separated by spaces or commas; a token
    NE/NW/SE/SW is one diagonal step; `3E` is three E steps; any other token is a run of
    unit steps, one per letter ("EEN" = E E N). Letters may be lower case."""
    steps: list[tuple[int, int]] = []
    for token in re.split(r"[\s,]+", text.strip()):
        if not token:
            continue
        if not token.isascii():  # upper() would turn "ß" into "SS": two steps nobody drew
            ch = next(c for c in token if not c.isascii())
            raise FieldError("flight", msg("error.yuncos.bad_step", ch=repr(ch)))
        token = token.upper()
        if token in DIAGONALS:
            steps.append(DIAGONALS[token])
            continue
        m = _COUNTED.match(token)
        if m:
            n = int(m.group(1)) if len(m.group(1)) <= 3 else 0
            if not 1 <= n <= 12:
                raise FieldError("flight", msg("error.yuncos.repeat_count", token=repr(token)))
            steps.extend([STEPS[m.group(2)]] * n)
            continue
        if token.isdigit():
            raise FieldError("flight", msg("error.yuncos.count_alone", token=repr(token), example=f"{token}E"))
        for ch in token:
            if ch not in STEPS:
                raise FieldError("flight", msg("error.yuncos.bad_step_o" if ch == "O" else "error.yuncos.bad_step",
                                               ch=repr(ch)))
            steps.append(STEPS[ch])
    if not steps:
        raise FieldError("flight", msg("error.yuncos.empty_flight"))
    if len(steps) > MOST_STEPS:
        raise FieldError("flight", msg("error.yuncos.flight_too_long", n=len(steps), most=MOST_STEPS))
    return steps


# A die flies at most 6 unit steps (Y4, Y5); a longer flight is a finding, but eight times
# that is no flight a die drew on a sheet, and drawing it would cost the checked sheet more
# than the whole game.
MOST_STEPS = 6 * 8


def other_readings(text: str) -> tuple[tuple[str, tuple[tuple[int, int], ...]], ...]:
    """The flight as it could have been meant, one token read the other way: a diagonal
    "NE" as the two steps "N E", two steps "N E" as the diagonal "NE", a run "NEE" as "NE E"
    or "EEN"... as "E EN" is not a diagonal (only NE, NW, SE, SW are). Each reading comes
    with the words that say it; the record's own reading stays the one that counts."""
    tokens = [t.upper() for t in re.split(r"[\s,]+", text.strip()) if t]
    out = []

    def alt(new_tokens: list[str], words: str) -> None:
        try:
            steps = tuple(parse_flight(" ".join(new_tokens)))
        except FieldError:
            return
        out.append((words, steps))

    for i, tok in enumerate(tokens):
        if tok in DIAGONALS:
            alt(tokens[:i] + list(tok) + tokens[i + 1:], f'"{tok}" is one diagonal step; if the two steps '
                f'"{tok[0]} {tok[1]}" were meant')
        elif len(tok) > 2 and tok.isalpha():
            if tok[:2] in DIAGONALS:
                alt(tokens[:i] + [tok[:2], tok[2:]] + tokens[i + 1:], f'"{tok}" is {len(tok)} unit steps; if the '
                    f'diagonal "{tok[:2]} {tok[2:]}" was meant')
            if tok[-2:] in DIAGONALS:
                alt(tokens[:i] + [tok[:-2], tok[-2:]] + tokens[i + 1:], f'"{tok}" is {len(tok)} unit steps; if '
                    f'"{tok[:-2]} {tok[-2:]}" with a diagonal was meant')
        if i + 1 < len(tokens) and tok + tokens[i + 1] in DIAGONALS and len(tok) == 1:
            alt(tokens[:i] + [tok + tokens[i + 1]] + tokens[i + 2:], f'"{tok} {tokens[i + 1]}" is two unit steps; '
                f'if the diagonal "{tok}{tokens[i + 1]}" was meant')
    return tuple(out)


# Ability boxes by names no one takes for a number box: nest1.ability2 is nest row 1's 2nd
# ability box (the short name nest1.2 is also the row's 2nd number box in `puzzle`);
# lum3.ability and fish2.ability likewise. The short names stay readable.
_LONG_BOX = [(re.compile(r"^(nest[0-9]{1,3})\.?ability([0-9]{1,3})$"), r"\1.\2"),
             (re.compile(r"^((?:lum|fish)[0-9]{1,3})\.?ability$"), r"\1")]


def box_name(name: Any) -> Any:
    """The short id of an ability box written either way ("nest1.ability2" -> "nest1.2")."""
    if isinstance(name, str):
        for pattern, short in _LONG_BOX:
            if pattern.match(name):
                return pattern.sub(short, name)
    return name


def flight_text(steps: list[tuple[int, int]]) -> str:
    return " ".join(STEP_NAMES[s] for s in steps)


@dataclass(frozen=True, slots=True)
class Cell:
    kind: str  # "nest" or "lum"
    line: int  # nest row or luminary column, from 0
    index: int | None  # box in the row (from 0) / level in the column (0 = bottom); None: next free

    def name(self, index: int | None = None) -> str:
        i = self.index if index is None else index
        base = f"{self.kind}{self.line + 1}"
        return base if i is None else f"{base}.{i + 1}"


@dataclass(frozen=True, slots=True)
class Turn:
    number: int  # from 1
    steps: tuple[tuple[int, int], ...]
    cell: Cell | None
    value: int | None
    crash: bool
    dice: tuple[int, int] | None
    use: tuple[str, ...]  # ability kinds or box ids
    start_at: tuple[int, int] | None
    # the flight as it could have been meant (other_readings): a fault of this turn that the
    # other reading would not have says so
    readings: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class Record:
    model: Any  # the RecordModel (record.py) the file was validated with
    layout: Any  # sheetkit.layouts.Layout of kind "sheet"
    turns: tuple[Turn, ...]
    short_names: frozenset[str] = frozenset()  # nest ability boxes written nestR.K (short_nest_names)
    kind = "game"  # a Yuncos record is one filled sheet (a table names several: table.py)

    @property
    def spec(self):
        return self.layout.spec

    @property
    def qr(self) -> str | None:
        return self.model.qr

    @property
    def in_progress(self) -> bool:
        return self.model.in_progress

    @property
    def sheet(self):
        return self.layout

    @property
    def start(self) -> tuple[int, int]:
        return self.spec.board.starts[self.model.start]


def box_kind(spec, box: str) -> str | None:
    """The ability an ability box gives, or None when the sheet has no such box."""
    m = BOX_NAME.match(box)
    if not m:
        return None
    if m.group(1):
        row, k = int(m.group(1)), int(m.group(2))
        if 1 <= row <= 2 and 1 <= k <= len(spec.nests.abilities[row - 1]):
            return spec.nests.abilities[row - 1][k - 1]
        return None
    if m.group(3):
        col = int(m.group(3))
        return spec.luminaries.abilities[col - 1] if 1 <= col <= spec.luminaries.columns else None
    return spec.fish_ability(int(m.group(4)))


def all_boxes(spec) -> list[str]:
    """Every ability box of the sheet, in the order they appear."""
    out = [f"nest{r + 1}.{k + 1}" for r in range(2) for k in range(len(spec.nests.abilities[r]))]
    out += [f"lum{c + 1}" for c in range(spec.luminaries.columns)]
    out += [f"fish{k}" for k in sorted(int(k) for k in spec.fish.abilities)]
    return out
