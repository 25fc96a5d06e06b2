"""IUNU scoring and checks, rules I1-I5 (RULES.md).

- Rounds and hands (I1): 8 rounds with 2 or 4 players, 9 with 3; a hand of 6 cards with
  2 players, 5 with 3-4. Every player plays at least one card a round and at most a hand.

- Majority (I3): strictly more cards of the caste than every other player; a tie gives
  no one the majority, and 0 cards is never a majority.
- Majority bonus (I2, I4): the caste's number of cards in the deck, times the multiplier
  of the one afterlife card assigned to it, if any.
- Bread (I4): for each caste, fed citizens x the caste's bread VP.
- Deben (I4): 1 VP per full 3 Deben.
- Winner (I5): highest total; tied players compare Deben; still tied, the win is shared.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sheetkit.messages import Msg, msg
from sheetkit.checking.verdict import Score

if TYPE_CHECKING:
    from sheetkit.games.iunu.record import Record  # the record as read; the rules only read its fields


ROUNDS = {2: 8, 3: 9, 4: 8}  # I1
HAND = {2: 6, 3: 5, 4: 5}  # I1: the starting hand, refilled each round


def majorities(record: Record) -> dict[str, int]:
    """caste -> index of the player holding its majority (I3)."""
    out: dict[str, int] = {}
    players = record.data.player
    for caste in record.deck.castes:
        counts = [p.cards.get(caste, 0) for p in players]
        top = max(counts)
        if top > 0 and counts.count(top) == 1:
            out[caste] = counts.index(top)
    return out


def winners_of(scores: list[Score], deben: list[int]) -> tuple[list[str], "Msg | str"]:
    """Most points; a tie goes to most Deben; still tied, shared (I5)."""
    best = max(s.total for s in scores)
    tied = [i for i, s in enumerate(scores) if s.total == best]
    if len(tied) == 1:
        return [scores[tied[0]].player], ""
    most = max(deben[i] for i in tied)
    won = [scores[i].player for i in tied if deben[i] == most]
    if len(won) == 1:
        return won, msg("tiebreak.iunu.most_deben", points=best, deben=most)
    return won, msg("tiebreak.iunu.shared", points=best, deben=most)
