"""From a layout reference to files on disk: compose the scene, write PDF or PNG."""

from __future__ import annotations

from pathlib import Path

from sheetkit import games, layouts
from sheetkit.errors import UserError
from sheetkit.scene import Scene


def compose(ref: str, paper: str, lang: str, scale: str = "real") -> tuple[layouts.Layout, Scene]:
    """`scale`: "real" (boards at real size, tiled across pages) or "fit" (one page)."""
    layout = layouts.load(ref)
    scene = games.get(layout.game).compose(layout, paper, lang, scale=scale)
    return layout, scene


def default_name(layout: layouts.Layout, paper: str, lang: str, ext: str, scale: str = "real") -> str:
    """E.g. yuncos-easy-a4-en.pdf; `-fit` is added for --scale fit, so a board fitted to one
    page does not overwrite the same board printed at real size."""
    return f"{layout.id}-{paper}-{lang}" + ("-fit" if scale == "fit" else "") + f".{ext}"


def check_target(target: str | Path) -> None:
    """UserError if `target` plainly cannot be written: it is a folder, or a folder on its
    way (made if missing) is a file."""
    target = Path(target)
    if target.is_dir():
        raise UserError("is a folder, expected a file name", source=str(target))
    for parent in target.parents:  # the nearest one that exists must be a folder
        if parent.exists():
            if not parent.is_dir():
                raise UserError("is a file, expected a folder", source=str(parent))
            break


def write_pdf(scene: Scene, target: str | Path, progress=None) -> Path:
    from sheetkit.render import pdf

    target = Path(target)
    check_target(target)
    try:
        return pdf.write(scene, target, progress=progress)
    except OSError as e:
        raise UserError(f"cannot write: {e.strerror or e}", source=str(target)) from None


def write_png(scene: Scene, target: str | Path, page: int = 0, dpi: float = 100) -> Path:
    from sheetkit.render import png

    target = Path(target)
    check_target(target)
    try:
        return png.write(scene, target, page, dpi)
    except OSError as e:
        raise UserError(f"cannot write: {e.strerror or e}", source=str(target)) from None
