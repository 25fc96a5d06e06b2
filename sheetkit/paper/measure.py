"""Text widths in millimetres, from the bundled font, so layouts can fit labels to boxes."""

from functools import lru_cache

from sheetkit.resources import font_path

_REF_SIZE = 100  # measure at a large size for precision


@lru_cache(maxsize=4)
def _font(bold: bool):
    from PIL import ImageFont

    return ImageFont.truetype(str(font_path(bold)), _REF_SIZE)


@lru_cache(maxsize=4096)
def text_width(text: str, size_pt: float, bold: bool = False) -> float:
    """Width of `text` set at `size_pt` points, in millimetres."""
    units = _font(bold).getlength(text)  # in pixels at _REF_SIZE px per em
    return units / _REF_SIZE * size_pt * 25.4 / 72


def fit_size(text: str, max_width: float, size_pt: float, bold: bool = False, min_pt: float = 6.0) -> float:
    """The largest size not above `size_pt` (and not below `min_pt`) at which `text` fits."""
    w = text_width(text, size_pt, bold)
    if w <= max_width:
        return size_pt
    return max(min_pt, size_pt * max_width / w)


def wrap(text: str, width: float, size_pt: float, bold: bool = False) -> list[str]:
    """`text` broken at spaces into lines no wider than `width` mm (a single long word
    keeps its own line)."""
    lines, cur = [], ""
    for word in text.split():
        cand = f"{cur} {word}".strip()
        if cur and text_width(cand, size_pt, bold) > width:
            lines.append(cur)
            cur = word
        else:
            cur = cand
    return lines + ([cur] if cur else [])


def clip_text(text: str, width: float, size_pt: float, bold: bool = False) -> str:
    """`text`, shortened with an ellipsis if it is wider than `width` mm at `size_pt`."""
    if text_width(text, size_pt, bold) <= width:
        return text
    while text and text_width(text.rstrip() + "…", size_pt, bold) > width:
        text = text[:-1]
    return text.rstrip() + "…"
