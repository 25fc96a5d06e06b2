"""Every finding and error a player can meet says what to write or do instead (issue 25).

A complete message (a `finding.*` sentence, or an `error.*` line a user reads) must hold a
fix: "expected ..." / "e.g. ...", or an imperative ("write", "mark", "remove", "correct" ...)
at the start of a clause. The few that cannot say one are in EXEMPT, each with why; the
ids used only inside other messages (a unit, a list's name, a reason) are FRAGMENTS. The
test checks the English catalogue (es.toml has the same ids and placeholders: test_messages.py).
"""

import re

from sheetkit import messages as M

# "expected ..." or an example anywhere, or an imperative opening a clause: at the start,
# after ":", ";", ",", "(" or a joining word ("... or remove it", "..., so add ...").
VERBS = ("write|mark|give|use|remove|put|name|choose|correct|save|copy|add|say|delete|rename|photograph|"
         "upgrade|install|try|see|leave|cross|change|list|log|run|keep|replace|separate|check|make|"
         "draw|start|double|renumber|shorten|hold|focus|render|set|close|confirm|carry|move|ask|"
         "look|pass|quote|open|free|drop|take|split|fill|wait|unlock")
FIX = re.compile(rf"(?i)(?<![\w-])(expected|e\.g\.)(?!\w)"
                 rf"|(?:^|[:;,(]\s*|\b(?:so|or|and|then|instead)\s+)(?:{VERBS})\b")

# Used only as a placeholder value of another message (a unit, a name, a reason, a hint).
FRAGMENTS = {i: "fragment" for i in (
    "error.or", "error.a_list", "error.a_table", "error.none",
    "error.lang.the_records", "error.lang.value_given",
    "error.schema.line_break", "error.schema.control_char",  # what not_printable names
    "error.schema.list", "error.schema.tuple", "error.schema.set", "error.schema.dictionary",  # field_type
    "error.yuncos.level.easy", "error.yuncos.level.hard",
    "error.yuncos.tally_most.nests", "error.yuncos.tally_most.columns", "error.yuncos.tally_most.fish",
    "error.yuncos.tally_most.stars", "error.yuncos.tally_most.colours", "error.yuncos.tally_most.crashes",
    "error.yuncos.to_fill.start", "error.yuncos.to_fill.fish_marked", "error.yuncos.to_fill.crashes_marked",
    "error.yuncos.to_fill_turn.flight", "error.yuncos.to_fill_turn.puzzle", "error.yuncos.to_fill_turn.value",
    "error.yuncos.to_fill_turn.dice", "error.yuncos.to_fill_turn.from",  # what not_filled_in asks for
    "error.yuncos.longest_why",  # game_too_long's {why}
    "error.glux.where_both", "error.glux.where_rooms", "error.glux.hint_players",  # tally_players' parts
    "error.iunu.cards_each", "error.iunu.fed_each", "error.iunu.majorities_each", "error.iunu.bonus_each",
    "error.levelx.chips_each",  # counts_table's {what}
    "error.levelx.line_example",  # line_per_turn's {example}
    "error.qr.format", "error.qr.prefix", "error.qr.fields", "error.qr.version", "error.qr.serial",
    "error.qr.shape",  # malformed's {reason} and {shape}
    "error.qr.id_empty", "error.qr.id_control", "error.qr.id_space",  # rename's {problem}
    "error.history.by_qr", "error.history.by_text",  # duplicate's {what}
    "error.history.damage_text", "error.history.damage_source", "error.history.damage_verdict_json",
    "error.history.damage_verdict_shape",  # damaged's {why}
    "error.grid.squares", "error.grid.vertices", "error.grid.legend", "error.grid.map_legend",  # {places}, {known}
    "error.unit.chips", "error.unit.as_the_highest_value", "error.unit.boxes_a_row", "error.unit.boxes",
    "error.unit.columns", "error.unit.points", "error.unit.turns", "error.unit.as_the_row_s_total",
    "error.unit.squares",
    "error.outside.layout", "error.outside.table_sheet", "error.outside.deck",  # names_file's {hint}
    "error.printer.none_yet",  # unknown's {known}
)}

