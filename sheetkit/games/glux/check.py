"""Checking Glüx records: the final board (G1, G3, G7, then scoring) and
the whole game (replayed with G1 and G4-G10 on every turn, then scoring)."""

from __future__ import annotations


from sheetkit.games.interface import Checked
from sheetkit.games.glux import rules
from sheetkit.games.glux.geometry import PAIRS, Square
from sheetkit.games.glux.layout import GluxBoard
from sheetkit.grid import parse_square, square_name
from sheetkit.games.glux.record import BoardRecord, GameRecord, GluxRecord
from sheetkit.checking.verdict import Finding

def setup_findings(rec: GluxRecord) -> list[Finding]:
    """The board side suits the player count (G2) and everyone starts on a start square (G3)."""
    g = rec.board.geometry
    n = len(rec.spec.players)
    out: list[Finding] = []
    if n not in g.players:
        out.append(Finding("G2", "board", f"the board side {rec.layout_id} is for "
                                          f"{' or '.join(map(str, g.players))} players, not {n}"))
    allowed = g.start_squares(n)
    for p in rec.spec.players:
        if p.start_square not in allowed:
            names = ", ".join(square_name(s) for s in allowed) or "none"
            out.append(Finding("G3", f"player {p.name}", f"{p.start} is not a start square for {n} players "
                                                         f"(start squares: {names})", at={"square": p.start}))
    return out


def room_names(board: GluxBoard, lang: str = "en") -> dict[str, str]:
    return {rid: room.label(lang) for rid, room in board.rooms.items()}


def board_from_record(rec: GluxRecord) -> tuple[rules.Board, list[Finding]]:
    """The final board of a board record, and what is wrong with it on its face."""
    spec: BoardRecord = rec.spec
    g = rec.board.geometry
    board = rules.Board(g)
    findings: list[Finding] = []
    chips = spec.chips()
    for sq, (chip, stacked) in chips.items():
        if stacked:
            board.put(sq, rules.Chip("?", 0))  # the chip below: owner and face not recorded
        board.put(sq, chip)
    for p in spec.players:
        top = board.top(p.start_square)
        if top is None:
            findings.append(Finding("G3", f"square {p.start}", f"{p.name}'s start square is empty: "
                                    "the start chip stays there", at={"square": p.start}))
        elif top.owner != p.name:
            findings.append(Finding("G7", f"square {p.start}", f"{top.owner}'s chip lies on {p.name}'s "
                                    "start square", at={"square": p.start}))
    for p in spec.players:
        mine = [c for c, _ in chips.values() if c.owner == p.name]
        if len(mine) > rules.CHIPS:
            findings.append(Finding("G1", f"player {p.name}", f"{len(mine)} top chips, but a player has "
                                    f"{rules.CHIPS}"))
        for pair in PAIRS:
            k = sum(1 for c in mine if c.pips in pair)
            if k > rules.PER_PAIR:
                findings.append(Finding("G1", f"player {p.name}", f"{k} top chips show {pair[0]} or {pair[1]}, "
                                        f"but a player has {rules.PER_PAIR} chips {pair[0]}|{pair[1]}"))
    total = sum(2 if s else 1 for _, s in chips.values())
    if total > rules.CHIPS * len(spec.players):
        findings.append(Finding("G1", "board", f"{total} chips on the board, more than "
                                f"{rules.CHIPS} per player"))
    return board, findings


def final_board(rec: GluxRecord) -> tuple[rules.Board, list[Finding], dict[str, int]]:
    """The board after the game, the findings and the players out of the game (G9)."""
    if rec.kind == "board":
        board, findings = board_from_record(rec)
        return board, findings, {}
    spec: GameRecord = rec.spec
    rp = rules.replay(rec.board.geometry, spec.setups(), spec.placements)
    return rp.board, rp.findings, rp.out


def check(rec: GluxRecord, source: str) -> Checked:
    """The board at the end of the record (replayed placement by placement for a whole
    game), and the verdict."""
    findings = setup_findings(rec)
    board, more, out = final_board(rec)
    findings += more
    players = [p.name for p in rec.spec.players]
    result = rules.score_board(board, players, room_names(rec.board))
    turns = len(rec.spec.placements) if rec.kind == "game" else None
    return Checked(board, rules.verdict(result, source, findings, out, layout=rec.layout_id, kind=rec.kind, turns=turns))


def grid_text(board: rules.Board, letters: dict[str, str]) -> str:
    """A board record's grid for `board`: the top chip of each square, "*" on a stack."""
    g = board.geom
    lines = []
    for r in range(g.height):
        toks = []
        for c in range(g.width):
            top = board.top((c, r))
            if top is None:
                toks.append(". ")
            else:
                toks.append(f"{letters[top.owner]}{top.pips}" + ("*" if board.count((c, r)) > 1 else " "))
        lines.append(" ".join(toks).rstrip())
    return "\n".join(lines)


def squares_of(findings: list[Finding]) -> list[tuple[Square, Finding]]:

    out = []
    for f in findings:
        sq = f.at.get("square")
        if isinstance(sq, str) and parse_square(sq) is not None:
            out.append((parse_square(sq), f))
    return out
