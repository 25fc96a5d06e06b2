"""Benchmark: entering a move on the web page, against the same server answering a static
page of the same size, and against the engine's own time for that move.

    python bench/bench_web.py [--seconds 60] [--clients 8] [--plays 4] [--repeat 7] [--strict]

Everything runs through a real HTTP server: werkzeug's threaded server in a thread of this
process, on 127.0.0.1 with a free port, the app of `sheetkit serve` over a real SQLite
history file in a temporary folder; the clients speak HTTP over sockets (http.client),
with the session cookie and the form's CSRF token as a browser sends them. The app the
bench creates (and only it: nothing of this is in sheetkit) is wrapped in a WSGI
middleware that times each request inside the server (from the call of the app to the last
byte of its body, sent back in a header), and has one more route, /_bench/static/<name>,
that answers a fixed body held in memory (no work: the page size's baseline), and one
more, /_bench/floor/<play>, a POST that reads the play and writes its records again in one
durable transaction (no engine, no page: what storing a move costs at the least).

1. One move, server time: a play is started and its moves entered one POST at a time, as
   the page's script sends them (X-Sheetkit-Step: the play's page is the POST's answer), in
   a solo Yuncos game of the random player (30 turns), a 4-player Glüx game of the random
   player (sheetkit.games.glux.play, 60 placements) and a 2-player Level X game of the
   independent simulation (sheetkit.games.levelx.play, 60 turns). The time of a move is
   the server's time for the move POST, answered with the page the phone shows next,
   median of `--repeat` entries of that move at the same depth (entered, undone, entered
   again), at move 2 and at the last move N (30 / 60), in two plays of the game (one after
   move 1, one after move N - 1) measured in turn, so that the load of a shared machine
   falls alike on both. Measured in the same rounds: the same two moves with scripts off
   (the POST answered 303, then the GET of the page it leads to), in two plays more, and
   the same server answering a GET of a page of the very bytes (so the same size) of move
   N's page, from memory, and the floor route on the long play; the targets: move N within 1.2x of move 2, and within 3x of that
   static page. The round trip seen by the client is printed beside it, and the engine's
   own baselines as before: its step for that very move (`Rules.step` on the position
   before it), and the check of the whole record text as `sheetkit check` does it.
2. Load: N clients (threads) enter Level X turns into P plays at once (two clients per
   play) for `--seconds`, as the page's script sends them: every response must be a
   success (a move taken, answered with the page, or refused as sent from a page no longer
   current, 409), and at the end every move a client saw accepted must be in the play's
   stored record (the dice of every turn, as many times as accepted, and no other turn);
   the latency's median and p95 are printed.

Exit status 1 when a request failed or an accepted move is not stored; with --strict, 2
when a target is missed.
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
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TIME_HEADER = "X-Bench-Server-Time"  # the server's own time for the request, in seconds
SCRIPT = {"X-Sheetkit-Step": "1"}  # as static/steps.js sends a step: the page is the answer
STATIC = "/_bench/static/"
FLOOR = "/_bench/floor/"


# -- the server and a browser-like client ----------------------------------------------------

class Timed:
    """WSGI middleware: each request timed inside the server, from the call of the app to
    the last byte of its body (the whole body is made before anything is sent), the time
    sent back in a header. The bench's own: sheetkit's app is not changed."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        t0 = time.perf_counter()
        said = {}

        def held(status, headers, exc_info=None):
            said.update(status=status, headers=list(headers), exc_info=exc_info)
            return lambda data: None  # nothing of the app writes through it (Flask returns its body)

        body = self.app(environ, held)
        try:
            chunks = [bytes(c) for c in body]
        finally:
            if hasattr(body, "close"):
                body.close()
        dt = time.perf_counter() - t0
        start_response(said["status"], said["headers"] + [(TIME_HEADER, f"{dt:.9f}")], said["exc_info"])
        return chunks


