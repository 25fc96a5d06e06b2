"""Fit the logistic weights of sheetkit.photo.fields (END_W, BOX_W) on simulated photos.

    python scripts/fit_fields.py [--sheets 60] [--first-seed 2000] [--wide 40] [--cache measures.npz]

These are simulated photos, not real ones (sheetkit.photo.simulate), alternating Easy and
Hard, 1200x1600 and 3000x4000 as bench/bench_photo.py does. Each is registered, every field
measured (fields.measure) and labelled with the pencil drawn; a logistic regression per
field kind (Newton's method, a light L2 penalty) gives the weights, printed as the lines to
put in fields.py (the edges' EDGE_W is printed too, to compare: fields.py keeps its
hand-set one, which reads more edges right). Seeds from 2000 on: seeds 1000-1023 are kept for bench/bench_photo.py.
The same seeds give the same weights. --cache keeps the measures to fit again quickly.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sheetkit.errors import UserError  # noqa: E402
from sheetkit.photo import fields, register, simulate  # noqa: E402

SIZES, LEVELS = simulate.SIZES, simulate.LEVELS


def collect(n_sheets: int, first: int, wide: bool = False) -> dict[str, np.ndarray]:
    data = {k: [] for k in ("edge_x", "edge_y", "end_x", "end_y", "box_x", "box_y")}
    tmp = Path(tempfile.mkdtemp())
    for seed, level, size, s, photo in simulate.photo_set(n_sheets, first, tmp, wide):
        try:
            reg = register.register(photo)
        except UserError:
            print(f"seed {seed}: not registered", flush=True)
            continue
        g = reg.blank.geometry
        blur = fields.map_blur(reg)
        m = fields.measure(g, reg.photo, reg.blank_image, blur)
        tr = simulate.field_truth(s.truth, level)
        keep = [i for i, e in enumerate(m.edges) if not simulate.on_frame(e, tr["board"])]
        data["edge_x"].append(m.edge_x[keep])
        data["edge_y"].append(np.array([m.edges[i] in tr["edges"] for i in keep], float))
        data["end_x"].append(m.end_x)
        data["end_y"].append(np.array([v in tr["ends"] for v in m.ends], float))
        data["box_x"].append(m.box_x)
        data["box_y"].append(np.array([b in tr["boxes"] for b in m.boxes], float))
        print(f"seed {seed} {level} {size[0]}x{size[1]}: measured", flush=True)
    return {k: np.concatenate(v) for k, v in data.items()}


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-2, steps: int = 50) -> np.ndarray:
    """Logistic regression by Newton's method: the weights, intercept first."""
    X = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(X.shape[1])
    pen = np.full(X.shape[1], l2)
    pen[0] = 0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-np.clip(X @ w, -30, 30)))
        grad = X.T @ (p - y) + pen * w
        hess = (X * (p * (1 - p))[:, None]).T @ X + np.diag(pen) + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sheets", type=int, default=60)
    ap.add_argument("--first-seed", type=int, default=2000)
    ap.add_argument("--cache", type=Path)
    ap.add_argument("--wide", type=int, default=0,
                    help="as many sheets again from simulate's WIDE hands and cameras (seeds from 5000 on)")
    args = ap.parse_args()
    if args.first_seed < 2000:
        sys.exit("fit on seeds from 2000 on: 1000-1023 are the held-out check")
    if args.cache and args.cache.exists():
        data = dict(np.load(args.cache))
    else:
        data = collect(args.sheets, args.first_seed)
        if args.wide:
            more = collect(args.wide, 5000, wide=True)
            data = {k: np.concatenate([data[k], more[k]]) for k in data}
        if args.cache:
            np.savez(args.cache, **data)
    # The edges keep their hand-set sigmoid (EDGE_W): a fit reads fewer of them right (a few
    # edges far off the rest pull its slope down); its share read right is printed to compare.
    for name, kind in (("EDGE_W", "edge"), ("END_W", "end"), ("BOX_W", "box")):
        x, y = data[f"{kind}_x"], data[f"{kind}_y"]
        for label, w in (("fitted", fit(x, y)), ("in fields.py", np.array(getattr(fields, name)))):
            if len(w) != x.shape[1] + 1:
                continue
            p = fields.logistic(w, x)
            right = ((p >= 0.5) == (y > 0.5)).mean()
            print(f"# {kind}, {label}: {len(y)} fields, {int(y.sum())} marked, read right {right:.4%} (in sample)")
            if label == "fitted":
                print(f"{name} = ({', '.join(f'{v:.4g}' for v in w)})")


if __name__ == "__main__":
    main()
