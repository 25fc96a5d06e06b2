"""The `sheetkit` command: parse, call the library, print. No rules live here.

Rendering libraries are imported inside the commands that render, so `--help` and
`score` start fast; so are json and pathlib (tests/test_coldstart.py, bench/bench_pad.py).
"""

from __future__ import annotations

import os
import sys

import click

# numpy's work here is small arrays one at a time: OpenBLAS's pool of threads would only
# spin, 0.13-0.17 s of CPU a photo read (bench/bench_read_speed.py). A user's own setting stays.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from sheetkit.cli import checking, history, options, paper, photo, printer, serve
from sheetkit.errors import UserError, shorten


_debug = False  # `--debug`: a fault shows its traceback


def _set_debug(ctx, param, value):
    global _debug
    _debug = bool(value)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sheetkit")
@click.option("--debug", is_flag=True, expose_value=False, is_eager=True, callback=_set_debug,
              help="On an internal fault, show the traceback.")
def cli():
    """Print play sheets for paper tabletop games, check filled sheets, keep score."""


for command in (paper.layouts_cmd, paper.render_cmd, paper.preview_cmd, paper.lint_cmd, printer.printer_group,
                checking.template_cmd, checking.check_cmd, checking.moves_cmd, checking.identify_cmd,
                checking.ScoreGroup("score", help="Quick tallies: `sheetkit score GAME --help`."),
                *history.COMMANDS, serve.serve_cmd, photo.read_cmd):
    cli.add_command(command)


# click 8.2+ raises this for a group called with nothing; older versions exit 0 themselves
_NoArgsIsHelp = getattr(click.exceptions, "NoArgsIsHelpError", ())


def _error_lang() -> str:
    """The language of an error line: the command's --lang if given, else the system
    locale's, else English (an unreadable record's own `lang` is not known)."""
    from sheetkit.messages import resolve_lang

    return resolve_lang(options.given_lang)


def main() -> None:
    sys.exit(run())


def run(args: list[str] | None = None) -> int:
    """Run one command line (sys.argv when None) and give its exit status: 0 done or legal,
    1 illegal, 2 unusable input, 3 a fault in sheetkit. Every outcome is one line at most
    on standard error; a traceback only with --debug."""
    global _debug
    _debug = False
    options.given_lang = None
    try:
        cli.main(args, standalone_mode=False, prog_name="sheetkit")
        return 0
    except click.exceptions.Exit as e:
        return e.exit_code
    except click.Abort:
        click.echo("sheetkit: aborted", err=True)
        return 2
    except _NoArgsIsHelp as e:  # `sheetkit` or `sheetkit score` alone: show the help
        click.echo(e.ctx.get_help())
        return 0
    except click.UsageError as e:
        where = e.ctx.command_path if e.ctx else "sheetkit"
        click.echo(shorten(f"{where}: {e.format_message()} (see '{where} --help')", 400), err=True)
        return 2
    except click.ClickException as e:
        click.echo(shorten(f"sheetkit: {e.format_message()}", 400), err=True)
        return 2
    except UserError as e:
        click.echo(f"sheetkit: {e.line(_error_lang())}", err=True)
        return 2
    except BrokenPipeError:
        return 1
    except SystemExit as e:  # sys.exit(code) in a command
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except MemoryError:
        click.echo("sheetkit: out of memory; the input asks for more than this machine has", err=True)
        return 3
    except Exception as e:
        if _debug:
            import traceback

            traceback.print_exc()
        what = shorten(f"{type(e).__name__}: {e}", 200)
        click.echo(f"sheetkit: internal error ({what}); this is a fault in sheetkit, please report it "
                   "with the command and its input (--debug shows the traceback)", err=True)
        return 3
