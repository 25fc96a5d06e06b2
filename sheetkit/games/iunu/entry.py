"""IUNU as a play on the page: the end-of-game form per player (the same form and the same
record as the IUNU tally below), with the deck's values kept in the
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

from sheetkit import forms as inputs
from sheetkit.errors import UserError
from sheetkit.forms import FormError
from sheetkit.games.interface import records_of
from sheetkit.forms import english, one_record

GAME = "iunu"
CASTES = ("farmer", "baker", "soldier", "merchant", "noble", "priest", "scribe", "pharaoh", "ninth")
AFTERLIFE_SLOTS = 3
DECK_NAME = "deck_name"  # the start form's kept deck, or the name to keep new values under


def _game(records) -> dict:
    return one_record(records, GAME)


def start_context(store, t: Callable = english) -> dict:
    """What the start form shows: the decks kept in the page's history, the last saved
    first (none before there is a history); the castes' names in the page's language."""
    return {"decks": store.decks(GAME) if store is not None else [], "labels": caste_labels(getattr(t, "lang", "en"))}


def caste_labels(lang: str) -> dict[str, str]:
    """The castes as the page names them: IUNU's own words (`iunu.caste.*`, as the checked
    sheet names them); the ninth has the name its deck gives it."""
    from sheetkit.messages import text

    return {c: text(f"iunu.caste.{c}", lang) for c in CASTES if c != "ninth"}


def deck_of(form: Mapping[str, Any], store, t: Callable = english) -> dict:
    """The deck of a new play: the values typed on the start form, then kept in the history
    under the name given (the same name again replaces them); or, with nothing typed, a
    deck kept in the history, chosen by name. FormError when neither is there."""
    name = inputs.name(form, DECK_NAME, t("iunu.deck_name"), t)
    typed = any(str(form.get(f"deck_{c}_{k}", "")).strip() for c in CASTES for k in ("cards", "vp", "bread"))
    if not typed:
        deck = store.deck(GAME, name) if name else None
        if deck is None:
            raise FormError(t("deck_missing"))
        return deck
    deck = read_deck(form, t)
    if not name:
        raise FormError(t("err_empty_name", field=t("iunu.deck_name")))
    try:
        store.save_deck(GAME, name, deck)
    except UserError as e:  # the history refused the name
        raise FormError(f"{t('iunu.deck_name')}: {e}") from None
    return deck


def blank_player(name: str) -> dict:
    return {"name": name, "deben": 0, "cards": {}, "fed": {}, "afterlife": []}


def blank(names: list[str], deck: dict) -> list[tuple[str | None, dict]]:
    return [(None, {"game": GAME, "in_progress": True, "deck": deck, "player": [blank_player(n) for n in names]})]


def new_records(start, t: Callable = english) -> list[tuple[str | None, dict]]:
    """The play's record from the start form (`start`: the core's plays.Start): the players
    in seating order from the first player on, everyone at 0, and the deck (`deck_of`, in
    the history the page keeps its plays in)."""
    if start.store is None:
        raise FormError(t("deck_missing"))
    # the request's own history: a deck kept here is part of the start's transaction
    return blank(list(start.players), deck_of(start.form, start.store, t))


def _read(records, form: Mapping[str, str] | None, t: Callable) -> list[tuple[str | None, dict]]:
    """The record with the players' values from the end-of-game form (the names stay the
    play's: the form's own name fields are ignored)."""
    data = _game(records)
    names = [p["name"] for p in data["player"]]
    merged = {k: v for k, v in (form or {}).items() if not k.startswith("name")}
    merged.update({f"name{i}": n for i, n in enumerate(names)})
    return [(None, {**data, "player": read_players(merged, t)})]


def saved(data: dict) -> int:
    """How many players' counts are saved: the run of players, from the first, whose count
    names every caste."""
    k = 0
    for p in data["player"]:
        if not set(CASTES) <= set(p.get("cards") or {}):
            break
        k += 1
    return k


def _fields(i: int) -> list[str]:
    """Player i's fields on the form that hold a value (a multiplier alone is none)."""
    return [f"p{i}_deben"] + [f"p{i}_{k}_{c}" for k in ("cards", "fed") for c in CASTES] + \
        [f"p{i}_after{j}_caste" for j in range(AFTERLIFE_SLOTS)]


