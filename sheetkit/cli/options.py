"""Options shared by the command modules."""

import click

PAPER = click.Choice(["a4", "letter"])
LANG = click.Choice(["es", "en"])
SCALE = click.Choice(["real", "fit"])
