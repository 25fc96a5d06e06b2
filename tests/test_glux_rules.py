"""Glüx scoring (G11-G13) from the rulebook's examples, and every placement rule of the
replay (G1, G4-G10) caught on a small hand-made game."""

import pytest

from sheetkit import layouts
from sheetkit.games.glux import rules
from sheetkit.grid import parse_square, square_name
from sheetkit.games.glux.rules import Placement, PlayerSetup

from glux_boards import ROW, run


def room(name, pips, players):
    return rules.score_room(name, pips, players)


FOUR = ["Timo", "Max", "Pia", "Sarah"]


# ------------------------------------------------------------------ G14: the rulebook's examples


def test_left_room():
    r = room("left", {"Timo": 10, "Max": 9, "Pia": 4}, FOUR)
    assert r.place == {"Timo": 1, "Max": 2, "Pia": 3}
    assert r.vp == {"Timo": 4, "Max": 2, "Pia": 0, "Sarah": 0}


def test_right_room():
    r = room("right", {"Sarah": 12, "Max": 5, "Timo": 4}, FOUR)
    assert r.place == {"Sarah": 1, "Max": 2, "Timo": 3}
    assert r.vp == {"Sarah": 4, "Max": 2, "Timo": 0, "Pia": 0}


def test_tie_for_first_gives_no_second_place():
    r = room("left", {"Pia": 10, "Sarah": 10, "Timo": 6}, FOUR)
    assert r.place == {"Pia": 1, "Sarah": 1, "Timo": 2}  # the rulebook calls Timo second
    assert r.vp == {"Pia": 4, "Sarah": 4, "Timo": 0, "Max": 0}


def test_tie_for_second_both_score():
    r = room("right", {"Max": 9, "Sarah": 4, "Timo": 4}, FOUR)
    assert r.place == {"Max": 1, "Sarah": 2, "Timo": 2}
    assert r.vp == {"Max": 4, "Sarah": 2, "Timo": 2, "Pia": 0}


def test_the_four_examples_as_one_game():
    res = rules.score([("left", {"Timo": 10, "Max": 9, "Pia": 4}),
                       ("right", {"Sarah": 12, "Max": 5, "Timo": 4}),
                       ("left 2", {"Pia": 10, "Sarah": 10, "Timo": 6}),
                       ("right 2", {"Max": 9, "Sarah": 4, "Timo": 4})], FOUR)
    assert res.totals == {"Timo": 6, "Max": 8, "Pia": 4, "Sarah": 10}
    assert res.winners == ["Sarah"]


def test_zero_pips_take_no_place():
    r = room("x", {"Ana": 0, "Ben": 3, "Cris": 0}, ["Ana", "Ben", "Cris"])
    assert r.place == {"Ben": 1}
    assert r.vp == {"Ana": 0, "Ben": 4, "Cris": 0}


def test_two_players_only_first_place_scores():
    r = room("x", {"Ana": 9, "Ben": 3}, ["Ana", "Ben"])
    assert r.vp == {"Ana": 4, "Ben": 0}
    tie = room("x", {"Ana": 5, "Ben": 5}, ["Ana", "Ben"])
    assert tie.vp == {"Ana": 4, "Ben": 4}
    # the same pips with a third player (no pips here) give the second place its 2 VP
    three = room("x", {"Ana": 9, "Ben": 3}, ["Ana", "Ben", "Cris"])
    assert three.vp == {"Ana": 4, "Ben": 2, "Cris": 0}


def test_tie_on_vp_goes_to_most_middle_room_pips():
    res = rules.score([("A", {"Ana": 5, "Ben": 1}), ("middle", {"Ana": 2, "Ben": 7})],
                      ["Ana", "Ben"], middle=1)
    assert res.totals == {"Ana": 4, "Ben": 4}
    assert res.winners == ["Ben"] and "middle" in res.tiebreak("en")


