"""Checking Glüx records: the final board (G1, G3, G7, then scoring) and the whole game
(replayed with G1 and G4-G10 on every turn, then scoring), finished or still in progress."""

from __future__ import annotations

from sheetkit.messages import msg
from sheetkit.checking.replay import replay
from sheetkit.checking.verdict import Finding
from sheetkit.games.glux import rules
from sheetkit.games.glux.layout import GluxBoard
from sheetkit.games.glux.record import UNKNOWN, BoardRecord, GluxRecord, RoomsRecord
from sheetkit.games.glux.rules import PAIRS, Square
from sheetkit.games.interface import Checked
from sheetkit.grid import parse_square, square_name


def allowed_starts(side: GluxBoard, n: int) -> list[Square]:
    """Where a player may start (G3): with 2 players any corner (the pair is checked for
    being diagonally opposite), else the squares marked for that many players."""
    return sorted(side.corners(), key=lambda s: (s[1], s[0])) if n == 2 else side.start_squares(n)


def _either(values):
    """"3 or 4"."""
    out = str(values[-1])
    for v in reversed(values[:-1]):
        out = msg("glux.either", a=v, b=out)
    return out


def setup_findings(rec: GluxRecord) -> list[Finding]:
    """The board side suits the player count (G2) and everyone starts on a start square (G3)."""
    g = rec.board
    n = len(rec.spec.players)
    out: list[Finding] = []
    if n not in g.players:
        out.append(Finding("G2", msg("where.glux.board"), msg("finding.glux.G2_side", side=rec.layout_id,
                                                               players=_either(g.players), n=n)))
    allowed = allowed_starts(g, n)
    for p in rec.spec.players:
        if p.start_square not in allowed:
            names = ", ".join(square_name(s) for s in allowed) or msg("glux.none")
            out.append(Finding("G3", msg("where.glux.player", player=p.name),
                               msg("finding.glux.G3_not_start", square=p.start, n=n, starts=names), at={"square": p.start}))
    if n == 2 and all(p.start_square in allowed for p in rec.spec.players):
        (a, b) = (p.start_square for p in rec.spec.players)
        if a[0] == b[0] or a[1] == b[1]:
            p = rec.spec.players[1]
            out.append(Finding("G3", msg("where.glux.player", player=p.name),
                               msg("finding.glux.G3_not_opposite", square=p.start, other=rec.spec.players[0].start),
                               at={"square": p.start}))
    return out


def room_names(board: GluxBoard, lang: str = "en") -> dict[str, str]:
    return {rid: room.label(lang) for rid, room in board.rooms.items()}


def board_state(rec: GluxRecord) -> tuple[rules.State, list[Finding]]:
    """The final board of a board record (what lies on the table; the players' counters
    are not known), and what is wrong with it on its face."""
    spec: BoardRecord = rec.spec
    board = rules.Board.empty(rec.board)
    findings: list[Finding] = []
    chips = spec.chips()
    for sq, stack in chips.items():
        for chip in stack:
            board = board.put(sq, chip)
    for p in spec.players:
        stack = board.stack(p.start_square)
        if not stack:
            findings.append(Finding("G3", msg("where.glux.square", square=p.start),
                                    msg("finding.glux.G3_start_empty", player=p.name), at={"square": p.start}))
        elif stack[-1].owner != p.name:
            findings.append(Finding("G7", msg("where.glux.square", square=p.start),
                                    msg("finding.glux.G7_on_start", owner=stack[-1].owner, player=p.name),
                                    at={"square": p.start}))
        elif stack[0] not in (UNKNOWN, stack[-1]) and stack[0].owner != p.name:
            findings.append(Finding("G7", msg("where.glux.square", square=p.start),
                                    msg("finding.glux.G7_under_start", owner=stack[0].owner, player=p.name),
                                    at={"square": p.start}))
    noted_below = any(len(s) > 1 and s[0] != UNKNOWN for s in chips.values())
    what = msg("glux.chips_noted") if noted_below else msg("glux.top_chips")
    for p in spec.players:
        mine = [c for s in chips.values() for c in s if c.owner == p.name]
        if len(mine) > rules.CHIPS:
            findings.append(Finding("G1", msg("where.glux.player", player=p.name),
                                    msg("finding.glux.G1_too_many", n=len(mine), what=what, chips=rules.CHIPS)))
        for pair in PAIRS:
            k = sum(1 for c in mine if c.pips in pair)
            if k > rules.PER_PAIR:
                findings.append(Finding("G1", msg("where.glux.player", player=p.name),
                                        msg("finding.glux.G1_pair_count", n=k, what=what, a=pair[0], b=pair[1],
                                            most=rules.PER_PAIR)))
    total = sum(len(s) for s in chips.values())
    if total > rules.CHIPS * len(spec.players):
        findings.append(Finding("G1", msg("where.glux.board"), msg("finding.glux.G1_board", n=total, chips=rules.CHIPS)))
    n = len(spec.players)
    state = rules.State(board, tuple(spec.setups()), (0,) * n, ((0,) * len(PAIRS),) * n, (None,) * n, (None,) * n)
    return state, findings


