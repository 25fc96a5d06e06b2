"""Train the score pads' digit reader (0-9) and write sheetkit/photo/pad_digits_model.npz.

    python scripts/train_pad_digits.py [--per-class 1500] [--seed 27] [--epochs 30]   # ~3 min

The crops are simulated by sheetkit.photo.padwriting: one digit as the pad reader cuts it
out of a cell (sheetkit.photo.paddigits.segments), in the styles of
padwriting.TRAIN_STYLES only; padwriting.HELD_OUT (a font and a stroke style) is kept out
so that bench/bench_pad_photo.py measures the reader on hands it never saw. Sizes are those
of a cell's digit on the registered photo (6 px/mm: 4-10 mm high). The network is the
Yuncos digit reader's (scripts/train_digits.py: one hidden layer, plain numpy, Adam), with
eleven outputs. The same seed and fonts give the same weights.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_digits  # noqa: E402  the same network and optimiser

from sheetkit.photo import paddigits, padwriting  # noqa: E402

HIDDEN = 96  # the Yuncos reader's; 128 units and twice the crops read unseen hands no better


def crop_set(rng: np.random.Generator, per_class: int, styles: list[str]):
    labels = [d for d in paddigits.CLASSES for _ in range(per_class)]
    labels = [labels[i] for i in rng.permutation(len(labels))]
    inks = []
    for k, d in enumerate(labels):
        h = round(math.exp(rng.uniform(math.log(22), math.log(64))))
        w = max(12, round(h * rng.uniform(0.45, 1.05)))
        inks.append(padwriting.number_crop(rng, d, (h, w), styles[k % len(styles)]))
    return inks, labels


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-class", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--out", type=Path, default=paddigits.MODEL)
    args = ap.parse_args()
    missing = [s for s in padwriting.TRAIN_STYLES + padwriting.HELD_OUT if s not in padwriting.styles()]
    if missing:
        print(f"missing fonts for styles {', '.join(missing)}: apt-get install fonts-dkg-handwriting "
              "fonts-humor-sans fonts-breip fonts-klee fonts-comic-neue", file=sys.stderr)
        return 2
    rng = np.random.default_rng(args.seed)
    t = time.perf_counter()
    inks, labels = crop_set(rng, args.per_class, list(padwriting.TRAIN_STYLES))
    x = np.stack([paddigits.features(a) for a in inks])
    y = np.array([paddigits.CLASSES.index(c) for c in labels])
    print(f"{len(y)} crops in {time.perf_counter() - t:.0f} s", flush=True)
    t = time.perf_counter()
    train_digits.digits.CLASSES = paddigits.CLASSES  # eleven outputs
    train_digits.HIDDEN = HIDDEN
    model = train_digits.train(x, y, rng, epochs=args.epochs)
    acc = float((paddigits.probabilities(x, model).argmax(axis=1) == y).mean())
    test_inks, test_labels = crop_set(np.random.default_rng(args.seed + 1), 60, list(padwriting.HELD_OUT))
    xt = np.stack([paddigits.features(a) for a in test_inks])
    yt = np.array([paddigits.CLASSES.index(c) for c in test_labels])
    held = float((paddigits.probabilities(xt, model).argmax(axis=1) == yt).mean())
    print(f"trained in {time.perf_counter() - t:.0f} s; accuracy on the training crops {acc:.4f}, "
          f"on held-out styles {held:.4f}")
    train_digits.save(args.out, model, padwriting.HELD_OUT, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
