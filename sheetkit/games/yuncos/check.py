"""Checking a Yuncos record: the sheet replayed turn by turn (rules.py), with its verdict."""

from __future__ import annotations

from sheetkit.games.interface import Checked
from sheetkit.games.yuncos.record import Record
from sheetkit.games.yuncos.rules import _Checker


def check(record: Record, source: str) -> Checked:
    """Replay a transcribed sheet: the replayed sheet, and every finding with its rule id and the score."""
    checker = _Checker(record)
    verdict = checker.run(source)
    return Checked(checker.r, verdict)
