"""`sheetkit score yuncos`: the quick tally, for players who only want the total.

Imports no rendering library: it starts fast.
"""

from __future__ import annotations

import os

import click

from sheetkit.cli.options import LANG
from sheetkit.messages import msg
from sheetkit.errors import UserError


def level_facts(level: str) -> dict:
    """What the quick tally needs from a shipped level, read straight from its TOML (the
    shipped layouts are validated by `sheetkit lint` and the tests): no pydantic, a fast start (through the
    layout models the tally starts about 3x slower: bench/bench_coldstart.py)."""
    from sheetkit.games.yuncos.board import Board
    from sheetkit.grid import text_rows
    from sheetkit.resources import data_dir
    from sheetkit.tomlfile import read_toml

    data = read_toml(os.path.join(data_dir("layouts"), f"yuncos-{level}.toml"))
    board = Board.parse(text_rows(data["map"]["grid"]), data["map"]["legend"])
    return {"nest_boxes": 2 * data["nests"]["length"], "columns": data["luminaries"]["columns"],
            "fish_values": data["fish"]["values"], "stars": len(board.stars),
            "colours": len(set(board.stars.values()))}


def tally_counts(level: str, *, nests: int, columns: int, fish: int, stars: int, colours: int,
                 crashes: int, solo: bool = False):
    """The Score of counts read off a sheet of that level; UserError for counts the sheet
    cannot hold."""
    from sheetkit.games.yuncos.scoring import CRASH_TRACK, tally

    f = level_facts(level)
    lvl = msg(f"error.yuncos.level.{level}")
    limits = {  # the most each count can be, and why: error.yuncos.tally_most.<option>
        "nests": (nests, f["nest_boxes"]),
        "columns": (columns, f["columns"]),
        "fish": (fish, len(f["fish_values"])),
        "stars": (stars, f["stars"]),
        "colours": (colours, f["colours"]),
        "crashes": (crashes, len(CRASH_TRACK)),
    }
    for option, (value, most) in limits.items():
        if value < 0:
            raise UserError(msg("error.yuncos.tally_negative", option=f"--{option}", value=value))
        if value > most:
            raise UserError(msg("error.yuncos.tally_over", option=f"--{option}", value=value,
                                why=msg(f"error.yuncos.tally_most.{option}", level=lvl, n=most)))
    if colours > stars:
        raise UserError(msg("error.yuncos.tally_colours", colours=colours, stars=stars))
    if stars and not colours:
        raise UserError(msg("error.yuncos.tally_no_colour", stars=stars))
    return tally(f["fish_values"], nests=nests, columns=columns, fish=fish, stars=stars, colours=colours,
                 crashes=crashes, solo=solo)


@click.command("yuncos")
@click.option("--nests", type=int, default=0, show_default=True, help="Filled nest boxes.")
@click.option("--columns", type=int, default=0, show_default=True, help="Completed luminary columns.")
@click.option("--fish", type=int, default=0, show_default=True, help="Marked boxes of the fish counter.")
@click.option("--stars", type=int, default=0, show_default=True, help="Distinct stars passed.")
@click.option("--colours", type=int, default=0, show_default=True, help="Distinct colours among them.")
@click.option("--crashes", type=int, default=0, show_default=True, help="Marked boxes of the crash track.")
@click.option("--level", type=click.Choice(["easy", "hard"]), default="easy", show_default=True,
              help="The level played (its fish values and puzzle sizes).")
@click.option("--solo", is_flag=True, help="Also give the solo rank.")
@click.option("--json", "as_json", is_flag=True, help="Print the breakdown as JSON.")
@click.option("--lang", type=LANG, default=None, help="Language of the labels (default: the system locale's, else en).")
def score_command(nests, columns, fish, stars, colours, crashes, level, solo, as_json, lang):
    """Yuncos total: Nests + Luminaries + Fish + Navigation - Crashes (Y22)."""
    from sheetkit.games.yuncos.scoring import TallyDetails, rank
    from sheetkit.messages import resolve_lang, text
    from sheetkit.checking.verdict import Verdict, part_label

    score = tally_counts(level, nests=nests, columns=columns, fish=fish, stars=stars, colours=colours,
                         crashes=crashes, solo=solo)
    details = TallyDetails(level, rank(score.total) if solo else None)
    verdict = Verdict(game="yuncos", source="command line", scores=[score], details=details)
    lang = resolve_lang(lang)
    if as_json:
        import json

        click.echo(json.dumps(verdict.to_json(lang), ensure_ascii=False, indent=2))
    else:
        width = max(len(part_label(label, lang)) for label, _ in [*score.parts, ("total", 0)]) + 1
        for label, pts in [*score.parts, ("total", score.total)]:
            click.echo(f"{part_label(label, lang):<{max(width, 11)}}{pts:>5}")
        if solo:
            lab = rank(score.total)
            other = "es" if lang == "en" else "en"
            click.echo(text("rank.yuncos.line", lang, rank=lab(lang), other=lab(other)))
