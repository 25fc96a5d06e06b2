"""Yuncos scoring (Y7, Y8, Y20, Y22, Y23): plain arithmetic shared by the checker, the
quick tally and the printed sheet. No pydantic, no rendering: `score yuncos` starts fast."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sheetkit.messages import text
from sheetkit.checking.verdict import Details, Score

CRASH_TRACK = (2, 5, 9, 14, 20, 27)  # Y20, marked left to right


@dataclass(frozen=True, slots=True)
class Rank:
    """A solo rank (Y23), its words in the catalogues (`rank.yuncos.<key>`); JSON gives both
    languages, {"es": ..., "en": ...}, as the history reads it."""

    key: str

    def __call__(self, lang: str) -> str:
        return text(f"rank.yuncos.{self.key}", lang)

    @property
    def es(self) -> str:
        return self("es")

    @property
    def en(self) -> str:
        return self("en")

    def to_json(self) -> dict[str, str]:
        return {"es": self.es, "en": self.en}


# Y23: the lowest total of each rank, best last; a negative total takes the lowest rank.
RANKS: tuple[tuple[int | None, Rank], ...] = (
    (None, Rank("abandoned")),
    (43, Rank("rookie")),
    (53, Rank("fearless")),
    (63, Rank("skilled")),
    (73, Rank("expert")),
)


@dataclass(frozen=True, slots=True)
class TallyDetails(Details):
    """`score yuncos`: the level tallied, and the solo rank when asked for."""

    OMIT_IF_NONE = ("rank",)
    level: str
    rank: Rank | None = None


@dataclass(frozen=True, slots=True)
class SheetDetails(Details):
    """A checked sheet: what was replayed, turn by turn, beside the score."""

    OMIT_IF_NONE = ("qr", "rank")
    layout: str
    layout_version: str
    level: str
    start: str  # the start point's vertex name
    turns: int
    solo: bool
    end: dict[str, Any] | None  # {"turn", "reason"}: when and why the game ended (Y21)
    eliminated: int | None  # the turn the Yunco was eliminated in (Y20)
    fish: list[dict[str, Any]]  # {"turn", "vertex"} of every fish caught
    stars: list[dict[str, Any]]  # {"vertex", "colour"} of every star passed
    crashes: list[dict[str, Any]]
    abilities: dict[str, dict[str, Any]]  # box -> {"kind", "unlocked", "used"}
    qr: str | None = None
    rank: Rank | None = None  # solo games


def rank(total: int) -> Rank:
    found = RANKS[0][1]
    for low, words in RANKS[1:]:
        if total >= low:
            found = words
    return found


def rank_ranges() -> list[tuple[str, Rank]]:
    """("0-42", words), ..., ("73+", words), lowest first, as printed on the sheet."""
    lows = [0] + [low for low, _ in RANKS[1:]]
    out = []
    for i, (_, words) in enumerate(RANKS):
        out.append((f"{lows[i]}-{lows[i + 1] - 1}" if i + 1 < len(lows) else f"{lows[i]}+", words))
    return out


def fish_points(values: list[int], marked: int) -> int:
    """Y7: the value beside the last marked box of the fish counter."""
    return values[marked - 1] if marked > 0 else 0


def crash_points(marked: int) -> int:
    """Y20/Y22: the last marked value of the crash track, 0 if none."""
    return CRASH_TRACK[marked - 1] if marked > 0 else 0


def tally(fish_values: list[int], *, nests: int, columns: int, fish: int, stars: int, colours: int,
          crashes: int, solo: bool = False, eliminated: bool = False) -> Score:
    """Y22: Nests + Luminaries + Fish + Navigation - Crashes, from the counts on a sheet."""
    parts = [
        ("nests", 2 * nests),
        ("luminaries", 6 * columns),
        ("fish", fish_points(fish_values, fish)),
        ("navigation", stars * colours),
        ("crashes", -crash_points(crashes)),
    ]
    total = sum(p for _, p in parts)
    notes = [rank(total)] if solo else []
    return Score(player="", parts=parts, total=total, notes=notes, eliminated=eliminated)
