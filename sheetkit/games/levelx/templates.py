"""`sheetkit template levelx` (a game turn by turn) and `levelx-final` (the final position)."""


def game() -> str:
    return """\
# Level X game record, turn by turn: the four dice and how they were grouped.
# sheetkit replays it (L4-L8): pawns, bumps from X, chips, bonus tiles, the end.
# Check it with `sheetkit check THIS.toml`, tally it with `sheetkit score levelx THIS.toml`.

game = "levelx"
kind = "game"
players = ["", ""]      # 2 to 4 names in turn order; the first is the first player, "(1)"
# board = "levelx-board"  # the board played on (L1, the default); or a designer's board
                        # layout file, e.g. "my-board.toml": its rows' lengths are the rules'
# qr = ""               # the text of the score pad's QR code, if it has one

# One [[turn]] per turn, in the order played. Turns go round in the order of `players`.
[[turn]]
player = ""             # optional: who played (checked against the turn order)
dice = [0, 0, 0, 0]     # the four dice rolled, 1 to 6
groups = [[0, 0], [0, 0]]   # how the dice were grouped: every die in exactly one group,
                        # e.g. [[3, 4], [5], [2]] moves the pawns in rows 7 and 5
# chips = []            # optional: the chips taken this turn as seen at the table, e.g. [7]
# bonuses = []          # optional: bonus tiles taken this turn, e.g. [15]

# Or, instead of the [[turn]] tables, one line per turn: the player, then the dice as
# grouped (3+4 is one group of two dice):
# turns = ["Ana: 3+4 5 2", "Ben: 6+4 1+1"]
# in_progress = true    # the game is still being played: the standings so far
"""


def final() -> str:
    return """\
# Level X final position: each player's chips and bonus tiles at the end of the game.
# Checked against the supply (L2), the bonus tiles (L3, L7) and the end of the game (L8).

game = "levelx"
kind = "final"
# qr = ""               # the text of the score pad's QR code, if it has one

# One [[player]] per player (2 to 4), in turn order: the first is the first player, "(1)".
[[player]]
name = ""
chips = { "5" = 0, "6" = 0, "7" = 0, "8" = 0, "9" = 0, "10" = 0 }   # chips of each value
bonuses = []            # bonus tiles held, e.g. [15, 6]

[[player]]
name = ""
chips = { "5" = 0, "6" = 0, "7" = 0, "8" = 0, "9" = 0, "10" = 0 }
bonuses = []
"""


def for_pad(layout) -> str:
    """`sheetkit template <the board or pad>`: the final position to fill in."""
    return final()
