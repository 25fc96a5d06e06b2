"""Glüx: place light chips by counting, win the rooms. Rules G1-G14 in RULES.md.

Layout kinds: a board side, the chips, the score track, the score pad. Records: the final
board or the whole game, finished or in progress, with the legal next moves, or the rooms'
pips as the score pad counts them (see docs/glux.md).
"""

import os

from sheetkit.games.interface import Entry, FileField, Game, LayoutKind, Option, RecordKind, Ref, Tally, TallyForm

_ = "sheetkit.games.glux."
BOARD = FileField("board", "error.outside.layout", shipped="glux-board")  # a shipped board side, or a layout file
COMPOSE, LINT = Ref(_ + "compose:compose"), Ref(_ + "lint:lint")

TALLY = Tally(
    "Score Glüx from the pips in each room (G11-G13).\n\n"
    "Example: sheetkit score glux --room Ana=10,Ben=9,Cris=4 --room Ana=4,Ben=5,Dora=12 --middle 2",
    options=(Option("room", "One room: each player's pips in it. Repeat for every room.", "text", multiple=True,
                    metavar="NAME=PIPS,..."),
             Option("middle", "The middle room is the K-th --room (breaks ties, G13).", metavar="K"),
             Option("players", "All players, when someone has pips in no room.", "text", metavar="NAME,...")),
    score=Ref(_ + "tally:score"))
ENTRY = _ + "entry:"
PAGE = dict(
    entry=Entry(Ref(ENTRY + "new_records"), Ref(ENTRY + "add_move"), Ref(ENTRY + "undo"), Ref(ENTRY + "view"),
                template="glux/play.html", variants=(("34p", "board_34p"), ("2p", "board_2p")),
                variant_label="board_side", players=(2, 4), start_template="glux/start.html",
                start_context=Ref(ENTRY + "start_context"), open_record=Ref(ENTRY + "open_record"), kept=("whole",),
                replace_move=Ref(ENTRY + "replace_move"), moves=Ref(ENTRY + "moves")),
    tally_form=TallyForm("glux/tally.html", Ref(ENTRY + "tally_context"), Ref(ENTRY + "tally_score")),
    page_files=os.path.join(os.path.dirname(__file__), "page"),
)

GAME = Game(
    name="glux",
    title="Glüx",
    layout_kinds={
        "board": LayoutKind(Ref(_ + "layout:GluxBoard"), COMPOSE, LINT, record_template=Ref(_ + "templates:record_template")),
        "chips": LayoutKind(Ref(_ + "layout:GluxChips"), COMPOSE, LINT, bleed=True),
        "score-track": LayoutKind(Ref(_ + "layout:GluxScoreTrack"), COMPOSE, LINT),
        "score-pad": LayoutKind(Ref(_ + "layout:GluxScorePad"), COMPOSE, LINT),
    },
    record_kinds={
        "board": RecordKind(Ref(_ + "record:BoardRecord"), Ref(_ + "check:check"), Ref(_ + "overlay:overlay"),
                            files=(BOARD,)),
        "game": RecordKind(Ref(_ + "record:GameRecord"), Ref(_ + "check:check"), Ref(_ + "overlay:overlay"),
                           moves=Ref(_ + "moves:legal_moves_of"), files=(BOARD,)),
        "rooms": RecordKind(Ref(_ + "record:RoomsRecord"), Ref(_ + "check:check")),  # the score pad's count
    },
    read_record=Ref(_ + "record:read_record"),
    tally=TALLY,
    pad="glux-score-pad",
    templates={"glux-board-record": Ref(_ + "templates:board_record"), "glux-game": Ref(_ + "templates:game_record")},
    **PAGE,
)
