"""IUNU as a play on the page: the end-of-game form per player (the same form and the same
record as the IUNU tally, sheetkit/web/tallies.py), with the deck's values kept in the
history by name (Store.save_deck) and offered again at the next play.

The play's one record carries its deck inline (`[deck.castes.farmer]` ...), so the
downloaded record checks the same with `sheetkit check` anywhere. Until the end it says
`in_progress = true`: the values are saved as they are typed ("Save", `add_move`), so a
closed tab loses nothing; "Score and finish" (`finish`) reads the form once more and ends
the play on the common end page.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from sheetkit.web import inputs, tallies
from sheetkit.web.inputs import FormError
from sheetkit.web.plays import english, one_record

GAME = "iunu"
START_TEMPLATE = "start_iunu.html"
DECK_NAME = "deck_name"  # the start form's kept deck, or the name to keep new values under


def _game(records) -> dict:
    return one_record(records, GAME, "an IUNU play")


def _history():
    """The history file of the page serving this request (None outside a request)."""
    from flask import current_app, has_app_context

    return current_app.config.get("SHEETKIT_HISTORY") if has_app_context() else None


def kept_decks() -> list[tuple[str, dict]]:
    """The decks kept in the page's history (for the start form), the last saved first;
    none, and no history file made, before there is one."""
    path = _history()
    if path is None or not path.is_file():
        return []
    from sheetkit.history import Store

    with Store.open(path) as store:
        return store.decks(GAME)


def deck_of(form: Mapping[str, Any], store, t: Callable = english) -> dict:
    """The deck of a new play: the values typed on the start form, then kept in the history
    under the name given (the same name again replaces them); or, with nothing typed, a
    deck kept in the history, chosen by name. FormError when neither is there."""
    from sheetkit.history.schema import HistoryError

    name = inputs.name(form, DECK_NAME, t("iu_deck_name"), t)
    typed = any(str(form.get(f"deck_{c}_{k}", "")).strip() for c in tallies.IUNU_CASTES for k in ("cards", "vp", "bread"))
    if not typed:
        deck = store.deck(GAME, name) if name else None
        if deck is None:
            raise FormError(t("deck_missing"))
        return deck
    deck = tallies.iunu_deck(form, t)
    if not name:
        raise FormError(t("err_empty_name", field=t("iu_deck_name")))
    try:
        store.save_deck(GAME, name, deck)
    except HistoryError as e:
        raise FormError(f"{t('iu_deck_name')}: {e}") from None
    return deck


def blank(names: list[str], deck: dict) -> list[tuple[str | None, dict]]:
    players = [{"name": n, "deben": 0, "cards": {}, "fed": {}, "afterlife": []} for n in names]
    return [(None, {"game": GAME, "in_progress": True, "deck": deck, "player": players})]


def new_records(start, t: Callable = english) -> list[tuple[str | None, dict]]:
    """The play's record from the start form (`start`: the core's plays.Start): the players
    in seating order from the first player on, everyone at 0, and the deck (`deck_of`, in
    the history the page keeps its plays in)."""
    from sheetkit.history import Store

    path = _history()
    if path is None:
        raise FormError(t("deck_missing"))
    with Store.open(path) as store:
        deck = deck_of(start.form, store, t)
    return blank(list(start.players), deck)


def _read(records, form: Mapping[str, str] | None, t: Callable) -> list[tuple[str | None, dict]]:
    """The record with the players' values from the end-of-game form (the names stay the
    play's: the form's own name fields are ignored)."""
    data = _game(records)
    names = [p["name"] for p in data["player"]]
    merged = {k: v for k, v in (form or {}).items() if not k.startswith("name")}
    merged.update({f"name{i}": n for i, n in enumerate(names)})
    return [(None, {**data, "player": tallies.iunu_players(merged, t)})]


def add_move(records, form: Mapping[str, str], t: Callable = english):
    """Save what is typed so far (checked; the play goes on)."""
    return _read(records, form, t)


def undo(records, t: Callable = english):
    """Back to the blank form: every value 0."""
    data = _game(records)
    if not any(p.get("deben") or p.get("cards") or p.get("fed") or p.get("afterlife") for p in data["player"]):
        raise FormError(t("iu_err_undo"))
    return blank([p["name"] for p in data["player"]], data["deck"])


def finish(records, form: Mapping[str, str] | None = None, t: Callable = english):
    """The count as finished: the form's values when it brings them ("Score and finish"),
    else the values saved so far (the page's End)."""
    brings = form is not None and any(k.startswith("p") and k[1:2].isdigit() for k in form)
    data = _game(_read(records, form, t) if brings else records)
    return [(None, {k: v for k, v in data.items() if k != "in_progress"})]


def view(results, t: Callable, lang: str = "en", form: Mapping[str, str] | None = None) -> dict:
    """The end-of-game form: the play's players, the deck's castes, the values saved (or,
    after a refused step, the values as sent)."""
    data = results[0].data
    names = [p["name"] for p in data["player"]]
    values = dict(form) if form else form_values([(None, data)])
    return {"iu": {"names": names, "slots": range(len(names)), "deck": data["deck"], "castes": tallies.IUNU_CASTES,
                   "after_slots": range(tallies.IUNU_AFTERLIFE_SLOTS), "v": values}}


def form_values(records) -> dict[str, str]:
    """The end-of-game form's fields filled from the record (to show it again)."""
    data = _game(records)
    out: dict[str, str] = {}
    for i, p in enumerate(data["player"]):
        if p.get("deben"):
            out[f"p{i}_deben"] = str(p["deben"])
        for k in ("cards", "fed"):
            for c, n in (p.get(k) or {}).items():
                out[f"p{i}_{k}_{c}"] = str(n)
        for j, a in enumerate(p.get("afterlife") or []):
            out[f"p{i}_after{j}_caste"] = a["caste"]
            out[f"p{i}_after{j}_mult"] = str(a.get("multiplier", 1))
    return out
