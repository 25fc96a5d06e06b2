"""A whole Yuncos table: one record naming every player's sheet, checked together.

Tables come from the random player (play_table): every player plays on the same dice, and
the game stops after the turn in which the first player ends it.
"""

import random
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sheetkit import games, layouts
from sheetkit.checking import records
from sheetkit.games.yuncos.play import play_table, to_toml

from conftest import ROOT, assert_user_error, sheetkit

NAMES = ["Ana", "Bea", "Caro", "Dani", "Eli", "Fer"]


@lru_cache(maxsize=None)
def layout(lid):
    return layouts.load(lid)


def write_table(folder, sheets, names=None, extra=""):
    names = names or NAMES[:len(sheets)]
    for n, rec in zip(names, sheets):
        (folder / f"{n}.toml").write_text(to_toml(rec), encoding="utf-8")
    body = "".join(f'\n[[player]]\nname = "{n}"\nsheet = "{n}.toml"\n' for n in names)
    path = folder / "table.toml"
    path.write_text(f'game = "yuncos"\nkind = "table"\n{extra}' + body, encoding="utf-8")
    return path


def verdict(path):
    return records.check(records.load(path)).verdict


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(lid=st.sampled_from(["yuncos-easy", "yuncos-hard"]), seed=st.integers(0, 2**32 - 1),
       players=st.integers(2, 6), rate=st.sampled_from([0.0, 0.6]))
@example(lid="yuncos-hard", seed=62, players=2, rate=0.0)  # eliminated in the turn it came back to the island
def test_every_random_table_is_legal_with_every_score_the_ranking_and_the_winners(tmp_path, lid, seed, players, rate):
    gs = play_table(layout(lid), random.Random(seed), players=players, ability_rate=rate)
    v = verdict(write_table(tmp_path, [g.record for g in gs]))
    assert v.errors == 0, v.to_text()
    assert [s.player for s in v.scores] == NAMES[:players]
    assert [s.total for s in v.scores] == [g.total for g in gs]
    standing = [(g.total, n) for g, n in zip(gs, NAMES) if not g.eliminated]
    best = max((t for t, _ in standing), default=None)
    assert list(v.winners) == [n for t, n in standing if t == best]
    ranking = v.info["ranking"]
    assert [r["total"] for r in ranking] == sorted((g.total for g in gs), reverse=True)
    assert all(r["rank"] == 1 + sum(o["total"] > r["total"] for o in ranking) for r in ranking)


def table_game(seed=2, players=3, **kw):
    return [g.record for g in play_table(layout("yuncos-easy"), random.Random(seed), players=players, **kw)]


def test_dice_that_disagree_between_sheets_are_a_finding_on_the_odd_sheet(tmp_path):
    sheets = table_game()
    t = sheets[1]["turn"][2]
    t["dice"] = [t["dice"][0] % 6 + 1, t["dice"][1] % 6 + 1]
    v = verdict(write_table(tmp_path, sheets))
    odd = [f for f in v.findings if "rolled for every player" in f.message]
    assert len(odd) == 1 and odd[0].at["player"] == "Bea" and odd[0].at["turn"] == 3
    assert odd[0].where == "Bea, turn 3"


def test_a_sheet_that_goes_on_after_the_game_ended_is_y21(tmp_path):
    gs = play_table(layout("yuncos-easy"), random.Random(2))
    ender = next(i for i, g in enumerate(gs) if g.end in ("island", "puzzles"))
    other = (ender + 1) % len(gs)
    sheets = [g.record for g in gs]
    sheets[other]["turn"].append({"flight": "S S", "puzzle": "nest2", "value": 1})
    v = verdict(write_table(tmp_path, sheets))
    y21 = [f for f in v.findings if f.rule == "Y21"]
    assert y21 and y21[0].at == {"player": NAMES[other], "turn": len(gs[ender].log) + 1}
    assert NAMES[ender] in y21[0].message


