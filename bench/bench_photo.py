"""Benchmark: reading simulated phone photos of filled Yuncos sheets (sheetkit read).

    python bench/bench_photo.py [--sheets N] [--first-seed S] [--only-register]

These are SIMULATED photos, not real ones: for each seed a random legal game
(sheetkit.games.yuncos.play) is pencilled onto the rendered sheet (sheetkit.photo.handwriting)
and "photographed" (sheetkit.photo.simulate: perspective, rotation up to 15 degrees, blur,
uneven light, noise, JPEG), alternating Easy and Hard, at 3000x4000 and 1200x1600 pixels.
Each photo is read into a draft record, which is compared with the game drawn:

- per field kind, the share read right: map edges (pencilled or not), turn ends, marked
  boxes (fish counter, crash track, ability boxes), digits (puzzle boxes and dice log);
- per sheet: the share read with no error at all; the share whose draft checks the same as
  the truth as it is; the share that does once its uncertain fields (`# check`) are
  confirmed (replaced by the truth); the share refused (one line, exit 2).

The baseline of the timing is the registration alone, measured in the same run.

With --only-register, only the registration runs: the share of photos registered, the
refusals by reason, the time per photo, and the residual: where the registered photo puts
points of the sheet (a grid over the content block) against where they are on the blank, in
px at 6 px/mm, from the transform the simulation applied.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from sheetkit.errors import UserError  # noqa: E402
from sheetkit.photo import PX_PER_MM  # noqa: E402
from sheetkit.photo import register, simulate  # noqa: E402
from sheetkit.photo.read import read_photo  # noqa: E402

SIZES = ((1200, 1600), (3000, 4000))
LEVELS = ("yuncos-easy", "yuncos-hard")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sheets", type=int, default=24)
    ap.add_argument("--first-seed", type=int, default=1000)
    ap.add_argument("--only-register", action="store_true", help="measure the registration alone")
    args = ap.parse_args()
    if args.only_register:
        return only_register(args)
    kinds = {k: [0, 0] for k in ("edges", "ends", "boxes", "digits")}
    sheets = {"no_error": 0, "draft_agrees": 0, "confirmed_agrees": 0, "refused": 0}
    per_size = {s: [0, 0] for s in SIZES}
    t_read = t_reg = 0.0
    tmp = Path(tempfile.mkdtemp())
    for n in range(args.sheets):
        seed = args.first_seed + n
        level, size = LEVELS[n % 2], SIZES[(n // 2) % 2]
        s = simulate.sample(seed, level, size)
        photo = tmp / f"{seed}.jpg"
        photo.write_bytes(s.jpeg)
        register.blank.cache_clear()
        t0 = time.perf_counter()
        try:
            register.register(photo)
        except UserError:
            pass
        t_reg += time.perf_counter() - t0
        register.blank.cache_clear()
        t0 = time.perf_counter()
        try:
            draft = read_photo(photo)
        except UserError as e:
            t_read += time.perf_counter() - t0
            sheets["refused"] += 1
            print(f"seed {seed} {level} {size[0]}x{size[1]}: refused: {e}", flush=True)
            per_size[size][1] += 1
            continue
        t_read += time.perf_counter() - t0
        c = simulate.compare(draft, s.truth, level)
        for k in kinds:
            kinds[k][0] += c[k][0]
            kinds[k][1] += c[k][1]
        for k in ("no_error", "draft_agrees", "confirmed_agrees"):
            sheets[k] += c[k]
        per_size[size][0] += c["confirmed_agrees"]
        per_size[size][1] += 1
        print(f"seed {seed} {level} {size[0]}x{size[1]}: no error {c['no_error']}, draft agrees "
              f"{c['draft_agrees']}, confirmed agrees {c['confirmed_agrees']}, {c['uncertain']} to confirm",
              flush=True)
    N = args.sheets
    print(f"\n{N} simulated photos (not real ones), seeds {args.first_seed}-{args.first_seed + N - 1}")
    for k, (right, total) in kinds.items():
        print(f"  {k:7s} read right: {right / max(1, total):7.2%}  ({right}/{total})")
    print(f"  sheets read with no error:                 {sheets['no_error'] / N:6.1%}")
    print(f"  sheets whose draft checks as the truth:    {sheets['draft_agrees'] / N:6.1%}")
    print(f"  ... once the uncertain fields are confirmed: {sheets['confirmed_agrees'] / N:6.1%}")
    print(f"  sheets refused (one line, exit 2):         {sheets['refused'] / N:6.1%}")
    for size, (ok, total) in per_size.items():
        print(f"  at {size[0]}x{size[1]}: {ok}/{total} agree once confirmed")
    print(f"  time per photo: read {t_read / N:.2f} s, registration alone {t_reg / N:.2f} s "
          f"(ratio {t_read / max(t_reg, 1e-9):.1f})")


def only_register(args) -> None:
    from collections import Counter

    tmp = Path(tempfile.mkdtemp())
    reasons, means, worst, times = Counter(), [], [], []
    registered = 0
    for n in range(args.sheets):
        seed = args.first_seed + n
        level, size = LEVELS[n % 2], SIZES[(n // 2) % 2]
        s = simulate.sample(seed, level, size)
        photo = tmp / f"{seed}.jpg"
        photo.write_bytes(s.jpeg)
        register.blank.cache_clear()
        t0 = time.perf_counter()
        try:
            reg = register.register(photo)
        except UserError as e:
            times.append(time.perf_counter() - t0)
            reason = e.detail.split(":")[0]
            reasons[reason] += 1
            print(f"seed {seed} {level} {size[0]}x{size[1]}: refused: {e.detail}", flush=True)
            continue
        times.append(time.perf_counter() - t0)
        registered += 1
        r = simulate.registration_error(s, reg.homography, reg.blank.geometry)
        means.append(float(r.mean()))
        worst.append(float(r.max()))
        print(f"seed {seed} {level} {size[0]}x{size[1]}: residual mean {r.mean():.2f} px, max {r.max():.2f} px, "
              f"{times[-1]:.2f} s", flush=True)
    N = args.sheets
    print(f"\n{N} simulated photos (not real ones), seeds {args.first_seed}-{args.first_seed + N - 1}: registration alone")
    print(f"  registered: {registered}/{N} ({registered / max(1, N):.1%})")
    for reason, k in reasons.most_common():
        print(f"  refused {k}x: {reason}")
    if means:
        print(f"  residual (px at {PX_PER_MM:g} px/mm, 5 mm grid over the content block): mean of means "
              f"{np.mean(means):.2f}, median of maxima {np.median(worst):.2f}, largest {max(worst):.2f}")
    print(f"  time per photo: mean {np.mean(times):.2f} s, slowest {max(times):.2f} s")


if __name__ == "__main__":
    main()
