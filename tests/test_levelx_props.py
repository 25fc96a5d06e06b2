"""Property tests: random legal Level X games are accepted, score the same from their final
position, and any single fault put into them is caught with the right rule.

The games are played by play.py's own simulation of RULES.md, not by the checker. Hypothesis
draws them turn by turn (dice and a grouping), so that a failing game shrinks to a few turns
(finished with fixed dice); seeded games with more or less greedy groupings add variety."""

import copy
import random

import pytest

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sheetkit.games.levelx.play import play_out, random_game, splits
from sheetkit.games.levelx.rules import ROWS, groupings, is_partition, supply

from conftest import check_data

NAMES = ["Ana", "Ben", "Cleo", "Dario"]

def _seeded(greedy):
    return st.builds(lambda seed, n, g: random_game(random.Random(seed), NAMES[:n], g),
                     st.integers(0, 2**32 - 1), st.integers(2, 4), greedy)


dice = st.lists(st.integers(1, 6), min_size=4, max_size=4)
turns = st.lists(st.tuples(dice, st.integers(0, 14)), max_size=80)  # 15 groupings of 4 dice
drawn = st.builds(lambda n, choices: play_out(NAMES[:n], choices)[:2], st.integers(2, 4), turns)
# grouping at random more often gives bonus tiles; greedy grouping ends games sooner
games = st.one_of(drawn, _seeded(st.sampled_from([0.0, 0.4, 0.7, 1.0])))


def _with_a_tile(seed: int, n: int):
    """A random game (grouping at random) in which a bonus tile is taken: on the board's rows
    of up to 7 squares about one game in four, so the next seeds are tried until one is."""
    for k in range(seed, seed + 500):
        record, final = random_game(random.Random(k), NAMES[:n], 0.0)
        if any(p["bonuses"] for p in final["player"]):
            return record, final
    raise AssertionError("no bonus tile in 500 games")  # pragma: no cover


games_for_bonuses = st.builds(_with_a_tile, st.integers(0, 2**32 - 1), st.integers(2, 4))

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def verdict(data: dict, source: str = "random.toml"):
    return check_data(data, source)


def found(v) -> list[tuple[str, str]]:
    for f in v.findings:  # every finding is said in Spanish too (a missing message raises in tests)
        assert f.text is not None and f.place is not None and f.line("es").removeprefix("aviso ").split()[0] == f.rule
    return [(f.rule, f.where) for f in v.findings]


@SETTINGS
@given(games)
def test_random_games_are_legal_and_score_like_their_final_position(game):
    record, final = game
    g = verdict(record)
    f = verdict(final)
    assert g.legal, g.to_text()
    assert f.legal, f.to_text()
    assert [(s.player, s.total) for s in g.scores] == [(s.player, s.total) for s in f.scores]
    assert g.winners == f.winners
    assert g.scores[0].notes == ["(1)"]
    n = len(record["players"])
    assert len(record["turn"]) % n == 0  # the last round is complete
    # the supply is never overdrawn
    for r in ROWS:
        assert sum(p["chips"].get(str(r), 0) for p in final["player"]) <= supply(n)[r]


@SETTINGS
@given(games, st.data())
def test_a_die_that_was_not_rolled_is_L4(game, data):
    record = copy.deepcopy(game[0])
    i = data.draw(st.integers(0, len(record["turn"]) - 1))
    j = data.draw(st.integers(0, 3))
    turn = record["turn"][i]
    turn["dice"][j] = turn["dice"][j] % 6 + 1
    assert found(verdict(record)) == [("L4", f"turn {i + 1}")]


@SETTINGS
@given(games)
def test_a_missing_last_turn_is_L8(game):
    record = copy.deepcopy(game[0])
    record["turn"].pop()
    v = verdict(record)
    assert found(v) == [("L8", f"after turn {len(record['turn'])}")]


@SETTINGS
@given(games, st.lists(st.integers(1, 6), min_size=4, max_size=4))
def test_a_turn_after_the_end_is_L8(game, dice):
    record = copy.deepcopy(game[0])
    record["turn"].append({"dice": dice, "groups": [dice]})
    assert found(verdict(record)) == [("L8", f"turn {len(record['turn'])}")]


@SETTINGS
@given(games, st.data())
def test_a_wrong_chip_claim_is_L6(game, data):
    record = copy.deepcopy(game[0])
    i = data.draw(st.integers(0, len(record["turn"]) - 1))
    extra = data.draw(st.sampled_from(ROWS))
    # four chips already (four groups on X, as four 5s on the 2 squares of row 5): a fifth
    # is no turn at all, refused as input (one chip a group at most, four groups at most)
    assume(len(record["turn"][i]["chips"]) < 4)
    record["turn"][i]["chips"] = record["turn"][i]["chips"] + [extra]
    assert found(verdict(record)) == [("L6", f"turn {i + 1}")]