def test_tie_still_tied_on_middle_pips_is_shared():
    res = rules.score([("A", {"Ana": 5, "Ben": 1}), ("B", {"Ben": 6, "Ana": 1}), ("middle", {"Ana": 3, "Ben": 3})],
                      ["Ana", "Ben", "Cris"], middle=2)
    assert res.totals == {"Ana": 10, "Ben": 10, "Cris": 0}
    assert res.winners == ["Ana", "Ben"]
    assert "shared" in res.tiebreak("en")


# ------------------------------------------------------------------ the replay, rule by rule


@pytest.fixture(scope="module")
def geom():
    return layouts.load("glux-board-2p").spec


def sq(name):
    return parse_square(name)


def P(player, a, b, face):
    return Placement(player, face, sq(a), sq(b))


SETUP = [PlayerSetup("Ana", "A", sq("A1"), 4), PlayerSetup("Ben", "B", sq("M9"), 3)]


def rules_of(geom, placements, setup=SETUP):
    rp = run(geom, setup, placements)
    return [(f.rule, f.at.get("turn"), f.at.get("square")) for f in rp.findings if f.rule != "G10"]


def test_square_names_round_trip():
    assert sq("C4") == (2, 3)
    assert square_name((12, 8)) == "M9"
    assert sq("AA10") == (26, 9)
    assert sq("4C") is None


def test_legal_opening(geom):
    assert rules_of(geom, [P("Ana", "A1", "E1", 2), P("Ben", "M9", "J9", 5)]) == []


def test_g4_distance_must_equal_the_origin_pips(geom):
    assert rules_of(geom, [P("Ana", "A1", "D1", 2)]) == [("G4", 1, "D1")]


def test_g4_straight_line_only(geom):
    assert ("G4", 1, "B2") in rules_of(geom, [P("Ana", "A1", "B2", 2)])


def test_g4_origin_must_be_own_top_chip(geom):
    assert rules_of(geom, [P("Ana", "M9", "M6", 2)])[0][:2] == ("G4", 1)
    assert rules_of(geom, [P("Ana", "C3", "C5", 2)])[0][:2] == ("G4", 1)


def test_g4_destination_on_the_board(geom):
    assert rules_of(geom, [P("Ana", "A1", "A14", 2)]) == [("G4", 1, "A14")]
    rp = run(geom, SETUP, [P("Ana", "A1", "A14", 2)])
    assert rp.board.count(sq("A1")) == 1 and len(rp.board.stacks) == 2  # nothing placed off the board


def test_g4_origin_and_destination_differ(geom):
    assert rules_of(geom, [P("Ana", "A1", "A1", 2)]) == [("G4", 1, "A1")]
    # a player meaning the start option is told how to write it
    f, = [f for f in run(geom, SETUP, [P("Ana", "A1", "A1", 2)]).findings if f.rule == "G4"]
    assert "start" in f.message and "G8" in f.message


def test_g5_no_chip_in_between(geom):
    moves = [P("Ana", "A1", "E1", 2), P("Ben", "M9", "J9", 5), P("Ana", "E1", "C1", 6),
             P("Ben", "J9", "J4", 1), P("Ana", "A1", "E1", 3)]
    # turn 5: A1 counts 4 to E1, but C1 holds a chip
    assert rules_of(geom, moves) == [("G5", 5, "C1")]


def test_g6_a_square_with_two_chips_is_full(geom):
    moves = [P("Ana", "A1", "E1", 4), P("Ben", "M9", "J9", 5), P("Ana", "A1", "E1", 1),
             P("Ben", "J9", "J4", 1), P("Ana", "A1", "E1", 2)]
    assert rules_of(geom, moves) == [("G6", 5, "E1")]


