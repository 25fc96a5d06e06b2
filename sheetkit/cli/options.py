"""Options shared by the command modules."""

import click

PAPER = click.Choice(["a4", "letter"])
LANG = click.Choice(["es", "en"])
SCALE = click.Choice(["real", "fit"])
LANG_HELP = "Language of the findings and headings (default: the record's `lang`, else the system locale's, else en)."
