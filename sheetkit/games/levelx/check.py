"""Level X verdicts: a final position checked against L2, L3, L7, L8; a whole game replayed
turn by turn with L4-L8. Scores by L9."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from sheetkit.games.interface import Checked
from sheetkit.games.levelx.record import FinalRecord, GameRecord
from sheetkit.games.levelx.rules import (BONUSES, EMPTY_ROWS_TO_END, ROWS, Rules, chip_points,
                                         full_sets, supply, winners)
from sheetkit.messages import msg
from sheetkit.checking.replay import replay
from sheetkit.checking.verdict import WARNING, Details, Finding, Score, Verdict


def check(record, source: str, prior: Checked | None = None) -> Checked:
    """A whole game replayed turn by turn (the state is the position at its end), or a final
    position checked as it stands (the state is what each player holds)."""
    if isinstance(record, GameRecord):
        return check_game(record, source, prior)
    return check_final(record, source)


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
            out.append(Finding("L2", msg("where.levelx.chips", row=r),
                               msg("finding.levelx.L2_stack", taken=taken, stock=stock[r], n=n), at={"row": r}))
    held = Counter(b for p in order for b in bonuses[p])
    for tile, k in sorted(held.items(), reverse=True):
        if tile not in BONUSES:
            out.append(Finding("L3", msg("where.levelx.bonuses"),
                               msg("finding.levelx.L3_no_tile", tile=tile, tiles=", ".join(map(str, BONUSES))),
                               at={"bonus": tile}))
        elif k > 1:
            owners = [p for p in order if tile in bonuses[p]]
            out.append(Finding("L3", msg("where.levelx.bonuses"),
                               msg("finding.levelx.L3_twice", tile=tile, k=k, owners=", ".join(owners)), at={"bonus": tile}))
    taken_tiles = [t for t in BONUSES if t in held]
    left = [t for t in BONUSES if t not in held]
    if taken_tiles and left and max(left) > min(taken_tiles):
        out.append(Finding("L7", msg("where.levelx.bonuses"),
                           msg("finding.levelx.L7_order", left=max(left), taken=min(taken_tiles)), at={"bonus": max(left)}))
    for p in order:
        sets, got = full_sets(chips[p]), len(bonuses[p])
        if got > sets:
            out.append(Finding("L7", msg("where.levelx.player", player=p),
                               msg("finding.levelx.L7_too_many", got=got, sets=sets), at={"player": p}))
        elif got < sets and left:
            out.append(Finding("L7", msg("where.levelx.player", player=p),
                               msg("finding.levelx.L7_too_few", got=got, sets=sets, left=max(left)), at={"player": p}))
    out += _sets_after_the_last_tile(order, chips, bonuses, held)
    empty = sum(1 for r in ROWS if sum(chips[p][r] for p in order) >= stock[r])
    if left and empty < EMPTY_ROWS_TO_END:
        out.append(Finding("L8", msg("where.levelx.end"),
                           msg("finding.levelx.L8_not_ended", tiles=", ".join(map(str, left)), empty=empty,
                               needed=EMPTY_ROWS_TO_END)))
    return out


@dataclass(frozen=True, slots=True)
class Final:
    """The state of a final position: what each player holds, as the record says."""

    players: tuple[str, ...]  # in turn order
    chips: dict[str, dict[int, int]]
    bonuses: dict[str, list[int]]

    def score(self, player: str) -> int:
        return chip_points(self.chips[player]) + sum(self.bonuses[player])


def _sets_after_the_last_tile(order, chips, bonuses, held: Counter) -> list[Finding]:
    """A complete set without a tile (L7) is possible only once the tiles have run out, and
    then only for who still played: taking the last tile ends the game (L8), so after that
    turn only the players seated later in the round play again (the one who took it may
    finish that turn). Whoever sits before them has played their last turn already."""
    last = BONUSES[-1]
    if any(t not in held for t in BONUSES) or held[last] != 1:
        return []  # tiles are left (asked above) or held wrongly (L3)
    taker = next(p for p in order if last in bonuses[p])
    out = []
    for p in order[:order.index(taker)]:
        sets, got = full_sets(chips[p]), len(bonuses[p])
        if sets > got:
            out.append(Finding("L7", msg("where.levelx.player", player=p),
                               msg("finding.levelx.L7_after_last", sets=sets, got=got, taker=taker, last=last, player=p),
                               at={"player": p}))
    return out


def check_final(record: FinalRecord, source: str) -> Checked:
    order = [p.name for p in record.player]
    chips = {p.name: p.chip_counts() for p in record.player}
    bonuses = {p.name: list(p.bonuses) for p in record.player}
    findings = final_findings(order, chips, bonuses)
    sc, won = scores(order, chips, bonuses)
    verdict = Verdict("levelx", source, findings, sc, won, FinalDetails("final", order[0], holdings(order, chips, bonuses)))
    return Checked(Final(tuple(order), chips, bonuses), verdict)


# -- the whole game -------------------------------------------------------------------------

def check_game(record: GameRecord, source: str, prior: Checked | None = None) -> Checked:
    """The turns replayed with the shared replay (the state is the position at the end). A
    game in progress gets the standings so far, no end-of-game findings and whose turn it
    is; turns recorded after the end are still findings (L8)."""
    rules = Rules(record.players, record.board_spec)  # L1: the rows of the board the record names
    done = replay(rules, record.turn, finished=not record.in_progress, prior=prior.replayed if prior else None,
                  setup=(tuple(record.players), record.board))  # the same table and board: go on from `prior`
    state = done.state
    findings = done.findings
    if record.in_progress:
        findings = findings + rules.overrun(state)
        if state.over() and not state.after_end:
            findings.append(Finding("L8", msg("where.levelx.after_turn", turn=state.turns),
                                    msg("finding.levelx.L8_in_progress_over", ended=state.ended_at),
                                    severity=WARNING, at={"turn": state.turns}))
    order = record.players
    sc, won = scores(order, state.chips, state.bonuses)
    details = GameDetails("game", order[0], holdings(order, state.chips, state.bonuses), state.turns,
                          state.ended_at)
    return Checked(state, Verdict("levelx", source, findings, sc, won, details,
                                  in_progress=record.in_progress,
                                  to_move=state.to_move() if record.in_progress else None), done)
