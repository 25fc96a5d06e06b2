"""`sheetkit read`: a phone photo of a filled Yuncos sheet -> a draft record to confirm.

OpenCV, NumPy and zxing-cpp (the `photo` extra) are imported only when the command runs;
without them the command says in one line how to install them.
"""

from __future__ import annotations

import gc
import os
import time
from contextlib import contextmanager

import click

from sheetkit.messages import msg, resolve_lang, text
from sheetkit.cli.options import LANG
from sheetkit.errors import UserError


@click.command("read")
@click.argument("photos", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("-o", "--output", "out", type=click.Path(),
              help="Write the draft here (else it is printed). With several photos, or a folder: "
                   "a draft per photo in that folder, named as the photo (sheet.jpg -> sheet.toml).")
@click.option("--debug", "debug_png", type=click.Path(),
              help="Write a PNG showing what was found where on the sheet (with several photos, "
                   "or a folder: one per photo in that folder).")
@click.option("--confirmed", "confirmed_path", type=click.Path(dir_okay=False),
              help="A draft of this photo you corrected: the lines whose `# check` you deleted are held, "
                   "the rest is read again around them (one photo at a time).")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=None,
              help="Photos read at once, each by a process of its own (default: one per core).")
@click.option("--lang", type=LANG, default=None,
              help="Language of the draft's comments and of the errors (default: the system locale's, else en).")
def read_cmd(photos, out, debug_png, confirmed_path, jobs, lang):
    """Read photos of filled, numbered sheets into draft records: a Yuncos sheet, or a
    Glüx, IUNU or Level X score pad (it says which layout it saw).

    Fields read with little confidence are marked `# check` for you to confirm; then
    `sheetkit check` the draft. Correct the marked lines you have looked at, delete their
    `# check`, and read again with --confirmed DRAFT: what you confirmed is held and the
    turns around it are read again. Several photos (the sheets of a game night) are read
    at once into a folder: sheetkit read *.jpg -o drafts. Needs: pip install 'sheetkit[photo]'."""
    if out == "" or debug_png == "" or confirmed_path == "":
        raise UserError(msg("error.cli.read_names"))
    lang = resolve_lang(lang)
    if len(photos) == 1:
        photo = photos[0]
        out, debug_png = (_in_folder(path, photo, ext) for path, ext in ((out, ".toml"), (debug_png, ".png")))
        _not_over([photo], [out, debug_png])
        record, said = read_one(photo, out, debug_png, confirmed_path, lang)
        if out:
            from sheetkit.cli.history import _write

            _write(out, record)
        else:
            click.echo(record, nl=False)
        if said:
            click.echo(said, err=True)
        return
    if confirmed_path is not None:
        raise UserError(msg("error.cli.read_confirmed_one"))
    if not out:
        raise UserError(msg("error.cli.read_folder"))
    failed = read_many(photos, out, debug_png, lang, jobs or os.cpu_count() or 1)
    if failed:
        key = "error.photo.none_read" if failed == len(photos) else "error.photo.some_failed"
        raise UserError(msg(key, failed=failed, photos=len(photos), out=out))


def _in_folder(path: str | None, photo: str, ext: str) -> str | None:
    """-o or --debug for one photo: a folder (one there, or a name ending in a slash) holds
    a file named as the photo (sheet.jpg -> sheet.toml); a file name stays."""
    if path and (os.path.isdir(path) or path.endswith(("/", os.sep))):
        from pathlib import Path

        return os.path.join(path, Path(photo).stem + ext)
    return path


def _not_over(photos, written) -> None:
    """UserError unless every file to write is another file than each photo (a draft named
    as a photo, or a link to one, in the folder written to)."""
    seen = {}
    for photo in photos:
        try:
            st = os.stat(photo)
        except OSError:
            continue
        seen[st.st_dev, st.st_ino] = photo
    for path in written:
        try:
            st = os.stat(path) if path else None
        except OSError:
            continue
        if st is not None and (st.st_dev, st.st_ino) in seen:
            raise UserError(msg("error.cli.read_over_photo"), source=click.format_filename(seen[st.st_dev, st.st_ino]))


