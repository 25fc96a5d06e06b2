"""The records of what a score pad holds: Glüx's rooms' pips (`kind = "rooms"`) and IUNU's
tally (`kind = "tally"`), through `sheetkit check` as a user runs it: scored as the rules
say, a fault found with its rule id, absurd input one line and exit status 2; and random
pads generated apart from the checker score to the sum their own parts make."""

from __future__ import annotations

import json
import random

import pytest

from conftest import ROOT, sheetkit

EXAMPLES = ROOT / "examples"


def run(tmp_path, text: str, *args):
    path = tmp_path / "record.toml"
    path.write_text(text, encoding="utf-8")
    return sheetkit("check", str(path), *args)


def verdict(tmp_path, text: str) -> dict:
    r = run(tmp_path, text, "--json")
    assert r.code in (0, 1), r.err
    return json.loads(r.out)[0]


def totals(v: dict) -> dict[str, int]:
    return {s["player"]: s["total"] for s in v["scores"]}


def rules_of(v: dict) -> list[str]:
    return sorted(f["rule"] for f in v["findings"])


# --- Glüx -----------------------------------------------------------------------------------

def rooms(players, rooms_, middle=None) -> str:
    lines = ['game = "glux"', 'kind = "rooms"', "players = [" + ", ".join(f'"{p}"' for p in players) + "]"]
    if middle:
        lines.append(f'middle = "{middle}"')
    for name, pips in rooms_:
        lines += ["[[room]]", f'name = "{name}"', "pips = { " + ", ".join(f'"{k}" = {v}' for k, v in pips.items()) + " }"]
    return "\n".join(lines) + "\n"


def test_the_glux_example_scores_as_score_glux_does():
    r = sheetkit("check", str(EXAMPLES / "glux-rooms.toml"), "--json")
    assert r.code == 0, r.err
    v = json.loads(r.out)[0]
    same = sheetkit("score", "glux", "--room", "Ana=10,Ben=9,Cris=4", "--room", "Ana=4,Ben=5", "--room", "Cris=12",
                    "--room", "Ana=6,Ben=6,Cris=3", "--room", "Ana=7,Ben=11,Cris=7", "--middle", "5", "--json")
    assert same.code == 0, same.err
    assert totals(v) == totals(json.loads(same.out)) == {"Ana": 12, "Ben": 14, "Cris": 6}
    assert v["winners"] == ["Ben"] and v["findings"] == []


def test_the_rulebook_room_cases(tmp_path):
    """G12: a tie for first gives each 4 and no second; a tie for second gives each 2; with
    2 players only first place scores; 0 pips takes no place."""
    v = verdict(tmp_path, rooms(["A", "B", "C"], [("X", {"A": 5, "B": 5, "C": 3})]))
    assert totals(v) == {"A": 4, "B": 4, "C": 0}
    v = verdict(tmp_path, rooms(["A", "B", "C"], [("X", {"A": 6, "B": 2, "C": 2})]))
    assert totals(v) == {"A": 4, "B": 2, "C": 2}
    v = verdict(tmp_path, rooms(["A", "B"], [("X", {"A": 6, "B": 2})]))
    assert totals(v) == {"A": 4, "B": 0}
    v = verdict(tmp_path, rooms(["A", "B", "C"], [("X", {"A": 6, "B": 0})]))
    assert totals(v) == {"A": 4, "B": 0, "C": 0}


def test_a_tie_on_vp_goes_to_the_middle_room_named(tmp_path):
    text = rooms(["A", "B"], [("X", {"A": 6, "B": 2}), ("Centro", {"A": 1, "B": 5})], middle="Centro")
    v = verdict(tmp_path, text)
    assert totals(v) == {"A": 4, "B": 4} and v["winners"] == ["B"]
    v = verdict(tmp_path, rooms(["A", "B"], [("X", {"A": 6, "B": 2}), ("middle", {"A": 1, "B": 5})]))
    assert v["winners"] == ["B"]  # a room named "middle" is the middle room
    v = verdict(tmp_path, rooms(["A", "B"], [("X", {"A": 6, "B": 2}), ("Y", {"A": 1, "B": 5})]))
    assert sorted(v["winners"]) == ["A", "B"]  # no middle room: shared


def test_names_are_one_player_however_capitalised(tmp_path):
    v = verdict(tmp_path, rooms(["Ana", "Ben"], [("X", {"ana": 6, "BEN": 2})]))
    assert totals(v) == {"Ana": 4, "Ben": 0}


