"""Train the digit reader's network and write sheetkit/photo/digits_model.npz.

    python scripts/train_digits.py [--per-class 2500] [--seed 16] [--epochs 40]   # ~4 min

The training crops are simulated by sheetkit.photo.handwriting (pencil digits in the
handwriting fonts and stroke styles, degraded as a phone photo would). The styles in
HELD_OUT are kept out of training so that tests and bench/bench_digits.py can measure the
reader on handwriting it never saw. The same seed and fonts give the same weights.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from sheetkit.photo import digits, handwriting

HELD_OUT = ("humor-sans", "serif")  # one font, one stroke style
TRAIN_FONTS = ("breip", "comic-neue", "comic-neue-italic", "dkg", "dkg-oblique", "klee")
TRAIN_STROKES = ("print", "round")
HIDDEN = 96


def featurize(inks) -> np.ndarray:
    return np.stack([digits.features(a) for a in inks])


def train(x: np.ndarray, y: np.ndarray, rng: np.random.Generator, epochs: int = 40,
          batch: int = 128, lr: float = 2e-3, decay: float = 1e-4) -> dict[str, np.ndarray]:
    """A one-hidden-layer ReLU network, softmax output, Adam; plain numpy."""
    mean, std = x.mean(axis=0), x.std(axis=0) + 1e-3
    z = (x - mean) / std
    n, d = z.shape
    k = len(digits.CLASSES)
    params = {"w1": rng.normal(0, (2 / d) ** 0.5, (d, HIDDEN)), "b1": np.zeros(HIDDEN),
              "w2": rng.normal(0, (2 / HIDDEN) ** 0.5, (HIDDEN, k)), "b2": np.zeros(k)}
    m1 = {p: np.zeros_like(v) for p, v in params.items()}
    m2 = {p: np.zeros_like(v) for p, v in params.items()}
    onehot = np.eye(k)[y]
    step = 0
    for epoch in range(epochs):
        rate = lr * 0.5 * (1 + np.cos(np.pi * epoch / epochs))
        for idx in np.array_split(rng.permutation(n), max(1, n // batch)):
            xb, tb = z[idx], onehot[idx] * 0.97 + 0.03 / k  # a little label smoothing
            h = np.maximum(xb @ params["w1"] + params["b1"], 0)
            logits = h @ params["w2"] + params["b2"]
            logits -= logits.max(axis=1, keepdims=True)
            p = np.exp(logits)
            p /= p.sum(axis=1, keepdims=True)
            g_logits = (p - tb) / len(idx)
            grads = {"w2": h.T @ g_logits + decay * params["w2"], "b2": g_logits.sum(axis=0)}
            g_h = (g_logits @ params["w2"].T) * (h > 0)
            grads["w1"] = xb.T @ g_h + decay * params["w1"]
            grads["b1"] = g_h.sum(axis=0)
            step += 1
            for name, g in grads.items():
                m1[name] = 0.9 * m1[name] + 0.1 * g
                m2[name] = 0.999 * m2[name] + 0.001 * g * g
                mh, vh = m1[name] / (1 - 0.9 ** step), m2[name] / (1 - 0.999 ** step)
                params[name] -= rate * mh / (np.sqrt(vh) + 1e-8)
    return {"mean": mean, "std": std, **params}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-class", type=int, default=2500)
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--out", type=Path, default=digits.MODEL)
    args = ap.parse_args()
    missing = [s for s in TRAIN_FONTS + HELD_OUT if s not in handwriting.styles()]
    if missing:
        print(f"missing fonts for styles {', '.join(missing)}: apt-get install fonts-dkg-handwriting "
              "fonts-humor-sans fonts-breip fonts-klee fonts-comic-neue", file=sys.stderr)
        return 2
    rng = np.random.default_rng(args.seed)
    t = time.perf_counter()
    inks, labels = handwriting.crop_set(rng, args.per_class, list(TRAIN_FONTS + TRAIN_STROKES))
    x = featurize(inks)
    y = np.array([digits.CLASSES.index(c) for c in labels])
    print(f"{len(y)} crops in {time.perf_counter() - t:.0f} s", flush=True)
    t = time.perf_counter()
    model = train(x, y, rng, epochs=args.epochs)
    acc = float((digits.probabilities(x, model).argmax(axis=1) == y).mean())
    print(f"trained in {time.perf_counter() - t:.0f} s; accuracy on the training crops {acc:.4f}")
    save(args.out, model, HELD_OUT, args.seed)
    return 0


def save(path: Path, model: dict, held_out, seed: int) -> None:
    """The weights as float32, with the held-out styles and the seed, written whole or not at all."""
    out = {k: v.astype(np.float32) for k, v in model.items()}
    out["held_out"] = np.array(held_out)
    out["seed"] = np.array(seed)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".npz")
    with os.fdopen(fd, "wb") as f:
        np.savez_compressed(f, **out)
    os.replace(tmp, path)
    print(f"wrote {path} ({path.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    sys.exit(main())