def _worker_start() -> None:
    """A worker of read_many leaves Ctrl-C to the command, which stops the batch, and ends
    with it should it end without stopping them (killed; on Linux, where a process can ask)."""
    import signal
    import sys

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        import ctypes

        try:  # PR_SET_PDEATHSIG: SIGTERM when the command's process ends
            ctypes.CDLL(None).prctl(1, signal.SIGTERM)
        except (OSError, AttributeError):
            pass
        if os.getppid() == 1:  # it ended before that was asked
            os._exit(1)


def read_one(photo: str, out: str | None, debug_png: str | None, confirmed_path: str | None,
             lang: str) -> tuple[str, str | None]:
    """Read one photo: (its draft record, the line said on standard error about it: what
    was seen and where the draft goes when it goes to `out`). UserError (one line) for a
    photo that cannot be read."""
    # NumPy's BLAS starts a thread per core, whose spinning between the reader's small
    # products costs more CPU than they save (0.15-0.2 s a photo): one thread, unless the
    # user says otherwise. Only read before NumPy is first imported: it is not yet.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from sheetkit.photo import require

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
    if pad is not None:
        saw = text("photo.draft.pad_saw", lang, layout=pad.layout, serial=pad.serial, paper=pad.paper,
                   players=len(pad.players), fields=len(pad.unsure))
        return pad.record_text, saw + ("; " + text("photo.draft.wrote_to", lang, out=out) if out else "")
    record = draft_toml(draft, click.format_filename(photo), lang)
    if not out:
        return record, None
    said = "photo.draft.wrote" if held is None else "photo.draft.reread_wrote"
    waiting = text("photo.draft.waiting_count", lang, waiting=len(draft.waiting)) if draft.waiting else ""
    return record, text(said, lang, out=out, turns=len(draft.record["turn"]), fields=len(draft.uncertain),
                        held=sum(1 for k in held or {} if k != "path")) + waiting


def _read_into(photo: str, out: str, debug_png: str | None, lang: str) -> tuple[bool, str]:
    """read_one for read_many, in a process of its own: the draft written to `out`;
    (whether it was, the line to say about the photo)."""
    try:
        record, said = read_one(photo, out, debug_png, None, lang)
        from sheetkit.cli.history import _write

        _write(out, record)
        return True, said
    except UserError as e:
        return False, e.line(lang)


def _folders(*folders: str | None) -> list[str]:
    """Make the folders written to, and write a file in each and remove it: one that cannot
    be written is said at once, in one line, before any photo is read (a folder made for
    nothing is removed). The folders made."""
    import tempfile

    made = []
    try:
        for folder in (f for f in folders if f):
            if os.path.exists(folder) and not os.path.isdir(folder):
                raise UserError(msg("error.cli.read_not_folder"), source=folder)
            try:
                if not os.path.isdir(folder):
                    os.makedirs(folder)
                    made.append(folder)
                tempfile.TemporaryFile(dir=folder).close()
            except OSError as e:
                raise UserError(msg("error.file.cannot_write", why=e.strerror or str(e)), source=folder) from None
    except UserError:
        _unmake(made)
        raise
    return made


def _unmake(folders: list[str]) -> None:
    """Remove the folders made for the drafts, where they are left empty."""
    for folder in reversed(folders):
        try:
            os.rmdir(folder)
        except OSError:
            pass


def _stop(pool) -> None:
    """The batch stopped (Ctrl-C, SIGTERM, a worker gone): no photo more is begun, and the
    workers end now, not after the photos already handed to them."""
    import multiprocessing

    pool.shutdown(wait=False, cancel_futures=True)
    workers = multiprocessing.active_children()
    for w in workers:
        w.terminate()
    for w in workers:
        w.join(5)


