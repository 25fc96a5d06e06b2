"""Level X entered turn by turn through the page's entry (sheetkit/games/levelx/entry.py):
random legal games played by play.py's own simulation (which shares no code with the
checker) go in as form values, one turn at a time, and stay legal at every step; a single
wrong turn is caught with the right rule id; what cannot be a turn is a FormError; the
record text is what `sheetkit check` reads, with the same verdict."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheetkit.games.interface import records_of
from sheetkit.forms import FormError
from sheetkit.games.interface import Result
from sheetkit.games.levelx import entry as L
from sheetkit.games.levelx.play import random_game
from sheetkit.web import i18n, plays

from conftest import check_data, sheetkit

NAMES = ["Ana", "Ben", "Cleo", "Dario"]


def form_of(turn: dict) -> dict:
    """The entry form's values for a recorded turn: the dice in the order rolled, each
    tapped into the group (A-D) it belongs to."""
    free = [list(g) for g in turn["groups"]]
    form = {}
    for i, d in enumerate(turn["dice"]):
        j = next(j for j, g in enumerate(free) if d in g)
        free[j].remove(d)
        form[f"die{i}"] = str(d)
        form[f"group{i}"] = L.GROUPS[j]
    return form


def t(key, **kw):
    return i18n.label("en", key, **kw)


def start(n: int = 2):
    return L.new_records(plays.Start("levelx", "", tuple(enumerate(NAMES[:n])), {}), t)


def check(recs):
    """Through the core's own step: the record written as text, read back, checked."""
    return plays.check("levelx", recs, None)[0].checked


def position(recs):
    """The records as a step is given them: the play's position (each record checked)."""
    return plays.check("levelx", recs, None)


def text(recs) -> str:
    return plays.text_of(recs[0][1])


def view(recs, lang="en", form=None):
    return L.view(plays.check("levelx", recs, None), t, lang, form or {})["lx"]


def rules_of(checked):
    return [f.rule for f in checked.verdict.findings]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(2, 4), st.sampled_from([0.0, 0.5, 1.0]))
def test_random_legal_games_entered_turn_by_turn_are_legal_at_every_step(seed, n, greedy):
    record, final = random_game(random.Random(seed), NAMES[:n], greedy)
    recs = start(n)
    for k, turn in enumerate(record["turn"]):
        before, snapshot = recs, copy.deepcopy(recs)
        pos = position(recs)
        recs = L.add_move(pos, form_of(turn), t)
        assert before == snapshot and records_of(pos) == snapshot  # the input is never changed
        assert len(recs[0][1]["turn"]) == k + 1
        if k % 7 == 0 or k == len(record["turn"]) - 1:
            c = check(recs)
            assert c.verdict.legal, c.verdict.to_text()
            # the turn that plays out the final round finishes the record (L8): in progress before it
            assert c.verdict.in_progress == (k < len(record["turn"]) - 1)
    c = check(recs)
    assert c.state.over() and "in_progress" not in recs[0][1]
    done = L.finish(position(recs), {}, t)
    v = check(done).verdict
    assert v.legal and not v.in_progress, v.to_text()
    want = check_data(final, "final.toml")
    assert [(s.player, s.total) for s in v.scores] == [(s.player, s.total) for s in want.scores]
    assert v.winners == want.winners


def test_the_records_text_checks_the_same_from_the_command_line(tmp_path):
    record, _ = random_game(random.Random(7), NAMES[:3])
    recs = start(3)
    for turn in record["turn"][:10]:
        recs = L.add_move(position(recs), form_of(turn), t)
    recs = L.add_move(position(recs), {"die0": "6", "die1": "6", "die2": "1", "die3": "1",
                             "group0": "A", "group1": "A", "group2": "-", "group3": "B"})  # a die left out
    page = check(recs).verdict
    path = tmp_path / "levelx-game.toml"
    path.write_text(text(recs), encoding="utf-8")
    out = sheetkit("check", str(path), "--json")
    assert out.code == 1
    got = json.loads(out.out)[0]
    assert [(f["rule"], f["where"]) for f in got["findings"]] == [(f.rule, f.where) for f in page.findings]
    assert [(s["player"], s["total"]) for s in got["scores"]] == [(s.player, s.total) for s in page.scores]


def test_a_die_left_out_of_every_group_is_L4_at_that_turn():
    recs = L.add_move(position(start()), {"die0": "3", "die1": "4", "die2": "5", "die3": "1",
                                "group0": "A", "group1": "A", "group2": "B", "group3": "-"})
    c = check(recs)
    assert rules_of(c) == ["L4"]
    assert c.verdict.findings[0].at == {"turn": 1}
    shown = view(recs)
    assert [f["rule"] for f in shown["turns"][0]["findings"]] == ["L4"]


def test_a_player_out_of_turn_is_L8_and_undo_takes_it_back():
    recs = L.add_move(position(start()), {"die0": "3", "die1": "4", "die2": "5", "die3": "1", "player": "Ben"})
    assert rules_of(check(recs)) == ["L8"]
    pos = position(recs)
    back = L.undo(pos)
    assert back[0][1]["turn"] == [] and check(back).verdict.legal
    assert recs[0][1]["turn"][0]["player"] == pos[0].data["turn"][0]["player"] == "Ben"  # the input is never changed


