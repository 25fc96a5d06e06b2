"""The one exception users see: bad input, reported as one line and exit status 2."""


class UserError(Exception):
    """Input that sheetkit cannot use: a bad file, an unknown id, a malformed record.

    The message is one line that names the file and the field when there is one.
    """

    def __init__(self, message: str, *, source: str | None = None, field: str | None = None):
        self.source = source
        self.field = field
        self.detail = message
        parts = [p for p in (source, field) if p]
        super().__init__(": ".join(parts + [message]))


class FieldError(ValueError):
    """Raised inside schema checks: a message about one field path, file added later."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")