MOST_PIPS = rules.PER_PAIR * sum(max(pair) for pair in PAIRS)  # every chip on top, its higher face up (G1)
ROOMS_OF_SIDE = {2: 9, 3: 11, 4: 11}  # rooms on the side for that many players, the middle one included (G2)


def rooms_findings(spec: RoomsRecord) -> list[Finding]:
    """What the rooms' pips say on their face: no more rooms than the board side has (G2),
    no player showing more pips than their 24 chips can (G1)."""
    out: list[Finding] = []
    n = len(spec.players)
    if len(spec.room) > ROOMS_OF_SIDE[n]:
        out.append(Finding("G2", msg("where.glux.rooms"), msg("finding.glux.G2_rooms", n=len(spec.room), players=n,
                                                               most=ROOMS_OF_SIDE[n])))
    rooms = spec.rooms()
    for p in spec.players:
        shown = sum(pips.get(p, 0) for _, pips in rooms)
        if shown > MOST_PIPS:
            out.append(Finding("G1", msg("where.glux.player", player=p),
                               msg("finding.glux.G1_pips", pips=shown, most=MOST_PIPS), at={"player": p}))
    return out


def check_rooms(rec: GluxRecord, source: str) -> Checked:
    """The rooms' pips of a score pad scored (G11-G13); the state is the scored rooms."""
    spec: RoomsRecord = rec.spec
    result = rules.score(spec.rooms(), list(spec.players), spec.middle_index())
    verdict = rules.verdict(result, source, rooms_findings(spec), kind=rec.kind)
    return Checked(result, verdict)


def check(rec: GluxRecord, source: str, prior: Checked | None = None) -> Checked:
    """The game state at the end of the record (replayed placement by placement for a whole
    game), and the verdict: for a game in progress, the standings so far and who is to move."""
    if rec.kind == "rooms":
        return check_rooms(rec, source)
    findings = setup_findings(rec)
    players = [p.name for p in rec.spec.players]
    in_progress, to_move, turns, done = False, None, None, None
    if rec.kind == "board":
        state, more = board_state(rec)
    else:
        game_rules = rules.GluxRules(rec.board, rec.spec.setups())
        in_progress = rec.spec.in_progress
        setup = (rec.layout_id, tuple(rec.spec.setups()))  # the same board and players: go on from `prior`
        done = replay(game_rules, rec.spec.placements, finished=not in_progress,
                      prior=prior.replayed if prior is not None else None, setup=setup)
        more, turns = done.findings, done.moves
        state = game_rules.settle(done.state)
        if in_progress:
            to_move = game_rules.to_move(done.state)
    findings += more
    result = rules.score_board(state.board, players, room_names(rec.board))
    verdict = rules.verdict(result, source, findings, state.out_since(), layout=rec.layout_id, kind=rec.kind,
                            turns=turns, in_progress=in_progress, to_move=to_move)
    return Checked(state, verdict, done)


def squares_of(findings: list[Finding]) -> list[tuple[Square, Finding]]:
    out = []
    for f in findings:
        sq = f.at.get("square")
        if isinstance(sq, str) and parse_square(sq) is not None:
            out.append((parse_square(sq), f))
    return out
