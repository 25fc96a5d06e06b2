"""The toy game's record, rules, check and page entry (see __init__.py)."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel

from sheetkit.checking.replay import replay
from sheetkit.checking.verdict import Finding, Score, Verdict
from sheetkit.errors import UserError
from sheetkit.forms import FormError, integer
from sheetkit.games.interface import Checked, records_of

GOAL = 10


class RecordModel(BaseModel):
    game: str
    kind: str = "game"
    players: list[str]
    moves: list[int] = []
    in_progress: bool = False


@dataclass(frozen=True)
class Record:
    kind: str
    players: tuple[str, ...]
    moves: tuple[int, ...]
    in_progress: bool
    qr: str | None = None
    sheet: None = None


def read_record(data: dict, source: str) -> Record:
    try:
        m = RecordModel.model_validate(data)
    except Exception as e:  # pydantic's own words are enough for a toy
        raise UserError(f"not a Steps record ({type(e).__name__})", source=source) from None
    if len(m.players) < 2:
        raise UserError("Steps needs 2 or more players", source=source, field="players")
    return Record(m.kind, tuple(m.players), tuple(m.moves), m.in_progress)


@dataclass(frozen=True)
class State:
    count: int = 0
    moves: int = 0
    winner: str | None = None


class Rules:
    def __init__(self, players):
        self.players = players

    def initial(self) -> State:
        return State()

    def step(self, s: State, move: int, n: int):
        where = f"move {n}"
        if s.winner is not None:
            return s, [Finding("T3", where, f"{s.winner} reached {GOAL} already: no more moves")]
        if not 1 <= move <= 3:
            return State(s.count, s.moves + 1), [Finding("T1", where, f"a move adds 1, 2 or 3, not {move}")]
        count = s.count + move
        if count > GOAL:
            return State(s.count, s.moves + 1), [Finding("T2", where, f"the count {count} passes {GOAL}")]
        who = self.players[s.moves % len(self.players)]
        return State(count, s.moves + 1, who if count == GOAL else None), []

    def end(self, s: State):
        return [] if s.winner else [Finding("T4", "the game", f"nobody reached {GOAL}")]


def check(record: Record, source: str, prior: Checked | None = None) -> Checked:
    rules = Rules(record.players)
    done = replay(rules, record.moves, finished=not record.in_progress,
                  prior=prior.replayed if prior is not None else None, setup=record.players)
    s = done.state
    scores = [Score(p, [("reached", GOAL if p == s.winner else 0)], 1 if p == s.winner else 0) for p in record.players]
    to_move = record.players[s.moves % len(record.players)] if record.in_progress and s.winner is None else None
    return Checked(s, Verdict("steps", source, done.findings, scores, (s.winner,) if s.winner else (),
                              in_progress=record.in_progress, to_move=to_move), done)


def score(values: dict, lang: str):
    count = values.get("count") or 0
    v = Verdict("steps", "command line", scores=[Score("", [("count", count)], count)])
    return v, ["reached" if count == GOAL else f"{GOAL - count} to go"]


# -- the page --------------------------------------------------------------------------------

def new_records(start, t):
    return [(None, {"game": "steps", "kind": "game", "players": start.players, "in_progress": True, "moves": []})]


def add_move(position, form, t):
    (player, data), = records_of(position)
    if position[0].checked.state.winner is not None:
        raise FormError("the game is over")
    move = integer(form, "step", "step", 1, 3, t, default=None)
    if move is None:
        raise FormError("say how many to add")
    return [(player, dict(data, moves=data["moves"] + [move]))]


def undo(position, t):
    (player, data), = records_of(position)
    if not data["moves"]:
        raise FormError("nothing to undo")
    return [(player, dict(data, moves=data["moves"][:-1]))]


def view(position, t, lang, form):
    s = position[0].checked.state
    return {"toy": {"count": s.count, "to_move": position[0].verdict.to_move, "over": s.winner is not None,
                    "moves": position[0].data["moves"]}}
