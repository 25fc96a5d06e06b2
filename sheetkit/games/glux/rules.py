"""Glüx rules as pure functions: placements (G4-G10), chips (G1) and scoring (G11-G13).

A game is replayed in the shared shape of sheetkit.checking.replay: `GluxRules` gives the
state before the first placement, `step` the state after one placement with what is wrong
with it, and `end` what is wrong with the game as a finished one (G10). States are
immutable, and a step costs the same early or late in a game: the board is one stack per
square in a tuple of fixed length, and the player due is found without looking back.
Legality is also a question asked of a state (`counted_placements`, `reaching`), which is
what the legal-move question (moves.py) asks. Nothing here imports pydantic: the board side
(the layout model) comes in from the caller, so the quick tally loads fast.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from sheetkit.grid import square_name
from sheetkit.messages import Msg, msg
from sheetkit.checking.verdict import Details, Finding, Score, Verdict

if TYPE_CHECKING:
    from sheetkit.games.glux.layout import GluxBoard

Square = tuple[int, int]
PAIRS: tuple[tuple[int, int], ...] = ((1, 6), (2, 5), (3, 4))  # G1: the two faces of a chip
CHIPS = 24  # per player (G1)
PER_PAIR = 8
FULL = 2  # chips on a square that make it full (G6)
DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))
FIRST_VP, SECOND_VP = 4, 2


def pair_of(face: int) -> tuple[int, int]:
    """The chip (its two faces) that shows `face`."""
    return next(p for p in PAIRS if face in p)


@dataclass(frozen=True, slots=True)
class Chip:
    owner: str
    pips: int  # visible face


@dataclass(frozen=True, slots=True)
class Board:
    """Chips on the squares of a board side: a stack per square, bottom first, in a tuple
    with one entry per square. Immutable: `put` gives a new board."""

    side: GluxBoard
    cells: tuple[tuple[Chip, ...], ...]

    @classmethod
    def empty(cls, side: GluxBoard) -> Board:
        return cls(side, ((),) * (side.width * side.height))

    def stack(self, sq: Square) -> tuple[Chip, ...]:
        return self.cells[sq[1] * self.side.width + sq[0]] if self.side.on_board(sq) else ()

    def count(self, sq: Square) -> int:
        return len(self.stack(sq))

    def top(self, sq: Square) -> Chip | None:
        s = self.stack(sq)
        return s[-1] if s else None

    def put(self, sq: Square, chip: Chip) -> Board:
        i = sq[1] * self.side.width + sq[0]
        return Board(self.side, self.cells[:i] + (self.cells[i] + (chip,),) + self.cells[i + 1:])

    @property
    def stacks(self) -> dict[Square, tuple[Chip, ...]]:
        """The squares holding chips, in reading order."""
        w = self.side.width
        return {(i % w, i // w): s for i, s in enumerate(self.cells) if s}

    def tops(self) -> dict[Square, Chip]:
        return {sq: s[-1] for sq, s in self.stacks.items()}


@dataclass(frozen=True, slots=True)
class Move:
    origin: Square
    dest: Square


def counted_placements(board: Board, player: str, foreign_starts: set[Square] | dict) -> list[Move]:
    """Every placement by counting (G4-G7) open to `player`, origins in reading order."""
    return list(_counted(board, player, foreign_starts))


def _counted(board: Board, player: str, foreign_starts: set[Square] | dict):
    for sq, chip in board.tops().items():
        if chip.owner != player:
            continue
        for dx, dy in DIRS:
            dest = (sq[0] + dx * chip.pips, sq[1] + dy * chip.pips)
            if not board.side.on_board(dest) or board.count(dest) >= FULL or dest in foreign_starts:
                continue
            if any(board.count((sq[0] + dx * k, sq[1] + dy * k)) for k in range(1, chip.pips)):
                continue
            yield Move(sq, dest)


def reaching(board: Board, player: str, dest: Square) -> tuple[list[Square], Square | None]:
    """The squares whose top chip is `player`'s and counts exactly to `dest` on a free path
    (G4, G5), looking out from `dest`; and, when there is none, the first chip blocking
    the path of a chip of theirs that shows the right count (G5), else None."""
    origins: list[Square] = []
    blocker = None
    for dx, dy in DIRS:
        first = None  # the nearest chip in this direction
        for k in range(1, 7):
            sq = (dest[0] - dx * k, dest[1] - dy * k)
            if not board.side.on_board(sq):
                break
            top = board.top(sq)
            if top is None:
                continue
            if top.owner == player and top.pips == k:
                if first is None:
                    origins.append(sq)
                elif blocker is None:
                    blocker = first
            first = first or sq
    return sorted(origins, key=lambda s: (s[1], s[0])), (None if origins else blocker)


def check_counted(board: Board, player: str, origin: Square, dest: Square,
                  foreign_starts: dict[Square, str]) -> list[tuple[str, Square, str]]:
    """(rule, square, sentence) for each way the counted placement origin -> dest breaks G4-G7."""
    g = board.side
    out: list[tuple[str, Square, str]] = []
    if not g.on_board(origin):
        return [("G4", origin, msg("finding.glux.G4_origin_off", square=square_name(origin)))]
    if not g.on_board(dest):
        return [("G4", dest, msg("finding.glux.G4_dest_off", square=square_name(dest)))]
    top = board.top(origin)
    if top is None:
        out.append(("G4", origin, msg("finding.glux.G4_no_chip", square=square_name(origin))))
    elif top.owner != player:
        out.append(("G4", origin, msg("finding.glux.G4_not_yours", square=square_name(origin), owner=top.owner,
                                      player=player)))
    dx, dy = dest[0] - origin[0], dest[1] - origin[1]
    if dx and dy:
        out.append(("G4", dest, msg("finding.glux.G4_not_straight", origin=square_name(origin), dest=square_name(dest))))
    elif not dx and not dy:
        out.append(("G4", dest, msg("finding.glux.G4_same_square")))
    else:
        dist = abs(dx) + abs(dy)
        if top is not None and top.owner == player and dist != top.pips:
            out.append(("G4", dest, msg("finding.glux.G4_distance", origin=square_name(origin), dest=square_name(dest),
                                        dist=dist, pips=top.pips)))
        ux, uy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
        blocked = [(origin[0] + ux * k, origin[1] + uy * k) for k in range(1, dist)
                   if board.count((origin[0] + ux * k, origin[1] + uy * k))]
        if blocked:
            out.append(("G5", blocked[0], msg("finding.glux.G5_blocked", square=square_name(blocked[0]))))
    out += _destination(board, dest, foreign_starts)
    return out


def _destination(board: Board, dest: Square, foreign_starts: dict[Square, str]) -> list[tuple[str, Square, str]]:
    out = []
    if board.count(dest) >= FULL:
        out.append(("G6", dest, msg("finding.glux.G6_full", square=square_name(dest), n=board.count(dest))))
    if dest in foreign_starts:
        out.append(("G7", dest, msg("finding.glux.G7_foreign_start", square=square_name(dest), player=foreign_starts[dest])))
    return out


def check_reached(board: Board, player: str, dest: Square, foreign_starts: dict[Square, str],
                  ) -> tuple[list[Square], list[tuple[str, Square, str]]]:
    """A placement written without its origin: the origins that reach `dest` and what is
    wrong with it (G4-G7)."""
    if not board.side.on_board(dest):
        return [], [("G4", dest, msg("finding.glux.G4_dest_off", square=square_name(dest)))]
    origins, blocker = reaching(board, player, dest)
    out = []
    if blocker is not None:
        out.append(("G5", blocker, msg("finding.glux.G5_nothing_reaches", player=player, square=square_name(dest),
                                       blocker=square_name(blocker))))
    elif not origins:
        covered = _covered(board, player, dest)
        if covered is not None:
            out.append(("G4", covered, msg("finding.glux.G4_covered", player=player, square=square_name(dest),
                                            origin=square_name(covered), owner=board.top(covered).owner)))
        else:
            out.append(("G4", dest, msg("finding.glux.G4_nothing_counts", player=player, square=square_name(dest))))
    return origins, out + _destination(board, dest, foreign_starts)


def _covered(board: Board, player: str, dest: Square) -> Square | None:
    """The nearest square in a straight line from `dest` holding a chip of `player`'s that
    shows the count to `dest` but lies under another chip (only a top chip counts, G4)."""
    for k in range(1, 7):
        for dx, dy in DIRS:
            sq = (dest[0] - dx * k, dest[1] - dy * k)
            if any(c.owner == player and c.pips == k for c in board.stack(sq)[:-1]):
                return sq
    return None


# ---------------------------------------------------------------- replaying a game


@dataclass(frozen=True, slots=True)
class PlayerSetup:
    name: str
    letter: str
    start: Square
    start_chip: int | None  # visible face of the chip put on the start square at setup (game records)


@dataclass(frozen=True, slots=True)
class Placement:
    """One line of a game: counted from `origin` to `dest` (the long form), to `dest` from
    whichever chip reaches it (the short form: no origin), or the start placement (G8:
    neither)."""

    player: str
    face: int
    origin: Square | None = None
    dest: Square | None = None
    line: int = 0  # line in the record, for messages

    @property
    def start(self) -> bool:
        return self.origin is None and self.dest is None

    @property
    def short(self) -> bool:
        return self.origin is None and self.dest is not None


@dataclass(frozen=True, slots=True)
class State:
    """A game after some placements. Per seat (the players in the order they place):
    chips placed after setup, chips of each pair (the start chip included), the turn of
    the start placement (G8) and the turn before which the player was out (G9)."""

    board: Board
    players: tuple[PlayerSetup, ...]
    placed: tuple[int, ...]
    pairs: tuple[tuple[int, ...], ...]
    used: tuple[int | None, ...]
    out: tuple[int | None, ...]
    seat: int = 0  # the seat from which the player due is looked for
    turns: int = 0  # placements replayed
    over: bool = False  # a placement came after the end of the game (G10, reported once)

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]

    def used_start(self) -> dict[str, int]:
        return {p.name: t for p, t in zip(self.players, self.used) if t is not None}

    def out_since(self) -> dict[str, int]:
        return {p.name: t for p, t in zip(self.players, self.out) if t is not None}


def _where(turn: int, player: str, sq: Square | None) -> Msg:
    if sq is None:
        return msg("where.glux.turn", turn=turn, player=player)
    return msg("where.glux.turn_square", turn=turn, player=player, square=square_name(sq))


def _set(values: tuple, i: int, value) -> tuple:
    return values[:i] + (value,) + values[i + 1:]


class GluxRules:
    """G1 and G4-G10 for one table: a board side and the players in seat order.

    An illegal placement is reported and still put on the board when its destination is
    on the board, so that later turns are judged against what lay on the table."""

    def __init__(self, side: GluxBoard, players: list[PlayerSetup] | tuple[PlayerSetup, ...]):
        self.side = side
        self.players = tuple(players)
        self.seat_of = {p.name: i for i, p in enumerate(self.players)}
        self.starts = {p.start: p.name for p in self.players}
        self._foreign = [{sq: who for sq, who in self.starts.items() if who != p.name} for p in self.players]

    def initial(self) -> State:
        board = Board.empty(self.side)
        pairs = []
        for p in self.players:
            board = board.put(p.start, Chip(p.name, p.start_chip or 0))
            counts = [0] * len(PAIRS)
            if p.start_chip:
                counts[PAIRS.index(pair_of(p.start_chip))] += 1
            pairs.append(tuple(counts))
        n = len(self.players)
        return State(board, self.players, (0,) * n, tuple(pairs), (None,) * n, (None,) * n)

    # ---- questions asked of a state

    def foreign(self, seat: int) -> dict[Square, str]:
        """The other players' start squares (G7)."""
        return self._foreign[seat]

    def can_count(self, s: State, seat: int) -> bool:
        # the first placement found answers it: a full board has dozens
        return next(_counted(s.board, self.players[seat].name, self._foreign[seat]), None) is not None

    def can_start(self, s: State, seat: int) -> bool:
        return s.used[seat] is None and s.board.count(self.players[seat].start) < FULL

    @staticmethod
    def has_chips(s: State, seat: int) -> bool:
        return s.placed[seat] < CHIPS - 1

    def due(self, s: State, turn: int) -> tuple[int | None, tuple[int | None, ...]]:
        """The seat due to place from `s.seat` on, passing over (and putting out, G9) those
        who can neither count nor use the start option; None when nobody can place."""
        n = len(self.players)
        out = s.out
        for k in range(n):
            seat = (s.seat + k) % n
            if out[seat] is not None or not self.has_chips(s, seat):
                continue
            if not self.can_count(s, seat) and not self.can_start(s, seat):
                out = _set(out, seat, turn)
                continue
            return seat, out
        return None, out

    def settle(self, s: State) -> State:
        """`s` with the players put out who could not place when their turn came at the
        end of the record; and its `seat` on the player to move, if any."""
        seat, out = self.due(s, s.turns + 1)
        return replace(s, out=out, seat=s.seat if seat is None else seat)

    def to_move(self, s: State) -> str | None:
        if s.over:
            return None
        seat, _ = self.due(s, s.turns + 1)
        return None if seat is None else self.players[seat].name

    def _first_in_turn(self, s: State) -> int | None:
        """The next seat that is in the game and has a chip, not asking whether it can place."""
        n = len(self.players)
        for k in range(n):
            seat = (s.seat + k) % n
            if s.out[seat] is None and self.has_chips(s, seat):
                return seat
        return None

    def _plainly_legal(self, s: State, seat: int, pl: Placement) -> bool:
        """The placement is legal on its face, so the player could place: no need to ask
        whether they could have (G9), which would mean looking at all their chips."""
        if pl.start:
            return self.can_start(s, seat)
        if pl.short:
            origins, problems = check_reached(s.board, pl.player, pl.dest, self._foreign[seat])
            return (not problems and bool(origins)) or (pl.dest == self.players[seat].start and self.can_start(s, seat))
        return not check_counted(s.board, pl.player, pl.origin, pl.dest, self._foreign[seat])

    # ---- the replay

    def step(self, s: State, pl: Placement, turn: int) -> tuple[State, list[Finding]]:
        findings: list[Finding] = []
        s = replace(s, turns=turn)
        if s.over:
            return s, findings

        def add(rule: str, player: str, sq: Square | None, said: Msg) -> None:
            at: dict = {"turn": turn, "player": player}
            if sq is not None:
                at["square"] = square_name(sq)
            findings.append(Finding(rule, _where(turn, player, sq), said, at=at))

        mover = pl.player
        seat = self.seat_of[mover]
        if self._first_in_turn(s) == seat and self._plainly_legal(s, seat, pl):
            due, out = seat, s.out
        else:
            due, out = self.due(s, turn)
        s = replace(s, out=out)
        if due is None:
            add("G10", mover, None, msg("finding.glux.G10_over"))
            return replace(s, over=True), findings
        spare = self.has_chips(s, seat)  # the chip placed exists
        if seat != due:
            who = self.players[due].name
            if not spare:
                add("G1", mover, None, msg("finding.glux.G1_no_chip_left", player=mover, chips=CHIPS))
            elif out[seat] is not None:
                why = (msg("glux.start_used", turn=s.used[seat]) if s.used[seat] is not None
                       else msg("glux.start_full", square=square_name(self.players[seat].start)))
                add("G9", mover, None, msg("finding.glux.G9_out", player=mover, turn=out[seat], why=why))
            elif not self.can_count(s, due):
                add("G9", who, None, msg("finding.glux.G9_had_to_start", player=who, mover=mover))
            else:
                add("order", mover, None, msg("finding.glux.order", player=who))
        own_start = self.players[seat].start
        used = s.used
        start = pl.start
        problems: list[tuple[str, Square, str]] = []
        if pl.short:
            origins, problems = check_reached(s.board, mover, pl.dest, self._foreign[seat])
            # Onto one's own start square with no chip reaching it by counting: the start option.
            start = pl.dest == own_start and not origins
        if start:
            dest = pl.dest if pl.dest is not None else own_start
            if used[seat] is not None:
                add("G8", mover, dest, msg("finding.glux.G8_used", turn=used[seat]))
            if dest != own_start:
                add("G8", mover, dest, msg("finding.glux.G8_own_start", player=mover, square=square_name(own_start)))
            if self.side.on_board(dest) and s.board.count(dest) >= FULL:
                add("G6", mover, dest, msg("finding.glux.G6_full", square=square_name(dest), n=s.board.count(dest)))
            if used[seat] is None:
                used = _set(used, seat, turn)
        else:
            dest = pl.dest
            if not pl.short:
                problems = check_counted(s.board, mover, pl.origin, dest, self._foreign[seat])
            for rule, sq, said in problems:
                add(rule, mover, sq, said)
            if problems and not self.can_count(s, seat) and self.can_start(s, seat):
                add("G9", mover, own_start, msg("finding.glux.G9_must_start", square=square_name(own_start)))
        pr = PAIRS.index(pair_of(pl.face))
        counts = _set(s.pairs[seat], pr, s.pairs[seat][pr] + 1)
        if spare and counts[pr] == PER_PAIR + 1:  # (a chip beyond the 24th is reported above)
            a, b = PAIRS[pr]
            add("G1", mover, dest, msg("finding.glux.G1_pair", player=mover, nth=PER_PAIR + 1, pair=f"{a}|{b}",
                                       most=PER_PAIR))
        board = s.board
        if dest is not None and self.side.on_board(dest):
            board = board.put(dest, Chip(mover, pl.face))
        return replace(s, board=board, placed=_set(s.placed, seat, s.placed[seat] + 1),
                       pairs=_set(s.pairs, seat, counts), used=used,
                       seat=(seat + 1) % len(self.players)), findings

    def end(self, s: State) -> list[Finding]:
        """G10: the record runs to the end of the game."""
        if s.over:
            return []
        turn = s.turns + 1
        seat, out = self.due(s, turn)
        if seat is None:
            return []
        due = self.players[seat].name
        left = CHIPS - 1 - s.placed[seat]
        said = "finding.glux.G10_ends_early"
        if all(s.placed[i] >= CHIPS - 2 for i in range(len(self.players)) if out[i] is None):
            # every bag is empty: the record may have stopped on another reading of G10
            said = "finding.glux.G10_ends_early_hand"
        return [Finding("G10", _where(turn, due, None), msg(said, turn=turn - 1, player=due, left=left),
                        at={"turn": turn, "player": due})]


