"""Checking an IUNU game record (I2-I5): the majorities, every player's score, the winner(s)."""

from __future__ import annotations

from dataclasses import dataclass

from sheetkit.messages import Msg, msg
from sheetkit.checking.verdict import WARNING, Details, Finding, Score, Verdict
from sheetkit.games.interface import Checked
from sheetkit.games.iunu.record import KNOWN_CASTES, Record, Tally
from sheetkit.games.iunu.rules import HAND, ROUNDS, majorities, winners_of


@dataclass(frozen=True, slots=True)
class IunuDetails(Details):
    OMIT_IF_NONE = ("deck",)
    deck: str | None  # the deck file the record points to, or "inline"; None for a pad's tally
    majorities: dict[str, str]  # caste -> the player holding its majority (I3)


def caste(deck, key: str) -> "str | Msg":
    """A caste's name: as the deck file names it, else the caste's own word (Farmer, Granjero);
    with no deck (a pad's tally) the caste's word or its key."""
    if deck is not None and deck.castes[key].name:
        return deck.castes[key].name
    return msg(f"iunu.caste.{key}") if key in KNOWN_CASTES else key.capitalize()


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
        out.append(Finding("I1", msg("where.iunu.rounds"), msg("finding.iunu.I1_rounds", given=given, n=n, full=full),
                           at={"rounds": given}))
    played = min(given, full) if given is not None else full
    said = (msg("iunu.rounds_played", n=played) if given is not None
            else msg("iunu.full_game", full=full, n=n))
    for p in players:
        held = sum(p.cards.values())
        where, at = msg("where.iunu.player", player=p.name), {"player": p.name}
        if held < played:
            key = "finding.iunu.I1_too_few" if given is not None else "finding.iunu.I1_too_few_hint"
            out.append(Finding("I1", where, msg(key, held=held, after=said), WARNING, at))
        elif held > played * hand:
            out.append(Finding("I1", where, msg("finding.iunu.I1_too_many", held=held, after=said, hand=hand),
                               WARNING, at))
    return out


def majority_note(deck, key: str, base: int, m: int) -> Msg:
    return (msg("iunu.majority_times", caste=caste(deck, key), base=base, x=m) if m != 1
            else msg("iunu.majority", caste=caste(deck, key), base=base))


def check_tally(record: Tally, source: str) -> Checked:
    """A score pad's tally: each player's parts as the pad has them (I4), a majority held by
    one player at most (I3), the pad's totals against their parts; the majorities held
    (caste -> player index) and the verdict."""
    data = record.data
    players = data.player
    findings: list[Finding] = []
    major: dict[str, int] = {}
    for key in data.bonus:
        holders = [i for i, p in enumerate(players) if key in p.majorities]
        if len(holders) > 1:
            findings.append(Finding("I3", msg("where.iunu.caste", caste=caste(None, key)),
                                    msg("finding.iunu.I3_shared", caste=caste(None, key),
                                        players=", ".join(players[i].name for i in holders)), at={"caste": key}))
        if holders:
            major[key] = holders[0]
    scores: list[Score] = []
    for p in players:
        where = msg("where.iunu.player", player=p.name)
        if p.deben < 0:
            findings.append(Finding("I4", where, msg("finding.iunu.I4_deben", deben=p.deben), at={"player": p.name}))
        notes: list = [majority_note(None, k, data.bonus[k], m) for k, m in p.majorities.items()]
        notes.append(f"Deben {p.deben}")
        parts = [("citizens", p.citizens), ("majorities", sum(data.bonus[k] * m for k, m in p.majorities.items())),
                 ("bread", p.bread), ("deben", max(p.deben, 0) // 3)]
        total = sum(v for _, v in parts)
        if p.total is not None and p.total != total:
            findings.append(Finding("I4", where, msg("finding.iunu.I4_total", written=p.total,
                                                     parts=" + ".join(str(v) for _, v in parts) + f" = {total}"),
                                    at={"player": p.name, "total": p.total}))
        scores.append(Score(p.name, parts, total, notes))
    winners, tiebreak = winners_of(scores, [p.deben for p in players])
    details = IunuDetails(None, {c: players[i].name for c, i in major.items()})
    return Checked(major, Verdict("iunu", source, findings, scores, winners, details, tiebreak or None))


def check(record: "Record | Tally", source: str) -> Checked:
    """The majorities held (caste -> player index) and the verdict."""
    if record.kind == "tally":
        return check_tally(record, source)
    deck = record.deck
    players = record.data.player
    findings: list[Finding] = []

    for key, spec in deck.castes.items():
        total = sum(p.cards.get(key, 0) for p in players)
        if total > spec.cards:
            held = ", ".join(f"{p.name} {p.cards[key]}" for p in players if p.cards.get(key, 0))
            findings.append(Finding("I2", msg("where.iunu.caste", caste=caste(deck, key)),
                                    msg("finding.iunu.I2_cards", total=total, held=held, deck=spec.cards),
                                    at={"caste": key}))

    major = majorities(record)
    scores: list[Score] = []
    for i, p in enumerate(players):
        where = msg("where.iunu.player", player=p.name)
        for key, n in p.fed.items():
            if n > p.cards.get(key, 0):
                findings.append(Finding("I4", where, msg("finding.iunu.I4_fed", n=n, caste=caste(deck, key),
                                                         held=p.cards.get(key, 0)),
                                        at={"player": p.name, "caste": key}))
        if p.deben < 0:
            findings.append(Finding("I4", where, msg("finding.iunu.I4_deben", deben=p.deben), at={"player": p.name}))
        multiplier: dict[str, int] = {}
        for j, card in enumerate(p.afterlife):
            at = {"player": p.name, "caste": card.caste, "afterlife": j}
            if major.get(card.caste) != i:
                holder = major.get(card.caste)
                why = (msg("iunu.held_by", player=players[holder].name) if holder is not None
                       else msg("iunu.held_by_none"))
                findings.append(Finding("I4", where, msg("finding.iunu.I4_afterlife_not_held", x=card.multiplier,
                                                         caste=caste(deck, card.caste), player=p.name, why=why),
                                        at=at))
            elif card.caste in multiplier:
                findings.append(Finding("I4", where, msg("finding.iunu.I4_afterlife_twice", x=card.multiplier,
                                                         caste=caste(deck, card.caste)), at=at))
            else:
                multiplier[card.caste] = card.multiplier

        citizens = sum(n * deck.castes[c].vp for c, n in p.cards.items())
        notes: list = []
        bonus = 0
        for key in deck.castes:
            if major.get(key) == i:
                base = deck.castes[key].cards
                m = multiplier.get(key, 1)
                bonus += base * m
                notes.append(majority_note(deck, key, base, m))
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
