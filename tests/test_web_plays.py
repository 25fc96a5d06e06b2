"""Plays entered move by move on the page, every route through Flask's test client: a whole
Glüx game against the engine, undo, end, the downloads against `sheetkit check`, a
restart of the server, hostile values, the token and cross-site posts."""

from __future__ import annotations

import html
import io
import json
import re
import subprocess
import sys
import tomllib

import pytest

from sheetkit.checking import records
from sheetkit.history import Store
from sheetkit.web.app import MAX_BODY, create_app

from conftest import ROOT, sheetkit
from test_web import Client, Page, assert_clear_error

EXAMPLES = ROOT / "examples"
GAME = EXAMPLES / "glux-game-3p.toml"
START = {"game": "glux", "variant": "34p", "name0": "Ana", "name1": "Ben", "name2": "Carla", "first": "0",
         "start_chip0": "6", "start_chip1": "2", "start_chip2": "4"}


def placements(path=GAME) -> list[dict]:
    """The example's placements as the entry form sends them (player, face, square or start)."""
    out = []
    for line in tomllib.loads(path.read_text())["moves"].splitlines():
        parts = line.split()
        if not parts:
            continue
        if parts[1] == "start":
            out.append({"player": parts[0], "face": parts[2], "action": "start"})
        else:
            out.append({"player": parts[0], "face": parts[2], "square": parts[1].split("-")[-1], "action": "place"})
    return out


@pytest.fixture
def db(tmp_path):
    return tmp_path / "history.sqlite3"


@pytest.fixture
def phone(db):
    client = Client(create_app(db=db))
    client.db = db
    return client


def start_play(phone, form: dict) -> int:
    """Start a play from the start form's values; its number (the page goes on to it)."""
    page = phone.post("/play/new", form)
    assert page.code == 303, page.text[:3000]
    return int(page.resp.headers["Location"].rsplit("/", 1)[1])


def start(phone, **changes) -> int:
    return start_play(phone, {**START, **changes})


def move(phone, pid, form) -> Page:
    page = phone.get(f"/play/{pid}")
    version = page.hidden(f"/play/{pid}/move", "version")
    return phone.post(f"/play/{pid}/move", {"version": version, **form})


def step(phone, pid, what, form=None) -> Page:
    """Send the entry page's `what` form (move, undo, end) with the play's version, as a tap would."""
    page = phone.get(f"/play/{pid}")
    assert page.code == 200, page.text[:2000]
    version = page.hidden(f"/play/{pid}/{what}", "version")
    return phone.post(f"/play/{pid}/{what}", {"version": version, **(form or {})})


def test_start_form_offers_the_games_and_the_names_of_the_history(phone, db):
    page = phone.get("/play/new")
    assert page.code == 200 and 'href="/play/new?game=glux"' in page.text
    page = phone.get("/play/new?game=glux")
    assert page.code == 200 and 'id="start_chip0"' in page.text and 'list="people"' in page.text
    start(phone)
    page = phone.get("/play/new?game=glux")
    assert all(f'<option value="{n}">' in page.text for n in ("Ana", "Ben", "Carla"))
    assert_clear_error(phone.get("/play/new?game=../../etc"), "Game")