# ---------------------------------------------------------------- scoring


@dataclass(frozen=True, slots=True)
class RoomResult:
    name: str
    pips: dict[str, int]
    place: dict[str, int]  # players with a place (pips > 0): 1, 2, 3, ...
    vp: dict[str, int]

    def to_json(self) -> dict:
        return {"room": self.name, "pips": self.pips, "place": self.place, "vp": self.vp}


@dataclass(frozen=True, slots=True)
class Result:
    players: list[str]
    rooms: list[RoomResult]
    totals: dict[str, int]
    winners: list[str]
    middle: str | None  # name of the middle room, if known
    tiebreak: "Msg | str"  # a sentence when the tiebreak was needed, else ""


def score_room(name: str, pips: dict[str, int], players: list[str]) -> RoomResult:
    """G11-G12 for one room. `pips` may leave out players with none."""
    pips = {p: pips.get(p, 0) for p in players}
    levels = sorted({v for v in pips.values() if v > 0}, reverse=True)
    # Places as the rulebook counts them: the next lower pip total is the next place
    # (with two tied for first, the third player is "second" and gets nothing).
    place = {p: levels.index(v) + 1 for p, v in pips.items() if v > 0}
    vp = {p: 0 for p in players}
    first = [p for p in players if place.get(p) == 1]
    for p in first:
        vp[p] = FIRST_VP
    if len(first) == 1 and len(players) > 2:
        for p in players:
            if place.get(p) == 2:
                vp[p] = SECOND_VP
    return RoomResult(name, pips, place, vp)


