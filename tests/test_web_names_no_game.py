"""The web package names no game: what a game needs on the page is its Game object's entry,
tally form and page files, in the game's own package (sheetkit/games/<game>/entry.py and
page/); what the photo pages need of a game read from a photo is the photo package's
(sheetkit.photo.sheetpage for a sheet, sheetkit.photo.padregister for a score pad)."""

import re
from pathlib import Path

from sheetkit import games

WEB = Path(__file__).resolve().parent.parent / "sheetkit" / "web"


def test_no_file_of_the_web_package_names_a_game():
    names = set()
    for g in games.all_games():
        names |= {g.name, g.title}
    pattern = re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)), re.I)
    found = []
    for f in sorted(WEB.rglob("*")):
        if f.suffix not in (".py", ".html", ".css", ".js"):
            continue
        for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{f.relative_to(WEB)}:{i}: {line.strip()[:100]}")
    assert not found, "\n".join(found)


def test_every_game_on_the_page_brings_its_own_templates():
    for g in games.all_games():
        if g.entry is None:
            continue
        folder = Path(g.page_files)
        assert (folder / g.entry.template.split("/", 1)[1]).is_file(), g.name
        if g.entry.start_template:
            assert (folder / g.entry.start_template.split("/", 1)[1]).is_file(), g.name
        if g.tally_form:
            assert (folder / g.tally_form.template.split("/", 1)[1]).is_file(), g.name