def test_a_sheet_that_stops_early_is_y21(tmp_path):
    sheets = table_game()
    sheets[0]["turn"].pop()
    v = verdict(write_table(tmp_path, sheets))
    assert any(f.rule == "Y21" and f.at.get("player") == "Ana" and "stops after" in f.message for f in v.findings)


def test_an_eliminated_player_cannot_win_even_with_more_points(tmp_path):
    # hard, seed 0, 6 players: the first sheet is eliminated with 31 points, the second is not, with 27
    gs = play_table(layout("yuncos-hard"), random.Random(0), players=6, ability_rate=0.0)
    assert gs[0].eliminated and not gs[1].eliminated and gs[0].total > gs[1].total
    v = verdict(write_table(tmp_path, [gs[0].record, gs[1].record], extra="in_progress = true\n"))
    assert v.errors == 0, v.to_text()
    assert v.scores[0].eliminated and list(v.leading) == ["Bea"] and not v.winners  # in progress: who leads


def test_equal_totals_share_the_win(tmp_path):
    sheet = table_game(players=1)[0]
    v = verdict(write_table(tmp_path, [sheet, sheet]))
    assert list(v.winners) == ["Ana", "Bea"] and [r["rank"] for r in v.info["ranking"]] == [1, 1]
    assert "shared win: Ana, Bea" in v.to_text()


def test_a_table_in_progress_has_no_end_of_game_finding(tmp_path):
    sheets = [dict(s, turn=s["turn"][:3]) for s in table_game()]
    for s, g in zip(sheets, play_table(layout("yuncos-easy"), random.Random(2))):
        s.update({k: g.log[2]["sheet"][k] for k in ("fish_marked", "crashes_marked", "used")})
    v = verdict(write_table(tmp_path, sheets, extra="in_progress = true\n"))
    assert v.legal and v.in_progress and not v.findings, v.to_text()
    sheets[0]["turn"].pop()  # in progress, a player may be a turn behind the others
    v = verdict(write_table(tmp_path, sheets, extra="in_progress = true\n"))
    assert not any(f.severity == "error" for f in v.findings)


def test_the_table_is_a_record_kind_and_the_examples_check():
    assert "table" in games.get("yuncos").record_kinds
    assert verdict(ROOT / "examples" / "yuncos-table-3p.toml").legal
    bad = verdict(ROOT / "examples" / "yuncos-table-3p-illegal.toml")
    assert {(f.rule, f.at.get("player")) for f in bad.findings} >= {("Y4", "Ana"), ("Y21", "Caro")}


@pytest.mark.parametrize("change, words", [
    (lambda t, d: t.write_text(t.read_text().split("[[player]]")[0] + '[[player]]\nname = "Ana"\nsheet = "Ana.toml"\n'),
     "2 to 6 players"),
    (lambda t, d: t.write_text(t.read_text().replace('sheet = "Bea.toml"', 'sheet = "Nobody.toml"')), "no such sheet file"),
    (lambda t, d: t.write_text(t.read_text().replace('sheet = "Bea.toml"', 'sheet = "Ana.toml"')), "name the same sheet"),
    (lambda t, d: t.write_text(t.read_text().replace('name = "Bea"', 'name = "Ana"')), "appears twice"),
    (lambda t, d: (d / "Bea.toml").write_text("solo = true\n" + (d / "Bea.toml").read_text()), "not a solo game"),
    (lambda t, d: (d / "Bea.toml").write_text((d / "Bea.toml").read_text().replace("yuncos-easy", "yuncos-hard")),
     "different levels"),
    (lambda t, d: (d / "Bea.toml").write_text('game = "yuncos"\nkind = "table"\n'), "table record, not a player's sheet"),
])
def test_unusable_tables_are_one_line_exit_2(tmp_path, change, words):
    path = write_table(tmp_path, table_game())
    change(path, tmp_path)
    assert_user_error(sheetkit("check", path), words)
