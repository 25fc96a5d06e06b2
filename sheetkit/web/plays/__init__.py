"""Plays entered on the page move by move, for every game the same way.

What a game needs on the page is the `entry` of its Game object (sheetkit.games.interface:
new records, add a move, undo, finish, the view of a position), implemented in the game's
own package; nothing here names a game. A play entered on the page is a play in the
history (sheetkit.history.Store), in progress until it is ended. Its records are texts in
sheetkit's own TOML notation, exactly what `sheetkit check` reads: a step takes the play's
position (each record with its checked state), lets the game's entry make the new records,
writes them as TOML text, checks that very text with the engine of `sheetkit check`, and
stores texts and verdicts in one transaction (`Store.update_sheets`). So closing the tab or
killing the server loses nothing, and the record downloaded from the page is the stored
text.

The position is kept between requests (`KEPT`, keyed by history file, play and version: the
version is the fingerprint of the stored texts, so a kept position is always the one of the
texts it is found by). Missing (a restart, another server process, an old version), it is
rebuilt from the stored texts by a full check; the tests compare the two after random moves,
undos and restarts.
"""

from __future__ import annotations

import copy
import re
import threading
from collections import OrderedDict
from typing import Any, Callable

from sheetkit.errors import UserError
from sheetkit.forms import FormError, english
from sheetkit.games import interface
from sheetkit.memo import Memo, unchanged_data
from sheetkit.games.interface import Result, Start  # noqa: F401  (the contract's types, named here for the routes)
from sheetkit.web.inputs import said

Records = list[tuple[str | None, dict[str, Any]]]
SOURCE = "web page"  # a new play's records, until the play has its number
MAX_MOVES_TEXT = 64 * 1024  # a record grown past this on the page is refused (a whole game is a few kB)


def game_of(name: Any):
    """The registered game of that name that can be entered move by move, else None."""
    from sheetkit import games

    if not isinstance(name, str) or not re.fullmatch(r"[a-z]{1,20}", name):
        return None
    game = next((g for g in games.all_games() if g.name == name), None)
    return game if game is not None and game.entry is not None else None


def entry_of(name: Any):
    """The game's Entry, or None when the page has no move entry for it."""
    game = game_of(name)
    return game.entry if game is not None else None


def offered() -> list:
    """The games whose plays can be entered move by move, in the registry's order."""
    from sheetkit import games

    return [g for g in games.all_games() if g.entry is not None]


class Kept:
    """The positions of open plays between requests, the most recently used kept."""

    def __init__(self, most: int = 64):
        self.most = most
        self._kept: OrderedDict[tuple, list[Result]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple) -> list[Result] | None:
        with self._lock:
            got = self._kept.get(key)
            if got is not None:
                self._kept.move_to_end(key)
            return got

    def put(self, key: tuple, position: list[Result]) -> None:
        with self._lock:
            self._kept[key] = position
            self._kept.move_to_end(key)
            while len(self._kept) > self.most:
                self._kept.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


KEPT = Kept()


def _key(store, play_id: int, version: str | None) -> tuple:
    return (str(getattr(store, "path", "")), play_id, version)


def source_name(game: str, play_id: int | None, player: str | None = None, index: int = 0, count: int = 1) -> str:
    """The name of a play's record (in its verdict, and as its download's file name):
    letters, digits and - only, e.g. <game>-play-12.toml, <game>-play-7-ana.toml."""
    if play_id is None:
        return SOURCE
    stem = f"{game}-play-{play_id}"
    if count > 1:
        who = re.sub(r"[^a-z0-9]+", "-", (player or "").casefold()).strip("-")[:20]
        stem += f"-{who or index + 1}" if who else f"-{index + 1}"
    return stem + ".toml"


# Each turn's lines, by the very turn: a move writes a record of the same turns and one more
# (a game's entry never changes a record; tests/test_web_kept.py reads every text back).
_TURN_TEXT = Memo(8192)


def text_of(data: dict[str, Any]) -> str:
    from sheetkit.tomlfile import dump_toml

    return dump_toml(data, "Entered on the sheetkit score-keeper page. Check it: sheetkit check FILE", _TURN_TEXT)


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
            raise Unusable(play, said(e)) from None
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


def load(store, play, t: Callable | None = None) -> list[Result]:
    """A stored play's position, as a step starts from it: kept, or rebuilt from the stored
    texts; Unusable when they are not records of the play's game the engine accepts."""
    key = _key(store, play.id, play.version)
    position = KEPT.get(key)
    if position is None:
        try:
            position = check(play.game, records_of(play, t), play.id)
        except FormError as e:
            raise Unusable(play, str(e)) from None
        KEPT.put(key, position)
    return position


