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
from typing import Any, Generic, Iterable, Protocol, TypeVar

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
    # what a later replay of the same game with more moves goes on from (`replay(prior=)`):
    log: tuple = ()  # the moves played
    setup: Any = None  # what the rules were made from (None: a replay never goes on from this one)
    stepped: tuple[Finding, ...] = ()  # the moves' findings, without the end-of-game ones
    rules: Any = None  # the rules that played them


def replay(rules: Rules[State, Move], moves: Iterable[Move], *, finished: bool = True,
           prior: Replayed | None = None, setup: Any = None) -> Replayed[State]:
    """The moves played from the initial state. `prior`, an earlier replay of the same game:
    when it was made under the same `setup` and its moves begin these, play goes on from its
    state, so one move more costs one step (the web page keeps the replay of a play in
    progress between requests). The answer is the same either way; the tests compare."""
    moves = list(moves)
    if (prior is not None and setup is not None and prior.setup == setup and len(prior.log) <= len(moves)
            and all(a is b or a == b for a, b in zip(prior.log, moves))):  # a move read before is the same object
        state, findings, done = prior.state, list(prior.stepped), len(prior.log)
        go_on = getattr(rules, "go_on_from", None)  # what the rules learnt while playing (Yuncos' bit table)
        if go_on is not None:
            go_on(prior.rules)
    else:  # (the initial state only when not going on: the games make it without side effects)
        state, findings, done = rules.initial(), [], 0
    for n in range(done, len(moves)):
        state, found = rules.step(state, moves[n], n + 1)
        findings += found
    stepped = tuple(findings)
    if finished:
        findings += rules.end(state)
    return Replayed(state, findings, len(moves), tuple(moves), setup, stepped, rules)
