"""Benchmark: reading simulated phone photos of filled Yuncos sheets (sheetkit read).

    python bench/bench_photo.py [--sheets N] [--first-seed S] [--wide] [--reread [--rounds N]] [--only-register | --fields]

These are SIMULATED photos, not real ones: for each seed a random legal game
(sheetkit.games.yuncos.play) is pencilled onto the rendered sheet (sheetkit.photo.handwriting)
and "photographed" (sheetkit.photo.simulate: perspective, rotation up to 15 degrees, blur,
uneven light, noise, JPEG), alternating Easy and Hard, at 3000x4000 and 1200x1600 pixels.
Each photo is read into a draft record, which is compared with the game drawn:

- per field kind, the share read right: map edges (pencilled or not), turn ends, marked
  boxes (fish counter, crash track, ability boxes), digits (puzzle boxes and dice log);
- per sheet: the share read with no error at all; the share whose draft checks the same as
  the truth as it is; the share that does once its uncertain fields (`# check`) are
  confirmed (as a player looking at the sheet would: simulate.confirmed); with --reread, the
  share that does once confirmed and read again around what was confirmed, and with
  --rounds N, confirmed and read again up to N times while something is still asked (a
  player pressing the phone page's Check again); the share refused (one line, exit 2).

The baseline of the timing is the registration alone, measured in the same run.

With --only-register, only the registration runs: the share of photos registered, the
refusals by reason, the time per photo, and the residual: where the registered photo puts
points of the sheet (a grid over the content block) against where they are on the blank, in
px at 6 px/mm, from the transform the simulation applied.

With --fields only the fields are read (registration and sheetkit.photo.fields, no flight
search: fast) and each field's probability is compared with the pencil drawn: per kind the
share read right (probability on the right side of 0.5), the calibration (probability
buckets against the share truly marked) and, for turn ends, missed and phantom marks by
where the grid point lies (the line's end, a corner, a crossing, on print, ...).
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

SIZES, LEVELS = simulate.SIZES, simulate.LEVELS


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sheets", type=int, default=24)
    ap.add_argument("--first-seed", type=int, default=1000)
    ap.add_argument("--only-register", action="store_true", help="measure the registration alone")
    ap.add_argument("--fields", action="store_true", help="fields only: accuracy, calibration, confusion")
    ap.add_argument("--reread", action="store_true",
                    help="also confirm the marked fields and read the photo again around them (sheetkit.photo.read.reread)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="with --reread: confirm and read again up to this many times, as a player pressing "
                         "Check again while something is asked (default 1)")
    ap.add_argument("--wide", action="store_true", help="simulate's WIDE hands and cameras (seeds 6000.. by default)")
    args = ap.parse_args()
    if args.wide and args.first_seed == 1000:
        args.first_seed = 6000  # 5000.. fit the fields: these are held out
    if args.only_register:
        return only_register(args)
    if args.fields:
        return fields_only(args.sheets, args.first_seed, args.wide)
    kinds = {k: [0, 0] for k in ("edges", "ends", "boxes", "digits")}
    sheets = {"no_error": 0, "draft_agrees": 0, "confirmed_agrees": 0, "refused": 0,
              "fields": 0, "wrong": 0, "wrong_unmarked": 0, "uncertain": 0, "reread_agrees": 0, "rounds_agrees": 0,
              "asked_rounds": 0}
    per_size = {s: [0, 0] for s in SIZES}
    t_read = t_reg = 0.0
    tmp = Path(tempfile.mkdtemp())
    for seed, level, size, s, photo in simulate.photo_set(args.sheets, args.first_seed, tmp, args.wide):
        per_size.setdefault(size, [0, 0])
        t0 = time.perf_counter()
        try:
            register.register(photo)
        except UserError:
            pass
        t_reg += time.perf_counter() - t0
        register.forget_blanks()
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
        for k in ("no_error", "draft_agrees", "confirmed_agrees", "fields", "wrong", "wrong_unmarked", "uncertain"):
            sheets[k] += c[k]
        per_size[size][0] += c["confirmed_agrees"]
        if args.reread:
            agreed, ever = confirm_rounds(photo, draft, s.truth, args.rounds)
            sheets["reread_agrees"] += agreed[0]
            sheets["rounds_agrees"] += agreed[-1]
            sheets["asked_rounds"] += len(ever)
        per_size[size][1] += 1
        print(f"seed {seed} {level} {size[0]}x{size[1]}: no error {c['no_error']}, draft agrees "
              f"{c['draft_agrees']}, confirmed agrees {c['confirmed_agrees']}, {c['uncertain']} to confirm"
              + (f"; wrong, not marked: {', '.join(c['unmarked'])}" if c["unmarked"] else ""), flush=True)
    N = args.sheets
    print(f"\n{N} simulated photos (not real ones), seeds {args.first_seed}-{args.first_seed + N - 1}")
    for k, (right, total) in kinds.items():
        print(f"  {k:7s} read right: {right / max(1, total):7.2%}  ({right}/{total})")
    print(f"  sheets read with no error:                 {sheets['no_error'] / N:6.1%}")
    print(f"  sheets whose draft checks as the truth:    {sheets['draft_agrees'] / N:6.1%}")
    print(f"  ... once the uncertain fields are confirmed: {sheets['confirmed_agrees'] / N:6.1%}")
    print(f"  sheets refused (one line, exit 2):         {sheets['refused'] / N:6.1%}")
    if args.reread:
        print(f"  ... confirmed and read again around them:  {sheets['reread_agrees'] / N:6.1%}")
        if args.rounds > 1:
            label = f"  ... and again, up to {args.rounds} times:"
            print(f"{label:46s}{sheets['rounds_agrees'] / N:6.1%}")
    F = max(1, sheets["fields"])
    print(f"  fields of the drafts: {sheets['fields']}, wrong {sheets['wrong']}, wrong and not marked "
          f"{sheets['wrong_unmarked']} ({sheets['wrong_unmarked'] / F:.1%}), asked to confirm "
          f"{sheets['uncertain']} ({sheets['uncertain'] / F:.1%})")
    if args.reread:
        print(f"  fields asked over the rounds: {sheets['asked_rounds']} ({sheets['asked_rounds'] / F:.1%})")
    for size, (ok, total) in per_size.items():
        print(f"  at {size[0]}x{size[1]}: {ok}/{total} agree once confirmed")
    print(f"  time per photo: read {t_read / N:.2f} s, registration alone {t_reg / N:.2f} s "
          f"(ratio {t_read / max(t_reg, 1e-9):.1f})")


def confirm_rounds(photo, draft, truth: dict, rounds: int) -> tuple[list[bool], set]:
    """Whether the sheet checks as the truth after each of `rounds` rounds of confirming the
    fields asked (simulate.confirmed: as a player looking at the sheet) and reading the photo
    again around everything confirmed so far (sheetkit.photo.read.reread); and every field
    asked over the rounds (a turn's abilities apart: they are asked with its flight)."""
    from sheetkit.photo.read import follow_boxes, reread

    record, asked, out = simulate.confirmed(draft, truth), list(draft.uncertain), []
    ever = set(asked)
    for _ in range(max(rounds, 1)):
        if record is not None and simulate._verdict(record) == simulate._verdict(truth):
            out.append(True)
            continue
        if record is None:
            out.append(False)
            continue
        try:
            again = reread(photo, record, asked)
        except UserError:
            record = None
            out.append(False)
            continue
        # what is confirmed now: a confirmed number follows its box (as the page and
        # `sheetkit read --confirmed` have it), and what the reading asks is confirmed too
        held = follow_boxes(record, again.record, asked)
        record = simulate.confirmed(again, truth)
        asked = sorted(set(held) | set(again.uncertain))
        ever |= set(again.uncertain)
        out.append(record is not None and simulate._verdict(record) == simulate._verdict(truth))
    return out or [False], {k for k in ever if not k.endswith(".use")}


def only_register(args) -> None:
    from collections import Counter

    tmp = Path(tempfile.mkdtemp())
    reasons, means, worst, times = Counter(), [], [], []
    registered = 0
    for seed, level, size, s, photo in simulate.photo_set(args.sheets, args.first_seed, tmp, args.wide):
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



BUCKETS = (0.0, 0.05, 0.2, 0.4, 0.6, 0.8, 0.95, 1.0001)


def fields_only(n_sheets: int, first: int, wide: bool = False) -> None:
    from collections import Counter

    import numpy as np

    from sheetkit.photo.fields import align_boxes, ink_image, map_blur, read_fields

    rows, refused, per_size = [], 0, Counter()
    tmp = Path(tempfile.mkdtemp())
    for seed, level, size, s, photo in simulate.photo_set(n_sheets, first, tmp, wide):
        try:
            reg = register.register(photo)
        except UserError as e:
            refused += 1
            print(f"seed {seed} {level} {size[0]}x{size[1]}: not registered: {e}", flush=True)
            continue
        g = reg.blank.geometry
        blur = map_blur(reg)
        f = read_fields(ink_image(align_boxes(reg.photo, reg.blank_image, g), reg.blank_image, blur), g, reg.photo,
                        reg.blank_image, blur)
        got = simulate.field_rows(f, s.truth, level)
        wrong = Counter(kind for kind, p, truth, _ in got if (p >= 0.5) != truth)
        rows += [(size,) + r for r in got]
        per_size[size] += 1
        print(f"seed {seed} {level} {size[0]}x{size[1]}: wrong " +
              ", ".join(f"{kind} {wrong[kind]}" for kind in ("edges", "ends", "boxes")), flush=True)
    print(f"\n{n_sheets} simulated photos (not real ones), seeds {first}-{first + n_sheets - 1}; "
          f"{refused} not registered")
    kinds = ("edges", "frame edges", "ends", "boxes")
    for kind in kinds:
        for size in (None,) + (simulate.WIDE_SIZES if wide else SIZES):
            sel = [r for r in rows if r[1] == kind and (size is None or r[0] == size)]
            right = sum((p >= 0.5) == t for _, _, p, t, _ in sel)
            at = f"at {size[0]}x{size[1]}" if size else "all"
            print(f"  {kind:11s} {at:12s} read right: {right / max(1, len(sel)):7.2%}  ({right}/{len(sel)})")
    print("\ncalibration: probability read -> share truly marked (fields)")
    for kind in ("edges", "ends", "boxes"):
        p = np.array([r[2] for r in rows if r[1] == kind])
        t = np.array([r[3] for r in rows if r[1] == kind])
        ll = -np.mean(np.log(np.clip(np.where(t, p, 1 - p), 1e-6, 1)))
        print(f"  {kind} (log loss {ll:.4f}, Brier {np.mean((p - t) ** 2):.4f})")
        for lo, hi in zip(BUCKETS, BUCKETS[1:]):
            m = (p >= lo) & (p < hi)
            if m.any():
                print(f"    {lo:4.2f}-{min(hi, 1):4.2f}: {t[m].mean():7.2%} marked of {m.sum():6d}")
    print("\nturn ends by where the grid point lies: missed marks, phantom marks")
    ends = [r for r in rows if r[1] == "ends"]
    places = Counter(r[4] for r in ends)
    for where, n in places.most_common():
        marked = [r for r in ends if r[4] == where and r[3]]
        blank = [r for r in ends if r[4] == where and not r[3]]
        missed = sum(r[2] < 0.5 for r in marked)
        phantom = sum(r[2] >= 0.5 for r in blank)
        print(f"  {where:34s} missed {missed:4d} of {len(marked):5d}   phantom {phantom:4d} of {len(blank):6d}")
    print("\nboxes by kind: missed marks, phantom marks")
    for where in ("fish", "crash", "ability"):
        sel = [r for r in rows if r[1] == "boxes" and r[4] == where]
        print(f"  {where:8s} missed {sum(r[2] < 0.5 for r in sel if r[3]):4d} of {sum(r[3] for r in sel):5d}   "
              f"phantom {sum(r[2] >= 0.5 for r in sel if not r[3]):4d} of {sum(not r[3] for r in sel):5d}")


if __name__ == "__main__":
    main()
