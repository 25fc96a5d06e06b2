"""The work a request costs is bounded by the game, not by the input.

Every record kind refuses, in one line (exit 2 on the command line, 400 on the phone page),
a record longer than its game can last; a checked sheet marks and lists at most
annotate.MOST_TAGS findings and says how many more there are; and the label placer's
work grows about linearly with the tags it places (counted, not timed).
"""

from __future__ import annotations

import random
import time
import tomllib

import pytest

from sheetkit import layouts
from sheetkit.checking import records
from sheetkit.errors import UserError
from sheetkit.games.glux.rules import CHIPS
from sheetkit.games.iunu.record import CASTES_IN_DECK
from sheetkit.games.levelx.board import shipped, squares
from sheetkit.games.levelx.record import longest_game as levelx_game
from sheetkit.grid import square_name
from sheetkit.paper import annotate
from sheetkit.paper import labels as L
from sheetkit.paper import scene as S

from conftest import ROOT, assert_user_error, sheetkit
from pdfutil import text as pdf_text
from test_checked_sheets import tags_of
from test_web import Client, assert_clear_error

EX = ROOT / "examples"


def web_check(text: str):
    return Client().post("/check", {"text": text}, content_type="multipart/form-data")


def refused_everywhere(tmp_path, text: str, *words: str) -> None:
    """The same record refused by `sheetkit check` (exit 2, one line) and by the page (400)."""
    path = tmp_path / "record.toml"
    path.write_text(text, encoding="utf-8")
    assert_user_error(sheetkit("check", path), *words)
    assert_clear_error(web_check(text), *words)


# --- Glüx: at most 24 chips a player (G1) ---------------------------------------------------

GLUX_2P = '''game = "glux"
kind = "game"
board = "glux-board-2p"
players = [
  { name = "Ana", letter = "A", colour = "yellow", start = "A1", start_chip = 6 },
  { name = "Ben", letter = "B", colour = "green", start = "M9", start_chip = 2 },
]
'''


def glux_game(lines: list[str], head: str = GLUX_2P) -> str:
    return head + 'moves = """\n' + "\n".join(lines) + '\n"""\n'


def test_the_ten_thousand_line_glux_record_is_refused_at_once(tmp_path):
    text = glux_game(["A E1 2"] * 10_000)
    t0 = time.perf_counter()
    refused_everywhere(tmp_path, text, "moves", "at most 24 chips a player (48 for 2 players)",
                       "10000 placements")
    assert time.perf_counter() - t0 < 20  # it took six minutes (a generous bound on a shared machine)
    # said in Spanish as well, from the catalogue
    path = tmp_path / "record.toml"
    assert_user_error(sheetkit("check", "--lang", "es", path), "como mucho 24 fichas", "10000 colocaciones")


def test_a_glux_record_as_long_as_the_chips_allow_is_checked(tmp_path):
    # blank lines and comments are no placements
    lines = ["A E1 2", "# a comment", "", "B M5 1"] * CHIPS
    path = tmp_path / "long.toml"
    path.write_text(glux_game(lines), encoding="utf-8")
    run = sheetkit("check", path)
    assert run.code == 1 and "G1" in run.out  # checked: the chips past the 24th are findings
    path.write_text(glux_game(lines + ["A E1 2"]), encoding="utf-8")
    assert_user_error(sheetkit("check", path), f"{2 * CHIPS + 1} placements")


# --- Level X: turns, groups, chips and tiles ------------------------------------------------

def levelx_lines(players: list[str], n: int) -> str:
    turns = ",\n".join('"1+1+1+1"' for _ in range(n))  # a turn that moves nothing
    return f'game = "levelx"\nkind = "game"\nplayers = {players!r}\nturns = [\n{turns}\n]\n'.replace("'", '"')


def levelx_tables(players: list[str], n: int) -> str:
    turn = '[[turn]]\ndice = [1, 1, 1, 1]\ngroups = [[1, 1, 1, 1]]\n'
    return f'game = "levelx"\nkind = "game"\nplayers = {players!r}\n'.replace("'", '"') + turn * n


def longest_game(players: int) -> tuple[int, dict]:
    return levelx_game(players, squares(shipped()))  # on the shipped board


