"""Where the shipped layouts and fonts are: inside the installed package, or in the checkout.

Plain os.path, not pathlib: the quick tallies reach this and should start fast.
"""

import os

_PACKAGE = os.path.dirname(os.path.abspath(__file__))


def data_dir(name: str) -> str:
    """`layouts` or `fonts`: packaged copy first (wheel install), else the source checkout."""
    packaged = os.path.join(_PACKAGE, name)
    if os.path.isdir(packaged):
        return packaged
    return os.path.join(os.path.dirname(_PACKAGE), name)


def font_path(bold: bool = False) -> str:
    return os.path.join(data_dir("fonts"), "DejaVuSansCondensed-Bold.ttf" if bold else "DejaVuSansCondensed.ttf")
