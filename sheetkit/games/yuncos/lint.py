"""The game sense of a Yuncos layout, beyond what loading already validates."""

from __future__ import annotations

from collections import deque

from sheetkit.games.yuncos.layout import STEPS, YuncosSheet, vertex_name
from sheetkit.messages import msg
from sheetkit.checking.verdict import Finding


def lint(layout) -> list[Finding]:
    if layout.kind == "duplex":
        return lint_duplex(layout)
    return lint_sheet(layout.spec)


def lint_duplex(layout) -> list[Finding]:
    """Both sides must load as Yuncos sheet levels (else one line, exit 2) and make sense."""
    from sheetkit.games.yuncos.compose import duplex_levels

    out = []
    for side, level in zip(("front", "back"), duplex_levels(layout)):
        for f in lint_sheet(level.spec):
            where = msg(f"lint.where.{side}", id=level.id, where=f.place or f.where)
            out.append(Finding(f.rule, where, f.text or f.message, f.severity, f.at))
    return out


def lint_sheet(spec: YuncosSheet) -> list[Finding]:
    b = spec.board
    out: list[Finding] = []
    for n, v in b.starts.items():
        near = [(v[0] + dx, v[1] + dy) for dx, dy in STEPS.values()]
        if not any(w in b.land for w in near):
            out.append(Finding("Y2", msg("lint.where.start", n=n, point=vertex_name(v)), msg("lint.yuncos.start_island")))
    # every star can be reached from some start without touching a light point
    seen = set(b.starts.values())
    todo = deque(seen)
    while todo:
        v = todo.popleft()
        for dx, dy in STEPS.values():
            w = (v[0] + dx, v[1] + dy)
            if b.on_map(w) and w not in seen and w not in b.lights:
                seen.add(w)
                todo.append(w)
    for v in sorted(b.stars):
        if v not in seen:
            out.append(Finding("Y8", msg("lint.where.star", point=vertex_name(v)), msg("lint.yuncos.unreachable")))
    for v in sorted(b.fish):
        if v not in seen:
            out.append(Finding("Y7", msg("lint.where.fish", point=vertex_name(v)), msg("lint.yuncos.unreachable")))
    if len(set(b.stars.values())) < 4:
        out.append(Finding("Y8", msg("lint.where.map"), msg("lint.yuncos.colours", n=len(set(b.stars.values())))))
    if len(b.stars) < 4:
        out.append(Finding("Y21", msg("lint.where.map"), msg("lint.yuncos.few_stars")))
    if len(spec.fish.values) < len(b.fish):
        out.append(Finding("Y7", "fish.values", msg("lint.yuncos.fish_boxes", boxes=len(spec.fish.values), fish=len(b.fish))))
    # puzzle sizes the rules can fill with die values 1-6
    if spec.nests.length > 6:
        out.append(Finding("Y11", "nests.length", msg("lint.yuncos.nest_row", n=spec.nests.length)))
    if spec.luminaries.height > 6:
        out.append(Finding("Y12", "luminaries.height", msg("lint.yuncos.lum_height", n=spec.luminaries.height)))
    if spec.luminaries.columns > 6:
        out.append(Finding("Y12", "luminaries.columns", msg("lint.yuncos.lum_columns", n=spec.luminaries.columns)))
    # a fixed pattern that crosses itself would always crash
    for face, steps in sorted(spec.patterns.items()):
        pos, visited = (0, 0), {(0, 0)}
        for s in steps.split():
            pos = (pos[0] + STEPS[s][0], pos[1] + STEPS[s][1])
            if pos in visited:
                out.append(Finding("Y5", f"patterns.{face}", msg("lint.yuncos.pattern")))
                break
            visited.add(pos)
    return out
