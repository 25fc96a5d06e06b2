"""The legal-move question of a Yuncos sheet, asked at the end of a record (`sheetkit moves`):
for the two dice of the next turn, which values can fly (plus or minus one with the
abilities left, Y17), which puzzle cells take the other die (Y11, Y12), and whether a
ground crash is forced (Y13). Without dice: every value's cells, and the abilities left."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sheetkit.messages import Msg, msg, text
from sheetkit.checking.verdict import say
from sheetkit.games.yuncos.rules import Sheet, ability, cell_words, placements

KINDS = ("plusminus", "diagonal", "yunco")


@dataclass(frozen=True, slots=True)
class Option:
    """One way to play the dice: the die `rolled` flies as `fly`, the other die (`other`) is
    written as `write`, with `plusminus` uses of +/-1 (the fewest that do it)."""

    rolled: int
    fly: int
    write: int
    plusminus: int
    cells: tuple[str, ...]  # where `write` can go; none: a ground crash (Y13)
    other: int = 0  # the written die as rolled

    def to_json(self) -> dict[str, Any]:
        return {"rolled": self.rolled, "fly": self.fly, "other": self.other, "write": self.write,
                "plusminus": self.plusminus, "cells": list(self.cells), "crash": not self.cells}

    def words(self, lang: str) -> str:
        """"fly the 6 lowered to 5, write the 3": which die does what, and how it was changed."""
        def die(rolled: int, used: int) -> str:
            if used == rolled:
                return text("moves.yuncos.die", lang, die=rolled)
            return text("moves.yuncos.die_raised" if used > rolled else "moves.yuncos.die_lowered", lang,
                        die=rolled, value=used, n=abs(used - rolled))
        return text("moves.yuncos.option", lang, fly=die(self.rolled, self.fly), write=die(self.other, self.write))


@dataclass(frozen=True, slots=True)
class Moves:
    turn: int  # the turn the question is about
    over: Msg | None  # why no turn follows (the game ended, the Yunco was eliminated)
    abilities: dict[str, int]  # usable this turn, by kind
    cells: dict[int, tuple[str, ...]]  # value 1-6 -> the cells that take it now
    dice: tuple[int, int] | None = None
    options: tuple[Option, ...] = ()

    @property
    def flies(self) -> list[int]:
        """The die values that can fly this turn."""
        return sorted({o.fly for o in self.options})

    @property
    def crash_forced(self) -> bool:
        """Whatever flies, the other die fits nowhere: the turn is a ground crash."""
        return bool(self.options) and all(not o.cells for o in self.options)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": "yuncos", "turn": self.turn, "over": None if self.over is None else say(self.over, "en"),
                               "abilities": dict(self.abilities),
                               "cells": {str(v): list(c) for v, c in self.cells.items()}}
        if self.dice is not None:
            out.update({"dice": list(self.dice), "flies": self.flies, "crash_forced": self.crash_forced,
                        "options": [o.to_json() for o in self.options]})
        return out

    def lines(self, lang: str = "en") -> list[str]:
        t = lambda mid, **kw: text(mid, lang, **kw)  # noqa: E731
        if self.over:
            return [t("moves.yuncos.over", turn=self.turn, why=self.over)]
        left = ", ".join(t("yuncos.crash.tally", n=n, kind=ability(k)) for k, n in self.abilities.items() if n)
        out = [t("moves.yuncos.head", turn=self.turn, abilities=left or t("yuncos.crash.none"))]
        if self.dice is None:
            for v, cells in self.cells.items():
                out.append(f"  {v}: " + (", ".join(cell_words(c)(lang) for c in cells) if cells
                                         else t("moves.yuncos.fits_nowhere")))
            return out
        out.append("  " + t("moves.yuncos.dice", a=self.dice[0], b=self.dice[1], flies=", ".join(map(str, self.flies))))
        for o in self.options:
            where = (", ".join(cell_words(c)(lang) for c in o.cells) if o.cells else t("moves.yuncos.ground_crash"))
            out.append(f"  {o.words(lang)}: {where}")
        if self.crash_forced:
            out.append("  " + t("moves.yuncos.crash_forced"))
        return out


def ready(sheet: Sheet, turn: int) -> dict[str, int]:
    """The abilities usable in `turn`: unlocked in an earlier turn and not used (Y15, Y16)."""
    out = dict.fromkeys(KINDS, 0)
    for b in sheet.boxes:
        if b.used is None and b.unlocked is not None and b.unlocked < turn:
            out[b.kind] = out.get(b.kind, 0) + 1
    return out


def options(sheet: Sheet, dice: tuple[int, int], plusminus: int) -> list[Option]:
    """Every (fly, write) the dice allow with up to `plusminus` uses of +/-1, each die kept
    within 1-6 (Y17), with the fewest uses that reach it."""
    best: dict[tuple[int, int, int], int] = {}
    for i in (0, 1):
        for a in range(-plusminus, plusminus + 1):
            for b in range(-(plusminus - abs(a)), plusminus - abs(a) + 1):
                f, w = dice[i] + a, dice[1 - i] + b
                if 1 <= f <= 6 and 1 <= w <= 6:
                    key = (dice[i], f, w)
                    best[key] = min(best.get(key, plusminus), abs(a) + abs(b))
    return [Option(rolled, f, w, k, tuple(placements(sheet.nests, sheet.lums, w)), dice[1] if rolled == dice[0] else dice[0])
            for (rolled, f, w), k in sorted(best.items(), key=lambda kv: (kv[1], kv[0][1], kv[0][2], kv[0][0]))]


def moves(record, checked, dice: tuple[int, ...] | None = None) -> Moves:
    """The legal next moves on the sheet replayed from `record` (checked.state)."""
    sheet: Sheet = checked.state
    turn = sheet.turns + 1
    abilities = ready(sheet, turn)
    cells = {v: tuple(placements(sheet.nests, sheet.lums, v)) for v in range(1, 7)}
    over = None
    if sheet.eliminated is not None:
        over = msg("moves.yuncos.eliminated", turn=sheet.eliminated)
    elif sheet.end is not None:
        over = msg("moves.yuncos.ended", turn=sheet.end[0], reason=sheet.end[1])
    if dice is None or over:
        return Moves(turn, over, abilities, cells, None if dice is None else tuple(dice))
    if len(dice) != 2 or any(not 1 <= d <= 6 for d in dice):
        from sheetkit.errors import UserError

        raise UserError(msg("error.yuncos.moves_dice", got=", ".join(map(str, dice))))
    dice = (dice[0], dice[1])
    return Moves(turn, None, abilities, cells, dice, tuple(options(sheet, dice, abilities["plusminus"])))
