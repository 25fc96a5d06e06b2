"""Benchmark: the flight search alone (sheetkit.photo.flight), on the fields a perfect
reader would read, with controlled noise (sheetkit.photo.truefields).

    python bench/bench_flight.py [--sheets N] [--first-seed S] [--flips K] [--hard-soft]

For each seed a random legal game (Easy and Hard alternating) gives the true fields of its
sheet; with --flips K, every probability is softened and K fields are read wrong but
unsure (an edge, a turn-end dot or a digit). flight.build turns them into a draft, which is
compared with the game field by field. Printed: how often the draft is the game, how often
it checks as the game, the same once its uncertain fields are confirmed, the fields asked
to confirm per sheet (median, max), refusals, time per sheet, and the calibration of the
confidences: per confidence bucket the share of fields that are right. The baseline of the
timing is the number placement and checking alone, measured in the same run (the cost of one
replay of the truth by the checker).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from sheetkit import layouts  # noqa: E402
from sheetkit.errors import UserError  # noqa: E402
from sheetkit.games.yuncos.play import play  # noqa: E402
from sheetkit.checking.qr import qr_text  # noqa: E402
from sheetkit.photo import flight, simulate, truefields  # noqa: E402

LEVELS = ("yuncos-easy", "yuncos-hard")
BUCKETS = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 0.99, 1.01)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sheets", type=int, default=60)
    ap.add_argument("--first-seed", type=int, default=2000)
    ap.add_argument("--flips", type=int, default=0)
    ap.add_argument("--certain", action="store_true", help="no softening of the probabilities")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    counts = {"truth": 0, "agrees": 0, "confirmed": 0, "refused": 0, "flip_marked": 0, "flips": 0}
    per_level = {lid: [0, 0] for lid in LEVELS}
    asked, times, t_check = [], [], 0.0
    cal = [[0, 0] for _ in BUCKETS[:-1]]
    for n in range(args.sheets):
        seed = args.first_seed + n
        lid = LEVELS[n % 2]
        layout = layouts.load(lid)
        spec = layout.spec
        truth = simulate.truth_record(play(layout, random.Random(seed), ability_rate=0.5))
        rng = np.random.default_rng(seed)
        if args.flips or not args.certain:
            f, cells, dice, flipped = truefields.noisy(truth, spec, rng, args.flips, soft=not args.certain)
        else:
            (f, cells, dice), flipped = truefields.true_fields(truth, spec), []
        t0 = time.perf_counter()
        simulate._verdict(truth)
        t_check += time.perf_counter() - t0
        t0 = time.perf_counter()
        try:
            draft = flight.build(f, spec, lid, qr_text(layout, seed % 1000 + 1), cells, dice)
        except UserError as e:
            times.append(time.perf_counter() - t0)
            counts["refused"] += 1
            per_level[lid][1] += 1
            print(f"seed {seed} {lid}: refused: {e}", flush=True)
            continue
        times.append(time.perf_counter() - t0)
        right = truefields.fields_right(draft.record, truth, spec)
        for key, r in draft.confidence.items():
            ok = right.get(key, False)
            b = next(i for i in range(len(BUCKETS) - 1) if r.confidence < BUCKETS[i + 1])
            cal[b][0] += ok
            cal[b][1] += 1
        is_truth = all(right.values()) and len(draft.record["turn"]) == len(truth["turn"])
        agrees = simulate._verdict(draft.record) == simulate._verdict(truth)
        fixed = simulate.confirmed(draft, truth)
        conf_ok = fixed is not None and simulate._verdict(fixed) == simulate._verdict(truth)
        counts["truth"] += is_truth
        counts["agrees"] += agrees
        counts["confirmed"] += conf_ok
        per_level[lid][0] += is_truth
        per_level[lid][1] += 1
        asked.append(len(draft.uncertain))
        wrong = [k for k, r in right.items() if not r and k in draft.confidence]
        unsure = set(draft.uncertain) | set(draft.waiting)  # both marked # check
        silent = [k for k in wrong if k not in unsure]
        if args.verbose or not conf_ok:
            print(f"seed {seed} {lid}: truth {is_truth}, agrees {agrees}, confirmed {conf_ok}, "
                  f"{len(unsure)} to confirm, wrong {wrong}, wrong and confident {silent}, "
                  f"flipped {flipped}, {times[-1]:.2f} s", flush=True)
    N = args.sheets
    print(f"\n{N} sheets from true fields (seeds {args.first_seed}-{args.first_seed + N - 1}), "
          f"{'certain' if args.certain else 'softened'}, {args.flips} flipped field(s) per sheet")
    print(f"  draft is the game:                        {counts['truth'] / N:6.1%}"
          + "".join(f"  ({lid}: {a}/{b})" for lid, (a, b) in per_level.items()))
    print(f"  draft checks as the game:                 {counts['agrees'] / N:6.1%}")
    print(f"  ... once the uncertain fields confirmed:  {counts['confirmed'] / N:6.1%}")
    print(f"  refused:                                  {counts['refused'] / N:6.1%}")
    if asked:
        print(f"  fields to confirm per sheet: median {statistics.median(asked)}, max {max(asked)}")
    print(f"  time per sheet: {statistics.mean(times):.2f} s (max {max(times):.2f} s); one replay by the "
          f"checker {t_check / N * 1000:.0f} ms (ratio {statistics.mean(times) / max(t_check / N, 1e-9):.0f})")
    print("  calibration: confidence bucket, fields, share right")
    for (lo, hi), (ok, total) in zip(zip(BUCKETS, BUCKETS[1:]), cal):
        if total:
            print(f"    [{lo:.2f}, {min(hi, 1):.2f}{')' if hi <= 1 else ']'}  {total:6d}  {ok / total:7.1%}")


if __name__ == "__main__":
    main()
