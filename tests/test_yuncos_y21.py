"""Y21, as ruled in RULES.md:

    "Y21. The game ends after the turn in which any player completes both puzzles, or
    touches any island vertex after passing at least 4 distinct stars. The end is met at the
    step where it happens: a crash later in the same flight that eliminates that player
    (Y20) does not undo it; the game still ends after that turn, and the eliminated player
    cannot win."

The games come from the random player (sheetkit.games.yuncos.play), which works out the
end by itself from the flight it draws, not from the checker.
"""

from __future__ import annotations

import random

from sheetkit import layouts
from sheetkit.checking import records
from sheetkit.games.yuncos.play import play, play_table, to_toml

from conftest import ROOT

RULES = (ROOT.parent / "shared" / "RULES.md")


def check(tmp_path, sheets: list[dict], names=("Ana", "Bea")):
    for n, rec in zip(names, sheets):
        (tmp_path / f"{n}.toml").write_text(to_toml(rec), encoding="utf-8")
    body = "".join(f'\n[[player]]\nname = "{n}"\nsheet = "{n}.toml"\n' for n in names[:len(sheets)])
    (tmp_path / "table.toml").write_text('game = "yuncos"\nkind = "table"\n' + body, encoding="utf-8")
    return records.check(records.load(tmp_path / "table.toml")).verdict


def test_the_ruling_is_the_one_quoted_here():
    if RULES.is_file():  # beside the checkout, as the project keeps it
        text = " ".join(RULES.read_text(encoding="utf-8").split())
        assert "The end is met at the step where it happens: a crash later in the same flight that eliminates" in text


def test_back_at_the_island_then_eliminated_later_in_the_flight_still_ends_the_table(tmp_path):
    gs = play_table(layouts.load("yuncos-hard"), random.Random(62), players=2, ability_rate=0.0)
    ana, bea = gs
    assert ana.end == "island" and ana.eliminated and not bea.eliminated  # as the player drew it
    turns = len(ana.record["turn"])
    v = check(tmp_path, [ana.record, bea.record])
    assert v.errors == 0 and not [f for f in v.findings if f.rule == "Y21"], v.to_text()
    assert v.info["end"]["player"] == "Ana" and v.info["end"]["turn"] == turns
    assert "Island" in str(v.details.end["reason"])
    assert list(v.winners) == ["Bea"] and v.scores[0].eliminated  # Ana cannot win


def test_a_sheet_going_on_after_such_an_end_is_y21(tmp_path):
    gs = play_table(layouts.load("yuncos-hard"), random.Random(62), players=2, ability_rate=0.0)
    ana, bea = gs
    bea_more = dict(bea.record, turn=bea.record["turn"] + [{"flight": "S", "crash": True}])
    v = check(tmp_path, [ana.record, bea_more])
    late = [f for f in v.findings if f.rule == "Y21"]
    assert late and late[0].at == {"player": "Bea", "turn": len(ana.record["turn"]) + 1}, v.to_text()
    assert "Ana" in late[0].message


def test_the_sheet_alone_says_the_game_ended_and_the_yunco_was_eliminated():
    g = play(layouts.load("yuncos-hard"), random.Random(10), solo=True)
    assert g.end == "island" and g.eliminated
    v = records.check(records.parse(g.record, "solo.toml")).verdict
    assert v.legal and v.scores[0].eliminated
    assert v.info["end"]["turn"] == v.info["eliminated"] == len(g.record["turn"])


def test_a_crash_earlier_in_the_flight_eliminates_the_yunco_before_it_reaches_the_island():
    g = play(layouts.load("yuncos-hard"), random.Random(528), solo=True)
    last = g.log[-1]
    assert g.end == "eliminated" and last["island"] and last["crossing"]  # crossed its path, then the island
    v = records.check(records.parse(g.record, "solo.toml")).verdict
    assert v.legal and v.scores[0].eliminated and v.info["end"] is None, v.to_text()
