"""Level X verdicts: a final position checked against L2, L3, L7, L8; a whole game replayed
turn by turn with L4-L8. Scores by L9."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from sheetkit.games.interface import Checked
from sheetkit.games.levelx.record import FinalRecord, GameRecord
from sheetkit.games.levelx.rules import (BONUSES, EMPTY_ROWS_TO_END, ROWS, Game, chip_points,
                                         full_sets, is_partition, supply, winners)
from sheetkit.checking.verdict import Details, Finding, Score, Verdict


def check(record, source: str) -> Checked:
    """A whole game replayed turn by turn (the state is the Game at its end), or a final
    position checked as it stands (the state is the record)."""
    if isinstance(record, GameRecord):
        return check_game(record, source)
    return Checked(record, check_final(record, source))


def scores(order: list[str], chips: dict[str, dict[int, int]],
           bonuses: dict[str, list[int]]) -> tuple[list[Score], list[str]]:
    out = []
    for i, name in enumerate(order):
        c = chips[name]
        parts = [(f"{r}x{c[r]}", r * c[r]) for r in ROWS if c[r]] + [("bonuses", sum(bonuses[name]))]
        notes = ["(1)"] if i == 0 else []
        out.append(Score(name, parts, chip_points(c) + sum(bonuses[name]), notes))
    return out, winners({s.player: s.total for s in out})


@dataclass(frozen=True, slots=True)
class Holding:
    """What a player holds at the end: chips per row value, and the bonus tiles taken."""

    chips: dict[int, int]
    bonuses: tuple[int, ...]

    def to_json(self) -> dict:
        return {"chips": {str(r): self.chips[r] for r in ROWS}, "bonuses": list(self.bonuses)}


@dataclass(frozen=True, slots=True)
class FinalDetails(Details):
    kind: str  # "final" or "game"
    first_player: str
    players: dict[str, Holding]  # in turn order


@dataclass(frozen=True, slots=True)
class GameDetails(FinalDetails):
    turns: int
    ended_on_turn: int | None  # the turn that triggered the end (L8), if it came


def holdings(order, chips, bonuses) -> dict[str, Holding]:
    return {p: Holding(dict(chips[p]), tuple(bonuses[p])) for p in order}


# -- the final position ---------------------------------------------------------------------

def final_findings(order: list[str], chips: dict[str, dict[int, int]],
                   bonuses: dict[str, list[int]]) -> list[Finding]:
    out: list[Finding] = []
    n = len(order)
    stock = supply(n)
    for r in ROWS:
        taken = sum(chips[p][r] for p in order)
        if taken > stock[r]:
            out.append(Finding("L2", f"chips of {r}",
                               f"{taken} at the table; the stack has {stock[r]} with {n} players",
                               at={"row": r}))
    held = Counter(b for p in order for b in bonuses[p])
    for tile, k in sorted(held.items(), reverse=True):
        if tile not in BONUSES:
            out.append(Finding("L3", "bonuses", f"there is no bonus tile worth {tile} "
                                                f"(tiles: {', '.join(map(str, BONUSES))})", at={"bonus": tile}))
        elif k > 1:
            owners = [p for p in order if tile in bonuses[p]]
            out.append(Finding("L3", "bonuses", f"the {tile} tile is held {k} times ({', '.join(owners)}); "
                                                "there is one", at={"bonus": tile}))
    taken_tiles = [t for t in BONUSES if t in held]
    left = [t for t in BONUSES if t not in held]
    if taken_tiles and left and max(left) > min(taken_tiles):
        out.append(Finding("L7", "bonuses", f"the {max(left)} tile is still there but the "
                                            f"{min(taken_tiles)} tile was taken: bonuses go highest first",
                           at={"bonus": max(left)}))
    for p in order:
        sets, got = full_sets(chips[p]), len(bonuses[p])
        if got > sets:
            out.append(Finding("L7", f"player {p}", f"{got} bonus tile(s) but {sets} complete set(s) "
                                                     "of chips 5-10", at={"player": p}))
        elif got < sets and left:
            out.append(Finding("L7", f"player {p}", f"{sets} complete set(s) but {got} bonus tile(s) while "
                                                     f"the {max(left)} tile is left: a bonus is taken as "
                                                     "soon as a set completes", at={"player": p}))
    empty = sum(1 for r in ROWS if sum(chips[p][r] for p in order) >= stock[r])
    if left and empty < EMPTY_ROWS_TO_END:
        out.append(Finding("L8", "end", f"the game has not ended: bonus tiles are left "
                                        f"({', '.join(map(str, left))}) and {empty} row(s) have no chips, "
                                        f"not {EMPTY_ROWS_TO_END}"))
    return out


def check_final(record: FinalRecord, source: str) -> Verdict:
    order = [p.name for p in record.player]
    chips = {p.name: p.chip_counts() for p in record.player}
    bonuses = {p.name: list(p.bonuses) for p in record.player}
    findings = final_findings(order, chips, bonuses)
    sc, won = scores(order, chips, bonuses)
    return Verdict("levelx", source, findings, sc, won, FinalDetails("final", order[0], holdings(order, chips, bonuses)))


# -- the whole game -------------------------------------------------------------------------

def replay(record: GameRecord) -> tuple[Game, list[Finding]]:
    """Play the record's turns on a fresh board; findings name the rule and the turn."""
    game = Game(record.players)
    findings: list[Finding] = []
    bumps: dict[tuple[str, int], tuple[str, int]] = {}  # (player, row) -> (by whom, turn), last bump
    for i, t in enumerate(record.turn):
        num = i + 1
        where = f"turn {num}"
        at = {"turn": num}
        if game.over():
            findings.append(Finding("L8", where, f"the game was over after turn {game.last_turn()} "
                                                 f"(the end came on turn {game.ended_at} and that round "
                                                 f"is complete); {len(record.turn) - i} more turn(s) recorded",
                                    at=at))
            break
        expected = game.player_of_turn(num)
        if t.player is not None and t.player != expected:
            findings.append(Finding("L8", where, f"{t.player} played, but it was {expected}'s turn "
                                                 f"(turns go in the order {', '.join(record.players)})", at=at))
        if not is_partition(t.dice, t.groups):
            findings.append(Finding("L4", where, f"groups {t.groups} do not use each of the dice "
                                                 f"{t.dice} exactly once", at=at))
        events = game.play_turn(t.groups)
        for e in events:
            if e.bumped:
                bumps[e.bumped, e.total] = (expected, num)
        got_chips = [e.total for e in events if e.chip]
        got_bonus = [b for e in events for b in e.bonuses]
        if t.chips is not None and sorted(t.chips) != sorted(got_chips):
            why = (_why_no_chip(game, expected, t.groups, t.chips, got_chips, bumps)
                   or _why_chip(events, t.chips))
            findings.append(Finding("L6", where, f"recorded chips {sorted(t.chips)} but the dice give "
                                                 f"{sorted(got_chips)}{why}", at=at))
        if t.bonuses is not None and sorted(t.bonuses) != sorted(got_bonus):
            sets, tiles = full_sets(game.chips[expected]), len(game.bonuses[expected])
            left = ", ".join(map(str, game.bonus_left)) or "none"
            findings.append(Finding("L7", where, f"recorded bonus tiles {sorted(t.bonuses)} but the "
                                                 f"chips give {sorted(got_bonus)} ({expected} holds {sets} "
                                                 f"complete set(s) of chips 5-10 and {tiles} tile(s) after "
                                                 f"this turn; tiles left: {left})", at=at))
    if not game.over():
        last = len(record.turn)
        if game.ended_at is None:
            findings.append(Finding("L8", f"after turn {last}", "the record stops before the game ends: "
                                    f"bonus tiles are left ({', '.join(map(str, game.bonus_left))}) and "
                                    f"{game.empty_rows()} row(s) have no chips", at={"turn": last}))
        else:
            missing = [game.player_of_turn(k) for k in range(game.turns + 1, game.last_turn() + 1)]
            findings.append(Finding("L8", f"after turn {last}", f"the end came on turn {game.ended_at}; "
                                    f"the round is not complete: {', '.join(missing)} still play(s)",
                                    at={"turn": last}))
    return game, findings


