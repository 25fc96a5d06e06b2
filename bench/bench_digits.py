"""How well and how fast the photo reader reads pencilled digits 1-6, on simulated photos.

    python bench/bench_digits.py [--quick]    # from the repository root; ~2 min (--quick ~30 s)

Every figure here is on SIMULATED pencil and SIMULATED photos (sheetkit.photo.handwriting),
not on real ones. Box sizes are a Yuncos sheet's (9 mm puzzle boxes, 7 mm dice log boxes,
0.3 mm lines) as a phone photo gives them with the A4 sheet filling 90% of the frame's long
side, at 1200x1600 and at 3000x4000.

1. Crops: one box's inside, simulated directly (blur, uneven gain, noise, JPEG, edge
   leftovers, specks), in the training handwriting (new seeds) and in a font and a stroke
   style the network never saw. Accuracy overall and per digit (None = empty box).
2. Sheets: digits pencilled into the boxes of a rendered Yuncos sheet, the page blurred,
   lit unevenly, noised and JPEG-compressed, the clean blank subtracted with a registration
   error of up to a pixel, and each box's inside read.
3. Rules: legal nest rows in held-out handwriting at the 1200x1600 size, each box read on
   its own and then narrowed by the row's rule.
4. Time per box, against a baseline measured in the same run: resizing the crop to the
   network's 28 px frame, the least any reader of it does.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from sheetkit.games.yuncos import compose  # noqa: E402
from sheetkit.photo import digits, handwriting  # noqa: E402

PHOTOS = ((1200, 1600), (3000, 4000))
A4_LONG = 297.0
FILL = 0.9
LINE = 0.3  # mm, the boxes' printed lines


def px_per_mm(photo: tuple[int, int]) -> float:
    return FILL * max(photo) / A4_LONG


def inside(mm: float, k: float) -> int:
    return round((mm - LINE) * k)


def groups() -> list[tuple[str, list[str]]]:
    with np.load(digits.MODEL) as z:
        held = [str(s) for s in z["held_out"]]
    here = handwriting.styles()
    train = [s for s in here if s not in held]
    out = [("training styles, new seeds", train)]
    out += [(f"held out: {s}", [s]) for s in held if s in here]
    return out


def best(p: dict) -> int | None:
    return max(p.items(), key=lambda kv: kv[1])[0]


def report(name: str, truth: list, read: list) -> None:
    ok = np.array([a == b for a, b in zip(truth, read)])
    per = []
    for c in digits.CLASSES:
        sel = [a == b for a, b in zip(truth, read) if a == c]
        per.append(f"{'-' if c is None else c}:{100 * np.mean(sel):.0f}" if sel else f"{c}:n/a")
    print(f"  {name:<44} {100 * ok.mean():5.1f}%  of {len(ok):4d}   {' '.join(per)}", flush=True)


def bench_crops(per_class: int) -> None:
    print("1. crops (accuracy; per class: empty box '-' and 1-6)")
    for photo in PHOTOS:
        k = px_per_mm(photo)
        for mm, what in ((compose.SMALL_BOX, "dice log"), (compose.BOX, "puzzle")):
            side = inside(mm, k)
            print(f" {photo[0]}x{photo[1]}, {what} box {mm:g} mm: inside {side} px ({k:.2f} px/mm)")
            for name, styles in groups():
                rng = np.random.default_rng(1000 + side)
                inks, labels = handwriting.crop_set(rng, per_class, styles, (side * 0.92, side * 1.08))
                report(name, labels, [best(digits.classify(a)) for a in inks])


def blank_page(k: float):
    from sheetkit.paper import png, printing

    layout, scene = printing.compose("yuncos-easy", "a4", "en", "real")
    img = png.page_image(scene, 0, dpi=k * 25.4).convert("L")
    return layout.spec, np.asarray(img, np.float32) / 255.0


def sheet_boxes(spec) -> list[tuple[float, float, float, float]]:
    g = compose.sheet_geometry(spec, "a4")
    boxes = [g.nest_box(r, i) for r in range(2) for i in range(spec.nests.length)]
    boxes += [g.lum_box(c, lv) for c in range(spec.luminaries.columns) for lv in range(spec.luminaries.height)]
    boxes += [g.dice_box(t, w) for t in range(1, spec.dice_log + 1) for w in range(2)]
    return boxes


def photograph(page: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Blur, light falling off across the page (then evened out, 3% left), noise, JPEG."""
    h, w = page.shape
    sigma = rng.uniform(0.5, 1.3)
    p = cv2.GaussianBlur(page, (0, 0), sigma)
    gy, gx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 0.75 + 0.25 * np.cos(gx / w * rng.uniform(1, 3) + gy / h * rng.uniform(1, 3))
    p = p * light + rng.normal(0, 0.02, p.shape).astype(np.float32)
    _, buf = cv2.imencode(".jpg", np.clip(p * 255, 0, 255).astype(np.uint8),
                          [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 92))])
    p = cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE).astype(np.float32) / 255.0
    return p / (light * rng.uniform(0.97, 1.03)), sigma


