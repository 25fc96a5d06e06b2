"""Benchmark: how long `sheetkit read` takes on a photo of a Yuncos sheet, stage by stage.

    python bench/bench_read_speed.py [--sheets N] [--first-seed S] [--photos DIR] [--compiled]

The photos are simulated (sheetkit.photo.simulate, its wide hands and cameras: Easy and
Hard alternating, the six frame sizes from 1600x1200 to 4032x3024 in turn), or the JPEGs
in DIR. Each photo is read twice:

- by the command a user runs (`sheetkit read PHOTO -o DRAFT`, a fresh Python), its CPU
  time (user and system, OpenCV's threads included) from the operating system;
- in this process, its CPU time split by stage: identify (which sheet: its squares and
  code), register (laid over the blank: the code again, the blanks rendered, ECC), fields
  (pencil, marks, boxes), digits, the flight search, the candidate drafts replayed by the
  checker, and the rest of the draft (numbers placed, confidences).

Python's start-up and imports are timed apart (a fresh Python importing what the command
imports). Where Python writes no bytecode (PYTHONDONTWRITEBYTECODE, as on some CI and
development machines) and sheetkit is run from its sources, every run compiles them again,
which an installed sheetkit does not: the start-up is then also timed with the bytecode
compiled once beforehand, and `--compiled` runs the command so too. Then every photo is
read by one command (`sheetkit read PHOTO... -o FOLDER`), with --jobs 1 and with a process
per core: its CPU and its time on the clock per photo. The baseline, measured in the same run on the same photos: decoding the JPEG
once (OpenCV, grey), so every time is also printed as a ratio to it.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from sheetkit.errors import UserError  # noqa: E402
from sheetkit.photo import flight, padread, padregister, read, register, simulate  # noqa: E402

# (module, function, stage): the stages as the reading calls them; a stage nested in
# another (the checker in the draft) is taken out of the outer one
STAGES = (
    (padread, "identify", "identify"),
    (read, "register", "register"),
    (read, "map_blur", "fields"), (read, "align_boxes", "fields"), (read, "ink_image", "fields"),
    (read, "read_fields", "fields"),
    (read, "read_digits", "digits"),
    (read, "build", "draft"),
    (flight, "fly", "flight search"),
    (flight, "_check", "checker"),
)
ORDER = ("identify", "register", "fields", "digits", "flight search", "checker", "draft")
IMPORTS = "import sheetkit.cli, sheetkit.photo.read, sheetkit.photo.padread"


def cpu_of_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_cpu(cmd: list[str], env: dict | None = None) -> tuple[float, int]:
    """The CPU seconds a command takes (its user and system time), and its exit status."""
    before = cpu_of_children()
    code = subprocess.run(cmd, capture_output=True, env=env).returncode
    return cpu_of_children() - before, code


def compiled_env() -> dict:
    """The environment of a Python that finds sheetkit's bytecode compiled, as an installed
    sheetkit's is: a bytecode cache of its own, not in the sources (filled by compileall)."""
    env = dict(os.environ, PYTHONPYCACHEPREFIX=tempfile.mkdtemp(prefix="sheetkit-pyc-"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


class StageClock:
    """CPU time per stage, by wrapping the functions of STAGES for as long as it is used."""

    def __init__(self):
        self.spent = defaultdict(float)
        self.saved = []
        self.stack = []  # stages running: a nested one's time is taken out of its caller's

    def wrap(self, fn, stage):
        def timed(*args, **kwargs):
            t0 = time.process_time()
            self.stack.append(stage)
            try:
                return fn(*args, **kwargs)
            finally:
                self.stack.pop()
                dt = time.process_time() - t0
                self.spent[stage] += dt
                if self.stack:
                    self.spent[self.stack[-1]] -= dt
        return timed

    def __enter__(self):
        for module, name, stage in STAGES:
            fn = getattr(module, name)
            self.saved.append((module, name, fn))
            setattr(module, name, self.wrap(fn, stage))
        return self

    def __exit__(self, *exc):
        for module, name, fn in reversed(self.saved):
            setattr(module, name, fn)


def read_in_process(photo: Path) -> dict:
    """The CPU seconds of each stage of `sheetkit read` on `photo`, from a cold cache of blanks."""
    register.forget_blanks()
    padregister.page.cache_clear()
    with StageClock() as clock:
        try:
            seen = padread.identify(photo)
            if seen[0] in register.LEVELS:
                read.read_photo(photo)
        except UserError:
            pass
    return dict(clock.spent)


def photos(args, folder: Path) -> list[Path]:
    if args.photos:
        return sorted(Path(args.photos).glob("*.jpg"))
    out = []
    for n in range(args.sheets):
        seed = args.first_seed + n
        size = simulate.WIDE_SIZES[(n // 2) % len(simulate.WIDE_SIZES)]
        s = simulate.sample(seed, simulate.LEVELS[n % 2], size, wide=True)
        path = folder / f"{seed}-{size[0]}x{size[1]}.jpg"
        path.write_bytes(s.jpeg)
        out.append(path)
    return out


def decode_cpu(photo: Path, times: int = 5) -> float:
    """The baseline: the CPU seconds of decoding the photo once (grey), the median of a few."""
    data = np.fromfile(str(photo), np.uint8)
    spent = []
    for _ in range(times):
        t0 = time.process_time()
        cv2.imdecode(data, cv2.IMREAD_GRAYSCALE)
        spent.append(time.process_time() - t0)
    return float(np.median(spent))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sheets", type=int, default=6)
    ap.add_argument("--first-seed", type=int, default=7000)
    ap.add_argument("--photos", help="read the JPEGs in this folder instead")
    ap.add_argument("--compiled", action="store_true",
                    help="run the command with sheetkit's bytecode compiled beforehand (as installed)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    todo = photos(args, tmp)
    sheetkit = [sys.executable, "-m", "sheetkit", "read"]
    imports = [run_cpu([sys.executable, "-c", IMPORTS])[0] for _ in range(3)]
    start = float(np.median(imports))
    env = compiled_env() if sys.dont_write_bytecode or args.compiled else None
    if env is not None:
        # sheetkit compiled as pip compiles it on installing (the libraries are, already)
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "sheetkit")], env=env, check=True,
                       capture_output=True)
        start_compiled = float(np.median([run_cpu([sys.executable, "-c", IMPORTS], env)[0] for _ in range(3)]))
    rows = []
    for photo in todo:
        base = decode_cpu(photo)
        whole, code = run_cpu(sheetkit + [str(photo), "-o", str(tmp / "draft.toml")], env if args.compiled else None)
        stages = read_in_process(photo)
        rows.append((photo, base, whole, code, stages))
        h, w = cv2.imread(str(photo), cv2.IMREAD_REDUCED_GRAYSCALE_8).shape
        print(f"{photo.name} ({w * 8}x{h * 8}): sheetkit read {whole:.2f} s CPU ({whole / base:.0f} decodes)"
              f"{'' if code == 0 else f', exit {code}'}; " +
              ", ".join(f"{k} {stages.get(k, 0.0):.2f}" for k in ORDER), flush=True)
    whole = np.array([r[2] for r in rows])
    base = np.array([r[1] for r in rows])
    # every photo in one command, as after a game night: one start-up, a process per core
    # (--jobs 1: one after another in the one process)
    together = {}
    for jobs in (1, os.cpu_count() or 1):
        t0 = time.perf_counter()
        cpu, _ = run_cpu(sheetkit + [str(p) for p in todo] + ["-o", str(tmp / f"drafts-{jobs}"), "--jobs", str(jobs)],
                         env if args.compiled else None)
        together[jobs] = (cpu / len(todo), (time.perf_counter() - t0) / len(todo))
    print(f"\n{len(rows)} photos; CPU seconds per photo (mean, most), and as decodes of the photo "
          f"(the baseline, {base.mean() * 1000:.0f} ms mean, measured in the same run):")
    said = " (bytecode compiled beforehand)" if args.compiled else ""
    print(f"  sheetkit read, whole command  {whole.mean():5.2f} {whole.max():5.2f}   {np.mean(whole / base):6.1f} decodes{said}")
    for jobs, (cpu, wall) in together.items():
        print(f"  all {len(todo)} photos in one command, --jobs {jobs}: {cpu:5.2f} s CPU a photo "
              f"({cpu / base.mean():.1f} decodes), {wall:5.2f} s of the clock a photo")
    print(f"  Python start-up and imports   {start:5.2f}" +
          (f"   ({start_compiled:.2f} with sheetkit's bytecode compiled beforehand: "
           "this Python writes none, so each run compiles the sources)" if sys.dont_write_bytecode else ""))
    for k in ORDER:
        v = np.array([r[4].get(k, 0.0) for r in rows])
        print(f"  {k:28s}  {v.mean():5.2f} {v.max():5.2f}   {np.mean(v / base):6.1f} decodes")


if __name__ == "__main__":
    main()