def test_a_whole_glux_game_gives_the_engines_verdict_and_is_saved(phone, db, tmp_path):
    want = records.check(records.load(GAME)).verdict
    pid = start(phone)
    page = phone.get(f"/play/{pid}")
    assert page.find("play-status") == "Legal (in progress; Ana to move)"
    assert page.text.count('class="sq dest') > 0  # the legal destinations are marked
    for k, form in enumerate(placements()):
        page = move(phone, pid, form)
        assert page.code == 303, (k, page.error)
    # nobody can place any more (G10): the play ended with that placement, the end page follows
    page = phone.get(f"/play/{pid}")
    assert page.code == 303 and page.resp.headers["Location"] == f"/play/{pid}/end"
    with Store.open(db) as store:
        before = store.get(pid).sheets[0].text
        assert not store.get(pid).in_progress and "in_progress" not in tomllib.loads(before)
    late = phone.post(f"/play/{pid}/move", {"version": "x", "player": "A", "face": "3", "square": "A1",
                                             "action": "place"})
    assert late.code == 409 and "over" in late.error
    with Store.open(db) as store:
        assert store.get(pid).sheets[0].text == before  # nothing taken
    end = phone.get(f"/play/{pid}/end")
    assert end.code == 200
    assert end.find("end-winners") == f"Winner: {', '.join(want.winners)}"
    assert [int(x) for x in re.findall(r'class="rank-total">(\d+)<', end.text)] == \
        sorted((s.total for s in want.scores), reverse=True)
    breakdown = re.search(r'id="breakdown".*?</table>', end.text, re.S).group(0)  # the players side by side
    assert re.findall(r"<th scope=\"col\">([^<]+)</th>", breakdown) == [s.player for s in want.scores]
    assert [int(x) for x in re.findall(r'class="total-value">(-?\d+)<', breakdown)] == [s.total for s in want.scores]
    assert end.find("status") == "Legal"
    link = html.unescape(re.search(r'id="bgstats-link" href="([^"]+)"', end.text).group(1))
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    assert f'data-qr="{html.escape(link)}"' in end.text  # the QR code is that link
    # the download is the stored text, and `sheetkit check` of it says what the page said
    record = phone.c.get(f"/play/{pid}/record/1")
    assert 'filename="glux-play-1.toml"' in record.headers["Content-Disposition"]
    with Store.open(db) as store:
        play = store.get(pid)
        assert record.get_data(as_text=True) == play.sheets[0].text
        assert not play.in_progress and play.legal and play.winners == list(want.winners)
    (tmp_path / "glux-play-1.toml").write_bytes(record.get_data())
    run = sheetkit("check", "glux-play-1.toml", "--json", "--render", "checked.pdf", cwd=tmp_path)
    assert run.code == 0
    (got,) = json.loads(run.out)  # one record: a list of one verdict
    assert got["legal"] and got["winners"] == list(want.winners)
    assert [s["total"] for s in got["scores"]] == [s.total for s in want.scores]
    pdf = phone.c.get(f"/play/{pid}/pdf/1")
    assert pdf.status_code == 200 and pdf.get_data() == (tmp_path / "checked.pdf").read_bytes()
    # it counts in the standings and is listed by `sheetkit plays`
    run = sheetkit("plays", "--db", db)
    assert run.code == 0 and "Ana 12, Ben 18 (won), Carla 16" in run.out
    stats = json.loads(sheetkit("stats", "--db", db, "--json").out)
    assert [(g["game"], g["plays"]) for g in stats["games"]] == [("glux", 1)]


def test_an_illegal_move_is_entered_with_its_finding_and_undone(phone, db):
    pid = start(phone)
    page = move(phone, pid, {"player": "A", "face": "5", "square": "H6", "action": "place"})  # reached by no chip
    assert page.code == 303
    page = phone.get(f"/play/{pid}")
    assert page.find("play-status").startswith("ILLEGAL: 1 finding")
    assert page.rules() == ["G4"] and "turn 1 (Ana, H6)" in page.text
    with Store.open(db) as store:
        assert not store.get(pid).legal
    assert step(phone, pid, "undo").code == 303
    page = phone.get(f"/play/{pid}")
    assert page.find("play-status") == "Legal (in progress; Ana to move)" and page.rules() == []
    assert_clear_error(step(phone, pid, "undo"), "no move to undo")


