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

import numpy as np

from sheetkit.messages import msg
from sheetkit.games.yuncos.layout import STEPS
from sheetkit.photo.confirm import turn_field
from sheetkit.photo.fields import Fields, long_box, pencil_mm

UNIT = set(STEPS.values())
CONFIRM = 0.8  # a field read with less confidence is marked for the player to confirm
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
    why: object = ""  # a message (photo.why.*): said in the draft's language
    after: int | None = None  # unsure only because turn `after`'s flight is (0: the start point): read again once that is confirmed


@dataclass
class Draft:
    record: dict  # the draft record (TOML data, as `sheetkit check` reads it)
    confidence: dict  # field path ("start", "turn[3].flight", ...) -> Reading
    faults: int  # errors the checker finds in the draft
    walks: int = 0  # ways the path could be walked
    notes: list = field(default_factory=list)  # messages (photo.note.*)
    held: list = field(default_factory=list)  # the fields the player confirmed, held as they gave them

    @property
    def uncertain(self) -> list[str]:
        """The fields to confirm: read with less than CONFIRM confidence, of their own."""
        return [k for k, r in self.confidence.items() if r.confidence < CONFIRM and r.after is None]

    @property
    def waiting(self) -> list[str]:
        """The fields unsure only because an earlier turn's flight, or the start point, is
        (Reading.after): once that one is confirmed, they are read again around it rather
        than asked."""
        return [k for k, r in self.confidence.items() if r.confidence < CONFIRM and r.after is not None]


# ---- digits -----------------------------------------------------------------------------

EMPTY_MM = 0.8  # a dice-log box with less pencil than this many mm of line may be empty ...
SPECK_MM = 0.2  # ... and with less than this, is: not worth the digit reader's time


class DiceLog(dict):
    """The dice log read: turn -> ((flown, conf), (puzzle, conf)), one entry per turn the log
    shows; `turns` is their number and `sure` how surely the log shows that many."""

    turns: int = 0
    sure: float = 1.0


def turns_of(dice: dict) -> tuple[int, float]:
    """The number of turns the dice log shows and how surely: read_digits' reading, or, for
    a plain dict (the dice given, as the tests do), its last row, surely."""
    if isinstance(dice, DiceLog):
        return dice.turns, dice.sure
    return (max(dice) if dice else 0), 1.0


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
    rows = []
    for t in range(1, spec.dice_log + 1):
        row = []
        for w in (0, 1):
            mm = pencil_mm(f.dice[(t, w)], f.line)
            # an empty box is not worth the network's time: dice_log reads it as empty
            row.append((digits.classify(f.dice[(t, w)]) if mm >= SPECK_MM else {c: 0.0 for c in digits.CLASSES}, mm))
        rows.append(row)
    return cells, dice_log(rows)


FAINT_EMPTY = 0.25  # a box under EMPTY_MM is empty at least this likely: its digit is never sure


def _faint(p: dict, mm: float) -> dict:
    """A box's digit probabilities where it holds little pencil (`mm` of line, under
    EMPTY_MM): empty at least as likely as its pencil falls short of EMPTY_MM (all of it
    below SPECK_MM), and at least FAINT_EMPTY, the digits read sharing the rest. A faint
    digit is no speck: the turn's other die beside it, surely written, then makes its row
    a turn, the faint die asked; a row of two faint boxes further down, a turn unsurely."""
    empty = min(0.99, max(p.get(None, 0.0), FAINT_EMPTY, 1 - max(0.0, mm - SPECK_MM) / (EMPTY_MM - SPECK_MM)))
    rest = sum(v for c, v in p.items() if c is not None)
    if rest <= 0:
        return {c: (empty if c is None else (1 - empty) / (len(p) - 1)) for c in p}
    return {c: (empty if c is None else v * (1 - empty) / rest) for c, v in p.items()}


def dice_log(rows: list) -> DiceLog:
    """The dice log from its rows as read, one per turn it has room for: per row its two
    boxes as (the digit reader's probabilities, the pencil in the box in mm of line)."""
    from sheetkit.photo import digits

    dice = DiceLog()
    written = []  # per row of the log: the log-odds that it is written (both its boxes)
    pairs = []
    for row in rows:
        probs = []
        for p, mm in row:
            if mm < EMPTY_MM:  # little pencil, in mm of this photo's own line: likelier empty
                probs.append(_faint(p, mm))
            else:
                probs.append(p)
        pairs.append(digits.narrow(probs, "none"))
        pe = [min(0.99, max(0.01, p[None])) for p in probs]
        written.append(sum(math.log((1 - q) / q) for q in pe))
    # The log fills from turn 1 with no gaps, one row a turn: the number of turns is the
    # length of the written prefix that the ink makes likeliest; a row beyond it does not
    # make a turn (a speck, a shadow), nor does a turn exist without its row.
    prefix = [0.0]
    for lo in written:
        prefix.append(prefix[-1] + lo)
    best = max(range(len(prefix)), key=lambda n: (prefix[n], -n))
    z = max(prefix)
    ws = [math.exp(v - z) for v in prefix]
    for t in range(1, best + 1):
        dice[t] = tuple((v, c) if v is not None else (None, 0.0) for v, c in pairs[t - 1])
    dice.turns, dice.sure = best, ws[best] / sum(ws)
    return dice


# ---- the flight --------------------------------------------------------------------------
#
# A reading of the flight is scored by how unlikely it makes what the photo shows (a
# negative log-likelihood, 0 at best): every pencilled edge it leaves unwalked and every
# blank edge it walks costs the edge's log-odds, every turn-end dot it leaves unexplained
# and every turn it ends where no dot is costs the dot's, a flown die other than the one the
# dice log shows costs that digit's odds, and an ability (+-1, a diagonal step) a little.
# The search goes turn by turn and keeps the cheapest readings (a beam), ranked by their cost
# so far plus what the turns left must still cost at the least.

PM_COST = 2.5  # a +-1 on the flown die
DIAG_COST = 1.5  # a diagonal step before or after the flight
FRAME_COST = 0.3  # a step along the frame, where pencil does not show
AGAIN_COST = 2.0  # a step over the path again (an obstacle crash)
FLIGHT_BEAM = 300  # readings kept after each turn
PRUNE = 12.0  # a turn's reading this much costlier than the cheapest (e^-12 as likely) is not kept
FALLBACK_BEAM = 40  # ... when the flight must also cross edges read as all but blank
FAINT = 0.03  # ... those read at least this likely (a blank edge reads about 0.01)
BLANK_STEPS = 2  # the last way before refusing: unit steps over paper read as blank one flight may take
WALKABLE = 0.2  # an edge read less likely than this is never walked
STEP_CAP = 8  # unit and diagonal steps one turn can fly at most
OTHER_FACE = 4.5  # a die read less surely than this (in cost: 92 %) may have been another face
OPTION_CAP = 1000  # a point's options flown at most, the cheapest by the least they can cost: a noisy
# photo whose paper reads as pencil everywhere offered 10,000 a point and took 20 s (5 s so); the
# 33 photos of bench/same_drafts.py offer at most 983 and keep none beyond the 525th
SWAP_COST = 2.0  # the dice noted puzzle die first, against the log's heading (flight, puzzle): rare, a little less than a +-1


def _logit(p: float) -> float:
    p = _clamp(p)
    return math.log(p / (1 - p))


def _frame(e, board) -> bool:
    """An edge along the map's heavy black frame: pencil on it hardly shows."""
    (a, b) = e
    W, H = board.width - 1, board.height - 1
    return any(a[i] == b[i] == lim for i, lim in ((0, 0), (0, W), (1, 0), (1, H)))


def _face_costs(pair) -> list[tuple[int, float, int | None]]:
    """The flown die's faces worth trying, the cost of each and which of the log's two boxes
    it was written in (None: the log shows nothing), from the row's two digits read
    ((value, confidence), (value, confidence)). The log's heading asks for the flown die
    first, but a player may note the two dice in any order (the records do): the second box
    flown costs SWAP_COST; a face neither box shows costs the odds that its digit is misread."""
    if pair is None or all(v is None for v, _ in pair):
        return [(k, math.log(6), None) for k in range(1, 7)]
    best: dict = {}
    for which, (v, c) in enumerate(pair):
        if v is None:
            continue
        c = _clamp(c)
        prior = SWAP_COST if which else 0.0
        cands = [(v, -math.log(c))]
        other = -math.log((1 - c) / 5)
        if other < OTHER_FACE:
            cands += [(k, other) for k in range(1, 7) if k != v]
        for k, cost in cands:
            if best.get(k, (math.inf,))[0] > cost + prior:
                best[k] = (cost + prior, which)
    return [(k, cost, which) for k, (cost, which) in best.items()]


@lru_cache(maxsize=None)
def _shapes(pattern: tuple) -> frozenset:
    return frozenset(tuple(o(*s) for s in pattern) for o in ORIENT)


DIAG_STEPS = ((1, -1), (1, 1), (-1, 1), (-1, -1))


def _memo(fn):
    """fn's results kept for as long as the object it belongs to (one reading of a sheet)."""
    seen: dict = {}

    def call(*args):
        if args not in seen:
            seen[args] = fn(*args)
        return seen[args]

    return call


