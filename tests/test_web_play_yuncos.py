"""Yuncos entered move by move on the page (sheetkit/games/yuncos/entry.py), without a server.

The games come from the random player (sheetkit.games.yuncos.play), which keeps its own
account of the rules: every one of its tables, entered turn by turn and player by player
as the page's form would send them, is accepted with the player's own scores and winners,
and ends by itself when the rules end it. A single wrong entry is caught with the right
rule id; a value that cannot be a move is one message and changes nothing.
"""

from __future__ import annotations

import copy
import random
from functools import lru_cache

import pytest
from hypothesis import assume, HealthCheck, example, given, settings
from hypothesis import strategies as st

from sheetkit.games.interface import records_of
from sheetkit import layouts
from sheetkit.checking import records as engine
from sheetkit.games.yuncos.play import play, play_table
from sheetkit.games.yuncos.record import box_kind
from sheetkit.forms import FormError
from sheetkit.games.yuncos import entry as Y
from sheetkit.tomlfile import dump_toml
from sheetkit.web import plays

NAMES = ["Ana", "Bea", "Caro", "Dani", "Eli"]


@lru_cache(maxsize=None)
def layout(lid):
    return layouts.load(lid)


def position(recs):
    """The records as a step is given them: the play's position (each record checked)."""
    return plays.check("yuncos", recs, None)


def move_form(turn: dict, spec, with_dice: bool, start: int | None = None) -> dict[str, str]:
    """The form the page sends for one turn of a random player's record."""
    form = {"flight": turn["flight"]}
    if turn.get("crash"):
        form["puzzle"] = "crash"
    else:
        form["puzzle"] = turn["puzzle"].split(".")[0]  # the page offers rows and columns: their next free box
        form["value"] = str(turn["value"])
    if with_dice:
        form["die1"], form["die2"] = map(str, turn["dice"])
    kinds = [u if u in ("plusminus", "yunco", "diagonal") else box_kind(spec, u) for u in turn.get("use", [])]
    form["plusminus"] = str(kinds.count("plusminus"))
    form["yunco"] = str(kinds.count("yunco"))
    if start is not None:
        form["start"] = str(start)
    return form


def enter(games, lid):
    """Every turn of the games entered as the page does: turn by turn, the players in order;
    the first to enter a turn enters its dice."""
    spec = layout(lid).spec
    recs = Y.blank_sheets(lid, NAMES[:len(games)])
    longest = max(len(g.record["turn"]) for g in games)
    for n in range(longest):
        first = True
        for i, g in enumerate(games):
            if n < len(g.record["turn"]):
                nxt = Y.next_turn(recs, Y.table_check(recs))
                assert (nxt.seat, nxt.number) == (i, n + 1)
                start = g.record["start"] if n == 0 else None
                recs = Y.add_move(position(recs), move_form(g.record["turn"][n], spec, first, start))
                first = False
    return recs


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lid=st.sampled_from(["yuncos-easy", "yuncos-hard"]), seed=st.integers(0, 2**32 - 1),
       players=st.integers(2, 5), rate=st.sampled_from([0.0, 0.6]))
@example(lid="yuncos-easy", seed=3, players=2, rate=0.6)
@example(lid="yuncos-hard", seed=62, players=2, rate=0.0)  # eliminated in the turn it came back to the island
def test_random_tables_entered_move_by_move_are_legal_with_the_players_scores(lid, seed, players, rate):
    games = play_table(layout(lid), random.Random(seed), players=players, ability_rate=rate)
    # a table the random player stopped at its most turns has not ended by the rules: not this test's
    assume(any(g.end not in (None, "eliminated") for g in games) or all(g.eliminated for g in games))
    recs = enter(games, lid)
    checked = Y.table_check(recs)
    v = checked.verdict
    assert v.errors == 0, v.to_text()
    assert [s.total for s in v.scores] == [g.total for g in games]
    standing = [(g.total, n) for g, n in zip(games, NAMES) if not g.eliminated]
    best = max((t for t, _ in standing), default=None)
    assert list(v.winners) == [n for t, n in standing if t == best]
    # the game ended by the rules: nothing more to enter, the sheets are finished
    assert Y.next_turn(recs, checked) is None
    assert not any(r.get("in_progress") for _, r in recs)
    # each sheet on its own (what the history keeps) agrees
    for r, g in zip(position(recs), games):
        assert r.verdict.legal and r.verdict.scores[0].total == g.total