class Server:
    """The app of `sheetkit serve` on a real socket, over the history file `db`, timed
    (Timed) and with one route of the bench's own: STATIC + name answers `bodies[name]`
    from memory, as text/html, with no other work (what the app's hooks do to every
    response still done)."""

    def __init__(self, db: Path):
        import logging

        from flask import Response, abort
        from werkzeug.serving import make_server

        from sheetkit.web.app import create_app

        logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request

        app = create_app(db=str(db))
        self.bodies: dict[str, bytes] = {}

        def bench_static(name: str):
            body = self.bodies.get(name)
            if body is None:
                abort(404)
            return Response(body, mimetype="text/html")

        def bench_floor(play_id: int):
            # what storing a move costs with no engine and no page: the play read and its
            # records written again, durably, through the page's own history connection
            from sheetkit.web.plays import routes

            store = routes.request_store(Path(db))
            play = store.get(play_id)
            store.update_sheets(play_id, play.sheets, expect=play.version)
            return Response(status=204)

        app.add_url_rule(STATIC + "<name>", "bench_static", bench_static, methods=["GET"])
        app.add_url_rule(FLOOR + "<int:play_id>", "bench_floor", bench_floor, methods=["POST"])
        app.wsgi_app = Timed(app.wsgi_app)
        self.srv = make_server("127.0.0.1", 0, app, threaded=True)
        self.port = self.srv.server_port
        self.thread = threading.Thread(target=self.srv.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.srv.shutdown()
        self.thread.join(timeout=10)


@dataclass
class Answer:
    """What a client got for a request (and the requests its redirects led to): the first
    response's status, the last one's status, path and page, the server's time summed over
    them and the round trip the client saw."""

    first: int
    status: int
    where: str
    text: str
    server: float
    wall: float
    size: int  # bytes of the last page
    first_server: float = float("nan")  # the server's time of the first response alone


class Client:
    """One phone: its own session cookie and CSRF token, a fresh connection per request
    (as werkzeug's server closes each one)."""

    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}
        self.csrf: str | None = None
        self.version: str | None = None  # the play's version on the last page seen

    def request(self, method: str, path: str, form: dict | None = None,
                extra: dict | None = None) -> tuple[int, dict, str, float, int]:
        """(status, headers, page, server time, bytes of the page)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        headers = {"Origin": f"http://127.0.0.1:{self.port}", **(extra or {})}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode({"csrf": self.csrf or "", **form}, doseq=True)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=body, headers=headers)
            resp = conn.getresponse()
            raw = resp.read()
            text = raw.decode("utf-8", "replace")
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
            return resp.status, dict(resp.getheaders()), text, float(resp.getheader(TIME_HEADER, "nan")), len(raw)
        finally:
            conn.close()

    def get(self, path: str) -> Answer:
        t0 = time.perf_counter()
        status, _, text, server, size = self.request("GET", path)
        return Answer(status, status, path, text, server, time.perf_counter() - t0, size, server)

    def post(self, path: str, form: dict, follow: bool = True, script: bool = False) -> Answer:
        """POST a form (`script`: as the page's script sends a step); with `follow`, fetch
        the page a redirect leads to (what the phone shows next)."""
        t0 = time.perf_counter()
        status, headers, text, server, size = self.request("POST", path, form, SCRIPT if script else None)
        first, where, first_server = status, urlsplit(headers.get("X-Sheetkit-Page", path)).path, server
        for _ in range(3 if follow else 0):  # a play the move ended goes on to its end page
            if status not in (302, 303):
                break
            where = urlsplit(headers.get("Location", "")).path
            status, headers, text, more, size = self.request("GET", where)
            server += more
        return Answer(first, status, where, text, server, time.perf_counter() - t0, size, first_server)


def start_play(client: Client, game: str, form: dict) -> int:
    client.get(f"/play/new?game={game}")
    got = client.post("/play/new", {"game": game, **form})
    found = re.fullmatch(r"/play/(\d+)", got.where)
    if got.status != 200 or not found:
        raise RuntimeError(f"starting a {game} play: HTTP {got.status} at {got.where}: {_said(got.text)}")
    return int(found.group(1))


def _said(page: str) -> str:
    found = re.search(r'<p class="error"[^>]*>(.*?)</p>', page, re.S)
    return found.group(1).strip() if found else page[:200]


def best(fn, number: int) -> float:
    return min(timeit.repeat(fn, number=number, repeat=3)) / number


# -- the games: their moves as form values, and the engine's own time for each --------------

def levelx_game(moves: int = 60):
    """A legal 2-player Level X game of the independent simulation (longer than `moves`
    turns, so that none of them is after its end), its first `moves` turns as the entry
    form sends them, and per turn the engine's step and whole-record check."""
    from sheetkit.checking import records
    from sheetkit.checking.replay import replay
    from sheetkit.games.levelx.entry import GROUPS
    from sheetkit.games.levelx.play import random_game
    from sheetkit.games.levelx.record import Turn
    from sheetkit.games.levelx.rules import Rules
    from sheetkit.tomlfile import dump_toml

    record = next(r for r in (random_game(random.Random(s), ["Ana", "Ben"], 0.4)[0] for s in range(1000))
                  if len(r["turn"]) > moves)
    record["turn"] = record["turn"][:moves]
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
            "what": f"Level X, 2 players, {len(forms)} turns", "title": "Level X"}


