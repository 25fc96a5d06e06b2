"""Level X rules L1-L9: the replay engine by hand, final positions, findings, bad input."""

import copy
from pathlib import Path

import pytest

from sheetkit.checking import records
from sheetkit.errors import UserError
from sheetkit.games.levelx.board import shipped, squares
from sheetkit.games.levelx.rules import BONUSES, CHIPS, ROWS, State, supply

from conftest import assert_unusable, check_data, read_data

ROOT = Path(__file__).resolve().parent.parent


def rules_of(v) -> list[str]:
    return [f.rule for f in v.findings]


def game_verdict(players, turns):
    data = {"game": "levelx", "kind": "game", "players": players,
            "turn": [dict(t) for t in turns]}
    return check_data(data, "g.toml")


def final_verdict(*players):
    data = {"game": "levelx", "kind": "final", "player": list(players)}
    return check_data(data, "f.toml")


def full(n: int) -> dict:
    return {str(r): n for r in ROWS}


# -- the board and supply (L1-L3) -------------------------------------------------------------

def test_board_constants():
    assert ROWS == (5, 6, 7, 8, 9, 10)
    # L1: the shipped board's rows, each of a different length, 2 to 7 squares (X the last)
    assert [squares(shipped())[r] for r in ROWS] == [2, 3, 4, 5, 6, 7]
    assert State.start(["A", "B"]).squares == {5: 2, 6: 3, 7: 4, 8: 5, 9: 6, 10: 7}
    assert [CHIPS[r] for r in ROWS] == [12, 11, 10, 9, 8, 7]
    assert BONUSES == (15, 12, 9, 6)
    assert supply(4)[5] == 12 and supply(3)[5] == 11 and supply(2)[10] == 6


# -- movement, bumping, chips, bonuses (L4-L7) ----------------------------------------------

def test_movement_and_reaching_x_takes_a_chip():
    g = State.start(["A", "B"])  # row 5: 2 squares, the second X
    g, _ = g.play_group("A", 5)
    assert g.pos["A"][5] == 1 and g.chips["A"][5] == 0
    g, ev = g.play_group("A", 5)
    assert ev.moved and ev.chip and g.pos["A"][5] == 2 and g.chips["A"][5] == 1 and ev.x == 2
    g, ev = g.play_group("A", 5)  # on X: does not move, takes another chip
    assert not ev.moved and ev.chip and g.chips["A"][5] == 2
    assert g.stacks[5] == supply(2)[5] - 2
    for k in range(1, 7):  # row 10: 7 squares, X the 7th
        g, ev = g.play_group("B", 10)
        assert ev.moved and not ev.chip and g.pos["B"][10] == k
    g, ev = g.play_group("B", 10)
    assert ev.moved and ev.chip and g.pos["B"][10] == 7 == ev.x


def test_a_turn_leaves_the_state_it_was_played_on_as_it_was():
    g = State.start(["A", "B"])
    g, _ = g.play([[4, 1], [1, 1]])
    g, _ = g.play([[4, 5], [1, 1]])
    before = g.copy()
    after, events = g.play([[4, 1], [1, 1]])  # A reaches X in row 5 and takes a chip
    assert g == before and after != before
    assert after.pos["A"][5] == 2 and g.pos["A"][5] == 1 and events[0].chip


def test_totals_outside_5_to_10_do_nothing():
    g = State.start(["A", "B"])
    for t in (2, 3, 4, 11, 12, 24):
        g, ev = g.play_group("A", t)
        assert not ev.moved and not ev.chip
    assert all(p == 0 for p in g.pos["A"].values())


def test_bumping_from_x():
    g = State.start(["A", "B"])
    g, _ = g.play_group("A", 5)
    g, _ = g.play_group("A", 5)
    assert g.on_x[5] == "A"
    g, _ = g.play_group("B", 5)
    g, ev = g.play_group("B", 5)
    assert ev.bumped == "A" and g.pos["A"][5] == 0 and g.on_x[5] == "B"
    assert g.chips == {"A": {**{r: 0 for r in ROWS}, 5: 1}, "B": {**{r: 0 for r in ROWS}, 5: 1}}