def test_g7_not_on_another_players_start_square(geom):
    moves = [P("Ana", "A1", "A5", 6), P("Ben", "M9", "J9", 1), P("Ana", "A5", "G5", 6),
             P("Ben", "J9", "I9", 1), P("Ana", "G5", "M5", 4), P("Ben", "I9", "H9", 1),
             P("Ana", "M5", "M9", 2)]
    assert rules_of(geom, moves) == [("G7", 7, "M9")]
    # counting onto one's own start square is fine
    own = [P("Ana", "A1", "A5", 4), P("Ben", "M9", "J9", 1), P("Ana", "A5", "A1", 2)]
    assert rules_of(geom, own) == []


def test_g8_start_option_once_and_only_on_own_start(geom):
    start = Placement("Ana", 3)
    assert rules_of(geom, [start]) == []
    moves = [start, P("Ben", "M9", "J9", 5), Placement("Ana", 2)]
    found = rules_of(geom, moves)
    assert ("G8", 3, "A1") in found
    # written without an origin, a placement elsewhere is one by counting, not the start option
    elsewhere = [Placement("Ana", 3, None, sq("M9"))]
    assert rules_of(geom, elsewhere) == [("G4", 1, "M9"), ("G7", 1, "M9")]


def test_g1_at_most_eight_chips_of_a_pair(geom):
    setup = [PlayerSetup("Ana", "A", sq("A1"), 1), PlayerSetup("Ben", "B", sq("M9"), 1)]
    path_a = ["A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1", "I1", "J1"]
    path_b = ["M9", "L9", "K9", "J9", "I9", "H9", "G9", "F9", "E9", "D9"]
    moves = []
    for i in range(9):  # one step at a time, every chip showing 1
        moves.append(P("Ana", path_a[i], path_a[i + 1], 1))
        moves.append(P("Ben", path_b[i], path_b[i + 1], 6 if i == 7 else 1))  # a 6 is a 1|6 chip too
    moves.pop()  # E9 now shows 6: Ben's last step would be too short
    found = rules_of(geom, moves, setup)
    # the start chip is Ana's 1st chip 1|6, her 8th placement (turn 15) the 9th
    assert found == [("G1", 15, "I1"), ("G1", 16, "E9")]


def test_order_of_play(geom):
    assert rules_of(geom, [P("Ben", "M9", "J9", 5)]) == [("order", 1, None)]


def test_g10_record_must_run_to_the_end(geom):
    rp = run(geom, SETUP, [P("Ana", "A1", "E1", 2)])
    assert [f.rule for f in rp.findings] == ["G10"]
    assert rp.findings[0].at["player"] == "Ben"


# ------------------------------------------------------------------ G9 on a board of one row

# Ana's start chip shows 6: the only square 6 away is Ben's start square G1 (G7).
ROW_SETUP = [PlayerSetup("Ana", "A", (0, 0), 6), PlayerSetup("Ben", "B", (6, 0), 1)]


def test_g9_forced_start_placement():
    found = rules_of(ROW, [P("Ana", "A1", "G1", 2)], ROW_SETUP)
    assert ("G7", 1, "G1") in found and ("G9", 1, "A1") in found
    # leaving out Ana's forced start placement
    assert rules_of(ROW, [P("Ben", "G1", "F1", 1)], ROW_SETUP) == [("G9", 1, None)]
    # doing it is legal
    assert rules_of(ROW, [Placement("Ana", 6), P("Ben", "G1", "F1", 1)], ROW_SETUP) == []


def test_g9_out_of_the_game_after_the_start_option():
    moves = [Placement("Ana", 6), P("Ben", "G1", "F1", 1), P("Ben", "F1", "E1", 1)]
    rp = run(ROW, ROW_SETUP, moves)
    assert rp.out == {"Ana": 3}  # at her 2nd turn Ana can neither count nor use G8
    assert [f.rule for f in rp.findings] == ["G10"]  # Ben still has chips to place
    late = moves + [P("Ana", "A1", "G1", 3)]
    assert ("G9", 4, None) in rules_of(ROW, late, ROW_SETUP)


