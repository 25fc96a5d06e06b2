"""Plays entered on the page move by move: the adapters of the games, and the generic step.

A play entered on the page is a play in the history (sheetkit.history.Store), in progress
until it is ended. Its sheets are record texts in sheetkit's own TOML notation, exactly
what `sheetkit check` reads: each step loads the play, lets the game's adapter change the
record data, writes the data back as TOML text, checks that very text with the engine of
`sheetkit check`, and stores texts and verdicts in one transaction
(`Store.update_sheets`). So closing the tab or killing the server loses nothing, and the
record downloaded from the page is the stored text.

An adapter is the module `sheetkit.web.plays.<game>` (found by name: a game with such a
module is offered on the page) working on plain record data, never changing its input:

    VARIANTS: tuple[tuple[str, str], ...]     # (value, label key): the level or board side
    VARIANT_LABEL: str                        # the label key of that choice
    new_records(start: Start, t) -> Records   # the blank record(s) in progress
    add_move(records, form, t) -> Records     # FormError for a value that is no move at all
    undo(records, t) -> Records               # FormError when there is nothing to undo
    view(results: list[Result], t, lang, form) -> dict   # what play_<game>.html shows
  and optionally
    finish(records, form, t) -> Records       # default: every record loses `in_progress`
    open_record(data, form, t) -> Records     # a record uploaded to be continued (default: refused)
    check(records, sources) -> list[(Loaded | None, Checked)]   # default: each record on its own
    START_TEMPLATE: str                       # extra fields of the start form (a template)

`Records` is a list of (player, data): `player` names the player of a record that names
none (a Yuncos sheet), else None; `data` is the record as a dict, as tomllib reads it.
See docs/web.md, "Adding a game's move entry".
"""

from __future__ import annotations

import copy
import importlib
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from sheetkit.errors import UserError
from sheetkit.web import inputs
from sheetkit.web.inputs import FormError

Records = list[tuple[str | None, dict[str, Any]]]
SOURCE = "web page"  # a new play's records, until the play has its number
MAX_MOVES_TEXT = 64 * 1024  # a record grown past this on the page is refused (a Glüx game is ~1 kB)


@dataclass(frozen=True)
class Start:
    """What the start form gave: the game, its level or board side, and the players in seat
    order, the first player first, each with the number of the form's slot it was typed
    in (for the game's own fields of that player)."""

    game: str
    variant: str
    seats: tuple[tuple[int, str], ...]
    form: Mapping[str, str]

    @property
    def players(self) -> list[str]:
        return [n for _, n in self.seats]


@dataclass(frozen=True)
class Result:
    """One record of a play, checked: its data, its text as stored, the loaded record (None
    for a record the adapter checks otherwise) and what checking it gave."""

    player: str | None
    data: dict[str, Any]
    text: str
    source: str
    loaded: Any
    checked: Any  # sheetkit.games.interface.Checked

    @property
    def verdict(self):
        return self.checked.verdict


def adapter(game: str):
    """The game's adapter module, or None when the page has no move entry for it."""
    from sheetkit import games

    if not isinstance(game, str) or not re.fullmatch(r"[a-z]{1,20}", game):
        return None
    if game not in {g.name for g in games.all_games()}:
        return None
    name = f"{__name__}.{game}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name == name:
            return None
        raise


def offered() -> list:
    """The games whose plays can be entered move by move, in the registry's order."""
    from sheetkit import games

    return [g for g in games.all_games() if adapter(g.name) is not None]


def source_name(game: str, play_id: int | None, player: str | None = None, index: int = 0, count: int = 1) -> str:
    """The name of a play's record (in its verdict, and as its download's file name):
    letters, digits and - only, e.g. glux-play-12.toml, yuncos-play-7-ana.toml."""
    if play_id is None:
        return SOURCE
    stem = f"{game}-play-{play_id}"
    if count > 1:
        who = re.sub(r"[^a-z0-9]+", "-", (player or "").casefold()).strip("-")[:20]
        stem += f"-{who or index + 1}" if who else f"-{index + 1}"
    return stem + ".toml"


def text_of(data: dict[str, Any]) -> str:
    from sheetkit.tomlfile import dump_toml

    return dump_toml(data, "Entered on the sheetkit score-keeper page. Check it: sheetkit check FILE")


class Unusable(Exception):
    """A stored play whose records the page cannot use: a history it did not write (an
    import, a hand edit of the file) may hold any text. Every route of the play says so in
    one line naming the play (routes.py), instead of failing halfway through a step."""

    def __init__(self, play, why: str):
        super().__init__(why)
        self.play = play
        self.why = " ".join(why.split())[:300]