def test_longest_level_x_game_grows_with_the_table_and_the_board():
    # four turns for each square the pawns walk to X (27 a player on the shipped board) and
    # each chip of the supply (L1, L2)
    assert [longest_game(n)[0] for n in (2, 3, 4)] == [4 * (54 + 51), 4 * (81 + 51), 4 * (108 + 57)]
    assert levelx_game(2, {r: 2 for r in range(5, 11)})[0] == 4 * (24 + 51)  # a designer's shorter board


@pytest.mark.parametrize("write", [levelx_lines, levelx_tables], ids=["one-line turns", "turn tables"])
def test_a_level_x_record_longer_than_a_game_is_refused(tmp_path, write):
    most = longest_game(2)[0]
    path = tmp_path / "long.toml"
    path.write_text(write(["Ana", "Ben"], most), encoding="utf-8")
    run = sheetkit("check", path)
    assert run.code == 1 and "L8" in run.out  # as long as a game may be: checked (it never ended)
    field = "turns" if write is levelx_lines else "turn"
    refused_everywhere(tmp_path, write(["Ana", "Ben"], most + 1), field, f"{most + 1} turns",
                       f"for 2 players lasts at most {most} turns")
    # 10,000 one-line turns: refused before a line is read, even with a broken one first
    text = levelx_lines(["Ana", "Ben"], 10_000).replace('"1+1+1+1"', '"x"', 1)
    refused_everywhere(tmp_path, text, "10000 turns")


@pytest.mark.parametrize("turn, words", [
    ('dice = [1, 2, 3, 4]\ngroups = [[1], [2], [3], [4], [5]]', ["turn[0].groups", "5 groups"]),
    ('dice = [1, 2, 3, 4]\ngroups = [[1, 2, 3, 4, 5]]', ["turn[0].groups[0]", "5 dice in one group"]),
    ('dice = [1, 2, 3, 4]\ngroups = [[1, 2], [3, 4]]\nchips = [5, 5, 5, 5, 5]', ["turn[0].chips", "5 chips"]),
    ('dice = [1, 2, 3, 4]\ngroups = [[1, 2], [3, 4]]\nbonuses = [15, 12, 9, 6, 15]', ["turn[0].bonuses", "5 bonus tiles"]),
])
def test_a_level_x_turn_writing_more_than_a_turn_can_do_is_refused(tmp_path, turn, words):
    text = 'game = "levelx"\nkind = "game"\nplayers = ["Ana", "Ben"]\n[[turn]]\n' + turn + "\n"
    refused_everywhere(tmp_path, text, *words)


def test_a_level_x_final_position_with_more_tiles_than_the_game_is_refused(tmp_path):
    data = tomllib.loads((EX / "levelx-final.toml").read_text())
    text = (EX / "levelx-final.toml").read_text().replace(
        f"bonuses = {data['player'][0]['bonuses']!r}".replace("'", '"'), "bonuses = " + repr(list(range(10_000))), 1)
    assert "9999" in text
    refused_everywhere(tmp_path, text, "player[0].bonuses", "10000 bonus tiles", "has 4 in all")


# --- IUNU: one afterlife card a majority, nine castes ----------------------------------------

def iunu_with_afterlife(k: int) -> str:
    cards = ", ".join(['{ caste = "noble", multiplier = 2 }'] * k)
    return (EX / "iunu-inline-deck.toml").read_text().replace(
        'fed = { noble = 1 }\n', f'fed = {{ noble = 1 }}\nafterlife = [{cards}]\n', 1)


def test_iunu_afterlife_cards_past_the_castes_are_refused(tmp_path):
    path = tmp_path / "nine.toml"
    path.write_text(iunu_with_afterlife(CASTES_IN_DECK), encoding="utf-8")
    run = sheetkit("check", path)
    assert run.code == 1 and "I4" in run.out  # a second card on one majority is a finding
    refused_everywhere(tmp_path, iunu_with_afterlife(CASTES_IN_DECK + 1), "player[0].afterlife",
                       f"{CASTES_IN_DECK + 1} afterlife cards", "9 castes")
    refused_everywhere(tmp_path, iunu_with_afterlife(2_000), "2000 afterlife cards")  # within the page's 256 kB


# --- Yuncos: bounded already (sheets by the sheet's boxes, tables by their players) ----------

