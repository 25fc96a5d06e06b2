"""Yuncos: El lado oscuro de la luz. Rules Y1-Y23 in RULES.md; records in docs/yuncos-records.md."""

import os

from sheetkit.games.interface import Entry, FileField, Game, LayoutKind, Option, RecordKind, Ref, Tally, TallyForm

_ = "sheetkit.games.yuncos."
LAYOUT = FileField("layout", "error.outside.layout", shipped="yuncos")  # a shipped level, or a layout file

TALLY = Tally(
    "Yuncos total: Nests + Luminaries + Fish + Navigation - Crashes (Y22).",
    options=(Option("nests", "Filled nest boxes.", default=0), Option("columns", "Completed luminary columns.", default=0),
             Option("fish", "Marked boxes of the fish counter.", default=0),
             Option("stars", "Distinct stars passed.", default=0), Option("colours", "Distinct colours among them.", default=0),
             Option("crashes", "Marked boxes of the crash track.", default=0),
             Option("level", "The level played (its fish values and puzzle sizes).", "choice", "easy", ("easy", "hard")),
             Option("solo", "Also give the solo rank.", "flag")),
    score=Ref(_ + "tally:score"))
ENTRY = _ + "entry:"
PAGE = dict(
    entry=Entry(Ref(ENTRY + "new_records"), Ref(ENTRY + "add_move"), Ref(ENTRY + "undo"), Ref(ENTRY + "view"),
                template="yuncos/play.html", variants=(("yuncos-easy", "easy"), ("yuncos-hard", "hard")),
                variant_label="level", players=(1, 5), finish=Ref(ENTRY + "finish"),
                table_text=Ref(ENTRY + "table_text"), together=Ref(ENTRY + "table_check"),
                replace_move=Ref(ENTRY + "replace_move"), moves=Ref(ENTRY + "moves")),
    tally_form=TallyForm("yuncos/tally.html", Ref(ENTRY + "tally_context"), Ref(ENTRY + "tally_score")),
    page_files=os.path.join(os.path.dirname(__file__), "page"),
)

GAME = Game(
    name="yuncos",
    title="Yuncos",
    layout_kinds={
        "sheet": LayoutKind(Ref(_ + "layout:YuncosSheet"), Ref(_ + "compose:compose"), Ref(_ + "lint:lint"),
                            record_template=Ref(_ + "templates:record")),
        # the two-sided sheet: its template asks which level was played
        "duplex": LayoutKind(Ref(_ + "layout:YuncosDuplex"), Ref(_ + "compose:compose"), Ref(_ + "lint:lint"),
                             record_template=Ref(_ + "templates:record")),
    },
    record_kinds={
        "game": RecordKind(Ref(_ + "record:RecordModel"), Ref(_ + "check:check"), Ref(_ + "overlay:overlay"),
                           moves=Ref(_ + "moves:moves"), files=(LAYOUT,)),
        # every player's sheet of one game, checked together
        "table": RecordKind(Ref(_ + "table:TableModel"), Ref(_ + "table:check_table"), moves=Ref(_ + "table:table_moves"), files=(
            FileField("player[].sheet", "error.outside.table_sheet"),  # a table's sheets may be inline
            FileField("player[].sheet.layout", "error.outside.layout", shipped="yuncos"))),
    },
    read_record=Ref(_ + "record:read_record"),
    tally=TALLY,
    **PAGE,
)