def test_no_chip_once_the_row_is_empty():
    g = State.start(["A", "B"])
    g.stacks[5] = 1
    g, _ = g.play_group("A", 5)
    g, ev = g.play_group("A", 5)
    assert ev.chip
    g, ev = g.play_group("A", 5)
    assert not ev.chip
    assert g.stacks[5] == 0 and g.chips["A"][5] == 1


def test_bonus_as_soon_as_a_set_completes_highest_first():
    g = State.start(["A", "B"])
    for r in ROWS:
        g.pos["A"][r] = g.squares[r]
        g.pos["B"][r] = g.squares[r]  # (one pawn per X in real play; fine for this test)
    for r in (5, 6, 7, 8, 9):
        g, _ = g.play_group("A", r)
    assert g.bonuses["A"] == []
    g, ev = g.play_group("A", 10)
    assert ev.bonuses == [15] and g.bonuses["A"] == [15]
    for r in ROWS:
        g, _ = g.play_group("B", r)
    assert g.bonuses["B"] == [12]
    for r in ROWS:
        g, _ = g.play_group("A", r)
    assert g.bonuses["A"] == [15, 9]


def test_end_and_completed_round_two_players():
    g = State.start(["A", "B"])
    g.bonus_left = [6]
    g.chips["A"] = {r: 0 for r in ROWS}
    for r in (5, 6, 7, 8, 9):
        g.chips["A"][r] = 1
    g.pos["A"][10] = g.squares[10] - 1  # one square short of X
    g, _ = g.play([[4, 6]])  # turn 1, A completes a set and takes the last tile: end triggered
    assert g.ended_at == 1 and not g.over() and g.last_turn() == 2
    g, _ = g.play([[1, 1, 1, 1]])  # turn 2: B plays one more turn
    assert g.over()


# -- whole-game records --------------------------------------------------------------------

T = {"dice": [1, 1, 1, 1], "groups": [[1, 1, 1, 1]]}  # a turn that does nothing


def test_group_findings_name_rule_and_turn():
    v = game_verdict(["A", "B"], [T, {"dice": [3, 4, 5, 2], "groups": [[3, 4], [5, 5]]}])
    assert rules_of(v)[0] == "L4"
    assert v.findings[0].where == "turn 2" and v.findings[0].at == {"turn": 2}
    assert rules_of(v)[-1] == "L8"  # and the record stops before the end


def test_claimed_chip_without_x():
    v = game_verdict(["A", "B"], [{"dice": [3, 4, 1, 1], "groups": [[3, 4], [1, 1]], "chips": [7]}])
    assert rules_of(v)[0] == "L6"
    assert "not on X" in v.findings[0].message


def test_wrong_player_for_the_turn():
    v = game_verdict(["A", "B"], [dict(T, player="A"), dict(T, player="A")])
    assert rules_of(v)[0] == "L8" and v.findings[0].where == "turn 2"


def test_turns_after_the_game_is_over(tmp_path):
    rec = records.load(ROOT / "examples" / "levelx-game.toml")
    data = rec.record.model_dump(exclude_none=True)
    data["turn"].append(T)
    v = check_data(data, "x.toml")
    assert rules_of(v) == ["L8"]
    assert v.findings[0].where == f"turn {len(data['turn'])}"


def test_round_not_completed():
    rec = records.load(ROOT / "examples" / "levelx-game.toml")
    data = rec.record.model_dump(exclude_none=True)
    full_game = records.check(rec).verdict
    ended = full_game.info["ended_on_turn"]
    assert ended < len(data["turn"])  # the example's end came before the last player's turn
    data["turn"] = data["turn"][:ended]
    v = check_data(data, "x.toml")
    assert rules_of(v) == ["L8"] and "round is not complete" in v.findings[0].message


