"""Records: transcriptions of a filled sheet or a game, in TOML.

Every record names its game (`game = "yuncos"`); the game reads, checks and draws it
through its Game object. This module only dispatches.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from sheetkit import games, layouts
from sheetkit.games.interface import Checked, Game, RecordKind
from sheetkit.messages import msg, or_list
from sheetkit.errors import UserError
from sheetkit.tomlfile import parse_toml_text, read_toml
from sheetkit.checking.verdict import Verdict


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


def check(loaded: Loaded) -> Checked:
    """Replay a record: the game state and the verdict, with what its QR text says (the
    serial, and warnings if the layout changed since the sheet was printed)."""
    from sheetkit.paper import pads

    checked = loaded.kind.check(loaded.record, loaded.source)
    verdict = pads.apply_qr(checked.verdict, loaded.record, loaded.source, games.get(loaded.game).pad)
    return Checked(checked.state, verdict)


def render(loaded: Loaded, checked: Checked, out: str | Path, paper: str = "a4",
           qr: tuple[str, str] | None = None, lang: str = "en") -> Path:
    """The checked sheet as a PDF, its words in `lang`; `qr` = (text, caption) adds a QR
    code to its first page (e.g. the link that sends the play to BG Stats)."""
    from sheetkit.paper.printing import write_pdf

    overlay = loaded.kind.overlay
    if overlay is None:
        raise UserError(msg("error.record.no_sheet", records=msg(f"records.{loaded.game}.{loaded.record.kind}")))
    scene = overlay(loaded.record, checked, paper, lang)
    if qr is not None:
        _add_qr(scene, *qr)
    return write_pdf(scene, out)


def _add_qr(scene, text: str, caption: str, margin: float = 10.0) -> None:
    """A QR code on the first page, where the drawing leaves room: below it, else beside it,
    as large as fits (40 or 34 mm: a long link's modules stay large enough for a phone's
    camera); else on a page of its own after the first. Same for every game."""
    from sheetkit.paper import scene as S

    page = scene.pages[0]
    box = S.bounds(page.items, scene.forms) or (margin, margin, margin, margin)
    reserved = [page.stamp] if page.stamp else []
    for size in (40.0, 34.0):
        tall = size + 5.0  # the caption under it
        spots = [(page.width - margin - size, box[3] + 3.0),  # below the drawing, at the right
                 (box[2] + 3.0, margin)]  # beside it, at the top
        for x, y in spots:
            fits = x >= margin and y >= margin and x + size <= page.width - margin and y + tall <= page.height - margin
            clear = all(x + size <= sx or x >= sx + ss or y + tall <= sy or y >= sy + ss for sx, sy, ss in reserved)
            if fits and clear:
                page.items += [S.QR(x, y, size, text), S.Text(x + size / 2, y + size + 3.5, caption, 7.0, anchor="middle")]
                return
    size = 60.0
    x, y = (page.width - size) / 2, margin + 20.0
    scene.pages.insert(1, S.Page(page.width, page.height, [
        S.Text(page.width / 2, margin + 10.0, caption, 11.0, bold=True, anchor="middle"), S.QR(x, y, size, text)]))


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


def _result_lines(verdict: Verdict, lang: str = "en") -> list[str]:
    from sheetkit.messages import text
    from sheetkit.checking.verdict import say

    out = [f"  {verdict.result_label(lang)}: {', '.join(verdict.ahead)}"]
    if verdict.tiebreak:
        out.append(f"  {say(verdict.tiebreak, lang)}")
    if not verdict.legal:
        out.append("  " + text("status.not_a_result", lang, status=verdict.status(lang)))
        out += ["  " + f.line(lang) for f in verdict.findings]
    return out


def score_command(game: str, doc: str, lines: Callable[[Verdict, str], list[str]]):
    """`sheetkit score GAME RECORD [--json]` for games whose tally comes from a record
    file: load, check, print each player's total with `lines`, then the winner(s) and any
    finding; exit 1 if the record cannot be."""
    import json
    import sys

    import click

    from sheetkit.cli.options import LANG, LANG_HELP

    @click.command(game, help=doc)
    @click.argument("record", type=click.Path(dir_okay=False))
    @click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
    @click.option("--lang", type=LANG, default=None, help=LANG_HELP)
    def command(record, as_json, lang):
        loaded = load(record)
        if loaded.game != game:
            raise UserError(msg("error.record.other_game", game=loaded.game, want=game), source=record, field="game")
        lang = loaded.language(lang)
        verdict = check(loaded).verdict
        if as_json:
            click.echo(json.dumps(verdict.to_json(lang), ensure_ascii=False, indent=2))
        else:
            click.echo("\n".join(lines(verdict, lang) + _result_lines(verdict, lang)))
        sys.exit(verdict.exit_code)

    return command
