"""Property tests: random legal games on both sides with 2, 3 and 4 players are accepted,
score the same via all three ways in, and one illegal placement is caught by rule id."""

from __future__ import annotations

import json
import random
import tomllib

from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sheetkit import layouts
from sheetkit.games.glux import play, rules
from sheetkit.cli.checking import counts_command
from sheetkit.games.glux import GAME
from sheetkit.games.glux.rules import PAIRS, Placement

from conftest import check_data
from glux_boards import CRAMPED, run

TABLES = [("glux-board-2p", 2), ("glux-board-34p", 3), ("glux-board-34p", 4)]
GEOMS = {lid: layouts.load(lid).spec for lid, _ in TABLES}
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def game(lid: str, n: int, seed: int):
    return play.random_game(GEOMS[lid], n, random.Random(seed), start_chance=0.05)


def verdict_of(text: str):
    return check_data(tomllib.loads(text), "generated.toml")


def summary(v):
    return ({s.player: s.total for s in v.scores}, list(v.winners), [r["vp"] for r in v.info["rooms"]])


@FAST
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**31))
def test_random_legal_games_are_accepted_and_score_alike_three_ways(table, seed):
    lid, n = table
    setups, placements = game(lid, n, seed)
    rp = run(GEOMS[lid], setups, placements)
    assert rp.findings == []
    # 1. the whole game
    by_game = verdict_of(play.game_toml(lid, setups, placements))
    assert by_game.legal, [f.line() for f in by_game.findings]
    # 2. the final board
    by_board = verdict_of(play.board_toml(lid, GEOMS[lid], setups, placements))
    assert by_board.legal, [f.line() for f in by_board.findings]
    assert summary(by_game) == summary(by_board)
    # the same game written in the short notation, and the board with only "*" on stacks
    by_short = verdict_of(play.game_toml(lid, setups, placements, short=True))
    assert by_short.legal, [f.line() for f in by_short.findings]
    by_stars = verdict_of(play.board_toml(lid, GEOMS[lid], setups, placements, below=False))
    assert by_stars.legal and summary(by_short) == summary(by_stars) == summary(by_game)
    # 3. the pips of each room, counted at the table
    rooms = by_board.info["rooms"]
    names = [s.name for s in setups]
    args = []
    for r in rooms:
        args += ["--room", ",".join(f"{p}={r['pips'][p]}" for p in names)]
    middle = [r["room"] for r in rooms].index(by_board.info["middle"]) + 1
    res = CliRunner().invoke(counts_command("glux", GAME.tally), args + ["--middle", str(middle), "--players", ",".join(names), "--json"])
    assert res.exit_code == 0, res.output
    by_pips = json.loads(res.output)
    assert {s["player"]: s["total"] for s in by_pips["scores"]} == summary(by_board)[0]
    assert by_pips["winners"] == list(by_board.winners)
    assert [r["vp"] for r in by_pips["info"]["rooms"]] == summary(by_board)[2]


def states(lid, setups, placements):
    """For each turn k (1-based): the board before it and who had used the start option.
    The game is legal, so the chips simply go down one after another."""
    b = rules.Board.empty(GEOMS[lid])
    for su in setups:
        b = b.put(su.start, rules.Chip(su.name, su.start_chip))
    used: set[str] = set()
    for k, pl in enumerate(placements, 1):
        yield k, b, set(used)
        own = next(su.start for su in setups if su.name == pl.player)
        b = b.put(own if pl.start else pl.dest, rules.Chip(pl.player, pl.face))
        if pl.start:
            used.add(pl.player)


