"""Glüx games in progress and the legal-move question: every prefix of a random legal game
(play.py, which plays on its own board with its own reading of the rules) is accepted as
in progress with the standings of that prefix; the legal moves offered at each step hold
the move that was played, and every one of them is accepted by the checker."""

from __future__ import annotations

import json
import random
import tomllib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheetkit import layouts
from sheetkit.checking import records
from sheetkit.checking.replay import replay
from sheetkit.games import glux
from sheetkit.games.glux import play, rules
from sheetkit.games.glux.moves import GluxMoves, legal_moves
from sheetkit.games.glux.rules import Placement, PlayerSetup
from sheetkit.grid import parse_square

from conftest import ROOT, check_data
from glux_boards import ROW

TABLES = [("glux-board-2p", 2), ("glux-board-34p", 3), ("glux-board-34p", 4)]
SIDES = {lid: layouts.load(lid).spec for lid, _ in TABLES}
SOME = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def room_pips(side, setups, prefix) -> list[dict[str, int]]:
    """Each room's pips per player after `prefix`, from play.py's own board (G11)."""
    stacks = play.final_stacks(setups, prefix)
    out = []
    for squares in side.room_squares.values():
        pips = {s.name: 0 for s in setups}
        for sq in squares:
            if sq in stacks:
                owner, face = stacks[sq][-1]
                pips[owner] += face
        out.append(pips)
    return out


@SOME
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**31), short=st.booleans())
def test_every_prefix_is_a_legal_game_in_progress_with_its_standings(table, seed, short):
    lid, n = table
    side = SIDES[lid]
    setups, placements = play.random_game(side, n, random.Random(seed), start_chance=0.05)
    rng = random.Random(seed)
    cuts = sorted({0, len(placements), *rng.sample(range(len(placements)), 6)})
    for k in cuts:
        prefix = placements[:k]
        v = check_data(tomllib.loads(play.game_toml(lid, setups, prefix, in_progress=True, short=short)))
        assert v.legal, (k, [f.line() for f in v.findings])
        assert v.in_progress and v.winners == ()
        assert v.to_move == (placements[k].player if k < len(placements) else None)
        assert [r["pips"] for r in v.info["rooms"]] == room_pips(side, setups, prefix)
        assert v.info["turns"] == k
        data = v.to_json()
        assert data["in_progress"] is True and data["to_move"] == v.to_move
    # the same prefixes as finished games: G10, and nothing else, until the last
    done = check_data(tomllib.loads(play.game_toml(lid, setups, placements[:cuts[1]])))
    assert [f.rule for f in done.findings] == (["G10"] if cuts[1] < len(placements) else [])


def offered(moves: GluxMoves, table: rules.GluxRules, state: rules.State, turn: int):
    """Every placement the answer offers, in the long, short and start forms."""
    for d in moves.destinations:
        for o in d.origins:
            yield Placement(moves.player, moves.faces[0], o, d.square)
        yield Placement(moves.player, moves.faces[-1], None, d.square)
    if moves.start_available:
        yield Placement(moves.player, moves.faces[0])


@SOME
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**31))
def test_the_legal_moves_hold_the_move_played_and_only_moves_the_checker_accepts(table, seed):
    lid, n = table
    setups, placements = play.random_game(SIDES[lid], n, random.Random(seed), start_chance=0.05)
    table = rules.GluxRules(SIDES[lid], setups)
    state = table.initial()
    for turn, pl in enumerate(placements, 1):
        moves = legal_moves(table, state)
        assert moves.player == pl.player and pl.face in moves.faces
        if pl.start:
            assert moves.start_available
        else:
            dest = {d.square: d.origins for d in moves.destinations}
            assert pl.origin in dest[pl.dest]
        assert moves.start_forced == (moves.start_available and not moves.destinations)
        for other in offered(moves, table, state, turn):
            after, found = table.step(state, other, turn)
            assert found == [], (turn, other, [f.line() for f in found])
        state, found = table.step(state, pl, turn)
        assert found == []
    assert legal_moves(table, state).player is None  # the game is over
    assert table.end(state) == []


def test_a_step_leaves_the_state_given_as_it_was():
    side = SIDES["glux-board-2p"]
    setups, placements = play.random_game(side, 2, random.Random(3))
    table = rules.GluxRules(side, setups)
    state = replay(table, placements[:10], finished=False).state
    before = (state.board.cells, state.placed, state.pairs, state.used, state.out, state.seat, state.turns)
    later, _ = table.step(state, placements[10], 11)
    wrong, found = table.step(state, Placement(placements[10].player, 2, (0, 0), (5, 5)), 11)
    assert found and later != state and wrong != state
    assert (state.board.cells, state.placed, state.pairs, state.used, state.out, state.seat, state.turns) == before
    # an earlier state stays usable: stepping it again gives the same
    assert table.step(state, placements[10], 11) == (later, [])


S = parse_square