def glux_game(moves: int = 60):
    """A legal 4-player Glüx game of the random player (sheetkit.games.glux.play), its
    first `moves` placements as the entry form sends them (who, face, square or the start
    placement; the game goes on after them), and per placement the engine's step and
    whole-record check."""
    from sheetkit import layouts
    from sheetkit.checking import records
    from sheetkit.checking.replay import replay
    from sheetkit.games.glux import play, rules
    from sheetkit.grid import square_name

    side = layouts.load("glux-board-34p").spec
    for seed in range(100):
        setups, placements = play.random_game(side, 4, random.Random(seed), start_chance=0.0)
        if len(placements) > moves + 1:
            break
    else:
        raise RuntimeError(f"no Glüx game of the random player longer than {moves + 1} placements")
    placements = placements[:moves]
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
            "what": f"Glüx, 4 players, {len(forms)} placements", "title": "Glüx"}


def yuncos_game(moves: int = 30):
    """A solo Yuncos game of the random player (sheetkit.games.yuncos.play) that the rules
    do not end before its turn `moves` + 1, its first `moves` turns as the entry form sends
    them (the flight, the puzzle box and value, the dice, the abilities used), and per turn
    the engine's step and whole-record check. None when this sheetkit has no Yuncos move
    entry."""
    from sheetkit import layouts
    from sheetkit.checking import records
    from sheetkit.checking.replay import replay
    from sheetkit.games.yuncos.play import play
    from sheetkit.games.yuncos.record import box_kind, read_record
    from sheetkit.games.yuncos.rules import Rules
    from sheetkit.web import plays

    if plays.entry_of("yuncos") is None:
        return None
    layout = layouts.load("yuncos-easy")
    for seed in range(10_000):
        g = play(layout, random.Random(seed), max_turns=moves + 1, home_after=10**6)
        if len(g.record["turn"]) == moves + 1:  # turn `moves` did not end the game: it can be undone
            break
    else:
        raise RuntimeError(f"no solo Yuncos game of the random player of {moves + 1} turns")
    spec = layout.spec
    forms = []
    for n, turn in enumerate(g.record["turn"][:moves]):
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
            "engine": engine, "what": f"Yuncos, solo, {len(forms)} turns", "title": "Yuncos (solo)"}


GAMES = {"yuncos": yuncos_game, "glux": glux_game, "levelx": levelx_game}


# -- 1. one move ----------------------------------------------------------------------------

@dataclass
class Depth:
    """One move measured at its depth: the medians of `repeat` entries of it."""

    move: int  # 1-based
    server: float  # the server's time: the move POST and the page it answers (or leads to)
    post: float  # of which the POST
    wall: float  # the round trip the client saw
    size: int  # bytes of the page the move leads to