def test_yuncos_sheets_and_tables_are_bounded(tmp_path):
    from sheetkit.games.yuncos.record import longest_game as yuncos_longest

    text = (EX / "yuncos-easy-legal.toml").read_text()
    data = tomllib.loads(text)
    most = yuncos_longest(layouts.load(data["layout"]).spec)[0]
    turn = text[text.index("[[turn]]"):].split("[[turn]]")[1]
    long = text + ("[[turn]]" + turn) * (most + 1 - len(data["turn"]))
    refused_everywhere(tmp_path, long, f"{most + 1} turns", f"at most {most} turns")
    body = "".join(f'\n[[player]]\nname = "P{i}"\nsheet = "p{i}.toml"\n' for i in range(7))
    path = tmp_path / "table.toml"
    path.write_text('game = "yuncos"\nkind = "table"\n' + body, encoding="utf-8")
    assert_user_error(sheetkit("check", path), "2 to 6 players")


def yuncos_with(first_turn: str, text: str | None = None) -> str:
    """The Yuncos illegal example with `first_turn` added to its first [[turn]] table."""
    text = text or (EX / "yuncos-illegal.toml").read_text()
    return text.replace("[[turn]]\n", "[[turn]]\n" + first_turn + "\n", 1)


def test_a_yuncos_flight_longer_than_any_die_flies_is_refused(tmp_path):
    from sheetkit.games.yuncos.notation import MOST_STEPS

    text = (EX / "yuncos-illegal.toml").read_text()
    first = text[text.index("[[turn]]"):].split("\n")[1]
    assert first.startswith("flight = ")
    path = tmp_path / "long.toml"
    path.write_text(text.replace(first, f'flight = "{"E" * MOST_STEPS}"', 1), encoding="utf-8")
    run = sheetkit("check", path)
    assert run.code == 1 and "Y4" in run.out  # a flight too long for a die is a finding
    # 100,000 steps (the overlay took 8 s to draw them): one line
    refused_everywhere(tmp_path, text.replace(first, f'flight = "{"EW" * 50_000}"', 1), "turn[1].flight",
                       "100000 steps", f"more than {MOST_STEPS}")


def test_a_yuncos_turn_using_more_than_the_sheets_abilities_is_refused(tmp_path):
    from sheetkit.games.yuncos.layout import ABILITIES
    from sheetkit.games.yuncos.record import all_boxes

    most = len(all_boxes(layouts.load("yuncos-easy").spec)) + len(ABILITIES)
    # a thousand uses of one box took the check 7 s (each held against the others)
    uses = "use = [" + ", ".join(['"nest1.1"'] * 1000) + "]"
    refused_everywhere(tmp_path, yuncos_with(uses), "turn[1].use", "1000 uses in one turn", f"only {most}")


def test_a_long_list_of_crossed_boxes_is_read_in_one_pass(tmp_path):
    # 15,000 different box names: each used to be compared with every one before it (5 s)
    text = (EX / "yuncos-illegal.toml").read_text()
    names = ", ".join(f'"nest{i // 999 + 1}.{i % 999 + 1}"' for i in range(15_000))
    text = "\n".join(f"used = [{names}]" if ln.startswith("used = ") else ln for ln in text.split("\n"))
    refused_everywhere(tmp_path, text, "used[3]", "no ability box 'nest1.4'")
    data = tomllib.loads(text)
    t0 = time.perf_counter()
    with pytest.raises(UserError, match="nest1.4"):
        records.parse(data, "long.toml")
    assert time.perf_counter() - t0 < 1.5  # 3 s before; a tenth of a second now


# --- the checked sheet: at most MOST_TAGS findings marked and listed ---------------------------

def glux_spread_game() -> str:
    """A 4-player Glüx game whose every placement is a fault (G4: no chip counts there), each
    on a square of its own, spread over the board: more findings than a sheet shows."""
    b = layouts.load("glux-board-34p").spec
    squares = [square_name((c, r)) for r in range(1, b.height - 1, 2) for c in range(1, b.width - 1, 2)]
    squares += [square_name((c, r)) for r in range(2, b.height - 1, 2) for c in range(2, b.width - 1, 2)]
    w, h = b.width - 1, b.height - 1
    starts = ["A1", square_name((w, 0)), square_name((0, h)), square_name((w, h))]
    players = ",\n".join(f'  {{ name = "{n}", letter = "{n[0]}", start = "{s}", start_chip = 6 }}'
                         for n, s in zip(["Ana", "Ben", "Cid", "Dan"], starts))
    head = f'game = "glux"\nkind = "game"\nboard = "glux-board-34p"\nplayers = [\n{players}\n]\n'
    return glux_game([f"{'ABCD'[k % 4]} {sq} 1" for k, sq in enumerate(squares)], head)


