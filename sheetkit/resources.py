"""Where the shipped layouts and fonts are: inside the installed package, or in the checkout."""

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """`layouts` or `fonts`: packaged copy first (wheel install), else the source checkout."""
    packaged = _PACKAGE / name
    if packaged.is_dir():
        return packaged
    return _PACKAGE.parent / name


def font_path(bold: bool = False) -> Path:
    return data_dir("fonts") / ("DejaVuSansCondensed-Bold.ttf" if bold else "DejaVuSansCondensed.ttf")