def bench_sheets(sheets: int) -> None:
    print("2. sheets (a rendered Yuncos sheet, pencilled, photographed, the blank subtracted)")
    for photo in PHOTOS:
        k = px_per_mm(photo)
        spec, blank = blank_page(k)
        boxes = sheet_boxes(spec)
        for name, styles in groups():
            rng = np.random.default_rng(int(k * 100))
            truth, read = [], []
            for _ in range(sheets):
                page = blank.copy()
                values = []
                for x, y, w, h in boxes:
                    d = None if rng.random() < 0.2 else int(rng.integers(1, 7))
                    if d is not None:
                        style = styles[int(rng.integers(len(styles)))]
                        handwriting.draw_digit(page, (x * k, y * k, (x + w) * k, (y + h) * k), d, rng, style)
                    values.append(d)
                shot, sigma = photograph(page, rng)
                # the blank, blurred alike and off by up to a pixel
                dx, dy = rng.uniform(-1, 1, 2)
                m = np.float32([[1, 0, dx], [0, 1, dy]])
                ref = cv2.warpAffine(cv2.GaussianBlur(blank, (0, 0), sigma), m, blank.shape[::-1],
                                     borderValue=1.0)
                ink = np.clip(ref - shot, 0, 1)
                pad = LINE * k / 2 + 1
                for (x, y, w, h), d in zip(boxes, values):
                    a = ink[round(y * k + pad):round((y + h) * k - pad), round(x * k + pad):round((x + w) * k - pad)]
                    truth.append(d)
                    read.append(best(digits.classify(a)))
            report(f"{photo[0]}x{photo[1]}, {name}", truth, read)


def legal_row(rule: str, rng: np.random.Generator) -> list[int | None]:
    n = int(rng.integers(1, 7))
    if rule == "all_different":
        row = list(rng.permutation(np.arange(1, 7))[:n])
    else:
        row = sorted(rng.choice(np.arange(1, 7), n, replace=False), reverse=True)
    return [int(v) for v in row] + [None] * (6 - n)


def bench_rules(rows: int) -> None:
    k = px_per_mm(PHOTOS[0])
    side = inside(compose.BOX, k)
    held = [s for name, st in groups()[1:] for s in st]
    print(f"3. rules: nest rows of 6 at {side} px in held-out handwriting ({', '.join(held)})")
    rng = np.random.default_rng(3)
    for rule in ("all_different", "descending"):
        raw_ok = nar_ok = rows_raw = rows_nar = 0
        for r in range(rows):
            row = legal_row(rule, rng)
            cells = [digits.classify(handwriting.ink_crop(rng, d, side, held[(r + i) % len(held)]))
                     for i, d in enumerate(row)]
            raw = [best(c) for c in cells]
            nar = [v for v, _ in digits.narrow(cells, rule)]
            raw_ok += sum(a == b for a, b in zip(raw, row))
            nar_ok += sum(a == b for a, b in zip(nar, row))
            rows_raw += raw == row
            rows_nar += nar == row
        n = 6 * rows
        print(f"  {rule:<14} boxes read alone {100 * raw_ok / n:5.1f}%, narrowed {100 * nar_ok / n:5.1f}%;"
              f" rows wholly right {100 * rows_raw / rows:5.1f}% -> {100 * rows_nar / rows:5.1f}%")


def bench_time() -> None:
    print("4. time per box (best of 5 runs over the same 70 crops)")
    rng = np.random.default_rng(4)
    for photo in PHOTOS:
        side = inside(compose.BOX, px_per_mm(photo))
        inks, _ = handwriting.crop_set(rng, 10, ["print"], (side, side))

        def timed(fn) -> float:
            best_t = float("inf")
            for _ in range(5):
                t0 = time.perf_counter()
                for a in inks:
                    fn(a)
                best_t = min(best_t, (time.perf_counter() - t0) / len(inks))
            return best_t

        base = timed(lambda a: cv2.resize(a, (28, 28), interpolation=cv2.INTER_AREA))
        feat = timed(digits.features)
        full = timed(digits.classify)
        print(f"  {side:3d} px box: baseline resize {1e6 * base:6.0f} us; features {1e6 * feat:6.0f} us"
              f" ({feat / base:.0f}x); classify {1e6 * full:6.0f} us ({full / base:.0f}x)")
    cells = [digits.classify(a) for a in inks[:6]]
    t0 = time.perf_counter()
    for _ in range(20):
        digits.narrow(cells, "all_different")
    print(f"  narrow(), a row of 6 under all_different: {1e6 * (time.perf_counter() - t0) / 20:.0f} us")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer crops and sheets")
    args = ap.parse_args()
    print("Simulated pencil and simulated photos, not real ones.")
    bench_crops(12 if args.quick else 60)
    bench_sheets(1 if args.quick else 3)
    bench_rules(40 if args.quick else 200)
    bench_time()


if __name__ == "__main__":
    main()
