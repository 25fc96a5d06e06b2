"""Findings and scores: what `check` and `score` say about a record.

An illegal sheet is a value, not an exception: checking always returns a Verdict. A Verdict
is immutable once built; what is particular to a game (its players' holdings, majorities,
the solo rank, ...) is that game's own typed `Details`, and JSON is drawn from the types.
"""

from __future__ import annotations

import dataclasses
from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar

ERROR = "error"
WARNING = "warning"


@dataclass(slots=True)
class Finding:
    rule: str  # id from RULES.md, e.g. "Y10"
    where: str  # human words: "turn 7, step 3", "room C", "player Ana"
    message: str  # one sentence
    severity: str = ERROR
    # Machine-readable place, for JSON and for drawing the finding on the sheet:
    # e.g. {"turn": 7, "step": 3, "vertex": [4, 5]} or {"square": [2, 3]}.
    at: dict[str, Any] = field(default_factory=dict)

    def where_text(self, lang: str = "en") -> str:
        """The place in words in `lang` (a message still to be put into words is a Msg)."""
        return self.where(lang) if callable(self.where) else self.where

    def line(self, lang: str = "en") -> str:
        tag = "warning " if self.severity == WARNING else ""
        message = self.message(lang) if callable(self.message) else self.message
        return f"{tag}{self.rule} {self.where_text(lang)}: {message}"


@dataclass(slots=True)
class Score:
    """One player's score: ordered (label, points) parts and their total."""

    player: str
    parts: list[tuple[str, int]]
    total: int
    notes: list[str] = field(default_factory=list)  # e.g. the solo rank, "(1)" in Level X
    eliminated: bool = False


def plain(value: Any) -> Any:
    """JSON-ready: dataclasses as dicts, tuples as lists, keys as text."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return value.to_json() if hasattr(value, "to_json") else plain(asdict(value))
    if isinstance(value, dict):
        return {str(k) if not isinstance(k, str) else k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Details:
    """The base of every game's typed verdict details: its fields, in order, are the
    `info` of the JSON verdict (those in OMIT_IF_NONE only when set)."""

    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None and f.name in self.OMIT_IF_NONE:
                continue
            out[f.name] = plain(value)
        return out


@dataclass(frozen=True, slots=True)
class Sheet:
    """What the record's QR text says of the printed sheet it was copied from."""

    qr: str
    serial: int
    layout: str
    version: str
    current: bool  # that very layout version is the one the record is checked against


@dataclass(frozen=True, slots=True)
class Verdict:
    game: str
    source: str  # the record's file name, or "command line"
    findings: tuple[Finding, ...] = ()
    scores: tuple[Score, ...] = ()
    winners: tuple[str, ...] = ()
    details: Details | None = None  # the game's own, typed
    tiebreak: str | None = None  # why, when points alone did not decide the winner
    sheet: Sheet | None = None
    # A game still being played: the standings so far, no end-of-game findings, and whose
    # turn it is where the rules know it.
    in_progress: bool = False
    to_move: str | None = None

    def __post_init__(self):  # lists are welcome in, tuples are kept
        for name in ("findings", "scores", "winners"):
            object.__setattr__(self, name, tuple(getattr(self, name)))

    @property
    def legal(self) -> bool:
        return not any(f.severity == ERROR for f in self.findings)

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == ERROR)

    @property
    def exit_code(self) -> int:
        return 0 if self.legal else 1

    def status(self) -> str:
        """"legal" or "ILLEGAL: n finding(s)": the one wording every output uses; a game in
        progress says so."""
        status = "legal" if self.legal else f"ILLEGAL: {self.errors} finding(s)"
        if self.in_progress:
            status += " so far, in progress" + (f"; {self.to_move} to move" if self.to_move else "")
        return status

    @property
    def info(self) -> dict[str, Any]:
        """The JSON view of what the verdict says beyond scores and findings."""
        out = self.details.to_json() if self.details is not None else {}
        if self.tiebreak:
            out["tiebreak"] = self.tiebreak
        if self.sheet is not None:
            out.setdefault("qr", self.sheet.qr)
            out["serial"] = self.sheet.serial
            out["printed"] = {"layout": self.sheet.layout, "version": self.sheet.version,
                              "current": self.sheet.current}
        return out

    def to_json(self) -> dict[str, Any]:
        d = {"game": self.game, "source": self.source, "findings": [asdict(f) for f in self.findings],
             "scores": [], "winners": list(self.winners), "info": self.info, "legal": self.legal}
        if self.in_progress:  # only then, so that finished games read as they always have
            d["in_progress"] = True
            d["to_move"] = self.to_move
        for s in self.scores:
            s = asdict(s)
            s["parts"] = {label: pts for label, pts in s["parts"]}
            d["scores"].append(s)
        return d

    def to_text(self) -> str:
        out: list[str] = []
        head = f"{self.source}: {self.game}"
        layout = getattr(self.details, "layout", None)
        if layout is not None:
            head += f", layout {layout}"
        if self.sheet is not None:
            head += f", serial {self.sheet.serial}"
        out.append(head)
        out.append(f"  {self.status()}")
        for f in self.findings:
            out.append("  " + f.line())
        for s in self.scores:
            parts = "  ".join(f"{label} {pts}" for label, pts in s.parts)
            name = f"{s.player}: " if len(self.scores) > 1 or s.player else ""
            out.append(f"  {name}{parts}  = {s.total}" + ("  (eliminated)" if s.eliminated else ""))
            for n in s.notes:
                out.append(f"    {n}")
        if self.winners and len(self.scores) > 1:
            label = "leading" if self.in_progress else "winner" if len(self.winners) == 1 else "shared win"
            out.append(f"  {label}: {', '.join(self.winners)}")
            if self.tiebreak:
                out.append(f"  {self.tiebreak}")
        return "\n".join(out)