@pytest.mark.parametrize("lang, more", [("en", "and {n} more findings, not marked on this sheet"),
                                        ("es", "y {n} errores más, no marcados en esta hoja")])
def test_a_sheet_with_more_findings_than_it_shows_draws_the_cap_and_says_how_many_more(tmp_path, lang, more):
    path = tmp_path / "spread.toml"
    path.write_text(glux_spread_game(), encoding="utf-8")
    loaded = records.load(path)
    checked = records.check(loaded)
    findings = checked.verdict.findings
    assert len(findings) > annotate.MOST_TAGS + 10
    scene = loaded.kind.overlay(loaded.record, checked, "a4", lang)
    tags = tags_of(scene.pages[0])
    assert sorted(n for n, *_ in tags) == list(range(1, annotate.MOST_TAGS + 1))  # exactly the cap, each once
    texts = [i.text for p in scene.pages for i in p.items if isinstance(i, S.Text)]
    said = more.format(n=len(findings) - annotate.MOST_TAGS)
    assert [t for t in texts if t.startswith(said)] == [texts[-1]]  # the list's last line
    assert not any(t.startswith(f"{annotate.MOST_TAGS + 1}. ") for t in texts)  # the rest are not listed
    # and on the real PDF of `check --render`
    pdf = tmp_path / "checked.pdf"
    run = sheetkit("check", "--lang", lang, path, "--render", pdf)
    assert run.code == 1
    words = " ".join(pdf_text(pdf, i) for i in range(len(scene.pages)))
    assert " ".join(said.split()) in " ".join(words.split())


def test_the_yuncos_sheet_keys_and_lists_only_what_it_marks():
    """The busiest sheet: the longest Hard game, every flight 48 steps off the map or round
    a square, every ability used every turn: hundreds of findings."""
    from sheetkit.games.yuncos.layout import ABILITIES
    from sheetkit.games.yuncos.play import play
    from sheetkit.games.yuncos.record import all_boxes, longest_game as yuncos_longest

    layout = layouts.load("yuncos-hard")
    rec = play(layout, random.Random(5), solo=False, max_turns=60, home_after=99).record
    uses = list(ABILITIES) + all_boxes(layout.spec)
    flights = ["E" * 48, "NESW" * 12]
    rec["turn"] = [dict(rec["turn"][i % len(rec["turn"])], flight=flights[i % 2], use=uses)
                   for i in range(yuncos_longest(layout.spec)[0])]
    loaded = records.parse(rec, "busy.toml")
    checked = records.check(loaded)
    findings = checked.verdict.findings
    assert len(findings) > 10 * annotate.MOST_TAGS
    scene = loaded.kind.overlay(loaded.record, checked, "a4", "en")
    numbers = [n for n, *_ in tags_of(scene.pages[0])]
    assert numbers and max(numbers) <= annotate.MOST_TAGS and len(numbers) <= annotate.MOST_TAGS
    texts = [i.text for p in scene.pages for i in p.items if isinstance(i, S.Text)]
    listed = [t for t in texts if t.split(". ")[0].isdigit()]
    assert int(listed[-1].split(". ")[0]) <= annotate.MOST_TAGS
    assert texts[-1].startswith(f"and {len(findings) - int(listed[-1].split('. ')[0])} more findings")
    key = next(t for t in texts if t.startswith("1 "))  # the key above the sheet: no number past the list's
    assert all(int(e.split()[0]) <= annotate.MOST_TAGS for e in key.split("  ·  ") if e.split()[0].isdigit())


def test_shown_counts_tags_as_well_as_findings():
    # a finding of two places (a flight and its dice) has two tags: the count stops at the cap of tags
    spots = [[annotate.ring(10.0 * k, 20.0, 1.0), annotate.ring(10.0 * k, 40.0, 1.0)] for k in range(1, 40)]
    assert annotate.shown(spots) == annotate.MOST_TAGS // 2
    assert annotate.shown([[annotate.ring(1.0, 1.0, 1.0)]] * 100) == annotate.MOST_TAGS
    assert annotate.shown([[]] * 5) == 5


# --- the label placer: its work near linear in the tags ---------------------------------------

