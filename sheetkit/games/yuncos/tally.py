"""`sheetkit score yuncos`: the quick tally, for players who only want the total.

Imports no rendering library: it starts fast.
"""

from __future__ import annotations

import os

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


def score(values: dict, lang: str):
    """The counts scored (Y22): the verdict and the lines `sheetkit score yuncos` prints."""
    from sheetkit.checking.verdict import Verdict, part_label
    from sheetkit.games.yuncos.scoring import TallyDetails, rank
    from sheetkit.messages import text

    solo, level = bool(values.get("solo")), values.get("level") or "easy"
    counts = {k: values.get(k) or 0 for k in ("nests", "columns", "fish", "stars", "colours", "crashes")}
    score = tally_counts(level, solo=solo, **counts)
    details = TallyDetails(level, rank(score.total) if solo else None)
    verdict = Verdict(game="yuncos", source="command line", scores=[score], details=details)
    width = max(len(part_label(label, lang)) for label, _ in [*score.parts, ("total", 0)]) + 1
    lines = [f"{part_label(label, lang):<{max(width, 11)}}{pts:>5}" for label, pts in [*score.parts, ("total", score.total)]]
    if solo:
        lab = rank(score.total)
        other = "es" if lang == "en" else "en"
        lines.append(text("rank.yuncos.line", lang, rank=lab(lang), other=lab(other)))
    return verdict, lines
