"""From the fields read off a photo to a draft record: the flight turn by turn, the numbers
turn by turn, and a confidence for every field.

The paper shows the drawn path, the turn-end dots, the numbers in their boxes and the dice
log (the flown die, then the puzzle's), but not in which turn each number was written, nor
the order of the path's steps where it crosses itself. So the reader makes candidates:

1. the path: every way to walk all pencilled edges from the marked start (at a crossing,
   each way on);
2. its turns: the cut of that walk into as many flights as the dice log has turns, each
   flight the length (Easy) or the pattern (Hard) of its flown die, or one off (a +-1
   box), cut where the turn-end dots are;
3. the numbers: which turn wrote into which box, each box group filled in order (left to
   right, bottom to top), each number the turn's puzzle die or one off; a turn whose
   number went nowhere crashed;

and the Yunco boxes on the turns that crashed. Each candidate record is replayed by the
checker; the one with the fewest faults wins, and where candidates as good disagree, the
fields they disagree on are marked for the player to confirm.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

from sheetkit.games.yuncos.layout import STEPS
from sheetkit.photo.fields import Fields, long_box

UNIT = set(STEPS.values())
CONFIRM = 0.8  # a field read with less confidence is marked for the player to confirm
MAX_WALKS = 120
AGAIN = 3  # pencilled edges a walk may go over twice (a flight back along its path)
BEAM = 120  # partial plans kept while placing the numbers turn by turn
WIDE_BEAM = 2000  # ... and when none of those completes
ORIENT = (
    lambda x, y: (x, y), lambda x, y: (-y, x), lambda x, y: (-x, -y), lambda x, y: (y, -x),
    lambda x, y: (-x, y), lambda x, y: (x, -y), lambda x, y: (y, x), lambda x, y: (-y, -x),
)


def _clamp(p: float) -> float:
    return min(0.98, max(0.02, p))


@dataclass
class Reading:
    """One value read, how sure the reader is, and why it is unsure."""

    value: object
    confidence: float
    why: str = ""


@dataclass
class Draft:
    record: dict  # the draft record (TOML data, as `sheetkit check` reads it)
    confidence: dict  # field path ("start", "turn[3].flight", ...) -> Reading
    faults: int  # errors the checker finds in the draft
    walks: int = 0  # ways the path could be walked
    notes: list = field(default_factory=list)

    @property
    def uncertain(self) -> list[str]:
        return [k for k, r in self.confidence.items() if r.confidence < CONFIRM]


# ---- digits -----------------------------------------------------------------------------

def read_digits(f: Fields, spec):
    """The numbers in the puzzle boxes (name -> (value, confidence); empty boxes left out)
    and the dice log (turn -> ((flown, conf), (puzzle, conf)); empty turns left out)."""
    from sheetkit.photo import digits

    cells: dict[str, tuple[int, float]] = {}
    groups = [([f"nest1.{i + 1}" for i in range(spec.nests.length)], "all_different"),
              ([f"nest2.{i + 1}" for i in range(spec.nests.length)], "descending")]
    groups += [([f"lum{c + 1}.{lv + 1}" for lv in range(spec.luminaries.height)], "rising")
               for c in range(spec.luminaries.columns)]
    for names, rule in groups:
        probs = [digits.classify(f.cells[n]) for n in names]
        for n, (value, conf) in zip(names, digits.narrow(probs, rule)):
            if value is not None:
                cells[n] = (value, conf)
    dice: dict[int, tuple] = {}
    for t in range(1, spec.dice_log + 1):
        probs = [digits.classify(f.dice[(t, w)]) for w in (0, 1)]
        pair = digits.narrow(probs, "none")
        if any(v is not None for v, _ in pair):
            dice[t] = tuple(pair)
    return cells, dice


# ---- the path ---------------------------------------------------------------------------

def _frame(e, board) -> bool:
    """An edge along the map's heavy black frame: pencil on it hardly shows."""
    (a, b) = e
    W, H = board.width - 1, board.height - 1
    return any(a[i] == b[i] == lim for i, lim in ((0, 0), (0, W), (1, 0), (1, H)))