def records_of(play, t: Callable | None = None) -> Records:
    """A stored play's records, read from their texts by the one guarded text reader
    (sheetkit.tomlfile: size, UTF-8, NUL, nesting, 64-bit integers), naming no file, and of
    the play's own game; Unusable otherwise. `t`: the page's words (English when None)."""
    from sheetkit.checking.outside import refuse_files
    from sheetkit.tomlfile import parse_toml_text

    t = t or english
    out: Records = []
    for s in play.sheets:
        try:
            data = parse_toml_text(s.text, s.source)
            refuse_files(data, s.source)
        except UserError as e:
            raise Unusable(play, inputs.said(e)) from None
        if data.get("game") != play.game:
            from sheetkit import games

            known = {g.name: g.title for g in games.all_games()}
            raise Unusable(play, t("err_other_game", source=s.source, game=known.get(play.game, play.game)))
        out.append((None if s.named else s.player, data))
    return out


def stored_data(text: str) -> dict[str, Any] | None:
    """A stored record text's data when it reads within the caps of records_of, else None
    (for a glance at one field of a play that may have been written elsewhere)."""
    from sheetkit.tomlfile import parse_toml_text

    try:
        return parse_toml_text(text, "record")
    except UserError:
        return None


def load(play, t: Callable | None = None) -> tuple[Records, list[Result]]:
    """A stored play's records and each one checked, as a step starts from them; Unusable
    when the stored texts are not records of the play's game the engine accepts."""
    records = records_of(play, t)
    try:
        return records, check(play.game, records, play.id)
    except FormError as e:
        raise Unusable(play, str(e)) from None


def default_check(records: Records, sources: list[str]) -> list[tuple[Any, Any]]:
    from sheetkit.checking import records as R

    out = []
    for (_, data), source in zip(records, sources):
        loaded = R.parse(copy.deepcopy(data), source)
        out.append((loaded, R.check(loaded)))
    return out


def check(game: str, records: Records, play_id: int | None) -> list[Result]:
    """Each record written as its text, read back from that text (so what is checked is
    what is stored) and checked through the same engine as `sheetkit check`."""
    from sheetkit.web import i18n, inputs

    t = lambda k, **kw: i18n.label("en", k, **kw)  # noqa: E731  (our own text: never a message)
    ad = adapter(game)
    n = len(records)
    sources = [source_name(game, play_id, p, i, n) for i, (p, _) in enumerate(records)]
    texts = [text_of(d) for _, d in records]
    if any(len(tx) > MAX_MOVES_TEXT for tx in texts):
        raise FormError("the record has grown too long for one play")
    reread: Records = []
    for (player, _), tx, src in zip(records, texts, sources):
        data = inputs.toml_text(tx.encode("utf-8"), src, t)
        inputs.refuse_paths(data, src, t)
        reread.append((player, data))
    try:
        done = (getattr(ad, "check", None) or default_check)(reread, sources)
    except UserError as e:
        raise FormError(inputs.said(e)) from None
    return [Result(p, d, tx, src, loaded, checked)
            for (p, d), tx, src, (loaded, checked) in zip(reread, texts, sources, done)]


def sheets(results: list[Result]):
    from sheetkit.history.store import Sheet

    return tuple(Sheet(r.text, r.source, r.verdict.to_json(), r.player) for r in results)


def start(store, game: str, records: Records, played_at: str) -> int:
    """A new play in the history from its first records: its number."""
    from sheetkit.history.schema import HistoryError
    from sheetkit.history.store import NewPlay

    results = check(game, records, None)
    try:
        with store.transaction():  # added, then named after its number: both or neither
            play_id = store.add_play(NewPlay(game, sheets(results), played_at, illegal_ok=True), again=True)
            store.update_sheets(play_id, sheets(check(game, records, play_id)))
    except HistoryError as e:
        raise FormError(inputs.said(e)) from None
    return play_id


def step(store, play_id: int, version: str, change: Callable[[Records], Records], t: Callable | None = None) -> list[Result]:
    """One step of a play: `change` its records, check them, save texts and verdicts in
    one transaction. StalePlay (nothing written) when the play is no longer at `version`;
    Unusable when its stored records are not ones the page can read."""
    from sheetkit.history.schema import HistoryError
    from sheetkit.history.store import StalePlay

    play = store.get(play_id)
    if play.version != version:
        raise StalePlay(f"play {play_id} was changed meanwhile")
    records, _ = load(play, t)  # what the adapter changes is a record it can read (Unusable else)
    new = change(records)
    results = check(play.game, new, play_id)
    try:
        store.update_sheets(play_id, sheets(results), expect=version)
    except StalePlay:
        raise
    except HistoryError as e:
        raise FormError(inputs.said(e)) from None
    return results


def english(key: str, **kw) -> str:
    """The page's words in English: the adapters' `t` when no page asks (tests, the benches)."""
    from sheetkit.web import i18n

    return i18n.label("en", key, **kw)


def one_record(records: Records, game: str, what: str) -> dict:
    """The one record of a one-record play of `game` (never changed in place);
    FormError("not <what>") for anything else."""
    if len(records) != 1 or not isinstance(records[0][1], dict) or records[0][1].get("game") != game:
        raise FormError(f"not {what}")
    return records[0][1]


def finish_default(records: Records, form, t) -> Records:
    out = []
    for player, data in records:
        data = copy.deepcopy(data)
        data.pop("in_progress", None)
        out.append((player, data))
    return out
