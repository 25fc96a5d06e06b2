"""Records: transcriptions of a filled sheet or a finished game, in TOML.

Every record names its game (`game = "yuncos"`); the game package reads, checks and
draws it. This module only dispatches.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from sheetkit import games, layouts
from sheetkit.errors import UserError
from sheetkit.tomlfile import read_toml
from sheetkit.verdict import Verdict


@dataclass(frozen=True, slots=True)
class Loaded:
    game: str
    source: str
    record: Any  # the game's own record object


def load(path: str | Path) -> Loaded:
    source = str(path)
    data = read_toml(path)
    game = games.named_in(data, source)
    kind = data.get("kind")
    if isinstance(kind, (list, dict)):  # every game's kinds are words; a list or table is no key
        raise UserError(f'expected a word such as kind = "game" (got {"a list" if isinstance(kind, list) else "a table"})',
                        source=source, field="kind")
    try:
        record = game.load_record(data, source)
    except UserError:
        _not_a_layout(game, data, path)
        raise
    return Loaded(game.NAME, source, record)


def _not_a_layout(game, data: dict, path: str | Path) -> None:
    """A layout file given where a record is expected: say so (only once the record failed
    to load, so reading a record never loads the layout models)."""
    kind = data.get("kind")
    if isinstance(kind, str) and kind in game.LAYOUT_KINDS and kind not in getattr(game, "RECORD_KINDS", {}):
        p = Path(path)
        ref = p.stem if p.resolve().parent == layouts.shipped_dir().resolve() else str(path)
        raise UserError(f"this is a {game.NAME} {kind} layout, not a record of a game "
                        f"(for a record to fill in, see `sheetkit template {ref}`)", source=str(path)) from None


def check(loaded: Loaded) -> Verdict:
    from sheetkit import pads

    game = games.get(loaded.game)
    verdict = game.check(loaded.record, loaded.source)
    # a record that carries its sheet's QR text: the serial, and warnings if the layout changed
    return pads.apply_qr(verdict, loaded.record, loaded.source, getattr(game, "PAD", None))


def render(loaded: Loaded, verdict: Verdict, out: str | Path, paper: str = "a4") -> Path:
    from sheetkit.printing import write_pdf

    game = games.get(loaded.game)
    if not hasattr(game, "overlay"):
        raise UserError(f"--render: {loaded.game} records have no sheet to draw")
    return write_pdf(game.overlay(loaded.record, verdict, paper), out)


def template(name: str) -> str:
    """A layout id or path gives that layout's record template; other names are the
    games' own templates (e.g. iunu-deck)."""
    for game_name in games.GAMES:
        game = games.get(game_name)
        if name in game.TEMPLATES:
            return game.TEMPLATES[name]()
    try:
        layout = layouts.load(name)
    except UserError as e:
        if e.source:  # a layout file that exists but does not load: say why
            raise
        names = sorted(n for g in games.GAMES for n in games.get(g).TEMPLATES)
        raise UserError(f"no template named {name!r}: give a layout id (see `sheetkit layouts`) "
                        f"or one of: {', '.join(names)}") from None
    game = games.get(layout.game)
    if not hasattr(game, "record_template"):
        raise UserError(f"layout {layout.id} ({layout.kind}) has no record to fill")
    return game.record_template(layout)


def _result_lines(verdict: Verdict) -> list[str]:
    out = [f"  {'winner' if len(verdict.winners) == 1 else 'shared win'}: {', '.join(verdict.winners)}"]
    if "tiebreak" in verdict.info:
        out.append(f"  {verdict.info['tiebreak']}")
    errors = [f for f in verdict.findings if f.severity == "error"]
    if errors:
        out.append(f"  ILLEGAL: {len(errors)} finding(s); the tally is not a result")
        out += ["  " + f.line() for f in verdict.findings]
    return out


def score_command(game: str, doc: str, lines: Callable[[Verdict], list[str]]):
    """`sheetkit score GAME RECORD [--json]` for games whose tally comes from a record
    file: load, check, print each player's total with `lines`, then the winner(s) and any
    finding; exit 1 if the record cannot be."""
    import json
    import sys

    import click

    @click.command(game, help=doc)
    @click.argument("record", type=click.Path(dir_okay=False))
    @click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
    def command(record, as_json):
        loaded = load(record)
        if loaded.game != game:
            raise UserError(f"a {loaded.game} record, not {game}", source=record, field="game")
        verdict = check(loaded)
        if as_json:
            click.echo(json.dumps(verdict.to_json(), ensure_ascii=False, indent=2))
        else:
            click.echo("\n".join(lines(verdict) + _result_lines(verdict)))
        sys.exit(verdict.exit_code)

    return command