class Played:
    """A play of `game` on the page, its moves entered in order by one client."""

    def __init__(self, port: int, game: dict, script: bool = True):
        self.game = game
        self.script = script  # the steps sent as the page's script sends them, else as a bare form
        self.client = Client(port)
        self.id = start_play(self.client, game["game"], game["start"])
        self.done = 0  # moves entered

    def enter(self) -> Answer:
        """The next move: its POST must be taken (answered with the page, or 303 with scripts
        off) and lead to the play's entry screen (a move that ended the play could not be
        undone to be entered again)."""
        k = self.done
        got = self.client.post(f"/play/{self.id}/move", {**self.game["moves"][k], "version": self.client.version or ""},
                               script=self.script)
        if got.first != (200 if self.script else 303) or got.status != 200:
            raise RuntimeError(f"{self.game['what']}: move {k + 1}: HTTP {got.first}, {got.status}: {_said(got.text)}")
        if got.where != f"/play/{self.id}":
            raise RuntimeError(f"{self.game['what']}: move {k + 1} ended the play ({got.where})")
        self.done += 1
        return got

    def undo(self) -> None:
        got = self.client.post(f"/play/{self.id}/undo", {"version": self.client.version or ""}, script=self.script)
        if got.first != (200 if self.script else 303) or got.status != 200:
            raise RuntimeError(f"{self.game['what']}: undo of move {self.done}: HTTP {got.status}: {_said(got.text)}")
        self.done -= 1


def depth(move: int, got: list[Answer]) -> Depth:
    return Depth(move, statistics.median(a.server for a in got), statistics.median(a.first_server for a in got),
                 statistics.median(a.wall for a in got), got[-1].size)


def one_move(server: Server, game: dict, repeat: int, statics: int = 4):
    """Move 2 and the last move N measured `repeat` times each at their depth, in two
    plays of the same game (one after move 1, one after move N - 1), taken in turn so that
    the load of the machine falls alike on both: entered, undone, entered again; and, in
    the same rounds, `statics` GETs of a page of the very bytes of move N's page answered
    from memory, and the same two moves with scripts off (POST, 303, GET) in two plays more.
    (move 2, move N, the static GETs, move 2 and move N with scripts off)."""
    port = server.port
    name = game["game"]
    early, late = Played(port, game), Played(port, game)
    bare_early, bare_late = Played(port, game, script=False), Played(port, game, script=False)
    for first, deep in ((early, late), (bare_early, bare_late)):
        first.enter()
        for _ in range(len(game["moves"]) - 1):
            deep.enter()
    reader = Client(port)
    two, last, static, bare_two, bare_last, floor = [], [], [], [], [], []
    for r in range(repeat):
        if r:
            for p in (early, late, bare_early, bare_late):
                p.undo()
        two.append(early.enter())
        last.append(late.enter())
        bare_two.append(bare_early.enter())
        bare_last.append(bare_late.enter())
        if r == 0:
            server.bodies[name] = last[0].text.encode("utf-8")
            reader.get(STATIC + name)  # one to warm up
        static += [reader.get(STATIC + name) for _ in range(statics)]
        floor += [late.client.post(FLOOR + str(late.id), {}, follow=False) for _ in range(statics)]
    want = len(server.bodies[name])
    if any(a.status != 200 or a.size != want for a in static) or last[-1].size != want:
        raise RuntimeError(f"{name}: the static page: HTTP {static[0].status}, {static[0].size} bytes, "
                           f"the move's page {last[-1].size}")
    if any(a.status != 204 for a in floor):
        raise RuntimeError(f"{name}: the floor: HTTP {floor[0].status}")
    n = len(game["moves"])
    return depth(2, two), depth(n, last), static, depth(2, bare_two), depth(n, bare_last), floor


# -- 2. many clients at once ------------------------------------------------------------------