def score(rooms: list[tuple[str, dict[str, int]]], players: list[str], middle: int | None = None) -> Result:
    """Score the rooms (G11-G13). `middle` is the index in `rooms` of the middle room."""
    results = [score_room(name, pips, players) for name, pips in rooms]
    totals = {p: sum(r.vp[p] for r in results) for p in players}
    best = max(totals.values(), default=0)
    winners = [p for p in players if totals[p] == best]
    note = ""
    if len(winners) > 1:
        if middle is None:
            note = msg("tiebreak.glux.shared_no_middle", vp=best)
        else:
            mid = results[middle].pips
            top = max(mid[p] for p in winners)
            tied = ", ".join(winners)
            winners = [p for p in winners if mid[p] == top]
            note = (msg("tiebreak.glux.middle_room", vp=best, tied=tied, winner=winners[0], pips=top)
                    if len(winners) == 1 else msg("tiebreak.glux.still_tied", vp=best, tied=tied, pips=top))
    return Result(list(players), results, totals, winners,
                  results[middle].name if middle is not None else None, note)


def board_room_pips(board: Board, room_names: dict[str, str]) -> list[tuple[str, dict[str, int]]]:
    """Sum the visible pips of the top chips in each room (G11), rooms in board order."""
    out = []
    for rid, squares in board.side.room_squares.items():
        pips: dict[str, int] = {}
        for sq in squares:
            chip = board.top(sq)
            if chip is not None:
                pips[chip.owner] = pips.get(chip.owner, 0) + chip.pips
        out.append((room_names.get(rid, rid), pips))
    return out