def _each_alone(records: Records, sources: list[str], prior: list[Result] | None) -> list[tuple[Any, Any]]:
    """Each record checked on its own, as `sheetkit check` checks it. Not copied first: a
    game's reader never changes the data it reads (tests/test_web_kept.py), so the kept
    position's records, which a move's records share their turns with, stay as they were."""
    from sheetkit.checking import records as R

    same = prior is not None and [r.source for r in prior] == list(sources)
    out = []
    for i, ((_, data), source) in enumerate(zip(records, sources)):
        loaded = R.parse(data, source)
        out.append((loaded, R.check(loaded, prior[i].checked if same else None)))
    return out


def check(game: str, records: Records, play_id: int | None, prior: list[Result] | None = None,
          t: Callable | None = None) -> list[Result]:
    """Each record written as its text and checked through the same engine as `sheetkit
    check`; `prior`, the position the records were made from, is what the engine may go
    on from. The text reads back as the very data checked (dump_toml's promise; the tests
    read every stored text back after random plays of every game, tests/test_web_kept.py),
    so it is not parsed again here: a move costs no reading of the whole record. The data
    is held to the guarded reader's caps (nesting, 64-bit integers) and names no file."""
    with unchanged_data():  # the page's records, never changed once made
        return _check(game, records, play_id, prior, t)


def _check(game, records, play_id, prior, t) -> list[Result]:
    from sheetkit.checking.outside import refuse_files
    from sheetkit.tomlfile import check_bounds

    entry = entry_of(game)
    n = len(records)
    sources = [source_name(game, play_id, p, i, n) for i, (p, _) in enumerate(records)]
    texts = [text_of(d) for _, d in records]
    if any(len(tx) > MAX_MOVES_TEXT for tx in texts):
        raise FormError((t or english)("err_too_long", kb=MAX_MOVES_TEXT // 1024))
    try:
        reread: Records = []
        same = prior is not None and len(prior) == len(records)
        for i, ((player, data), src) in enumerate(zip(records, sources)):
            check_bounds(data, src, prior[i].data if same else None)
            refuse_files(data, src)
            reread.append((player, data))  # the games' entries make new records, never change one
        done = _each_alone(reread, sources, prior)
        together = None
        if entry is not None and entry.together is not None:
            together = entry.together(reread, prior[0].together if prior and len(prior) == len(reread) else None)
    except UserError as e:  # a FormError says its own sentence
        raise FormError(said(e)) from None
    return [Result(p, d, tx, src, loaded, checked, together)
            for (p, d), tx, src, (loaded, checked) in zip(reread, texts, sources, done)]


def sheets(results: list[Result]):
    from sheetkit.history.store import Sheet

    return tuple(Sheet(r.text, r.source, r.verdict.to_json(), r.player) for r in results)


def start(store, game: str, records: Records, played_at: str) -> int:
    """A new play in the history from its first records: its number."""
    from sheetkit.history.schema import HistoryError
    from sheetkit.history.store import NewPlay, version_of

    results = check(game, records, None)
    try:
        with store.transaction():  # added, then named after its number: both or neither
            play_id = store.add_play(NewPlay(game, sheets(results), played_at, illegal_ok=True), again=True)
            named = check(game, records, play_id)
            kept = sheets(named)
            store.update_sheets(play_id, kept)
    except HistoryError as e:
        raise FormError(said(e)) from None
    KEPT.put(_key(store, play_id, version_of(s.sha256 for s in kept)), named)
    return play_id


def step(store, play, version: str, change: Callable[[list[Result]], Records], t: Callable | None = None) -> list[Result]:
    """One step of a play: `change` its position into new records, check them, save texts
    and verdicts in one transaction, keep the new position. StalePlay (nothing written)
    when the play is no longer at `version`; Unusable when its stored records are not ones
    the page can read."""
    from sheetkit.history.schema import HistoryError
    from sheetkit.history.store import StalePlay, version_of

    if play.version != version:
        raise StalePlay(f"play {play.id} was changed meanwhile")
    position = load(store, play, t)  # what the game changes is a position it can read (Unusable else)
    with unchanged_data():  # a game's entry makes new records, never changes one
        results = check(play.game, change(position), play.id, prior=position, t=t)
    kept = sheets(results)
    try:
        store.update_sheets(play.id, kept, expect=version)
    except StalePlay:
        raise
    except HistoryError as e:
        raise FormError(said(e)) from None
    KEPT.put(_key(store, play.id, version_of(s.sha256 for s in kept)), results)
    return results


def finish_default(position: list[Result], form, t) -> Records:
    """Every record finished as it is: none stays in progress."""
    out = []
    for player, data in interface.records_of(position):
        data = copy.deepcopy(data)
        data.pop("in_progress", None)
        out.append((player, data))
    return out
