"""The `sheetkit` command: parse, call the library, print. No rules live here.

Rendering libraries are imported inside the commands that render, so `--help` and
`score` start fast; so are json and pathlib (tests/test_coldstart.py, bench/bench_pad.py).
"""

from __future__ import annotations

import sys

import click

from sheetkit.cli import checking, paper, serve
from sheetkit.errors import UserError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sheetkit")
def cli():
    """Print play sheets for paper tabletop games, check filled sheets, keep score."""


for command in (paper.layouts_cmd, paper.render_cmd, paper.preview_cmd, paper.lint_cmd,
                checking.template_cmd, checking.check_cmd, checking.identify_cmd,
                checking.ScoreGroup("score", help="Quick tallies: `sheetkit score GAME --help`."),
                serve.serve_cmd):
    cli.add_command(command)


# click 8.2+ raises this for a group called with nothing; older versions exit 0 themselves
_NoArgsIsHelp = getattr(click.exceptions, "NoArgsIsHelpError", ())


def main() -> None:
    try:
        cli.main(standalone_mode=False, prog_name="sheetkit")
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.Abort:
        click.echo("sheetkit: aborted", err=True)
        sys.exit(2)
    except _NoArgsIsHelp as e:  # `sheetkit` or `sheetkit score` alone: show the help
        click.echo(e.ctx.get_help())
        sys.exit(0)
    except click.UsageError as e:
        where = e.ctx.command_path if e.ctx else "sheetkit"
        click.echo(f"{where}: {e.format_message()} (see '{where} --help')", err=True)
        sys.exit(2)
    except click.ClickException as e:
        click.echo(f"sheetkit: {e.format_message()}", err=True)
        sys.exit(2)
    except UserError as e:
        click.echo(f"sheetkit: {e}", err=True)
        sys.exit(2)
    except BrokenPipeError:
        sys.exit(1)
