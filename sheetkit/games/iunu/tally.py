"""`sheetkit score iunu RECORD`: the totals, majorities and winner(s) of a game record."""

from sheetkit.checking import records


def score_lines(verdict) -> list[str]:
    out = [f"{verdict.source}: IUNU"]
    for s in verdict.scores:
        parts = ", ".join(f"{label} {pts}" for label, pts in s.parts)
        out.append(f"  {s.player}: {s.total}  ({parts}; {'; '.join(s.notes)})")
    return out


score_command = records.score_command(
    "iunu", "Tally an IUNU game record: totals, majorities, winner(s). Exit 1 if it cannot be.",
    score_lines)
