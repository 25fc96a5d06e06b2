"""Benchmark: entering a move on the web page, against the engine's own time for that move.

    python bench/bench_web.py [--seconds 60] [--clients 8] [--plays 4]

Everything runs through a real HTTP server: werkzeug's threaded server in a thread of this
process, on 127.0.0.1 with a free port, the app of `sheetkit serve` over a real SQLite
history file in a temporary folder; the clients speak HTTP over sockets (http.client),
with the session cookie and the form's CSRF token as a browser sends them.

1. One move, request to response: a play is started and its moves entered one POST at a
   time (and the page it leads to fetched, as the phone shows it), in a 30-turn solo
   Yuncos game of the random player (when this sheetkit has Yuncos move entry), a
   60-placement Glüx game of the random player (sheetkit.games.glux.play) and a Level X
   game of the independent simulation (sheetkit.games.levelx.play). Baselines measured in the same run: the
   engine's step for that very move (`Rules.step` on the position before it), and the
   check of the whole record text as `sheetkit check` does it (what the page must do to
   show the verdict of the record it stores).
2. Load: N clients (threads) enter moves into P plays at once (two clients per play) for
   a time: every response must be a success, and at the end every move a client saw
   accepted must be in the play's stored record; the latency's median and p95 are printed.
"""

from __future__ import annotations

import argparse
import copy
import http.client
import random
import re
import statistics
import sys
import tempfile
import threading
import time
import timeit
import tomllib
from pathlib import Path
from urllib.parse import urlencode, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


# -- the server and a browser-like client ----------------------------------------------------

