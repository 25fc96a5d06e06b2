"""IUNU (Todd Sanders): the score pad, deck descriptions, game records. Rules I1-I5 in
RULES.md; formats and decisions in docs/iunu.md."""

from sheetkit.games.interface import FileField, Game, LayoutKind, RecordKind, Ref

_ = "sheetkit.games.iunu."

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
    },
    read_record=Ref(_ + "record:read_record"),
    tally=Ref(_ + "tally:score_command"),
    pad="iunu-score-pad",
    templates={"iunu": Ref(_ + "templates:record"), "iunu-deck": Ref(_ + "templates:deck")},
)
