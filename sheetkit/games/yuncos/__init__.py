"""Yuncos: El lado oscuro de la luz. Rules Y1-Y23 in RULES.md."""

NAME = "yuncos"
TEMPLATES: dict = {}


def compose(layout, paper, lang, scale="real"):
    from sheetkit.games.yuncos.sheet import compose as _compose

    return _compose(layout, paper, lang)


def lint(layout):
    from sheetkit.games.yuncos.layout_checks import lint as _lint

    return _lint(layout)


def load_record(data, source):
    """A record read from TOML -> a checked, parsed Record (UserError if unusable)."""
    from sheetkit.games.yuncos.record import load_record as _load

    return _load(data, source)


def check(record, source):
    """Replay a record: a Verdict with every finding (rule ids Y1-Y23) and the score."""
    from sheetkit.games.yuncos.rules import check as _check

    return _check(record, source)


def record_template(layout) -> str:
    """A blank, commented record for a sheet level (`sheetkit template yuncos-easy`)."""
    from sheetkit.games.yuncos.record import template

    return template(layout)


def overlay(record, verdict, paper):
    """The sheet with the transcription and the findings drawn on it (`check --render`)."""
    from sheetkit.games.yuncos.checked_sheet import overlay as _overlay

    return _overlay(record, verdict, paper)


def __getattr__(name):
    # Built only when asked for, so `sheetkit score yuncos` loads neither pydantic nor the
    # layout models.
    if name == "LAYOUT_KINDS":
        from sheetkit.games.yuncos.layout import YuncosDuplex, YuncosSheet

        return {"sheet": YuncosSheet, "duplex": YuncosDuplex}
    if name == "score_command":
        from sheetkit.games.yuncos.cli import score_command

        return score_command
    raise AttributeError(name)
