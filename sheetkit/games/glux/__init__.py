"""Glüx: place light chips by counting, win the rooms. Rules G1-G14 in RULES.md.

Layout kinds: a board side, the chips, the score track, the score pad. Records: the final
board or the whole game, finished or in progress, with the legal next moves (see
docs/glux.md).
"""

from sheetkit.games.interface import FileField, Game, LayoutKind, RecordKind, Ref

_ = "sheetkit.games.glux."
BOARD = FileField("board", "error.outside.layout", shipped="glux-board")  # a shipped board side, or a layout file
COMPOSE, LINT = Ref(_ + "compose:compose"), Ref(_ + "lint:lint")

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
    },
    read_record=Ref(_ + "record:read_record"),
    tally=Ref(_ + "tally:score_command"),
    pad="glux-score-pad",
    templates={"glux-board-record": Ref(_ + "templates:board_record"), "glux-game": Ref(_ + "templates:game_record")},
)
