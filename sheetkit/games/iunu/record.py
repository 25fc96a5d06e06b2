"""IUNU deck descriptions, game records and score pad tallies (formats in docs/iunu.md).

The printed card values are not known to sheetkit: they come from a deck description the
user fills once from their own cards (`sheetkit template iunu-deck`). A game record
points to that file (`deck = "my-deck.toml"`, relative to the record) or carries the same
tables itself (`[deck.castes.farmer]` ...).

A score pad's tally (`kind = "tally"`) is what the pad holds instead: each caste's majority
bonus as written in its box, and per player the citizens' VP, the majorities held with their
afterlife multipliers, the bread VP, the Deben and the pad's total. It needs no deck.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import field_validator, model_validator

from sheetkit.messages import msg
from sheetkit.errors import FieldError, UserError
from sheetkit.schema import Model, Text, check_players, counts_table, read_toml, validate
from sheetkit.tomlfile import MISSING, problem

KNOWN_CASTES = ("farmer", "baker", "soldier", "merchant", "noble", "priest", "scribe", "pharaoh")
CASTES_IN_DECK = 9
UNFILLED = msg("error.iunu.unfilled")


class Caste(Model):
    """One caste of citizen cards, values as printed on the cards."""

    name: Text | None = None  # shown name; by default the key, capitalised
    cards: int | str  # cards of this caste in the deck = its majority bonus (I2)
    vp: int | str  # victory points printed on each card
    bread: int | str  # victory points for each citizen of this caste fed with bread

    @model_validator(mode="after")
    def _filled(self):
        if self.name is not None and not self.name.strip():
            raise FieldError("name", msg("error.iunu.unfilled_name"))
        for field in ("cards", "vp", "bread"):
            value = getattr(self, field)
            if isinstance(value, str):
                if not value.strip():
                    raise FieldError(field, UNFILLED)
                if value.strip().lstrip("-").isdigit():
                    raise FieldError(field, msg("error.iunu.quoted_number", field=field, value=value.strip()))
                raise FieldError(field, msg("error.iunu.whole_number", got=repr(value)))
        if self.cards < 1:
            raise FieldError("cards", msg("error.iunu.one_card", got=self.cards))
        if self.bread < 0:
            raise FieldError("bread", msg("error.zero_or_more", got=self.bread))
        return self


class Deck(Model):
    game: Literal["iunu"] = "iunu"
    kind: Literal["deck"] = "deck"
    castes: dict[str, Caste]

    @model_validator(mode="after")
    def _castes(self):
        for key in self.castes:
            if not key.isidentifier() or key != key.lower():
                raise FieldError(f"castes.{key}", msg("error.iunu.caste_key"))
        missing = [k for k in KNOWN_CASTES if k not in self.castes]
        if missing:
            raise FieldError(f"castes.{missing[0]}", msg("error.iunu.caste_missing"))
        if len(self.castes) != CASTES_IN_DECK:
            raise FieldError("castes", msg("error.iunu.castes", n=CASTES_IN_DECK, known=", ".join(KNOWN_CASTES),
                                           got=len(self.castes)))
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
            raise FieldError("multiplier", msg("error.one_or_more", got=self.multiplier))
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
        what = msg("error.iunu.cards_each" if info.field_name == "cards" else "error.iunu.fed_each")
        return counts_table(v, what, "{ farmer = 3, priest = 1 }")

    @field_validator("afterlife", mode="before")
    @classmethod
    def _cards_list(cls, v):
        if isinstance(v, dict):
            raise FieldError("", msg("error.iunu.afterlife", example='[{ caste = "farmer", multiplier = 2 }]', got=repr(v)))
        return v

    @model_validator(mode="after")
    def _check(self):
        if not self.name.strip():
            raise FieldError("name", msg("error.schema.empty_name"))
        for table in ("cards", "fed"):
            for caste, n in getattr(self, table).items():
                if n < 0:
                    raise FieldError(f"{table}.{caste}", msg("error.zero_or_more", got=n))
        # I4: one afterlife card on a majority at most, and a deck has nine castes; a
        # second card on one majority is a finding (I4), more cards than castes no game
        if len(self.afterlife) > CASTES_IN_DECK:
            raise FieldError("afterlife", msg("error.iunu.too_many_afterlife", n=len(self.afterlife),
                                              castes=CASTES_IN_DECK))
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
            raise FieldError("rounds", msg("error.iunu.rounds", got=self.rounds))
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


class TallyPlayer(Model):
    name: Text
    citizens: int  # VP printed on the citizen cards of the dynasty
    majorities: dict[str, int] = {}  # caste -> the afterlife multiplier on its majority (1: no card)
    bread: int = 0  # VP of the citizens fed with bread
    deben: int  # Deben coins at the end (negative is a finding, I4)
    total: int | None = None  # the total written on the pad: a finding when it is not the parts' sum

    @field_validator("majorities", mode="before")
    @classmethod
    def _per_caste(cls, v):
        return counts_table(v, msg("error.iunu.majorities_each"), "{ farmer = 1, priest = 2 }")

    @model_validator(mode="after")
    def _check(self):
        if not self.name.strip():
            raise FieldError("name", msg("error.schema.empty_name"))
        for field in ("citizens", "bread"):
            if getattr(self, field) < 0:
                raise FieldError(field, msg("error.zero_or_more", got=getattr(self, field)))
        for caste, m in self.majorities.items():
            if m < 1:
                raise FieldError(f"majorities.{caste}", msg("error.one_or_more", got=m))
        return self


class TallyData(Model):
    game: Literal["iunu"]
    kind: Literal["tally"]
    bonus: dict[str, int]  # caste -> its majority bonus (I2: its cards in the deck), as in its box
    player: list[TallyPlayer]  # in seating order
    qr: str | None = None  # the text of the score pad's QR code

    @field_validator("bonus", mode="before")
    @classmethod
    def _per_caste(cls, v):
        return counts_table(v, msg("error.iunu.bonus_each"), "{ farmer = 5, priest = 3 }")

    @model_validator(mode="after")
    def _check(self):
        check_players("IUNU", self.player, "player", ("name", lambda p: " ".join(p.name.split()).casefold()), rule="I1")
        if len(self.bonus) > CASTES_IN_DECK:
            raise FieldError("bonus", msg("error.iunu.too_many_castes", n=len(self.bonus), castes=CASTES_IN_DECK))
        for key, b in self.bonus.items():
            if not key.isidentifier() or key != key.lower():
                raise FieldError(f"bonus.{key}", msg("error.iunu.caste_key"))
            if b < 1:
                raise FieldError(f"bonus.{key}", msg("error.iunu.one_card", got=b))
        for i, p in enumerate(self.player):
            for key in p.majorities:
                if key not in self.bonus:
                    raise FieldError(f"player[{i}].majorities.{key}",
                                     msg("error.iunu.no_bonus", caste=repr(key), castes=", ".join(self.bonus) or "-"))
        return self


@dataclass(frozen=True, slots=True)
class Tally:
    """A score pad's tally as read: no deck, the pad's own numbers."""

    data: TallyData
    kind = "tally"
    deck = None
    sheet = None  # copied from the score pad, named by the game (PAD)

    @property
    def qr(self) -> str | None:
        return self.data.qr


def load_deck(data: dict, shown: str) -> Deck:
    if data.get("kind") != "deck":
        raise UserError(msg("error.iunu.not_deck"), source=shown, field="kind")
    return validate(Deck, data, shown)


def read_record(data: dict, source: str) -> "Record | Tally":
    if data.get("kind") == "deck":
        validate(Deck, data, source)  # an unfilled or faulty deck: say what to fix first
        raise UserError(msg("error.iunu.is_deck"), source=source)
    if data.get("kind") == "tally":
        return Tally(validate(TallyData, data, source))
    if "kind" in data and data["kind"] != "game":
        raise UserError(msg("error.iunu.kind", got=repr(data["kind"])), source=source, field="kind")
    rec = validate(RecordData, data, source)
    if isinstance(rec.deck, dict):
        try:
            deck = validate(Deck, rec.deck, source)
        except UserError as e:
            raise UserError(e.message, source=source, field="deck" + (f".{e.field}" if e.field else "")) from None
        deck_source = "inline"
    elif isinstance(rec.deck, str):
        base = Path(source).parent
        path = base / os.path.expanduser(rec.deck)  # unlike Path's, never raises (~nosuchuser)
        bad = problem(path)
        if bad == MISSING:
            raise UserError(msg("error.iunu.no_deck_file", path=repr(str(path))), source=source, field="deck")
        if bad:
            raise UserError(msg("error.iunu.deck_file", path=repr(str(path)), why=bad), source=source, field="deck")
        try:
            data = read_toml(path)
        except UserError as e:  # the file itself (not TOML, too large ...): name the record too
            raise UserError(msg("error.iunu.cannot_use_deck", why=e), source=source, field="deck") from None
        deck = load_deck(data, str(path))
        deck_source = str(path)
    else:
        raise UserError(msg("error.iunu.deck_type", got=type(rec.deck).__name__), source=source, field="deck")
    for i, p in enumerate(rec.player):
        for table in ("cards", "fed"):
            for caste in getattr(p, table):
                if caste not in deck.castes:
                    raise UserError(msg("error.iunu.unknown_caste", castes=", ".join(deck.castes)),
                                    source=source, field=f"player[{i}].{table}.{caste}")
        for j, a in enumerate(p.afterlife):
            if a.caste not in deck.castes:
                raise UserError(msg("error.iunu.unknown_caste_named", caste=repr(a.caste), castes=", ".join(deck.castes)),
                                source=source, field=f"player[{i}].afterlife[{j}].caste")
    return Record(rec, deck, deck_source)