class Server:
    """The app of `sheetkit serve` on a real socket, over the history file `db`."""

    def __init__(self, db: Path):
        import logging

        from werkzeug.serving import make_server

        from sheetkit.web.app import create_app

        logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request

        self.srv = make_server("127.0.0.1", 0, create_app(db=str(db)), threaded=True)
        self.port = self.srv.server_port
        self.thread = threading.Thread(target=self.srv.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.srv.shutdown()
        self.thread.join(timeout=10)


class Client:
    """One phone: its own session cookie and CSRF token, a fresh connection per request
    (as werkzeug's server closes each one)."""

    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}
        self.csrf: str | None = None
        self.version: str | None = None  # the play's version on the last page seen

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, dict, str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        headers = {"Origin": f"http://127.0.0.1:{self.port}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode({"csrf": self.csrf or "", **form}, doseq=True)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=body, headers=headers)
            resp = conn.getresponse()
            text = resp.read().decode("utf-8", "replace")
            for k, v in resp.getheaders():
                if k.lower() == "set-cookie":
                    name, _, rest = v.partition("=")
                    self.cookies[name] = rest.split(";", 1)[0]
            found = re.search(r'name="csrf" value="([^"]+)"', text)
            if found:
                self.csrf = found.group(1)
            found = re.search(r'name="version" value="([^"]+)"', text)
            if found:
                self.version = found.group(1)
            return resp.status, dict(resp.getheaders()), text
        finally:
            conn.close()

    def get(self, path: str):
        return self.request("GET", path)

    def post(self, path: str, form: dict, follow: bool = True) -> tuple[int, str, str]:
        """POST a form; with `follow`, fetch the page a redirect leads to (what the phone
        shows next). (status, final path, page)."""
        status, headers, text = self.request("POST", path, form)
        where = path
        for _ in range(3 if follow else 0):  # a play the move ended goes on to its end page
            if status not in (302, 303):
                break
            where = urlsplit(headers.get("Location", "")).path
            status, headers, text = self.get(where)
        return status, where, text


def start_play(client: Client, game: str, form: dict) -> int:
    client.get(f"/play/new?game={game}")
    status, where, text = client.post("/play/new", {"game": game, **form})
    found = re.fullmatch(r"/play/(\d+)", where)
    if status != 200 or not found:
        raise RuntimeError(f"starting a {game} play: HTTP {status} at {where}: {_said(text)}")
    return int(found.group(1))


def _said(page: str) -> str:
    found = re.search(r'<p class="error"[^>]*>(.*?)</p>', page, re.S)
    return found.group(1).strip() if found else page[:200]


def best(fn, number: int) -> float:
    return min(timeit.repeat(fn, number=number, repeat=3)) / number


# -- the games: their moves as form values, and the engine's own time for each --------------

def levelx_game():
    """A legal 2-player Level X game of the independent simulation, its turns as the
    entry form sends them, and per turn the engine's step and whole-record check."""
    from sheetkit.checking import records
    from sheetkit.checking.replay import replay
    from sheetkit.games.levelx.play import random_game
    from sheetkit.games.levelx.record import Turn
    from sheetkit.games.levelx.rules import Rules
    from sheetkit.tomlfile import dump_toml
    from sheetkit.web.plays.levelx import GROUPS

    record = max((random_game(random.Random(s), ["Ana", "Ben"], 0.4)[0] for s in range(10)),
                 key=lambda r: len(r["turn"]))
    forms = []
    for turn in record["turn"]:
        free = [list(g) for g in turn["groups"]]
        form = {}
        for i, d in enumerate(turn["dice"]):
            j = next(j for j, g in enumerate(free) if d in g)
            free[j].remove(d)
            form[f"die{i}"], form[f"group{i}"] = str(d), GROUPS[j]
        forms.append(form)
    turns = [Turn(**{k: v for k, v in t.items() if k in ("player", "dice", "groups")}) for t in record["turn"]]
    rules = Rules(record["players"])

    def engine(k: int) -> tuple[float, float]:
        before = replay(rules, turns[:k], finished=False).state
        step = best(lambda: rules.step(before, turns[k], k + 1), 200)
        data = {"game": "levelx", "kind": "game", "players": record["players"], "in_progress": True,
                "turn": [{"player": t.player, "dice": t.dice, "groups": t.groups} for t in turns[:k + 1]]}
        text = dump_toml(data)
        check = best(lambda: records.check(records.parse(tomllib.loads(text), "t.toml")), 5)
        return step, check

    return {"game": "levelx", "start": {"name0": "Ana", "name1": "Ben"}, "moves": forms, "engine": engine,
            "what": f"Level X, 2 players, {len(forms)} turns"}


def glux_game():
    """A legal 4-player Glüx game of the random player (sheetkit.games.glux.play), its
    first 60 placements as the entry form sends them (who, face, square or the start
    placement), and per placement the engine's step and whole-record check."""
    from sheetkit import layouts
    from sheetkit.checking import records
    from sheetkit.checking.replay import replay
    from sheetkit.games.glux import play, rules
    from sheetkit.grid import square_name

    side = layouts.load("glux-board-34p").spec
    for seed in range(100):
        setups, placements = play.random_game(side, 4, random.Random(seed), start_chance=0.0)
        if len(placements) > 61:
            break
    placements = placements[:60]
    letter = {s.name: s.letter for s in setups}
    start = {"variant": "34p"}
    for i, s in enumerate(setups):
        start.update({f"name{i}": s.name, f"start_chip{i}": str(s.start_chip), f"start_sq{i}": square_name(s.start)})
    forms = []
    lines = []
    for p in placements:
        if p.start:
            forms.append({"player": letter[p.player], "face": str(p.face), "action": "start"})
            lines.append(f"{letter[p.player]} start {p.face}")
        else:
            forms.append({"player": letter[p.player], "face": str(p.face), "square": square_name(p.dest),
                          "action": "place"})
            lines.append(f"{letter[p.player]} {square_name(p.dest)} {p.face}")
    table = rules.GluxRules(side, setups)
    players = [{"name": s.name, "letter": s.letter, "colour": c, "start": square_name(s.start),
                "start_chip": s.start_chip} for s, c in zip(setups, ("yellow", "green", "red", "violet"))]

    def engine(k: int) -> tuple[float, float]:
        before = replay(table, placements[:k], finished=False).state
        step = best(lambda: table.step(before, placements[k], k + 1), 200)
        data = {"game": "glux", "kind": "game", "board": "glux-board-34p", "in_progress": True,
                "players": players, "moves": "".join(ln + "\n" for ln in lines[:k + 1])}
        check = best(lambda: records.check(records.parse(copy.deepcopy(data), "t.toml")), 5)
        return step, check

    return {"game": "glux", "start": start, "moves": forms, "engine": engine,
            "what": f"Glüx, 4 players, {len(forms)} placements"}


def yuncos_game():
    """A 30-turn solo Yuncos game of the random player (sheetkit.games.yuncos.play), its
    turns as the entry form sends them (the flight, the puzzle box and value, the dice,
    the abilities used), and per turn the engine's step and whole-record check. None when
    this sheetkit has no Yuncos move entry (sheetkit/web/plays/yuncos.py)."""
    from sheetkit import layouts
    from sheetkit.checking import records
    from sheetkit.checking.replay import replay
    from sheetkit.games.yuncos.play import play
    from sheetkit.games.yuncos.record import box_kind, read_record
    from sheetkit.games.yuncos.rules import Rules
    from sheetkit.web import plays

    if plays.adapter("yuncos") is None:
        return None
    layout = layouts.load("yuncos-easy")
    for seed in range(10_000):
        g = play(layout, random.Random(seed), max_turns=30, home_after=10**6)
        if len(g.record["turn"]) == 30:
            break
    spec = layout.spec
    forms = []
    for n, turn in enumerate(g.record["turn"]):
        form = {"flight": turn["flight"]}
        if turn.get("crash"):
            form["puzzle"] = "crash"
        else:  # the page offers rows and columns: their next free box
            form["puzzle"], form["value"] = turn["puzzle"].split(".")[0], str(turn["value"])
        form["die1"], form["die2"] = map(str, turn["dice"])
        kinds = [u if u in ("plusminus", "yunco", "diagonal") else box_kind(spec, u) for u in turn.get("use", [])]
        form["plusminus"], form["yunco"] = str(kinds.count("plusminus")), str(kinds.count("yunco"))
        if n == 0:
            form["start"] = str(g.record["start"])
        forms.append(form)
    record = read_record(tomllib.loads(g.toml), "bench.toml")
    rules = Rules(record)
    data = tomllib.loads(g.toml)

    def engine(k: int) -> tuple[float, float]:
        before = replay(rules, record.turns[:k], finished=False).state
        step = best(lambda: rules.step(before, record.turns[k], k + 1), 200)
        part = {**data, "in_progress": True, "turn": data["turn"][:k + 1]}
        check = best(lambda: records.check(records.parse(copy.deepcopy(part), "t.toml")), 5)
        return step, check

    return {"game": "yuncos", "start": {"variant": "yuncos-easy", "name0": "Ana"}, "moves": forms,
            "engine": engine, "what": "Yuncos, solo, 30 turns"}


GAMES = {"yuncos": yuncos_game, "glux": glux_game, "levelx": levelx_game}


# -- 1. one move ----------------------------------------------------------------------------

def one_move(port: int, game: dict, at: list[int], repeat: int = 5) -> list[tuple[int, float, float, float]]:
    """(move number, web time, engine step, engine check) at the moves `at` (0-based). The
    web time of a move is the median of `repeat` entries of it (entered, undone, entered
    again): the POST and the page it leads to, as the phone shows it."""
    client = Client(port)
    play = start_play(client, game["game"], game["start"])

    def enter(k: int) -> float:
        t0 = time.perf_counter()
        status, _, page = client.post(f"/play/{play}/move", {**game["moves"][k], "version": client.version or ""})
        dt = time.perf_counter() - t0
        if status != 200:
            raise RuntimeError(f"{game['what']}: move {k + 1}: HTTP {status}: {_said(page)}")
        return dt

    at = sorted({min(k, len(game["moves"]) - 1) for k in at})
    web: dict[int, float] = {}
    for k in range(len(game["moves"])):
        if k not in at:
            enter(k)
            continue
        times = [enter(k)]
        for _ in range(repeat - 1):
            status, _, page = client.post(f"/play/{play}/undo", {"version": client.version or ""})
            if status != 200:
                raise RuntimeError(f"{game['what']}: undo of move {k + 1}: HTTP {status}: {_said(page)}")
            times.append(enter(k))
        web[k] = statistics.median(times)
    out = []
    for k in at:
        step, check = game["engine"](k)
        out.append((k + 1, web[k], step, check))
    return out


# -- 2. many clients at once ------------------------------------------------------------------

def load(port: int, db: Path, clients: int, plays: int, seconds: float) -> dict:
    """`clients` threads, two per play, entering Level X turns (each die its own group: 5s
    and 6s move, so the game never ends and every turn stays legal) for `seconds`."""
    from sheetkit.history import Store

    starter = Client(port)
    ids = [start_play(starter, "levelx", {"name0": f"P{i}a", "name1": f"P{i}b"}) for i in range(plays)]
    accepted = {p: 0 for p in ids}
    stale = [0]
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def run(n: int) -> None:
        rng = random.Random(n)
        c = Client(port)
        play = ids[n % plays]
        c.get(f"/play/{play}")
        while time.perf_counter() < stop:
            form = {f"die{i}": str(rng.randint(1, 6)) for i in range(4)}
            form.update({f"group{i}": "ABCD"[i] for i in range(4)})
            t0 = time.perf_counter()
            try:
                # the page after the move (303 and its GET), or the play as it is now (409:
                # the other phone entered a move first; the page brings the new version)
                status, _, page = c.post(f"/play/{play}/move", {**form, "version": c.version or ""})
            except OSError as e:
                status, page = 0, str(e)
            dt = time.perf_counter() - t0
            with lock:
                latencies.append(dt)
                if status == 200:
                    accepted[play] += 1
                elif status == 409:
                    stale[0] += 1
                else:
                    errors.append(f"HTTP {status}: {_said(page)}")

    threads = [threading.Thread(target=run, args=(n,)) for n in range(clients)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    lost = {}
    with Store.open(db) as store:
        import tomllib

        for p in ids:
            play = store.get(p)
            stored = len(tomllib.loads(play.sheets[0].text).get("turn", []))
            if stored != accepted[p]:
                lost[p] = (accepted[p], stored)
    latencies.sort()
    return {"moves": len(latencies), "errors": errors, "lost": lost,
            "median": statistics.median(latencies) if latencies else 0.0,
            "p95": latencies[int(0.95 * (len(latencies) - 1))] if latencies else 0.0,
            "max": latencies[-1] if latencies else 0.0, "per_play": accepted, "stale": stale[0]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="length of the load test (default 60)")
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--plays", type=int, default=4)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="sheetkit-bench-web-") as tmp:
        db = Path(tmp) / "history.sqlite3"
        server = Server(db)
        try:
            print("real HTTP server: werkzeug (threaded) on 127.0.0.1, SQLite history in a temporary file")
            print("web: one move entered, request to response (the POST, its redirect and the page shown), "
                  "median of 5; step: the engine's Rules.step for that move; check: the whole record checked "
                  "as `sheetkit check` does (parse + check)")
            print(f"{'move':<40} {'web ms':>8} {'step us':>9} {'web/step':>9} {'check ms':>9} {'web/check':>9}")
            for name, make in GAMES.items():
                game = make()
                if game is None:
                    print(f"{name}: no move entry in this sheetkit yet: not measured")
                    continue
                n = len(game["moves"])
                # the last move but one: the last may end the play (Yuncos ends by itself), and
                # a finished play takes no undo to enter it again
                for k, web, step, check in one_move(server.port, game, [0, n // 2, n - 2]):
                    label = f"{game['what']}: move {k}"
                    print(f"{label:<40} {web * 1e3:8.1f} {step * 1e6:9.1f} {web / step:8.0f}x "
                          f"{check * 1e3:9.2f} {web / check:8.1f}x")
            res = load(server.port, db, args.clients, args.plays, args.seconds)
        finally:
            server.close()
    entered = sum(res["per_play"].values())
    print(f"load: {args.clients} clients, {args.plays} Level X plays, {args.seconds:.0f} s: {res['moves']} move requests, "
          f"{entered} turns entered ({entered / args.seconds:.1f}/s); latency of a request: median {res['median'] * 1e3:.0f} ms, "
          f"p95 {res['p95'] * 1e3:.0f} ms, max {res['max'] * 1e3:.0f} ms")
    print(f"      errors: {len(res['errors'])}; lost moves: {sum(a - s for a, s in res['lost'].values())}; "
          f"turns stored per play: {', '.join(map(str, res['per_play'].values()))}; "
          f"refused as sent from a page no longer current (409, sent again): {res['stale']}")
    for e in res["errors"][:5]:
        print("      " + e)
    return 1 if res["errors"] or res["lost"] else 0


if __name__ == "__main__":
    sys.exit(main())