def test_glux_findings(tmp_path):
    many = [(chr(65 + i), {"A": 1}) for i in range(10)]
    v = verdict(tmp_path, rooms(["A", "B"], many))
    assert rules_of(v) == ["G2"] and "9" in v["findings"][0]["text"]
    v = verdict(tmp_path, rooms(["A", "B", "C"], many))
    assert rules_of(v) == []  # the 3-4 player side has 11
    v = verdict(tmp_path, rooms(["A", "B"], [("X", {"A": 70}), ("Y", {"A": 51})]))
    assert rules_of(v) == ["G1"] and "121" in v["findings"][0]["text"]


@pytest.mark.parametrize("text, words", [
    (rooms(["A", "B"], [("X", {"A": 1, "C": 3})]), "room[0].pips.C: C is not one of players A, B"),
    (rooms(["A", "B"], [("X", {"A": 1}), ("x", {"B": 1})]), "room[1].name: room x appears twice"),
    (rooms(["A", "B"], [("X", {"A": -1})]), "room[0].pips.A"),
    (rooms(["A", "B"], [("X", {"A": 1})], middle="Z"), "middle = Z: no room of that name"),
    (rooms(["A"], [("X", {"A": 1})]), "players"),
    (rooms(["A", "a"], [("X", {"A": 1})]), "players[1]"),
    (rooms(["A", "B"], []), "room"),
    (rooms(["A", "B"], [("X", {"A": 1, "a": 2})]), "appears twice in this room"),
    ('game = "glux"\nkind = "rooms"\nplayers = ["A", "B"]\n[[room]]\nname = "X"\npips = { A = "many" }\n', "room[0].pips.A"),
    ('game = "glux"\nkind = "rooms"\nplayers = ["A", "B"]\n[[room]]\nname = "X"\npips = { A = 99999999999999999999 }\n', ""),
    ('game = "glux"\nkind = "rooms"\nplayers = ["A", "B"]\nroom = 3\n', "room"),
    ('game = "glux"\nkind = "rooms"\nplayers = ["A", "B"]\n' + '[[room]]\nname = "X"\n' * 1, ""),
])
def test_absurd_glux_rooms_are_one_line(tmp_path, text, words):
    r = run(tmp_path, text)
    if r.code == 0:  # a room with no pips is a room nobody scored in
        assert 'name = "X"\n' in text and "pips" not in text
        return
    assert r.code == 2 and r.out == "", (r.code, r.out, r.err)
    assert len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err
    assert words in r.err, r.err


def test_random_glux_pads_score_room_by_room():
    """Pips drawn at random, the VP counted here by G11-G12 from scratch."""
    rng = random.Random(5)
    for _ in range(40):
        n = rng.randint(2, 4)
        players = [f"P{i}" for i in range(n)]
        rs = [(f"R{k}", {p: rng.choice([0, 0, rng.randint(1, 14)]) for p in players}) for k in range(rng.randint(1, 9))]
        want = {p: 0 for p in players}
        for _, pips in rs:
            levels = sorted({v for v in pips.values() if v}, reverse=True)
            first = [p for p in players if levels and pips[p] == levels[0]]
            for p in first:
                want[p] += 4
            if len(first) == 1 and n > 2 and len(levels) > 1:
                for p in players:
                    if pips[p] == levels[1]:
                        want[p] += 2
        from sheetkit.checking import records
        import tomllib

        data = tomllib.loads(rooms(players, rs))
        v = records.check(records.parse(data, "random.toml")).verdict
        assert {s.player: s.total for s in v.scores} == want


# --- IUNU -----------------------------------------------------------------------------------

def tally(bonus: dict, players: list[dict]) -> str:
    lines = ['game = "iunu"', 'kind = "tally"', "bonus = { " + ", ".join(f"{k} = {v}" for k, v in bonus.items()) + " }"]
    for p in players:
        lines.append("[[player]]")
        for k, v in p.items():
            if isinstance(v, dict):
                lines.append(f"{k} = {{ " + ", ".join(f"{a} = {b}" for a, b in v.items()) + " }")
            else:
                lines.append(f"{k} = {json.dumps(v)}")
    return "\n".join(lines) + "\n"


def test_the_iunu_example_scores_by_its_parts():
    r = sheetkit("check", str(EXAMPLES / "iunu-tally.toml"), "--json")
    assert r.code == 0, r.err
    v = json.loads(r.out)[0]
    # Ana: 21 + 6x2 + 3 + 6 + 10 // 3; Ben: 25 + 5 + 4x3 + 4 + 7 // 3
    assert totals(v) == {"Ana": 45, "Ben": 48} and v["winners"] == ["Ben"]
    assert "deck" not in v.get("info", {})


def test_a_tie_goes_to_most_deben(tmp_path):
    v = verdict(tmp_path, tally({"farmer": 4}, [{"name": "A", "citizens": 10, "deben": 5},
                                                 {"name": "B", "citizens": 9, "deben": 8}]))
    assert totals(v) == {"A": 11, "B": 11} and v["winners"] == ["B"]