@SETTINGS
@given(games, st.data())
def test_a_wrong_bonus_claim_is_L7(game, data):
    record = copy.deepcopy(game[0])
    i = data.draw(st.integers(0, len(record["turn"]) - 1))
    turn = record["turn"][i]
    turn["bonuses"] = turn["bonuses"][:-1] if turn["bonuses"] else [15]
    assert found(verdict(record)) == [("L7", f"turn {i + 1}")]


@SETTINGS
@given(games, st.data())
def test_out_of_turn_is_L8(game, data):
    record = copy.deepcopy(game[0])
    i = data.draw(st.integers(0, len(record["turn"]) - 1))
    turn = record["turn"][i]
    others = [p for p in record["players"] if p != turn["player"]]
    turn["player"] = data.draw(st.sampled_from(others))
    assert found(verdict(record)) == [("L8", f"turn {i + 1}")]


@SETTINGS
@given(games, st.data())
def test_overdrawn_stack_is_L2(game, data):
    final = copy.deepcopy(game[1])
    n = len(final["player"])
    r = data.draw(st.sampled_from(ROWS))
    who = data.draw(st.integers(0, n - 1))
    taken = sum(p["chips"].get(str(r), 0) for p in final["player"])
    chips = final["player"][who]["chips"]
    chips[str(r)] = chips.get(str(r), 0) + supply(n)[r] - taken + 1
    v = verdict(final)
    l2 = [f for f in v.findings if f.rule == "L2"]
    assert [f.at for f in l2] == [{"row": r}], v.to_text()


@SETTINGS
@given(games_for_bonuses, st.data())
def test_a_missing_bonus_tile_is_L7(game, data):
    final = copy.deepcopy(game[1])
    holders = [p for p in final["player"] if p["bonuses"]]
    assume(holders)
    p = data.draw(st.sampled_from(holders))
    p["bonuses"].pop()
    v = verdict(final)
    rules = {f.rule for f in v.findings}
    # the tile left behind breaks L7; if the tiles running out ended the game, also L8
    assert "L7" in rules and rules <= {"L7", "L8"}, v.to_text()


@SETTINGS
@given(games, st.data())
def test_a_tile_held_twice_is_L3(game, data):
    final = copy.deepcopy(game[1])
    held = [b for p in final["player"] for b in p["bonuses"]]
    tile = data.draw(st.sampled_from(held)) if held else 20
    p = data.draw(st.sampled_from(final["player"]))
    p["bonuses"].append(tile)
    v = verdict(final)
    assert "L3" in [f.rule for f in v.findings], v.to_text()


@given(st.lists(st.integers(1, 6), min_size=4, max_size=4))
def test_the_checker_offers_every_grouping_once(dice):
    def canon(groups):
        return tuple(sorted(tuple(sorted(g)) for g in groups))
    parts = splits(dice)
    assert len(parts) == 15  # Bell number B4: the ways to split 4 dice into groups
    offered = groupings(dice)
    assert all(is_partition(dice, g) for g in offered)
    assert sorted(map(canon, offered)) == sorted(set(map(canon, parts)))



def _all_tiles_taken(count=12):
    """Finals of simulated games in which every tile was taken and not by the first player."""
    out = []
    for seed in range(1000):
        n = 2 + seed % 3
        _, final = random_game(random.Random(seed), NAMES[:n], 0.0)
        held = {b for p in final["player"] for b in p["bonuses"]}
        if held == {15, 12, 9, 6} and 6 not in final["player"][0]["bonuses"]:
            out.append(final)
            if len(out) == count:
                break
    return out


@pytest.mark.parametrize("final", _all_tiles_taken(), ids=lambda f: f"{len(f['player'])}p")
def test_an_extra_set_for_a_player_before_the_last_tile_taker_is_L7(final):
    taker = next(i for i, p in enumerate(final["player"]) if 6 in p["bonuses"])
    assert verdict(final).legal
    for i in range(taker):
        f = copy.deepcopy(final)
        p = f["player"][i]
        p["chips"] = {str(r): p["chips"].get(str(r), 0) + 1 for r in ROWS}  # one more set, no tile
        v = verdict(f)
        assert ("L7", f"player {p['name']}") in found(v), v.to_text()
