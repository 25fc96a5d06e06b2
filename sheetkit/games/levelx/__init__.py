"""Level X (Stefan Risthaus): the board, the score pad, final positions and whole games
replayed turn by turn. Rules L1-L9 in RULES.md; formats and decisions in docs/levelx.md.

Nothing here imports reportlab, Pillow or qrcode: `sheetkit score levelx` starts fast.
"""

from __future__ import annotations

from sheetkit import records
from sheetkit.games.levelx import templates as _templates
from sheetkit.games.levelx.layout import Board, ScorePad
from sheetkit.games.levelx.record import KINDS as RECORD_KINDS
from sheetkit.games.levelx.record import load_record as _load_record

NAME = "levelx"
LAYOUT_KINDS = {"board": Board, "score-pad": ScorePad}
TEMPLATES = {"levelx": _templates.game, "levelx-final": _templates.final}


def compose(layout, paper, lang, scale="real"):
    from sheetkit.games.levelx.paper import compose as _compose

    return _compose(layout, paper, lang, scale)


def lint(layout):
    from sheetkit.games.levelx.sense import lint as _lint

    return _lint(layout)


def load_record(data: dict, source: str):
    return _load_record(data, source)


def check(record, source: str):
    from sheetkit.games.levelx.verdicts import check as _check

    return _check(record, source)


def record_template(layout) -> str:
    """`sheetkit template levelx-score-pad` (or the board): the final position to fill in."""
    return _templates.final()


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


def overlay(record, verdict, paper="a4"):
    """The score pad filled in from the record, with the findings (`check --render`)."""
    from sheetkit.games.levelx.filled import overlay as _overlay

    return _overlay(record, verdict, paper)
