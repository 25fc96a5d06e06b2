"""How well `sheetkit read` reads filled score pads (Glüx, IUNU, Level X) from simulated photos.

    python bench/bench_pad_photo.py [--pads 20] [--games levelx,glux,iunu] [--tiers flat,table,steep]

Each pad is a random legal final result written into a numbered pad in the handwriting
styles the digit reader was never trained on (sheetkit.photo.padwriting.HELD_OUT), then
photographed at a tier of sheetkit.photo.padsimulate.TIERS; seeds 12000 on, none of them
used to develop or fit anything (the reader was developed on seeds below 200, 7000-7039,
8000-8019, 9000-9019, and on 10000-10019 and 11000-11019, the seeds of two earlier runs of
this measurement, each looked at once it was reported).
Per game and tier it prints:

* cells: the share of the fields read right (every digit cell, tick and caste box of the
  columns in use; names are kept as pictures, not read);
* pads: the share of pads read with every field right, as read and once the fields the
  draft marks unsure are confirmed (the photo read again with them held: padread.read_pad's
  `fixed`); and the share whose confirmed draft scores as the truth does;
* unmarked: wrong fields the draft did not mark (confidently wrong), and the fields marked
  per pad;
* refused: photos refused in one line; time: seconds per photo, the median and the worst
  (the first photo of each paper and language also renders its blank: the worst).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sheetkit.errors import UserError  # noqa: E402
from sheetkit.photo import padgames, padread, padsimulate  # noqa: E402


def run(game: str, tier: str, pads: int, first: int, folder: Path) -> dict:
    st = {"cells": 0, "right": 0, "pads": 0, "pad_ok": 0, "pad_ok_after": 0, "score_ok_after": 0,
          "unmarked": 0, "asked": 0, "refused": 0, "seconds": [], "reasons": []}
    for k in range(pads):
        seed = first + k
        s = padsimulate.sample(seed, game, tier)
        path = folder / f"{game}-{tier}-{seed}.jpg"
        padsimulate.write(s, path)
        st["pads"] += 1
        t = time.perf_counter()
        try:
            d = padread.read_pad(path)
        except UserError as e:
            st["refused"] += 1
            st["reasons"].append(str(e)[:80])
            continue
        st["seconds"].append(time.perf_counter() - t)
        n, wrong = padsimulate.field_errors(d, s)
        st["cells"] += n
        st["right"] += n - len(wrong)
        st["unmarked"] += sum(1 for w in wrong if not w[3])
        st["asked"] += len(d.unsure)
        st["pad_ok"] += not wrong
        if d.unsure:
            d = padread.read_pad(path, fixed=padsimulate.confirmed(d, s))
            n, wrong = padsimulate.field_errors(d, s)
        st["pad_ok_after"] += not wrong
        st["score_ok_after"] += padgames.scores(d)[1] == s.scores
    return st


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pads", type=int, default=20, help="pads per game and tier")
    ap.add_argument("--first", type=int, default=12000, help="the first seed")
    ap.add_argument("--games", default="levelx,glux,iunu")
    ap.add_argument("--tiers", default="flat,table,steep")
    args = ap.parse_args()
    print("| game | tier | cells right | pads right | ... after confirming | scores as the truth | "
          "confidently wrong cells | marked per pad | refused | s/photo (median, worst) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games.split(","):
            for tier in args.tiers.split(","):
                st = run(game, tier, args.pads, args.first, Path(tmp))
                read = st["pads"] - st["refused"]
                pct = lambda a, b: f"{100 * a / b:.1f} % ({a}/{b})" if b else "-"  # noqa: E731
                secs = sorted(st["seconds"])
                median = secs[len(secs) // 2] if secs else 0.0
                worst = secs[-1] if secs else 0.0
                print(f"| {game} | {tier} | {pct(st['right'], st['cells'])} | {pct(st['pad_ok'], st['pads'])} | "
                      f"{pct(st['pad_ok_after'], st['pads'])} | {pct(st['score_ok_after'], st['pads'])} | "
                      f"{st['unmarked']} of {st['cells']} | {st['asked'] / max(1, read):.1f} | {st['refused']} | "
                      f"{median:.2f}, {worst:.2f} |", flush=True)
                for r in sorted(set(st["reasons"])):
                    print(f"|   refused: {r} |", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
