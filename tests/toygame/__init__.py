"""Steps, a toy fifth game defined only here, to prove that the game interface is whole: the
players in turn add 1 to 3 to a shared count; who brings it to exactly 10 wins.

    T1  a move adds 1, 2 or 3
    T2  the count may not pass 10
    T3  no move after someone reached 10
    T4  a finished game has a winner

It is registered for a test (`sheetkit.games.register(GAME)`) and then started, played,
undone, finished and exported on the page and on the command line with no change to
sheetkit/web or sheetkit/cli (tests/test_toy_game.py).
"""

import os

from sheetkit.games.interface import Entry, Game, Option, RecordKind, Ref, Tally

_ = "toygame.game:"
GAME = Game(
    name="steps",
    title="Steps",
    layout_kinds={},
    record_kinds={"game": RecordKind(Ref(_ + "RecordModel"), Ref(_ + "check"))},
    read_record=Ref(_ + "read_record"),
    tally=Tally("A count of Steps: has it reached the goal?", (Option("count", "The count."),), score=Ref(_ + "score")),
    entry=Entry(Ref(_ + "new_records"), Ref(_ + "add_move"), Ref(_ + "undo"), Ref(_ + "view"),
                template="steps/play.html", players=(2, 3)),
    page_files=os.path.join(os.path.dirname(__file__), "page"),
)
