"""The worst records the phone page accepts, and how long the server takes to answer them.

    python bench/bench_worst_request.py [--runs 3]    # from the repository root; about a minute

Every record kind refuses a record longer than its game can last (issue 21); within those
bounds this builds the worst records there are and times, for each:

- engine: parse and check, as `sheetkit check` does (sheetkit.checking.records);
- POST /check: the page of `sheetkit serve` (Flask's test client, the real app with a
  history in a temporary folder, the form's CSRF token as a browser sends it): the
  verdict, the findings and the checked sheet's first two pages as SVG;
- POST /download/pdf: the checked sheet's PDF the page offers;
- `sheetkit check --render`: the command in a fresh interpreter (its start-up included),
  the same PDF (a Yuncos table has no sheet of its own: `sheetkit check` alone).

The records: a full 4-player Glüx game (96 placements, the most 4 x 24 chips allow) with a
fault on every move; a Level X game for 4 players of the longest length accepted (660
turns), every turn with four faults; a Yuncos Hard sheet of the longest game its boxes
allow, every turn with the longest flight accepted and every ability used, and a 6-player
table of six such sheets (a table names files, which the page refuses: the command only);
IUNU with every field absurd but accepted (huge counts, values, Deben and multipliers,
every caste fed beyond its cards, all nine afterlife cards a player may hold). And the 10,000-line Glüx record of the issue
(refused now). The baseline, measured in the same run, is the shipped illegal example of
the same game (for IUNU the one whose deck the page accepts, inline); each line prints the
best of --runs times and the ratio to it.
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sheetkit import layouts  # noqa: E402
from sheetkit.checking import records  # noqa: E402
from sheetkit.games.levelx.board import shipped, squares  # noqa: E402
from sheetkit.games.levelx.record import longest_game as levelx_longest  # noqa: E402
from sheetkit.games.yuncos.play import play, to_toml  # noqa: E402
from sheetkit.games.yuncos.record import longest_game as yuncos_longest  # noqa: E402
from sheetkit.grid import square_name  # noqa: E402
from sheetkit.tomlfile import read_toml  # noqa: E402

EX = ROOT / "examples"
GOAL = 1.0  # s of server time for any request the page accepts


# -- the records -------------------------------------------------------------------------------

def glux_worst() -> str:
    """96 placements for 4 players, each a fault: no chip of the player counts to the
    square (G4), the later ones onto squares already holding chips (G6: a stack is full)
    and past a player's 24 chips (G1)."""
    b = layouts.load("glux-board-34p").spec
    w, h = b.width - 1, b.height - 1
    starts = ["A1", square_name((w, 0)), square_name((0, h)), square_name((w, h))]
    squares = [square_name((c, r)) for r in range(1, h) for c in range(1, w)]
    random.Random(21).shuffle(squares)
    moves = [f"{'ABCD'[k % 4]} {squares[k % len(squares)]} {1 + k % 6}" for k in range(96)]
    players = ",\n".join(f'  {{ name = "{n}", letter = "{n[0]}", start = "{s}", start_chip = 6 }}'
                         for n, s in zip(["Ana", "Ben", "Cid", "Dan"], starts))
    return (f'game = "glux"\nkind = "game"\nboard = "glux-board-34p"\nplayers = [\n{players}\n]\n'
            'moves = """\n' + "\n".join(moves) + '\n"""\n')


def glux_issue() -> str:
    """The record of the issue: 10,000 lines `A E1 2` (refused now, at once)."""
    return ('game = "glux"\nkind = "game"\nboard = "glux-board-2p"\nplayers = [\n'
            '  { name = "Ana", letter = "A", start = "A1", start_chip = 6 },\n'
            '  { name = "Ben", letter = "B", start = "M9", start_chip = 2 },\n]\n'
            'moves = """\n' + "A E1 2\n" * 10_000 + '"""\n')


