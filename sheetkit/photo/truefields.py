"""The fields a perfect reader would read off a sheet, and controlled noise on them: to
measure the flight search (sheetkit.photo.flight) apart from the reading of the photo.

    f, cells, dice = true_fields(record, spec)      # certain: every probability 0 or 1
    f, cells, dice, flipped = noisy(record, spec, rng, flips=1)

`record` is a simulated game's truth (simulate.truth_record: the dice as the log shows
them). The noise is what a photo does to the fields: every probability softened (pencilled
edges 0.8-0.99, blank ones 0.01-0.2, turn-end dots likewise, digits 0.85-1), and `flips`
fields read wrong but not surely so (an edge or dot on the other side of 0.5, a digit one
off with 0.45-0.75 confidence). `flipped` names them as the draft's fields would.
"""

from __future__ import annotations

from sheetkit.games.yuncos.record import parse_flight
from sheetkit.photo.fields import DIAGONALS, Fields
from sheetkit.photo.flight import _filled, turn_cells


def board_edges(board) -> list[tuple]:
    """Every unit and diagonal edge of the map, each (v, w) with v < w (as Fields keys them)."""
    out = []
    for c in range(board.width):
        for r in range(board.height):
            v = (c, r)
            for dx, dy in ((1, 0), (0, 1)) + DIAGONALS:
                w = (c + dx, r + dy)
                if 0 <= w[0] < board.width and 0 <= w[1] < board.height:
                    out.append(tuple(sorted((v, w))))
    return out


def true_fields(record: dict, spec) -> tuple[Fields, dict, dict]:
    """Fields, the puzzle boxes (name -> (value, 1.0)) and the dice log (turn -> ((flown,
    1.0), (puzzle, 1.0))) exactly as the sheet of `record` shows them."""
    from sheetkit.games.yuncos.scoring import CRASH_TRACK
    from sheetkit.games.yuncos.record import all_boxes, box_name

    board = spec.board
    f = Fields()
    pos = board.starts[record["start"]]
    path, ends = set(), set()
    for t in record["turn"]:
        for dx, dy in parse_flight(t["flight"]):
            nxt = (pos[0] + dx, pos[1] + dy)
            path.add((min(pos, nxt), max(pos, nxt)))
            pos = nxt
        ends.add(pos)
    f.edges = {e: float(e in path) for e in board_edges(board)}
    f.ends = {(c, r): float((c, r) in ends) for c in range(board.width) for r in range(board.height)}
    f.starts = {n: float(n == record["start"]) for n in board.starts}
    f.fish = [float(i < record["fish_marked"]) for i in range(len(spec.fish.values))]
    f.crashes = [float(i < record["crashes_marked"]) for i in range(len(CRASH_TRACK))]
    used = {box_name(b) for b in record.get("used", [])}
    f.abilities = {b: float(box_name(b) in used) for b in all_boxes(spec)}
    cells = {}
    for t, cell in zip(record["turn"], turn_cells(record)):
        if cell is not None:
            cells[cell] = (t["value"], 1.0)
    dice = {n: ((t["dice"][0], 1.0), (t["dice"][1], 1.0)) for n, t in enumerate(record["turn"], 1)
            if t.get("dice")}
    return f, cells, dice


