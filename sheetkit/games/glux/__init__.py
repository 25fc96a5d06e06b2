"""Glüx: place light chips by counting, win the rooms. Rules G1-G14 in RULES.md.

Layout kinds: a board side, the chips, the score track, the score pad. Records: the final
board or the whole game (see docs/glux.md). Entry points are imported only when called:
`sheetkit score glux` loads neither pydantic nor a rendering library.
"""

from sheetkit.games import deferred
from sheetkit.games.glux.cli import score_command
from sheetkit.games.glux.templates import TEMPLATES, record_template

NAME = "glux"
PAD = "glux-score-pad"  # the sheet records are copied from: a record's QR text names it
__all__ = ["NAME", "PAD", "TEMPLATES", "check", "compose", "lint", "load_record", "overlay", "record_template",
           "score_command", "LAYOUT_KINDS", "RECORD_KINDS"]

compose = deferred("sheetkit.games.glux.draw", "compose")
lint = deferred("sheetkit.games.glux.layout_checks", "lint_layout")
load_record = deferred("sheetkit.games.glux.checks", "load_record")
check = deferred("sheetkit.games.glux.checks", "check")
overlay = deferred("sheetkit.games.glux.draw", "overlay")


def __getattr__(name):
    if name == "LAYOUT_KINDS":
        from sheetkit.games.glux.layout import GluxBoard, GluxChips, GluxScorePad, GluxScoreTrack

        return {"board": GluxBoard, "chips": GluxChips, "score-track": GluxScoreTrack, "score-pad": GluxScorePad}
    if name == "RECORD_KINDS":
        from sheetkit.games.glux.checks import RECORD_KINDS

        return RECORD_KINDS
    raise AttributeError(name)
