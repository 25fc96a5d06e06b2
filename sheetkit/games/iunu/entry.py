"""IUNU as a play on the page: the end-of-game form per player (the same form and the same
record as the IUNU tally, sheetkit/web/tallies.py), with the deck's values kept in the
history by name (Store.save_deck) and offered again at the next play.

A move is one player's count saved ("Save": the next player's, one at a time, in the order
the form shows). So the last count saved is the last of the saved run of players, and undo
puts exactly that one back to blank, the counts saved before it intact. A saved count names
every caste of the dynasty, 0 included: that is what tells it from a count not entered yet
(a player may well end with nothing), and it checks the same. A Save never changes a saved
count (undo back to it, or change it on "Score and finish"), so that every Save is undone
exactly.

The play's one record carries its deck inline (`[deck.castes.farmer]` ...), so the
downloaded record checks the same with `sheetkit check` anywhere. Until the end it says
`in_progress = true`: each player's count is saved when typed ("Save", `add_move`), so
a closed tab loses nothing; "Score and finish" (`finish`) reads the form once more and ends
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


def blank_player(name: str) -> dict:
    return {"name": name, "deben": 0, "cards": {}, "fed": {}, "afterlife": []}


def blank(names: list[str], deck: dict) -> list[tuple[str | None, dict]]:
    return [(None, {"game": GAME, "in_progress": True, "deck": deck, "player": [blank_player(n) for n in names]})]


def new_records(start, t: Callable = english) -> list[tuple[str | None, dict]]:
    """The play's record from the start form (`start`: the core's plays.Start): the players
    in seating order from the first player on, everyone at 0, and the deck (`deck_of`, in
    the history the page keeps its plays in)."""
    from sheetkit.web.plays.routes import request_store

    path = _history()
    if path is None:
        raise FormError(t("deck_missing"))
    # the request's own history: a deck kept here is part of the start's transaction
    return blank(list(start.players), deck_of(start.form, request_store(path), t))


def _read(records, form: Mapping[str, str] | None, t: Callable) -> list[tuple[str | None, dict]]:
    """The record with the players' values from the end-of-game form (the names stay the
    play's: the form's own name fields are ignored)."""
    data = _game(records)
    names = [p["name"] for p in data["player"]]
    merged = {k: v for k, v in (form or {}).items() if not k.startswith("name")}
    merged.update({f"name{i}": n for i, n in enumerate(names)})
    return [(None, {**data, "player": tallies.iunu_players(merged, t)})]


def saved(data: dict) -> int:
    """How many players' counts are saved: the run of players, from the first, whose count
    names every caste."""
    k = 0
    for p in data["player"]:
        if not set(tallies.IUNU_CASTES) <= set(p.get("cards") or {}):
            break
        k += 1
    return k


def _fields(i: int) -> list[str]:
    """Player i's fields on the form that hold a value (a multiplier alone is none)."""
    return [f"p{i}_deben"] + [f"p{i}_{k}_{c}" for k in ("cards", "fed") for c in tallies.IUNU_CASTES] + \
        [f"p{i}_after{j}_caste" for j in range(tallies.IUNU_AFTERLIFE_SLOTS)]


def _typed(form: Mapping[str, str], i: int) -> bool:
    """The form has a value typed for player i."""
    return any(str(form.get(k, "")).strip() for k in _fields(i))


def _brings(form: Mapping[str, str], i: int) -> bool:
    """The form has player i's fields at all (the page's always has)."""
    return any(k in form for k in _fields(i) + [f"p{i}_after{j}_mult" for j in range(tallies.IUNU_AFTERLIFE_SLOTS)])


def _values(p: dict) -> tuple:
    """A count as it scores (the zeros a saved count names make no difference)."""
    def nonzero(d):
        return {c: n for c, n in (d or {}).items() if n}

    return p.get("deben", 0), nonzero(p.get("cards")), nonzero(p.get("fed")), list(p.get("afterlife") or [])


def add_move(records, form: Mapping[str, str], t: Callable = english):
    """Save the next player's count (checked; the play goes on). A saved count changed on
    the form, a count typed for a later player, or nothing typed: one message, nothing
    saved."""
    data = _game(records)
    typed = _game(_read(records, form, t))["player"]  # every value readable, or FormError
    players = data["player"]
    k = saved(data)
    for i, (p, new) in enumerate(zip(players[:k], typed)):
        if _brings(form, i) and _values(p) != _values(new):  # what the form does not bring, it does not change
            raise FormError(t("iu_err_saved", name=p["name"]))
    filled = [i for i in range(k, len(players)) if _typed(form, i)]
    if not filled:
        if k == len(players):
            raise FormError(t("iu_err_all_saved"))
        raise FormError(t("iu_err_nothing_new", name=players[k]["name"]))
    if filled != [k]:
        raise FormError(t("iu_err_order", name=players[k]["name"]))
    out = list(players)
    out[k] = {**typed[k], "cards": {c: typed[k]["cards"].get(c, 0) for c in tallies.IUNU_CASTES}}
    return [(None, {**data, "player": out})]


def undo(records, t: Callable = english):
    """The last count saved back to blank: exactly the record before it was saved."""
    data = _game(records)
    k = saved(data)
    if not k:
        raise FormError(t("iu_err_undo"))
    players = list(data["player"])
    players[k - 1] = blank_player(players[k - 1]["name"])
    out = {**data, "player": players}
    if "in_progress" not in out:  # a finished record (not from the page: it refuses steps then)
        out = {"game": out["game"], "in_progress": True, **out}
    return [(None, out)]


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
    return {"iu": {"names": names, "saved": saved(data), "slots": range(len(names)), "deck": data["deck"],
                   "castes": tallies.IUNU_CASTES, "after_slots": range(tallies.IUNU_AFTERLIFE_SLOTS), "v": values}}


def form_values(records) -> dict[str, str]:
    """The end-of-game form's fields filled from the record (to show it again)."""
    data = _game(records)
    out: dict[str, str] = {}
    for i, p in enumerate(data["player"]):
        if p.get("deben"):
            out[f"p{i}_deben"] = str(p["deben"])
        for k in ("cards", "fed"):
            for c, n in (p.get(k) or {}).items():
                if n:  # a saved count's zeros stay the field's placeholder
                    out[f"p{i}_{k}_{c}"] = str(n)
        for j, a in enumerate(p.get("afterlife") or []):
            out[f"p{i}_after{j}_caste"] = a["caste"]
            out[f"p{i}_after{j}_mult"] = str(a.get("multiplier", 1))
    return out
