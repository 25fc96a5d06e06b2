"""IUNU (Todd Sanders): the score pad, deck descriptions, game records. Rules I1-I5 in
RULES.md; formats and decisions in docs/iunu.md.

Nothing here imports reportlab, Pillow or qrcode: `sheetkit score iunu` starts fast.
"""

from __future__ import annotations

from sheetkit import records
from sheetkit.games.iunu import templates as _templates
from sheetkit.games.iunu.layout import ScorePad
from sheetkit.games.iunu.record import Deck, Record, RecordData
from sheetkit.games.iunu.record import load_record as _load_record

NAME = "iunu"
LAYOUT_KINDS = {"score-pad": ScorePad}
RECORD_KINDS = {"game": RecordData, "deck": Deck}
TEMPLATES = {"iunu": _templates.record, "iunu-deck": _templates.deck}


def compose(layout, paper, lang, scale="real"):
    from sheetkit.games.iunu.paper import compose as _compose

    return _compose(layout, paper, lang, scale)


def lint(layout):
    from sheetkit.games.iunu.sense import lint as _lint

    return _lint(layout)


def load_record(data: dict, source: str) -> Record:
    return _load_record(data, source)


def check(record: Record, source: str):
    from sheetkit.games.iunu.rules import check as _check

    return _check(record, source)


def record_template(layout) -> str:
    """`sheetkit template iunu-score-pad`: the game record goes with the pad."""
    return _templates.record()


def score_lines(verdict) -> list[str]:
    out = [f"{verdict.source}: IUNU"]
    for s in verdict.scores:
        parts = ", ".join(f"{label} {pts}" for label, pts in s.parts)
        out.append(f"  {s.player}: {s.total}  ({parts}; {'; '.join(s.notes)})")
    return out


score_command = records.score_command(
    NAME, "Tally an IUNU game record: totals, majorities, winner(s). Exit 1 if it cannot be.",
    score_lines)


def overlay(record, verdict, paper="a4"):
    """The score pad filled in from the record, with the findings (`check --render`)."""
    from sheetkit.games.iunu.filled import overlay as _overlay

    return _overlay(record, verdict, paper)
