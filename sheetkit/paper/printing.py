"""From a layout reference to files on disk: compose the scene, write PDF or PNG."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sheetkit import layouts
from sheetkit.messages import msg
from sheetkit.errors import UserError
from sheetkit.paper.scene import Scene


MAX_BLEED = 3.0  # mm


def compose(ref: str, paper: str, lang: str, scale: str = "real", bleed: float = 0.0) -> tuple[layouts.Layout, Scene]:
    """`scale`: "real" (boards at real size, tiled across pages) or "fit" (one page).
    `bleed`: mm the colour of cut-out pieces runs past their cut lines (chips only)."""
    layout = layouts.load(ref)
    entry = layout.kind_entry
    if bleed:
        if not 0 < bleed <= MAX_BLEED:
            raise UserError(msg("error.print.bleed", bleed=f"{bleed:g}", most=f"{MAX_BLEED:g}"))
        if not entry.bleed:
            raise UserError(msg("error.print.bleed_nothing", id=layout.id))
        scene = entry.compose(layout, paper, lang, scale=scale, bleed=bleed)
    else:
        scene = entry.compose(layout, paper, lang, scale=scale)
    scene.lang = lang
    return layout, scene


def default_name(layout: layouts.Layout, paper: str, lang: str, ext: str, scale: str = "real") -> str:
    """E.g. yuncos-easy-a4-en.pdf; `-fit` is added for --scale fit, so a board fitted to one
    page does not overwrite the same board printed at real size."""
    return f"{layout.id}-{paper}-{lang}" + ("-fit" if scale == "fit" else "") + f".{ext}"


def check_target(target: str | Path) -> None:
    """UserError if `target` plainly cannot be written: it is a folder, a folder on its way
    (made if missing) is a file, a name on the way is too long, or the nearest folder that
    exists is not open for writing. Never an OSError."""
    import os
    import stat

    from sheetkit.tomlfile import problem

    target = Path(target)
    for here in (target, *target.parents):  # the target, then the nearest folder on its way that exists
        try:
            st = os.stat(here)
        except (FileNotFoundError, NotADirectoryError):  # not there (yet): made on the way, or said below
            continue
        except (OSError, ValueError):  # a name too long, a folder closed to the user, a NUL
            raise UserError(msg("error.file.cannot_write", why=problem(here) or "?"), source=str(here)) from None
        if here == target:
            if stat.S_ISDIR(st.st_mode):
                raise UserError(msg("error.print.target_folder"), source=str(target))
            continue
        if not stat.S_ISDIR(st.st_mode):
            raise UserError(msg("error.print.parent_file"), source=str(here))
        if not os.access(here, os.W_OK | os.X_OK):
            raise UserError(msg("error.file.cannot_write", why=msg("error.file.permission")), source=str(here))
        break


def write_pdf(scene: Scene, target: str | Path, progress=None, printer=None) -> Path:
    """`printer`: a printers.Profile whose corrections go on every page."""
    from sheetkit.paper import pdf

    target = Path(target)
    check_target(target)
    try:
        return pdf.write(scene, target, progress=progress, printer=printer)
    except OSError as e:
        raise UserError(msg("error.file.cannot_write", why=e.strerror or str(e)),
                        source=str(e.filename or target)) from None


def write_png(scene: Scene, target: str | Path, page: int = 0, dpi: float = 100) -> Path:
    from sheetkit.paper import png

    target = Path(target)
    check_target(target)
    try:
        return png.write(scene, target, page, dpi)
    except OSError as e:
        raise UserError(msg("error.file.cannot_write", why=e.strerror or str(e)), source=str(target)) from None


@dataclass(frozen=True, slots=True)
class Job:
    """One file to write: a composed layout and where it goes."""

    layout: layouts.Layout
    scene: Scene
    target: Path


def plan(refs: list[str], paper: str, lang: str, scale: str = "real", *, out: str | None = None,
         out_dir: str = "output", copies: int | None = None, first_serial: int | None = None,
         bleed: float = 0.0) -> list[Job]:
    """Compose every layout and name its file before anything is written: a bad layout, a
    target that cannot be written, or two layouts meant for one file stop the whole run."""
    if out and len(refs) != 1:
        raise UserError(msg("error.print.one_file"))
    composed = [compose(ref, paper, lang, scale, bleed) for ref in refs]
    pad = copies is not None or first_serial is not None
    if pad:
        from sheetkit.paper import pads

        copies, first_serial = copies or 1, 1 if first_serial is None else first_serial
        composed = [(layout, pads.pad(scene, layout, copies, first_serial)) for layout, scene in composed]
    jobs: list[Job] = []
    for layout, scene in composed:
        if out:
            target = Path(out)
        elif pad:
            target = Path(out_dir) / pads.default_name(layout, paper, lang, copies, first_serial, scale)
        else:
            target = Path(out_dir) / default_name(layout, paper, lang, "pdf", scale)
        check_target(target)
        if any(j.target == target for j in jobs):
            raise UserError(msg("error.print.same_file", target=target))
        jobs.append(Job(layout, scene, target))
    return jobs
