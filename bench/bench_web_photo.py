"""Benchmark: a photo read on the phone page, against the reader alone.

    python bench/bench_web_photo.py [--repeat N]

For a SIMULATED photo (sheetkit.photo.simulate; not a real one) at 1200x1600 and at
3000x4000 pixels: the time of `POST /photo` (the upload read, the draft kept as a play in
progress with its registered photo, the redirect; Flask's test client on a real SQLite
history file) and of the confirm screen that follows (`GET /photo/<id>`), against
`read_photo` of the same photo from a file, measured in the same run (best of N). Also the
size of the registered photo the history keeps.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CASES = ((1, "yuncos-easy", (1200, 1600)), (1011, "yuncos-hard", (3000, 4000)))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    from sheetkit.history import Store
    from sheetkit.photo import simulate
    from sheetkit.photo.read import read_photo
    from sheetkit.web.app import create_app

    print("simulated photos (not real ones)")
    print(f"{'photo':>32} | {'read_photo':>10} | {'POST /photo':>11} | {'ratio':>5} | {'confirm page':>12} | kept JPEG")
    for seed, layout, size in CASES:
        s = simulate.sample(seed, layout, size)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "photo.jpg"
            path.write_bytes(s.jpeg)
            reads, posts, pages = [], [], []
            for k in range(args.repeat):
                t0 = time.perf_counter()
                read_photo(path)
                reads.append(time.perf_counter() - t0)
                db = Path(tmp) / f"h{k}.sqlite3"
                client = create_app(db=db).test_client()
                page = client.get("/photo").get_data(as_text=True)
                csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
                t0 = time.perf_counter()
                r = client.post("/photo", data={"csrf": csrf, "name": "Ana", "photo": (io.BytesIO(s.jpeg), "p.jpg")},
                                headers={"Origin": "http://localhost"})
                posts.append(time.perf_counter() - t0)
                assert r.status_code == 303, r.get_data(as_text=True)[:500]
                t0 = time.perf_counter()
                assert client.get(r.headers["Location"]).status_code == 200
                pages.append(time.perf_counter() - t0)
            with Store.open(db) as store:
                kept = len(store.photo_image(1, 0))
        name = f"{layout} {size[0]}x{size[1]} ({len(s.jpeg) // 1000} kB)"
        print(f"{name:>32} | {min(reads):9.2f}s | {min(posts):10.2f}s | {min(posts) / min(reads):5.2f} | "
              f"{min(pages) * 1000:10.0f}ms | {kept // 1000} kB")


if __name__ == "__main__":
    main()
