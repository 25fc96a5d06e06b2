"""Records: transcriptions of a filled sheet or a game, in TOML.

Every record names its game (`game = "yuncos"`); the game reads and checks it through its
Game object. This module only dispatches: it draws nothing (the checked sheet is
sheetkit.paper.checked) and knows no command line (`score GAME` is sheetkit.cli.checking).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sheetkit import games, layouts
from sheetkit.games.interface import Checked, Game, RecordKind
from sheetkit.messages import msg, or_list
from sheetkit.errors import UserError
from sheetkit.tomlfile import parse_toml_text, read_toml


@dataclass(frozen=True, slots=True)
class Loaded:
    game: str
    source: str
    record: Any  # the game's own record object (sheetkit.games.interface.Record)
    lang: str | None = None  # the record's own language (`lang = "es"`), if it names one

    def language(self, option: str | None = None) -> str:
        """The language to speak of this record in: --lang, else the record's, else the
        system locale's, else English (messages.resolve_lang)."""
        from sheetkit.messages import resolve_lang

        return resolve_lang(option, self.lang)

    @property
    def kind(self) -> RecordKind:
        return games.get(self.game).record_kinds[self.record.kind]


def load(path: str | Path) -> Loaded:
    return parse(read_toml(path), str(path))


def parse_text(text: str, source: str, *, files: bool = True) -> Loaded:
    """A record from its text held in memory (the history's record texts, an import, a
    form), read with the same caps as a record file (size, UTF-8, NUL, nesting, 64-bit
    integers: sheetkit.tomlfile.parse_toml_text), then as `load` reads it. UserError
    naming `source` otherwise.

    `files=False`: the text came from outside (an import, an upload, a page): a field that
    names a file (a layout that is not a shipped id, an IUNU deck file, a Yuncos table's
    sheets) is refused before any path is looked at (sheetkit.checking.outside)."""
    data = parse_toml_text(text, source)
    if not files:
        from sheetkit.checking.outside import refuse_files

        refuse_files(data, source)
    return parse(data, source)


def parse(data: dict, source: str) -> Loaded:
    """A record from its TOML data; `source` names it in messages and finds files it refers to."""
    game = games.named_in(data, source)
    lang = data.get("lang")
    if lang is not None:  # the language to speak of the record in, the same key for every game
        from sheetkit.messages import LANGS

        if lang not in LANGS:
            shown = repr(lang) if isinstance(lang, str) and len(lang) <= 20 else "the value given"
            raise UserError(msg("error.lang.record", shown=shown if shown != "the value given" else msg("error.lang.value_given")),
                            source=source, field="lang")
        data = {k: v for k, v in data.items() if k != "lang"}
    kind = data.get("kind")
    if isinstance(kind, (list, dict)):  # every game's kinds are words; a list or table is no key
        raise UserError(msg("error.record.kind_word", got=msg("error.a_list" if isinstance(kind, list) else "error.a_table")),
                        source=source, field="kind")
    try:
        record = game.read_record(data, source)
    except UserError:
        _not_a_layout(game, data, source)
        raise
    return Loaded(game.name, source, record, lang)


def _not_a_layout(game: Game, data: dict, source: str) -> None:
    """A layout file given where a record is expected: say so (only once the record failed
    to load, so reading a record never loads the layout models)."""
    kind = data.get("kind")
    if isinstance(kind, str) and kind in game.layout_kinds and kind not in game.record_kinds:
        p = Path(source)
        ref = p.stem if p.resolve().parent == layouts.shipped_dir().resolve() else source
        raise UserError(msg("error.record.is_layout", game=game.name, kind=kind, ref=ref), source=source) from None


def check(loaded: Loaded, prior: Checked | None = None) -> Checked:
    """Replay a record: the game state and the verdict, with what its QR text says (the
    serial, and warnings if the layout changed since the sheet was printed). `prior`: the
    check of the same game a move or more earlier, which a game's check may go on from."""
    from sheetkit.checking.qr import apply_qr

    if prior is not None and prior.replayed is not None:
        checked = loaded.kind.check(loaded.record, loaded.source, prior=prior)
    else:
        checked = loaded.kind.check(loaded.record, loaded.source)
    verdict = apply_qr(checked.verdict, loaded.record, loaded.source, games.get(loaded.game).pad)
    return Checked(checked.state, verdict, checked.replayed)


def template(name: str) -> str:
    """A layout id or path gives that layout's record template; other names are the
    games' own templates (e.g. iunu-deck)."""
    for game in games.all_games():
        if name in game.templates:
            return game.templates[name]()
    try:
        layout = layouts.load(name)
    except UserError as e:
        if e.source:  # a layout file that exists but does not load: say why
            raise
        names = sorted(n for g in games.all_games() for n in g.templates)
        raise UserError(msg("error.template.unknown", name=repr(name), names=", ".join(names))) from None
    if layout.game is None:
        raise UserError(msg("error.template.no_game", id=layout.id, kind=layout.kind))
    kinds = games.get(layout.game).layout_kinds
    make = kinds[layout.kind].record_template
    if make is None:
        with_record = [k for k, lk in kinds.items() if lk.record_template is not None]
        raise UserError(msg("error.template.no_record", id=layout.id, kind=layout.kind, game=layout.game,
                            kinds=or_list(with_record)))
    return make(layout)
