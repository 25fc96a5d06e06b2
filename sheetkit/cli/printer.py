"""Printer profiles: `sheetkit printer set NAME ...`, `sheetkit printer list`."""

from __future__ import annotations

import click


@click.group("printer")
def printer_group():
    """Printer profiles measured on the calibration sheet (`sheetkit render calibration`),
    applied with `sheetkit render ID --printer NAME`. Stored in
    $XDG_CONFIG_HOME/sheetkit/printers.toml (~/.config/...), or the file named by
    SHEETKIT_PRINTERS."""


@printer_group.command("set")
@click.argument("name")
@click.option("--scale-x", type=float, default=1.0, show_default=True,
              help="Enlarge across the page by this factor: ruler length / what it measures.")
@click.option("--scale-y", type=float, default=1.0, show_default=True,
              help="Enlarge down the page by this factor.")
@click.option("--back-dx", type=float, default=0.0, show_default=True,
              help="Move the backs of two-sided sheets this many mm right (read on the calibration sheet).")
@click.option("--back-dy", type=float, default=0.0, show_default=True,
              help="Move the backs this many mm down.")
def set_cmd(name, scale_x, scale_y, back_dx, back_dy):
    """Save (or replace) the profile NAME."""
    from sheetkit.paper import printers

    profile = printers.make(name, scale_x=scale_x, scale_y=scale_y, back_dx=back_dx, back_dy=back_dy)
    file = printers.save(profile)
    click.echo(f"{profile.line()}  (saved in {file})")


@printer_group.command("list")
def list_cmd():
    """The saved profiles."""
    from sheetkit.paper import printers

    profiles = printers.load_all()
    if not profiles:
        click.echo(f"no printer profiles yet ({printers.path()}); measure `sheetkit render calibration` "
                   "and save one with `sheetkit printer set NAME ...`")
        return
    for name in sorted(profiles):
        click.echo(profiles[name].line())
