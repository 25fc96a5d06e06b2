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
    """Read a photo of a filled, numbered Yuncos sheet into a draft record.

    Fields read with little confidence are marked `# check` for you to confirm; then
    `sheetkit check` the draft. Needs: pip install 'sheetkit[photo]'."""
    from sheetkit.photo import require

    if out == "" or debug_png == "":
        raise UserError(msg("error.cli.read_names"))
    require()
    from sheetkit.photo.read import draft_toml, read_photo

    try:
        draft = read_photo(photo, debug=debug_png)
    except OSError as e:
        raise UserError(msg("error.cli.cannot_read", why=e.strerror or str(e)), source=photo) from None
    lang = resolve_lang(lang)
    record = draft_toml(draft, click.format_filename(photo), lang)
    if out:
        from sheetkit.cli.history import _write

        _write(out, record)
        click.echo(text("photo.draft.wrote", lang, out=out, turns=len(draft.record["turn"]),
                        fields=len(draft.uncertain)), err=True)
    else:
        click.echo(record, nl=False)