@pytest.mark.parametrize("lid,seed", [("yuncos-easy", 1), ("yuncos-hard", 4)])
def test_a_solo_game_is_one_sheet_and_ends_by_the_rules(lid, seed):
    g = play(layout(lid), random.Random(seed), solo=True)
    recs = enter([g], lid)
    assert recs[0][1]["solo"] is True and "in_progress" not in recs[0][1]
    v = Y.table_check(recs).verdict
    assert v.legal and v.scores[0].total == g.total
    assert v.details.rank is not None


def fresh(lid="yuncos-easy", names=("Ana", "Bea")):
    return Y.blank_sheets(lid, list(names))


def test_the_dice_are_entered_once_per_turn_and_shared():
    recs = Y.add_move(position(fresh()), {"flight": "E E", "puzzle": "nest1", "value": "5", "die1": "2", "die2": "5", "start": "2"})
    nxt = Y.next_turn(recs, Y.table_check(recs))
    assert (nxt.seat, nxt.number, nxt.dice) == (1, 1, (2, 5))
    # the second player's form has no dice: the table's are used, whatever is sent
    recs = Y.add_move(position(recs), {"flight": "5W", "puzzle": "lum1", "value": "2", "die1": "6", "die2": "6"})
    assert [r["turn"][0]["dice"] for _, r in recs] == [[2, 5], [2, 5]]
    assert recs[0][1]["start"] == 2 and recs[1][1]["start"] == 1
    nxt = Y.next_turn(recs, Y.table_check(recs))
    assert (nxt.seat, nxt.number, nxt.dice) == (0, 2, None)


def test_a_move_that_breaks_a_rule_is_entered_with_its_finding():
    recs = Y.add_move(position(fresh()), {"flight": "E E", "puzzle": "nest1", "value": "5", "die1": "2", "die2": "5", "start": "2"})
    recs = Y.add_move(position(recs), {"flight": "W W", "puzzle": "nest1", "value": "5"})
    # turn 2: Ana flies three steps with dice 1 and 5 (Y4), Bea writes a 5 twice in nest row 1 (Y11)
    recs = Y.add_move(position(recs), {"flight": "N N N", "puzzle": "lum1", "value": "1", "die1": "1", "die2": "5"})
    recs = Y.add_move(position(recs), {"flight": "W", "puzzle": "nest1", "value": "5"})
    v = Y.table_check(recs).verdict
    rules = sorted((f.rule, f.at.get("player"), f.at.get("turn")) for f in v.findings if f.severity == "error")
    assert rules == [("Y11", "Bea", 2), ("Y4", "Ana", 2)]
    assert v.in_progress and not v.legal


def test_a_wrong_value_in_a_random_game_is_caught_with_its_rule():
    """A random game entered with one number changed to a different die: Y11 or Y12 (the
    number is not the puzzle die) at that turn."""
    g = play(layout("yuncos-easy"), random.Random(11), solo=True)
    turns = g.record["turn"]
    k = next(i for i, tn in enumerate(turns) if not tn.get("crash") and tn["dice"][0] != tn["dice"][1]
             and 6 not in tn["dice"])
    bad = dict(turns[k], value=6)
    wrong = copy.deepcopy(g)
    wrong.record["turn"] = turns[:k] + [bad]
    recs = enter([wrong], "yuncos-easy")
    f = [f for f in Y.table_check(recs).verdict.findings if f.severity == "error"]
    assert f and f[0].at["turn"] == k + 1 and f[0].rule in ("Y11", "Y12")


def test_undo_removes_the_last_move_and_the_game_goes_on():
    g = play_table(layout("yuncos-easy"), random.Random(5), players=2)
    recs = enter(g, "yuncos-easy")
    assert not any(r.get("in_progress") for _, r in recs)
    before = copy.deepcopy(recs)
    pos = position(recs)
    back = Y.undo(pos)
    assert recs == before and records_of(pos) == before  # the input is never changed
    seat = Y.last_move(recs)
    assert len(back[seat][1]["turn"]) == len(recs[seat][1]["turn"]) - 1
    assert all(r.get("in_progress") for _, r in back)
    nxt = Y.next_turn(back, Y.table_check(back))
    assert nxt.seat == seat
    for _ in range(sum(len(r["turn"]) for _, r in back)):
        back = Y.undo(position(back))
    assert all(r["turn"] == [] for _, r in back)
    with pytest.raises(FormError):
        Y.undo(position(back))


def test_after_the_end_no_move_is_entered():
    recs = enter(play_table(layout("yuncos-easy"), random.Random(5), players=2), "yuncos-easy")
    with pytest.raises(FormError, match="over"):
        Y.add_move(position(recs), {"flight": "E", "puzzle": "nest1", "value": "1", "die1": "1", "die2": "1"})


