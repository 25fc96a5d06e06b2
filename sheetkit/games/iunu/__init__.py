"""IUNU (Todd Sanders): the score pad, deck descriptions, game records, score pad tallies.
Rules I1-I5 in RULES.md; formats and decisions in docs/iunu.md."""

import os

from sheetkit.games.interface import Entry, FileField, Game, LayoutKind, RecordKind, Ref, Tally, TallyForm

_ = "sheetkit.games.iunu."

TALLY = Tally("Tally an IUNU game record: totals, majorities, winner(s). Exit 1 if it cannot be.",
              lines=Ref(_ + "tally:score_lines"))
ENTRY = _ + "entry:"
PAGE = dict(
    entry=Entry(Ref(ENTRY + "new_records"), Ref(ENTRY + "add_move"), Ref(ENTRY + "undo"), Ref(ENTRY + "view"),
                template="iunu/play.html", players=(2, 4), start_template="iunu/start.html",
                start_context=Ref(ENTRY + "start_context"), finish=Ref(ENTRY + "finish")),
    tally_form=TallyForm("iunu/tally.html", Ref(ENTRY + "tally_context"), Ref(ENTRY + "tally_score"),
                         steps={"deck": Ref(ENTRY + "save_deck")}),
    page_files=os.path.join(os.path.dirname(__file__), "page"),
)

GAME = Game(
    name="iunu",
    title="IUNU",
    layout_kinds={
        "score-pad": LayoutKind(Ref(_ + "layout:ScorePad"), Ref(_ + "compose:compose"), Ref(_ + "lint:lint"),
                                record_template=Ref(_ + "templates:for_pad")),
    },
    record_kinds={
        "game": RecordKind(Ref(_ + "record:RecordData"), Ref(_ + "check:check"), Ref(_ + "overlay:overlay"),
                           files=(FileField("deck", "error.outside.deck"),)),  # or the deck's tables inline
        "tally": RecordKind(Ref(_ + "record:TallyData"), Ref(_ + "check:check"), Ref(_ + "overlay:overlay")),  # a pad's numbers
    },
    read_record=Ref(_ + "record:read_record"),
    tally=TALLY,
    pad="iunu-score-pad",
    templates={"iunu": Ref(_ + "templates:record"), "iunu-deck": Ref(_ + "templates:deck")},
    **PAGE,
)