def _why_chip(events, claimed: list[int]) -> str:
    """Why a chip left out of the record was taken, for the first such value (L6)."""
    missing = sorted((Counter(e.total for e in events if e.chip) - Counter(claimed)).elements())
    if not missing:
        return ""
    r = missing[0]
    first = next(e for e in events if e.chip and e.total == r)
    if first.moved:
        return f" (the pawn in row {r} reaches X and the row has a chip: it is taken, L6)"
    return f" (the pawn in row {r} is already on X: each group totalling {r} takes a chip while the row has one, L6)"


def _why_no_chip(game: Game, player: str, groups: list[list[int]], claimed: list[int], got: list[int],
                 bumps: dict[tuple[str, int], tuple[str, int]]) -> str:
    """Why a claimed chip was not taken, for the first value claimed too often (L6):
    after the turn, since only the player moves on their turn."""
    extra = sorted((Counter(claimed) - Counter(got)).elements())
    if not extra:
        return ""
    r = extra[0]
    rolled = sum(1 for g in groups if sum(g) == r)
    if rolled == 0:
        return f" (no group totals {r})"
    if Counter(claimed)[r] > rolled:
        return f" ({'one group totals' if rolled == 1 else f'{rolled} groups total'} {r}: one chip per group at most)"
    if game.on_x[r] != player:
        why = f" (the pawn in row {r} is not on X"
        if (player, r) in bumps:
            by, turn = bumps[player, r]
            why += f": {by} sent it back to the start on turn {turn}, L5"
        elif game.on_x[r]:
            why += f"; {game.on_x[r]} holds it"
        return why + ")"
    if game.stacks[r] == 0:
        return f" (row {r} has no chips left)"
    return f" (a group that leaves the pawn in row {r} short of X takes no chip)"


def check_game(record: GameRecord, source: str) -> Checked:
    game, findings = replay(record)
    order = record.players
    sc, won = scores(order, game.chips, game.bonuses)
    details = GameDetails("game", order[0], holdings(order, game.chips, game.bonuses), game.turns, game.ended_at)
    return Checked(game, Verdict("levelx", source, findings, sc, won, details))
