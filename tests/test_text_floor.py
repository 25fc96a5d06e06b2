"""Every text on every page sheetkit prints is at least 6 pt: the checked sheets of every
example (both papers, both languages) and every shipped layout's pages, walked item by
item through their Scenes (a placed form's items too)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheetkit import layouts
from sheetkit.checking import records
from sheetkit.errors import UserError
from sheetkit.paper import scene as S
from sheetkit.paper.lint import MIN_TEXT_PT

EX = Path(__file__).resolve().parent.parent / "examples"



def _drawn(name: str) -> bool:
    """An example with a checked sheet to draw (a deck, a table or unusable input has none)."""
    try:
        return records.load(EX / name).kind.overlay is not None
    except (UserError, ValueError):
        return False


EXAMPLES = sorted(p.name for p in EX.glob("*.toml") if _drawn(p.name))  # the others are left out, not skipped


def small_texts(scene: S.Scene) -> list[tuple[str, float]]:
    out = []
    for items in [f.items for f in scene.forms.values()] + [p.items for p in scene.pages]:
        for it in items:
            if isinstance(it, S.Text) and it.text.strip() and it.size < MIN_TEXT_PT - 1e-6:
                out.append((it.text, it.size))
    return out


def checked(name: str, paper: str, lang: str):
    try:
        loaded = records.load(EX / name)
    except (UserError, ValueError):
        return None
    if loaded.kind.overlay is None:
        return None
    done = records.check(loaded)
    try:
        return loaded.kind.overlay(loaded.record, done, paper, lang=lang)
    except (UserError, ValueError):  # a record with no sheet to draw (a Yuncos table)
        return None


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("name", EXAMPLES)
def test_every_text_of_every_checked_sheet_is_6_pt_or_more(name, lang, paper):
    scene = checked(name, paper, lang)
    assert scene is not None and not small_texts(scene), (name, scene and small_texts(scene)[:5])


@pytest.mark.parametrize("lid", layouts.shipped_ids())
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_text_of_every_shipped_layout_is_6_pt_or_more(lid, paper):
    layout = layouts.load(lid)
    for lang in ("en", "es"):
        scene = layout.kind_entry.compose(layout, paper, lang)
        assert not small_texts(scene), (lid, lang, small_texts(scene)[:5])
