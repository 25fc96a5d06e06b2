"""A score pad's arithmetic as a constraint on its reading: the likeliest joint reading of
a column of cells whose parts must add up to the total written under them.

A column is a list of terms and a target. Each term is a short list of options, each a
value, a weight (how likely the ink of the term's cells makes that option: the product of
its cells' readings) and the cells' values it stands for. The target is the total cell's
readings. A reading of the whole column picks one option per term and one value for the
target; it weighs the product of the weights, and the target's value must be the sum of
the terms' values, or else the reading is taken as MISADDED times less likely (a player
can add wrongly; the ink must then be clear to say so). The best reading is found by
dynamic programming over the partial sums (max-product), and each option's probability
given the whole column by the same recursion with sums (sum-product).
"""

from __future__ import annotations

from dataclasses import dataclass, field

MISADDED = 1e-3  # how much less likely a column whose total is not the sum of its parts is
MAX_SUM = 2000


@dataclass
class Option:
    value: int
    weight: float
    cells: dict = field(default_factory=dict)  # cell key -> its value in this option


@dataclass
class Solved:
    choice: list[int]  # the option picked for each term
    total: int | None  # the target's value picked (None: the target cell is empty)
    consistent: bool  # the total is the parts' sum
    term_p: list[list[float]]  # each term's options' probabilities given the column
    total_p: dict  # the target's values' probabilities given the column


def _norm(d: dict) -> dict:
    s = sum(d.values())
    return {k: v / s for k, v in d.items()} if s > 0 else d


def solve(terms: list[list[Option]], target: list[tuple[int | None, float]]) -> Solved:
    """The likeliest reading of a column (see the module's doc) and every option's and
    target value's probability given all the column's ink and its sum."""
    tgt = {}
    for v, p in target:
        tgt[v] = tgt.get(v, 0.0) + p
    # forward: best and total weight of each partial sum
    fwd_best = [{0: (1.0, None)}]
    fwd_sum = [{0: 1.0}]
    for opts in terms:
        best, tot = {}, {}
        for s, (w, _) in fwd_best[-1].items():
            for k, o in enumerate(opts):
                t = s + o.value
                if t > MAX_SUM:
                    continue
                ww = w * o.weight
                if t not in best or ww > best[t][0]:
                    best[t] = (ww, (s, k))
        for s, w in fwd_sum[-1].items():
            for o in opts:
                t = s + o.value
                if t <= MAX_SUM:
                    tot[t] = tot.get(t, 0.0) + w * o.weight
        fwd_best.append(best)
        fwd_sum.append(tot)
    last_best, last_sum = fwd_best[-1], fwd_sum[-1]
    num = {v: p for v, p in tgt.items() if v is not None}
    p_none = tgt.get(None, 0.0)  # the total left empty: no constraint
    s_best = max(last_best, key=lambda s: last_best[s][0])
    top = last_best[s_best][0]
    ends = []  # (score, partial sum, the total picked, consistent)
    for s, (w, _) in last_best.items():
        if s in num:
            ends.append((w * num[s], s, s, True))
    if p_none > 0:
        ends.append((top * p_none, s_best, None, True))
    if num:
        v = max(num, key=num.get)
        ends.append((top * num[v] * MISADDED, s_best, v, v == s_best))
    if not tgt:
        ends.append((top, s_best, None, True))
    _, s, total, consistent = max(ends, key=lambda e: e[0])
    choice = []
    for i in range(len(terms), 0, -1):
        prev, k = fwd_best[i][s][1]
        choice.append(k)
        s = prev
    choice.reverse()
    # backward sums: the weight of finishing from partial sum s after term i
    all_t = sum(num.values())
    end = {s: (num.get(s, 0.0) + p_none + MISADDED * all_t) if tgt else 1.0 for s in last_sum}
    bwd = [None] * (len(terms) + 1)
    bwd[-1] = end
    for i in range(len(terms) - 1, -1, -1):
        nxt = bwd[i + 1]
        cur = {}
        for s in fwd_sum[i]:
            cur[s] = sum(o.weight * nxt.get(s + o.value, 0.0) for o in terms[i])
        bwd[i] = cur
    term_p = []
    for i, opts in enumerate(terms):
        ps = [sum(w * o.weight * bwd[i + 1].get(s + o.value, 0.0) for s, w in fwd_sum[i].items()) for o in opts]
        z = sum(ps)
        term_p.append([p / z if z > 0 else 0.0 for p in ps])
    all_sum = sum(last_sum.values())
    total_p = _norm({v: p * (all_sum if v is None else last_sum.get(v, 0.0) + MISADDED * all_sum)
                     for v, p in tgt.items()})
    return Solved(choice, total, bool(consistent), term_p, total_p)
