"""How fast and small a numbered pad is, measured in one run and printed as ratios.

    python bench/bench_pad.py            # from the repository root; about 30 s

1. A 200-copy pad of yuncos-easy (the static page drawn once as a Form, each page adds its
   serial and QR code) against the naive way: the whole page redrawn on every page (the
   same scene with each page's items inlined instead of placed with Use). Time and size.
2. The marginal cost of one more page, (t(400) - t(200)) / 200, against the cost of
   encoding one QR code alone, the floor no pad page can go under.
3. Cold start, each in a fresh interpreter as the `sheetkit` console script runs it:
   `sheetkit --help` and `sheetkit score yuncos ...` against `python -c "import click"`.

Times are the best of several runs (the least disturbed by other work on the machine).
QR codes are encoded afresh in every run (the encoder's cache is cleared).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sheetkit.checking.qr import qr_text  # noqa: E402
from sheetkit.paper import pads, printing  # noqa: E402
from sheetkit.paper import scene as S  # noqa: E402
from sheetkit.paper import pdf, qr  # noqa: E402

LAYOUT = "yuncos-easy"
SCORE_ARGS = ["score", "yuncos", "--nests", "6", "--columns", "2", "--fish", "4", "--stars", "5",
              "--colours", "3", "--crashes", "1"]


def naive(pad: S.Scene) -> S.Scene:
    """The same pages with every pad form inlined: the whole page drawn on every page."""
    pages = []
    for page in pad.pages:
        items: list[S.Item] = []
        for it in page.items:
            if isinstance(it, S.Use) and it.name.startswith("pad-page-") and it.clip is None:
                items.extend(pad.forms[it.name].items)
            else:
                items.append(it)
        pages.append(S.Page(page.width, page.height, items, page.stamp, page.source))
    forms = {k: v for k, v in pad.forms.items() if not k.startswith("pad-page-")}
    return S.Scene(pages, forms, pad.title)


def best(fns: dict, repeat: int) -> dict:
    """For each name -> fn: (least CPU time of `repeat` runs, least wall time, result).
    The runs of the different fns alternate, so that other load on the machine disturbs
    them alike; QR codes are encoded afresh every time."""
    cpu: dict = {name: [] for name in fns}
    wall: dict = {name: [] for name in fns}
    results: dict = {}
    for _ in range(repeat):
        for name, fn in fns.items():
            qr.matrix.cache_clear()
            c, t = time.process_time(), time.perf_counter()
            results[name] = fn()
            wall[name].append(time.perf_counter() - t)
            cpu[name].append(time.process_time() - c)
    return {name: (min(cpu[name]), min(wall[name]), results[name]) for name in fns}


def render_pad(layout, scene, copies: int, out: Path, first: int = 1) -> int:
    pdf.write(pads.pad(scene, layout, copies, first), out)
    return out.stat().st_size


def render_naive(layout, scene, copies: int, out: Path) -> int:
    pdf.write(naive(pads.pad(scene, layout, copies, 1)), out)
    return out.stat().st_size


def qr_floor(layout, n: int = 200, repeat: int = 3) -> float:
    """Seconds to encode one QR code of a pad, alone (distinct texts, no cache): the
    best of `repeat` batches of n codes."""
    texts = [qr_text(layout, 100_000 + i) for i in range(n)]
    times = []
    for _ in range(repeat):
        qr.matrix.cache_clear()
        c = time.process_time()
        for text in texts:
            qr.matrix(text)
        times.append((time.process_time() - c) / n)
    return min(times)


def sheetkit_command() -> list[str]:
    script = Path(sys.executable).parent / "sheetkit"
    if script.is_file():
        return [str(script)]
    # what the console script does, when sheetkit is not installed in this environment
    return [sys.executable, "-c", "import sys; from sheetkit.cli import main; sys.exit(main())"]


def cold(cmds: dict, repeat: int) -> dict:
    """(least CPU time, least wall time) of each command, run `repeat` times in turn, each
    in a fresh process. CPU time (user + system of the child) is what load from other work
    on the machine disturbs least."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cpu: dict = {name: [] for name in cmds}
    wall: dict = {name: [] for name in cmds}
    for _ in range(repeat):
        for name, cmd in cmds.items():
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            proc = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            wall[name].append(time.perf_counter() - t)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[name].append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
            if proc.returncode != 0:
                raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr.decode().strip()}")
    return {name: (min(cpu[name]), min(wall[name])) for name in cmds}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--copies", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5, help="runs per timing (best is kept)")
    ap.add_argument("--cold-repeat", type=int, default=15)
    args = ap.parse_args()
    n = args.copies

    layout, scene = printing.compose(LAYOUT, "a4", "en")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        pdf.write(scene, tmp / "warm.pdf")  # fonts registered, modules loaded
        one_page = (tmp / "warm.pdf").stat().st_size
        runs = best({
            "pad": lambda: render_pad(layout, scene, n, tmp / "pad.pdf"),
            "pad2": lambda: render_pad(layout, scene, 2 * n, tmp / "pad2.pdf"),
        }, args.repeat)
        runs.update(best({"naive": lambda: render_naive(layout, scene, n, tmp / "naive.pdf")},
                         max(1, args.repeat - 1)))
    (t_pad, w_pad, size_pad) = runs["pad"]
    (t_pad2, w_pad2, size_pad2) = runs["pad2"]
    (t_naive, w_naive, size_naive) = runs["naive"]
    floor = qr_floor(layout, repeat=args.repeat)
    marginal = (t_pad2 - t_pad) / n

    print(f"sheetkit pad benchmark: {LAYOUT}, A4 (CPU time, best of {args.repeat}; wall time in brackets)")
    print(f"  one plain page           {one_page / 1000:8.1f} kB")
    print(f"  pad    {n:4d} pages       {t_pad:6.3f} s ({w_pad:.3f})  {size_pad / 1000:8.1f} kB")
    print(f"  naive  {n:4d} pages       {t_naive:6.3f} s ({w_naive:.3f})  {size_naive / 1000:8.1f} kB")
    print(f"  pad against naive:      {t_naive / t_pad:5.1f}x faster ({w_naive / w_pad:.1f}x wall),"
          f" {size_naive / size_pad:.1f}x smaller   (target: at least 10x each)")
    print()
    print(f"  pad    {2 * n:4d} pages       {t_pad2:6.3f} s ({w_pad2:.3f})  {size_pad2 / 1000:8.1f} kB")
    print(f"  one more page            {marginal * 1000:6.3f} ms  = (t({2 * n}) - t({n})) / {n};"
          f" {(size_pad2 - size_pad) / n:.0f} bytes")
    print(f"  one QR code, encoded     {floor * 1000:6.3f} ms  (the floor)")
    print(f"  one more page:           {marginal / floor:5.2f}x the floor")
    print()
    sk = sheetkit_command()
    t = cold({"click": [sys.executable, "-c", "import click"], "help": sk + ["--help"],
              "score": sk + SCORE_ARGS}, args.cold_repeat)
    (c0, w0) = t["click"]
    print(f"cold start (CPU time, best of {args.cold_repeat}, a fresh interpreter each; wall time in brackets)")
    print(f"  python -c 'import click'   {c0 * 1000:5.0f} ms ({w0 * 1000:.0f})")
    for name, label in (("help", "sheetkit --help          "), ("score", "sheetkit score yuncos ...")):
        c, w = t[name]
        print(f"  {label}  {c * 1000:5.0f} ms ({w * 1000:.0f})  {c / c0:5.2f}x ({w / w0:.2f}x wall)"
              "   (target: at most 1.5x)")
    print(f"    ({' '.join(['sheetkit'] + SCORE_ARGS)})")

if __name__ == "__main__":
    main()
