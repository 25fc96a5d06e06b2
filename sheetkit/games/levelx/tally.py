"""`sheetkit score levelx RECORD`: totals, winner(s) and the first player's (1)."""

from sheetkit.checking import records


def score_lines(verdict) -> list[str]:
    out = [f"{verdict.source}: Level X"]
    players = verdict.details.players
    for s in verdict.scores:
        p = players[s.player]
        chips = "  ".join(f"{v}x{n}" for v, n in p.chips.items() if n)
        bonus = "+".join(str(b) for b in p.bonuses) or "0"
        mark = " (1)" if "(1)" in s.notes else ""
        out.append(f"  {s.player}{mark}: {s.total}  ({'chips ' + chips if chips else 'no chips'}; bonuses {bonus})")
    return out


score_command = records.score_command(
    "levelx", "Tally a Level X record (final position or whole game): totals, winner(s), the first player's (1). "
    "Exit 1 if the record cannot be.", score_lines)
