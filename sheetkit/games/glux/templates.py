"""Blank, commented Glüx records for `sheetkit template`."""

from __future__ import annotations

from sheetkit.errors import UserError

_PLAYERS = '''# The players in seat order: the first listed places first. "letter" names the player
# in the grid and the moves; "start" is their start square (G3: 2 players on either
# pair of diagonally opposite corners; 4 on the corners; 3 on the two top corners and
# the middle of the bottom edge).
players = [
  { name = "Ana", letter = "A", colour = "yellow", start = "A1"%s },
  { name = "Ben", letter = "B", colour = "green", start = "%s"%s },
]
'''


def board_record(layout_id: str = "glux-board-2p", width: int = 13, height: int = 9,
                 corner: str = "M9", third: str | None = None) -> str:
    row = " ".join(["."] * width)
    grid = "\n".join([row] * height)
    players = _PLAYERS % ("", corner, "")
    if third:
        players = players.replace("\n]\n", f'\n  {{ name = "Cris", letter = "C", colour = "red", start = "{third}" }},\n]\n')
    return f'''# Glüx: the final board. Fill in the top chip of every square, then run
#   sheetkit check THIS-FILE.toml
game = "glux"
kind = "board"
board = "{layout_id}"   # the board side: glux-board-2p or glux-board-34p (or a layout file)
# qr = ""               # the QR text of the numbered score pad sheet, if it has one

{players}
# One token per square, separated by spaces, one line per row (row 1 at the top):
#   .     an empty square
#   A3    the top chip is player A's and shows 3 pips
#   A3*   the same, and the square holds two chips (a stack)
#   A3/B5 the same stack, with the chip below it: player B's, showing 5
grid = """
{grid}
"""
'''


def game_record(layout_id: str = "glux-board-2p", corner: str = "M9") -> str:
    return f'''# Glüx: a whole game, every placement in order. Check it with
#   sheetkit check THIS-FILE.toml
game = "glux"
kind = "game"
board = "{layout_id}"   # the board side: glux-board-2p or glux-board-34p (or a layout file)
# qr = ""               # the QR text of the numbered score pad sheet, if it has one
# in_progress = true    # the game is still being played: the standings so far, no G10

# start_chip: the pips shown by the chip each player set on their start square.
{_PLAYERS % (", start_chip = 4", corner, ", start_chip = 3")}
# One placement per line, in the order played ("#" starts a comment):
#   A A5 2        player A places a chip showing 2 on A5, counted from a chip of
#                 theirs that reaches it (the chip on A1 shows 4)
#   A A1-A5 2     the same, saying which chip it was counted from
#   B start 6     player B uses the once-per-game start placement (G8): a chip
#                 showing 6 on top of their start chip ("B M9 6" says the same when
#                 no chip of B's reaches M9 by counting)
# A player who can place neither way is out (G9): just leave their turns out.
moves = """
A A1-A5 2
B M6 5
"""
'''


TEMPLATES = {"glux-board-record": board_record, "glux-game": game_record}


def record_template(layout) -> str:
    if layout.kind != "board":
        from sheetkit.messages import msg

        raise UserError(msg("error.glux.no_template", id=layout.id, kind=layout.kind))
    g = layout.spec
    from sheetkit.grid import square_name

    n = min(g.players)
    starts = [square_name(s) for s in g.start_squares(n)]
    if n == 2 and len(starts) == 2:
        return board_record(layout.id, g.width, g.height, starts[1])
    if n == 3 and len(starts) == 3:
        return board_record(layout.id, g.width, g.height, starts[1], starts[2]).replace('start = "A1"', f'start = "{starts[0]}"')
    return board_record(layout.id, g.width, g.height, square_name((g.width - 1, g.height - 1)))
