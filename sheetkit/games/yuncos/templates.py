"""The blank, commented record of a Yuncos sheet level, for `sheetkit template`."""

from __future__ import annotations

from sheetkit.games.yuncos.layout import vertex_name
from sheetkit.games.yuncos.record import _one_level, all_boxes


def record(layout) -> str:
    """A blank, commented record for this sheet level; fill it in and run `sheetkit check`."""
    spec = _one_level(layout).spec
    board = spec.board
    starts = ", ".join(f"{n} ({vertex_name(v)})" for n, v in board.starts.items())
    cols, height = spec.luminaries.columns, spec.luminaries.height
    flight_help = ("the number of unit steps is the die flown (1-6)" if spec.level == "easy" else
                   "the steps draw the flown die's pattern, turned or mirrored: "
                   + "; ".join(f"{f} = {spec.patterns[str(f)]}" for f in range(1, 7)))
    last = vertex_name((board.width - 1, board.height - 1))
    return f"""\
# Yuncos record: a transcription of one filled sheet ({layout.id}, {spec.level} level).
# Fill it in, then: sheetkit check THIS_FILE.toml   (full notation: docs/yuncos-records.md)
game = "yuncos"
layout = "{layout.id}"
# qr = ""            # the text of the sheet's QR code, if it has one
start = "?"          # the starting point marked on the island: {starts}
# solo = true        # a solo game: the result gets its solo rank

# What is marked on the paper:
fish_marked = "?"    # boxes marked on the fish counter (0-{len(spec.fish.values)})
crashes_marked = "?" # boxes marked on the crash track (0-6)
used = []            # ability boxes crossed out: {', '.join(all_boxes(spec))}
                     #   nestR.K = row R's K-th ability box (also nestR.abilityK), lumC = column C's,
                     #   fishN = beside fish box N
# [score]            # the score boxes, if filled in (each optional): checked against the sheet
# nests = 0
# luminaries = 0
# fish = 0
# navigation = 0
# crashes = 0
# total = 0

# One [[turn]] per turn, in order. The map runs from A1 (top left) to {last}.
# flight: unit steps N E S W ("E E N", "EEN" and "2E N" are the same flight);
#         {flight_help};
#         a diagonal step NE NW SE SW (only with the diagonal ability) goes first or last,
#         separated by spaces: "NE E E N".
# puzzle: nest1 or nest2 (next free box of that row), lum1-lum{cols} (next free level of that
#         column); or name the box: nest1.3 (row 1, box 3), lum2.1 (column 2, bottom level, 1-{height}).
# value:  the number written there (1-6). A turn with no number: crash = true instead.
# dice:   optional, from the dice log: the two dice of the turn, e.g. [3, 5].
# use:    optional, abilities used this turn: "plusminus", "yunco" ("diagonal" is read from
#         the flight), or the box crossed out, e.g. "fish2".

# Every "?" is a value to fill in; check says which one is left.

[[turn]]
flight = "?"
puzzle = "?"
value = "?"
# dice = ["?", "?"]
# use = []

[[turn]]
flight = "?"
crash = true
"""
