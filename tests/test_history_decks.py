"""IUNU decks kept in the history by name: saved once, offered again, replaced by the same
name, kept through a migration from an older file."""

import sqlite3

import pytest

from sheetkit.history import Store, schema
from sheetkit.history.schema import HistoryError

DECK = {"castes": {"farmer": {"cards": 9, "vp": 1, "bread": 2}}}


def test_a_deck_is_kept_by_name_and_offered_again(tmp_path):
    db = tmp_path / "h.sqlite3"
    with Store.open(db) as store:
        assert store.decks("iunu") == []
        store.save_deck("iunu", "  Ana's   copy ", DECK)
    with Store.open(db) as store:  # another day, another server
        assert store.decks("iunu") == [("Ana's copy", DECK)]
        assert store.deck("iunu", "ana's COPY") == DECK
        assert store.deck("iunu", "nobody's") is None
        assert store.decks("glux") == []


def test_the_same_name_replaces_the_values_and_the_last_saved_comes_first(tmp_path):
    with Store.open(tmp_path / "h.sqlite3") as store:
        store.save_deck("iunu", "club", DECK)
        store.save_deck("iunu", "home", {"castes": {}})
        other = {"castes": {"farmer": {"cards": 8, "vp": 2, "bread": 2}}}
        store.save_deck("iunu", "CLUB", other)
        assert store.decks("iunu") == [("CLUB", other), ("home", {"castes": {}})]


@pytest.mark.parametrize("name", ["", "   ", "x" * 61, "a\x00b", "\u202eevil"])
def test_a_deck_name_that_cannot_be_kept_is_refused(tmp_path, name):
    with Store.open(tmp_path / "h.sqlite3") as store:
        with pytest.raises(HistoryError):
            store.save_deck("iunu", name, DECK)
        assert store.decks("iunu") == []


def test_an_older_history_gains_the_decks_table(tmp_path):
    path = tmp_path / "old.sqlite3"
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
    for step in schema.MIGRATIONS[:2]:
        for statement in step:
            raw.execute(statement)
    raw.execute("PRAGMA user_version = 2")
    raw.close()
    with Store.open(path) as store:
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == schema.VERSION
        store.save_deck("iunu", "club", DECK)
        assert store.deck("iunu", "club") == DECK