@pytest.mark.parametrize("form, words", [
    ({"player": "A", "square": "A7", "action": "place"}, ["face"]),
    ({"player": "A", "face": "7", "square": "A7", "action": "place"}, ["Chip face", "1 to 6"]),
    ({"player": "A", "face": "2", "action": "place"}, ["square"]),
    ({"player": "A", "face": "2", "square": "Z99", "action": "place"}, ["'Z99'", "15 x 11"]),
    ({"player": "A", "face": "2", "square": "A7" * 1000, "action": "place"}, ["not a square"]),
    ({"player": "A", "face": "2", "square": "A\x007", "action": "place"}, ["not a square"]),
    ({"player": "E", "face": "2", "square": "A7", "action": "place"}, ["Who places"]),
    ({"player": "A", "face": "2", "square": "A7", "action": "fly"}, ["not one of the choices"]),
])
def test_a_value_that_is_no_move_is_one_message_nothing_saved(phone, db, form, words):
    pid = start(phone)
    with Store.open(db) as store:
        before = store.get(pid).version
    page = move(phone, pid, form)
    assert_clear_error(page, *words)
    assert page.value("version") == before  # the form is still the play's as it was
    if "face" in form and form["face"] == "2":
        assert 'id="face-2" checked' in page.text  # the form keeps what was chosen
    with Store.open(db) as store:
        assert store.get(pid).version == before


@pytest.mark.parametrize("changes, words", [
    ({"name1": "", "name2": ""}, ["2 to 4", "got 1"]),
    ({"name1": "ana"}, ["appears twice"]),
    ({"name1": "B\x00en"}, ["control"]),
    ({"name1": "x" * 300}, ["at most"]),
    ({"variant": "99p"}, ["not one of the choices"]),
    ({"variant": "2p"}, ["does not take 3 players"]),
    ({"first": "3"}, ["First player"]),
    ({"first": "-1"}, ["First player"]),
    ({"start_chip1": ""}, ["Start chip of Ben"]),
    ({"start_chip1": "9"}, ["Start chip of Ben"]),
    ({"start_sq0": "H11", "start_sq1": "H11"}, ["H11"]),
    ({"start_sq0": "../x"}, ["not a square"]),
    ({"game": "nogame"}, ["Game"]),
])
def test_bad_start_forms(phone, db, changes, words):
    page = phone.post("/play/new", {**START, **changes})
    assert_clear_error(page, *words)
    if db.is_file():
        with Store.open(db) as store:
            assert store.plays() == []


def test_first_player_and_start_squares(phone, db):
    pid = start(phone, first="1", start_sq0="O1")
    text = phone.c.get(f"/play/{pid}/record/1").get_data(as_text=True)
    players = tomllib.loads(text)["players"]
    assert [p["name"] for p in players] == ["Ben", "Carla", "Ana"]  # seat order from the first player on
    assert [p["letter"] for p in players] == ["A", "B", "C"]
    assert [p["start"] for p in players][2] == "O1"


def test_the_play_survives_a_server_restart(db):
    phone = Client(create_app(db=db))
    pid = start(phone)
    for form in placements()[:5]:
        assert move(phone, pid, form).code == 303
    # a new server (a new app, a new browser session) on the same history file
    again = Client(create_app(db=db))
    home = again.get("/")
    assert f'href="/play/{pid}"' in home.text  # offered to resume
    page = again.get(f"/play/{pid}")
    assert "(5)" in page.text and page.find("play-status") == "Legal (in progress; Carla to move)"
    assert move(again, pid, placements()[5]).code == 303


def test_a_page_that_is_no_longer_current_enters_nothing(phone, db):
    pid = start(phone)
    page = phone.get(f"/play/{pid}")
    old = page.hidden(f"/play/{pid}/move", "version")
    assert move(phone, pid, placements()[0]).code == 303  # another phone enters the move
    page = phone.post(f"/play/{pid}/move", {"version": old, **placements()[0]})
    assert_clear_error(page, "another phone", code=409)
    with Store.open(db) as store:
        assert tomllib.loads(store.get(pid).sheets[0].text)["moves"].count("\n") == 1


