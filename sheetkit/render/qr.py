"""QR module matrices, shared by both backends."""

from functools import lru_cache

QUIET_ZONE = 4  # modules of white around the code, as the QR standard asks


@lru_cache(maxsize=512)
def matrix(data: str) -> tuple[tuple[bool, ...], ...]:
    """The code's modules with its quiet zone, row by row (True is dark)."""
    import qrcode

    qr = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=QUIET_ZONE)
    qr.add_data(data)
    qr.make(fit=True)
    return tuple(tuple(row) for row in qr.get_matrix())


def runs(data: str):
    """Dark modules merged into horizontal runs: (row, first column, length), so a code
    is drawn as one path of few rectangles. Yields also the matrix size first."""
    m = matrix(data)
    n = len(m)
    out = []
    for r, row in enumerate(m):
        c = 0
        while c < n:
            if row[c]:
                start = c
                while c < n and row[c]:
                    c += 1
                out.append((r, start, c - start))
            else:
                c += 1
    return n, out