def levelx_worst() -> str:
    """4 players, the longest game accepted, every turn wrong four ways: the wrong player
    (L8), groups holding a die not rolled (L4), chips and bonus tiles not taken (L6, L7).
    Only rows 5 and 6 move, so the game never ends and every turn is replayed."""
    players = ["Ana", "Ben", "Cid", "Dan"]
    most = levelx_longest(len(players), squares(shipped()))[0]  # on the shipped board
    turns = []
    for k in range(most):
        wrong = players[(k + 1) % 4]
        turns.append(f'[[turn]]\nplayer = "{wrong}"\ndice = [1, 2, 3, 4]\ngroups = [[1, 4], [2, 3], [6]]\n'
                     'chips = [10, 9, 8, 7]\nbonuses = [15, 12, 9, 6]\n')
    return 'game = "levelx"\nkind = "game"\nplayers = ["Ana", "Ben", "Cid", "Dan"]\n' + "".join(turns)


def yuncos_worst_data() -> dict:
    """A Hard sheet of the longest game its boxes allow, every turn as wrong as a turn may
    be written: a legal game's turns repeated (each starts where it should not and fills a
    taken box), each flight the longest accepted (48 unit steps: off the map, or round and
    round a square of it), each turn using every ability box of the sheet and every ability
    by name."""
    from sheetkit.games.yuncos.layout import ABILITIES
    from sheetkit.games.yuncos.notation import MOST_STEPS, all_boxes

    layout = layouts.load("yuncos-hard")
    rec = play(layout, random.Random(5), solo=False, max_turns=60, home_after=99).record
    most = yuncos_longest(layout.spec)[0]
    uses = list(ABILITIES) + all_boxes(layout.spec)
    flights = ["E" * MOST_STEPS, "NESW" * (MOST_STEPS // 4), "S" * MOST_STEPS, "ENWS" * (MOST_STEPS // 4)]
    rec["turn"] = [dict(rec["turn"][i % len(rec["turn"])], flight=flights[i % 4], use=uses) for i in range(most)]
    return rec


def iunu_absurd() -> str:
    """Every field as absurd as it may be and still be read: 4 players, the deck's values
    near the largest whole number TOML holds, every caste held by every player in those
    numbers and fed beyond them, Deben far below zero, a game of 2**62 rounds, and each
    player's nine afterlife cards (one a caste, as many as a player may hold) multiplying
    by huge numbers."""
    big = 2 ** 62
    castes = ["farmer", "baker", "soldier", "merchant", "noble", "priest", "scribe", "pharaoh", "artisan"]
    deck = "".join(f'[deck.castes.{c}]\nname = "{c.capitalize() * 20}"\ncards = {big - i}\n'
                   f'vp = {big // 7}\nbread = {big // 3}\n' for i, c in enumerate(castes))
    players = ""
    for p in range(4):
        cards = ", ".join(f"{c} = {big - p - i}" for i, c in enumerate(castes))
        fed = ", ".join(f"{c} = {big}" for c in castes)
        after = ", ".join(f'{{ caste = "{c}", multiplier = {big - p} }}' for c in castes)
        players += (f'[[player]]\nname = "{"Player " * 70}{p}"\ndeben = {-big + p}\ncards = {{ {cards} }}\n'
                    f'fed = {{ {fed} }}\nafterlife = [{after}]\n')
    return f'game = "iunu"\nrounds = {big}\n' + deck + players


# -- the measures ----------------------------------------------------------------------------

class Page:
    """The phone page: the app of `sheetkit serve`, its session and CSRF token."""

    def __init__(self, db: Path):
        from sheetkit.web.app import create_app

        self.client = create_app(db=str(db)).test_client()
        text = self.client.get("/check?lang=en").get_data(as_text=True)
        self.csrf = re.search(r'name="csrf" value="([^"]+)"', text).group(1)

    def post(self, url: str, data: dict) -> tuple[int, str]:
        resp = self.client.post(url, data={**data, "csrf": self.csrf}, headers={"Origin": "http://localhost"},
                                content_type="multipart/form-data")
        return resp.status_code, resp.get_data()


def best(fn, runs: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(runs):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def engine(path: Path):
    loaded = records.load(path)
    return records.check(loaded)


def command(path: Path, out: Path | None) -> int:
    render = ["--render", str(out)] if out else []
    return subprocess.run([sys.executable, "-m", "sheetkit", "check", str(path), *render],
                          capture_output=True, cwd=ROOT).returncode


def measure(name: str, path: Path, page: Page | None, runs: int, tmp: Path, base: dict | None = None,
            render: bool = True) -> dict:
    text = path.read_text(encoding="utf-8")
    row: dict = {}
    try:
        t, checked = best(lambda: engine(path), runs)
        row["engine"] = t
        found = len(checked.verdict.findings)
    except Exception as e:  # a refused record: the engine's refusal is its answer
        t, _ = best(lambda: _refused(path), runs)
        row["engine"] = t
        found = f"refused: {str(e)[:90]}..."
    if page is not None:
        row["POST /check"], (code, _) = best(lambda: page.post("/check", {"text": text}), runs)
        status = code
        if code == 200:
            row["POST /download/pdf"], (code, _) = best(
                lambda: page.post("/download/pdf", {"record": text, "source": path.name}), runs)
    else:
        status = "-"
    cmd = "check --render" if render else "check"  # a table has no sheet of its own to draw
    row[cmd], exit_code = best(lambda: command(path, tmp / f"{path.stem}.pdf" if render else None), max(1, runs - 1))
    size = len(text.encode())
    print(f"{name}: {size / 1024:6.1f} kB, findings: {found}; page {status}, exit {exit_code}")
    for k, v in row.items():
        ratio = f"  ({v / base[k]:5.1f}x the example)" if base and k in base else ""
        flag = "  OVER THE 1 s GOAL" if k.startswith("POST") and v > GOAL else ""  # the goal is the page's
        print(f"    {k:20s} {v * 1000:8.1f} ms{ratio}{flag}")
    return row


def _refused(path: Path):
    try:
        engine(path)
    except Exception:
        return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="sheetkit-bench-") as tmp_name:
        tmp = Path(tmp_name)
        page = Page(tmp / "history.sqlite")
        files = {}

        def write(name: str, text: str) -> Path:
            files[name] = tmp / name
            files[name].write_text(text, encoding="utf-8")
            return files[name]

        write("glux-worst.toml", glux_worst())
        write("glux-issue-10000-lines.toml", glux_issue())
        write("levelx-worst.toml", levelx_worst())
        yuncos = yuncos_worst_data()
        write("yuncos-worst.toml", to_toml(yuncos))
        names = ["Ana", "Bea", "Caro", "Dani", "Eli", "Fer"]
        for n in names:
            write(f"{n}.toml", to_toml(yuncos))
        body = "".join(f'\n[[player]]\nname = "{n}"\nsheet = "{n}.toml"\n' for n in names)
        write("yuncos-table-worst.toml", 'game = "yuncos"\nkind = "table"\n' + body)
        write("iunu-absurd.toml", iunu_absurd())
        read_toml(files["iunu-absurd.toml"])  # TOML as written

        r = args.runs
        print(f"Server time a request, best of {r} (the goal: {GOAL:.0f} s); `check --render` includes "
              "a fresh interpreter's start-up.\n")
        base = measure("Glüx example (glux-game-illegal.toml)", EX / "glux-game-illegal.toml", page, r, tmp)
        measure("Glüx, 4 players, 96 placements, a fault on each", files["glux-worst.toml"], page, r, tmp, base)
        measure("Glüx, the issue's 10,000 lines", files["glux-issue-10000-lines.toml"], page, r, tmp, base)
        base = measure("Level X example (levelx-game-illegal.toml)", EX / "levelx-game-illegal.toml", page, r, tmp)
        measure("Level X, 4 players, 660 turns, four faults each", files["levelx-worst.toml"], page, r, tmp, base)
        base = measure("Yuncos example (yuncos-illegal.toml)", EX / "yuncos-illegal.toml", page, r, tmp)
        measure(f"Yuncos Hard, {len(yuncos['turn'])} turns (the longest), every turn wrong", files["yuncos-worst.toml"],
                page, r, tmp, base)
        measure("Yuncos table, 6 such sheets (the command only, no sheet to draw)", files["yuncos-table-worst.toml"],
                None, r, tmp, base, render=False)
        base = measure("IUNU example (iunu-inline-deck.toml)", EX / "iunu-inline-deck.toml", page, r, tmp)
        measure("IUNU, every field absurd", files["iunu-absurd.toml"], page, r, tmp, base)


if __name__ == "__main__":
    main()