def test_open_a_record_to_continue_it(phone, db):
    upload = (EXAMPLES / "glux-game-in-progress.toml").read_bytes()
    import io

    page = phone.post("/play/open", {"record": (io.BytesIO(upload), "ongoing.toml")}, content_type="multipart/form-data")
    assert page.code == 303
    pid = int(page.resp.headers["Location"].rsplit("/", 1)[1])
    page = phone.get(f"/play/{pid}")
    assert page.find("play-status") == "Legal (in progress; Ben to move)"
    again = phone.post("/play/open", {"record": (io.BytesIO(upload), "again.toml")}, content_type="multipart/form-data")
    assert again.resp.headers["Location"] == f"/play/{pid}"  # the same file again: the same play
    with Store.open(db) as store:
        assert len(store.plays()) == 1
    # a board record, another game's record, a record naming a file: one message each
    for path, words in ((EXAMPLES / "glux-board-3p.toml", ["final board"]),
                        (EXAMPLES / "yuncos-in-progress.toml", []),
                        (EXAMPLES / "glux-bad-input.toml", [])):
        page = phone.post("/play/open", {"record": (io.BytesIO(path.read_bytes()), path.name)},
                          content_type="multipart/form-data")
        if "yuncos" in path.name and page.code == 303:
            continue  # the Yuncos move entry may take it
        assert_clear_error(page, *words)
    data = tomllib.loads((EXAMPLES / "glux-game-in-progress.toml").read_text())
    text = (EXAMPLES / "glux-game-in-progress.toml").read_text().replace('"glux-board-34p"', '"/etc/passwd"')
    page = phone.post("/play/open", {"record": (io.BytesIO(text.encode()), "evil.toml")}, content_type="multipart/form-data")
    assert_clear_error(page, "shipped layout")
    assert_clear_error(phone.post("/play/open", {}, content_type="multipart/form-data"), "record file")
    assert data


def test_unknown_plays_and_downloads_are_404(phone):
    for url in ("/play/1", "/play/1/end", "/play/1/record/1", "/play/1/pdf/1", "/play/99999999999999999999999",
                "/play/-1", "/play/abc"):
        assert phone.get(url).code == 404, url
    pid = start(phone)
    for url in (f"/play/{pid}/record/0", f"/play/{pid}/record/2", f"/play/{pid}/pdf/9"):
        assert phone.get(url).code == 404, url
    assert phone.post("/play/999/move", {"version": "x"}).code == 404


def test_end_page_redirects_while_in_progress_and_entry_after_the_end(phone):
    pid = start(phone)
    assert phone.get(f"/play/{pid}/end").code == 303
    assert step(phone, pid, "end").code == 303
    assert phone.get(f"/play/{pid}").code == 303  # to its end page
    page = phone.get(f"/play/{pid}/end")
    assert page.code == 200 and "marked illegal" in page.find("saved")  # ended at once: G10, not over
    assert page.rules() and "G10" in page.rules()
    # nothing more is entered into a finished play; ending it again shows its end
    with Store.open(phone.db) as store:
        version = store.get(pid).version
    assert_clear_error(phone.post(f"/play/{pid}/move", {"version": version, **placements()[0]}), "over", code=409)
    assert_clear_error(phone.post(f"/play/{pid}/undo", {"version": version}), "over", code=409)
    assert phone.post(f"/play/{pid}/end", {"version": version}).resp.headers["Location"] == f"/play/{pid}/end"


def test_steps_need_the_csrf_token_and_this_sites_origin(phone):
    pid = start(phone)
    version = phone.get(f"/play/{pid}").hidden(f"/play/{pid}/move", "version")
    form = {"version": version, **placements()[0]}
    assert phone.post(f"/play/{pid}/move", form, csrf=False).code == 403
    assert phone.post(f"/play/{pid}/move", {**form, "csrf": "forged"}).code == 403
    assert phone.post(f"/play/{pid}/move", form, headers={"Origin": "http://evil.example"}).code == 403
    assert phone.post("/play/new", START, headers={"Origin": "null"}).code == 403
    assert phone.post(f"/play/{pid}/end", {"version": version}, headers={"Origin": "http://evil.example"}).code == 403
    import io

    upload = {"record": (io.BytesIO((EXAMPLES / "glux-game-in-progress.toml").read_bytes()), "x.toml")}
    assert phone.post("/play/open", upload, csrf=False, content_type="multipart/form-data").code == 403
    page = phone.get(f"/play/{pid}")
    assert "(0)" in page.text