def test_g8_forced_and_the_game_over_in_the_answer():
    """On one row Ana's start chip (6) reaches only Ben's start square: the start option
    is forced; once used she is out and Ben is to move; at the end nobody is."""
    setups = [PlayerSetup("Ana", "A", (0, 0), 6), PlayerSetup("Ben", "B", (6, 0), 1)]
    table = rules.GluxRules(ROW, setups)
    s = table.initial()
    m = legal_moves(table, s)
    assert (m.player, m.destinations, m.start_available, m.start_forced) == ("Ana", (), True, True)
    assert "forced" in " ".join(m.lines()) and m.to_json()["start"] == {
        "square": "A1", "available": True, "forced": True, "used": None}
    s, _ = table.step(s, Placement("Ana", 6), 1)
    m = legal_moves(table, s)
    assert m.player == "Ben" and [(d.square, d.origins) for d in m.destinations] == [((5, 0), ((6, 0),))]
    assert m.start_available and not m.start_forced
    for turn, pl in enumerate([Placement("Ben", 6, (6, 0), (5, 0)), Placement("Ben", 6, (6, 0), (5, 0)),
                               Placement("Ben", 6)], 2):
        s, found = table.step(s, pl, turn)
        assert found == []
    m = legal_moves(table, s)
    assert m.player is None and m.to_json() == {"game": "glux", "player": None, "over": True}
    assert "over" in m.lines()[0]


def test_faces_left_follow_g1():
    setups = [PlayerSetup("Ana", "A", (0, 0), 1), PlayerSetup("Ben", "B", (6, 0), 1)]
    table = rules.GluxRules(ROW, setups)
    s = table.initial()
    assert legal_moves(table, s).faces == (1, 2, 3, 4, 5, 6)
    s = rules.State(s.board, s.players, s.placed, ((8, 0, 0), (1, 0, 0)), s.used, s.out)
    assert legal_moves(table, s).faces == (2, 3, 4, 5)


EXAMPLES = ROOT / "examples"


def test_in_progress_records_through_the_game_interface():
    """The record kind's `moves` entry answers for the state `check` replayed."""
    loaded = records.load(EXAMPLES / "glux-game-in-progress.toml")
    checked = records.check(loaded)
    v = checked.verdict
    assert v.legal and v.in_progress and v.to_move == "Ben"
    assert "in progress; Ben to move" in v.status()
    answer = glux.GAME.record_kinds["game"].moves(loaded.record, checked, None)
    assert answer.player == "Ben"
    json.dumps(answer.to_json())
    assert answer.lines()[0].startswith("Ben to move")


def test_an_illegal_game_in_progress_has_no_g10_but_its_faults():
    v = records.check(records.load(EXAMPLES / "glux-game-in-progress-illegal.toml")).verdict
    rules_found = [f.rule for f in v.findings]
    assert v.in_progress and not v.legal
    assert "G10" not in rules_found and {"G5", "G7"} <= set(rules_found)


@pytest.mark.parametrize("key", ["in_progress = true"])
def test_a_board_record_cannot_be_in_progress(key):
    from sheetkit.errors import UserError

    text = (EXAMPLES / "glux-board-3p.toml").read_text().replace('kind = "board"', f'kind = "board"\n{key}')
    with pytest.raises(UserError, match="in_progress"):
        records.parse(tomllib.loads(text), "b.toml")


def test_check_command_on_games_in_progress():
    from click.testing import CliRunner

    from sheetkit.cli import cli

    run = CliRunner().invoke(cli, ["check", "--json", str(EXAMPLES / "glux-game-in-progress.toml")])
    assert run.exit_code == 0, run.output
    v, = json.loads(run.output)
    assert v["in_progress"] is True and v["to_move"] == "Ben" and v["winners"] == [] and v["legal"]
    run = CliRunner().invoke(cli, ["check", str(EXAMPLES / "glux-game-in-progress-illegal.toml")])
    assert run.exit_code == 1 and "so far, in progress; Ana to move" in run.output and "G10" not in run.output


@SOME
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**31), where=st.floats(0, 1))
def test_a_short_placement_that_no_chip_reaches_is_caught(table, seed, where):
    """Placement k rewritten as a short one onto a square that no chip of the player
    reaches (worked out here from play.py's board): G4, or G5 when a chip in the way
    stops one that shows the right count, at turn k and nowhere before."""
    lid, n = table
    side = SIDES[lid]
    setups, placements = play.random_game(side, n, random.Random(seed), start_chance=0.0)
    k = 1 + int(where * (len(placements) - 1))
    pl = placements[k - 1]
    stacks = play.final_stacks(setups, placements[:k - 1])
    starts = {s.start for s in setups if s.name != pl.player}

    def reached(d):
        for (x, y), stack in stacks.items():
            owner, pips = stack[-1]
            if owner == pl.player and (abs(x - d[0]) + abs(y - d[1]) == pips) and (x == d[0] or y == d[1]):
                ux, uy = (d[0] > x) - (d[0] < x), (d[1] > y) - (d[1] < y)
                if all((x + ux * i, y + uy * i) not in stacks for i in range(1, pips)):
                    return True
        return False

    free = [(c, r) for r in range(side.height) for c in range(side.width)
            if len(stacks.get((c, r), ())) < 2 and (c, r) not in starts
            and (c, r) != next(s.start for s in setups if s.name == pl.player) and not reached((c, r))]
    bad = Placement(pl.player, pl.face, None, free[int(where * (len(free) - 1))])
    found = replay(rules.GluxRules(side, setups), placements[:k - 1] + [bad], finished=False).findings
    assert found and {f.at["turn"] for f in found} == {k}
    assert {f.rule for f in found} <= {"G4", "G5", "G9"} and {f.rule for f in found} & {"G4", "G5"}
