"""The game sense of a Yuncos layout, beyond what loading already validates."""

from __future__ import annotations

from collections import deque

from sheetkit.games.yuncos.layout import STEPS, YuncosSheet, vertex_name
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
            f.where = f"{side} ({level.id}): {f.where}"
            out.append(f)
    return out


def lint_sheet(spec: YuncosSheet) -> list[Finding]:
    b = spec.board
    out: list[Finding] = []
    for n, v in b.starts.items():
        near = [(v[0] + dx, v[1] + dy) for dx, dy in STEPS.values()]
        if not any(w in b.land for w in near):
            out.append(Finding("Y2", f"start {n} at {vertex_name(v)}", "a start point must be on Choros Island, next to other island vertices"))
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
            out.append(Finding("Y8", f"star at {vertex_name(v)}", "cannot be reached from any start point without crashing into a light"))
    for v in sorted(b.fish):
        if v not in seen:
            out.append(Finding("Y7", f"fish at {vertex_name(v)}", "cannot be reached from any start point without crashing into a light"))
    if len(set(b.stars.values())) < 4:
        out.append(Finding("Y8", "map", f"stars come in {len(set(b.stars.values()))} colours; the sheet needs at least 4"))
    if len(b.stars) < 4:
        out.append(Finding("Y21", "map", "fewer than 4 stars: the island ending can never happen"))
    if len(spec.fish.values) < len(b.fish):
        out.append(Finding("Y7", "fish.values", f"the counter has {len(spec.fish.values)} boxes for {len(b.fish)} fish on the map"))
    # puzzle sizes the rules can fill with die values 1-6
    if spec.nests.length > 6:
        out.append(Finding("Y11", "nests.length", f"a row of {spec.nests.length} cannot hold all-different (row 1) or descending (row 2) die values; at most 6"))
    if spec.luminaries.height > 6:
        out.append(Finding("Y12", "luminaries.height", f"a column of {spec.luminaries.height} cannot rise strictly with die values; at most 6"))
    if spec.luminaries.columns > 6:
        out.append(Finding("Y12", "luminaries.columns", f"{spec.luminaries.columns} columns cannot avoid repeats across a row; at most 6"))
    # a fixed pattern that crosses itself would always crash
    for face, steps in sorted(spec.patterns.items()):
        pos, visited = (0, 0), {(0, 0)}
        for s in steps.split():
            pos = (pos[0] + STEPS[s][0], pos[1] + STEPS[s][1])
            if pos in visited:
                out.append(Finding("Y5", f"patterns.{face}", "the pattern touches itself, so every flight with it would crash"))
                break
            visited.add(pos)
    return out
