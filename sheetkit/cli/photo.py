"""`sheetkit read`: a phone photo of a filled Yuncos sheet -> a draft record to confirm.

OpenCV, NumPy and zxing-cpp (the `photo` extra) are imported only when the command runs;
without them the command says in one line how to install them.
"""

from __future__ import annotations

import click

from sheetkit.messages import msg, resolve_lang, text
from sheetkit.cli.options import LANG
from sheetkit.errors import UserError


@click.command("read")
@click.argument("photo", type=click.Path(dir_okay=False))
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False),
              help="Write the draft record here (else it is printed).")
@click.option("--debug", "debug_png", type=click.Path(dir_okay=False),
              help="Write a PNG showing what was found where on the sheet.")
@click.option("--lang", type=LANG, default=None,
              help="Language of the draft's comments and of the errors (default: the system locale's, else en).")
def read_cmd(photo, out, debug_png, lang):
    """Read a photo of a filled, numbered sheet into a draft record: a Yuncos sheet, or a
    Glüx, IUNU or Level X score pad (it says which layout it saw).

    Fields read with little confidence are marked `# check` for you to confirm; then
    `sheetkit check` the draft. Needs: pip install 'sheetkit[photo]'."""
    from sheetkit.photo import require

    if out == "" or debug_png == "":
        raise UserError(msg("error.cli.read_names"))
    require()
    from sheetkit.photo.read import draft_toml, read_photo
    from sheetkit.photo import padread
    from sheetkit.photo.register import LEVELS

    try:
        seen = padread.identify(photo)  # which numbered sheet: a Yuncos level or a score pad
        if seen[0] not in LEVELS:
            pad = padread.read_pad(photo, seen=seen)
            if debug_png:
                padread.debug_image(pad, debug_png)
        else:
            pad = None
            draft = read_photo(photo, debug=debug_png)
    except OSError as e:
        raise UserError(msg("error.cli.cannot_read", why=e.strerror or str(e)), source=photo) from None
    lang = resolve_lang(lang)
    if pad is not None:
        click.echo(text("photo.draft.pad_saw", lang, layout=pad.layout, serial=pad.serial, paper=pad.paper,
                        players=len(pad.players), fields=len(pad.unsure)), err=True)
        if out:
            from sheetkit.cli.history import _write

            _write(out, pad.record_text)
            click.echo(text("photo.draft.pad_wrote", lang, out=out), err=True)
        else:
            click.echo(pad.record_text, nl=False)
        return
    record = draft_toml(draft, click.format_filename(photo), lang)
    if out:
        from sheetkit.cli.history import _write

        _write(out, record)
        click.echo(text("photo.draft.wrote", lang, out=out, turns=len(draft.record["turn"]),
                        fields=len(draft.uncertain)), err=True)
    else:
        click.echo(record, nl=False)