# Complete messages that say no fix, and why none can be said. Keep it short.
EXEMPT = {
    # wrappers: the message inside says the fix
    "finding.yuncos.read_as_written": "wraps a finding that says its fix",
    "finding.yuncos.short_box_name": "wraps a finding that says its fix",
    "finding.levelx.because": "wraps a finding that says its fix",
    "error.schema.got": "wraps a schema message that says what is expected",
    "error.schema.other": "pydantic's own words, passed on as they are",
    "error.file.cannot_read": "the system's own reason (strerror), nothing more is known",
    "error.layout.cannot_use": "wraps the layout's own error, which says the fix",
    "error.yuncos.sheet_file": "wraps the sheet file's own error, which says the fix",
    "error.iunu.deck_file": "wraps the deck file's own error, which says the fix",
    "error.iunu.cannot_use_deck": "wraps the deck file's own error, which says the fix",
    "error.history.json_bad_record": "wraps the record's own error, which says the fix",
    "error.outside.names_file": "its {hint} is the fix (error.outside.*)",
    # the fix is outside what sheetkit knows or can change
    "error.file.permission": "file permissions: the fix is outside sheetkit",
    "error.file.access": "a folder's permissions: the fix is outside sheetkit",
    "error.file.not_text": "a history row another program stored as bytes; nothing the player wrote",
    "error.history.record_count": "an internal check of a recheck: no input of the player's is wrong",
    "finding.qr.other_version": "a sheet printed from an older layout: nothing in the record to change",
}


def complete_ids() -> list[str]:
    cat = M.catalogue("en")
    return [i for i in cat if i.startswith(("finding.", "error.")) and i not in FRAGMENTS]


def test_every_complete_finding_and_error_says_what_to_do_instead():
    cat = M.catalogue("en")
    missing = [f"{i} = {' | '.join(cat[i].forms.values())}" for i in complete_ids()
               if i not in EXEMPT and not all(FIX.search(form) for form in cat[i].forms.values())]
    assert not missing, "messages that say no fix (add one, or an EXEMPT entry saying why):\n" + "\n".join(missing)


def test_the_exempt_list_is_short_explained_and_current():
    cat = M.catalogue("en")
    assert len(EXEMPT) < 25
    assert all(why.strip() and len(why) < 90 for why in EXEMPT.values())
    assert not [i for i in EXEMPT if i not in cat], "EXEMPT names a message that is gone"
    assert not [i for i in FRAGMENTS if i not in cat], "FRAGMENTS names a message that is gone"
    assert not set(EXEMPT) & set(FRAGMENTS)


def test_a_fragment_is_never_raised_or_reported_on_its_own():
    """A FRAGMENTS id is only a value inside another message: no UserError, FieldError,
    ValueError or Finding is made of it directly (else it is a complete message and needs a fix)."""
    from pathlib import Path

    source = "\n".join(p.read_text(encoding="utf-8") for p in Path(M.__file__).parents[1].rglob("*.py"))
    direct = re.compile(r"(?:UserError|FieldError|HistoryError|ValueError|Finding)\([^()]*?msg\(f?\"([\w.{}]+)\"")
    raised = set(direct.findall(source))
    assert not [i for i in FRAGMENTS if i in raised]


def test_an_exempt_message_really_says_no_fix():
    """An EXEMPT entry is not a way round: a message that now says a fix leaves the list."""
    cat = M.catalogue("en")
    stale = [i for i in EXEMPT if i in cat and all(FIX.search(f) for f in cat[i].forms.values())]
    assert not stale, f"these say a fix now; take them off EXEMPT: {stale}"


def test_the_fix_markers_tell_a_fix_from_a_description():
    assert FIX.search("no such file: check the file's name and folder")
    assert FIX.search("expected a die value 1-6 (got 7)")
    assert FIX.search("3 fish eaten, but the fish counter shows 2: mark 3 boxes (fish_marked = 3)")
    assert not FIX.search("no such file")
    assert not FIX.search("empty name")
    assert not FIX.search("ability box nest1.1 (plusminus) is used but not unlocked")