def illegal_variant(rule: str, lid: str, setups, placements, k: int, b: rules.Board,
                    used: set[str]) -> Placement | None:
    """Placement k changed so that it breaks `rule`, on the board `b` as it lay before it."""
    g = GEOMS[lid]
    pl = placements[k - 1]
    me = pl.player
    starts = {s.start: s.name for s in setups}
    foreign = {sq for sq, who in starts.items() if who != me}
    mine = [(sq, c) for sq, c in sorted(b.tops().items()) if c.owner == me]

    def clear(o, d):
        dx, dy = (d[0] > o[0]) - (d[0] < o[0]), (d[1] > o[1]) - (d[1] < o[1])
        dist = abs(d[0] - o[0]) + abs(d[1] - o[1])
        return all(b.count((o[0] + dx * i, o[1] + dy * i)) == 0 for i in range(1, dist))

    def lines():
        for sq, c in mine:
            for dx, dy in rules.DIRS:
                d = (sq[0] + dx * c.pips, sq[1] + dy * c.pips)
                if g.on_board(d):
                    yield sq, c, d

    if rule == "G4":
        for sq, c, d in lines():
            ux, uy = (d[0] - sq[0]) // c.pips, (d[1] - sq[1]) // c.pips
            for extra in (1, -1):
                d2 = (sq[0] + ux * (c.pips + extra), sq[1] + uy * (c.pips + extra))
                if d2 != sq and g.on_board(d2) and b.count(d2) < 2 and d2 not in foreign and clear(sq, d2):
                    return Placement(me, pl.face, sq, d2)
    if rule == "G5":
        for sq, c, d in lines():
            if not clear(sq, d) and b.count(d) < 2 and d not in foreign:
                return Placement(me, pl.face, sq, d)
    if rule == "G6":
        for sq, c, d in lines():
            if clear(sq, d) and b.count(d) >= 2 and d not in foreign:
                return Placement(me, pl.face, sq, d)
    if rule == "G7":
        for sq, c, d in lines():
            if clear(sq, d) and b.count(d) < 2 and d in foreign:
                return Placement(me, pl.face, sq, d)
    if rule == "G8" and me in used:  # a second time (the start square is full by now, G6 too)
        return Placement(me, pl.face)
    if rule == "G1" and not pl.start:
        counts = {pr: 0 for pr in PAIRS}
        s0 = next(s for s in setups if s.name == me)
        counts[rules.pair_of(s0.start_chip)] += 1
        for p in placements[:k - 1]:
            if p.player == me:
                counts[rules.pair_of(p.face)] += 1
        full = [pr for pr, n in counts.items() if n == rules.PER_PAIR]
        if full and rules.pair_of(pl.face) not in full:
            return Placement(me, full[0][0], pl.origin, pl.dest)
    return None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**31),
       rule=st.sampled_from(["G1", "G4", "G5", "G6", "G7", "G8"]), where=st.floats(0, 1))
def test_one_illegal_placement_is_caught_with_its_rule(table, seed, rule, where):
    lid, n = table
    setups, placements = game(lid, n, seed)
    chances = [(k, bad) for k, b, used in states(lid, setups, placements)
               if (bad := illegal_variant(rule, lid, setups, placements, k, b, used)) is not None]
    assume(chances)
    k, bad = chances[min(len(chances) - 1, int(where * len(chances)))]
    changed = placements[:k - 1] + [bad] + placements[k:]
    rp = run(GEOMS[lid], setups, changed)
    first = [f for f in rp.findings if f.at["turn"] <= k]
    assert first, f"turn {k}: {bad} not caught"
    assert all(f.at["turn"] == k for f in first)
    assert rule in {f.rule for f in first}, [f.line() for f in first]
    for f in rp.findings:  # every finding is said in Spanish too, with the same rule id
        assert f.text is not None and f.place is not None and f.line("es").removeprefix("aviso ").split()[0] == f.rule


def test_generator_covers_the_start_option_and_both_sides():
    used_start = 0
    for lid, n in TABLES:
        for seed in range(5):
            setups, placements = game(lid, n, seed)
            assert len({s.start for s in setups}) == n
            used_start += sum(p.start for p in placements)
            assert run(GEOMS[lid], setups, placements).findings == []
    assert used_start > 0


def test_every_rule_gets_its_illegal_variant():
    """The property above is not vacuous: each rule has games where it is tried and caught."""
    caught = set()
    for seed in range(40):
        for lid, n in TABLES:
            setups, placements = game(lid, n, seed)
            for rule in {"G1", "G4", "G5", "G6", "G7", "G8"} - caught:
                for k, b, used in states(lid, setups, placements):
                    bad = illegal_variant(rule, lid, setups, placements, k, b, used)
                    if bad is not None:
                        changed = placements[:k - 1] + [bad] + placements[k:]
                        found = run(GEOMS[lid], setups, changed).findings
                        if rule in {f.rule for f in found if f.at["turn"] == k}:
                            caught.add(rule)
                        break
        if len(caught) == 6:
            break
    assert caught == {"G1", "G4", "G5", "G6", "G7", "G8"}


def test_cramped_board_forces_start_placements_and_exclusions():
    """On a 5 x 5 board players soon run out of placements: G9 paths are played and
    accepted."""
    g = CRAMPED
    outs = starts = 0
    for seed in range(30):
        for n in (2, 4):
            setups, placements = play.random_game(g, n, random.Random(seed), start_chance=0.0)
            rp = run(g, setups, placements)
            assert rp.findings == [], [f.line() for f in rp.findings]
            outs += len(rp.out)
            starts += sum(p.start for p in placements)
            res = rules.score_board(rp.board, [s.name for s in setups], {"m": "middle"})
            firsts = [p for p, k in res.rooms[0].place.items() if k == 1]
            assert sum(res.totals.values()) == 4 * len(firsts) + 2 * (
                n > 2 and len(firsts) == 1) * sum(1 for k in res.rooms[0].place.values() if k == 2)
    assert outs > 0 and starts > 0
