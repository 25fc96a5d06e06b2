"""IUNU deck descriptions and game records (formats in docs/iunu.md).

The printed card values are not known to sheetkit: they come from a deck description the
user fills once from their own cards (`sheetkit template iunu-deck`). A game record
points to that file (`deck = "my-deck.toml"`, relative to the record) or carries the same
tables itself (`[deck.castes.farmer]` ...).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import field_validator, model_validator

from sheetkit.errors import FieldError, UserError
from sheetkit.schema import Model, Text, check_players, counts_table, read_toml, validate
from sheetkit.tomlfile import problem

KNOWN_CASTES = ("farmer", "baker", "soldier", "merchant", "noble", "priest", "scribe", "pharaoh")
CASTES_IN_DECK = 9
UNFILLED = "not filled in: copy the number printed on your cards (see `sheetkit template iunu-deck`)"


class Caste(Model):
    """One caste of citizen cards, values as printed on the cards."""

    name: Text | None = None  # shown name; by default the key, capitalised
    cards: int | str  # cards of this caste in the deck = its majority bonus (I2)
    vp: int | str  # victory points printed on each card
    bread: int | str  # victory points for each citizen of this caste fed with bread

    @model_validator(mode="after")
    def _filled(self):
        if self.name is not None and not self.name.strip():
            raise FieldError("name", "not filled in: write the name of this caste as on its cards")
        for field in ("cards", "vp", "bread"):
            value = getattr(self, field)
            if isinstance(value, str):
                if not value.strip():
                    raise FieldError(field, UNFILLED)
                if value.strip().lstrip("-").isdigit():
                    raise FieldError(field, f"write the number without quotes: {field} = {value.strip()}")
                raise FieldError(field, f"expected a whole number (got {value!r})")
        if self.cards < 1:
            raise FieldError("cards", f"expected at least 1 card (got {self.cards})")
        if self.bread < 0:
            raise FieldError("bread", f"expected 0 or more (got {self.bread})")
        return self


class Deck(Model):
    game: Literal["iunu"] = "iunu"
    kind: Literal["deck"] = "deck"
    castes: dict[str, Caste]

    @model_validator(mode="after")
    def _castes(self):
        for key in self.castes:
            if not key.isidentifier() or key != key.lower():
                raise FieldError(f"castes.{key}", "caste keys are lower-case words, e.g. farmer")
        missing = [k for k in KNOWN_CASTES if k not in self.castes]
        if missing:
            raise FieldError(f"castes.{missing[0]}", "missing: the deck lists all nine castes")
        if len(self.castes) != CASTES_IN_DECK:
            raise FieldError("castes", f"expected {CASTES_IN_DECK} castes: {', '.join(KNOWN_CASTES)} "
                                       f"and one more (got {len(self.castes)})")
        return self

    def label(self, key: str) -> str:
        c = self.castes[key]
        return c.name if c.name else key.capitalize()


class Afterlife(Model):
    caste: str  # the caste whose majority this afterlife card multiplies
    multiplier: int  # as printed on the afterlife card

    @model_validator(mode="after")
    def _check(self):
        if self.multiplier < 1:
            raise FieldError("multiplier", f"expected 1 or more (got {self.multiplier})")
        return self


class Player(Model):
    name: Text
    deben: int  # Deben coins at the end (negative is a finding, I4)
    cards: dict[str, int] = {}  # caste -> citizen cards in this player's dynasty
    fed: dict[str, int] = {}  # caste -> how many of those citizens were fed with bread
    afterlife: list[Afterlife] = []

    @field_validator("cards", "fed", mode="before")
    @classmethod
    def _per_caste(cls, v, info):
        what = "cards" if info.field_name == "cards" else "citizens fed"
        return counts_table(v, f"{what} of each caste", "{ farmer = 3, priest = 1 }")

    @field_validator("afterlife", mode="before")
    @classmethod
    def _cards_list(cls, v):
        if isinstance(v, dict):
            raise FieldError("", "expected one table per afterlife card, e.g. "
                                 f"[{{ caste = \"farmer\", multiplier = 2 }}] (got {v!r})")
        return v

    @model_validator(mode="after")
    def _check(self):
        if not self.name.strip():
            raise FieldError("name", "empty name")
        for table in ("cards", "fed"):
            for caste, n in getattr(self, table).items():
                if n < 0:
                    raise FieldError(f"{table}.{caste}", f"expected 0 or more (got {n})")
        return self


class RecordData(Model):
    game: Literal["iunu"]
    kind: Literal["game"] = "game"  # optional; a deck description says kind = "deck"
    deck: Any  # path to a deck file, relative to this record, or the deck's tables (see load_record)
    player: list[Player]  # [[player]] tables, in seating order
    qr: str | None = None  # the text of the score pad's QR code, if the pad had one
    rounds: int | None = None  # rounds played, if the game ended early (I1); else a full game
    in_progress: bool = False  # the end-of-game count is still being entered: the standings so far, no winner

    @model_validator(mode="after")
    def _check(self):
        check_players("IUNU", self.player, "player", ("name", lambda p: p.name), rule="I1")
        if self.rounds is not None and self.rounds < 1:
            raise FieldError("rounds", f"expected the number of rounds played, 1 or more (got {self.rounds})")
        return self


@dataclass(frozen=True, slots=True)
class Record:
    data: RecordData
    deck: Deck
    deck_source: str  # where the deck came from: a file, or "inline"
    kind = "game"
    sheet = None  # copied from the score pad, named by the game (PAD)

    @property
    def qr(self) -> str | None:
        return self.data.qr


def load_deck(data: dict, shown: str) -> Deck:
    if data.get("kind") != "deck":
        raise UserError("not a deck description (expected kind = \"deck\"; see `sheetkit template iunu-deck`)",
                        source=shown, field="kind")
    return validate(Deck, data, shown)


def read_record(data: dict, source: str) -> Record:
    if data.get("kind") == "deck":
        validate(Deck, data, source)  # an unfilled or faulty deck: say what to fix first
        raise UserError("a deck description, filled in and usable; not a game record: a record points to it "
                        "with deck = \"...\" (see `sheetkit template iunu`)", source=source)
    if "kind" in data and data["kind"] != "game":
        raise UserError(f"expected kind = \"game\" (or no kind) in a game record, or kind = \"deck\" "
                        f"in a deck description (got {data['kind']!r})", source=source, field="kind")
    rec = validate(RecordData, data, source)
    if isinstance(rec.deck, dict):
        try:
            deck = validate(Deck, rec.deck, source)
        except UserError as e:
            raise UserError(e.detail, source=source, field="deck" + (f".{e.field}" if e.field else "")) from None
        deck_source = "inline"
    elif isinstance(rec.deck, str):
        base = Path(source).parent
        path = base / os.path.expanduser(rec.deck)  # unlike Path's, never raises (~nosuchuser)
        bad = problem(path)
        if bad == "no such file":
            raise UserError(f"no such deck file {str(path)!r} (a path not starting with / or ~ is "
                            "relative to the record)",
                            source=source, field="deck")
        if bad:
            raise UserError(f"deck file {str(path)!r}: {bad}", source=source, field="deck")
        try:
            data = read_toml(path)
        except UserError as e:  # the file itself (not TOML, too large ...): name the record too
            raise UserError(f"cannot use deck file: {e}", source=source, field="deck") from None
        deck = load_deck(data, str(path))
        deck_source = str(path)
    else:
        raise UserError(f"expected a deck file name or [deck] tables (got {type(rec.deck).__name__})",
                        source=source, field="deck")
    for i, p in enumerate(rec.player):
        for table in ("cards", "fed"):
            for caste in getattr(p, table):
                if caste not in deck.castes:
                    raise UserError(f"unknown caste; the deck has: {', '.join(deck.castes)}",
                                    source=source, field=f"player[{i}].{table}.{caste}")
        for j, a in enumerate(p.afterlife):
            if a.caste not in deck.castes:
                raise UserError(f"unknown caste {a.caste!r}; the deck has: {', '.join(deck.castes)}",
                                source=source, field=f"player[{i}].afterlife[{j}].caste")
    return Record(rec, deck, deck_source)
