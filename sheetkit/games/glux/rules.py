"""Glüx rules as pure functions: placements (G4-G10), chips (G1) and scoring (G11-G13).

The board state is the single source of truth: a stack of chips per square. Legality is a
question asked of it (`legal_placements`); replaying a game returns findings, never raises.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sheetkit.games.glux.geometry import PAIRS, Geometry, Square
from sheetkit.grid import square_name
from sheetkit.checking.verdict import Details, Finding, Score, Verdict

CHIPS = 24  # per player (G1)
PER_PAIR = 8
FULL = 2  # chips on a square that make it full (G6)
DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))
FIRST_VP, SECOND_VP = 4, 2


def pair_of(face: int) -> tuple[int, int]:
    return next(p for p in PAIRS if face in p)


@dataclass(frozen=True, slots=True)
class Chip:
    owner: str
    pips: int  # visible face


@dataclass
class Board:
    """Chips on the squares: a stack per square, bottom first."""

    geom: Geometry
    stacks: dict[Square, list[Chip]] = field(default_factory=dict)

    def count(self, sq: Square) -> int:
        return len(self.stacks.get(sq, ()))

    def top(self, sq: Square) -> Chip | None:
        s = self.stacks.get(sq)
        return s[-1] if s else None

    def put(self, sq: Square, chip: Chip) -> None:
        self.stacks.setdefault(sq, []).append(chip)

    def tops(self) -> dict[Square, Chip]:
        return {sq: s[-1] for sq, s in self.stacks.items() if s}


@dataclass(frozen=True, slots=True)
class Move:
    origin: Square
    dest: Square


def counted_placements(board: Board, player: str, foreign_starts: set[Square]) -> list[Move]:
    """Every placement by counting (G4-G7) open to `player`."""
    out: list[Move] = []
    for sq, chip in sorted(board.tops().items(), key=lambda kv: (kv[0][1], kv[0][0])):
        if chip.owner != player:
            continue
        for dx, dy in DIRS:
            dest = (sq[0] + dx * chip.pips, sq[1] + dy * chip.pips)
            if not board.geom.on_board(dest) or board.count(dest) >= FULL or dest in foreign_starts:
                continue
            if any(board.count((sq[0] + dx * k, sq[1] + dy * k)) for k in range(1, chip.pips)):
                continue
            out.append(Move(sq, dest))
    return out


def check_counted(board: Board, player: str, origin: Square, dest: Square,
                  foreign_starts: dict[Square, str]) -> list[tuple[str, Square, str]]:
    """(rule, square, sentence) for each way the counted placement origin -> dest breaks G4-G7."""
    g = board.geom
    out: list[tuple[str, Square, str]] = []
    if not g.on_board(origin):
        return [("G4", origin, f"origin {square_name(origin)} is not on the board")]
    if not g.on_board(dest):
        return [("G4", dest, f"destination {square_name(dest)} is not on the board")]
    top = board.top(origin)
    if top is None:
        out.append(("G4", origin, f"no chip on {square_name(origin)} to count from"))
    elif top.owner != player:
        out.append(("G4", origin, f"the top chip on {square_name(origin)} is {top.owner}'s, not {player}'s"))
    dx, dy = dest[0] - origin[0], dest[1] - origin[1]
    if dx and dy:
        out.append(("G4", dest, f"{square_name(origin)} to {square_name(dest)} is not a straight horizontal or vertical line"))
    elif not dx and not dy:
        out.append(("G4", dest, "origin and destination are the same square (a placement on one's own start "
                                "chip without counting, G8, is written \"LETTER start FACE\")"))
    else:
        dist = abs(dx) + abs(dy)
        if top is not None and top.owner == player and dist != top.pips:
            out.append(("G4", dest, f"{square_name(origin)} to {square_name(dest)} is {dist} squares, "
                              f"but the chip on {square_name(origin)} shows {top.pips}"))
        ux, uy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
        blocked = [(origin[0] + ux * k, origin[1] + uy * k) for k in range(1, dist)
                   if board.count((origin[0] + ux * k, origin[1] + uy * k))]
        if blocked:
            out.append(("G5", blocked[0], f"the path is blocked by the chip on {square_name(blocked[0])}"))
    if board.count(dest) >= FULL:
        out.append(("G6", dest, f"{square_name(dest)} already holds {board.count(dest)} chips (full)"))
    if dest in foreign_starts:
        out.append(("G7", dest, f"{square_name(dest)} is {foreign_starts[dest]}'s start square"))
    return out


# ---------------------------------------------------------------- replaying a whole game


@dataclass(frozen=True, slots=True)
class PlayerSetup:
    name: str
    letter: str
    start: Square
    start_chip: int  # visible face of the chip put on the start square at setup


@dataclass(frozen=True, slots=True)
class Placement:
    player: str
    face: int
    origin: Square | None = None  # None: the once-per-game start placement (G8)
    dest: Square | None = None  # for G8, None means the player's own start square
    line: int = 0  # line in the record, for messages

    @property
    def start(self) -> bool:
        return self.origin is None


@dataclass
class Replay:
    board: Board
    findings: list[Finding]
    out: dict[str, int]  # player -> turn before which they were excluded (G9)
    placed: dict[str, int]
    used_start: dict[str, int]  # player -> turn of their start placement (G8)


def _where(turn: int, player: str, sq: Square | None) -> str:
    return f"turn {turn} ({player}" + (f", {square_name(sq)})" if sq is not None else ")")


def replay(geom: Geometry, players: list[PlayerSetup], placements: list[Placement]) -> Replay:
    """Play the placements in order, checking G1 and G4-G10 on every turn.

    An illegal placement is reported and still put on the board when its destination is
    on the board, so that later turns are judged against what lay on the table.
    """
    board = Board(geom)
    findings: list[Finding] = []
    names = [p.name for p in players]
    n = len(names)
    setup = {p.name: p for p in players}
    starts = {p.start: p.name for p in players}
    pairs = {p: {pr: 0 for pr in PAIRS} for p in names}
    placed = {p: 0 for p in names}  # chips placed after setup
    used: dict[str, int] = {}
    out: dict[str, int] = {}

    for p in players:
        board.put(p.start, Chip(p.name, p.start_chip))
        pairs[p.name][pair_of(p.start_chip)] += 1

    def own_start_of(player: str) -> Square:
        return setup[player].start

    def foreign(player: str) -> dict[Square, str]:
        return {sq: who for sq, who in starts.items() if who != player}

    def can_count(player: str) -> bool:
        return bool(counted_placements(board, player, set(foreign(player))))

    def can_start(player: str) -> bool:
        return player not in used and board.count(setup[player].start) < FULL

    def has_chips(player: str) -> bool:
        return placed[player] < CHIPS - 1

    def next_active(pos: int, turn: int) -> tuple[str | None, int]:
        """The player due to place from seat `pos` on, excluding (G9) those who cannot."""
        for k in range(n):
            p = names[(pos + k) % n]
            if p in out or not has_chips(p):
                continue
            if not can_count(p) and not can_start(p):
                out[p] = turn
                continue
            return p, (pos + k) % n
        return None, pos

    def add(rule: str, turn: int, player: str, sq: Square | None, msg: str) -> None:
        at: dict = {"turn": turn, "player": player}
        if sq is not None:
            at["square"] = square_name(sq)
        findings.append(Finding(rule, _where(turn, player, sq), msg, at=at))

    pos = 0
    for turn, pl in enumerate(placements, 1):
        due, pos = next_active(pos, turn)
        mover = pl.player
        if due is None:
            add("G10", turn, mover, None, "the game was already over: no player had a chip to place "
                                         "or a legal placement")
            break
        spare = has_chips(mover)  # the chip placed exists
        if mover != due:
            if not spare:
                add("G1", turn, mover, None, f"{mover} has no chip left: all {CHIPS} are on the board")
            elif mover in out:
                why = (f"the start option already used at turn {used[mover]}" if mover in used
                       else f"the start square {square_name(own_start_of(mover))} already full")
                add("G9", turn, mover, None, f"{mover} was out of the game since turn {out[mover]}: "
                                             f"no legal placement, and {why}")
            elif not can_count(due):
                add("G9", turn, due, None, f"{due} could not place by counting and had to use the "
                                           f"start option; the record gives {mover}'s placement instead")
            else:
                add("order", turn, mover, None, f"it was {due}'s turn (players place in the order listed)")
        seat = names.index(mover)
        own_start = setup[mover].start
        if pl.start:
            dest = pl.dest if pl.dest is not None else own_start
            if mover in used:
                add("G8", turn, mover, dest, f"the start option was already used at turn {used[mover]}")
            if dest != own_start:
                add("G8", turn, mover, dest, f"the start option places on {mover}'s own start square "
                                             f"{square_name(own_start)} only")
            if geom.on_board(dest) and board.count(dest) >= FULL:
                add("G6", turn, mover, dest, f"{square_name(dest)} already holds {board.count(dest)} chips (full)")
            used.setdefault(mover, turn)
        else:
            dest = pl.dest
            forced = not can_count(mover)
            problems = check_counted(board, mover, pl.origin, dest, foreign(mover))
            for rule, sq, msg in problems:
                add(rule, turn, mover, sq, msg)
            if forced and can_start(mover):
                add("G9", turn, mover, own_start, "no placement by counting was possible: the chip had to "
                                                  f"go on the start square {square_name(own_start)} (G8)")
        pairs[mover][pair_of(pl.face)] += 1
        placed[mover] += 1
        pr = pair_of(pl.face)
        if spare and pairs[mover][pr] == PER_PAIR + 1:  # (a chip beyond the 24th is reported above)
            add("G1", turn, mover, dest, f"{mover}'s {PER_PAIR + 1}th chip of the pair {pr[0]}|{pr[1]}: "
                                         f"each player has only {PER_PAIR}")
        if dest is not None and geom.on_board(dest):
            board.put(dest, Chip(mover, pl.face))
        pos = (seat + 1) % n
    else:
        turn = len(placements) + 1
        due, pos = next_active(pos, turn)
        if due is not None:
            left = CHIPS - 1 - placed[due]
            hand = ""
            if all(placed[p] >= CHIPS - 2 for p in names if p not in out):
                # every bag is empty: the record may have stopped on another reading of G10
                hand = (" (the bags are empty, but the chip each player holds in hand is placed too "
                        "before the game ends)")
            add("G10", turn, due, None, f"the record ends after turn {turn - 1}, but {due} still had "
                                        f"{left} chip(s) to place and a legal placement{hand}")
    return Replay(board, findings, out, placed, used)


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
    tiebreak: str  # a sentence when the tiebreak was needed, else ""


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
            note = f"tie on {best} VP; no middle room given, so the win is shared"
        else:
            mid = results[middle].pips
            top = max(mid[p] for p in winners)
            tied = ", ".join(winners)
            winners = [p for p in winners if mid[p] == top]
            note = (f"tie on {best} VP between {tied}: "
                    + (f"{winners[0]} has most pips in the middle room ({top})" if len(winners) == 1
                       else f"still tied on {top} middle-room pips, the win is shared"))
    return Result(list(players), results, totals, winners,
                  results[middle].name if middle is not None else None, note)


def board_room_pips(board: Board, room_names: dict[str, str]) -> list[tuple[str, dict[str, int]]]:
    """Sum the visible pips of the top chips in each room (G11), rooms in board order."""
    out = []
    for rid, squares in board.geom.rooms.items():
        pips: dict[str, int] = {}
        for sq in squares:
            chip = board.top(sq)
            if chip is not None:
                pips[chip.owner] = pips.get(chip.owner, 0) + chip.pips
        out.append((room_names.get(rid, rid), pips))
    return out


def score_board(board: Board, players: list[str], room_names: dict[str, str]) -> Result:
    rooms = board_room_pips(board, room_names)
    ids = list(board.geom.rooms)
    return score(rooms, players, ids.index(board.geom.middle))


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
            *, layout: str | None = None, kind: str | None = None, turns: int | None = None) -> Verdict:
    """The Verdict of a scored game: one Score per player, parts = VP per room."""
    scores = []
    for p in result.players:
        parts = [(r.name, r.vp[p]) for r in result.rooms]
        counted = [f"{r.name} {r.pips[p]} ({ordinal(r.place[p])})" for r in result.rooms if r.pips[p] > 0]
        notes = [f"pips: {', '.join(counted)}" if counted else "pips: none in any room"]
        if result.middle is not None:
            mid = next(r for r in result.rooms if r.name == result.middle)
            notes.append(f"middle-room pips {mid.pips[p]}")
        if out and p in out:
            notes.append(f"out of the game from turn {out[p]} (G9)")
        scores.append(Score(p, parts, result.totals[p], notes, eliminated=False))
    details = GluxDetails(layout, kind, turns, tuple(result.rooms), result.middle)
    return Verdict("glux", source, findings or (), scores, result.winners, details, result.tiebreak or None)


def ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def room_lines(result: Result) -> list[str]:
    """One line per room: each player's pips, place and VP."""
    lines = []
    for r in result.rooms:
        parts = []
        for p in sorted(result.players, key=lambda p: (-r.pips[p], result.players.index(p))):
            place = ordinal(r.place[p]) if p in r.place else "-"
            parts.append(f"{p} {r.pips[p]} pips {place} {r.vp[p]} VP")
        mid = " (middle)" if r.name == result.middle else ""
        lines.append(f"room {r.name}{mid}: " + ", ".join(parts))
    return lines