def noisy(record: dict, spec, rng, flips: int = 1, kinds=("edge", "end", "digit"), soft: bool = True):
    """true_fields() with every probability softened (when `soft`) and `flips` fields read
    wrong with the confidence of an unsure reader: (fields, cells, dice, flipped), flipped a
    list of (kind, what): ("edge", (v, w)), ("end", v), ("digit", turn or box name)."""
    f, cells, dice = true_fields(record, spec)
    board = spec.board
    if soft:
        f.edges = {e: (rng.uniform(0.8, 0.99) if p else rng.uniform(0.01, 0.2)) for e, p in f.edges.items()}
        f.ends = {v: (rng.uniform(0.75, 0.99) if p else rng.uniform(0.01, 0.2)) for v, p in f.ends.items()}
        cells = {n: (v, rng.uniform(0.85, 1.0)) for n, (v, _) in cells.items()}
        dice = {t: tuple((v, rng.uniform(0.85, 1.0)) for v, _ in pair) for t, pair in dice.items()}
    flipped = []
    inner = [e for e in f.edges if not _on_frame(e, board)]
    path = [e for e in inner if f.edges[e] > 0.5]
    near = sorted({e for e in inner if f.edges[e] < 0.5 and (set(e) & {v for p in path for v in p})})
    ends = [v for v, p in f.ends.items() if p > 0.5]
    for _ in range(flips):
        kind = kinds[int(rng.integers(len(kinds)))]
        if kind == "edge":
            if rng.random() < 0.5 and path:  # a pencilled edge read as blank
                e = path[int(rng.integers(len(path)))]
                f.edges[e] = rng.uniform(0.25, 0.48)
            else:  # a smudge beside the path read as pencil
                e = near[int(rng.integers(len(near)))]
                f.edges[e] = rng.uniform(0.52, 0.75)
            flipped.append(("edge", e))
        elif kind == "end":
            v = ends[int(rng.integers(len(ends)))]
            f.ends[v] = rng.uniform(0.25, 0.48)
            flipped.append(("end", v))
        else:
            if rng.random() < 0.5 and cells:
                name = sorted(cells)[int(rng.integers(len(cells)))]
                v = cells[name][0]
                cells[name] = (v + 1 if v < 6 and (v == 1 or rng.random() < 0.5) else v - 1, rng.uniform(0.45, 0.75))
                flipped.append(("digit", name))
            else:
                t = sorted(dice)[int(rng.integers(len(dice)))]
                w = int(rng.integers(2))
                v = dice[t][w][0]
                new = (v + 1 if v < 6 and (v == 1 or rng.random() < 0.5) else v - 1, rng.uniform(0.45, 0.75))
                dice[t] = tuple(new if i == w else dice[t][i] for i in (0, 1))
                flipped.append(("digit", t))
    return f, cells, dice, flipped


def _on_frame(e, board) -> bool:
    (a, b) = e
    W, H = board.width - 1, board.height - 1
    return any(a[i] == b[i] == lim for i, lim in ((0, 0), (0, W), (1, 0), (1, H)))


def fields_right(draft_record: dict, truth: dict, spec) -> dict[str, bool]:
    """For every field of the draft (as Draft.confidence names them), whether it is the
    truth's: a flight step for step, a number with its box, the dice, the counts."""
    from sheetkit.games.yuncos.record import box_name

    out = {"start": draft_record["start"] == truth["start"],
           "fish_marked": draft_record["fish_marked"] == truth["fish_marked"],
           "crashes_marked": draft_record["crashes_marked"] == truth["crashes_marked"],
           "used": {box_name(b) for b in draft_record.get("used", [])} == {box_name(b) for b in truth.get("used", [])}}
    from sheetkit.photo.simulate import _verdict

    dc, tc = turn_cells(draft_record), turn_cells(truth)
    tt = truth["turn"]
    # another turn order that fills the same boxes alike and scores the same is as right:
    # the paper does not say which turn wrote which box
    alike = (_filled(draft_record, dc) == _filled(truth, tc) and len(draft_record["turn"]) == len(tt)
             and _verdict(draft_record) == _verdict(truth))
    for t, entry in enumerate(draft_record["turn"], 1):
        src = tt[t - 1] if t <= len(tt) else None
        out[f"turn[{t}].flight"] = src is not None and parse_flight(entry["flight"]) == parse_flight(src["flight"])
        out[f"turn[{t}].value"] = src is not None and (alike or (dc[t - 1] == tc[t - 1] and entry.get("value") == src.get("value")))
        out[f"turn[{t}].dice"] = src is not None and entry.get("dice") == src.get("dice")
    return out