def load(port: int, db: Path, clients: int, plays: int, seconds: float) -> dict:
    """`clients` threads, two per play, entering Level X turns (each die its own group: 5s
    and 6s move, so the game never ends and every turn stays legal) for `seconds`. A move
    is accepted when its POST is answered with the play's page (200); every
    accepted move's dice are kept, to be found in the play's stored record at the end."""
    from sheetkit.history import Store

    starter = Client(port)
    ids = [start_play(starter, "levelx", {"name0": f"P{i}a", "name1": f"P{i}b"}) for i in range(plays)]
    accepted: dict[int, Counter] = {p: Counter() for p in ids}
    stale = [0]
    latencies: list[float] = []
    taken: list[float] = []  # the round trips of the moves accepted
    server_times: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def run(n: int) -> None:
        rng = random.Random(n)
        c = Client(port)
        play = ids[n % plays]
        c.get(f"/play/{play}")
        while time.perf_counter() < stop:
            dice = [rng.randint(1, 6) for _ in range(4)]
            form = {f"die{i}": str(d) for i, d in enumerate(dice)}
            form.update({f"group{i}": "ABCD"[i] for i in range(4)})
            try:
                # the page after the move, or the play as it is now (409: the other phone
                # entered a move first; the page brings the new version)
                got = c.post(f"/play/{play}/move", {**form, "version": c.version or ""}, script=True)
            except OSError as e:
                got = Answer(0, 0, "", str(e), float("nan"), 0.0, 0)
            with lock:
                latencies.append(got.wall)
                server_times.append(got.server)
                if got.first == 200 and got.where == f"/play/{play}":
                    accepted[play][tuple(dice)] += 1
                    taken.append(got.wall)
                elif got.first == 409:
                    stale[0] += 1
                else:
                    errors.append(f"HTTP {got.first}, {got.status}: {_said(got.text)}")

    threads = [threading.Thread(target=run, args=(n,)) for n in range(clients)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    lost, extra, stored_n = {}, {}, {}
    with Store.open(db) as store:
        for p in ids:
            turns = tomllib.loads(store.get(p).sheets[0].text).get("turn", [])
            stored = Counter(tuple(t["dice"]) for t in turns)
            stored_n[p] = len(turns)
            if accepted[p] - stored:
                lost[p] = sum((accepted[p] - stored).values())
            if stored - accepted[p]:
                extra[p] = sum((stored - accepted[p]).values())
    latencies.sort()
    taken.sort()
    server_times = sorted(x for x in server_times if x == x)
    return {"moves": len(latencies), "errors": errors, "lost": lost, "extra": extra,
            "p50": statistics.median(latencies) if latencies else 0.0,
            "p95": pct(latencies, 0.95), "max": latencies[-1] if latencies else 0.0,
            "taken_p50": statistics.median(taken) if taken else 0.0, "taken_p95": pct(taken, 0.95),
            "server_p50": statistics.median(server_times) if server_times else 0.0,
            "server_p95": pct(server_times, 0.95),
            "accepted": {p: sum(c.values()) for p, c in accepted.items()}, "stored": stored_n, "stale": stale[0]}


def pct(sorted_values: list[float], q: float) -> float:
    return sorted_values[int(q * (len(sorted_values) - 1))] if sorted_values else 0.0


# -- the report -------------------------------------------------------------------------------

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="length of the load test (default 60)")
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--plays", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=7, help="entries of each measured move (default 7)")
    ap.add_argument("--strict", action="store_true", help="exit 2 when a target (1.2x, 3x) is missed")
    args = ap.parse_args()
    deep = {"yuncos": 30, "glux": 60, "levelx": 60}
    rows, engine_rows, bare, floors = [], [], [], []
    with tempfile.TemporaryDirectory(prefix="sheetkit-bench-web-") as tmp:
        db = Path(tmp) / "history.sqlite3"
        server = Server(db)
        try:
            for name, make in GAMES.items():
                game = make(deep[name])
                if game is None:
                    print(f"{name}: no move entry in this sheetkit: not measured")
                    continue
                two, last, static, bare_two, bare_last, floor = one_move(server, game, args.repeat)
                st_server = statistics.median(a.server for a in static)
                floors.append((game, statistics.median(a.server for a in floor), st_server))
                st_wall = statistics.median(a.wall for a in static)
                rows.append((game, two, last, st_server, st_wall, static[0].size))
                bare.append((game, bare_two, bare_last, st_server))
                for d in (two, last):
                    step, check = game["engine"](d.move - 1)
                    engine_rows.append((f"{game['what']}: move {d.move}", d, step, check))
            res = load(server.port, db, args.clients, args.plays, args.seconds)
        finally:
            server.close()

    print("real HTTP server: werkzeug (threaded) on 127.0.0.1, SQLite history in a temporary file")
    print(f"server time of a move, as the page's script sends it: the move POST, answered with the page the phone shows "
          f"next, timed inside the server, "
          f"median of {args.repeat} entries at that depth (entered, undone, entered again); static: the same server "
          f"answering a GET of that very page from memory (the bench's own route, no work), median of {4 * args.repeat}")
    head = f"{'game':<16} {'move 2 ms':>9} {'move N':>7} {'move N ms':>9} {'N/2':>6} {'static ms':>9} {'N/static':>9} {'page kB':>8}"
    print(head)
    missed = []
    for game, two, last, st_server, _, st_size in rows:
        r2, rs = last.server / two.server, last.server / st_server
        print(f"{game['title']:<16} {two.server * 1e3:9.2f} {last.move:>7} {last.server * 1e3:9.2f} {r2:5.2f}x "
              f"{st_server * 1e3:9.3f} {rs:8.1f}x {st_size / 1024:8.1f}")
        if r2 > 1.2:
            missed.append(f"{game['title']}: move {last.move} is {r2:.2f}x move 2 (target 1.2x)")
        if rs > 3:
            missed.append(f"{game['title']}: move {last.move} is {rs:.1f}x the static page (target 3x)")
    print("with scripts off (the POST answered 303, then the GET of the page), server ms, move 2 / move N "
          "(N/2, N/static; of which the POST): " + "; ".join(
              f"{g['title']} {a.server * 1e3:.2f} / {b.server * 1e3:.2f} ({b.server / a.server:.2f}x, "
              f"{b.server / st:.1f}x; {a.post * 1e3:.2f} / {b.post * 1e3:.2f})" for g, a, b, st in bare))
    print("floor: the same server taking a POST through the app's hooks (session, CSRF) that reads the play and "
          "writes its records again durably (no engine, no page), server ms (x the static page): " + "; ".join(
              f"{g['title']} {fl * 1e3:.2f} ({fl / st:.1f}x)" for g, fl, st in floors))
    print("round trip seen by the client (one request over loopback), ms: " + "; ".join(
        f"{g['title']} move 2 {a.wall * 1e3:.1f}, move {b.move} {b.wall * 1e3:.1f} ({b.wall / a.wall:.2f}x), "
        f"static {sw * 1e3:.2f} ({b.wall / sw:.1f}x)" for g, a, b, _, sw, _ in rows))
    print("targets: " + ("all met" if not missed else "MISSED: " + "; ".join(missed)))
    print()
    print("the engine's baselines: step, the engine's Rules.step for that move; check, the whole record checked "
          "as `sheetkit check` does (parse + check)")
    print(f"{'move':<40} {'server ms':>9} {'step us':>9} {'server/step':>11} {'check ms':>9} {'server/check':>12}")
    for label, d, step, check in engine_rows:
        print(f"{label:<40} {d.server * 1e3:9.2f} {step * 1e6:9.1f} {d.server / step:10.0f}x "
              f"{check * 1e3:9.2f} {d.server / check:11.1f}x")
    print()
    entered = sum(res["accepted"].values())
    lost, extra = sum(res["lost"].values()), sum(res["extra"].values())
    per_play = ", ".join(f"{res['accepted'][p]}/{res['stored'][p]}" for p in res["accepted"])
    print(f"load: {args.clients} clients into {args.plays} Level X plays (two per play), {args.seconds:g} s: "
          f"{res['moves']} move requests, {entered} turns accepted ({entered / args.seconds:.1f}/s); "
          f"round trip of a move request (its POST, answered with the page): p50 {res['p50'] * 1e3:.0f} ms, "
          f"p95 {res['p95'] * 1e3:.0f} ms, max {res['max'] * 1e3:.0f} ms (of the moves accepted: p50 "
          f"{res['taken_p50'] * 1e3:.0f} ms, p95 {res['taken_p95'] * 1e3:.0f} ms); server time of a move request p50 "
          f"{res['server_p50'] * 1e3:.0f} ms, p95 {res['server_p95'] * 1e3:.0f} ms")
    print(f"      errors: {len(res['errors'])}; accepted moves not in the stored record: {lost}; "
          f"stored turns never accepted: {extra}; turns accepted / stored per play: "
          f"{per_play}; "
          f"refused as sent from a page no longer current (409, sent again): {res['stale']}")
    for e in res["errors"][:5]:
        print("      " + e)
    if res["errors"] or res["lost"] or res["extra"]:
        return 1
    return 2 if args.strict and missed else 0


if __name__ == "__main__":
    sys.exit(main())