def test_ending_a_table_early_is_a_y21_warning():
    recs = Y.add_move(position(fresh()), {"flight": "E E", "puzzle": "nest1", "value": "5", "die1": "2", "die2": "5"})
    recs = Y.add_move(position(recs), {"flight": "W W", "puzzle": "nest1", "value": "5"})
    done = Y.finish(position(recs), {})
    v = Y.table_check(done).verdict
    assert not v.in_progress and v.legal
    assert [(f.rule, f.severity) for f in v.findings] == [("Y21", "warning")]
    with pytest.raises(FormError):
        Y.finish(position(fresh()), {})


BAD_FORMS = [
    ({"flight": ""}, "Flight"),
    ({"flight": "Z Z"}, "is not a step"),
    ({"flight": "99E"}, "repeat count"),
    ({"flight": "O"}, "west is W"),
    ({"flight": "E" * 500}, "longer than any flight"),
    ({"flight": "ßE"}, "is not a step"),
    ({"puzzle": "lum9"}, "not one of the choices"),
    ({"puzzle": "nest3"}, "not one of the choices"),
    ({"puzzle": ""}, "Choose where the number goes"),
    ({"value": "7"}, "The number"),
    ({"value": "4.0"}, "The number"),
    ({"value": "9" * 400}, "The number"),
    ({"value": ""}, "missing"),
    ({"die1": "0"}, "Die 1"),
    ({"die2": ""}, "Die 2: missing"),
    ({"plusminus": "-1"}, "±1"),
    ({"yunco": "99"}, "Yunco"),
    ({"start": "9"}, "Start point"),
    ({"start": "x"}, "Start point"),
    ({"seat": "1"}, "not for the next move"),
    ({"turn": "7"}, "not for the next move"),
]


@pytest.mark.parametrize("change,words", BAD_FORMS)
def test_a_value_that_is_no_move_is_one_message_and_nothing_changes(change, words):
    good = {"flight": "E E", "puzzle": "nest1", "value": "5", "die1": "2", "die2": "5", "seat": "0", "turn": "1"}
    recs = fresh()
    before = copy.deepcopy(recs)
    pos = position(recs)
    with pytest.raises(FormError, match=None) as e:
        Y.add_move(pos, {**good, **change})
    assert words in str(e.value)
    assert "\n" not in str(e.value)
    assert recs == before and records_of(pos) == before


def test_new_plays_are_one_to_five_named_players_of_a_level():
    recs = Y.blank_sheets("yuncos-hard", ["Ana"])
    assert recs[0][1]["solo"] is True and recs[0][1]["in_progress"] is True
    assert engine.check(engine.parse(recs[0][1], "x")).verdict.legal
    for level, names, words in (("yuncos-easy", [], "1 to 5"), ("yuncos-easy", NAMES + ["Fer"], "1 to 5"),
                                ("yuncos-easy", ["Ana", "ana"], "twice"), ("yuncos", ["Ana"], "choices"),
                                ("../x.toml", ["Ana"], "choices")):
        with pytest.raises(FormError, match=words):
            Y.blank_sheets(level, names)


def test_the_in_memory_table_gives_the_verdict_of_the_downloaded_files(tmp_path):
    """The table record and the sheets written to files, as downloaded: `sheetkit check` of
    the table record gives the page's verdict."""
    games = play_table(layout("yuncos-easy"), random.Random(8), players=3)
    recs = enter(games, "yuncos-easy")
    recs = Y.undo(position(recs))  # in progress, one move short
    (tmp_path / "table.toml").write_text(Y.table_text(recs), encoding="utf-8")
    on_disk = engine.check(engine.load(tmp_path / "table.toml")).verdict.to_json()
    page = Y.table_check(recs).verdict.to_json()
    on_disk.pop("source"), page.pop("source")
    assert on_disk == page


def test_the_in_memory_table_opens_no_file():
    from sheetkit.errors import UserError
    from sheetkit.games.yuncos.table import table_from_sheets

    sheet = dict(fresh()[0][1], layout="/etc/passwd")
    with pytest.raises(UserError, match=r"player\[0\].sheet.layout: a record given here cannot name a file"):
        table_from_sheets([("Ana", sheet), ("Bea", fresh()[1][1])], "play")
    with pytest.raises(UserError, match="2 to 6 players"):
        table_from_sheets([("Ana", fresh()[0][1])], "play")