def score_board(board: Board, players: list[str], room_names: dict[str, str]) -> Result:
    rooms = board_room_pips(board, room_names)
    ids = list(board.side.room_squares)
    return score(rooms, players, ids.index(board.side.middle_room))


@dataclass(frozen=True, slots=True)
class GluxDetails(Details):
    """The rooms' standings; for a record, also the board side and the kind of record."""

    OMIT_IF_NONE = ("layout", "kind", "turns", "middle")
    layout: str | None
    kind: str | None  # "board" or "game"
    turns: int | None  # placements replayed (a whole game)
    rooms: tuple[RoomResult, ...]
    middle: str | None  # the middle room's name, when known


def verdict(result: Result, source: str, findings: list[Finding] | None = None, out: dict[str, int] | None = None,
            *, layout: str | None = None, kind: str | None = None, turns: int | None = None,
            in_progress: bool = False, to_move: str | None = None) -> Verdict:
    """The Verdict of a scored game: one Score per player, parts = VP per room. A game in
    progress has its standings so far and no winner yet."""
    scores = []
    for p in result.players:
        parts = [(r.name, r.vp[p]) for r in result.rooms]
        counted = [msg("glux.room_pips", room=room_word(r.name), pips=r.pips[p], place=ordinal(r.place[p]))
                   for r in result.rooms if r.pips[p] > 0]
        notes: list = [msg("glux.pips", rooms=counted) if counted else msg("glux.no_pips")]
        if result.middle is not None:
            mid = next(r for r in result.rooms if r.name == result.middle)
            notes.append(msg("glux.middle_pips", pips=mid.pips[p]))
        if out and p in out:
            notes.append(msg("glux.out_since", turn=out[p]))
        scores.append(Score(p, parts, result.totals[p], notes, eliminated=False))
    details = GluxDetails(layout, kind, turns, tuple(result.rooms), result.middle)
    if in_progress:
        return Verdict("glux", source, findings or (), scores, (), details, None,  # who leads, no winner yet
                       in_progress=True, to_move=to_move, leading=result.winners)
    return Verdict("glux", source, findings or (), scores, result.winners, details, result.tiebreak or None)


def ordinal(n: int) -> Msg:
    """1st, 2nd, ...: a place in a room."""
    return msg(f"glux.ordinal_{n}") if n <= 3 else msg("glux.ordinal_n", n=n)


def room_word(name: str) -> "str | Msg":
    """A room's name: a letter is the same in both languages; the middle room is said."""
    return msg("part.middle") if name == "middle" else name


def room_lines(result: Result, lang: str = "en") -> list[str]:
    """One line per room: each player's pips, place and VP."""
    from sheetkit.messages import text

    lines = []
    for r in result.rooms:
        parts = []
        for p in sorted(result.players, key=lambda p: (-r.pips[p], result.players.index(p))):
            place = ordinal(r.place[p])(lang) if p in r.place else "-"
            parts.append(text("glux.room_player", lang, player=p, pips=r.pips[p], place=place, vp=r.vp[p]))
        key = "glux.room_middle" if r.name == result.middle else "glux.room"
        name = room_word(r.name)
        lines.append(text(key, lang, room=name, players=", ".join(parts)))
    return lines
