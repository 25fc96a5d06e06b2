"""Glüx: place light chips by counting, win the rooms. Rules G1-G14 in RULES.md.

Layout kinds: a board side, the chips, the score track, the score pad. Records: the final
board or the whole game (see docs/glux.md). Nothing here imports the rendering libraries.
"""

from sheetkit.games.glux.cli import score_command
from sheetkit.games.glux.templates import TEMPLATES, record_template

NAME = "glux"

__all__ = ["NAME", "LAYOUT_KINDS", "RECORD_KINDS", "TEMPLATES", "check", "compose", "lint",
           "load_record", "overlay", "record_template", "score_command"]


def __getattr__(name):
    # The pydantic models load only when a layout or record is read: `score glux` starts fast.
    if name == "LAYOUT_KINDS":
        from sheetkit.games.glux.layout import GluxBoard, GluxChips, GluxScorePad, GluxScoreTrack

        return {"board": GluxBoard, "chips": GluxChips, "score-track": GluxScoreTrack, "score-pad": GluxScorePad}
    if name == "RECORD_KINDS":
        from sheetkit.games.glux.checks import RECORD_KINDS

        return RECORD_KINDS
    raise AttributeError(name)


def load_record(data, source):
    from sheetkit.games.glux.checks import load_record as _load

    return _load(data, source)


def check(record, source):
    from sheetkit.games.glux.checks import check as _check

    return _check(record, source)


def compose(layout, paper, lang, scale="real"):
    from sheetkit.games.glux.draw import compose as _compose

    return _compose(layout, paper, lang, scale)


def lint(layout):
    from sheetkit.games.glux.layout_checks import lint_layout

    return lint_layout(layout)


def overlay(record, verdict, paper):
    from sheetkit.games.glux.draw import overlay as _overlay

    return _overlay(record, verdict, paper)