def test_a_game_ends_when_nobody_can_place():
    """Ben walks to the middle and stacks until every way is shut: no G10 finding."""
    rp = run(ROW, ROW_SETUP, [Placement("Ana", 6), P("Ben", "G1", "F1", 6)])
    # Ana is out (A1 shows 6, start used); Ben's tops: G1 (1) -> F1 holds 1 chip, F1 (6) off
    # the board; Ben can still stack on F1 once
    assert any(f.rule == "G10" for f in rp.findings)
    rp = run(ROW, ROW_SETUP, [Placement("Ana", 6), P("Ben", "G1", "F1", 6),
                                       P("Ben", "G1", "F1", 6), Placement("Ben", 6)])
    assert rp.findings == [] and rp.out == {"Ana": 3, "Ben": 5}


def test_g9_out_with_the_start_square_full_says_so():
    """Ana fills her own start square by counting (G6), then has no placement: she is out
    although she never used the start option, and the finding says why."""
    g = ROW
    setup = [PlayerSetup("Ana", "A", (0, 0), 2), PlayerSetup("Ben", "B", (6, 0), 2)]
    moves = [P("Ana", "A1", "C1", 2), P("Ben", "G1", "E1", 6), P("Ana", "C1", "A1", 6),
             P("Ben", "G1", "E1", 1), P("Ben", "E1", "D1", 5), Placement("Ana", 3)]
    rp = run(g, setup, moves)
    assert rp.out == {"Ana": 5} and rp.used_start == {"Ana": 6}  # only the refused attempt
    g9, = [f for f in rp.findings if f.rule == "G9"]
    assert g9.at["turn"] == 6
    assert "A1 already full" in g9.message and "already used" not in g9.message
    # one who did use it hears that
    late = run(ROW, ROW_SETUP, [Placement("Ana", 6), P("Ben", "G1", "F1", 1),
                                         P("Ben", "F1", "E1", 1), P("Ana", "A1", "G1", 3)])
    g9, = [f for f in late.findings if f.rule == "G9"]
    assert "start option already used at turn 1" in g9.message


def test_g1_a_25th_chip_is_one_finding(geom):
    """Ana places a 24th chip after setup (her 25th): one G1 finding says so, not two."""
    faces = [1] * 8 + [2] * 8 + [3] * 7 + [6]
    moves = [P("Ana", "A1", "E1", f) for f in faces]  # out of turn and mostly illegal: beside the point
    rp = run(geom, SETUP, moves)
    last = [f for f in rp.findings if f.at["turn"] == 24 and f.rule == "G1"]
    assert [f.message for f in last] == ["Ana has no chip left: all 24 are on the board: correct this placement's letter, or remove it"]


def test_g10_a_record_stopping_when_the_bags_run_empty_is_told_why():
    """Every chip is placed, the one left in hand too: a record that stops when the bags
    are empty (22 placements each after setup) hears that reading of G10 named."""
    import random

    from sheetkit.games.glux import play

    g = layouts.load("glux-board-34p").spec
    for seed in range(20):
        setups, placements = play.random_game(g, 3, random.Random(seed), start_chance=0.0)
        if len(placements) == 3 * 23:
            break
    assert len(placements) == 3 * 23
    early = run(g, setups, placements[:3 * 22]).findings
    assert [f.rule for f in early] == ["G10"] and "in hand" in early[0].message
    mid = run(g, setups, placements[:3 * 10]).findings
    assert [f.rule for f in mid] == ["G10"] and "in hand" not in mid[0].message
    assert run(g, setups, placements).findings == []


# ------------------------------------------------------------------ the short notation: no origin


def S(player, b, face):
    return Placement(player, face, None, sq(b))


