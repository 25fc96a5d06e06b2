"""`sheetkit check --render ... --bgstats-qr`: the checked sheet carries the BG Stats link as
a QR code that a real reader decodes, for every game."""

from __future__ import annotations

import json
from urllib.parse import unquote

import pytest
import zxingcpp

from historyutil import EXAMPLES, one_line_error, run
from pdfutil import page_sizes_mm, raster

LINK = "https://app.bgstatsapp.com/createPlay.html?data="


def links(pdf, page):
    return [r.text for r in zxingcpp.read_barcodes(raster(pdf, page, dpi=200)) if r.text.startswith(LINK)]


@pytest.mark.parametrize("record, players, pages", [
    ("glux-game-3p.toml", ["Ana", "Ben", "Carla"], [0]),
    ("levelx-game.toml", ["Ana", "Ben", "Carla"], [0]),
    ("iunu-game.toml", ["Ana", "Ben", "Carla"], [1]),  # the pad fills its page: the code gets a page of its own
    ("yuncos-easy-legal.toml", ["Player"], [0, 1]),  # the first page of the two-sided sheet... or its own page
])
def test_the_checked_sheet_carries_the_bgstats_link(tmp_path, record, players, pages):
    pdf = tmp_path / "checked.pdf"
    env = {"SHEETKIT_DB": str(tmp_path / "none.sqlite3")}
    r = run("check", EXAMPLES / record, "--render", pdf, "--bgstats-qr", env=env)
    assert r.code == 0, r.err
    found = [link for page in pages if page < len(page_sizes_mm(pdf)) for link in links(pdf, page)]
    assert len(found) == 1
    play = json.loads(unquote(found[0][len(LINK):]))
    assert play["sourceName"] == "sheetkit" and [p["name"] for p in play["players"]] == players
    assert not (tmp_path / "none.sqlite3").exists()  # checking a sheet does not create a history


def test_a_logged_sheet_carries_the_play_as_logged(tmp_path):
    env = {"SHEETKIT_DB": str(tmp_path / "h.sqlite3")}
    record = EXAMPLES / "yuncos-hard-legal.toml"
    assert run("log", record, "--player", "Ana", "--location", "Casa", "--date", "2026-11-30 21:00", env=env).code == 0
    pdf = tmp_path / "checked.pdf"
    assert run("check", record, "--render", pdf, "--bgstats-qr", env=env).code == 0
    found = [link for page in range(len(page_sizes_mm(pdf))) for link in links(pdf, page)]
    play = json.loads(unquote(found[0][len(LINK):]))
    assert ([p["name"] for p in play["players"]], play["location"], play["playDate"]) == (
        ["Ana"], "Casa", "2026-11-30 21:00:00")


def test_without_render_it_is_refused():
    one_line_error(run("check", EXAMPLES / "glux-game-3p.toml", "--bgstats-qr"), "--render")
