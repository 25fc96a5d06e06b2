"""The checked sheet of `sheetkit check --render`: a record's sheet drawn by its game's
overlay (the transcription, each finding marked where it happened), written as a PDF.

Drawing only: the record is read and checked by sheetkit.checking.records, which knows
nothing of paper; this module takes what it gives.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sheetkit.errors import UserError
from sheetkit.messages import msg

if TYPE_CHECKING:
    from sheetkit.checking.records import Loaded
    from sheetkit.games.interface import Checked


def render(loaded: Loaded, checked: Checked, out: str | Path, paper: str = "a4",
           qr: tuple[str, str] | None = None, lang: str = "en") -> Path:
    """The checked sheet as a PDF, its words in `lang`; `qr` = (text, caption) adds a QR
    code to its first page (e.g. the link that sends the play to BG Stats)."""
    from sheetkit.paper.printing import write_pdf

    overlay = loaded.kind.overlay
    if overlay is None:
        raise UserError(msg("error.record.no_sheet", records=msg(f"records.{loaded.game}.{loaded.record.kind}")))
    scene = overlay(loaded.record, checked, paper, lang)
    if qr is not None:
        _add_qr(scene, *qr)
    return write_pdf(scene, out)


def _add_qr(scene, text: str, caption: str, margin: float = 10.0) -> None:
    """A QR code on the first page, where the drawing leaves room: below it, else beside it,
    as large as fits (40 or 34 mm: a long link's modules stay large enough for a phone's
    camera); else on a page of its own after the first. Same for every game."""
    from sheetkit.paper import scene as S

    page = scene.pages[0]
    box = S.bounds(page.items, scene.forms) or (margin, margin, margin, margin)
    reserved = [page.stamp] if page.stamp else []
    for size in (40.0, 34.0):
        tall = size + 5.0  # the caption under it
        spots = [(page.width - margin - size, box[3] + 3.0),  # below the drawing, at the right
                 (box[2] + 3.0, margin)]  # beside it, at the top
        for x, y in spots:
            fits = x >= margin and y >= margin and x + size <= page.width - margin and y + tall <= page.height - margin
            clear = all(x + size <= sx or x >= sx + ss or y + tall <= sy or y >= sy + ss for sx, sy, ss in reserved)
            if fits and clear:
                page.items += [S.QR(x, y, size, text), S.Text(x + size / 2, y + size + 3.5, caption, 7.0, anchor="middle")]
                return
    size = 60.0
    x, y = (page.width - size) / 2, margin + 20.0
    scene.pages.insert(1, S.Page(page.width, page.height, [
        S.Text(page.width / 2, margin + 10.0, caption, 11.0, bold=True, anchor="middle"), S.QR(x, y, size, text)]))