def test_short_form_is_legal_when_some_chip_reaches_the_square(geom):
    assert rules_of(geom, [S("Ana", "E1", 2), S("Ben", "J9", 5)]) == []
    # the same game as the long form, square for square
    long = run(geom, SETUP, [P("Ana", "A1", "E1", 2), P("Ben", "M9", "J9", 5)])
    short = run(geom, SETUP, [S("Ana", "E1", 2), S("Ben", "J9", 5)])
    assert long.board == short.board and long.findings == short.findings


def test_short_form_g4_when_no_chip_counts_to_it(geom):
    assert rules_of(geom, [S("Ana", "D1", 2)]) == [("G4", 1, "D1")]
    assert rules_of(geom, [S("Ana", "A14", 2)]) == [("G4", 1, "A14")]


def test_short_form_g5_names_the_chip_in_the_way(geom):
    moves = [P("Ana", "A1", "E1", 2), P("Ben", "M9", "J9", 5), P("Ana", "E1", "C1", 6),
             P("Ben", "J9", "J4", 1), S("Ana", "E1", 3)]
    # E1 is 4 from A1 (showing 4), but C1 holds a chip; no other chip of Ana's reaches E1
    assert rules_of(geom, moves) == [("G5", 5, "C1")]


def test_short_form_g6_and_g7(geom):
    full = [P("Ana", "A1", "E1", 4), P("Ben", "M9", "J9", 5), P("Ana", "A1", "E1", 1),
            P("Ben", "J9", "J4", 1), S("Ana", "E1", 2)]
    assert rules_of(geom, full) == [("G6", 5, "E1")]
    theirs = [P("Ana", "A1", "A5", 6), P("Ben", "M9", "J9", 1), P("Ana", "A5", "G5", 6),
              P("Ben", "J9", "I9", 1), P("Ana", "G5", "M5", 4), P("Ben", "I9", "H9", 1), S("Ana", "M9", 2)]
    assert rules_of(geom, theirs) == [("G7", 7, "M9")]


def test_short_form_onto_ones_own_start_square(geom):
    """No chip reaches it: the start option (G8), once only. A chip reaches it: a placement
    by counting, and the start option is still there."""
    r = run(geom, SETUP, [S("Ana", "A1", 3)])
    assert r.findings[:-1] == [] and r.used_start == {"Ana": 1}
    again = [S("Ana", "A1", 3), P("Ben", "M9", "J9", 5), S("Ana", "A1", 2)]
    assert ("G8", 3, "A1") in rules_of(geom, again)
    counted = [P("Ana", "A1", "A5", 4), P("Ben", "M9", "J9", 1), S("Ana", "A1", 2)]  # A5 shows 4
    r = run(geom, SETUP, counted)
    assert [f.rule for f in r.findings] == ["G10"] and r.used_start == {}
    assert r.table.can_start(r.state, 0) is False  # A1 is full now (G6), though G8 was never used


def test_short_form_reaching_answers_every_origin(geom):
    """Two of Ana's chips count to the same square: both are origins."""
    setup = [PlayerSetup("Ana", "A", sq("A1"), 2), PlayerSetup("Ben", "B", sq("M9"), 3)]
    # A1 (2) reaches C1; A3 (shows 2 after the first placement) reaches C3, A5 ...
    r = run(geom, setup, [P("Ana", "A1", "A3", 2), P("Ben", "M9", "J9", 1), P("Ana", "A3", "C3", 4),
                          P("Ben", "J9", "I9", 1)], finished=False)
    origins, blocker = rules.reaching(r.state.board, "Ana", sq("C1"))
    assert origins == [sq("A1")] and blocker is None
    origins, blocker = rules.reaching(r.state.board, "Ana", sq("G3"))
    assert origins == [sq("C3")]
    assert rules.reaching(r.state.board, "Ana", sq("E3")) == ([], None)


# ------------------------------------------------------------------ G3 with two players


