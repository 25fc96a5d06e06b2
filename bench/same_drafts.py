"""Check that a change to the photo reader leaves what it reads alone: every draft byte for byte.

    python bench/same_drafts.py make DIR     # photos into DIR, and what `sheetkit read` makes of them
    python bench/same_drafts.py check DIR    # read them again: any draft or line that differs is named

`make` writes simulated photos (sheetkit.photo.simulate, its wide hands and cameras: Easy and
Hard alternating, the six frame sizes in turn, as bench_read_speed.py makes them; and
bench/unseen/simulate.py's three tiers) and runs `sheetkit read PHOTO -o DRAFT` on each as a
user does, keeping the draft, the exit status and the line on standard error (a refusal is
that one line). Run `make` with the code before a change and `check` after it: the draft must
be the same to the last byte (every probability to its last bit), and the line the same.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def make_photos(folder: Path, sheets: int, first_seed: int, unseen_seeds: int) -> None:
    from sheetkit.photo import simulate

    for n in range(sheets):
        seed = first_seed + n
        size = simulate.WIDE_SIZES[(n // 2) % len(simulate.WIDE_SIZES)]
        s = simulate.sample(seed, simulate.LEVELS[n % 2], size, wide=True)
        (folder / f"sim-{seed}-{size[0]}x{size[1]}.jpg").write_bytes(s.jpeg)
    for seed in range(1, unseen_seeds + 1):
        for tier in ("easy", "medium", "hard"):
            out = folder / f"unseen-{tier}-{seed}"
            subprocess.run([sys.executable, str(ROOT / "bench/unseen/simulate.py"), "--seed", str(seed),
                            "--tier", tier, "--out", str(out)], check=True, capture_output=True)
            for jpg in out.glob("*.jpg"):
                jpg.rename(folder / f"unseen-{tier}-{seed}.jpg")


def read(photo: Path) -> dict:
    """What `sheetkit read` makes of a photo: its exit status, its line, the draft's text."""
    draft = photo.with_suffix(".draft.toml")
    draft.unlink(missing_ok=True)
    done = subprocess.run([sys.executable, "-m", "sheetkit", "read", str(photo), "-o", str(draft)],
                          capture_output=True, text=True, cwd=ROOT)
    out = {"exit": done.returncode, "said": done.stderr,
           "draft": draft.read_text() if draft.exists() else None}
    draft.unlink(missing_ok=True)
    return out


def read_all(folder: Path, jobs: int) -> dict[str, dict]:
    photos = sorted(folder.glob("*.jpg"))
    with ThreadPoolExecutor(jobs) as pool:
        return dict(zip((p.name for p in photos), pool.map(read, photos)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=("make", "check"))
    ap.add_argument("folder")
    ap.add_argument("--sheets", type=int, default=24, help="photos of sheetkit.photo.simulate")
    ap.add_argument("--first-seed", type=int, default=7000)
    ap.add_argument("--unseen-seeds", type=int, default=3, help="seeds of bench/unseen/simulate.py, 3 tiers each")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    folder = Path(a.folder).resolve()
    expected = folder / "expected.json"
    if a.what == "make":
        folder.mkdir(parents=True, exist_ok=True)
        make_photos(folder, a.sheets, a.first_seed, a.unseen_seeds)
        got = read_all(folder, a.jobs)
        expected.write_text(json.dumps(got, indent=1, sort_keys=True))
        refused = sum(1 for r in got.values() if r["exit"] != 0)
        print(f"{len(got)} photos read ({refused} refused); kept in {expected}")
        return 0
    want = json.loads(expected.read_text())
    got = read_all(folder, a.jobs)
    differ = sorted(name for name in want if got.get(name) != want[name])
    for name in differ:
        for key in ("exit", "said", "draft"):
            if got[name][key] != want[name][key]:
                print(f"{name}: the {key} differs")
    print(f"{len(want) - len(differ)} of {len(want)} photos read the same"
          f"{'' if not differ else ': NOT the same'}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
