"""IUNU scoring and checks (I2-I5), against hand-worked cases, ties included."""

import copy
from pathlib import Path

import pytest

from sheetkit.checking import records
from sheetkit.errors import UserError
from sheetkit.games import iunu
from sheetkit.games.iunu.record import KNOWN_CASTES
from sheetkit.games.iunu.rules import majorities

from conftest import assert_unusable, check_data, read_data

ROOT = Path(__file__).resolve().parent.parent

# A made-up deck for the tests: (cards = majority bonus, vp, bread) per caste.
VALUES = {"farmer": (8, 1, 1), "baker": (7, 1, 0), "soldier": (6, 2, 1), "merchant": (6, 2, 2),
          "noble": (5, 3, 1), "priest": (5, 2, 2), "scribe": (4, 3, 2), "pharaoh": (2, 5, 3),
          "artisan": (4, 2, 1)}


def deck() -> dict:
    return {"castes": {k: {"cards": c, "vp": v, "bread": b} for k, (c, v, b) in VALUES.items()}}


def player(name, deben=0, cards=None, fed=None, afterlife=None) -> dict:
    p = {"name": name, "deben": deben, "cards": cards or {}, "fed": fed or {}}
    if afterlife:
        p["afterlife"] = [{"caste": c, "multiplier": m} for c, m in afterlife]
    return p


def verdict(*players, d=None):
    data = {"game": "iunu", "deck": d or deck(), "player": list(players)}
    return check_data(data, "test.toml")


def totals(v) -> dict:
    return {s.player: s.total for s in v.scores}


def rules_of(v) -> list[str]:
    """The rules broken, leaving out I1's warnings on dynasty sizes (tested on their own)."""
    return [f.rule for f in v.findings if not (f.rule == "I1" and f.severity == "warning")]


# -- majorities (I3) -----------------------------------------------------------------------

def test_strict_majority_and_ties_give_no_one():
    # farmers: Ana 3, Ben 3 (tie: no one); priests: Ana 2, Ben 1, Cleo 1 (Ana); scribes: Cleo 1 alone
    data = {"game": "iunu", "deck": deck(), "player": [
        player("Ana", cards={"farmer": 3, "priest": 2}),
        player("Ben", cards={"farmer": 3, "priest": 1}),
        player("Cleo", cards={"priest": 1, "scribe": 1}),
    ]}
    rec = read_data(data, "t.toml")
    assert majorities(rec) == {"priest": 0, "scribe": 2}


def test_hand_worked_scores():
    # Ana: farmers 3 x1 VP = 3, priests 2 x2 = 4 -> citizens 7
    #      majority priest (5) x afterlife 3 = 15; fed 2 farmers x1 + 1 priest x2 = 4; 10 Deben -> 3
    #      total 7 + 15 + 4 + 3 = 29
    # Ben: farmers 3 x1 = 3, priest 1 x2 = 2 -> 5; no majority (farmers tied);
    #      fed 3 farmers x1 = 3; 2 Deben -> 0; total 8
    v = verdict(
        player("Ana", 10, {"farmer": 3, "priest": 2}, {"farmer": 2, "priest": 1}, [("priest", 3)]),
        player("Ben", 2, {"farmer": 3, "priest": 1}, {"farmer": 3}),
    )
    assert v.legal, v.to_text()
    ana, ben = v.scores
    assert dict(ana.parts) == {"citizens": 7, "majorities": 15, "bread": 4, "deben": 3}
    assert ana.total == 29
    assert dict(ben.parts) == {"citizens": 5, "majorities": 0, "bread": 3, "deben": 0}
    assert list(v.winners) == ["Ana"]
    assert v.info["majorities"] == {"priest": "Ana"}


def test_deben_full_thirds_only():
    v = verdict(player("Ana", 8), player("Ben", 9), player("Cleo", 2))
    assert [dict(s.parts)["deben"] for s in v.scores] == [2, 3, 0]


def test_majority_without_afterlife_is_the_deck_count():
    v = verdict(player("Ana", 0, {"pharaoh": 1}), player("Ben", 0, {}))
    assert dict(v.scores[0].parts) == {"citizens": 5, "majorities": 2, "bread": 0, "deben": 0}


