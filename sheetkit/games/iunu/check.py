"""Checking an IUNU game record (I2-I5): the majorities, every player's score, the winner(s)."""

from __future__ import annotations

from dataclasses import dataclass

from sheetkit.checking.verdict import WARNING, Details, Finding, Score, Verdict
from sheetkit.games.interface import Checked
from sheetkit.games.iunu.record import Record
from sheetkit.games.iunu.rules import HAND, ROUNDS, majorities, winners_of


@dataclass(frozen=True, slots=True)
class IunuDetails(Details):
    deck: str  # the deck file the record points to, or "inline"
    majorities: dict[str, str]  # caste -> the player holding its majority (I3)


def round_findings(record: Record) -> list[Finding]:
    """What I1 says of a final record: the rounds played (a full game unless `rounds`
    says it ended early) against each dynasty. Every round a player plays one card or a
    set into their dynasty, at most the hand; the abilities of the cards are not known
    here (one may take citizens away or bring more), so a dynasty out of those bounds is a
    warning, and only more rounds than the game has is an error."""
    players = record.data.player
    n = len(players)
    full, hand = ROUNDS[n], HAND[n]
    given = record.data.rounds
    out: list[Finding] = []
    if given is not None and given > full:
        out.append(Finding("I1", "rounds", f"{given} rounds played, but with {n} players the game has {full}",
                           at={"rounds": given}))
    played = min(given, full) if given is not None else full
    said = f"{played} round(s) played" if given is not None else f"the {full} rounds of a full game with {n} players"
    for p in players:
        held = sum(p.cards.values())
        where, at = f"player {p.name}", {"player": p.name}
        if held < played:
            hint = "" if given is not None else "; if the game ended early (the deck ran out), say rounds = ..."
            out.append(Finding("I1", where, f"{held} citizen card(s) in the dynasty after {said}: every round "
                                            f"each player plays at least one{hint}", WARNING, at))
        elif held > played * hand:
            out.append(Finding("I1", where, f"{held} citizen cards in the dynasty after {said}: more than "
                                            f"a hand of {hand} every round", WARNING, at))
    return out


def check(record: Record, source: str) -> Checked:
    """The majorities held (caste -> player index) and the verdict."""
    deck = record.deck
    players = record.data.player
    findings: list[Finding] = []

    for caste, spec in deck.castes.items():
        total = sum(p.cards.get(caste, 0) for p in players)
        if total > spec.cards:
            held = ", ".join(f"{p.name} {p.cards[caste]}" for p in players if p.cards.get(caste, 0))
            findings.append(Finding("I2", f"caste {deck.label(caste)}",
                                    f"{total} cards at the table ({held}) but the deck has {spec.cards}",
                                    at={"caste": caste}))

    major = majorities(record)
    scores: list[Score] = []
    for i, p in enumerate(players):
        where = f"player {p.name}"
        for caste, n in p.fed.items():
            if n > p.cards.get(caste, 0):
                findings.append(Finding("I4", where, f"{n} {deck.label(caste)} citizen(s) fed but "
                                                     f"{p.cards.get(caste, 0)} held",
                                        at={"player": p.name, "caste": caste}))
        if p.deben < 0:
            findings.append(Finding("I4", where, f"{p.deben} Deben: a player cannot hold fewer than 0",
                                    at={"player": p.name}))
        multiplier: dict[str, int] = {}
        for j, card in enumerate(p.afterlife):
            at = {"player": p.name, "caste": card.caste, "afterlife": j}
            if major.get(card.caste) != i:
                holder = major.get(card.caste)
                why = (f"{players[holder].name} holds it" if holder is not None
                       else "no one holds it (ties give no majority, I3)")
                findings.append(Finding("I4", where, f"afterlife card x{card.multiplier} on the "
                                                     f"{deck.label(card.caste)} majority, which {p.name} "
                                                     f"does not hold: {why}", at=at))
            elif card.caste in multiplier:
                findings.append(Finding("I4", where, f"a second afterlife card (x{card.multiplier}) on the "
                                                     f"{deck.label(card.caste)} majority: one per majority",
                                        at=at))
            else:
                multiplier[card.caste] = card.multiplier

        citizens = sum(n * deck.castes[c].vp for c, n in p.cards.items())
        notes: list[str] = []
        bonus = 0
        for caste in deck.castes:
            if major.get(caste) == i:
                base = deck.castes[caste].cards
                m = multiplier.get(caste, 1)
                bonus += base * m
                notes.append(f"majority {deck.label(caste)}: {base}" + (f" x{m}" if m != 1 else ""))
        bread = sum(min(n, p.cards.get(c, 0)) * deck.castes[c].bread for c, n in p.fed.items())
        deben_vp = max(p.deben, 0) // 3
        notes.append(f"Deben {p.deben}")
        parts = [("citizens", citizens), ("majorities", bonus), ("bread", bread), ("deben", deben_vp)]
        scores.append(Score(p.name, parts, sum(v for _, v in parts), notes))

    findings += round_findings(record)
    winners, tiebreak = winners_of(scores, [p.deben for p in players])
    details = IunuDetails(record.deck_source, {c: players[i].name for c, i in major.items()})
    return Checked(major, Verdict("iunu", source, findings, scores, winners, details, tiebreak or None,
                                  in_progress=record.data.in_progress))
