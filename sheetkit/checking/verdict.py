"""Findings and scores: what `check` and `score` say about a record.

An illegal sheet is a value, not an exception: checking always returns a Verdict.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

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

    def line(self) -> str:
        tag = "warning " if self.severity == WARNING else ""
        return f"{tag}{self.rule} {self.where}: {self.message}"


@dataclass(slots=True)
class Score:
    """One player's score: ordered (label, points) parts and their total."""

    player: str
    parts: list[tuple[str, int]]
    total: int
    notes: list[str] = field(default_factory=list)  # e.g. the solo rank, "(1)" in Level X
    eliminated: bool = False


@dataclass(slots=True)
class Verdict:
    game: str
    source: str  # the record's file name, or "command line"
    findings: list[Finding] = field(default_factory=list)
    scores: list[Score] = field(default_factory=list)
    winners: list[str] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)  # serial, layout id, rank, ...

    @property
    def legal(self) -> bool:
        return not any(f.severity == ERROR for f in self.findings)

    @property
    def exit_code(self) -> int:
        return 0 if self.legal else 1

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["legal"] = self.legal
        for s in d["scores"]:
            s["parts"] = {label: pts for label, pts in s["parts"]}
        return d

    def to_text(self) -> str:
        out: list[str] = []
        head = f"{self.source}: {self.game}"
        for key in ("layout", "serial"):
            if key in self.info:
                head += f", {key} {self.info[key]}"
        out.append(head)
        errors = [f for f in self.findings if f.severity == ERROR]
        out.append(f"  {'legal' if not errors else f'ILLEGAL: {len(errors)} finding(s)'}")
        for f in self.findings:
            out.append("  " + f.line())
        for s in self.scores:
            parts = "  ".join(f"{label} {pts}" for label, pts in s.parts)
            name = f"{s.player}: " if len(self.scores) > 1 or s.player else ""
            out.append(f"  {name}{parts}  = {s.total}" + ("  (eliminated)" if s.eliminated else ""))
            for n in s.notes:
                out.append(f"    {n}")
        if self.winners and len(self.scores) > 1:
            label = "winner" if len(self.winners) == 1 else "shared win"
            out.append(f"  {label}: {', '.join(self.winners)}")
            if "tiebreak" in self.info:  # why, when points alone did not decide
                out.append(f"  {self.info['tiebreak']}")
        return "\n".join(out)
