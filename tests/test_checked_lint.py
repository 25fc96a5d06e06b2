"""`sheetkit lint` holds the checked sheet of a layout (`check --render` of a random game
with a planted fault) to the floors of every printed page: text of 6 pt at least, and
every finding's tag clear of the sheet's texts, of the other tags and of the margin."""

from __future__ import annotations

from sheetkit import layouts
from sheetkit.checking import records
from sheetkit.paper import lint
from sheetkit.paper import scene as S
from sheetkit.paper.annotate import RED


def test_the_shipped_layouts_checked_sheets_pass():
    for lid in ("yuncos-easy", "glux-board-2p", "levelx-score-pad"):
        layout = layouts.load(lid)
        assert lint._planted(layout) is not None, lid  # a game is played on it: its sheet is checked
        assert lint.checked_sheets(layout) == [], lid


def test_a_tag_over_a_text_or_in_the_margin_is_reported():
    loaded = lint._planted(layouts.load("glux-board-2p"))
    checked = records.check(loaded)
    scene = loaded.kind.overlay(loaded.record, checked, "a4", lang="en")
    page = scene.pages[0]
    assert lint._tag_faults(page, scene.forms) == 0
    name = next(i for i in page.items if isinstance(i, S.Text) and i.text == "C3")  # a square's name
    frame = S.Style(stroke=RED, fill=S.WHITE, width=0.2)
    page.items.append(S.Rect(name.x, name.y - 2, 3, 3, style=frame))
    page.items.append(S.Rect(2, 2, 3, 3, style=frame))  # in the printer's margin
    assert lint._tag_faults(page, scene.forms) == 2


def test_small_text_on_a_checked_sheet_is_reported(monkeypatch):
    from sheetkit.games.yuncos import overlay

    monkeypatch.setattr(overlay, "TURN_PT", 5.5)
    found = lint.checked_sheets(layouts.load("yuncos-easy"))
    assert found and all("5.5 pt" in f.message for f in found)
