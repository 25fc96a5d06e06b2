"""The sheet pages (sheetkit.photo.sheetpage): what the phone page's photo screens need of a
sheet the photo reader reads, found through the game the draft or the play names, so that
sheetkit/web names no game. Needs no photo extra, except where a photo is read."""

from __future__ import annotations

import pytest

from sheetkit import forms, games
from sheetkit.forms import FormError
from sheetkit.photo.sheetpage import SHEETS, sheet_page
from sheetkit.web import photo


def test_every_sheet_page_is_a_game_of_the_registry_entered_on_the_page():
    for name, page in SHEETS.items():
        game = games.get(name)
        assert page.game == name == game.name
        assert game.entry is not None and game.entry.together is not None  # the sheets checked together
        assert 1 <= page.most_sheets <= game.entry.players[1]


def test_a_game_read_from_no_sheet_has_no_sheet_page():
    for name in [g.name for g in games.all_games() if g.name not in SHEETS] + ["", "nothing", None, 3, ["yuncos"]]:
        assert sheet_page(name) is None, name


def test_a_record_of_no_sheet_page_is_refused_by_the_page_not_failed():
    with pytest.raises(FormError) as e:
        photo.corrected({"game": "nothing", "turn": []}, [], {}, forms.english)
    assert str(e.value) == forms.english("ph_err_other_game")
    assert photo.page_of({"game": "nothing"}) is None and photo.page_of("yuncos") is None


@pytest.mark.parametrize("game", sorted(SHEETS))
def test_a_typed_draft_is_a_sheet_of_the_pages_game_only(game):
    page = sheet_page(game)
    for other in [g.name for g in games.all_games() if g.name != game]:
        with pytest.raises(FormError):
            photo.record_from_text(f'game = "{other}"\n', "r.toml", page, forms.english)
    got = photo.record_from_text(f'game = "{game}"\n', "r.toml", page, forms.english)
    assert got["game"] == game and got["in_progress"] is True


def test_the_readers_draft_names_a_game_with_a_sheet_page():
    pytest.importorskip("cv2")
    from sheetkit.photo import simulate

    sample = simulate.sample(1, "yuncos-easy", (1200, 1600))
    draft, reg = photo.read_upload(sample.jpeg)
    page = sheet_page(draft.record["game"])
    assert page is not None and photo.page_of(draft.record) is page
    fields = page.fields(draft, reg.blank.geometry)
    assert [f["key"] for f in fields] == [k for k in draft.uncertain if not k.endswith(".use")]  # asked with their turn
    assert all(f["box"] for f in fields)
    rec = photo.draft_record(draft)
    assert rec["in_progress"] is True and rec["game"] == page.game
