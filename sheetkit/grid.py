"""Names of grid places as printed on the sheets: a column letter and a row number from 1."""

import re


def column_name(col: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    letters = ""
    n = col
    while True:
        letters = chr(ord("A") + n % 26) + letters
        n = n // 26 - 1
        if n < 0:
            return letters


def square_name(place: tuple[int, int]) -> str:
    """(column, row) from 0 -> "C7"; used for Yuncos vertices and Glüx squares alike."""
    return f"{column_name(place[0])}{place[1] + 1}"


def parse_square(text: str) -> tuple[int, int] | None:
    """"C7" -> (2, 6); None if the text is not written like a place name."""
    letters = text.strip().upper()
    i = 0
    while i < len(letters) and "A" <= letters[i] <= "Z":
        i += 1
    head, digits = letters[:i], letters[i:]
    # ASCII digits, at most 4: "²" is a digit to str.isdigit() but not to int(), and no
    # board or map is thousands of squares long
    if not head or len(head) > 3 or not re.fullmatch(r"[0-9]{1,4}", digits) or int(digits) < 1:
        return None
    col = 0
    for ch in head:
        col = col * 26 + (ord(ch) - ord("A") + 1)
    return (col - 1, int(digits) - 1)


def text_rows(text: str) -> list[list[str]]:
    """A map or board drawn in a layout: one character per place, separated by spaces,
    one line per row."""
    return [line.split() for line in text.strip("\n").splitlines() if line.strip()]


MAX_SIDE = 40  # rows or columns of a drawn grid: the shipped maps have 21, the boards 15


def check_rows(rows: list[list[str]], field: str, places: str, known, where_known: str) -> None:
    """Every row as long as the others and every character known (`known(ch)`), else a
    FieldError naming the row; `places` says what a character stands for ("squares"),
    `where_known` where the known ones are listed ("legend"): error.grid.<word> each."""
    from sheetkit.messages import msg
    from sheetkit.errors import FieldError

    places = msg(f"error.grid.{places}")  # "squares", "vertices": said in the line's language
    if not rows:
        raise FieldError(field, msg("error.glux.empty_grid"))
    if len(rows) > MAX_SIDE or max(len(row) for row in rows) > MAX_SIDE:
        raise FieldError(field, msg("error.grid.too_big", most=MAX_SIDE, places=places, rows=len(rows),
                                    cols=max(len(row) for row in rows)))
    lengths = [len(row) for row in rows]
    width = max(set(lengths), key=lengths.count)  # the odd row out is the mistake
    for i, row in enumerate(rows, 1):
        if len(row) != width:
            raise FieldError(field, msg("error.grid.row_length", row=i, n=len(row), places=places, width=width))
        for ch in row:
            if len(ch) != 1:
                raise FieldError(field, msg("error.grid.one_char", row=i, ch=repr(ch), places=places))
            if not known(ch):
                raise FieldError(field, msg("error.grid.unknown", row=i, ch=repr(ch), known=msg(f"error.grid.{where_known}")))