# -- the winner and the Deben tiebreak (I5) --------------------------------------------------

def test_tie_on_points_goes_to_most_deben():
    # both 1 noble? no: Ana noble 1 (3 VP + majority 5 = 8) vs Ben scribe 1 (3 + 4 = 7) + 3 Deben (1) = 8
    v = verdict(player("Ana", 2, {"noble": 1}), player("Ben", 5, {"scribe": 1}))
    assert totals(v) == {"Ana": 8, "Ben": 8}
    assert list(v.winners) == ["Ben"]
    assert "most Deben (5)" in v.info["tiebreak"]


def test_tie_on_points_and_deben_is_shared():
    v = verdict(player("Ana", 4, {"baker": 2}), player("Ben", 4, {"baker": 2}), player("Cleo", 1))
    assert totals(v) == {"Ana": 3, "Ben": 3, "Cleo": 0}
    assert list(v.winners) == ["Ana", "Ben"]
    assert "shared" in v.info["tiebreak"]


def test_three_way_tie_broken_for_two():
    # all on 1 point from Deben (3..5 -> 1); Deben 5, 5, 3: Ana and Ben share
    v = verdict(player("Ana", 5), player("Ben", 5), player("Cleo", 3))
    assert totals(v) == {"Ana": 1, "Ben": 1, "Cleo": 1}
    assert list(v.winners) == ["Ana", "Ben"]


def test_tie_not_for_first_place_needs_no_tiebreak():
    v = verdict(player("Ana", 0, {"pharaoh": 1}), player("Ben", 3), player("Cleo", 5))
    assert list(v.winners) == ["Ana"]
    assert "tiebreak" not in v.info


# -- findings -------------------------------------------------------------------------------

def test_more_cards_at_the_table_than_in_the_deck():
    v = verdict(player("Ana", 0, {"pharaoh": 2}), player("Ben", 0, {"pharaoh": 1}))
    assert rules_of(v) == ["I2"]
    assert "3 cards at the table" in v.findings[0].message
    assert v.findings[0].at == {"caste": "pharaoh"}


def test_afterlife_on_a_majority_held_by_another():
    v = verdict(player("Ana", 0, {"priest": 2}), player("Ben", 0, {"priest": 1}, afterlife=[("priest", 2)]))
    assert rules_of(v) == ["I4"]
    assert "Ana holds it" in v.findings[0].message
    assert totals(v)["Ben"] == 2  # the card has no effect


def test_afterlife_on_a_tied_majority():
    v = verdict(player("Ana", 0, {"priest": 2}, afterlife=[("priest", 2)]), player("Ben", 0, {"priest": 2}))
    assert rules_of(v) == ["I4"]
    assert "no one holds it" in v.findings[0].message


def test_two_afterlife_cards_on_one_majority():
    v = verdict(player("Ana", 0, {"scribe": 2}, afterlife=[("scribe", 2), ("scribe", 3)]), player("Ben"))
    assert rules_of(v) == ["I4"]
    assert "second afterlife card" in v.findings[0].message
    assert dict(v.scores[0].parts)["majorities"] == 8  # the first card counts: 4 x2


def test_afterlife_cards_on_two_majorities_are_fine():
    v = verdict(player("Ana", 0, {"scribe": 1, "noble": 1}, afterlife=[("scribe", 2), ("noble", 3)]),
                player("Ben"))
    assert v.legal
    assert dict(v.scores[0].parts)["majorities"] == 4 * 2 + 5 * 3


def test_negative_deben_and_overfed():
    v = verdict(player("Ana", -1, {"farmer": 1}, {"farmer": 2}), player("Ben"))
    assert sorted(rules_of(v)) == ["I4", "I4"]
    messages = " ".join(f.message for f in v.findings)
    assert "-1 Deben" in messages and "2 Farmer citizens fed but 1 held" in messages


# -- input ----------------------------------------------------------------------------------