def _graph(f: Fields, board):
    """The pencilled edges (to walk, all of them) and the frame's edges (to walk if the
    flight needs them: pencil on the black frame cannot be told from the frame)."""
    adj: dict = {}
    hidden: dict = {}
    for (a, b), p in f.edges.items():
        into = hidden if _frame((a, b), board) else adj if p >= 0.5 else None
        if into is not None:
            into.setdefault(a, []).append(b)
            into.setdefault(b, []).append(a)
    return adj, hidden


def walks(adj: dict, start, hidden: dict | None = None, limit: int = MAX_WALKS) -> list[list]:
    """Walks from `start` that use every pencilled edge once (each way on at a crossing),
    and frame edges where they join them; when no walk uses them all, the longest found."""
    hidden = hidden or {}
    total = sum(len(v) for v in adj.values()) // 2
    out: list[list] = []
    best: list[list] = []
    used: set = set()
    doubled: set = set()
    path = [start]
    budget = [30000]
    count = [0]  # pencilled edges used

    again = [0]  # pencilled edges walked a second time (a flight may go back over its path)

    def go(v, frame_run):
        budget[0] -= 1
        if len(out) >= limit or budget[0] < 0:
            return
        if count[0] == total:
            out.append(list(path))  # every pencilled edge walked; the flight may go on along the frame
        nexts = [(w, False) for w in adj.get(v, ())] + [(w, True) for w in hidden.get(v, ())]
        fresh = lambda w: (min(v, w), max(v, w)) not in used  # noqa: E731
        for w, on_frame in sorted(nexts, key=lambda n: (n[1], not fresh(n[0]), _turn_cost(path, n[0]))):
            e = (min(v, w), max(v, w))
            if on_frame and (e in used or frame_run >= 12):
                continue
            twice = e in used
            if twice and (again[0] >= AGAIN or e in doubled):
                continue
            if twice:
                again[0] += 1
                doubled.add(e)
            else:
                used.add(e)
            path.append(w)
            count[0] += not on_frame and not twice
            go(w, frame_run + 1 if on_frame else 0)
            count[0] -= not on_frame and not twice
            path.pop()
            if twice:
                again[0] -= 1
                doubled.discard(e)
            else:
                used.discard(e)
        if count[0] < total and (not best or count[0] > best[0][0]):
            best[:] = [(count[0], list(path))]

    go(start, 0)
    return out or [p for _, p in best]


def _turn_cost(path, w) -> int:
    """Going straight on first: the likelier reading at a crossing."""
    if len(path) < 2:
        return 0
    a, b = path[-2], path[-1]
    return 0 if (b[0] - a[0], b[1] - a[1]) == (w[0] - b[0], w[1] - b[1]) else 1


# ---- turns ------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _shapes(pattern: tuple) -> frozenset:
    return frozenset(tuple(o(*s) for s in pattern) for o in ORIENT)


def _flight_cost(steps: tuple, face: int | None, spec) -> tuple[float, int]:
    """How well `steps` fly `face`: (cost, plusminus needed). Diagonals only first or last."""
    diag = [i for i, s in enumerate(steps) if s not in UNIT]
    if any(0 < i < len(steps) - 1 for i in diag) or len(diag) > 2 or len(diag) == len(steps):
        return math.inf, 0
    unit = tuple(s for s in steps if s in UNIT)
    cost = 0.5 * len(diag)

    def fits(k: int) -> bool:
        if not 1 <= k <= 6:
            return False
        if spec.level == "easy":
            return len(unit) == k
        return unit in _shapes(tuple(spec.pattern(k)))

    if face is None:
        return (cost + 1, 0) if any(fits(k) for k in range(1, 7)) else (math.inf, 0)
    if fits(face):
        return cost, 0
    if fits(face - 1) or fits(face + 1):
        return cost + 3, 1
    return math.inf, 0


