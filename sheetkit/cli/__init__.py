"""The `sheetkit` command: parse, call the library, print. No rules live here.

Rendering libraries are imported inside the commands that render, so `--help` and
`score` start fast; so are json and pathlib (tests/test_coldstart.py, bench/bench_pad.py).
"""

from __future__ import annotations

import contextlib
import sys

import click

from sheetkit.errors import UserError

PAPER = click.Choice(["a4", "letter"])
LANG = click.Choice(["es", "en"])
SCALE = click.Choice(["real", "fit"])


class ScoreGroup(click.Group):
    """`sheetkit score GAME ...`: each game's quick tally, imported only when asked for."""

    def list_commands(self, ctx):
        from sheetkit import games

        return list(games.GAMES)

    def get_command(self, ctx, name):
        from sheetkit import games

        if name not in games.GAMES:
            return None
        return games.get(name).tally.load()


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sheetkit")
def cli():
    """Print play sheets for paper tabletop games, check filled sheets, keep score."""


@cli.command("layouts")
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
def layouts_cmd(as_json):
    """List the shipped layouts: id, game and title."""
    import json
    from sheetkit import layouts

    rows = [
        {"id": l.id, "game": l.game, "kind": l.kind, "version": l.version,
         "title": {"es": l.title.es, "en": l.title.en}}
        for l in layouts.load_all()
    ]
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    width = max((len(r["id"]) for r in rows), default=2)
    for r in rows:
        click.echo(f"{r['id']:<{width}}  {r['game']:<7} {r['title']['en']}")


def _layout_refs(ids: tuple[str, ...], all_: bool) -> list[str]:
    from sheetkit import layouts

    if all_ and ids:
        raise UserError("give layout ids or --all, not both")
    if not all_ and not ids:
        raise UserError("give at least one layout id or path, or --all")
    return layouts.shipped_ids() if all_ else list(ids)


@cli.command("render")
@click.argument("ids", nargs=-1, metavar="ID...")
@click.option("--all", "all_", is_flag=True, help="Every shipped layout.")
@click.option("--paper", type=PAPER, default="a4", show_default=True)
@click.option("--lang", type=LANG, default="en", show_default=True)
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False), help="Output PDF (one layout only).")
@click.option("--out-dir", type=click.Path(file_okay=False), default="output", show_default=True)
@click.option("--copies", type=click.IntRange(1, 10000), metavar="N",
              help="A pad: N numbered copies, each with its serial and QR code.")
@click.option("--first-serial", type=click.IntRange(min=0), metavar="K",
              help="Serial of the first copy (default 1; alone, prints copy K only).")
@click.option("--scale", type=SCALE, default="real", show_default=True,
              help="Boards: real size tiled across pages, or fit on one page.")
def render_cmd(ids, all_, paper, lang, out, out_dir, copies, first_serial, scale):
    """Render layouts (ids or paths to layout files) to PDF."""
    from sheetkit.paper import printing

    jobs = printing.plan(_layout_refs(ids, all_), paper, lang, scale, out=out, out_dir=out_dir,
                         copies=copies, first_serial=first_serial)
    for job in jobs:
        pages = len(job.scene.pages)
        with _progress(pages, str(job.target)) as progress:
            printing.write_pdf(job.scene, job.target, progress=progress)
        click.echo(f"{job.target}  ({pages} page{'s' if pages != 1 else ''})")


@contextlib.contextmanager
def _progress(pages: int, label: str):
    """A progress callback for long renders: a bar on standard error when it is a
    terminal, None (silent) otherwise."""
    if pages < 20 or not sys.stderr.isatty():
        yield None
        return
    with click.progressbar(length=pages, label=label, file=sys.stderr) as bar:
        done = 0

        def progress(n: int) -> None:
            nonlocal done
            bar.update(n - done)
            done = n

        yield progress


@cli.command("preview")
@click.argument("ref", metavar="ID")
@click.option("--page", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--dpi", type=click.IntRange(20, 600), default=100, show_default=True)
@click.option("--paper", type=PAPER, default="a4", show_default=True)
@click.option("--lang", type=LANG, default="en", show_default=True)
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False))
@click.option("--scale", type=SCALE, default="real", show_default=True,
              help="Boards: real size tiled across pages, or fit on one page.")
