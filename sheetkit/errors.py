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

    The message is one line that names the file and the field when there is one. What is
    wrong is a message of the catalogues (`msg("error.file.missing")`), said in the output's
    language by `line(lang)`; `str()` is the English line (the JSON and the history keep
    it). A plain string is still taken: words from elsewhere (a TOML parser's), the same
    in every language.
    """

    def __init__(self, message, *, source: str | None = None, field: str | None = None):
        self.source = source
        self.field = field
        self.message = message  # a Msg (sheetkit.messages) or a plain string
        super().__init__(message)

    @property
    def detail(self) -> str:
        """What is wrong, in English, without the file and field."""
        return say(self.message, "en")

    def line(self, lang: str) -> str:
        """The one line in `lang`: file, field, what is wrong."""
        parts = [shorten(p, 120) for p in (self.source, self.field) if p]
        return ": ".join(parts + [shorten(say(self.message, lang), MAX_MESSAGE)])

    def __str__(self) -> str:
        return self.line("en")


def say(words, lang: str) -> str:
    """Words in `lang`: a message rendered (the catalogues are read only now, when an error
    is said, so start-up stays fast), a plain string as it is."""
    return words if isinstance(words, str) else words(lang)


class FieldError(ValueError):
    """Raised inside schema checks: a message (a Msg or a plain string, as for UserError)
    about one field path, file added later."""

    def __init__(self, field: str, message):
        self.field = field
        self.message = message
        super().__init__(field, message)

    def __str__(self) -> str:
        return f"{self.field}: {say(self.message, 'en')}"
