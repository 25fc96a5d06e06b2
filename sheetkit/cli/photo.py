"""`sheetkit read`: a phone photo of a filled Yuncos sheet -> a draft record to confirm.

OpenCV, NumPy and zxing-cpp (the `photo` extra) are imported only when the command runs;
without them the command says in one line how to install them.
"""

from __future__ import annotations

import gc
import os

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
@click.option("--confirmed", "confirmed_path", type=click.Path(dir_okay=False),
              help="A draft of this photo you corrected: the lines whose `# check` you deleted are held, "
                   "the rest is read again around them.")
@click.option("--lang", type=LANG, default=None,
              help="Language of the draft's comments and of the errors (default: the system locale's, else en).")
def read_cmd(photo, out, debug_png, confirmed_path, lang):
    """Read a photo of a filled, numbered sheet into a draft record: a Yuncos sheet, or a
    Glüx, IUNU or Level X score pad (it says which layout it saw).

    Fields read with little confidence are marked `# check` for you to confirm; then
    `sheetkit check` the draft. Correct the marked lines you have looked at, delete their
    `# check`, and read again with --confirmed DRAFT: what you confirmed is held and the
    turns around it are read again. Needs: pip install 'sheetkit[photo]'."""
    # NumPy's BLAS starts a thread per core, whose spinning between the reader's small
    # products costs more CPU than they save (0.15-0.2 s a photo): one thread, unless the
    # user says otherwise. Only read before NumPy is first imported: it is not yet.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from sheetkit.photo import require

    if out == "" or debug_png == "" or confirmed_path == "":
        raise UserError(msg("error.cli.read_names"))
    held = None
    if confirmed_path is not None:  # read first: a wrong draft is said before the photo is read
        from sheetkit.photo.confirm import read_confirmed

        corrected, confirmed = read_confirmed(confirmed_path)
    require()
    # What the command makes lives about as long as it does, and the flight search makes many
    # small tuples: the collector runs seldom, and never over what is imported (frozen),
    # which saves 0.05-0.1 s a photo; both undone at the end, for a caller's own process.
    thresholds = gc.get_threshold()
    gc.set_threshold(20_000, 50, 50)
    from sheetkit.photo.read import confirmed_draft, draft_toml, held_fields, read_photo
    from sheetkit.photo import padread
    from sheetkit.photo.register import LEVELS

    gc.freeze()
    try:
        seen = padread.identify(photo)  # which numbered sheet: a Yuncos level or a score pad
        if seen[0] not in LEVELS:
            if confirmed_path is not None:
                raise UserError(msg("error.photo.confirmed_pad", layout=seen[0]), source=photo)
            pad = padread.read_pad(photo, seen=seen)
            if debug_png:
                padread.debug_image(pad, debug_png)
        else:
            pad = None
            if confirmed_path is None:
                draft = read_photo(photo, debug=debug_png)
            else:
                held = held_fields(corrected, confirmed)
                draft = confirmed_draft(photo, corrected, confirmed, debug=debug_png, source=confirmed_path)
    except OSError as e:
        raise UserError(msg("error.cli.cannot_read", why=e.strerror or str(e)), source=photo) from None
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
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
        said = "photo.draft.wrote" if held is None else "photo.draft.reread_wrote"
        waiting = text("photo.draft.waiting_count", lang, waiting=len(draft.waiting)) if draft.waiting else ""
        click.echo(text(said, lang, out=out, turns=len(draft.record["turn"]), fields=len(draft.uncertain),
                        held=sum(1 for k in held or {} if k != "path")) + waiting, err=True)
    else:
        click.echo(record, nl=False)
