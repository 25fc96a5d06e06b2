"""What a game offers sheetkit: one `Game` object per game package, registered in
`sheetkit.games`.

A Game is a frozen dataclass, not a Protocol or a base class: a game is data (its name, its
kinds of layout and record, its score pad) plus references to the functions that serve
them. There is nothing to inherit and nothing to override, only entries to fill in, and
the command line, the tests and the web page can list every entry without knowing the
game. Frozen, so the registry cannot be changed behind the commands' backs.

Functions are named by `Ref("module:function")` and imported on first use: listing the
games, or `sheetkit score`, loads neither pydantic models nor a rendering library.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol


@dataclass(frozen=True, slots=True)
class Ref:
    """A function or class named as "package.module:name", imported when first used."""

    target: str

    def load(self) -> Any:
        module, _, name = self.target.partition(":")
        return getattr(importlib.import_module(module), name)

    def __call__(self, *args, **kwargs):
        return self.load()(*args, **kwargs)


@dataclass(frozen=True, slots=True)
class LayoutKind:
    """A kind of printable thing (the `kind` key of a layout file)."""

    model: Ref  # the pydantic model a layout of this kind is validated with
    compose: Ref  # (layout, paper, lang, scale) -> Scene
    lint: Ref  # (layout) -> list[Finding]: the game sense of the layout
    record_template: Ref | None = None  # (layout) -> str: the blank record for a sheet of this kind
    # pieces cut out (chips): compose also takes bleed=MM, how far the colour runs past the cut
    bleed: bool = False


@dataclass(frozen=True, slots=True)
class FileField:
    """A record field whose text names a file that sheetkit would open (a layout by path, a
    Yuncos table's sheet, an IUNU deck). A record read from outside (the web page, an
    upload) may not use one: it carries the same data inline instead, and the page refuses
    the field before any path is looked at (sheetkit.checking.records.refuse_files)."""

    path: str  # "layout", "deck"; "player[].sheet" for the field of every item of an array
    hint: str  # the message id that says what to write instead
    # a shipped layout id starting with this names no file (`layout = "yuncos-easy"`)
    shipped: str | None = None


@dataclass(frozen=True, slots=True)
class RecordKind:
    """A kind of record (the `kind` key of a record file, or the game's only kind)."""

    model: Ref  # the pydantic model of the file
    check: Ref  # (record, source) -> Checked: the state replayed and the verdict
    overlay: Ref | None = None  # (record, checked, paper, lang=) -> Scene: the checked sheet for `check --render`
    # (record, checked, dice: tuple[int, ...] | None) -> an object with to_json() and lines():
    # the legal next moves at the end of the record (`sheetkit moves`), for games that ask
    moves: Ref | None = None
    files: tuple[FileField, ...] = ()  # the fields that may name a file (see FileField)


@dataclass(frozen=True, slots=True)
class Checked:
    """What checking a record gives: the game state it replayed (what the overlay draws and
    what the legal-move questions are asked of) and the verdict."""

    state: Any
    verdict: Any  # sheetkit.checking.verdict.Verdict
    # the replay of the moves (sheetkit.checking.replay.Replayed), for games that are a
    # sequence of moves: a check of the same game with one move more goes on from it
    replayed: Any = None

    def on_page(self, lang: str) -> "Checked":
        """The same, its findings worded as the phone page says them (messages.on_page: the
        fix as a player makes it there, no record key): what a sheet drawn on the page of a
        play entered there shows."""
        from dataclasses import replace

        from sheetkit.messages import page_msg

        findings = tuple(replace(f, text=page_msg(f.text, lang)) if f.text is not None else f
                         for f in self.verdict.findings)
        return replace(self, verdict=replace(self.verdict, findings=findings))


@dataclass(frozen=True, slots=True)
class Start:
    """What the page's start form gave a game: its level or board side (`variant`), the
    players in seat order, the first player first, each with the number of the form's slot
    it was typed in (for the game's own fields of that player), the whole form, and the
    history the play goes into (what a start keeps beside the play, an IUNU deck, is
    written in the play's transaction)."""

    game: str
    variant: str
    seats: tuple[tuple[int, str], ...]
    form: Mapping[str, str]
    store: Any = None  # sheetkit.history.Store

    @property
    def players(self) -> list[str]:
        return [n for _, n in self.seats]


@dataclass(frozen=True, slots=True)
class Result:
    """One record of a play, checked: its data as the game reads it, its text as stored,
    the loaded record (sheetkit.checking.records.Loaded) and what checking it gave. A play
    in progress is a list of these, the page's `position`: kept between requests, so the
    next move is one engine step from it."""

    player: str | None  # the player of a record that names none (a Yuncos sheet), else None
    data: dict
    text: str
    source: str
    loaded: Any
    checked: Checked
    together: Any = None  # the Checked of the play's records together (a Yuncos table), when checked so

    @property
    def verdict(self):
        return self.checked.verdict


@dataclass(frozen=True, slots=True)
class Entry:
    """What the phone page needs to enter a game move by move, all of it the game's own
    code (its `entry.py`). Records are a list of (player, data): `player` names the player
    of a record that names none (a Yuncos sheet), else None; `data` is the record as
    tomllib reads it, never changed in place. `t(key, **values)` is the page's words.
    A value that is no move at all raises sheetkit.forms.FormError and nothing is saved; a
    move that breaks a rule is entered and its finding shown."""

    new_records: Ref  # (start: Start, t) -> records: the blank record(s) in progress
    add_move: Ref  # (position: list[Result], form, t) -> records
    undo: Ref  # (position: list[Result], t) -> records
    view: Ref  # (position: list[Result], t, lang, form) -> dict: what `template` shows
    template: str  # the entry screen, in the game's page templates ("<game>/play.html")
    variants: tuple[tuple[str, str], ...] = ()  # (value, label key): the level or board side
    variant_label: str = "variant"  # the label key of that choice
    players: tuple[int, int] = (2, 4)  # the fewest and most players
    start_template: str | None = None  # the game's own fields of the start form
    start_context: Ref | None = None  # (store, t) -> dict: what start_template shows, in t's language (t.lang)
    finish: Ref | None = None  # (records, form, t) -> records; default: none stays in progress
    open_record: Ref | None = None  # (data, form, t) -> records: a record uploaded to be continued
    # (records, prior: Checked | None) -> Checked: the play's records checked together (a
    # Yuncos table: what the page shows), going on from `prior` (Result.together); each
    # record is also checked on its own, as `sheetkit check` and the history check it
    together: Ref | None = None
    table_text: Ref | None = None  # (records) -> str: every record of the play as one file
    # the view's choices kept in the address from step to step (a checkbox: ?name=1), e.g. the whole board
    kept: tuple[str, ...] = ()
    # (position, n, form, t) -> records: the records with move n (counted from 1) replaced by
    # the form's move, every other move as it was (FormError for a value that is no move)
    replace_move: Ref | None = None
    # (position, t) -> list[dict]: each move entered, in order: {"n", "text" (in the game's
    # notation or words), "form" (the move's form fields, to prefill the fix form), "findings"
    # (the findings at that move: [{"rule", "message"}])}
    moves: Ref | None = None


@dataclass(frozen=True, slots=True)
class TallyForm:
    """The game's quick tally on the page (/tally/<game>): a form of counts in, a verdict
    out, through the game's own scoring (its `entry.py`)."""

    template: str  # "<game>/tally.html" in the game's page templates
    # (form, session, t) -> dict: what the template shows besides the outcome (a board's rooms)
    context: Ref
    score: Ref  # (form, session, t) -> Outcome
    # extra steps of the form, POST /tally/<game>/<name>: (form, session, t) -> the notice to show
    steps: Mapping[str, Ref] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a quick tally gives: the verdict, and the record built from the form when there
    is one (offered for download)."""

    verdict: Any  # sheetkit.checking.verdict.Verdict
    record: str | None = None


@dataclass(frozen=True, slots=True)
class Option:
    """One count of a quick tally on the command line: `sheetkit score <game> --NAME VALUE`."""

    name: str  # "nests": --nests
    help: str
    kind: str = "int"  # "int", "text", "flag" or "choice"
    default: Any = None
    choices: tuple[str, ...] = ()
    multiple: bool = False  # given once per item (Glüx: --room, once per room)
    metavar: str | None = None


@dataclass(frozen=True, slots=True)
class Tally:
    """The quick tally of `sheetkit score <game>`, as data: the command line builds its
    command (with --json and --lang), the game only scores. Either counts typed as options,
    scored by `score`, or a record file tallied by `lines`."""

    help: str
    options: tuple[Option, ...] = ()
    score: Ref | None = None  # (values: dict of the options, lang) -> (Verdict, lines to print)
    lines: Ref | None = None  # (verdict, lang) -> lines: `sheetkit score <game> RECORD` of a record file


@dataclass(frozen=True, slots=True)
class Game:
    name: str  # the `game` key of its files, and `sheetkit score NAME`
    title: str
    layout_kinds: Mapping[str, LayoutKind]
    record_kinds: Mapping[str, RecordKind]
    read_record: Ref  # (toml data, source) -> the game's record object (Record protocol below)
    tally: Tally  # `sheetkit score NAME`
    pad: str | None = None  # the score pad's layout id, when records are copied from one (its QR text)
    templates: Mapping[str, Ref] = field(default_factory=dict)  # `sheetkit template NAME`: () -> str
    entry: Entry | None = None  # entered move by move on the phone page
    tally_form: TallyForm | None = None  # the quick tally on the phone page
    page_files: str | None = None  # the folder of its page templates and scripts, named "<game>/..." (/static/<game>/... for scripts)


class Record(Protocol):
    """What every game's record object says of itself; nothing has to guess."""

    kind: str  # its key in the game's record_kinds
    qr: str | None  # the QR text of the printed sheet it was copied from
    sheet: Any  # the layouts.Layout it is checked against; None when the game's pad is


def records_of(position) -> list[tuple[str | None, dict]]:
    """The records of a position (a list of Result), (player, data) each."""
    return [(r.player, r.data) for r in position]