def test_example_game_and_final_score_the_same():
    g = records.check(records.load(ROOT / "examples" / "levelx-game.toml")).verdict
    f = records.check(records.load(ROOT / "examples" / "levelx-final.toml")).verdict
    assert g.legal and f.legal
    assert [(s.player, s.total) for s in g.scores] == [(s.player, s.total) for s in f.scores]
    assert g.scores[0].notes == ["(1)"] and all(not s.notes for s in g.scores[1:])


# -- final positions ------------------------------------------------------------------------

def test_final_legal_with_bonuses():
    v = final_verdict({"name": "A", "chips": full(2), "bonuses": [15, 9]},
                      {"name": "B", "chips": full(1), "bonuses": [12]},
                      {"name": "C", "chips": full(1), "bonuses": [6]})
    assert v.legal, v.to_text()
    assert [s.total for s in v.scores] == [90 + 24, 45 + 12, 45 + 6]
    assert list(v.winners) == ["A"]


def test_final_ended_by_empty_rows_with_tiles_left():
    # 2 players: stacks 11, 10, 9, 8, 7, 6; rows 8, 9, 10 emptied
    v = final_verdict({"name": "A", "chips": {"8": 8, "9": 7, "10": 3}},
                      {"name": "B", "chips": {"10": 3}})
    assert v.legal, v.to_text()
    assert list(v.winners) == ["A"]


def test_final_tie_is_shared():
    # 2 players; rows 8, 9 and 10 empty. A: 64 + 63 + 30 = 157; B: 30 + 10 + 54 + 63 = 157
    v = final_verdict({"name": "A", "chips": {"8": 8, "9": 7, "10": 3}},
                      {"name": "B", "chips": {"10": 3, "5": 2, "6": 9, "7": 9}})
    assert v.legal, v.to_text()
    assert [s.total for s in v.scores] == [157, 157]
    assert list(v.winners) == ["A", "B"]


@pytest.mark.parametrize("players, rule, words", [
    ([{"name": "A", "chips": {"5": 12}}, {"name": "B"}], "L2", "the stack has 11 with 2 players"),
    ([{"name": "A", "chips": full(1), "bonuses": [15]}, {"name": "B", "chips": full(1), "bonuses": [15]}],
     "L3", "held 2 times"),
    ([{"name": "A", "bonuses": [20]}, {"name": "B"}], "L3", "no bonus tile worth 20"),
    ([{"name": "A", "chips": full(1), "bonuses": [15, 12]}, {"name": "B"}], "L7", "bonus tiles: 2, but complete sets of chips 5-10: 1"),
    ([{"name": "A", "chips": full(1), "bonuses": [12]}, {"name": "B"}], "L7", "highest first"),
    ([{"name": "A", "chips": full(2), "bonuses": [15]}, {"name": "B"}], "L7", "as soon as a set completes"),
    ([{"name": "A", "chips": {"5": 1}}, {"name": "B"}], "L8", "has not ended"),
])
def test_final_findings(players, rule, words):
    v = final_verdict(*players)
    assert rule in rules_of(v), v.to_text()
    assert any(words in f.message for f in v.findings if f.rule == rule), v.to_text()


def test_example_illegal_records():
    v = records.check(records.load(ROOT / "examples" / "levelx-game-illegal.toml")).verdict
    assert [(f.rule, f.where) for f in v.findings] == [
        ("L4", "turn 3"), ("L6", "turn 4"), ("L8", "turn 5"), ("L7", "turn 6"), ("L8", "after turn 6")]
    v = records.check(records.load(ROOT / "examples" / "levelx-final-illegal.toml")).verdict
    assert sorted(set(rules_of(v))) == ["L2", "L3", "L7", "L8"]


# -- bad input ------------------------------------------------------------------------------

