"""Checking and scoring: `sheetkit template`, `check`, `identify`, `score GAME`."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Callable

import click

from sheetkit.cli.options import LANG, LANG_HELP, PAPER
from sheetkit.messages import msg
from sheetkit.errors import UserError

if TYPE_CHECKING:
    from sheetkit.checking.verdict import Verdict


@click.command("template")
@click.argument("name")
def template_cmd(name):
    """Print a blank, commented record to fill in (a layout id, or e.g. iunu-deck)."""
    from sheetkit.checking import records

    click.echo(records.template(name), nl=False)


@click.command("check")
@click.argument("records", nargs=-1, required=True, metavar="RECORD...")
@click.option("--json", "as_json", is_flag=True, help="Print the verdicts as JSON.")
@click.option("--render", "render_to", type=click.Path(dir_okay=False),
              help="Draw the sheet with the transcription and the findings (one record only).")
@click.option("--paper", type=PAPER, default="a4", show_default=True, help="Paper for --render.")
@click.option("--bgstats-qr", is_flag=True,
              help="With --render: a QR code on the sheet that sends the play to BG Stats.")
@click.option("--lang", type=LANG, default=None, help=LANG_HELP)
def check_cmd(records, as_json, render_to, paper, bgstats_qr, lang):
    """Check transcribed records: exit 0 if all are legal, 1 if any is not."""
    import json
    from sheetkit.checking import records as rec

    if render_to == "":
        raise UserError(msg("error.cli.render_name"))
    if render_to and len(records) != 1:
        raise UserError(msg("error.cli.render_one"))
    loaded = [rec.load(path) for path in records]  # all input is read before any output
    checked = [rec.check(r) for r in loaded]
    verdicts = [c.verdict for c in checked]
    langs = [r.language(lang) for r in loaded]  # each record's own language unless --lang says
    if bgstats_qr and not render_to:
        raise UserError(msg("error.cli.bgstats_render"))
    if render_to:
        qr = None
        if bgstats_qr:
            from sheetkit.history.exports import record_link

            qr = (record_link(records[0], loaded[0].game, verdicts[0].to_json()), "BG Stats: scan to send this play")
        from sheetkit.paper.checked import render

        target = render(loaded[0], checked[0], render_to, paper, qr, langs[0])
    if as_json:
        click.echo(json.dumps([v.to_json(la) for v, la in zip(verdicts, langs)], ensure_ascii=False, indent=2))
    else:
        click.echo("\n".join(v.to_text(la) for v, la in zip(verdicts, langs)))
        if render_to:
            from sheetkit.messages import text

            click.echo(text("status.drawn", langs[0], file=target))
    sys.exit(max(v.exit_code for v in verdicts))


def _dice(text: str | None) -> tuple[int, ...] | None:
    """--dice "3 5" or "3,5,1,6": whole numbers 1 to 6."""
    if text is None:
        return None
    parts = text.replace(",", " ").split()
    # ASCII digits only: "²" and "⑤" are digits to str.isdigit() but no die face (int() refuses them)
    if not parts or len(parts) > 8 or not all(len(p) == 1 and p in "123456" for p in parts):
        shown = text if len(text) <= 40 else text[:40] + "..."
        raise UserError(msg("error.cli.dice", shown=repr(shown)))
    return tuple(int(p) for p in parts)


@click.command("moves")
@click.argument("record", type=click.Path(dir_okay=False))
@click.option("--dice", metavar="FACES", help='The dice rolled, e.g. "3 5" (Yuncos) or "1 3 4 6" (Level X).')
@click.option("--player", metavar="NAME", help="At a Yuncos table: this player's sheet (default: whoever is next).")
@click.option("--json", "as_json", is_flag=True, help="Print the legal moves as JSON.")
@click.option("--lang", type=LANG, default=None, help=LANG_HELP)
def moves_cmd(record, dice, player, as_json, lang):
    """The legal next moves at the end of a record (a game in progress): exit 0, or 1 if
    the record is already illegal."""
    import json
    from sheetkit.checking import records as rec

    faces = _dice(dice)
    loaded = rec.load(record)
    ask = loaded.kind.moves
    if ask is None:
        raise UserError(msg("error.cli.no_moves", records=msg(f"records.{loaded.game}.{loaded.record.kind}")), source=record)
    if player is not None and loaded.record.kind != "table":
        raise UserError(msg("error.cli.player_table"), source=record)
    lang = loaded.language(lang)
    checked = rec.check(loaded)
    answer = ask(loaded.record, checked, faces, **({"player": player} if player is not None else {}))
    if as_json:
        click.echo(json.dumps({"verdict": checked.verdict.to_json(lang), "moves": answer.to_json()},
                              ensure_ascii=False, indent=2))
    else:
        click.echo(f"{record}: {checked.verdict.status(lang)}")
        for f in checked.verdict.findings:
            click.echo("  " + f.line(lang))
        for line in answer.lines(lang):
            click.echo("  " + line)
    sys.exit(checked.verdict.exit_code)


@click.command("identify")
@click.argument("text")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@click.option("--lang", type=LANG, default=None, help="Language of the answer (default: the system locale's, else en).")
def identify_cmd(text, as_json, lang):
    """Say which sheet a pad's QR text names (e.g. SK1:yuncos-easy:e7bc4f0d:0042) and
    whether that layout version is installed now: exit 0 if it is, 1 if not."""
    import json
    from sheetkit.checking import qr
    from sheetkit.messages import resolve_lang

    info = qr.identify(text)
    if as_json:
        click.echo(json.dumps(info, ensure_ascii=False, indent=2))
    else:
        click.echo(qr.describe(info, resolve_lang(lang)))
    sys.exit(0 if info["current"] else 1)



class ScoreGroup(click.Group):
    """`sheetkit score GAME ...`: each game's quick tally, imported only when asked for."""

    def list_commands(self, ctx):
        from sheetkit import games

        return list(games.names())

    def get_command(self, ctx, name):
        from sheetkit import games

        if name not in games.names():
            return None
        tally = games.get(name).tally
        if tally.lines is not None:
            return score_command(name, tally.help, tally.lines.load())
        return counts_command(name, tally)


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

    @click.command(game, help=doc)
    @click.argument("record", type=click.Path(dir_okay=False))
    @click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
    @click.option("--lang", type=LANG, default=None, help=LANG_HELP)
    def command(record, as_json, lang):
        from sheetkit.checking import records

        loaded = records.load(record)
        if loaded.game != game:
            raise UserError(msg("error.record.other_game", game=loaded.game, want=game), source=record, field="game")
        lang = loaded.language(lang)
        verdict = records.check(loaded).verdict
        if as_json:
            click.echo(json.dumps(verdict.to_json(lang), ensure_ascii=False, indent=2))
        else:
            click.echo("\n".join(lines(verdict, lang) + _result_lines(verdict, lang)))
        sys.exit(verdict.exit_code)

    return command


def counts_command(game: str, tally):
    """`sheetkit score GAME --COUNT N ...` from the game's Tally: its options, --json and
    --lang; the game scores, this prints."""
    import json

    kinds = {"int": int, "text": str}

    def option(o):
        flag = "--" + o.name
        if o.kind == "flag":
            return click.option(flag, o.name, is_flag=True, help=o.help)
        kind = click.Choice(list(o.choices)) if o.kind == "choice" else kinds[o.kind]
        return click.option(flag, o.name, type=kind, default=o.default, multiple=o.multiple, metavar=o.metavar,
                            show_default=o.default is not None, help=o.help)

    def command(as_json, lang, **values):
        from sheetkit.messages import resolve_lang

        lang = resolve_lang(lang)
        verdict, lines = tally.score(values, lang)
        click.echo(json.dumps(verdict.to_json(lang), ensure_ascii=False, indent=2) if as_json else "\n".join(lines))

    command = click.option("--lang", type=LANG, default=None,
                           help="Language of the output (default: the system locale's, else en).")(command)
    command = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")(command)
    for o in reversed(tally.options):  # in the game's order, before --json and --lang
        command = option(o)(command)
    return click.command(game, help=tally.help)(command)