def _typed(form: Mapping[str, str], i: int) -> bool:
    """The form has a value typed for player i."""
    return any(str(form.get(k, "")).strip() for k in _fields(i))


def _brings(form: Mapping[str, str], i: int) -> bool:
    """The form has player i's fields at all (the page's always has)."""
    return any(k in form for k in _fields(i) + [f"p{i}_after{j}_mult" for j in range(AFTERLIFE_SLOTS)])


def _values(p: dict) -> tuple:
    """A count as it scores (the zeros a saved count names make no difference)."""
    def nonzero(d):
        return {c: n for c, n in (d or {}).items() if n}

    return p.get("deben", 0), nonzero(p.get("cards")), nonzero(p.get("fed")), list(p.get("afterlife") or [])


def add_move(position, form: Mapping[str, str], t: Callable = english):
    """Save the next player's count (checked; the play goes on). A saved count changed on
    the form, a count typed for a later player, or nothing typed: one message, nothing
    saved."""
    records = records_of(position)
    data = _game(records)
    typed = _game(_read(records, form, t))["player"]  # every value readable, or FormError
    players = data["player"]
    k = saved(data)
    for i, (p, new) in enumerate(zip(players[:k], typed)):
        if _brings(form, i) and _values(p) != _values(new):  # what the form does not bring, it does not change
            raise FormError(t("iunu.err_saved", name=p["name"]))
    filled = [i for i in range(k, len(players)) if _typed(form, i)]
    if not filled:
        if k == len(players):
            raise FormError(t("iunu.err_all_saved"))
        raise FormError(t("iunu.err_nothing_new", name=players[k]["name"]))
    if filled != [k]:
        raise FormError(t("iunu.err_order", name=players[k]["name"]))
    out = list(players)
    out[k] = {**typed[k], "cards": {c: typed[k]["cards"].get(c, 0) for c in CASTES}}
    return [(None, {**data, "player": out})]


def undo(position, t: Callable = english):
    """The last count saved back to blank: exactly the record before it was saved."""
    records = records_of(position)
    data = _game(records)
    k = saved(data)
    if not k:
        raise FormError(t("iunu.err_undo"))
    players = list(data["player"])
    players[k - 1] = blank_player(players[k - 1]["name"])
    out = {**data, "player": players}
    if "in_progress" not in out:  # a finished record (not from the page: it refuses steps then)
        out = {"game": out["game"], "in_progress": True, **out}
    return [(None, out)]


def finish(position, form: Mapping[str, str] | None = None, t: Callable = english):
    """The count as finished: the form's values when it brings them ("Score and finish"),
    else the values saved so far (the page's End)."""
    records = records_of(position)
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
                   "castes": CASTES, "labels": caste_labels(lang), "after_slots": range(AFTERLIFE_SLOTS), "v": values}}


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


# -- the forms' tables, shared by the move entry and the quick tally ----------------------

TALLY_SOURCE = "web form"


def read_deck(form: Mapping[str, str], t: Callable = english) -> dict:
    """The deck's tables from the deck form, as a record carries them inline."""
    from sheetkit.forms import BIG

    castes = {}
    for c in CASTES:
        label = t("ninth_name") if c == "ninth" else c.capitalize()
        entry = {k: inputs.integer(form, f"deck_{c}_{k}", f"{label}, {t(k)}", 0 if k == "bread" else 1, BIG, t,
                                   default=None) for k in ("cards", "vp", "bread")}
        for k, v in entry.items():
            if v is None:
                raise FormError(t("err_int", field=f"{label}, {t(k)}", lo=0 if k == "bread" else 1, hi=BIG, got="''"))
        if c == "ninth":
            n = inputs.name(form, "deck_ninth_name", t("ninth_name"), t)
            if not n:
                raise FormError(t("err_empty_name", field=t("ninth_name")))
            entry = {"name": n, **entry}
        castes[c] = entry
    return {"castes": castes}