def test_a_turn_after_the_end_is_L8_and_finishing_early_is_L8():
    record, _ = random_game(random.Random(3), NAMES[:2], 1.0)
    recs = start()
    for turn in record["turn"]:
        recs = L.add_move(position(recs), form_of(turn), t)
    assert "in_progress" not in recs[0][1]  # the final round played out: finished by that turn
    with pytest.raises(FormError, match="final round"):  # no turn is taken after it
        L.add_move(position(recs), {"die0": "1", "die1": "1", "die2": "1", "die3": "2"}, t)
    late = {**recs[0][1], "in_progress": True, "turn": [*recs[0][1]["turn"], {"dice": [1, 1, 1, 2], "groups": [[1, 1, 1, 2]]}]}
    assert rules_of(check([(None, late)])) == ["L8"]  # a turn after the end in a record (an upload) is L8
    early = L.finish(position(L.undo(position(L.undo(position(recs))))), {})
    assert "L8" in rules_of(check(early))
    assert check(L.finish(position(recs), {}, t)).verdict.legal


def test_the_view_shows_whose_turn_the_finishing_round_and_the_board():
    record, _ = random_game(random.Random(1), NAMES[:3], 1.0)  # its end comes before the round's last seat
    recs = start(3)
    c = None
    for turn in record["turn"]:
        recs = L.add_move(position(recs), form_of(turn), t)
        c = check(recs)
        if c.state.ended_at is not None and not c.state.over():
            break
    shown = view(recs)
    assert shown["to_move"] == c.state.to_move() and not shown["over"]
    assert "the round is finished" in shown["end"] and c.state.to_move() in shown["end"]
    svg = shown["board"]
    assert svg.startswith("<svg") and 'viewBox="' in svg and 'viewBox="0 0' not in svg  # cut to the board
    held = [b for p in c.state.players for b in c.state.bonuses[p]]
    assert svg.count('stroke-width="0.6"') >= len(held)  # taken tiles crossed


def test_the_board_has_every_pawn_where_it_stands_start_area_too():
    """One pawn per player and row (also in the start area, left of the row's first square),
    one on each bonus tile taken; the same pawns as the checked sheet's board page."""
    from sheetkit.games.levelx.compose import board_geometry
    from sheetkit.games.levelx.overlay import PAWNS, board_spec
    from sheetkit.paper import scene as S

    for seed in range(4):
        record, _ = random_game(random.Random(seed), NAMES[:2 + seed % 3], 0.3 + 0.2 * seed)
        recs = start(len(record["players"]))
        for turn in record["turn"][:4 + 9 * seed]:
            recs = L.add_move(position(recs), form_of(turn), t)
        state = check(recs).state
        page = L.board_scene(state, "en")[0].pages[0]
        spec, g = board_spec(), board_geometry(board_spec(), "a4")
        for k, name in enumerate(state.players):
            pawns = [i for i in page.items if isinstance(i, S.Circle) and i.style.fill == PAWNS[k][1]]
            # rows, bonus tiles, and the legend (cut off the phone's view)
            assert len(pawns) == len(spec.rows) + len(state.bonuses[name]) + 1
            for row, (i, y) in zip(spec.rows, enumerate(g["y0"] + n * (g["s"] + g["gap"]) for n in range(len(spec.rows)))):
                first = g["xX"] - (row.squares - 1) * g["s"]
                mine = [c for c in pawns if y < c.y < y + g["s"]]
                assert len(mine) == 1
                if state.pos[name].get(row.number, 0) == 0:
                    assert g["x0"] + g["num_w"] < mine[0].x < first
                else:
                    assert mine[0].x > first


@pytest.mark.parametrize("form, message", [
    ({"die0": "7", "die1": "1", "die2": "1", "die3": "1"}, "Die 1"),
    ({"die0": "", "die1": "1", "die2": "1", "die3": "1"}, "Die 1"),
    ({"die0": "1", "die1": "1", "die2": "1", "die3": "9" * 5000}, "Die 4"),
    ({"die0": "1", "die1": "x", "die2": "1", "die3": "1"}, "Die 2"),
    ({"die0": "1", "die1": "1", "die2": "1", "die3": "1", "group2": "Z"}, "group of die 3"),
    ({"die0": "1", "die1": "1", "die2": "1", "die3": "1", "group0": "-", "group1": "-", "group2": "-",
      "group3": "-"}, "at least one die"),
    ({"die0": "1", "die1": "1", "die2": "1", "die3": "1", "player": "Mallory"}, "Player"),
    ({"die0": "1", "die1": "1", "die2": "1", "die3": "1", "player": "<script>"}, "Player"),
])
def test_what_cannot_be_a_turn_is_a_form_error(form, message):
    recs = start()
    pos = position(recs)
    with pytest.raises(FormError, match=message):
        L.add_move(pos, form)
    assert recs[0][1]["turn"] == [] and pos[0].data["turn"] == []


def test_a_new_game_is_in_progress_in_the_seat_order_of_the_start_form():
    seats = ((2, "Cleo"), (0, "Ana"), (1, "Ben"))  # Cleo plays first: the core's order
    recs = L.new_records(plays.Start("levelx", "", seats, {}), t)
    assert recs == [(None, {"game": "levelx", "kind": "game", "players": ["Cleo", "Ana", "Ben"],
                            "in_progress": True, "turn": []})]
    c = check(recs)
    assert c.verdict.legal and c.verdict.in_progress and c.verdict.to_move == "Cleo"
    with pytest.raises(FormError, match="No turn to undo"):
        L.undo(position(recs))


def test_records_that_are_not_one_level_x_game_are_refused():
    other = Result(None, {"game": "glux"}, 'game = "glux"\n', "x.toml", None, None)  # the entry reads only its data
    with pytest.raises(FormError):
        L.add_move([other], {})
    with pytest.raises(FormError):
        L.undo([])
