"""Reading a filled Yuncos sheet from a phone photo (`sheetkit read`).

    register.py   find the QR code and the registration squares; lay the photo over the blank
    fields.py     what the pencil left: grid edges, turn ends, marked boxes, digits
    flight.py     the flight turn by turn, and the draft record with its confidences
    read.py       the whole reading, the draft as TOML, the debug image
    simulate.py   simulated photos of random legal games, for the tests and bench/bench_photo.py
    truefields.py the fields a perfect reader would read, with controlled noise (bench/bench_flight.py)
    sheetpage.py  a read sheet's part of the phone page's confirm screen (sheetkit/web/photo.py)
    digits.py, handwriting.py   the digit reader and the pencil drawer

Everything here but sheetpage.py needs the optional extra (`pip install 'sheetkit[photo]'`: OpenCV, NumPy,
zxing-cpp). The rest of sheetkit imports this package only where a photo is read: `sheetkit
read` (sheetkit/cli/photo.py) and the phone page's photo screens (sheetkit/web/photo.py,
padphoto.py), which say how to install the extra when it is missing (require, INSTALL).
"""

from __future__ import annotations

from sheetkit.errors import UserError

PX_PER_MM = 6.0  # the blank is rendered, and the photo laid over it, at this scale
INSTALL = "pip install 'sheetkit[photo]'"


def require() -> None:
    """UserError (one line, exit 2) unless OpenCV, NumPy and zxing-cpp import."""
    try:
        import cv2  # noqa: F401
        import numpy  # noqa: F401
        import zxingcpp  # noqa: F401
    except ImportError:
        from sheetkit.messages import msg

        raise UserError(msg("error.photo.install", cmd=INSTALL)) from None