GOOD = {"game": "levelx", "kind": "game", "players": ["A", "B"],
        "turn": [{"dice": [3, 4, 5, 2], "groups": [[3, 4], [5], [2]]}]}


@pytest.mark.parametrize("edit, words", [
    (lambda d: d["turn"][0].update(groups=[[3, 4], [], [5, 2]]), ["turn[0].groups[1]", "empty group"]),
    (lambda d: d["turn"][0].update(groups=[3, 4, 5, 2]), ["turn[0].groups", "a list of the dice in it"]),
    (lambda d: d["turn"][0].update(groups=[7, 5, 2]), ["turn[0].groups", "e.g. [[3, 4], [5], [2]]", "got [7, 5, 2]"]),
    (lambda d: d.pop("kind"), ["kind", "missing", 'kind = "game"', 'kind = "final"']),
    (lambda d: d["turn"][0].update(groups=[[3, 4], [7]]), ["turn[0].groups[1][0]", "1 to 6"]),
    (lambda d: d["turn"][0].update(groups=[]), ["turn[0].groups", "at least one group"]),
    (lambda d: d["turn"][0].update(dice=[3, 4, 5]), ["turn[0].dice", "expected 4 dice"]),
    (lambda d: d["turn"][0].update(dice=[3, 4, 5, "2"]), ["turn[0].dice[3]"]),
    (lambda d: d["turn"][0].update(player="Zoe"), ["turn[0].player", "not one of"]),
    (lambda d: d["turn"][0].update(chips=[4]), ["turn[0].chips[0]", "5 to 10"]),
    (lambda d: d["turn"][0].update(roll=1), ["turn[0].roll", "unknown field"]),
    (lambda d: d.update(players=["A"]), ["players", "2 to 4 players"]),
    (lambda d: d.update(players=["A", "A"]), ["players[1]", "twice"]),
    (lambda d: d.update(kind="middle"), ["kind", "final, game"]),
])
def test_bad_game_input(edit, words):
    data = copy.deepcopy(GOOD)
    edit(data)
    assert_unusable(data, "g.toml", words)


@pytest.mark.parametrize("player, words", [
    ({"name": "A", "chips": {"4": 1}}, ["player[0].chips.4", "\"5\" to \"10\""]),
    ({"name": "A", "chips": {"5": -1}}, ["player[0].chips.5", "0 or more"]),
    ({"name": "A", "chips": {"5": 1.0}}, ["player[0].chips.5"]),
    ({"name": "A", "bonuses": "15"}, ["player[0].bonuses"]),
    ({"name": "A", "chips": [5, 5, 6]}, ["player[0].chips", "how many chips of each value", '{ "5" = 2']),
])
def test_bad_final_input(player, words):
    data = {"game": "levelx", "kind": "final", "player": [player, {"name": "B"}]}
    with pytest.raises(UserError) as e:
        read_data(data, "f.toml")
    for w in words:
        assert w in str(e.value), str(e.value)


def test_record_with_the_pads_qr_text_reports_its_serial(tmp_path):
    from sheetkit import layouts
    from sheetkit.checking.qr import qr_text

    for game, ref, example in (("levelx", "levelx-score-pad", "levelx-final.toml"),
                               ("iunu", "iunu-score-pad", "iunu-inline-deck.toml")):
        qr = qr_text(layouts.load(ref), 42)
        text = (ROOT / "examples" / example).read_text()
        p = tmp_path / example
        p.write_text(text.replace(f'game = "{game}"', f'game = "{game}"\nqr = "{qr}"', 1))
        v = records.check(records.load(p)).verdict
        assert v.legal and v.info["serial"] == 42, v.to_text()
        assert v.info["printed"]["current"]
        old = qr.replace(layouts.load(ref).version, "0badc0de")
        p.write_text(text.replace(f'game = "{game}"', f'game = "{game}"\nqr = "{old}"', 1))
        v = records.check(records.load(p)).verdict
        assert v.legal and [f.rule for f in v.findings] == ["QR"]  # a warning only


