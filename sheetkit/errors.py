"""The one exception users see: bad input, reported as one line and exit status 2."""


MAX_MESSAGE = 300  # characters: a message echoing a huge value is cut, so it stays one readable line


def shorten(text: str, limit: int) -> str:
    """`text` on one line and at most `limit` characters: the middle is cut, so the start
    (what is wrong) and the end (often the file name or the value's end) both stay."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))  # a line break shown as \\n
    if len(text) <= limit:
        return text
    keep = limit - 5
    return f"{text[:keep - keep // 3]} ... {text[-(keep // 3):]}"


class UserError(Exception):
    """Input that sheetkit cannot use: a bad file, an unknown id, a malformed record.

    The message is one line that names the file and the field when there is one.
    """

    def __init__(self, message: str, *, source: str | None = None, field: str | None = None):
        self.source = source
        self.field = field
        self.detail = message
        parts = [shorten(p, 120) for p in (source, field) if p]
        super().__init__(": ".join(parts + [shorten(message, MAX_MESSAGE)]))


class FieldError(ValueError):
    """Raised inside schema checks: a message about one field path, file added later."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")
