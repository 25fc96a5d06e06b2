"""QR module matrices, shared by both backends."""

from functools import lru_cache

QUIET_ZONE = 4  # modules of white around the code, as the QR standard asks
# Every one of the 8 mask patterns gives a valid code that readers decode; searching for the
# best-scoring one costs 7 times the encoding itself (4.5 ms against 0.7 ms a code), which a
# 200-page pad would pay 200 times. The tests read the codes back with a real decoder.
MASK = 0


@lru_cache(maxsize=512)
def matrix(data: str) -> tuple[tuple[bool, ...], ...]:
    """The code's modules with its quiet zone, row by row (True is dark)."""
    import qrcode

    qr = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=QUIET_ZONE,
                       mask_pattern=MASK)
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


def rects(data: str):
    """The dark modules as few rectangles: runs of the same start and length in
    consecutive rows merged into one. Returns the matrix size and the rectangles
    (column, row, width, height) in modules, top to bottom, left to right."""
    n, dark = runs(data)
    by_row: list[set[tuple[int, int]]] = [set() for _ in range(n + 1)]
    for r, col, length in dark:
        by_row[r].add((col, length))
    out = []
    first: dict[tuple[int, int], int] = {}  # (column, width) -> the row it started on
    for r in range(n + 1):
        for key in [k for k in first if k not in by_row[r]]:
            top = first.pop(key)
            out.append((key[0], top, key[1], r - top))
        for key in by_row[r]:
            first.setdefault(key, r)
    out.sort(key=lambda t: (t[1], t[0]))
    return n, out