class _Map:
    """The edges as the search sees them: which may be walked, and the cost of walking one."""

    def __init__(self, f: Fields, spec, walkable: float = WALKABLE, blank_steps: int = 0):
        board = spec.board
        self.spec = spec
        self.logit = {}
        self.frame = set()
        # with blank_steps, the unit edges read less likely than `walkable` may be walked
        # too, at most that many in one flight: the flights worth trying stay a few per point
        self.blank_steps, blank = blank_steps, set()
        for e, p in f.edges.items():
            if _frame(e, board):
                self.frame.add(e)
            elif p >= walkable:
                self.logit[e] = _logit(p)
            elif blank_steps and (e[1][0] - e[0][0], e[1][1] - e[0][1]) in UNIT:
                self.logit[e] = _logit(p)
                blank.add(e)
        # edges and vertices as bits, so that a reading's walked edges and turn ends are ints
        self.bit = {e: 1 << i for i, e in enumerate(sorted(self.logit) + sorted(self.frame))}
        self.vbit = {v: 1 << i for i, v in enumerate(sorted(f.ends))}
        # what walking an edge the first time costs: a blank one its log-odds, the frame a little
        self.walk_cost = {self.bit[e]: max(0.0, -lg) for e, lg in self.logit.items()}
        self.walk_cost.update({self.bit[e]: FRAME_COST for e in self.frame})
        # an edge's bit by its two ends in either order, and what walking it again saves:
        # looked up for every step of every flight tried
        self.step_bit = {}
        for (a, b), bit in self.bit.items():
            self.step_bit[(a, b)] = self.step_bit[(b, a)] = bit
        self.blank = {self.bit[e] for e in blank}
        self.saves = {b: max(0.0, c - AGAIN_COST) for b, c in self.walk_cost.items()}
        self.inked = sorted((lg, self.bit[e]) for e, lg in self.logit.items() if lg > 0)
        self.dots = sorted((_logit(p), self.vbit[v]) for v, p in f.ends.items() if p > 0.5)
        self.end_cost = {self.vbit[v]: max(0.0, -_logit(p)) for v, p in f.ends.items()}
        self.walked_from: dict = {}  # (point, steps) -> _walked's answer
        self.shapes = _memo(self._shapes)
        self.unit_moves = _memo(self._unit_moves)
        self.walks = _memo(self._walks)
        self.flights = _memo(self._flights)
        self.diagonals = _memo(self._diagonals)
        self.options = _memo(self._options)
        self.table = _memo(lambda pos, k: _Flights(self, self.flights(pos, k)))
        self.block = _memo(self._block)
        # the search takes a turn's nodes at once, their bit sets as rows of 64-bit words
        self.edge_words = max(1, -(-len(self.bit) // 64))
        self.point_words = max(1, -(-len(self.vbit) // 64))
        # each bit's index, an edge's or a point's
        self.index = {b: b.bit_length() - 1 for b in list(self.bit.values()) + list(self.vbit.values())}
        # walking an edge again costs an obstacle crash instead of its fresh cost
        self.again = np.zeros(len(self.bit))
        for b, c in self.walk_cost.items():
            self.again[self.index[b]] = AGAIN_COST - c
        self.inked_at = np.array([self.index[b] for _, b in self.inked], np.int64)
        self.inked_cost = np.array([lg for lg, _ in self.inked])
        self.dots_at = np.array([self.index[b] for _, b in self.dots], np.int64)
        self.dots_cost = np.array([lg for lg, _ in self.dots])

    def _shapes(self, pos, k: int) -> tuple:
        """Every way to fly k (a die face) from pos along walkable edges: unit-step tuples."""
        ok = lambda v, w: (v, w) in self.step_bit  # noqa: E731  (walkable: pencilled enough, or the frame)
        if self.spec.level == "easy":
            return self.walks(pos, k, self.blank_steps)
        out = []
        for sh in _shapes(tuple(self.spec.pattern(k))):
            v, blank = pos, 0
            for d in sh:
                w = (v[0] + d[0], v[1] + d[1])
                if not ok(v, w):
                    break
                blank += self.step_bit[(v, w)] in self.blank
                v = w
            else:
                if blank <= self.blank_steps:
                    out.append(sh)
        return tuple(sorted(out))

    def _walks(self, v, k: int, blank: int) -> tuple:
        """Every walk of k unit steps from v along walkable edges, at most `blank` of them over
        paper read as blank, depth first in STEPS' order: the walks from each point worked
        out once, for every flight through it."""
        if k == 0:
            return ((),)
        return tuple((d,) + rest for d, w, b in self.unit_moves(v) if b <= blank
                     for rest in self.walks(w, k - 1, blank - b))

    def _unit_moves(self, v) -> tuple:
        """The unit steps that may be walked from v, in STEPS' order: (step, the point it
        reaches, 1 if the edge is read as blank paper)."""
        out = []
        for d in STEPS.values():
            w = (v[0] + d[0], v[1] + d[1])
            if (v, w) in self.step_bit:
                out.append((d, w, int(self.step_bit[(v, w)] in self.blank)))
        return tuple(out)

    def _walked_cost(self, bits: tuple) -> tuple:
        """(the edges as one mask, what walking them costs over fresh paper, each edge's bit
        once): a flight that goes over its own edge again pays that as an obstacle crash."""
        mask, cost, uniq = 0, 0.0, []
        for b in bits:
            if mask & b:
                cost += AGAIN_COST
            else:
                cost += self.walk_cost[b]
                mask |= b
                uniq.append(b)
        return mask, cost, tuple(uniq)

    def _diagonals(self, v) -> tuple:
        out = []
        for d in DIAG_STEPS:
            w = (v[0] + d[0], v[1] + d[1])
            if (min(v, w), max(v, w)) in self.logit:
                out.append(d)
        return tuple(out)

    def _options(self, pos, read) -> tuple:
        """(cost, plusminus, (face flown, its box in the log), steps, end, end bit, edge bits
        in order, their mask, what walking them costs on fresh paper, each bit once, the
        least the option can cost) of every way to fly one turn from pos with the log's row
        read as `read`: either die's face (or another at the digit's odds), one off with a
        +-1, a diagonal step first or last where one is pencilled; cheapest first by the
        least each can cost, so that the search stops at the first beyond its bound."""
        cheapest: dict = {}  # the same steps flown as another face, or one off: the likeliest only
        for value, fc, which in _face_costs(read):
            face = (value, which)
            for k, pm in ((value, 0), (value - 1, 1), (value + 1, 1)):
                if not 1 <= k <= 6:
                    continue
                base = fc + PM_COST * pm
                for diag, o in self.flights(pos, k):
                    c = base + DIAG_COST * diag
                    got = cheapest.get(o[0])
                    if got is None or c < got[0]:
                        cheapest[o[0]] = (c, pm, face, o)
        res = [(c, pm, face) + o[:7] + (c + o[5] - o[7],) for c, pm, face, o in cheapest.values()]
        return tuple(sorted(res, key=lambda o: (o[10], o[3])))

    def _block(self, pos, read) -> _Block:
        """_options(pos, read) as a _Block, worked out on arrays: each flight at the cost
        of the first of the faces (or one off) that fly it cheapest, as _options goes
        through them; the same steps flown as two lengths at the cheaper (the first);
        cheapest first by the least each can cost, then by the steps; the first OPTION_CAP."""
        combos: dict = {}  # a face's length -> [(cost, plusminus, face, place in _options' order)]
        for value, fc, which in _face_costs(read):
            for k, pm in ((value, 0), (value - 1, 1), (value + 1, 1)):
                if 1 <= k <= 6:
                    combos.setdefault(k, []).append((fc + PM_COST * pm, pm, (value, which), sum(map(len, combos.values()))))
        tables = [self.table(pos, k) for k in combos]
        per_length = list(combos.values())
        c, chosen = [], []
        for t, options in zip(tables, combos.values()):
            best, by = np.full(len(t.flights), np.inf), np.zeros(len(t.flights), np.int64)
            for j, (base, *_) in enumerate(options):
                cost = base + t.diag
                better = cost < best  # (a tie keeps the first)
                best, by = np.where(better, cost, best), np.where(better, j, by)
            c.append(best)
            chosen.append(by)
        which = np.repeat(np.arange(len(tables)), [len(t.flights) for t in tables])
        rows = np.concatenate([np.arange(len(t.flights)) for t in tables] or [np.zeros(0, np.int64)])
        c, chosen = np.concatenate(c or [np.zeros(0)]), np.concatenate(chosen or [np.zeros(0, np.int64)])
        steps_of = lambda n: tables[which[n]].flights[rows[n]][0]  # noqa: E731
        if sum(len(t.steps) for t in tables) < len(c) or \
                any(a.steps & b.steps for i, a in enumerate(tables) for b in tables[i + 1:]):
            # the same steps flown twice: the cheaper, the first in _options' order
            first: dict = {}
            for n in range(len(c)):
                rank = (c[n], per_length[which[n]][chosen[n]][3], rows[n])
                if steps_of(n) not in first or rank < first[steps_of(n)][0]:
                    first[steps_of(n)] = (rank, n)
            keep = np.array(sorted(n for _, n in first.values()), np.int64)
            which, rows, c, chosen = which[keep], rows[keep], c[keep], chosen[keep]
        flat = _flat(tables, which, rows)
        least = c + np.concatenate([t.fresh for t in tables])[flat] - np.concatenate([t.saved for t in tables])[flat] \
            if len(c) else c
        if all(t.order is not None for t in tables) and len(c):
            ranked = np.lexsort((np.concatenate([t.order for t in tables])[flat], least))
        else:
            ranked = _by_steps(np.argsort(least, kind="stable"), least, steps_of)
        ranked = ranked[:OPTION_CAP]
        which, rows, c, chosen, least = which[ranked], rows[ranked], c[ranked], chosen[ranked], least[ranked]
        picked = [per_length[w][j] for w, j in zip(which.tolist(), chosen.tolist())]
        return _Block(tables, which, rows, c, least, [o[1] for o in picked], [o[2] for o in picked])

    def _flights(self, pos, k: int) -> tuple:
        """Every way to fly k (a die face) from pos, with a diagonal step first or last where
        one is pencilled: (diagonal or not, (steps, end, end bit, edge bits, mask, fresh cost,
        each bit once, what walking them again saves over blank paper))."""
        out = []
        for before in (None,) + self.diagonals(pos):
            start = pos if before is None else (pos[0] + before[0], pos[1] + before[1])
            for sh in self.shapes(start, k):
                head = (before,) if before else ()
                out.append((bool(before), head + sh))
                if before is None:
                    end = start
                    for d in sh:
                        end = (end[0] + d[0], end[1] + d[1])
                    out += [(True, sh + (d,)) for d in self.diagonals(end)]
        res = []
        walked = self._walked
        for diag, steps in out:
            v, bits, mask, fresh, uniq, saved = walked(pos, steps)
            res.append((diag, (steps, v, self.vbit[v], bits, mask, fresh, uniq, saved)))
        return tuple(res)

    def _walked(self, pos, steps: tuple) -> tuple:
        """(the end, the edges' bits in order, their mask, what walking them costs as
        _walked_cost adds it up, each bit once, what walking those again saves) of `steps`
        from pos: each walk one step more than a walk worked out before (the flights of a
        face and of one more share their first steps), the sums added in the same order."""
        got = self.walked_from.get((pos, steps))
        if got is not None:
            return got
        if not steps:
            got = (pos, (), 0, 0.0, (), 0)
        else:
            v, bits, mask, fresh, uniq, saved = self._walked(pos, steps[:-1])
            d = steps[-1]
            w = (v[0] + d[0], v[1] + d[1])
            b = self.step_bit[(v, w)]
            if mask & b:
                got = (w, bits + (b,), mask, fresh + AGAIN_COST, uniq, saved)
            else:
                got = (w, bits + (b,), mask | b, fresh + self.walk_cost[b], uniq + (b,), saved + self.saves[b])
        self.walked_from[(pos, steps)] = got
        return got

    def least_left(self, walked: np.ndarray, taken: np.ndarray, turns_left: int) -> np.ndarray:
        """The least the rest must cost, per node (its edges walked and its turn ends and
        start as rows of words): the pencilled edges that the turns left cannot all walk, and
        the dots they cannot all end at, stay unexplained (the cheapest of them, added in
        order: a cumulative sum adds as a loop does)."""
        h = np.zeros(len(walked))
        for rows, at, costs, per_turn in ((walked, self.inked_at, self.inked_cost, STEP_CAP),
                                          (taken, self.dots_at, self.dots_cost, 1)):
            if not len(at):
                continue
            free = ~_bits(rows, at)
            spare = free.sum(axis=1) - turns_left * per_turn
            short = np.flatnonzero(spare > 0)  # only these rows have edges or dots left over
            if not len(short):
                continue
            free, spare = free[short], spare[short]
            # where each row has counted its spare ones (counted in 16 bits: a map has fewer
            # edges), then the costs added up to there only: the same sums, in the same order
            counted = np.cumsum(free, axis=1, dtype=np.int16 if len(at) < 2 ** 15 else np.int64)
            last = np.argmax(counted >= spare[:, None], axis=1)
            upto_last = int(last.max()) + 1
            upto = np.cumsum(np.where(free[:, :upto_last], costs[:upto_last], 0.0), axis=1)
            h[short] = h[short] + upto[np.arange(len(short)), last]
        return h

    def unexplained(self, walked: int, ends: int, start: int) -> float:
        return (sum(lg for lg, b in self.inked if not walked & b)
                + sum(lg for lg, b in self.dots if not (ends | start) & b))


def _words(masks, n: int) -> np.ndarray:
    """Python ints as rows of n 64-bit words, the lowest first."""
    return np.frombuffer(b"".join(x.to_bytes(8 * n, "little") for x in masks), "<u8").reshape(-1, n)


def _bits(rows: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Whether each row of words (n, words) has the bits `at` (their indices): (n, len(at))."""
    # every bit of a row unpacked (the words are little-endian: bit i is bit i % 8 of byte
    # i // 8), then the ones asked: far less to move than shifting a word for each
    every = np.unpackbits(np.ascontiguousarray(rows, "<u8").view(np.uint8), axis=1, bitorder="little")
    return every[:, at].view(bool)


def _bit_each(rows: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Whether each row of words has its own bit `at[row]`."""
    return ((rows[np.arange(len(rows)), at >> 6] >> (at & 63).astype(np.uint64)) & np.uint64(1)).astype(bool)


def _set_each(rows: np.ndarray, at: np.ndarray) -> None:
    """Each row of words with its own bit `at[row]` set, in place."""
    rows[np.arange(len(rows)), at >> 6] |= np.uint64(1) << (at & 63).astype(np.uint64)


class _Flights:
    """Ways to fly from a point (_Map._flights: (diagonal or not, flight)) as arrays: what
    walking each costs on fresh paper and saves when walked again, its edges as words, each
    edge once (its index, -1 past the end) with what walking it again costs more or less,
    its end's index and the cost of ending there."""

    def __init__(self, m: _Map, flights):
        self.flights = [fl for _, fl in flights]
        self.diag = np.array([DIAG_COST * d for d, _ in flights], np.float64)
        self.fresh = np.array([fl[5] for fl in self.flights], np.float64)
        self.saved = np.array([fl[7] for fl in self.flights], np.float64)
        self.masks = _words([fl[4] for fl in self.flights], m.edge_words)
        count = np.array([len(fl[6]) for fl in self.flights], np.int64)
        # as wide as a turn's steps at most, so that the options of a turn stack as they are
        self.uniq = np.full((len(count), max(STEP_CAP, int(count.max(initial=0)))), -1, np.int64)
        row = np.repeat(np.arange(len(count)), count)
        self.uniq[row, np.arange(len(row)) - np.repeat(np.cumsum(count) - count, count)] = \
            [m.index[b] for fl in self.flights for b in fl[6]]
        self.again = np.where(self.uniq >= 0, m.again[self.uniq], 0.0)
        self.end = np.array([m.index[fl[2]] for fl in self.flights], np.int64)
        self.end_cost = np.array([m.end_cost[fl[2]] for fl in self.flights], np.float64)
        self.steps = {fl[0] for fl in self.flights}
        self.order = _steps_order([fl[0] for fl in self.flights])


def _steps_order(flights: list) -> np.ndarray | None:
    """Numbers in the order of the steps (tuples of (dx, dy)) as tuples compare: each step
    a digit 1-9, a flight that ends a 0 (before any step); None for steps not all of -1, 0
    and 1, or too many to count so."""
    out = [_steps_number(st) for st in flights]
    return None if None in out else np.array(out, np.int64)


@lru_cache(maxsize=None)
def _steps_number(st: tuple) -> int | None:
    """_steps_order's number of one flight's steps (the same steps flown from many points)."""
    digits = 18  # an int64 holds as many
    if len(st) > digits:
        return None
    n = 0
    for step in st:
        d = STEP_DIGIT.get(step)
        if d is None:
            return None
        n = n * 10 + d
    return n * 10 ** (digits - len(st))


STEP_DIGIT = {(a, b): (a + 1) * 3 + b + 2 for a in (-1, 0, 1) for b in (-1, 0, 1)}  # _steps_order's digit of a step


class _Block:
    """A point's options, as the search takes them (every node of a turn at once): per
    option its flight (`tables[which][row]`), its cost before walking (c), the least it can
    cost, plusminus and face; and, gathered from its flight, what _Flights holds."""

    def __init__(self, tables: list, which, rows, c, least, pm: list, faces: list):
        self.tables, self.which, self.rows, self.pm, self.faces = tables, which, rows, pm, faces
        self.least = least
        flat = _flat(tables, which, rows)
        pick = lambda name: np.concatenate([getattr(t, name) for t in tables])[flat]  # noqa: E731
        self.cost = c + pick("fresh")
        self.masks, self.uniq, self.again = pick("masks"), pick("uniq"), pick("again")
        self.end, self.end_cost = pick("end"), pick("end_cost")

    def kept(self, i: int) -> tuple:
        """What a node flown by option i keeps: (mask, end bit, end, steps, plusminus, face)."""
        fl = self.tables[self.which[i]].flights[self.rows[i]]
        return fl[4], fl[2], fl[1], fl[0], self.pm[i], self.faces[i]

    @classmethod
    def of_options(cls, m: _Map, options) -> _Block:
        """The block of options as _Map._options gives them (a confirmed flight's)."""
        table = _Flights(m, [(False, o[3:10] + (0.0,)) for o in options])
        n = len(options)
        return cls([table], np.zeros(n, np.int64), np.arange(n), np.array([o[0] for o in options], np.float64),
                   np.array([o[10] for o in options], np.float64), [o[1] for o in options], [o[2] for o in options])


def _flat(tables: list, which: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Row `rows[i]` of table `which[i]` as a row of the tables stacked."""
    return np.cumsum([0] + [len(t.flights) for t in tables[:-1]], dtype=np.int64)[which] + rows


def _by_steps(order: np.ndarray, least: np.ndarray, steps_of) -> np.ndarray:
    """`order` (by `least`) with each run of options as cheap at the least put in the
    order of their steps (`steps_of(i)`), as sorting by (least, steps) does."""
    same = np.flatnonzero(least[order][1:] == least[order][:-1])
    if not len(same):
        return order
    order = order.copy()
    for run in np.split(same, np.flatnonzero(np.diff(same) > 1) + 1):
        lo, hi = run[0], run[-1] + 2
        order[lo:hi] = sorted(order[lo:hi], key=steps_of)
    return order


def _pad(a: np.ndarray, width: int, value) -> np.ndarray:
    """`a` with columns of `value` added up to `width`."""
    if a.shape[1] == width:
        return a
    out = np.full((len(a), width), value, a.dtype)
    out[:, :a.shape[1]] = a
    return out


def _same_rows(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rows of `keys` ordered so that equal rows are together, and where each run of
    equal rows starts: by a hash of the rows, each run checked whole (every row of it as
    its first), by all the words in turn should two rows ever share a hash."""
    h = np.zeros(len(keys), np.uint64)
    for col in keys.T:
        h = (h ^ col) * np.uint64(0x9E3779B97F4A7C15)
    order = np.argsort(h)
    hs = h[order]
    starts = np.flatnonzero(np.r_[True, hs[1:] != hs[:-1]])
    rows = keys[order]
    # a run is whole when every row of it but its first is the row before it
    inside = np.ones(len(rows), bool)
    inside[starts] = False
    if not (rows[1:] == rows[:-1])[inside[1:]].all():
        order = np.lexsort(keys.T[::-1])
        rows = keys[order]
        starts = np.flatnonzero(np.r_[True, (rows[1:] != rows[:-1]).any(axis=1)])
    return order, starts


class _Layer:
    """The nodes the search keeps after a turn, in order, with their costs, start numbers,
    the index of their start point, and their edges walked and turn ends as words."""

    def __init__(self, nodes, cost, start, start_at, walked, ends):
        self.nodes, self.cost, self.start, self.start_at = nodes, cost, start, start_at
        self.walked, self.ends = walked, ends


def _advance(m: _Map, layer: _Layer, blocks: list, left: int, beam: int) -> _Layer | None:
    """One turn of the search, every node and option at once: each node flies each of its
    options (cheapest first by the least it can cost) while that least is within PRUNE of
    the cheapest reading so far (a node by node, option by option scan: its running
    minimum); of the readings that reach the same point, edges and turn ends, the cheapest
    (the first of those as cheap) stands where the first of them came; then the `beam`
    cheapest by their cost plus the least the `left` turns must still cost (ties: the one
    first in cost, then in that order). None when nothing can be flown."""
    sizes = np.array([len(b.least) for b in blocks], np.int64)
    if not sizes.sum():
        return None
    of = np.repeat(np.arange(len(blocks)), sizes)  # each option's node
    cat = lambda name: np.concatenate([getattr(b, name) for b in blocks])  # noqa: E731
    width = max(b.uniq.shape[1] for b in blocks)
    uniq = np.concatenate([_pad(b.uniq, width, -1) for b in blocks])
    again = np.concatenate([_pad(b.again, width, 0.0) for b in blocks])
    least, c, masks, end, end_cost = cat("least"), cat("cost"), cat("masks"), cat("end"), cat("end_cost")
    cost, walked, ends = layer.cost[of], layer.walked[of], layer.ends[of]
    # over the path flown before: each such edge an obstacle crash (in order: c + 0.0 is c)
    over = np.flatnonzero((walked & masks).any(axis=1))
    if len(over):
        c_over, at = c[over], uniq[over]
        # whether each of an option's edges was walked before, all its edges at once: the
        # byte of its node's row that holds each edge's bit, and the bit (the words are
        # little-endian: bit i is bit i % 8 of byte i // 8); an option has a few edges, a
        # row hundreds of bits: only the few are looked at
        at0 = np.maximum(at, 0)
        row_bytes = np.ascontiguousarray(walked, "<u8").view(np.uint8).reshape(-1)
        byte = row_bytes[(over * (8 * walked.shape[1]))[:, None] + (at0 >> 3)]
        hit = (at >= 0) & ((byte >> (at0 & 7).astype(np.uint8)) & 1).astype(bool)
        again_over = again[over]
        for col in range(width):  # added edge by edge, in order, as a loop adds
            c_over = c_over + np.where(hit[:, col], again_over[:, col], 0.0)
        c[over] = c_over
    c = np.where(_bit_each(ends, end), c, c + end_cost)
    total = cost + c
    # the bound each option meets: the running minimum over the options before it (those
    # already beyond their bound cannot lower it: they cost PRUNE more than it)
    bound = np.r_[np.inf, np.minimum.accumulate(total + PRUNE)[:-1]]
    flown = np.flatnonzero(~(cost + least > bound))
    if not len(flown):
        return None
    of, end, total = of[flown], end[flown], total[flown]
    walked = walked[flown] | masks[flown]
    ends = ends[flown]
    _set_each(ends, end)
    keys = np.column_stack([layer.start[of].astype(np.uint64), end.astype(np.uint64), walked, ends])
    order, starts = _same_rows(keys)
    first = np.minimum.reduceat(order, starts)  # where the reading stands among the others
    cheapest = np.minimum.reduceat(total[order], starts)
    runs = np.diff(np.r_[starts, len(order)])
    winner = np.minimum.reduceat(np.where(total[order] == np.repeat(cheapest, runs), order, len(order)), starts)
    kept = winner[np.argsort(first)]  # the readings in the order they first came
    # the beam: cheapest by cost and the least still to come, ties by cost order
    by_cost = kept[np.argsort(total[kept], kind="stable")]

    def ranked(rows):
        """Each reading's cost plus the least the turns left must cost (row by row)."""
        taken = ends[rows].copy()
        _set_each(taken, layer.start_at[of[rows]])
        return total[rows] + m.least_left(walked[rows], taken, left)

    # What is still to come costs 0 at the least: a reading that costs more already than the
    # `beam`th best rank among the cheaper ones ranks after them all. The ranks are worked out
    # for the cheapest readings, more at a time, until the next costs more than that.
    rank, done = np.zeros(0), 0
    while done < len(by_cost):
        upto = min(len(by_cost), max(beam, 2 * done))
        rank = np.concatenate([rank, ranked(by_cost[done:upto])])
        done = upto
        if done < len(by_cost) and total[by_cost[done]] > np.partition(rank, beam - 1)[beam - 1]:
            break
    by_cost = by_cost[:done]
    best = by_cost[np.lexsort((np.arange(len(by_cost)), rank))[:beam]]
    offsets = np.r_[0, np.cumsum(sizes)]
    nodes = []
    for i, k, t in zip(flown[best].tolist(), of[best].tolist(), total[best].tolist()):
        parent = layer.nodes[k]
        mask, vb, v, steps, pm, face = blocks[k].kept(i - offsets[k])
        nodes.append((t, parent[1], v, parent[3] | mask, parent[4] | vb, parent, steps, pm, face))
    return _Layer(nodes, total[best], layer.start[of[best]], layer.start_at[of[best]], walked[best], ends[best])


def fly(f: Fields, spec, starts: list, dice: dict, turns: int, beam: int = FLIGHT_BEAM,
        many: int = 12, walkable: float = WALKABLE, fixed: dict | None = None, blank_steps: int = 0) -> list:
    """The likeliest readings of the flight, turn by turn from a marked start, each turn as
    the dice log's flown die allows: [(cost, start number, walk, cut, faces)], cheapest first;
    cut is [(from index, to index, plusminus)], faces per turn the flown die and the box of
    the log it is noted in (0, 1; None: the log shows nothing). `fixed`: turn
    -> its steps, confirmed by the player: that turn flies those steps and no other."""
    board = spec.board
    fixed = fixed or {}
    m = _Map(f, spec, walkable, blank_steps)
    # a node: (cost so far, start number, position, edges walked, turn ends (bits), the node
    # before, the turn's steps, plusminus, face flown)
    layer = {}
    for n, c in starts:
        v = board.starts[n]
        layer[(n, v, 0, 0)] = (c, n, v, 0, 0, None, (), 0, None)
    nodes = list(layer.values())
    at = [m.vbit[nd[2]].bit_length() - 1 for nd in nodes]
    layer = _Layer(nodes, np.array([nd[0] for nd in nodes], np.float64), np.array([nd[1] for nd in nodes], np.int64),
                   np.array(at, np.int64), np.zeros((len(nodes), m.edge_words), np.uint64),
                   np.zeros((len(nodes), m.point_words), np.uint64))
    for t in range(1, turns + 1):
        read = dice.get(t)
        blocks = []
        for node in layer.nodes:
            pos = node[2]
            if t in fixed:
                opts = [o for o in m.options(pos, read) if o[3] == fixed[t]] or _as_flown(m, pos, fixed[t], read)
                blocks.append(_Block.of_options(m, opts))
            else:
                blocks.append(m.block(pos, read))
        layer = _advance(m, layer, blocks, turns - t, beam)
        if layer is None:
            return []
    done = sorted(((nd[0] + m.unexplained(nd[3], nd[4], m.vbit[board.starts[nd[1]]]), i, nd)
                   for i, nd in enumerate(layer.nodes)), key=lambda x: (x[0], x[1]))
    out = []
    for total, _, nd in done[:many]:
        turns_back = []
        while nd[5] is not None:
            turns_back.append(nd)
            nd = nd[5]
        n = nd[1]
        walk, cut_, faces = [board.starts[n]], [], []
        for node in reversed(turns_back):
            i = len(walk) - 1
            for d in node[6]:
                walk.append((walk[-1][0] + d[0], walk[-1][1] + d[1]))
            cut_.append((i, len(walk) - 1, node[7]))
            faces.append(node[8])
        out.append((total, n, walk, cut_, faces))
    return out


def _as_flown(m: _Map, pos, steps: tuple, read) -> list:
    """A confirmed flight that no die reading makes: the option of flying it as it is."""
    v, bits = pos, []
    for d in steps:
        w = (v[0] + d[0], v[1] + d[1])
        e = (min(v, w), max(v, w))
        if e not in m.bit:
            return []
        bits.append(m.bit[e])
        v = w
    if v not in m.vbit:
        return []
    flown = read[0][0] if read and read[0][0] else None
    face = (flown, 0) if flown else (sum(1 for d in steps if d in UNIT), None)
    o = (0.0, 0, face, steps, v, m.vbit[v], tuple(bits)) + m._walked_cost(tuple(bits))
    return [o + (-math.inf,)]


# ---- numbers ----------------------------------------------------------------------------

def assign(cells: dict, puzzle_dice: list, spec, walk: list, plan: list, many: int = 8,
           slack: float = 4.0, beam: int | None = None, held: dict | None = None) -> list:
    """Which turn wrote which box: the cheapest few plans, each (cost, per turn (the cell
    name or None for a crash, whether the number is one off the die, a misread mended)).
    `puzzle_dice` holds per turn the puzzle die read (value, confidence), or None. Each group
    of boxes fills in its own order; numbers that match the dice cost least, one off costs a
    +-1, a number that fits neither costs the odds that one of the two digits is misread (then
    mended: ("dice", v) the die was v, ("value", w) the box holds w); so do plans that unlock
    an ability (Y15, Y16) before the flight cut (`walk`, `plan`) uses it. `held`: turn
    (from 0) -> the box the player confirmed its number in (None: a crash): that box's
    number is not misread, and the turn writes it there where the dice allow that as well
    as another order (any other box costs HELD_ELSEWHERE more): the paper shows what a box
    holds, the dice log which turn wrote it."""
    held = held or {}
    groups = box_groups(spec)
    filled = [[n for n in g if n in cells] for g in groups]
    # a group's boxes are filled from its first on: a gap ends what this turn order can explain
    filled = [g[:next((i for i, n in enumerate(g) if n != grp[i]), len(g))] for g, grp in zip(filled, groups)]
    lengths = tuple(len(g) for g in filled)
    T = len(puzzle_dice)
    fish_before, diag_needs, diag_before, flight_pm = _flight_abilities(spec, walk, plan)
    fish_diag = [f.get("diagonal", 0) for f in fish_before]
    fish_pm = [f.get("plusminus", 0) for f in fish_before]

    # per kind of ability: how many of each nest row's first k ability boxes are of it, and
    # the luminary columns whose box is (a column's box is unlocked when the column is full)
    nest_upto = {kind: [[sum(1 for a in spec.nests.abilities[r][:k] if a == kind) for k in range(lengths[r] // 2 + 1)]
                        for r in range(2)] for kind in ("diagonal", "plusminus")}
    lum_cols = {kind: [2 + c for c in range(spec.luminaries.columns) if spec.luminaries.abilities[c] == kind]
                for kind in ("diagonal", "plusminus")}
    height = spec.luminaries.height

    @lru_cache(maxsize=None)
    def unlocked(kind: str, state: tuple) -> int:
        """The ability boxes of this kind that the numbers placed so far (`state`) unlocked."""
        upto = nest_upto[kind]
        return upto[0][state[0] // 2] + upto[1][state[1] // 2] + sum(1 for c in lum_cols[kind] if state[c] == height)

    said = {c for c in held.values() if c and "." in c}  # boxes whose number the player confirmed

    def misread(sure: float) -> float:
        """The cost of a digit read this surely being another of the five faces."""
        return -math.log((1 - _clamp(sure)) / 5)

    @lru_cache(maxsize=None)
    def fits(t: int, name: str) -> tuple:
        """(cost, one off, mended) of turn t's puzzle die written into box `name`."""
        read = puzzle_dice[t]
        w, wc = read if read is not None else (None, 0.0)
        v, vc = cells[name]
        if w is None:
            return math.log(6), 0, None
        if v == w:
            return 0.0, 0, None
        # a misread: of the die (it was v) or of the box (it holds w; not a box the player confirmed)
        die = misread(wc)
        box = math.inf if name in said else misread(vc)
        c, pm, fix = (die, 0, ("dice", v)) if die <= box else (box, 0, ("value", w))
        if abs(v - w) == 1 and PM_COST <= c:
            c, pm, fix = PM_COST, 1, None
        return c, pm, fix

    fit_mask = _fit_masks(spec, [[cells[n][0] for n in g] for g in filled])

    def options(t: int, state: tuple, pm_spent: int):
        """(cost, cell or None, one off, mended, next state) for turn t from `state`."""
        out = []
        for k, idx in enumerate(state):
            if idx < lengths[k]:
                name = filled[k][idx]
                c, pm, fix = fits(t, name)
                out.append((c, name, pm, fix, state[:k] + (idx + 1,) + state[k + 1:]))
        # nothing written: a crash, hardly where the die fits a box (Y13); one off, where the
        # die fits but a +-1 of it does not (a crash chosen rather than a number that spoils a row)
        die, sure = puzzle_dice[t] if puzzle_dice[t] is not None else (None, 0.0)
        fit = fit_mask(state)
        if die not in range(1, 7) or not fit >> die & 1:
            out.append((2.0, None, 0, None, state))
        else:
            out.append((8.0, None, 0, None, state))
            nowhere = [v for v in range(1, 7) if not fit >> v & 1]
            # or the die misread: it was one that fits nowhere (mended, so its digit is asked)
            if nowhere and 2.0 + misread(sure) < 8.0:
                out.append((2.0 + misread(sure), None, 0, ("dice", nowhere[0]), state))
            # (not where the flight spends a +-1 already: a turn takes one, searched so)
            if not flight_pm[t] and (die - 1 in nowhere or die + 1 in nowhere):
                out.append((2.0 + PM_COST, None, 1, None, state))
        # an ability used before one is free costs as much as a number that fits nowhere
        diag_free = fish_diag[t] + unlocked("diagonal", state) - diag_before[t]
        pm_free = fish_pm[t] + unlocked("plusminus", state) - pm_spent
        late = 6.0 * max(0, diag_needs[t] - diag_free)
        short = (6.0 * max(0, -pm_free), 6.0 * max(0, 1 - pm_free))  # a +-1 not free: none needed, one
        flown_pm = flight_pm[t]
        res = []
        for c, cell, pm, fix, nxt in out:
            need = 1 if (pm or flown_pm) else 0
            if t in held:  # the player's box (or row or column) for this turn, where the dice allow it
                c += 0.0 if names(held[t], cell) else HELD_ELSEWHERE
            res.append((c + late + short[need], cell, pm, fix, nxt, pm_spent + need))
        return res

    # a beam search over the turns: the cheapest BEAM partial plans, one per state
    width = beam or BEAM
    beam = {(tuple(0 for _ in groups), 0): (0.0, ())}
    boxes = sum(lengths)
    if boxes > T:
        return []  # more numbers than turns: no turn order explains them
    for t in range(T):
        nxt_beam: dict = {}
        for (state, pm_spent), (cost, chosen) in beam.items():
            left = boxes - sum(state)  # boxes to fill from this turn on
            for c, cell, pm, fix, nxt, spent in options(t, state, pm_spent):
                if left - (cell is not None) > T - t - 1:
                    continue  # more boxes left than turns: this plan can no longer explain them all
                key = (nxt, spent)
                total = cost + c
                if key not in nxt_beam or total < nxt_beam[key][0]:
                    nxt_beam[key] = (total, chosen + ((cell, pm, fix),))
        beam = dict(sorted(nxt_beam.items(), key=lambda kv: kv[1][0])[:width])
    done = sorted((v for (state, _), v in beam.items() if state == lengths), key=lambda v: v[0])
    if not done and width < WIDE_BEAM:  # the cheap partial plans all led nowhere: look wider
        return assign(cells, puzzle_dice, spec, walk, plan, many, slack, WIDE_BEAM, held)
    return [(cost, list(chosen)) for cost, chosen in done[:many] if cost <= done[0][0] + slack]


def _fit_masks(spec, values: list[list[int]]):
    """The values that may be written in some box once the first `state[k]` numbers of each
    group (box_groups' order, `values`: the numbers each holds on the paper, in order) are:
    as bits (1 << v), per state. The rules of sheetkit.games.yuncos.rules.placements (Y11,
    Y12) on bits, as the number search asks them of thousands of states: nest row 1 repeats
    no value, row 2 descends, a luminary column rises and repeats no value of its level."""
    every = sum(1 << v for v in range(1, 7))
    sizes = [spec.nests.length] * 2 + [spec.luminaries.height] * spec.luminaries.columns

    def own(k: int, i: int) -> int:
        """The values group k's box i may hold, by the group's own numbers before it."""
        before = values[k][:i]
        if k == 0:
            return every & ~sum(1 << v for v in set(before) if v in range(1, 7))
        last = before[-1] if before else None
        if k == 1:
            return every if last is None else sum(1 << v for v in range(1, 7) if v < last)
        return every if last is None else sum(1 << v for v in range(1, 7) if v > last)

    owns = [[own(k, i) for i in range(len(vals) + 1)] for k, vals in enumerate(values)]

    @lru_cache(maxsize=None)
    def fit(state: tuple) -> int:
        out = 0
        for k, i in enumerate(state):
            if i >= sizes[k]:
                continue  # the group is full
            mask = owns[k][i]
            if k >= 2:  # a luminary: not a value another column holds at this level
                for c in range(2, len(state)):
                    if c != k and state[c] > i and values[c][i] in range(1, 7):
                        mask &= ~(1 << values[c][i])
            out |= mask
        return out

    return fit


def box_groups(spec) -> list[list[str]]:
    """The puzzle boxes by row and column, each in the order it fills."""
    groups = [[f"nest{r + 1}.{i + 1}" for i in range(spec.nests.length)] for r in range(2)]
    return groups + [[f"lum{c + 1}.{lv + 1}" for lv in range(spec.luminaries.height)]
                     for c in range(spec.luminaries.columns)]


def _last_boxes(cells: dict, groups: list) -> list[str]:
    """The last box written of each row and column (a row read with a gap: the box before
    the gap): the only ones whose number can be left out without losing the boxes after it."""
    out = []
    for g in groups:
        written = 0
        while written < len(g) and g[written] in cells:
            written += 1
        if written:
            out.append(g[written - 1])
    return out


LEAVE_OUT = 3  # numbers read in the boxes that may be left out when the others fit no turn order
HELD_ELSEWHERE = 1.0  # a turn's number put elsewhere than the box the player confirmed
HELD_SURE = 0.999  # how surely a box holds the number the player confirmed in it


def _held_numbers(fixed: dict | None, cells: dict) -> tuple[dict, dict]:
    """(the boxes' numbers with the ones the player confirmed as they said them, turn from 0
    -> the box of its confirmed number or None for a crash), from `fixed`'s turn[N].value
    (the turn's puzzle, value and crash as the player left them; a box named by its row or
    column alone holds the row or column)."""
    held, cells = {}, dict(cells)
    for key, number in (fixed or {}).items():
        tf = turn_field(key)
        if tf is None or tf[1] != "value" or not isinstance(number, dict):
            continue
        t = tf[0] - 1
        cell, value = number.get("puzzle"), number.get("value")
        if number.get("crash"):
            held[t] = None
        elif isinstance(cell, str) and isinstance(value, int):
            held[t] = cell  # a box (lum2.1), or a row or column (lum2: its next box, whichever that is)
            if "." in cell:
                cells[cell] = (value, HELD_SURE)
    return cells, held


def _moved(number, record: dict, cells_of: list, key: str) -> bool:
    """Whether the turn of `key` (turn[N].value) writes another number in `record` than the
    player confirmed for it (`number`: its puzzle, value and crash; a box named by its row or
    column alone matching any box of it)."""
    if not isinstance(number, dict):
        return False
    t = turn_field(key)[0]
    entry, cell = record["turn"][t - 1], cells_of[t - 1]
    if number.get("crash") or cell is None:
        return bool(number.get("crash")) != (cell is None)
    return entry.get("value") != number.get("value") or not names(number.get("puzzle"), cell)


def names(named: str | None, cell: str | None) -> bool:
    """Whether a puzzle named so (a box, lum2.1, or a row or column alone, lum2: any of its
    boxes; None: a crash) names the box `cell` (None: a crash)."""
    if named is None or cell is None:
        return named is cell
    return cell == named or ("." not in named and cell.partition(".")[0] == named)


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
    from sheetkit.games.yuncos.notation import flight_text

    return flight_text(list(steps))


def _check(record: dict, replays: _Replays | None = None):
    from sheetkit.checking import records
    from sheetkit.errors import UserError

    try:
        loaded = records.parse(record, "draft.toml")
        return records.check(loaded, prior=replays.before(record, loaded) if replays is not None else None)
    except UserError:
        return None


class _Replays:
    """The replays of the candidate drafts' first turns, for a check to go on from (as the
    phone page's checks go on from the turns before): the candidates of a sheet share most
    of their turns (74 % of them, over the photos of bench/same_drafts.py), and a run of
    turns replayed once is not replayed again. The checks are the same either way
    (checking.replay)."""

    def __init__(self):
        # (the record but its turns, the rules' setup) -> a tree of turns: per node the
        # replay of the turns up to it and the nodes of the turns that follow
        self.trees: dict = {}

    def before(self, record: dict, loaded):
        """A check (games.interface.Checked) of the record's turns but its last, to go on from."""
        from sheetkit.checking.replay import replay
        from sheetkit.games.interface import Checked
        from sheetkit.games.yuncos.rules import Rules

        rules = Rules(loaded.record)
        turns = loaded.record.turns
        if len(turns) != len(record["turn"]):
            return None  # (not so for a draft: each entry of `turn` is a turn)
        node = self.trees.setdefault((_frozen({k: v for k, v in record.items() if k != "turn"}), rules.setup), (None, {}))
        done = None
        # the last turn is left to the check: after it the sheet has ended, most often, and a
        # replay of an ended sheet is not gone on from
        for n, turn in enumerate(record["turn"][:len(turns) - 1]):
            key = _frozen(turn)
            nxt = node[1].get(key)
            if nxt is None:
                nxt = node[1][key] = (replay(rules, turns[:n + 1], finished=False, prior=done, setup=rules.setup), {})
            if Rules.prior(nxt[0]) is None:
                break  # ended: what a turn after the end says depends on how many follow
            node, done = nxt, nxt[0]
        return Checked(None, None, done) if done is not None else None


def _frozen(value):
    """A record's value (TOML data) as a key: tables and lists as tuples."""
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def _errors(checked) -> int:
    if checked is None:
        return 10_000
    return sum(1 for f in checked.verdict.findings if f.severity == "error")


def _error_places(checked) -> set:
    """The errors the checker finds, each by its rule and where it is; the crash track's
    (Y20) as one, wherever it is: a crash saved moves the turn that eliminates the Yunco."""
    return {(f.rule, None if f.rule == "Y20" else f.where) for f in checked.verdict.findings if f.severity == "error"}


def errors_of(record: dict) -> int:
    """How many errors the checker finds in a record (a great many when it cannot read it)."""
    return _errors(_check(record))


FAULTY = 0.5  # the most a field of a turn with an error can be trusted
FAULT_COST = 6.0  # a fault the checker finds in a candidate draft, in the same units
READINGS = 6  # readings of the flight given numbers and checked
PLANS = 3  # ways to place the numbers checked per reading
MORE_PLANS = 24  # ... for the likeliest reading, while none checks clean
MANY = 40  # readings of the flight kept to weigh each turn's flight
SPREAD = 2.0  # ... their costs so divided: neighbouring measures are not independent evidence
SLACK = 12.0  # readings costlier than the best by more are not worth checking
FRAME_SURE = 0.6  # a flight with a step along the frame, its length or end unsure
CUT_SURE = 0.95  # a turn cut this surely, by a die read this surely, needs no turn-end mark to be sure


def hold(f: Fields, spec, dice: dict, fixed: dict | None, pencil: bool = True):
    """The fields as confirmed by the player held fixed (`fixed`: field path -> value, as in
    the record: "start", "turn[N].flight", "turn[N].dice"): a confirmed flight's edges and
    end are pencilled (not with `pencil` False), a confirmed die is read surely, a confirmed
    turn exists. Returns (fields, dice, the start or None, turn -> steps)."""
    import copy

    from sheetkit.games.yuncos.record import parse_flight

    if not fixed:
        return f, dice, None, {}
    f = copy.copy(f)
    f.edges, f.ends = dict(f.edges), dict(f.ends)
    held = DiceLog(dice)
    held.turns, held.sure = turns_of(dice)
    flights = {}
    start = fixed.get("start")
    if "turns" in fixed:  # the player's number of turns (a row of the log deleted, or one added)
        held.turns, held.sure = fixed["turns"], 1.0
        for t in [t for t in held if t > held.turns]:
            del held[t]
    for key, value in fixed.items():
        tf = turn_field(key)
        if tf is None:
            continue
        t, name = tf
        if t > held.turns:
            held.turns, held.sure = t, 1.0
        if name == "dice" and value:
            held[t] = tuple((int(v), 0.99) for v in value)
        elif name == "flight":
            flights[t] = tuple(parse_flight(value))
    if flights and pencil:
        # walk the confirmed flights from the start: their edges are pencilled, their ends
        # marked; a turn the player left as read is walked as their record has it ("path"),
        # so that a confirmed flight after it is found where it starts
        board = spec.board
        path = fixed.get("path") if isinstance(fixed.get("path"), dict) else {}
        s = start if start is not None else path.get("start")
        if s not in board.starts:
            s = max(f.starts, key=f.starts.get)
        flown = path.get("flights") or []
        v = board.starts[s]
        for t in range(1, max(flights) + 1):
            if t in flights:
                steps = flights[t]
            elif t <= len(flown) and isinstance(flown[t - 1], str):
                try:
                    steps = tuple(parse_flight(flown[t - 1]))
                except (ValueError, KeyError):
                    break
            else:
                break
            for d in steps:
                w = (v[0] + d[0], v[1] + d[1])
                e = (min(v, w), max(v, w))
                if t in flights and e in f.edges:
                    f.edges[e] = max(f.edges[e], 0.97)
                v = w
            if t in flights and v in f.ends:
                f.ends[v] = max(f.ends[v], 0.97)
    for t in range(1, held.turns + 1):
        held.setdefault(t, ((None, 0.0), (None, 0.0)))
    return f, held, start, flights


def build(f: Fields, spec, layout_id: str, qr: str, cells: dict, dice: dict, fixed: dict | None = None) -> Draft:
    """The draft: the likeliest readings of the flight, each with its likeliest ways to place
    the numbers, checked by the rules; the one with the least cost (what the fields make
    unlikely, plus each fault found) wins, and each field's confidence is the weight of the
    candidates that agree with it, times how surely its own ink was read."""
    from sheetkit.errors import UserError

    board = spec.board
    seen, logged = f, dice
    f, dice, held_start, flights = hold(f, spec, dice, fixed)
    marked = sorted(((p, n) for n, p in f.starts.items()), reverse=True)
    # every start point is tried, the marked ones cheapest (a cross may be read faintly)
    starts = [(n, -math.log(_clamp(p))) for p, n in marked]
    if held_start is not None:
        starts = [(held_start, 0.0)]
    if not any(p >= 0.5 for p in f.edges.values()):
        raise UserError(msg("error.photo.no_flight"))
    turns, turns_sure = turns_of(dice)
    if not turns:
        raise UserError(msg("error.photo.no_dice"))

    def cut(f: Fields) -> list:
        readings = fly(f, spec, starts, dice, turns, many=MANY, fixed=flights)
        if not readings:  # some pencil was missed altogether: let the flight cross blank paper
            readings = fly(f, spec, starts, dice, turns, FALLBACK_BEAM, walkable=FAINT, fixed=flights)
        if not readings:  # a stretch read as blank paper: crossed all the same, a few steps a
            # flight, the last way before refusing the sheet (such flights cost what the paper
            # says, so they are asked)
            readings = fly(f, spec, starts, dice, turns, FALLBACK_BEAM, walkable=FAINT, fixed=flights,
                           blank_steps=BLANK_STEPS)
        return readings

    readings = cut(f)
    if not readings and flights:
        # the confirmed flights are pencilled where the player's record walks them, and an
        # earlier flight it has wrong (one left to be read again) moves them off the path:
        # flown where the photo shows them instead
        f = hold(seen, spec, logged, fixed, pencil=False)[0]
        readings = cut(f)
    if not readings:
        raise UserError(msg("error.photo.cannot_cut"))
    # every reading the search kept, weighed by its cost: how surely each turn's flight is
    # what the best reading says (one that many near readings cut otherwise is asked)
    flown = _flown_weights(readings)
    readings = [r for r in readings if r[0] <= readings[0][0] + SLACK][:READINGS]
    fish = sum(1 for p in f.fish if p >= 0.5)
    crashes = sum(1 for p in f.crashes if p >= 0.5)
    used = [b for b, p in f.abilities.items() if p >= 0.5]
    cells, held_numbers = _held_numbers(fixed, cells)
    held_uses = {tf[0]: v for k, v in (fixed or {}).items() if (tf := turn_field(k)) and tf[1] == "use"}
    replays = _Replays()
    def candidates(cells: dict) -> list:
        """(total cost, faults, record, reading, ...) of each way to place these numbers."""
        drafts = []
        for r, (cost, start, walk, plan, faces) in enumerate(readings):
            puzzle_dice = [_puzzle_die(dice, t, faces[t - 1]) for t in range(1, len(plan) + 1)]
            for k, (a_cost, numbers) in enumerate(assign(cells, puzzle_dice, spec, walk, plan,
                                                         MORE_PLANS if r == 0 else PLANS, held=held_numbers)):
                if k >= PLANS and min(d[1] for d in drafts) == 0:
                    break  # more ways to place the numbers only while none checks clean
                record = _record(layout_id, qr, start, fish, crashes, used, walk, plan, faces, numbers, cells, dice)
                record, checked = _yuncos(record, used, spec, replays, held_uses)
                faults = _errors(checked)
                drafts.append((cost + a_cost + FAULT_COST * min(faults, 50), faults, record, (walk, plan, faces),
                               turn_cells(record), _score(checked), _faulty(checked)))
        return drafts

    drafts = candidates(cells)
    # numbers that fit no turn order: a stray mark read as a digit, most likely the least sure
    # of the last boxes written; left out, one at a time, and every number is then asked
    kept = dict(cells)
    left_out = 0
    while not drafts and left_out < LEAVE_OUT:
        last = [n for n in _last_boxes(kept, box_groups(spec)) if n not in held_numbers.values()]
        if not last:
            break
        del kept[min(last, key=lambda n: kept[n][1])]  # the least sure of them
        left_out += 1
        drafts = candidates(kept)
    if not drafts:
        raise UserError(msg("error.photo.numbers_dont_fit"))
    drafts.sort(key=lambda d: d[0])
    best_cost, faults, record, (walk, plan, faces), cells_of, score, faulty = drafts[0]
    filled = _filled(record, cells_of)
    weights = [math.exp(best_cost - d[0]) for d in drafts]
    z = sum(weights)

    def agree(same) -> float:
        """The weight of the candidates that read this field as the draft does."""
        return sum(w for w, d in zip(weights, drafts) if same(d)) / z

    conf: dict[str, Reading] = {}
    start = record["start"]
    conf["start"] = Reading(start, _clamp(agree(lambda d: d[2]["start"] == start) * f.starts.get(start, 0.5)),
                            msg("photo.why.start"))
    stray_start = False
    if faults and held_start is None:
        # the rules find the draft at fault, and a start point no flight reaches reads as
        # marked, or the pencil ends there: the walk may have begun there (a turn that ends
        # on another start point marks it as a cross does, and a cross may not show)
        def begun_there(n) -> float:
            v = board.starts[n]
            ends = sum(1 for e, p in f.edges.items() if p >= 0.5 and v in e) == 1
            return max(f.starts[n], FAULTY if ends else 0.0)

        stray = max(((begun_there(n), n) for n in f.starts if board.starts[n] not in walk), default=(0.0, None))
        if stray[0] >= 0.5:
            conf["start"].confidence = min(conf["start"].confidence, _clamp(1 - stray[0]))
            conf["start"].why = msg("photo.why.other_start", why=conf["start"].why, n=stray[1])
            stray_start = True
    for t, ((i, j, pm), entry) in enumerate(zip(plan, record["turn"]), 1):
        keys = [(min(walk[k], walk[k + 1]), max(walk[k], walk[k + 1])) for k in range(i, j)]
        same = lambda d, t=t, fl=entry["flight"]: len(d[2]["turn"]) >= t and d[2]["turn"][t - 1]["flight"] == fl  # noqa: E731
        sure = min(agree(same), _flown_share(flown, t, walk[i], walk[i:j + 1]))
        # a flight flown by a die read unsurely is as unsure: another face flies elsewhere
        value_flown, which = faces[t - 1]
        read = dice[t][which] if which is not None and t in dice else None
        as_read = read is not None and read[0] == value_flown
        rolled = 1.0 if read is None else _clamp(read[1] if as_read else 1 - read[1])
        cut_sure = sure >= CUT_SURE and rolled >= CUT_SURE and as_read and which == 0 and not pm
        end = _clamp(f.ends.get(walk[j], 0.0))

        def step_sure(e, cut_sure=cut_sure, end=end) -> float:
            """How surely step e is the flight's. One along the frame was inferred, not seen:
            sure only where the flight's length and its end are (the die read surely and
            flown as it reads, its end mark seen). One read as pencil, faintly, on a flight
            cut surely: every reading walks it, its faintness weighed in their costs
            already. One read as blank paper stays as unsure as it reads."""
            if _frame(e, board):
                return 1.0 if cut_sure and end >= CONFIRM else FRAME_SURE
            p = _clamp(f.edges.get(e, 0.0))
            return 1.0 if cut_sure and p >= 0.5 else p

        # as sure as its least sure step, and as its die's digit (another face: its misreading)
        local = min([step_sure(e) for e in keys] + [rolled])
        # the turn's end: its mark, unless the cut is sure without it (the flown die read surely,
        # noted first and flown as it reads, and every reading cuts the turn there): a tick
        # along the printed grid line may not show at all
        if not cut_sure:
            local = min(local, end)
        conf[f"turn[{t}].flight"] = Reading(entry["flight"], _clamp(sure * local), msg("photo.why.flight"))
        cell = cells_of[t - 1]
        value = entry.get("value")

        def same_number(d, t=t, cell=cell, value=value) -> bool:
            r = d[2]
            if len(r["turn"]) < t:
                return False
            if d[4][t - 1] == cell and r["turn"][t - 1].get("value") == value:
                return True
            # another legal turn order that fills the same boxes alike scores the same: no matter
            return bool(score and score[0]) and d[5] == score and _filled(r, d[4]) == filled

        digit = cells[cell][1] if cell in cells and cells[cell][0] == value else 0.5
        if cell is None:
            digit = 1.0
        conf[f"turn[{t}].value"] = Reading(value if cell else None, _clamp(agree(same_number) * digit),
                                           msg("photo.why.number", cell=cell) if cell else msg("photo.why.crash"))
        if cell and list(entry.get("use", ())).count("plusminus") > (1 if pm else 0):
            # a number one off its die, a +-1 spent on it: or its digit misread alike (a 3 read
            # as a 2), which only the player tells apart
            number = conf[f"turn[{t}].value"]
            number.confidence, number.why = min(number.confidence, FAULTY), msg("photo.why.number_pm", cell=cell)
        if t in dice or "dice" in entry:
            read = dice.get(t, ((None, 0.0), (None, 0.0)))
            shown = entry.get("dice")
            local = min((c if shown and v == shown[k] else 1 - c) for k, (v, c) in enumerate(read)) if shown else 0.3
            same = lambda d, t=t, sh=shown: len(d[2]["turn"]) >= t and d[2]["turn"][t - 1].get("dice") == sh  # noqa: E731
            conf[f"turn[{t}].dice"] = Reading(shown, _clamp(agree(same) * local), msg("photo.why.dice"))
            if f"turn[{t}].flight" in (fixed or {}) and (pm or which == 1):
                # the confirmed flight is not what the log's flown die reads: a +-1 on it or
                # the other die flown says so, and so does a digit misread alike (a 6 read as
                # a 5): which, only the player knows
                rolled = conf[f"turn[{t}].dice"]
                rolled.confidence, rolled.why = min(rolled.confidence, FAULTY), msg("photo.why.dice_flight")
    # a turn where the rules find an error was misread somewhere: its fields are the ones to check
    for t in (t for t in faulty if isinstance(t, int)):
        for key in (f"turn[{t}].flight", f"turn[{t}].value", f"turn[{t}].dice"):
            if key in conf:
                conf[key].confidence = min(conf[key].confidence, FAULTY)
                conf[key].why = msg("photo.why.faulty", why=conf[key].why)
    # the number of turns is the dice log's: where the log's last rows are unsure, so is the
    # last turn (the player confirms its dice, or deletes the turn)
    if turns_sure < CONFIRM and record["turn"]:
        t = len(record["turn"])
        for key in (f"turn[{t}].dice", f"turn[{t}].flight"):
            if key in conf:
                conf[key].confidence = min(conf[key].confidence, _clamp(turns_sure))
    # a flight starts where the one before it ended: where that is unsure, so is this one (a
    # turn cut wrongly moves every later turn with it; a confirmed flight fixes the point
    # again). Only a flight unsure of its own is asked; those after it wait on it
    # (Reading.after): once it is confirmed, the photo is read again around it and cuts them.
    # A draft the rules then still find at fault asks the numbers (faults_asked).
    # The first flight leaves the start point: where its mark is unsure, the flights wait on
    # it (root 0: the start), as they wait on a flight.
    carry, root = (1.0, None) if held_start is not None else (conf["start"].confidence, 0)
    for t in range(1, len(record["turn"]) + 1):
        key = f"turn[{t}].flight"
        if key in (fixed or {}):
            carry, root = 1.0, None
            continue
        r = conf[key]
        if r.confidence < CONFIRM:
            root = t  # unsure of its own: the turn the later ones wait on
        elif carry < CONFIRM:
            r.after = root
        if carry < r.confidence:
            r.confidence = carry
            r.why = msg("photo.why.after", turn=t - 1, why=r.why) if t > 1 else \
                msg("photo.why.after_start", why=r.why)
        carry = r.confidence
        # which die a turn flew says which is its puzzle die, so which number it wrote: a
        # number placed by a turn whose flight is unsure is as unsure (the paper shows the
        # numbers, not the turns that wrote them); one whose digit is sure waits on that
        # flight (read again, it goes to the turn whose dice wrote it). The dice go with the
        # flight too: the flown die is the flight's length, a digit misread alike (a 6 read
        # as a 5, a flight cut a step short) agrees with it, and is mended once it is confirmed
        for k in (f"turn[{t}].value", f"turn[{t}].dice"):
            v = conf.get(k)
            if v is not None and k not in (fixed or {}) and v.confidence > r.confidence:
                if v.confidence >= CONFIRM > r.confidence:
                    v.after = t if r.after is None else r.after
                v.confidence = r.confidence
    # the path begins at the start point: a start misread sends the first flight from elsewhere,
    # so a first flight read unsurely leaves the start as unsure (a confirmed one vouches for it)
    first = conf["turn[1].flight"] if record["turn"] and "turn[1].flight" not in (fixed or {}) else None
    if first is not None and first.confidence < conf["start"].confidence:
        conf["start"].confidence = first.confidence
        conf["start"].why = msg("photo.why.first_flight", why=conf["start"].why)
    # the abilities a turn used go with its flight and its number (a +-1, a diagonal step, the
    # Yunco on a crash): as sure as the less sure of the two, so that a player who corrects
    # either is asked to look at them too
    for t, entry in enumerate(record["turn"], 1):
        if "use" in entry:
            of = [conf[f"turn[{t}].flight"], conf[f"turn[{t}].value"]]
            sure = min(r.confidence for r in of)
            # asked with them, or waiting where the unsure of them both wait
            unsure = [r for r in of if r.confidence < CONFIRM]
            after = min(r.after for r in unsure) if unsure and all(r.after is not None for r in unsure) else None
            why = msg("photo.why.use")
            if t in faulty:  # the rules find an error in this turn: its abilities are to check too
                sure, why, after = min(sure, FAULTY), msg("photo.why.faulty", why=why), None
            conf[f"turn[{t}].use"] = Reading(entry["use"], sure, why, after)
    # what the player confirmed is sure; a number they confirmed at a turn whose dice wrote
    # another (it moved to the turn whose die it is) is this turn's as the search read it
    for key in fixed or {}:
        if key in conf and not (key.endswith(".value") and _moved(fixed[key], record, cells_of, key)):
            conf[key].confidence = 1.0
    conf["fish_marked"] = Reading(fish, min(max(p, 1 - p) for p in f.fish), msg("photo.why.fish"))
    conf["crashes_marked"] = Reading(crashes, min(max(p, 1 - p) for p in f.crashes), msg("photo.why.crashes"))
    conf["used"] = Reading(record["used"], min([max(p, 1 - p) for p in f.abilities.values()] or [1.0]),
                           msg("photo.why.hidden_slash" if f.hidden_slash else "photo.why.used"))
    for key in (k for k in faulty if isinstance(k, str) and k not in (fixed or {})):
        conf[key].confidence = min(conf[key].confidence, FAULTY)
        conf[key].why = msg("photo.why.faulty_field", why=conf[key].why)
    if faults:
        # (a start asked for the fault itself does not speak for the numbers)
        _ask_numbers_if_silent(record, conf, fixed or {}, {"start"} if stray_start else set())
    notes = []
    if left_out:
        for t in range(1, len(record["turn"]) + 1):
            r = conf[f"turn[{t}].value"]
            r.confidence, r.after = min(r.confidence, FAULTY), None  # asked, not waiting
        notes.append(msg("photo.note.left_out", n=left_out))
    if faults:
        notes.append(msg("photo.note.faults", faults=faults))
    return Draft(record, conf, faults, len(readings), notes)


def _ask_numbers_if_silent(record: dict, conf: dict, held, besides=frozenset()) -> None:
    """A draft the rules find an error in that asks nothing (every field of the turns at
    fault confirmed, or sure; the fields `besides` aside): which turn wrote which number,
    which the paper does not show (an ability unlocks by the boxes filled before it), is
    what is wrong; every number not held is asked."""
    if any(r.confidence < CONFIRM and r.after is None for k, r in conf.items() if k not in besides):
        return
    for t in range(1, len(record["turn"]) + 1):
        key = f"turn[{t}].value"
        if key in conf and key not in held:
            r = conf[key]
            r.confidence, r.after = min(r.confidence, FAULTY), None
            r.why = msg("photo.why.faulty_field", why=r.why)


def faults_asked(record: dict, conf: dict, held) -> int:
    """The errors the rules find in `record` (a draft merged with what the player confirmed),
    each turn at fault asked (its fields not held at most FAULTY sure), and the numbers if
    that asks nothing (_ask_numbers_if_silent); `conf` is changed in place."""
    checked = _check(record)
    faults = _errors(checked)
    if not faults:
        return 0
    for at in _faulty(checked):
        keys = [f"turn[{at}].{k}" for k in ("flight", "value", "dice", "use")] if isinstance(at, int) else [at]
        for key in keys:
            r = conf.get(key)
            if r is not None and key not in held and (r.confidence >= FAULTY or r.after is not None):
                r.confidence, r.after = min(r.confidence, FAULTY), None  # asked, not waiting
                r.why = msg("photo.why.faulty_field", why=r.why)
    _ask_numbers_if_silent(record, conf, held)
    return faults


def _puzzle_die(dice: dict, t: int, face) -> tuple | None:
    """The puzzle die read for turn t (value, confidence): the log's other box than the one
    the flown die `face` ((value, box)) is noted in; None when the log shows none."""
    value, which = face
    if t not in dice or which is None:
        return None
    read = dice[t][1 - which]
    return read if read[0] is not None else None


def _flown_weights(readings: list) -> list:
    """(weight, walk, cut) of each reading of the flight, the weights exp(-cost) summing to 1."""
    best = readings[0][0]
    w = [math.exp((best - r[0]) / SPREAD) for r in readings]
    z = sum(w)
    return [(x / z, r[2], r[3]) for x, r in zip(w, readings)]


def _flown_share(flown: list, t: int, frm, path) -> float:
    """The weight of the readings whose turn t flies `path` (the same points) from `frm`."""
    share = 0.0
    for w, walk, cut in flown:
        if len(cut) >= t:
            i, j, _ = cut[t - 1]
            if walk[i] == frm and walk[i:j + 1] == path:
                share += w
    return share


def turn_cells(record: dict) -> list[str | None]:
    """Per turn the box its number went into, by full name (nest1.3, lum2.1), None for a
    crash: a group named without its box (nest1, lum3) takes its next box."""
    filled: dict[str, int] = {}
    out = []
    for t in record["turn"]:
        cell = t.get("puzzle")
        if cell is None:
            out.append(None)
            continue
        group, _, idx = cell.partition(".")
        n = int(idx) if idx else filled.get(group, 0) + 1
        filled[group] = max(filled.get(group, 0), n)
        out.append(f"{group}.{n}")
    return out


FAULTY_FIELDS = {"fish": "fish_marked", "crashes": "crashes_marked"}  # a counter found wrong: its field


def _faulty(checked) -> set:
    """The turns where the checker finds an error (0: one not tied to a turn), and the
    sheet's fields it finds wrong: a counter that disagrees with the turns (fish_marked,
    crashes_marked), an ability box (used)."""
    if checked is None:
        return {0}
    out = set()
    for f in checked.verdict.findings:
        if f.severity == "error":
            at = f.at or {}
            out.add(at.get("turn", 0))
            if at.get("counter") in FAULTY_FIELDS:
                out.add(FAULTY_FIELDS[at["counter"]])
            if f.rule == "Y15" and "box" in at:
                out.add("used")
    return out


def _filled(record: dict, cells_of: list) -> dict:
    return {c: t.get("value") for c, t in zip(cells_of, record["turn"]) if c}


def _score(checked):
    if checked is None:
        return None
    v = checked.verdict
    return (v.legal, v.scores[0].total if v.scores else None)


def _record(layout_id, qr, start, fish, crashes, used, walk, plan, faces, numbers, cells, dice) -> dict:
    turns = []
    for t, ((i, j, pm), face, (cell, pm_value, fix)) in enumerate(zip(plan, faces, numbers), 1):
        steps = [(walk[k + 1][0] - walk[k][0], walk[k + 1][1] - walk[k][1]) for k in range(i, j)]
        entry: dict = {"flight": _flight_text(steps)}
        if cell is None:
            entry["crash"] = True
        else:
            entry["puzzle"] = cell
            entry["value"] = fix[1] if fix and fix[0] == "value" else cells[cell][0]
        if t in dice:
            value, which = face
            other = dice[t][1 - which][0] if which is not None else None
            puzzle = fix[1] if fix and fix[0] == "dice" else other
            if puzzle is not None:
                # in the log's order: the flown die in the box it is noted in
                entry["dice"] = [value, puzzle] if which != 1 else [puzzle, value]
        if pm or pm_value:
            entry["use"] = ["plusminus"] * max(1, pm + pm_value)
        turns.append(entry)
    return {"game": "yuncos", "layout": layout_id, "qr": qr, "start": start, "fish_marked": fish,
            "crashes_marked": crashes, "used": [long_box(b) for b in used], "turn": turns}


def _yuncos(record: dict, used: list, spec, replays: _Replays | None = None, held_uses: dict | None = None):
    """Spend the crossed-out Yunco boxes on the turns that crashed, where that makes the
    crash track agree; the checked record. The paper does not say which crashes they
    saved: the earliest first and the latest first are both tried, the one with fewer faults
    kept; a crash is saved only where that saves a mark, and mends an error or breaks no rule
    the record kept before. A turn whose abilities the player confirmed (`held_uses`: turn
    -> its use) spends the Yuncos they said, and no other."""
    from sheetkit.games.yuncos.record import _name, box_kind, box_name

    def is_yunco(use) -> bool:
        """Whether a turn's use names the Yunco, itself or by its box, as a player may write
        it (yunco, "Yunco", lum2, "Lum 2")."""
        use = _name(use)
        return use == "yunco" or (isinstance(use, str) and box_kind(spec, box_name(use)) == "yunco")

    held_uses = {t: u for t, u in (held_uses or {}).items() if t <= len(record["turn"]) and isinstance(u, list)}
    if held_uses:
        turns = list(record["turn"])
        for t, use in held_uses.items():
            mine = [u for u in turns[t - 1].get("use", []) if not is_yunco(u)] + [u for u in use if is_yunco(u)]
            turns[t - 1] = {k: v for k, v in turns[t - 1].items() if k != "use"} | ({"use": mine} if mine else {})
        record = dict(record, turn=turns)
    checked = _check(record, replays)
    yuncos = sum(1 for b in used if box_kind(spec, b) == "yunco") - \
        sum(1 for use in held_uses.values() for u in use if is_yunco(u))
    if checked is None or yuncos <= 0:
        return record, checked
    events = [c["turn"] for c in checked.state.crashes if c["turn"] not in held_uses]
    due = checked.state.marks - record["crashes_marked"]
    best = (record, checked)
    for order in (events, events[::-1]):
        rec, ch, left, spare = record, checked, due, yuncos
        for turn in order:
            if left <= 0 or spare <= 0:
                break
            entry = rec["turn"][turn - 1]  # (a turn that crashed twice is tried twice)
            trial = dict(entry, use=entry.get("use", []) + ["yunco"])
            new = dict(rec, turn=rec["turn"][:turn - 1] + [trial] + rec["turn"][turn:])
            c = _check(new, replays)
            # kept where it saves a mark and mends an error, or moves none (the track still
            # disagrees until every saved crash is found): one that trades an error for
            # another (a Yunco spent before one is unlocked, the track then agreeing) saved
            # another crash
            if c is not None and c.state.marks < ch.state.marks and \
                    (_errors(c) < _errors(ch) or _error_places(c) <= _error_places(ch)):
                rec, ch = new, c
                left -= 1
                spare -= 1
        if _errors(ch) < _errors(best[1]) or best[0] is record:
            best = (rec, ch)
        if _errors(ch) == 0:
            break
    return best
