"""Standings on small histories worked out by hand."""

from __future__ import annotations

import pytest

from sheetkit.history import NewPlay, Store, intake

from historyutil import EXAMPLES, play, sheet


@pytest.fixture
def store(tmp_path):
    s = Store.open(tmp_path / "h.sqlite3")
    s.add_plays([
        play("glux", {"Ana": 10, "Ben": 5}, ["Ana"], when="2026-10-01 20:00:00"),
        play("glux", {"Ana": 7, "Ben": 12, "Carla": 9}, ["Ben"], when="2026-10-08 20:00:00"),
        play("glux", {"Ana": 14, "Carla": 3}, ["Ana"], when="2026-10-15 20:00:00"),
        play("glux", {"Ana": 99, "Ben": 1}, ["Ana"], when="2026-10-16 20:00:00", legal=False),  # not counted
        play("levelx", {"Ana": 20, "Ben": 30}, [], when="2026-10-17 20:00:00", in_progress=True),  # not counted
        NewPlay("yuncos", (sheet("Ana", 53, solo=True, rank="Fearless night flyer"),), "2026-10-02 10:00:00"),
        NewPlay("yuncos", (sheet("Ana", 64, solo=True, rank="Skilled night adventurer"),), "2026-10-20 10:00:00"),
        NewPlay("yuncos", (sheet("Ben", 40, solo=True, rank="Abandoned for the first time in the nest"),),
                "2026-10-03 10:00:00"),
    ])
    yield s
    s.close()


def rows(stats):
    return {(p.player, p.game): (p.plays, p.wins, p.contested, None if p.average is None else round(p.average, 3),
                                 p.best, p.last_played[:10]) for p in stats.players}


def test_standings_per_player_and_game(store):
    st = store.stats()
    assert rows(st) == {
        ("Ana", "glux"): (3, 2, 3, 10.333, 14, "2026-10-15"),  # (10 + 7 + 14) / 3
        ("Ben", "glux"): (2, 1, 2, 8.5, 12, "2026-10-08"),      # (5 + 12) / 2
        ("Carla", "glux"): (2, 0, 2, 6.0, 9, "2026-10-15"),     # (9 + 3) / 2
        ("Ana", "yuncos"): (2, 0, 0, 58.5, 64, "2026-10-20"),   # solo: no win rate
        ("Ben", "yuncos"): (1, 0, 0, 40.0, 40, "2026-10-03"),
    }
    rates = {(p.player, p.game): p.win_rate for p in st.players}
    assert rates[("Ana", "glux")] == pytest.approx(2 / 3) and rates[("Ana", "yuncos")] is None
    assert [(g.game, g.plays, g.last_played[:10], g.best, g.best_by) for g in st.games] == [
        ("glux", 3, "2026-10-15", 14, "Ana"), ("yuncos", 3, "2026-10-20", 64, "Ana")]
    assert [(r.player, r.played_at[:10], r.total, r.rank) for r in st.solo_ranks] == [
        ("Ana", "2026-10-02", 53, "Fearless night flyer"), ("Ana", "2026-10-20", 64, "Skilled night adventurer"),
        ("Ben", "2026-10-03", 40, "Abandoned for the first time in the nest")]
    assert (st.in_progress, st.illegal) == (1, 1)
    # the order within a game: most wins first
    assert [p.player for p in st.players if p.game == "glux"] == ["Ana", "Ben", "Carla"]


def test_filters(store):
    ana = store.stats(player="ana")
    assert set(rows(ana)) == {("Ana", "glux"), ("Ana", "yuncos")}
    assert [r.player for r in ana.solo_ranks] == ["Ana", "Ana"]
    assert (ana.in_progress, ana.illegal) == (1, 1)
    assert set(rows(store.stats(game="yuncos"))) == {("Ana", "yuncos"), ("Ben", "yuncos")}
    late = store.stats(since="2026-10-10 00:00:00")
    assert rows(late) == {("Ana", "glux"): (1, 1, 1, 14.0, 14, "2026-10-15"),
                          ("Carla", "glux"): (1, 0, 1, 3.0, 3, "2026-10-15"),
                          ("Ana", "yuncos"): (1, 0, 0, 64.0, 64, "2026-10-20")}
    assert store.stats(player="Nobody").players == []


def test_the_text_and_json_views(store):
    st = store.stats()
    text = "\n".join(st.lines())
    assert "glux: 3 play(s), last 2026-10-15, best 14 by Ana (2026-10-15)" in text
    assert "  Ana         3     2       67%     10.3    14  2026-10-15" in text
    assert "  2026-10-20  Ana: 64 Skilled night adventurer" in text
    assert "not counted: 1 in progress, 1 illegal" in text
    j = st.to_json()
    assert j["not_counted"] == {"in_progress": 1, "illegal": 1, "abandoned": 0}
    assert {"player": "Ana", "game": "glux", "plays": 3, "wins": 2, "contested": 3, "win_rate": 0.6667,
            "average": 10.33, "best": 14, "last_played": "2026-10-15 20:00:00"} in j["players"]


def test_an_empty_history(tmp_path):
    with Store.open(tmp_path / "h.sqlite3") as s:
        st = s.stats()
        assert st.players == [] and st.lines() == ["no finished legal plays in the history yet"]


def test_real_records_end_to_end(tmp_path):
    with Store.open(tmp_path / "h.sqlite3") as s:
        s.add_plays(intake.plays_from_files([str(EXAMPLES / f) for f in
                                             ("glux-game-3p.toml", "iunu-game.toml", "levelx-game.toml")]))
        s.add_plays(intake.plays_from_files([str(EXAMPLES / "yuncos-easy-legal.toml")], ("Ana",)))
        st = s.stats()
    r = rows(st)
    # Glüx 12/18/16 (Ben), IUNU 34/31/34 (Carla on the tiebreak), Level X 117/100/124 (Carla)
    assert r[("Carla", "iunu")][:2] == (1, 1) and r[("Ana", "iunu")][:2] == (1, 0)
    assert r[("Ben", "glux")][:2] == (1, 1) and r[("Carla", "levelx")][4] == 124
    assert [(x.player, x.total, x.rank) for x in st.solo_ranks] == [("Ana", 53, "Fearless night flyer")]
