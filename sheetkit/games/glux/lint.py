"""`sheetkit lint` for Glüx layouts: the game sense of a board side (G2, G3), the chips
(G1), the score track and pad."""

from __future__ import annotations

from sheetkit.games.glux.layout import GluxBoard, GluxChips, GluxScorePad, GluxScoreTrack
from sheetkit.grid import square_name
from sheetkit.messages import msg
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
        out.append(Finding("G2", "rooms", msg("lint.glux.rooms", side=spec.side, want=ROOMS[spec.side], n=len(g.room_squares))))
    for rid, sqs in g.room_squares.items():
        if not sqs:
            out.append(Finding("G2", msg("lint.where.room", room=rid), msg("lint.glux.room_empty")))
        elif not _connected(set(sqs)):
            out.append(Finding("G2", msg("lint.where.room", room=rid), msg("lint.glux.room_apart")))
    mid = set(g.room_squares[g.middle_room])
    cols = {c for c, _ in mid}
    rows = {r for _, r in mid}
    if len(mid) != 9 or len(cols) != 3 or len(rows) != 3:
        out.append(Finding("G2", msg("lint.where.room", room=g.middle_room), msg("lint.glux.middle_block")))
    elif (min(cols) + 1, min(rows) + 1) != ((g.width - 1) // 2, (g.height - 1) // 2) or g.width % 2 == 0 \
            or g.height % 2 == 0:
        out.append(Finding("G2", msg("lint.where.room", room=g.middle_room), msg("lint.glux.middle_place")))
    for lang in ("es", "en"):
        ls = [r.label(lang) for r in spec.rooms.values()]
        if len(set(ls)) != len(ls):
            out.append(Finding("G2", "rooms", msg("lint.glux.same_label", language=lang)))
    w, h = g.width - 1, g.height - 1
    corners = {(0, 0), (w, 0), (0, h), (w, h)}
    for n in spec.players:
        s = set(g.start_squares(n))
        names = ", ".join(square_name(q) for q in sorted(s)) or msg("error.none")
        if n == 4 and s != corners:
            out.append(Finding("G3", msg("lint.where.starts"), msg("lint.glux.starts_4", got=names)))
        if n == 2 and not (len(s) == 2 and s <= corners and
                           all(a[0] != b[0] and a[1] != b[1] for a in s for b in s if a != b)):
            out.append(Finding("G3", msg("lint.where.starts"), msg("lint.glux.starts_2", got=names)))
        if n == 3:
            ok = False
            if len(s) == 3:
                for edge_row, opp in ((0, h), (h, 0)):
                    if {(0, edge_row), (w, edge_row)} <= s and (w // 2, opp) in s and w % 2 == 0:
                        ok = True
            if not ok:
                out.append(Finding("G3", msg("lint.where.starts"), msg("lint.glux.starts_3", got=names)))
    for sq, ns in g.starts.items():
        if not set(ns) & set(spec.players):
            out.append(Finding("G3", msg("lint.where.square", square=square_name(sq)),
                               msg("lint.glux.start_side", start=str(sorted(ns)), side=str(spec.players))))
    return out


def seam_findings(spec: GluxBoard) -> list[Finding]:
    """The floor of a board printed at real size: on both papers, in both languages, every
    seam between sheets on a grid line and through no label (square names, start circles,
    room labels), every registration mark whole on the sheet on top and over no label."""
    from sheetkit.games.glux.compose import board_plan
    from sheetkit.paper import tiling
    from sheetkit.paper.scene import PAPERS

    out: list[Finding] = []
    said = set()
    for paper in PAPERS:
        for lang in ("es", "en"):
            p = board_plan(spec, paper, lang)
            for kind, at, _ in tiling.seam_problems(p, (spec.square, spec.square), p.keep):
                key = (paper, kind, round(at, 1))
                if key in said:
                    continue
                said.add(key)
                out.append(Finding("print", f"{paper}, {lang}",  # options: the same words in both languages
                                   msg(f"lint.glux.seam_{kind}", paper=paper, at=f"{at:.1f}")))
    return out


def lint(layout) -> list[Finding]:
    spec = layout.spec
    if isinstance(spec, GluxBoard):
        return board_findings(spec) + seam_findings(spec)
    out: list[Finding] = []
    if isinstance(spec, GluxChips):
        if spec.per_pair != 8:
            out.append(Finding("G1", "per_pair", msg("lint.glux.per_pair", got=spec.per_pair)))
        if len(spec.colours) != 4:
            out.append(Finding("G1", "colours", msg("lint.glux.colours", got=len(spec.colours))))
    elif isinstance(spec, GluxScoreTrack):
        if spec.last < 50:
            out.append(Finding("G12", "last", msg("lint.glux.track", got=spec.last)))
    elif isinstance(spec, GluxScorePad):
        if len(spec.rooms) + 1 < 11:
            out.append(Finding("G2", "rooms", msg("lint.glux.pad_rooms", got=len(spec.rooms) + 1)))
        if spec.players != 4:
            out.append(Finding("G2", "players", msg("lint.glux.pad_players", got=spec.players)))
    return out