def cut(walk: list, turns: int | None, faces: dict, ends: dict, spec) -> tuple[float, list] | None:
    """The best cut of a walk into turns: (cost, [(from index, to index, plusminus), ...])."""
    steps = tuple((b[0] - a[0], b[1] - a[1]) for a, b in zip(walk, walk[1:]))
    n = len(steps)
    end_cost = [-math.log(_clamp(ends.get(v, 0.0))) for v in walk]
    pass_cost = [min(3.0, -math.log(1 - _clamp(ends.get(v, 0.0)))) for v in walk]
    limit = turns if turns is not None else n
    INF = math.inf
    # best[t][j]: the cheapest cut of steps[:j] into t turns
    best = [[INF] * (n + 1) for _ in range(limit + 1)]
    back: list[list] = [[None] * (n + 1) for _ in range(limit + 1)]
    best[0][0] = 0.0
    for t in range(1, limit + 1):
        face = faces.get(t)
        for j in range(1, n + 1):
            run = 0.0
            for i in range(j - 1, max(-1, j - 15), -1):
                if i < j - 1:
                    run += pass_cost[i + 1]
                if best[t - 1][i] == INF:
                    continue
                c, pm = _flight_cost(steps[i:j], face, spec)
                if c == INF:
                    continue
                total = best[t - 1][i] + c + end_cost[j] + run
                if total < best[t][j]:
                    best[t][j] = total
                    back[t][j] = (i, pm)
    if turns is None:
        options = [(best[t][n], t) for t in range(1, limit + 1) if best[t][n] < INF]
        if not options:
            return None
        cost, t = min(options)
    else:
        t, cost = turns, best[turns][n]
        if cost == INF:
            return None
    out = []
    j = n
    while t > 0:
        i, pm = back[t][j]
        out.append((i, j, pm))
        j, t = i, t - 1
    return cost, out[::-1]


DIAG_STEPS = ((1, -1), (1, 1), (-1, 1), (-1, -1))


def _unit_walks(pos, n: int, allowed) -> list[tuple]:
    """Every walk of n unit steps from pos along allowed edges."""
    out = []

    def go(v, steps):
        if len(steps) == n:
            out.append(tuple(steps))
            return
        for d in STEPS.values():
            w = (v[0] + d[0], v[1] + d[1])
            if allowed((min(v, w), max(v, w))):
                steps.append(d)
                go(w, steps)
                steps.pop()

    go(pos, [])
    return out


def _turn_options(pos, face, spec, allowed, diag_ok):
    """(cost, plusminus, steps) for one turn flown from pos with the die `face` (None:
    unknown): the die's length (Easy) or pattern (Hard), or one off, with a diagonal step
    first or last where one is pencilled."""
    faces = [(face, 0.0, 0), (face - 1, 3.0, 1), (face + 1, 3.0, 1)] if face else [(k, 1.0, 0) for k in range(1, 7)]
    out = []
    for k, cost, pm in faces:
        if not 1 <= k <= 6:
            continue
        for before in [None] + [d for d in DIAG_STEPS if diag_ok(pos, d)]:
            start = pos if before is None else (pos[0] + before[0], pos[1] + before[1])
            if spec.level == "easy":
                shapes = _unit_walks(start, k, allowed)
            else:
                shapes = [sh for sh in _shapes(tuple(spec.pattern(k)))
                          if _fits(start, sh, allowed)]
            for sh in shapes:
                head = (before,) if before else ()
                out.append((cost + 0.5 * bool(before), pm, head + sh))
                if before is None:
                    end = start
                    for d in sh:
                        end = (end[0] + d[0], end[1] + d[1])
                    out += [(cost + 0.5, pm, sh + (d,)) for d in DIAG_STEPS if diag_ok(end, d)]
    return out


def _fits(pos, steps, allowed) -> bool:
    v = pos
    for d in steps:
        w = (v[0] + d[0], v[1] + d[1])
        if not allowed((min(v, w), max(v, w))):
            return False
        v = w
    return True