def test_deck_file_relative_to_the_record():
    loaded = records.load(ROOT / "examples" / "iunu-game.toml")
    v = records.check(loaded).verdict
    assert v.legal
    assert list(v.winners) == ["Carla"]
    assert v.info["deck"].endswith("iunu-deck-example.toml")


def test_unfilled_template_deck_is_a_clear_error(tmp_path):
    (tmp_path / "deck.toml").write_text(iunu.GAME.templates["iunu-deck"]())
    (tmp_path / "game.toml").write_text(
        'game = "iunu"\ndeck = "deck.toml"\n[[player]]\nname = "A"\ndeben = 1\n[[player]]\nname = "B"\ndeben = 2\n')
    with pytest.raises(UserError) as e:
        records.load(tmp_path / "game.toml")
    assert "castes.farmer.cards: not filled in" in str(e.value)
    assert "deck.toml" in str(e.value)


def test_template_deck_names_every_caste_with_empty_values():
    import tomllib

    data = tomllib.loads(iunu.GAME.templates["iunu-deck"]())
    assert set(KNOWN_CASTES) < set(data["castes"])
    assert len(data["castes"]) == 9
    assert all(v == "" for c in data["castes"].values() for v in c.values())


@pytest.mark.parametrize("edit, words", [
    (lambda d: d["player"][0].update(colour="red"), ["player[0].colour", "unknown field"]),
    (lambda d: d["player"][0].update(deben="7"), ["player[0].deben"]),
    (lambda d: d["player"][0]["cards"].update(camel=1), ["player[0].cards.camel", "unknown caste"]),
    (lambda d: d["player"][0].update(afterlife=[{"caste": "farmer"}]), ["player[0].afterlife[0].multiplier", "missing"]),
    (lambda d: d["player"][0]["cards"].update(farmer=-1), ["player[0].cards.farmer"]),
    (lambda d: d["player"][0].update(afterlife={"farmer": 2}),
     ["player[0].afterlife", "one table per afterlife card", 'multiplier = 2 }]']),
    (lambda d: d["player"][0].update(cards=["farmer", "farmer"]),
     ["player[0].cards", "how many cards of each caste", "farmer = 3"]),
    (lambda d: d["player"].pop(), ["player", "2 to 4 players"]),
    (lambda d: d["player"][1].update(name="Ana"), ["player[1].name", "twice"]),
    (lambda d: d["deck"]["castes"]["farmer"].update(vp=""), ["deck.castes.farmer.vp", "not filled in"]),
    (lambda d: d["deck"]["castes"].pop("baker"), ["deck.castes.baker", "missing"]),
    (lambda d: d.update(deck="nowhere.toml"), ["deck", "no such deck file"]),
])
def test_bad_input_is_one_user_error(edit, words):
    data = {"game": "iunu", "deck": deck(), "player": [player("Ana", 1, {"farmer": 1}), player("Ben", 1)]}
    data = copy.deepcopy(data)
    edit(data)
    assert_unusable(data, "rec.toml", words)


def test_a_deck_file_is_not_a_record():
    with pytest.raises(UserError, match="deck description, filled in and usable; not a game record"):
        records.load(ROOT / "examples" / "iunu-deck-example.toml")


def test_examples_illegal_has_each_finding():
    v = records.check(records.load(ROOT / "examples" / "iunu-illegal.toml")).verdict
    assert sorted(rules_of(v)) == ["I2", "I4", "I4", "I4", "I4"]
    assert v.exit_code == 1