def test_oversized_step(phone):
    pid = start(phone)
    page = phone.post(f"/play/{pid}/move", {"version": "x", "square": "A" * (MAX_BODY + 1)})
    assert page.code == 413
    import io

    big = {"record": (io.BytesIO(b"#" * (MAX_BODY + 10)), "big.toml")}
    assert phone.post("/play/open", big, content_type="multipart/form-data").code == 413
    assert phone.post("/play/new", {**START, "name3": "x" * (MAX_BODY + 1)}).code == 413


def test_token_guards_the_plays(db):
    app = create_app(token="tok", db=db)
    c = app.test_client()
    for url in ("/play/new", "/play/1", "/play/1/end", "/play/1/record/1"):
        assert c.get(url).status_code == 403, url
    assert c.post("/play/new", data=START).status_code == 403


def test_names_are_escaped_on_the_entry_and_end_pages(phone):
    pid = start(phone, name0="<script>alert(1)</script>")
    page = phone.get(f"/play/{pid}")
    assert "<script>alert" not in page.text and "&lt;script&gt;" in page.text
    step(phone, pid, "end")
    assert "<script>alert" not in phone.get(f"/play/{pid}/end").text


def test_an_unusable_history_is_one_message(tmp_path):
    bad = tmp_path / "not-a-history.sqlite3"
    bad.write_text("hello")
    phone = Client(create_app(db=bad))
    page = phone.post("/play/new", START)
    assert page.code == 503 and "not a sheetkit history" in page.error
    assert bad.read_text() == "hello"


def test_serve_takes_a_history_file(tmp_path):
    from conftest import assert_user_error

    bad = tmp_path / "x.sqlite3"
    bad.write_text("hello")
    assert_user_error(sheetkit("serve", "--db", bad, "--port", _free_port()), "not a sheetkit history")
    assert bad.read_text() == "hello"
    run = sheetkit("serve", "--help")
    assert "--db" in run.out


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_page_does_not_create_a_history_just_by_being_looked_at(tmp_path):
    db = tmp_path / "none.sqlite3"
    phone = Client(create_app(db=db))
    assert phone.get("/").code == 200 and phone.get("/play/new?game=glux").code == 200
    assert not db.exists()
    assert subprocess.run([sys.executable, "-c", "import sheetkit.web.plays"], cwd=ROOT).returncode == 0


TIE = '''game = "glux"
kind = "board"
board = "glux-board-2p"
players = [
  { name = "Ana", letter = "A", start = "A1" },
  { name = "Ben", letter = "B", start = "M9" },
]
grid = """
A1 . . A5 . . . . . B5 . . .
.  . . .  . . . . . .  . . .
A2 . . .  . . . . . .  . . .
.  . . .  . B3 . . . .  . . .
.  . . .  . . . . . .  . . .
.  . . .  . . . . . .  . . .
.  . . .  . . . . . .  . . .
.  . . .  . . . . . .  . . .
.  . . .  . . . . . .  . . B1
"""
'''