def fly(f: Fields, spec, start, faces: dict, turns: int, limit: int = 12, budget: int = 4000) -> list:
    """The flight read turn by turn from the start, each turn as its die from the dice log
    allows, along pencilled edges (or the frame): readings that walk every pencilled edge,
    cheapest first, as (cost, walk, cut)."""
    board = spec.board
    inked = {e for e, p in f.edges.items() if p >= 0.5 and not _frame(e, board)}
    frame = {e for e in f.edges if _frame(e, board)}
    allowed = lambda e: e in inked or e in frame  # noqa: E731

    def diag_ok(v, d):
        w = (v[0] + d[0], v[1] + d[1])
        return (min(v, w), max(v, w)) in inked

    end_cost = lambda v: -math.log(_clamp(f.ends.get(v, 0.0)))  # noqa: E731
    pass_cost = lambda v: min(3.0, -math.log(1 - _clamp(f.ends.get(v, 0.0))))  # noqa: E731
    out: list = []
    left = [budget]
    walk = [start]
    cut_: list = []
    count: dict = {}

    def go(t, pos, cost):
        left[0] -= 1
        if left[0] < 0 or len(out) >= limit:
            return
        unused = sum(1 for e in inked if not count.get(e))
        if t > turns:
            if unused == 0:
                out.append((cost, list(walk), list(cut_)))
            return
        if unused > (turns - t + 1) * 8:
            return
        options = []
        for c, pm, steps in _turn_options(pos, faces.get(t), spec, allowed, diag_ok):
            v, extra, seen = pos, 0.0, []
            for d in steps:
                w = (v[0] + d[0], v[1] + d[1])
                e = (min(v, w), max(v, w))
                seen.append(e)
                if e in inked and (count.get(e) or seen.count(e) > 1):
                    extra += 2.0  # over its own path again
                elif e in frame:
                    extra += 0.3
                v = w
            fresh = len({e for e in seen if e in inked and not count.get(e)})
            options.append((c + extra + end_cost(v) - 0.8 * fresh, pm, steps, v))
        for c, pm, steps, v in sorted(options, key=lambda o: o[0])[:6]:
            i = len(walk) - 1
            u = pos
            for d in steps:
                w = (u[0] + d[0], u[1] + d[1])
                e = (min(u, w), max(u, w))
                count[e] = count.get(e, 0) + 1
                walk.append(w)
                u = w
            passed = sum(pass_cost(x) for x in walk[i + 1:-1])
            cut_.append((i, len(walk) - 1, pm))
            go(t + 1, v, cost + c + passed)
            cut_.pop()
            u = pos
            for d in steps:
                w = (u[0] + d[0], u[1] + d[1])
                e = (min(u, w), max(u, w))
                count[e] -= 1
                walk.pop()
                u = w

    go(1, start, 0.0)
    return sorted(out, key=lambda o: o[0])


def _diagonal_moves(walk: list, plan: list, spec) -> list[list]:
    """The same cut with one diagonal step moved across a turn boundary (the end of one
    flight or the start of the next: the path alone does not say which)."""
    steps = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(walk, walk[1:])]
    out = []
    for t in range(len(plan) - 1):
        (i, j, _), (_, k, _) = plan[t], plan[t + 1]
        for nj in (j - 1, j + 1):
            if not (i < nj < k) or steps[min(j, nj)] in UNIT:
                continue
            a = _flight_cost(tuple(steps[i:nj]), None, spec)
            b = _flight_cost(tuple(steps[nj:k]), None, spec)
            if a[0] < math.inf and b[0] < math.inf:
                new = list(plan)
                new[t], new[t + 1] = (i, nj, plan[t][2]), (nj, k, plan[t + 1][2])
                out.append(new)
    return out


# ---- numbers ----------------------------------------------------------------------------

