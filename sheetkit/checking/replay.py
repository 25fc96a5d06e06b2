"""One replay shape for every game that is a sequence of moves (Yuncos turns, Glüx
placements, Level X turns), in the spirit of boardgame.io: an initial state, a step that
takes one move and gives the next state with that move's findings, and the log of moves
that replays the game. An illegal move is a finding, not an exception.

A game's rules implement `Rules`; `replay` plays a log through them. Games in progress
stop before the end-of-game checks; the web page and the legal-move questions add one
move at a time with `rules.step`, whose cost does not depend on the moves before it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Iterable, Protocol, TypeVar

from sheetkit.checking.verdict import Finding

State = TypeVar("State")
Move = TypeVar("Move")


class Rules(Protocol[State, Move]):
    def initial(self) -> State:
        """The state before the first move."""

    def step(self, state: State, move: Move, number: int) -> tuple[State, list[Finding]]:
        """The state after `move` (the `number`th of the log, from 1) and what is wrong
        with that move. `state` is left as it was: an earlier state stays usable (undo)."""

    def end(self, state: State) -> list[Finding]:
        """What is wrong with the game as a finished game (it should have ended earlier,
        it has not ended yet, ...): not asked of a game in progress."""


@dataclass(frozen=True, slots=True)
class Replayed(Generic[State]):
    state: State
    findings: list[Finding]
    moves: int  # how many moves were played


def replay(rules: Rules[State, Move], moves: Iterable[Move], *, finished: bool = True) -> Replayed[State]:
    state = rules.initial()
    findings: list[Finding] = []
    n = 0
    for n, move in enumerate(moves, 1):
        state, found = rules.step(state, move, n)
        findings += found
    if finished:
        findings += rules.end(state)
    return Replayed(state, findings, n)
