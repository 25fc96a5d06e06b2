"""Printing: `sheetkit layouts`, `render`, `preview`, `lint`."""

from __future__ import annotations

import contextlib
import sys

import click

from sheetkit.cli.options import LANG, PAPER, SCALE
from sheetkit.messages import msg
from sheetkit.errors import UserError

@click.command("layouts")
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
def layouts_cmd(as_json):
    """List the shipped layouts: id, game and title."""
    import json
    from sheetkit import layouts

    rows = [
        {"id": l.id, "game": l.game or "-", "kind": l.kind, "version": l.version,
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
        raise UserError(msg("error.cli.ids_and_all"))
    if not all_ and not ids:
        raise UserError(msg("error.cli.no_ids"))
    return layouts.shipped_ids() if all_ else list(ids)


@click.command("render")
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
@click.option("--printer", "printer_name", metavar="NAME",
              help="Correct for this printer's profile (`sheetkit printer list`).")
@click.option("--bleed", type=float, default=0.0, metavar="MM",
              help="Chips: the colour runs this many mm (up to 3) past the cut lines.")
def render_cmd(ids, all_, paper, lang, out, out_dir, copies, first_serial, scale, printer_name, bleed):
    """Render layouts (ids or paths to layout files) to PDF. `sheetkit render calibration`
    prints the sheet that a printer profile is measured on."""
    from sheetkit.paper import printing

    profile = None
    if printer_name is not None:
        from sheetkit.paper import printers

        profile = printers.get(printers.check_name(printer_name))
    jobs = printing.plan(_layout_refs(ids, all_), paper, lang, scale, out=out, out_dir=out_dir,
                         copies=copies, first_serial=first_serial, bleed=bleed)
    for job in jobs:
        pages = len(job.scene.pages)
        with _progress(pages, str(job.target)) as progress:
            printing.write_pdf(job.scene, job.target, progress=progress, printer=profile)
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


@click.command("preview")
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
        raise UserError(msg("error.cli.page", page=page, id=layout.id, n=len(scene.pages)))
    target = Path(out) if out else Path("output") / printing.default_name(layout, paper, lang, f"p{page}.png", scale)
    printing.write_png(scene, target, page - 1, dpi)
    click.echo(str(target))


@click.command("lint")
@click.argument("ids", nargs=-1, metavar="ID...")
@click.option("--all", "all_", is_flag=True, help="Every shipped layout.")
@click.option("--lang", type=LANG, default=None, help="Language of the findings (default: the system locale's, else en).")
def lint_cmd(ids, all_, lang):
    """Check the game sense of layouts: exit 0 if all are sound, 1 if not."""
    from sheetkit.messages import resolve_lang, text
    from sheetkit.paper import lint

    lang = resolve_lang(lang)
    bad = 0
    for ref in _layout_refs(ids, all_):
        layout, findings = lint.lint(ref)
        if findings:
            bad += 1
            click.echo(text("lint.problems", lang, id=layout.id, n=len(findings)))
            for f in findings:
                click.echo(f"  {f.line(lang)}")
        else:
            click.echo(text("lint.ok", lang, id=layout.id))
    sys.exit(1 if bad else 0)