def assign(cells: dict, puzzle_dice: list, spec, walk: list, plan: list, many: int = 8,
           slack: float = 2.5, beam: int | None = None) -> list:
    """Which turn wrote which box: the cheapest few plans, each (cost, per turn the cell
    name or None for a crash, and whether the number is one off the die). Each group of
    boxes fills in its own order; numbers that match the dice cost least, and so do plans
    that unlock an ability (Y15, Y16) before the flight cut (`walk`, `plan`) uses it."""
    groups = [[f"nest{r + 1}.{i + 1}" for i in range(spec.nests.length)] for r in range(2)]
    groups += [[f"lum{c + 1}.{lv + 1}" for lv in range(spec.luminaries.height)]
               for c in range(spec.luminaries.columns)]
    filled = [[n for n in g if n in cells] for g in groups]
    # a group's boxes are filled from its first on: a gap ends what this turn order can explain
    filled = [g[:next((i for i, n in enumerate(g) if n != grp[i]), len(g))] for g, grp in zip(filled, groups)]
    lengths = tuple(len(g) for g in filled)
    T = len(puzzle_dice)
    fish_before, diag_needs, diag_before, flight_pm = _flight_abilities(spec, walk, plan)

    @lru_cache(maxsize=None)
    def unlocked(kind: str, state: tuple) -> int:
        n = 0
        for r in range(2):
            n += sum(1 for k in range(state[r] // 2) if k < len(spec.nests.abilities[r])
                     and spec.nests.abilities[r][k] == kind)
        for c in range(spec.luminaries.columns):
            n += state[2 + c] == spec.luminaries.height and spec.luminaries.abilities[c] == kind
        return n

    def options(t: int, state: tuple, pm_spent: int):
        """(cost, cell or None, one off, next state) for turn t from `state`."""
        w = puzzle_dice[t]
        exact = False
        out = []
        for k, idx in enumerate(state):
            if idx >= lengths[k]:
                continue
            v = cells[filled[k][idx]][0]
            if w is None:
                c, pm = 1.0, 0
            elif v == w:
                c, pm = 0.0, 0
                exact = True
            elif abs(v - w) == 1:
                c, pm = 2.5, 1
            else:
                continue
            out.append((c, filled[k][idx], pm, state[:k] + (idx + 1,) + state[k + 1:]))
        # nothing written: a crash, hardly when the die goes where the next number did (Y13)
        out.append(((8.0 if exact else 2.0), None, 0, state))
        # an ability used before one is free costs as much as a number that fits nowhere
        diag_free = fish_before[t].get("diagonal", 0) + unlocked("diagonal", state) - diag_before[t]
        pm_free = fish_before[t].get("plusminus", 0) + unlocked("plusminus", state) - pm_spent
        late = 6.0 * max(0, diag_needs[t] - diag_free)
        res = []
        for c, cell, pm, nxt in out:
            need = 1 if (pm or flight_pm[t]) else 0
            res.append((c + late + 6.0 * max(0, need - pm_free), cell, pm, nxt, pm_spent + need))
        return res

    # a beam search over the turns: the cheapest BEAM partial plans, one per state
    width = beam or BEAM
    beam = {(tuple(0 for _ in groups), 0): (0.0, ())}
    for t in range(T):
        nxt_beam: dict = {}
        for (state, pm_spent), (cost, chosen) in beam.items():
            for c, cell, pm, nxt, spent in options(t, state, pm_spent):
                key = (nxt, spent)
                total = cost + c
                if key not in nxt_beam or total < nxt_beam[key][0]:
                    nxt_beam[key] = (total, chosen + ((cell, pm),))
        beam = dict(sorted(nxt_beam.items(), key=lambda kv: kv[1][0])[:width])
    done = sorted((v for (state, _), v in beam.items() if state == lengths), key=lambda v: v[0])
    if not done and width < WIDE_BEAM:  # the cheap partial plans all led nowhere: look wider
        return assign(cells, puzzle_dice, spec, walk, plan, many, slack, WIDE_BEAM)
    return [(cost, list(chosen)) for cost, chosen in done[:many] if cost <= done[0][0] + slack]


def _flight_abilities(spec, walk, plan):
    """Per turn of the cut: the ability boxes the fish eaten before it unlocked (by kind),
    its diagonal steps, the diagonal steps before it, and whether its flight needs +-1."""
    board = spec.board
    eaten: set = set()
    unlocked: dict = {}
    fish_before, needs, before, pms = [], [], [], []
    spent = 0
    for i, j, pm in plan:
        fish_before.append(dict(unlocked))
        d = sum(1 for a, b in zip(walk[i:j], walk[i + 1:j + 1]) if (b[0] - a[0], b[1] - a[1]) not in UNIT)
        needs.append(d)
        before.append(spent)
        spent += d
        pms.append(pm)
        for v in walk[i + 1:j + 1]:
            if v in board.fish and v not in eaten:
                eaten.add(v)
                kind = spec.fish_ability(len(eaten))
                if kind:
                    unlocked[kind] = unlocked.get(kind, 0) + 1
    return fish_before, needs, before, pms


# ---- the draft --------------------------------------------------------------------------

def _flight_text(steps) -> str:
    from sheetkit.games.yuncos.record import flight_text

    return flight_text(list(steps))


def _check(record: dict):
    from sheetkit.checking import records
    from sheetkit.errors import UserError

    try:
        return records.check(records.parse(record, "draft.toml"))
    except UserError:
        return None


def _errors(checked) -> int:
    if checked is None:
        return 10_000
    return sum(1 for f in checked.verdict.findings if f.severity == "error")


def build(f: Fields, spec, layout_id: str, qr: str, cells: dict, dice: dict) -> Draft:
    board = spec.board
    conf: dict[str, Reading] = {}
    adj, hidden = _graph(f, board)
    # the start: a start point with pencil leaving it, marked best, at an end of the path
    options = []
    for n, v in board.starts.items():
        deg = len(adj.get(v, ()))
        if deg or hidden.get(v):
            options.append((f.starts.get(n, 0) + (0.5 if deg % 2 else 0), n))
    options.sort(reverse=True)
    if not options:
        from sheetkit.errors import UserError

        raise UserError("no flight found on the map: is the path pencilled dark enough to see?")
    turns_logged = max(dice) if dice else None
    faces = {t: d[0][0] for t, d in dice.items()}
    candidates = []
    n_walks = 0
    for score, start in options[:2]:
        if turns_logged is not None and len(dice) == turns_logged:
            # the dice log is whole: read the flight turn by turn as the dice allow
            for cost, walk, plan in fly(f, spec, board.starts[start], faces, turns_logged):
                candidates.append((cost - 2 * score, start, walk, plan))
                n_walks += 1
            if candidates:
                continue
        found = walks(adj, board.starts[start], hidden)
        n_walks += len(found)
        for walk in found:
            c = cut(walk, turns_logged, faces, f.ends, spec)
            if c is None and turns_logged is not None:
                c = cut(walk, None, faces, f.ends, spec)
            if c is not None:
                candidates.append((c[0] - 2 * score, start, walk, c[1]))
                candidates += [(c[0] - 2 * score + 0.5, start, walk, v) for v in _diagonal_moves(walk, c[1], spec)]
    if not candidates:
        from sheetkit.errors import UserError

        raise UserError("the pencilled path cannot be cut into flights from a start point: "
                        "copy this sheet by hand (sheetkit template)")
    candidates.sort(key=lambda c: c[0])
    fish = sum(1 for p in f.fish if p >= 0.5)
    crashes = sum(1 for p in f.crashes if p >= 0.5)
    used = [b for b, p in f.abilities.items() if p >= 0.5]
    drafts = []
    # each cut with its likeliest numbers first; then more ways to place the numbers for
    # the cuts the rules like best
    plans = {}
    for n, (cost, start, walk, plan) in enumerate(candidates[:6]):
        T = len(plan)
        puzzle_dice = [dice[t][1][0] if t in dice else None for t in range(1, T + 1)]
        plans[n] = assign(cells, puzzle_dice, spec, walk, plan)
        if plans[n]:
            drafts.append(_draft(n, 0, candidates, plans, layout_id, qr, fish, crashes, used, cells, dice, spec))
            if drafts[-1][0] == 0:
                break
    if drafts and drafts[-1][0] != 0:
        for e, _, _, _, _, n in sorted(drafts, key=lambda d: (d[0], d[1]))[:3]:
            for m in range(1, len(plans[n])):
                drafts.append(_draft(n, m, candidates, plans, layout_id, qr, fish, crashes, used, cells, dice, spec))
                if drafts[-1][0] == 0:
                    break
    if not drafts:
        from sheetkit.errors import UserError

        raise UserError("the numbers in the boxes do not fit the dice log in any turn order: "
                        "copy this sheet by hand (sheetkit template)")
    drafts.sort(key=lambda d: (d[0], d[1]))
    faults, _, record, plan, walk, _ = drafts[0]
    rivals = [d for d in drafts[1:] if d[0] == faults]
    # confidences
    start = record["start"]
    conf["start"] = Reading(start, _clamp(max(f.starts.get(start, 0), 0.5 + 0.4 * (len(options) == 1))),
                            "the start point's mark")
    for t, ((i, j, pm), entry) in enumerate(zip(plan, record["turn"]), 1):
        keys = [(min(walk[k], walk[k + 1]), max(walk[k], walk[k + 1])) for k in range(i, j)]
        # a step along the frame was inferred, not seen
        edges = [0.6 if _frame(e, board) else f.edges[e] for e in keys]
        p = min(edges) if edges else 0.0
        p = min(p, max(f.ends.get(walk[j], 0.0), 0.85 if t in dice and not pm else 0.5))
        if any(len(r[2]["turn"]) < t or r[2]["turn"][t - 1]["flight"] != entry["flight"] for r in rivals):
            p = min(p, 0.5)  # another reading of the path is as good by the rules
        conf[f"turn[{t}].flight"] = Reading(entry["flight"], p, "the pencilled steps and the turn's end")
        if "puzzle" in entry:
            conf[f"turn[{t}].value"] = Reading(entry["value"], cells[entry["puzzle"]][1], f"the number in {entry['puzzle']}")
        if t in dice:
            c = min(dice[t][0][1], dice[t][1][1])
            conf[f"turn[{t}].dice"] = Reading(entry.get("dice"), c if "dice" in entry else 0.3, "the dice log")
    conf["fish_marked"] = Reading(fish, min(max(p, 1 - p) for p in f.fish), "the fish counter's crosses")
    conf["crashes_marked"] = Reading(crashes, min(max(p, 1 - p) for p in f.crashes), "the crash track's crosses")
    conf["used"] = Reading(record["used"], min([max(p, 1 - p) for p in f.abilities.values()] or [1.0]),
                           "the crossed-out ability boxes")
    notes = []
    if faults:
        notes.append(f"the draft as read has {faults} fault(s) by the rules: check the marked fields first")
    return Draft(record, conf, faults, n_walks, notes)


def _draft(n, m, candidates, plans, layout_id, qr, fish, crashes, used, cells, dice, spec):
    cost, start, walk, plan = candidates[n]
    a_cost, numbers = plans[n][m]
    record = _record(layout_id, qr, start, fish, crashes, used, walk, plan, numbers, cells, dice)
    record, checked = _yuncos(record, used, spec)
    return (_errors(checked), cost + a_cost, record, plan, walk, n)


def _record(layout_id, qr, start, fish, crashes, used, walk, plan, numbers, cells, dice) -> dict:
    turns = []
    for t, ((i, j, pm), (cell, pm_value)) in enumerate(zip(plan, numbers), 1):
        steps = [(walk[k + 1][0] - walk[k][0], walk[k + 1][1] - walk[k][1]) for k in range(i, j)]
        entry: dict = {"flight": _flight_text(steps)}
        if cell is None:
            entry["crash"] = True
        else:
            entry["puzzle"] = cell
            entry["value"] = cells[cell][0]
        if t in dice and all(v is not None for v, _ in dice[t]):
            entry["dice"] = [dice[t][0][0], dice[t][1][0]]
        if pm or pm_value:
            entry["use"] = ["plusminus"] * max(1, pm + pm_value)
        turns.append(entry)
    return {"game": "yuncos", "layout": layout_id, "qr": qr, "start": start, "fish_marked": fish,
            "crashes_marked": crashes, "used": [long_box(b) for b in used], "turn": turns}


def _yuncos(record: dict, used: list, spec):
    """Spend the crossed-out Yunco boxes on the turns that crashed, where that makes the
    crash track agree; the checked record."""
    from sheetkit.games.yuncos.record import box_kind

    checked = _check(record)
    yuncos = sum(1 for b in used if box_kind(spec, b) == "yunco")
    if checked is None or not yuncos:
        return record, checked
    events = [c for c in checked.state.crashes]
    due = checked.state.marks - record["crashes_marked"]
    for c in events:
        if due <= 0 or yuncos <= 0:
            break
        entry = record["turn"][c["turn"] - 1]
        trial = dict(entry, use=entry.get("use", []) + ["yunco"])
        new = dict(record, turn=record["turn"][:c["turn"] - 1] + [trial] + record["turn"][c["turn"]:])
        ch = _check(new)
        if ch is not None and _errors(ch) <= _errors(checked):
            record, checked = new, ch
            due -= 1
            yuncos -= 1
    return record, checked
