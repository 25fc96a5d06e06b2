"""IUNU (Todd Sanders): the score pad, deck descriptions, game records. Rules I1-I5 in
RULES.md; formats and decisions in docs/iunu.md.

Entry points are imported only when called: listing the games loads neither pydantic
nor a rendering library.
"""

from sheetkit import records
from sheetkit.games import deferred

NAME = "iunu"
PAD = "iunu-score-pad"  # the sheet records are copied from: a record's QR text names it

TEMPLATES = {
    "iunu": deferred("sheetkit.games.iunu.templates", "record"),
    "iunu-deck": deferred("sheetkit.games.iunu.templates", "deck"),
}

compose = deferred("sheetkit.games.iunu.paper", "compose")
lint = deferred("sheetkit.games.iunu.sense", "lint")
load_record = deferred("sheetkit.games.iunu.record", "load_record")
check = deferred("sheetkit.games.iunu.rules", "check")
overlay = deferred("sheetkit.games.iunu.filled", "overlay")  # `check --render`: the pad filled in


def record_template(layout) -> str:
    """`sheetkit template <the pad>`: the record that goes with it."""
    return TEMPLATES["iunu"]()


def __getattr__(name):
    if name == "LAYOUT_KINDS":
        from sheetkit.games.iunu.layout import ScorePad

        return {"score-pad": ScorePad}
    if name == "RECORD_KINDS":
        from sheetkit.games.iunu.record import Deck, RecordData

        return {"game": RecordData, "deck": Deck}
    raise AttributeError(name)


def score_lines(verdict) -> list[str]:
    out = [f"{verdict.source}: IUNU"]
    for s in verdict.scores:
        parts = ", ".join(f"{label} {pts}" for label, pts in s.parts)
        out.append(f"  {s.player}: {s.total}  ({parts}; {'; '.join(s.notes)})")
    return out


score_command = records.score_command(
    NAME, "Tally an IUNU game record: totals, majorities, winner(s). Exit 1 if it cannot be.",
    score_lines)
