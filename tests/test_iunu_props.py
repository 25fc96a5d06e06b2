"""Property tests for IUNU scoring (I3-I5): random end-of-game records against the rules
written out directly."""

from hypothesis import given, settings
from hypothesis import strategies as st


from conftest import check_data

from test_iunu import VALUES, deck

CASTES = list(VALUES)
NAMES = ["Ana", "Ben", "Cleo", "Dario"]


@st.composite
def records(draw):
    n = draw(st.integers(2, 4))
    players = []
    for name in NAMES[:n]:
        cards = {c: draw(st.integers(0, 3)) for c in draw(st.lists(st.sampled_from(CASTES), unique=True, max_size=5))}
        fed = {c: draw(st.integers(0, k)) for c, k in cards.items()}
        afterlife = [{"caste": c, "multiplier": draw(st.integers(1, 4))}
                     for c in draw(st.lists(st.sampled_from(CASTES), max_size=3))]
        players.append({"name": name, "deben": draw(st.integers(0, 20)), "cards": cards, "fed": fed,
                        "afterlife": afterlife})
    return {"game": "iunu", "deck": deck(), "player": players}


@settings(max_examples=200, deadline=None)
@given(records())
def test_scores_follow_the_rules(data):
    v = check_data(data, "p.toml")
    players = data["player"]
    held = {}
    for caste in CASTES:
        counts = [p["cards"].get(caste, 0) for p in players]
        for i, k in enumerate(counts):
            if k > 0 and all(k > other for j, other in enumerate(counts) if j != i):  # I3
                held[caste] = i
    assert v.info["majorities"] == {c: players[i]["name"] for c, i in held.items()}
    expected_findings = 0
    for i, (p, s) in enumerate(zip(players, v.scores)):
        used = {}
        for card in p["afterlife"]:
            if held.get(card["caste"]) == i and card["caste"] not in used:
                used[card["caste"]] = card["multiplier"]
            else:
                expected_findings += 1  # not held, or a second one on that majority (I4)
        citizens = sum(k * VALUES[c][1] for c, k in p["cards"].items())
        majorities = sum(VALUES[c][0] * used.get(c, 1) for c, j in held.items() if j == i)
        bread = sum(k * VALUES[c][2] for c, k in p["fed"].items())
        assert dict(s.parts) == {"citizens": citizens, "majorities": majorities, "bread": bread,
                                 "deben": p["deben"] // 3}
        assert s.total == citizens + majorities + bread + p["deben"] // 3
    i2 = sum(1 for c in CASTES if sum(p["cards"].get(c, 0) for p in players) > VALUES[c][0])
    # I1, for a full game (8 rounds, 9 with 3 players; a hand of 6 with 2 players, else 5):
    # at least a card a round, at most a hand a round, as warnings
    rounds, hand = (9, 5) if len(players) == 3 else (8, 6 if len(players) == 2 else 5)
    i1 = sum(1 for p in players if not rounds <= sum(p["cards"].values()) <= rounds * hand)
    assert sorted(f.rule for f in v.findings) == sorted(["I1"] * i1 + ["I2"] * i2 + ["I4"] * expected_findings)
    assert all(f.severity == "warning" for f in v.findings if f.rule == "I1")
    # I5: the most points; among those, the most Deben; still tied, shared
    best = max(s.total for s in v.scores)
    tied = [i for i, s in enumerate(v.scores) if s.total == best]
    most = max(players[i]["deben"] for i in tied)
    assert list(v.winners) == [players[i]["name"] for i in tied if players[i]["deben"] == most]