def busy_page():
    """The checked Yuncos illegal example's page and every text on it, as the benchmark uses."""
    loaded = records.load(EX / "yuncos-illegal.toml")
    checked = records.check(loaded)
    scene = loaded.kind.overlay(loaded.record, checked, "a4")
    page = scene.pages[0]
    return L.text_boxes(page.items, scene.forms, keep=lambda t: t.color != annotate.RED), L.drawable(page)


def random_tags(n: int, seed: int = 15, w: float = 150.0, h: float = 215.0) -> list[L.Tag]:
    """n tags anchored in a w x h mm field from (30, 25), a quarter of them on an earlier
    tag's spot, as findings pile up on a square."""
    rnd = random.Random(seed)
    out: list[L.Tag] = []
    for k in range(1, n + 1):
        if k % 4 == 0 and out:
            out.append(L.Tag(str(k), out[rnd.randrange(len(out))].anchor, 3.0))
        else:
            out.append(L.Tag(str(k), (rnd.uniform(30, 30 + w), rnd.uniform(25, 25 + h)), rnd.choice((0.0, 3.0))))
    return out


def field_of(n: int):
    """Tags and obstacles at the density of 100 tags on the busy sheet, on a field grown
    with n (a poster for 1,000): what the index makes cheap is the same work per tag."""
    k = (n / 100) ** 0.5
    rnd = random.Random(n)
    w, h = 150.0 * k, 215.0 * k
    obstacles = [(x, y, x + rnd.uniform(1, 6), y + rnd.uniform(1, 3))
                 for x, y in ((rnd.uniform(30, 30 + w), rnd.uniform(25, 25 + h)) for _ in range(int(250 * k * k)))]
    return random_tags(n, w=w, h=h), obstacles, (10.0, 10.0, 50 + w, 45 + h)


def test_the_placers_work_per_tag_stays_flat_from_100_to_1000_tags():
    per_tag = {}
    for n in (100, 1000):
        tags, obstacles, area = field_of(n)
        p = L.place(tags, obstacles, area)
        assert len(p.placed) + len(p.unplaced) == n and len(p.placed) > 0.9 * n
        per_tag[n] = p.compared / n
    # every tag against every tag would be ten times the work a tag; the index keeps it to
    # what lies near (a little more: the bigger field has more spots where findings pile up)
    assert per_tag[1000] < 2.5 * per_tag[100], per_tag


def test_on_a_full_sheet_each_tag_costs_its_candidates_and_no_more():
    """1,000 tags on one A4 sheet: most find no room and try every candidate within reach,
    but each candidate is held against what is near it only, however many tags are down."""
    obstacles, area = busy_page()
    cost = {}
    for n in (100, 1000):
        p = L.place(random_tags(n), obstacles, area)
        assert len(p.placed) + len(p.unplaced) == n
        cost[n] = (p.tried / n, p.compared / p.tried)
    assert cost[1000][0] <= 16 * (int(L.REACH / L.STEP) + 1)  # the 16 directions at each ring within reach
    assert cost[1000][1] < 3 * cost[100][1], cost  # comparisons a candidate: flat


def test_the_naive_placer_shows_the_count_measures_the_quadratic_cost():
    tags, _, area = field_of(300)  # tags only: the naive work a candidate is the tags down
    naive = L.place(tags[:30], [], area, naive=True), L.place(tags, [], area, naive=True)
    fast = L.place(tags[:30], [], area), L.place(tags, [], area)
    assert naive[1] == fast[1]  # the index changes the work, not the placement
    per_tag = [p.compared / len(p.placed + p.unplaced) for p in naive + fast]
    assert per_tag[1] > 5 * per_tag[0], per_tag  # each tag against every tag: grows with the tags
    assert per_tag[3] < 2.5 * per_tag[2], per_tag


def test_a_thousand_tags_on_one_spot_scan_its_candidates_once():
    tags = [L.Tag(str(k), (100.0, 100.0), 3.0) for k in range(1, 1001)]
    p = L.place(tags, [], L.drawable(S.Page(210.0, 297.0)))
    per_size = 16 * (int(L.REACH / L.STEP) + 1)  # every candidate of one tag size
    sizes = len({L.tag_size(t.text) for t in tags})  # "1".."9", "10".."99", ...
    # each size of tag resumes where the last one stopped: the whole scan once, plus one step a tag
    assert p.tried <= sizes * per_size + len(tags)
    assert p.placed and len(p.placed) + len(p.unplaced) == 1000
