"""Level X (Stefan Risthaus): the board, the score pad, final positions and whole games
replayed turn by turn. Rules L1-L9 in RULES.md; formats and decisions in docs/levelx.md."""

import os

from sheetkit.games.interface import Entry, FileField, Game, LayoutKind, RecordKind, Ref, Tally, TallyForm

_ = "sheetkit.games.levelx."
COMPOSE, LINT = Ref(_ + "compose:compose"), Ref(_ + "lint:lint")
BOARD = FileField("board", "error.outside.layout", shipped="levelx-board")  # the shipped board, or a layout file

TALLY = Tally("Tally a Level X record (final position or whole game): totals, winner(s), the first player's (1). "
              "Exit 1 if the record cannot be.", lines=Ref(_ + "tally:score_lines"))
ENTRY = _ + "entry:"
PAGE = dict(
    entry=Entry(Ref(ENTRY + "new_records"), Ref(ENTRY + "add_move"), Ref(ENTRY + "undo"), Ref(ENTRY + "view"),
                template="levelx/play.html", players=(2, 4), finish=Ref(ENTRY + "finish"),
                open_record=Ref(ENTRY + "open_record"), replace_move=Ref(ENTRY + "replace_move"),
                moves=Ref(ENTRY + "moves")),
    tally_form=TallyForm("levelx/tally.html", Ref(ENTRY + "tally_context"), Ref(ENTRY + "tally_score")),
    page_files=os.path.join(os.path.dirname(__file__), "page"),
)

GAME = Game(
    name="levelx",
    title="Level X",
    layout_kinds={
        "board": LayoutKind(Ref(_ + "layout:Board"), COMPOSE, LINT, record_template=Ref(_ + "templates:for_pad")),
        "score-pad": LayoutKind(Ref(_ + "layout:ScorePad"), COMPOSE, LINT, record_template=Ref(_ + "templates:for_pad")),
    },
    record_kinds={
        "final": RecordKind(Ref(_ + "record:FinalRecord"), Ref(_ + "check:check"), Ref(_ + "overlay:overlay")),
        "game": RecordKind(Ref(_ + "record:GameRecord"), Ref(_ + "check:check"), Ref(_ + "overlay:overlay"),
                           moves=Ref(_ + "moves:moves"), files=(BOARD,)),
    },
    read_record=Ref(_ + "record:read_record"),
    tally=TALLY,
    pad="levelx-score-pad",
    templates={"levelx": Ref(_ + "templates:game"), "levelx-final": Ref(_ + "templates:final")},
    **PAGE,
)