def read_players(form: Mapping[str, str], t: Callable = english) -> list[dict]:
    """The [[player]] tables of the IUNU end-of-game form."""
    from sheetkit.forms import BIG

    def filled(i):
        return any(form.get(f"p{i}_{k}", "").strip() for k in
                   ["deben"] + [f"cards_{c}" for c in CASTES] + [f"fed_{c}" for c in CASTES])

    slots, names = inputs.named_slots(form, t, filled)
    inputs.players(names, "IUNU", t)
    players = []
    for i, n in slots:
        cards = {c: v for c in CASTES if (v := inputs.integer(form, f"p{i}_cards_{c}", f"{n}, {t('dynasty')}, {c}", 0, BIG, t))}
        fed = {c: v for c in CASTES if (v := inputs.integer(form, f"p{i}_fed_{c}", f"{n}, {t('fed')}, {c}", 0, BIG, t))}
        after = []
        for j in range(AFTERLIFE_SLOTS):
            caste = form.get(f"p{i}_after{j}_caste", "")
            if not caste:
                continue
            inputs.choice(form, f"p{i}_after{j}_caste", f"{n}, {t('afterlife')}", CASTES, t, "")
            mult = inputs.integer(form, f"p{i}_after{j}_mult", f"{n}, {t('afterlife')}, {t('multiplier')}", 1, BIG, t, default=1)
            after.append({"caste": caste, "multiplier": mult})
        players.append({"name": n, "deben": inputs.integer(form, f"p{i}_deben", f"{n}, {t('deben')}", 0, 99999, t),
                        "cards": cards, "fed": fed, "afterlife": after})
    return players


def _deck_values(deck) -> dict:
    """A deck, as the deck form's field values."""
    out = {}
    for c, e in (deck or {}).get("castes", {}).items():
        for k in ("cards", "vp", "bread"):
            out[f"deck_{c}_{k}"] = str(e[k])
        if "name" in e:
            out["deck_ninth_name"] = e["name"]
    return out


def tally_context(form, session, t: Callable = english, step=None, refused: bool = False) -> dict:
    """The deck kept in the session (the deck form until there is one, or when asked to
    edit it), and the end-of-game form."""
    deck = session.get("iunu_deck")
    if step == "deck" and refused:  # the deck form again, as it was typed
        dv, edit = form, True
    else:
        dv, edit = _deck_values(deck), (form.get("deck") == "edit" and step is None) or not deck
    return {"deck": deck, "castes": CASTES, "labels": caste_labels(getattr(t, "lang", "en")),
            "after_slots": range(AFTERLIFE_SLOTS), "slots": range(4),
            "dv": dv, "edit": edit}


def tally_score(form, session, t: Callable = english):
    """The end-of-game form as a record (offered for download), checked as `sheetkit check`."""
    deck = session.get("iunu_deck")
    if deck is None:
        raise FormError(t("deck_missing"))
    data = {"game": GAME, "deck": deck, "player": read_players(form, t)}
    return checked_text(data, "An IUNU game entered on the sheetkit page.\nCheck it with: sheetkit check THIS.toml")


def save_deck(form, session, t: Callable = english) -> str:
    """The deck form kept in the session for the next tallies."""
    session["iunu_deck"] = read_deck(form, t)
    return t("deck_saved")


def checked_text(data: dict, comment: str):
    """The record written as TOML and that very text checked, as an upload is checked."""
    from sheetkit.games.iunu.check import check
    from sheetkit.games.iunu.record import read_record
    from sheetkit.games.interface import Outcome
    from sheetkit.tomlfile import dump_toml, parse_toml_text

    text = dump_toml(data, comment)
    return Outcome(check(read_record(parse_toml_text(text, TALLY_SOURCE), TALLY_SOURCE), TALLY_SOURCE).verdict, text)
