"""Level X (Stefan Risthaus): the board, the score pad, final positions and whole games
replayed turn by turn. Rules L1-L9 in RULES.md; formats and decisions in docs/levelx.md.

Entry points are imported only when called: listing the games loads neither pydantic
nor a rendering library.
"""

from sheetkit import records
from sheetkit.games import deferred

NAME = "levelx"
PAD = "levelx-score-pad"  # the sheet records are copied from: a record's QR text names it

TEMPLATES = {
    "levelx": deferred("sheetkit.games.levelx.templates", "game"),
    "levelx-final": deferred("sheetkit.games.levelx.templates", "final"),
}

compose = deferred("sheetkit.games.levelx.paper", "compose")
lint = deferred("sheetkit.games.levelx.sense", "lint")
load_record = deferred("sheetkit.games.levelx.record", "load_record")
check = deferred("sheetkit.games.levelx.verdicts", "check")
overlay = deferred("sheetkit.games.levelx.filled", "overlay")  # `check --render`: the pad filled in


def record_template(layout) -> str:
    """`sheetkit template <the pad>`: the record that goes with it."""
    return TEMPLATES["levelx-final"]()


def __getattr__(name):
    if name == "LAYOUT_KINDS":
        from sheetkit.games.levelx.layout import Board, ScorePad

        return {"board": Board, "score-pad": ScorePad}
    if name == "RECORD_KINDS":
        from sheetkit.games.levelx.record import KINDS

        return KINDS
    raise AttributeError(name)


def score_lines(verdict) -> list[str]:
    out = [f"{verdict.source}: Level X"]
    players = verdict.info["players"]
    for s in verdict.scores:
        p = players[s.player]
        chips = "  ".join(f"{v}x{n}" for v, n in p["chips"].items() if n)
        bonus = "+".join(str(b) for b in p["bonuses"]) or "0"
        mark = " (1)" if "(1)" in s.notes else ""
        out.append(f"  {s.player}{mark}: {s.total}  ({'chips ' + chips if chips else 'no chips'}; bonuses {bonus})")
    return out


score_command = records.score_command(
    NAME, "Tally a Level X record (final position or whole game): totals, winner(s), the first player's (1). Exit 1 if the record cannot be.",
    score_lines)
