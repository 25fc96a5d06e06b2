"""The legal-move question of Level X, asked of the position at the end of a record: for
four dice, every way to group them and what each would do (pawns moved, pawns sent back,
chips, bonus tiles, the end); without dice, what one group of each total 5-10 would do.

Every grouping of the dice is legal (L4); what differs is what it does, so each option is
that grouping played on a copy of the position (`State.play`), the position itself left as
it was. Registered as `moves=` on the game record kind (sheetkit/games/interface.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from sheetkit.messages import msg
from sheetkit.errors import UserError
from sheetkit.games.levelx.rules import DICE, ROWS, Event, State, groupings


def notation(groups) -> str:
    """A grouping as the one-line record notation writes it: "3+4 5 2"."""
    return " ".join("+".join(map(str, g)) for g in groups)


@dataclass(frozen=True, slots=True)
class Option:
    """One grouping of the dice, and what it would do."""

    groups: tuple[tuple[int, ...], ...]
    events: tuple[Event, ...]  # one per group, in order
    ends_game: bool  # the turn triggers the end (L8)
    points: int  # points gained

    @property
    def chips(self) -> list[int]:
        return [e.total for e in self.events if e.chip]

    @property
    def bonuses(self) -> list[int]:
        return [b for e in self.events for b in e.bonuses]

    def to_json(self) -> dict:
        return {"groups": [list(g) for g in self.groups], "notation": notation(self.groups),
                "groups_do": [e.to_json() for e in self.events],
                "chips": self.chips, "bonuses": self.bonuses, "points": self.points, "ends_game": self.ends_game}

    def line(self, lang: str = "en") -> str:
        from sheetkit.messages import text

        parts = [_effect(e, lang) for e in self.events]
        tail = [text("moves.levelx.points", lang, n=self.points)] if self.points else []
        if self.ends_game:
            tail.append(text("moves.levelx.ends_game", lang))
        return f"{notation(self.groups)}: " + "; ".join(parts) + (f"  ({', '.join(tail)})" if tail else "")


def _effect(e: Event, lang: str = "en") -> str:
    from sheetkit.messages import text

    t = lambda mid, **kw: text(mid, lang, **kw)  # noqa: E731
    square = e.square
    if square is None:
        return t("moves.levelx.nothing", total=e.total)
    x = e.x  # the row's X square on the board played on
    if e.moved:
        out = (t("moves.levelx.to_x", total=e.total) if square == x
               else t("moves.levelx.to_square", total=e.total, square=square, of=x))
    else:
        out = t("moves.levelx.stays_on_x", total=e.total) if square == x else t("moves.levelx.nothing", total=e.total)
    if e.bumped:
        out += t("moves.levelx.bumped", player=e.bumped)
    if e.chip:
        out += t("moves.levelx.chip")
    if e.bonuses:
        out += t("moves.levelx.bonus", tiles="+".join(map(str, e.bonuses)))
    return out


@dataclass(frozen=True, slots=True)
class Moves:
    player: str | None  # to move; None once the game is over
    turn: int  # the number of the turn to be played
    dice: tuple[int, ...] | None
    options: tuple[Option, ...]  # with dice: every grouping; without: one group per total 5-10

    def to_json(self) -> dict:
        return {"game": "levelx", "to_move": self.player, "turn": self.turn,
                "dice": list(self.dice) if self.dice is not None else None,
                "over": self.player is None, "options": [o.to_json() for o in self.options]}

    def lines(self, lang: str = "en") -> list[str]:
        from sheetkit.messages import text

        if self.player is None:
            return [text("moves.levelx.over", lang, turn=self.turn - 1)]
        if self.dice is None:
            head = text("moves.levelx.head", lang, turn=self.turn, player=self.player)
        else:
            head = text("moves.levelx.head_dice", lang, turn=self.turn, player=self.player,
                        dice=" ".join(map(str, self.dice)), n=len(self.options))
        return [head] + [f"  {o.line(lang)}" for o in self.options]


def option(state: State, groups) -> Option:
    player = state.player_of_turn(state.turns + 1)
    after, events = state.play([list(g) for g in groups])
    return Option(tuple(tuple(g) for g in groups), tuple(events),
                  state.ended_at is None and after.ended_at is not None,
                  after.score(player) - state.score(player))


def moves(record, checked, dice: tuple[int, ...] | None = None) -> Moves:
    state = checked.state
    if not isinstance(state, State):
        raise UserError(msg("error.levelx.moves_final"))
    turn = state.turns + 1
    if state.over():
        return Moves(None, turn, None if dice is None else tuple(dice), ())
    if dice is None:
        return Moves(state.to_move(), turn, None, tuple(option(state, [[r]]) for r in ROWS))
    dice = tuple(dice)
    if len(dice) != DICE or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        raise UserError(msg("error.levelx.moves_dice", n=DICE, got=" ".join(map(str, dice))))
    return Moves(state.to_move(), turn, dice, tuple(option(state, g) for g in groupings(list(dice))))
