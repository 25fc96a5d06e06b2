"""Reading real PDFs back: page sizes, rasters and the text layer (pypdfium2)."""

from pathlib import Path

import pypdfium2 as pdfium

MM_PER_PT = 25.4 / 72


def page_sizes_mm(path: Path) -> list[tuple[float, float]]:
    doc = pdfium.PdfDocument(str(path))
    return [(p.get_width() * MM_PER_PT, p.get_height() * MM_PER_PT) for p in doc]


def raster(path: Path, page: int = 0, dpi: float = 50):
    doc = pdfium.PdfDocument(str(path))
    return doc[page].render(scale=dpi / 72).to_pil().convert("L")


def text(path: Path, page: int = 0) -> str:
    doc = pdfium.PdfDocument(str(path))
    return doc[page].get_textpage().get_text_range()


def ink_box_mm(img, dpi: float, threshold: int = 235):
    """(x0, y0, x1, y1) in mm around every pixel darker than `threshold`."""
    mask = img.point(lambda v: 255 if v < threshold else 0)
    box = mask.getbbox()
    if box is None:
        return None
    k = 25.4 / dpi
    return (box[0] * k, box[1] * k, box[2] * k, box[3] * k)