def test_chip_claimed_after_being_bumped_names_L5():
    # A reaches X in row 5 (turns 1, 3), B reaches it (turns 2, 4) and bumps A; A then
    # rolls a 5 again (turn 5) and the transcriber claims a chip: A's pawn is back at start.
    five = {"dice": [4, 1, 1, 1], "groups": [[4, 1], [1, 1]]}
    v = game_verdict(["A", "B"], [five, five, five, five, dict(five, chips=[5])])
    l6 = [f for f in v.findings if f.rule == "L6"]
    assert len(l6) == 1 and l6[0].where == "turn 5"
    assert "B sent it back to the start on turn 4, L5" in l6[0].message


def test_turn_player_left_empty_as_in_the_template_is_not_given():
    # the template prints `player = ""  # optional`: a turn copied without filling it in
    import tomllib

    from sheetkit.games.levelx import templates

    data = tomllib.loads(templates.game())
    data["players"] = ["Ana", "Ben"]
    data["turn"][0].update(dice=[3, 4, 5, 2], groups=[[3, 4], [5], [2]])
    assert data["turn"][0]["player"] == ""
    v = check_data(data, "t.toml")
    assert rules_of(v) == ["L8"] and v.findings[0].where == "after turn 1"  # only: the game goes on


def _why(turns, players=("A", "B")):
    v = game_verdict(list(players), turns)
    l6 = [f for f in v.findings if f.rule == "L6"]
    assert len(l6) == 1, v.to_text()
    return l6[0].message


def test_chip_claimed_from_an_empty_row_says_so_even_when_the_player_has_some():
    # 4 players: the 5 stack has 12. A rolls two 5s every turn: X on turn 1 (1 chip), then
    # 2 a turn, 11 by turn 21: one is left on turn 25, where the transcriber writes two chips.
    fives = {"dice": [4, 1, 3, 2], "groups": [[4, 1], [3, 2]]}
    turns = [fives, T, T, T] * 6 + [dict(fives, chips=[5, 5])]
    msg = _why(turns, ("A", "B", "C", "D"))
    assert "recorded chips [5, 5] but the dice give [5]" in msg
    assert "row 5 has no chips left" in msg


def test_chip_claimed_for_a_total_not_rolled_says_so():
    # A on X in row 5 (turns 1, 3), then claims a 5 on a turn whose groups total 7 and 6
    five = {"dice": [4, 1, 1, 1], "groups": [[4, 1], [1, 1]]}
    msg = _why([five, T, five, T, {"dice": [3, 4, 4, 2], "groups": [[3, 4], [4, 2]], "chips": [5]}])
    assert "no group totals 5" in msg


def test_two_chips_claimed_for_one_group_says_so():
    five = {"dice": [4, 1, 1, 1], "groups": [[4, 1], [1, 1]]}
    msg = _why([five, T, dict(five, chips=[5, 5])])
    assert "one group totals 5" in msg


def test_chip_claimed_for_the_move_onto_x_and_the_one_before():
    # two groups of 5 from the start: the first moves the pawn to square 1, the second onto X
    msg = _why([{"dice": [4, 1, 3, 2], "groups": [[4, 1], [3, 2]], "chips": [5, 5]}])
    assert "short of X" in msg


def test_the_two_kinds_player_lists_mixed_up_say_which_goes_where():
    final = {"game": "levelx", "kind": "final", "players": ["A", "B"]}
    with pytest.raises(UserError) as e:
        read_data(final, "f.toml")
    assert "f.toml: players:" in str(e.value) and "[[player]] table per player" in str(e.value)
    game = {"game": "levelx", "kind": "game", "player": [{"name": "A"}, {"name": "B"}], "turn": [T]}
    with pytest.raises(UserError) as e:
        read_data(game, "g.toml")
    assert "g.toml: player:" in str(e.value) and 'players = ["Ana", "Ben"]' in str(e.value)