def test_iunu_findings(tmp_path):
    text = tally({"farmer": 4}, [{"name": "A", "citizens": 1, "majorities": {"farmer": 1}, "deben": 0},
                                 {"name": "B", "citizens": 1, "majorities": {"farmer": 2}, "deben": -3, "total": 5}])
    v = verdict(tmp_path, text)
    assert rules_of(v) == ["I3", "I4", "I4"], v["findings"]
    said = " ".join(f["text"] for f in v["findings"])
    assert "A, B" in said and "-3 Deben" in said and "total 5" in said and "1 + 8 + 0 + 0 = 9" in said
    assert run(tmp_path, text).code == 1
    render = tmp_path / "filled.pdf"
    assert run(tmp_path, text, "--render", str(render)).code == 1 and render.read_bytes()[:5] == b"%PDF-"


@pytest.mark.parametrize("text, words", [
    (tally({"farmer": 0}, [{"name": "A", "citizens": 1, "deben": 0}, {"name": "B", "citizens": 1, "deben": 0}]),
     "bonus.farmer"),
    (tally({"farmer": 3}, [{"name": "A", "citizens": 1, "deben": 0, "majorities": {"baker": 1}},
                           {"name": "B", "citizens": 1, "deben": 0}]), "player[0].majorities.baker: no bonus"),
    (tally({"farmer": 3}, [{"name": "A", "citizens": 1, "deben": 0, "majorities": {"farmer": 0}},
                           {"name": "B", "citizens": 1, "deben": 0}]), "player[0].majorities.farmer"),
    (tally({"farmer": 3}, [{"name": "A", "citizens": -1, "deben": 0}, {"name": "B", "citizens": 1, "deben": 0}]),
     "player[0].citizens"),
    (tally({"Farmer": 3}, [{"name": "A", "citizens": 1, "deben": 0}, {"name": "B", "citizens": 1, "deben": 0}]),
     "bonus.Farmer: caste keys are lower-case words"),
    (tally({f"c{i}": 1 for i in range(10)}, [{"name": "A", "citizens": 1, "deben": 0},
                                             {"name": "B", "citizens": 1, "deben": 0}]), "10 castes"),
    (tally({"farmer": 3}, [{"name": "A", "citizens": 1, "deben": 0}]), "player"),
    (tally({"farmer": 3}, [{"name": "A", "citizens": 1, "deben": 0}, {"name": " a ", "citizens": 1, "deben": 0}]),
     "player[1].name"),
    (tally({"farmer": 3}, [{"name": "A", "citizens": "x", "deben": 0}, {"name": "B", "citizens": 1, "deben": 0}]),
     "player[0].citizens"),
    ('game = "iunu"\nkind = "tally"\nbonus = 3\n[[player]]\nname = "A"\ncitizens = 1\ndeben = 0\n', "bonus"),
    ('game = "iunu"\nkind = "tallies"\n', "kind"),
])
def test_absurd_iunu_tallies_are_one_line(tmp_path, text, words):
    r = run(tmp_path, text)
    assert r.code == 2 and r.out == "", (r.code, r.out, r.err)
    assert len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err
    assert words in r.err, r.err


def test_random_iunu_tallies_score_their_parts():
    """Tallies drawn at random: the score is the pad's own sum, the winner by points then Deben."""
    from sheetkit.checking import records
    import tomllib

    rng = random.Random(9)
    castes = ["farmer", "baker", "soldier", "merchant", "noble", "priest", "scribe", "pharaoh", "ninth"]
    for _ in range(40):
        n = rng.randint(2, 4)
        bonus = {c: rng.randint(1, 9) for c in rng.sample(castes, rng.randint(1, 9))}
        owner = {c: rng.randrange(n + 1) for c in bonus}  # n: nobody holds it
        players = []
        for i in range(n):
            maj = {c: rng.choice([1, 1, 2, 3]) for c in bonus if owner[c] == i}
            p = {"name": f"P{i}", "citizens": rng.randint(0, 40), "bread": rng.randint(0, 12), "deben": rng.randint(0, 30)}
            if maj:
                p["majorities"] = maj
            p["total"] = p["citizens"] + sum(bonus[c] * m for c, m in maj.items()) + p["bread"] + p["deben"] // 3
            players.append(p)
        v = records.check(records.parse(tomllib.loads(tally(bonus, players)), "random.toml")).verdict
        assert v.legal and {s.player: s.total for s in v.scores} == {p["name"]: p["total"] for p in players}
        best = max(p["total"] for p in players)
        most = max(p["deben"] for p in players if p["total"] == best)
        assert set(v.winners) == {p["name"] for p in players if p["total"] == best and p["deben"] == most}