def test_the_end_page_of_any_logged_play_explains_the_tiebreak(phone, db):
    """A play logged by the command line (here a final board that ties on VP) has the same
    end page: ranking, the tiebreak sentence, the breakdown."""
    from sheetkit.history import intake
    from sheetkit.history.store import NewPlay, now

    sheet = intake.sheet_from_text(TIE, "tie.toml")[0]
    assert sheet.verdict["legal"] and sheet.verdict["winners"] == ["Ben"]
    with Store.open(db) as store:
        pid = store.add_play(NewPlay("glux", (sheet,), now()))
    end = phone.get(f"/play/{pid}")
    assert end.code == 303  # finished: to its end page
    end = phone.get(f"/play/{pid}/end")
    assert end.code == 200 and end.find("end-winners") == "Winner: Ben"
    assert "middle room" in end.find("tiebreak") and "tie on 8 VP" in end.find("tiebreak")
    assert re.findall(r'class="rank-total">(\d+)<', end.text) == ["8", "8"]
    ranking = re.search(r'id="ranking".*?</table>', end.text, re.S).group(0)
    assert re.findall(r"<td>(\d)</td>", ranking) == ["1", "2"]  # equal on points, the tiebreak decides
    assert ranking.index("Ben") < ranking.index("Ana") and "Winner" in ranking.split("Ana")[0]
    assert phone.c.get(f"/play/{pid}/record/1").get_data(as_text=True) == TIE  # the text as logged
    assert phone.get(f"/play/{pid}/pdf/1").code == 200


def test_a_step_without_or_with_a_forged_version_enters_nothing(phone, db):
    pid = start(phone)
    for version in ("", "0" * 16, "x" * 5000):
        form = {**placements()[0]}
        if version:
            form["version"] = version
        assert_clear_error(phone.post(f"/play/{pid}/move", form), "another phone", code=409)
    assert_clear_error(phone.post(f"/play/{pid}/undo", {}), "another phone", code=409)
    assert_clear_error(phone.post(f"/play/{pid}/end", {}), "another phone", code=409)
    with Store.open(db) as store:
        play = store.get(pid)
        assert play.in_progress and tomllib.loads(play.sheets[0].text)["moves"] == ""


def test_an_unusable_record_opened_from_the_spanish_page_is_said_in_spanish(db):
    """The engine's one line for a record it cannot use, in the page's language."""
    path = EXAMPLES / "glux-bad-input.toml"
    pages = {}
    for lang in ("es", "en"):
        phone = Client(create_app(db=db), lang=lang)
        pages[lang] = phone.post("/play/open", {"record": (io.BytesIO(path.read_bytes()), path.name)},
                                 content_type="multipart/form-data")
        assert pages[lang].code == 400 and pages[lang].error
    assert pages["es"].error != pages["en"].error
    assert not re.search(r"\b(expected|got|must|the)\b", pages["es"].error), pages["es"].error
    with Store.open(db) as store:
        assert store.plays() == []


def test_the_entry_page_in_spanish_and_the_whole_board(db):
    phone = Client(create_app(db=db), lang="es")
    pid = start(phone)
    page = phone.get(f"/play/{pid}")
    assert page.find("play-status") == "Legal (en curso; juega Ana)" and "Cara de la ficha" in page.text
    version = page.hidden(f"/play/{pid}/move", "version")
    assert 'id="whole" class="zoom-toggle" >' in page.text  # 44 px squares unless the whole board is asked for
    moved = phone.post(f"/play/{pid}/move", {"version": version, "whole": "on", **placements()[0]})
    assert moved.resp.headers["Location"] == f"/play/{pid}?whole=1"  # the whole board stays chosen
    assert 'id="whole" class="zoom-toggle" checked' in phone.get(f"/play/{pid}?whole=1").text


def test_a_play_is_one_record_text_that_reads_back(phone, db):
    """What is stored is the TOML notation itself: every step's text checks, as it is, the
    same as the page's verdict."""
    pid = start(phone)
    for form in placements()[:12]:
        move(phone, pid, form)
        with Store.open(db) as store:
            s = store.get(pid).sheets[0]
        loaded = records.parse(tomllib.loads(s.text), s.source)
        assert records.check(loaded).verdict.to_json() == s.verdict


def test_a_two_player_play_on_the_two_player_side(phone):
    pid = start(phone, variant="2p", name2="", start_chip0="6", start_chip1="2")
    page = phone.get(f"/play/{pid}")
    assert 'class="squares cols-13"' in page.text and page.text.count('class="sq-radio"') == 13 * 9
    players = tomllib.loads(phone.c.get(f"/play/{pid}/record/1").get_data(as_text=True))["players"]
    assert [p["start"] for p in players] == ["A1", "M9"]  # diagonally opposite corners (G3)
    assert page.find("play-status") == "Legal (in progress; Ana to move)"