def preview_cmd(ref, page, dpi, paper, lang, out, scale):
    """Draw one page of a layout as a PNG."""
    from pathlib import Path
    from sheetkit.paper import printing

    layout, scene = printing.compose(ref, paper, lang, scale)
    if page > len(scene.pages):
        raise UserError(f"--page {page}: {layout.id} has {len(scene.pages)} page(s)")
    target = Path(out) if out else Path("output") / printing.default_name(layout, paper, lang, f"p{page}.png", scale)
    printing.write_png(scene, target, page - 1, dpi)
    click.echo(str(target))


@cli.command("lint")
@click.argument("ids", nargs=-1, metavar="ID...")
@click.option("--all", "all_", is_flag=True, help="Every shipped layout.")
def lint_cmd(ids, all_):
    """Check the game sense of layouts: exit 0 if all are sound, 1 if not."""
    from sheetkit.paper import lint

    bad = 0
    for ref in _layout_refs(ids, all_):
        layout, findings = lint.lint(ref)
        if findings:
            bad += 1
            click.echo(f"{layout.id}: {len(findings)} problem(s)")
            for f in findings:
                click.echo(f"  {f.line()}")
        else:
            click.echo(f"{layout.id}: ok")
    sys.exit(1 if bad else 0)


@cli.command("template")
@click.argument("name")
def template_cmd(name):
    """Print a blank, commented record to fill in (a layout id, or e.g. iunu-deck)."""
    from sheetkit.checking import records

    click.echo(records.template(name), nl=False)


@cli.command("check")
@click.argument("records", nargs=-1, required=True, metavar="RECORD...")
@click.option("--json", "as_json", is_flag=True, help="Print the verdicts as JSON.")
@click.option("--render", "render_to", type=click.Path(dir_okay=False),
              help="Draw the sheet with the transcription and the findings (one record only).")
@click.option("--paper", type=PAPER, default="a4", show_default=True, help="Paper for --render.")
def check_cmd(records, as_json, render_to, paper):
    """Check transcribed records: exit 0 if all are legal, 1 if any is not."""
    import json
    from sheetkit.checking import records as rec

    if render_to == "":
        raise UserError("--render needs a file name for the PDF")
    if render_to and len(records) != 1:
        raise UserError("--render draws one record; give exactly one")
    loaded = [rec.load(path) for path in records]  # all input is read before any output
    checked = [rec.check(r) for r in loaded]
    verdicts = [c.verdict for c in checked]
    if render_to:
        target = rec.render(loaded[0], checked[0], render_to, paper)
    if as_json:
        click.echo(json.dumps([v.to_json() for v in verdicts], ensure_ascii=False, indent=2))
    else:
        click.echo("\n".join(v.to_text() for v in verdicts))
        if render_to:
            click.echo(f"drawn: {target}")
    sys.exit(max(v.exit_code for v in verdicts))


@cli.command("identify")
@click.argument("text")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
def identify_cmd(text, as_json):
    """Say which sheet a pad's QR text names (e.g. SK1:yuncos-easy:e7bc4f0d:0042) and
    whether that layout version is installed now: exit 0 if it is, 1 if not."""
    import json
    from sheetkit.paper import pads

    info = pads.identify(text)
    if as_json:
        click.echo(json.dumps(info, ensure_ascii=False, indent=2))
    else:
        click.echo(pads.describe(info))
    sys.exit(0 if info["current"] else 1)


cli.add_command(ScoreGroup("score", help="Quick tallies: `sheetkit score GAME --help`."))


# click 8.2+ raises this for a group called with nothing; older versions exit 0 themselves
_NoArgsIsHelp = getattr(click.exceptions, "NoArgsIsHelpError", ())


def main() -> None:
    try:
        cli.main(standalone_mode=False, prog_name="sheetkit")
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.Abort:
        click.echo("sheetkit: aborted", err=True)
        sys.exit(2)
    except _NoArgsIsHelp as e:  # `sheetkit` or `sheetkit score` alone: show the help
        click.echo(e.ctx.get_help())
        sys.exit(0)
    except click.UsageError as e:
        where = e.ctx.command_path if e.ctx else "sheetkit"
        click.echo(f"{where}: {e.format_message()} (see '{where} --help')", err=True)
        sys.exit(2)
    except click.ClickException as e:
        click.echo(f"sheetkit: {e.format_message()}", err=True)
        sys.exit(2)
    except UserError as e:
        click.echo(f"sheetkit: {e}", err=True)
        sys.exit(2)
    except BrokenPipeError:
        sys.exit(1)
