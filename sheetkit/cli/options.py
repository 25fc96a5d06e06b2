"""Options shared by the command modules."""

import click
from click.core import ParameterSource

PAPER = click.Choice(["a4", "letter"])


class _Lang(click.Choice):
    """`--lang es|en`. A language given on the command line is also the language of the
    command's error line (sheetkit.cli.run); without one, errors follow the system locale."""

    def convert(self, value, param, ctx):
        global given_lang
        value = super().convert(value, param, ctx)
        source = ctx.get_parameter_source(param.name) if ctx is not None and param is not None else None
        if source in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT) or (
                source is None and param is not None and value != param.default):
            given_lang = value
        return value


LANG = _Lang(["es", "en"])
given_lang: str | None = None  # the --lang of the command being run, if one was given
SCALE = click.Choice(["real", "fit"])
LANG_HELP = "Language of the findings and headings (default: the record's `lang`, else the system locale's, else en)."
