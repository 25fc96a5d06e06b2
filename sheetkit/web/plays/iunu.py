"""IUNU as a play on the page: the end-of-game form per player (the same form and the same
record as the IUNU tally, sheetkit/web/tallies.py), with the deck's values kept in the
history by name (Store.save_deck) and offered again at the next play.

The play's one record carries its deck inline (`[deck.castes.farmer]` ...), so the
downloaded record checks the same with `sheetkit check` anywhere. Until the end, the
form's values are saved as they are typed (`add_move`: "save"), so a closed tab loses
nothing; `finish` reads the form once more and ends the play.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from sheetkit.web import inputs, tallies
from sheetkit.web.inputs import FormError

GAME = "iunu"
SOURCE = "iunu-game.toml"
COMMENT = "An IUNU game entered on the sheetkit page.\nCheck it with: sheetkit check THIS.toml"
DECK_NAME = "deck_name"  # the start form's choice of a kept deck, or the name to keep new values under


def _en(key: str, **kw) -> str:
    from sheetkit.web import i18n

    return i18n.label("en", key, **kw)


def _game(records) -> dict:
    if len(records) != 1 or not isinstance(records[0][1], dict) or records[0][1].get("game") != GAME:
        raise FormError("not an IUNU play")
    return records[0][1]


def deck_of(form: Mapping[str, Any], store, t: Callable = _en) -> dict:
    """The deck of a new play: a deck kept in the history, chosen by name; or the values
    typed on the start form, then kept under the name given (the same name again replaces
    them). FormError when neither is there."""
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


def new_records(form: Mapping[str, Any], t: Callable = _en) -> list[tuple[str | None, dict]]:
    """The play's record from the start form: the players in seating order (`name0`..`name3`
    or a `players` list; `first` moves that player to the front) and `deck`, the deck's
    tables (from `deck_of`). Everyone starts at 0."""
    deck = form.get("deck")
    if not isinstance(deck, dict) or not isinstance(deck.get("castes"), dict):
        raise FormError(t("deck_missing"))
    names = form.get("players") if isinstance(form.get("players"), list) else None
    if names is None:
        slots = [(t("name_n", n=i + 1), inputs.name(form, f"name{i}", t("name_n", n=i + 1), t)) for i in range(4)]
        names = inputs.players(slots, "IUNU", t)
    names = list(names)
    first = form.get("first", "")
    if isinstance(first, str) and first.strip():
        first = first.strip()
        k = int(first) if first.isdigit() and int(first) < len(names) else (names.index(first) if first in names else None)
        if k is None:
            raise FormError(t("err_choice", field=t("lx_first")))
        names = names[k:] + names[:k]
    players = [{"name": n, "deben": 0, "cards": {}, "fed": {}, "afterlife": []} for n in names]
    return [(None, {"game": GAME, "deck": deck, "player": players})]


def _read(records, form: Mapping[str, str], t: Callable) -> list[tuple[str | None, dict]]:
    """The record with the players' values from the end-of-game form (names stay the play's:
    the form's own name fields are ignored)."""
    data = _game(records)
    names = [p["name"] for p in data["player"]]
    merged = {k: v for k, v in form.items() if not k.startswith("name")}
    merged.update({f"name{i}": n for i, n in enumerate(names)})
    players = tallies.iunu_players(merged, t)
    return [(None, {**data, "player": players})]


def add_move(records, form: Mapping[str, str], t: Callable = _en):
    """Save what is typed so far (checked, the play still going on)."""
    return _read(records, form, t)


def undo(records, t: Callable = _en):
    """Back to the blank form: every value to 0."""
    data = _game(records)
    return [(None, {**data, "player": [{"name": p["name"], "deben": 0, "cards": {}, "fed": {}, "afterlife": []}
                                       for p in data["player"]]})]


def finish(records, form: Mapping[str, str] | None = None, t: Callable = _en):
    return _read(records, form, t) if form is not None and any(k.startswith("p") for k in form) else \
        [(None, dict(_game(records)))]


def text(records) -> str:
    from sheetkit.tomlfile import dump_toml

    return dump_toml(_game(records), COMMENT)


def check(records, t: Callable = _en):
    return inputs.parse_record(text(records).encode("utf-8"), SOURCE, t)[1]


def form_values(records) -> dict[str, str]:
    """The end-of-game form's fields filled from the record (to show it again)."""
    data = _game(records)
    out: dict[str, str] = {}
    for i, p in enumerate(data["player"]):
        out[f"name{i}"] = p["name"]
        if p.get("deben"):
            out[f"p{i}_deben"] = str(p["deben"])
        for k in ("cards", "fed"):
            for c, n in (p.get(k) or {}).items():
                out[f"p{i}_{k}_{c}"] = str(n)
        for j, a in enumerate(p.get("afterlife") or []):
            out[f"p{i}_after{j}_caste"] = a["caste"]
            out[f"p{i}_after{j}_mult"] = str(a.get("multiplier", 1))
    return out