def _near_end(players):
    """A game where the next chip of 10 for the player to move completes a set and takes the
    last bonus tile (L7), which triggers the end (L8)."""
    g = State.start(players)
    g.bonus_left = [6]
    for p in players:
        g.chips[p] = {r: (1 if r != 10 else 0) for r in ROWS}
        g.pos[p][10] = g.squares[10] - 1  # one square short of X
    return g


@pytest.mark.parametrize("players, trigger_turn, last", [
    (["A", "B"], 2, 2),          # the second player ends it: no one plays again
    (["A", "B"], 1, 2),          # the first player ends it: the second plays one more turn
    (["A", "B", "C"], 1, 3),     # the round is completed
    (["A", "B", "C"], 5, 6),
    (["A", "B", "C", "D"], 4, 4),
])
def test_the_round_is_completed_after_the_end(players, trigger_turn, last):
    g = _near_end(players)
    for k in range(1, trigger_turn):
        g, _ = g.play([[1, 1, 1, 1]])
        assert g.ended_at is None
    g, _ = g.play([[4, 6], [1, 1]])  # the player of turn `trigger_turn` takes the last tile
    assert g.ended_at == trigger_turn and g.last_turn() == last
    while not g.over():
        g, _ = g.play([[1, 1, 1, 1]])
    assert g.turns == last


def test_a_chip_left_out_names_why_it_was_taken():
    five = {"dice": [4, 1, 1, 1], "groups": [[4, 1], [1, 1]]}
    # turn 3: A's pawn reaches X in row 5; turn 5: it is already there and a 5 is rolled
    msg = _why([five, T, dict(five, chips=[]), T, five])
    assert "recorded chips [] but the dice give [5]" in msg and "reaches X" in msg
    msg = _why([five, T, five, T, dict(five, chips=[])])
    assert "already on X" in msg and "L6" in msg


def test_a_wrong_bonus_claim_says_how_many_sets_the_player_holds():
    v = game_verdict(["A", "B"], [dict(T, bonuses=[15])])
    l7 = [f for f in v.findings if f.rule == "L7"]
    assert "(A, after this turn: complete sets of chips 5-10: 0, tiles: 0; tiles left: 15, 12, 9, 6)" in l7[0].message


# -- a set without a tile, in a final position (L7 with L8) --------------------------------------

def test_a_set_without_a_tile_only_for_who_played_after_the_last_tile():
    # B took the last tile (6), which ends the game: A, seated before B, played no more
    v = final_verdict({"name": "A", "chips": full(3), "bonuses": [15, 12]},
                      {"name": "B", "chips": full(2), "bonuses": [9, 6]})
    assert [(f.rule, f.where) for f in v.findings] == [("L7", "player A")]
    assert "after B took the last tile (6)" in v.findings[0].message
    # A took it: B plays once more and may complete a set with no tile left for it
    v = final_verdict({"name": "A", "chips": full(2), "bonuses": [15, 6]},
                      {"name": "B", "chips": full(3), "bonuses": [12, 9]})
    assert v.legal, v.to_text()
    # the one who took it may complete another set in the rest of that turn
    v = final_verdict({"name": "A", "chips": full(1), "bonuses": [15]},
                      {"name": "B", "chips": full(4), "bonuses": [12, 9, 6]})
    assert v.legal, v.to_text()


def test_three_players_the_round_after_the_last_tile():
    tiles = {"A": [15], "B": [12, 6], "C": [9]}
    sets = {"A": 2, "B": 2, "C": 2}  # A and C each hold a set more than their tiles
    v = final_verdict(*({"name": p, "chips": full(sets[p]), "bonuses": tiles[p]} for p in "ABC"))
    assert [(f.rule, f.where) for f in v.findings] == [("L7", "player A")]  # C still played