def test_the_tap_squares_lie_on_the_board_drawn_on_the_page():
    """The page lays a grid of tap squares over the viewBox of the board's picture: that
    viewBox must be exactly where the checked sheet draws the board (its background)."""
    from sheetkit.games.glux.overlay import overlay
    from sheetkit.paper import scene as S
    from sheetkit.games.glux.entry import board_svg

    for example in ("glux-game-3p.toml", "glux-game-in-progress.toml", "glux-game-short.toml"):
        loaded = records.load(EXAMPLES / example)
        checked = records.check(loaded)
        view = map(float, re.search(r'viewBox="([^"]+)"', board_svg(loaded.record, checked)).group(1).split())
        rects = [i for i in overlay(loaded.record, checked, "a4").pages[0].items if isinstance(i, S.Rect)]
        board = max(rects, key=lambda r: r.w * r.h)
        assert list(view) == pytest.approx([board.x, board.y, board.w, board.h], abs=0.002), example  # 1/1000 mm in the svg


def test_a_step_sent_by_the_pages_script_is_answered_with_the_page_itself(phone, db):
    """The page's script marks its steps (X-Sheetkit-Step): a move or an undo is answered
    with the very page a GET of the play gives next (one request a move, the view's choices
    kept), its address in X-Sheetkit-Page; a refused step names the play's page too (not the
    step's own address), and its language switch leads there; the end still leads on to the
    end page. Without the mark, the 303 as ever."""
    pid = start(phone)
    script = {"X-Sheetkit-Step": "1"}

    def sent(what, form, headers=script):
        version = phone.get(f"/play/{pid}").hidden(f"/play/{pid}/{what}", "version")
        return phone.post(f"/play/{pid}/{what}", {"version": version, **form}, headers=headers)

    for what, form, address in (("move", placements()[0], f"/play/{pid}"),
                                ("move", {**placements()[1], "whole": "on"}, f"/play/{pid}?whole=1"),
                                ("undo", {}, f"/play/{pid}")):
        got = sent(what, form)
        assert got.code == 200, got.text[:2000]
        assert got.resp.headers["X-Sheetkit-Page"] == address
        assert got.text == phone.get(address).text
    assert sent("move", placements()[1], headers={}).code == 303
    with Store.open(db) as store:
        assert tomllib.loads(store.get(pid).sheets[0].text)["moves"].count("\n") == 2

    refused = phone.post(f"/play/{pid}/move", {"version": "old", **placements()[2], "whole": "on"}, headers=script)
    assert_clear_error(refused, "another phone", code=409)
    assert refused.resp.headers["X-Sheetkit-Page"] == f"/play/{pid}?whole=1"
    refused = phone.post(f"/play/{pid}/move", {"version": "old", **placements()[2]}, headers=script)
    assert refused.resp.headers["X-Sheetkit-Page"] == f"/play/{pid}"
    assert f'href="/play/{pid}?lang=es"' in refused.text
    bad = sent("move", {**placements()[2], "face": "9"})
    assert bad.code == 400 and bad.resp.headers["X-Sheetkit-Page"] == f"/play/{pid}"

    ended = sent("end", {})
    assert ended.code == 303 and ended.resp.headers["Location"].endswith(f"/play/{pid}/end")

    other = start(phone)  # a step sent to a play abandoned meanwhile: its end page, named
    version = phone.get(f"/play/{other}").hidden(f"/play/{other}/move", "version")
    assert phone.post(f"/play/{other}/abandon", {"version": version}).code == 303
    late = phone.post(f"/play/{other}/move", {"version": version, **placements()[0]}, headers=script)
    assert late.code == 409 and late.resp.headers["X-Sheetkit-Page"] == f"/play/{other}/end"
