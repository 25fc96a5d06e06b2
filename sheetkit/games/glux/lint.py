"""`sheetkit lint` for Glüx layouts: the game sense of a board side (G2, G3), the chips
(G1), the score track and pad."""

from __future__ import annotations

from sheetkit.games.glux.layout import GluxBoard, GluxChips, GluxScorePad, GluxScoreTrack
from sheetkit.grid import square_name
from sheetkit.checking.verdict import Finding

ROOMS = {"2p": 9, "34p": 11}  # rooms on each side, the middle room included (G2)


def _connected(squares: set) -> bool:
    if not squares:
        return False
    seen = {next(iter(squares))}
    todo = list(seen)
    while todo:
        c, r = todo.pop()
        for n in ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)):
            if n in squares and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == squares


def board_findings(spec: GluxBoard) -> list[Finding]:
    g = spec
    out: list[Finding] = []
    if len(g.room_squares) != ROOMS[spec.side]:
        out.append(Finding("G2", "rooms", f"the {spec.side} side has {ROOMS[spec.side]} rooms "
                                          f"(middle included), this one {len(g.room_squares)}"))
    for rid, sqs in g.room_squares.items():
        if not sqs:
            out.append(Finding("G2", f"room {rid}", "no square of the grid belongs to it"))
        elif not _connected(set(sqs)):
            out.append(Finding("G2", f"room {rid}", "its squares are not all connected"))
    mid = set(g.room_squares[g.middle_room])
    cols = {c for c, _ in mid}
    rows = {r for _, r in mid}
    if len(mid) != 9 or len(cols) != 3 or len(rows) != 3:
        out.append(Finding("G2", f"room {g.middle_room}", "the middle room is a 3x3 block of 9 squares"))
    elif (min(cols) + 1, min(rows) + 1) != ((g.width - 1) // 2, (g.height - 1) // 2) or g.width % 2 == 0 \
            or g.height % 2 == 0:
        out.append(Finding("G2", f"room {g.middle_room}", "the middle room sits in the middle of the board"))
    for lang in ("es", "en"):
        ls = [r.label(lang) for r in spec.rooms.values()]
        if len(set(ls)) != len(ls):
            out.append(Finding("G2", "rooms", f"two rooms share a label in {lang}"))
    w, h = g.width - 1, g.height - 1
    corners = {(0, 0), (w, 0), (0, h), (w, h)}
    for n in spec.players:
        s = set(g.start_squares(n))
        names = ", ".join(square_name(q) for q in sorted(s)) or "none"
        if n == 4 and s != corners:
            out.append(Finding("G3", "start squares", f"4 players start on the four corners (got {names})"))
        if n == 2 and not (len(s) == 2 and s <= corners and
                           all(a[0] != b[0] and a[1] != b[1] for a in s for b in s if a != b)):
            out.append(Finding("G3", "start squares", f"2 players start on diagonally opposite corners (got {names})"))
        if n == 3:
            ok = False
            if len(s) == 3:
                for edge_row, opp in ((0, h), (h, 0)):
                    if {(0, edge_row), (w, edge_row)} <= s and (w // 2, opp) in s and w % 2 == 0:
                        ok = True
            if not ok:
                out.append(Finding("G3", "start squares", "3 players start on two corners of one edge "
                                                          f"and the middle of the opposite edge (got {names})"))
    for sq, ns in g.starts.items():
        if not set(ns) & set(spec.players):
            out.append(Finding("G3", f"square {square_name(sq)}", f"a start square for {sorted(ns)} players "
                                                                   f"on a side for {spec.players} players"))
    return out


def lint(layout) -> list[Finding]:
    spec = layout.spec
    if isinstance(spec, GluxBoard):
        return board_findings(spec)
    out: list[Finding] = []
    if isinstance(spec, GluxChips):
        if spec.per_pair != 8:
            out.append(Finding("G1", "per_pair", f"each player has 8 chips of each pair (got {spec.per_pair})"))
        if len(spec.colours) != 4:
            out.append(Finding("G1", "colours", f"Glüx has chips in 4 colours (got {len(spec.colours)})"))
    elif isinstance(spec, GluxScoreTrack):
        if spec.last < 50:
            out.append(Finding("G12", "last", f"the track runs to 50 (got {spec.last})"))
    elif isinstance(spec, GluxScorePad):
        if len(spec.rooms) + 1 < 11:
            out.append(Finding("G2", "rooms", f"the pad serves the 3-4 player side: 11 room rows with the "
                                              f"middle (got {len(spec.rooms) + 1})"))
        if spec.players != 4:
            out.append(Finding("G2", "players", f"the pad serves up to 4 players (got {spec.players})"))
    return out