def test_no_rendering_libraries_for_scoring():
    import subprocess
    import sys

    code = ("import sys, sheetkit.games.iunu as g, sheetkit.games.levelx as l; g.GAME.tally.lines.load(); l.GAME.tally.lines.load(); "
            "bad = [m for m in ('reportlab', 'PIL', 'qrcode') if m in sys.modules]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
    # and running the score commands themselves
    for game, example in (("iunu", "iunu-game.toml"), ("levelx", "levelx-game.toml")):
        code = ("import sys\nfrom sheetkit.cli import main\n"
                f"sys.argv = ['sheetkit', 'score', '{game}', 'examples/{example}']\n"
                "try:\n    main()\nexcept SystemExit:\n    pass\n"
                "print([m for m in ('reportlab', 'PIL', 'qrcode') if m in sys.modules], file=sys.stderr)")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
        assert "winner" in out.stdout and out.stderr.strip() == "[]", out.stdout + out.stderr


def test_a_record_may_say_kind_game():
    # RECORD_KINDS names "game" (as Level X and Glüx records say kind = "game"): accepted
    assert "game" in iunu.GAME.record_kinds
    data = {"game": "iunu", "kind": "game", "deck": deck(), "player": [player("Ana", 3), player("Ben")]}
    v = check_data(data, "k.toml")
    assert v.legal and totals(v) == {"Ana": 1, "Ben": 0}
    data["kind"] = "final"
    with pytest.raises(UserError, match=r"k.toml: kind: .*game"):
        read_data(data, "k.toml")


def test_deck_number_typed_inside_the_templates_quotes_says_to_drop_them():
    # the template prints cards = "": a user types the number between the quotes
    d = deck()
    d["castes"]["farmer"]["cards"] = "8"
    with pytest.raises(UserError) as e:
        verdict(player("Ana"), player("Ben"), d=d)
    assert "deck.castes.farmer.cards" in str(e.value)
    assert "without quotes: cards = 8" in str(e.value)


def test_checking_a_deck_file_says_whether_it_is_filled_in():
    # `sheetkit check my-iunu-deck.toml`: not a game record, but the user learns what is left to fill
    with pytest.raises(UserError) as e:
        records.load(ROOT / "examples" / "iunu-deck-unfilled.toml")
    assert "castes.farmer.cards: not filled in" in str(e.value)
    with pytest.raises(UserError) as e:
        records.load(ROOT / "examples" / "iunu-deck-example.toml")
    assert "filled in" in str(e.value) and "not a game record" in str(e.value)


def test_deck_path_may_start_with_the_home_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "mine.toml").write_text((ROOT / "examples" / "iunu-deck-example.toml").read_text())
    data = {"game": "iunu", "deck": "~/decks/mine.toml", "player": [player("Ana", 3), player("Ben")]}
    rec = read_data(data, str(tmp_path / "elsewhere" / "game.toml"))
    assert rec.deck_source == str(tmp_path / "decks" / "mine.toml")


# -- I1: rounds and hands, as far as a final record shows them ------------------------------------

def _i1(v):
    return [(f.where, f.severity) for f in v.findings if f.rule == "I1"]


def test_a_dynasty_smaller_than_the_rounds_played_is_a_warning():
    # a full 2-player game has 8 rounds; every round each player plays at least one card
    data = {"game": "iunu", "deck": deck(), "player": [player("Ana", 1, {"farmer": 8}), player("Ben", 1, {"baker": 7})]}
    v = check_data(data)
    assert v.legal and _i1(v) == [("player Ben", "warning")]
    assert "the 8 rounds of a full game with 2 players" in v.findings[0].message and "rounds = " in v.findings[0].message
    v = check_data(dict(data, rounds=7))  # the game ended early: 7 cards are enough
    assert _i1(v) == []


def test_more_cards_than_hands_could_hold_is_a_warning():
    # 3 players: a hand of 5; in 1 round no more than 5 cards are played
    players = [player("Ana", 1, {"farmer": 6}), player("Ben", 1, {"priest": 1}), player("Cleo", 1, {"baker": 1})]
    v = check_data({"game": "iunu", "deck": deck(), "rounds": 1, "player": players})
    assert _i1(v) == [("player Ana", "warning")] and "a hand of 5" in v.findings[0].message


def test_more_rounds_than_the_game_has_is_I1():
    data = {"game": "iunu", "deck": deck(), "rounds": 9, "player": [player("Ana", 1, {"farmer": 8}), player("Ben", 1, {"baker": 7, "priest": 1})]}
    v = check_data(data)
    assert not v.legal and _i1(v) == [("rounds", "error")]


def test_rounds_are_counted_from_1():
    data = {"game": "iunu", "deck": deck(), "rounds": 0, "player": [player("Ana", 1), player("Ben", 1)]}
    assert_unusable(data, "rec.toml", ["rounds", "1 or more"])