def read_many(photos, out: str, debug_dir: str | None, lang: str, jobs: int) -> int:
    """Read every photo into a draft in the folder `out` (debug PNGs in `debug_dir`), `jobs`
    at a time, each photo's line said in the photos' order; how many could not be read.
    A photo that cannot be read is said and skipped: the others are still read. Stopped
    (Ctrl-C, SIGTERM), the lines of the drafts written so far are said first."""
    from pathlib import Path

    names = [Path(p).stem for p in photos]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        same = [p for p, n in zip(photos, names) if n == twice[0]]
        if all(os.path.exists(p) for p in same[:2]) and os.path.samefile(same[0], same[1]):
            raise UserError(msg("error.cli.read_twice"), source=click.format_filename(same[1]))
        raise UserError(msg("error.cli.read_same_name", name=twice[0] + ".toml"))
    work = [(p, os.path.join(out, n + ".toml"), debug_dir and os.path.join(debug_dir, n + ".png"), lang)
            for p, n in zip(photos, names)]
    _not_over(photos, [path for _, draft, png, _ in work for path in (draft, png)])
    made = _folders(out, debug_dir)
    try:
        return _read_all(work, out, jobs)
    finally:
        _unmake(made)  # every photo failed, or the batch stopped before a draft: no empty folder left


def _read_all(work: list, out: str, jobs: int) -> int:
    """read_many's reading, once the folders are there: how many photos could not be read."""
    lang = work[0][3]
    failed = 0

    def said(photo, result):
        nonlocal failed
        ok, line = result
        failed += not ok
        click.echo(f"{click.format_filename(photo)}: {line}" if ok else f"sheetkit: {line}", err=True)

    jobs = min(jobs, len(work))
    if jobs == 1:
        for w in work:
            said(w[0], _read_into(*w))
        return failed
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures import TimeoutError as NotYet
    from concurrent.futures.process import BrokenProcessPool

    # spawned, not forked: a fresh Python per worker, no OpenCV or BLAS threads forked mid-state
    pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_start)
    begun = time.time()
    futures = [pool.submit(_read_into, *w) for w in work]
    told = 0
    with _noting_signals() as stop:  # Ctrl-C, SIGTERM, SIGHUP: noted, and the batch stops between lines
        try:
            for w, future in zip(work, futures):
                while not stop:
                    try:
                        result = future.result(timeout=0.1)
                        break
                    except NotYet:
                        pass
                if stop:
                    break
                said(w[0], result)
                told += 1
        except BrokenProcessPool:
            _stop(pool)
            raise UserError(msg("error.photo.worker_died", written=told - failed, out=out)) from None
        except BaseException:  # a fault in sheetkit: said as one, with no worker left reading
            _stop(pool)
            raise
        if not stop:
            pool.shutdown(wait=True)
            return failed
        _stop(pool)  # still noting signals: a second Ctrl-C meanwhile changes nothing
    # the drafts written before the stop are said, those whose line was lost with their
    # worker too (written while this batch ran)
    for (photo, draft, *_), future in zip(work[told:], futures[told:]):
        if future.done() and not future.cancelled() and future.exception() is None:
            if future.result()[0]:
                said(photo, future.result())
        elif os.path.isfile(draft) and os.path.getmtime(draft) >= begun - 1:
            click.echo(f"{click.format_filename(photo)}: {text('photo.draft.wrote_to', lang, out=draft)}", err=True)
    import signal

    if stop[0] == signal.SIGINT:
        raise click.Abort()
    raise SystemExit(128 + stop[0])


@contextmanager
def _noting_signals():
    """Within the block, Ctrl-C, SIGTERM and SIGHUP are noted in the list it gives rather
    than raised (a line is said whole, or not), in the main thread; elsewhere nothing
    changes."""
    import signal
    import threading

    noted: list[int] = []
    previous = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)):
            if sig is not None:
                previous[sig] = signal.signal(sig, lambda signum, frame: noted.append(signum))
    try:
        yield noted
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