def test_g3_either_diagonal_with_two_players():
    from sheetkit.games.glux.check import setup_findings
    from sheetkit.games.glux.record import read_record

    def g3(a, b):
        data = {"game": "glux", "kind": "game", "board": "glux-board-2p", "moves": "",
                "players": [{"name": "Ana", "letter": "A", "start": a, "start_chip": 4},
                            {"name": "Ben", "letter": "B", "start": b, "start_chip": 3}]}
        return [(f.rule, f.at.get("square")) for f in setup_findings(read_record(data, "t.toml"))]

    assert g3("A1", "M9") == [] and g3("M9", "A1") == []
    assert g3("M1", "A9") == [] and g3("A9", "M1") == []
    assert g3("A1", "M1") == [("G3", "M1")]  # two corners of one edge
    assert g3("A1", "A9") == [("G3", "A9")]
    assert g3("A1", "E5") == [("G3", "E5")]


def test_the_other_diagonal_plays_like_the_marked_one():
    """Starting on M1 and A9: the start squares are those two for G7 and G8."""
    setup = [PlayerSetup("Ana", "A", sq("M1"), 4), PlayerSetup("Ben", "B", sq("A9"), 3)]
    geom = layouts.load("glux-board-2p").spec
    assert rules_of(geom, [P("Ana", "M1", "I1", 2), Placement("Ben", 5)], setup) == []
    # A1 is an ordinary corner now: Ben may count onto it; A9 is Ben's: Ana may not
    assert rules_of(geom, [P("Ana", "M1", "M5", 2), P("Ben", "A9", "A6", 5), P("Ana", "M5", "M7", 2),
                           P("Ben", "A6", "A1", 1)], setup) == []


# ------------------------------------------------------------------ a final board with the chips below stacks


def board_verdict(grid: str):
    from conftest import check_data

    return check_data({"game": "glux", "kind": "board", "board": "glux-board-2p", "grid": grid,
                       "players": [{"name": "Ana", "letter": "A", "start": "A1"},
                                   {"name": "Ben", "letter": "B", "start": "M9"}]}, "b.toml")


def grid_with(tokens: dict[str, str]) -> str:
    rows = [["."] * 13 for _ in range(9)]
    for name, tok in tokens.items():
        c, r = sq(name)
        rows[r][c] = tok
    return "\n".join(" ".join(r) for r in rows)


def test_board_record_takes_the_chip_below_a_stack():
    v = board_verdict(grid_with({"A1": "A4/A6", "M9": "B3", "E1": "A2/B5"}))
    assert v.legal, [f.line() for f in v.findings]
    # the chip below does not score (G11): Ana's E1 shows 2
    assert board_verdict(grid_with({"A1": "A4", "M9": "B3", "E1": "A2*"})).to_json()["scores"] == v.to_json()["scores"]


def test_board_record_g1_counts_the_chips_below():
    # Ana: 8 chips 1|6 on top, and a 9th noted below a stack
    tops = {f"{c}3": "A1" for c in "ABCDEFGH"}
    ok = board_verdict(grid_with({"A1": "A4", "M9": "B3", **tops, "C5": "B2*"}))
    assert ok.legal, [f.line() for f in ok.findings]
    bad = board_verdict(grid_with({"A1": "A4", "M9": "B3", **tops, "C5": "B2/A6"}))
    g1, = [f for f in bad.findings if f.rule == "G1"]
    assert "9 chips (on top or noted below a stack) show 1 or 6" in g1.message


def test_board_record_someone_elses_chip_under_a_start_chip_is_g7():
    v = board_verdict(grid_with({"A1": "A4/B3", "M9": "B3"}))
    assert [(f.rule, f.at.get("square")) for f in v.findings] == [("G7", "A1")]


def test_board_record_bad_stack_tokens_are_unusable():
    from sheetkit.errors import UserError

    for tok, words in (("A4/", "A3/B5"), ("A4/Z3", "letter Z"), ("A4/B7", "A3/B5"), ("A4*B3", "A3/B5")):
        with pytest.raises(UserError, match=words):
            board_verdict(grid_with({"A1": tok, "M9": "B3"}))
