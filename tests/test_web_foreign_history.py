"""The page over a history it did not write: plays in progress whose stored record text the
page cannot use (brought in by `sheetkit import`, or edited by hand in the SQLite file). Every
route of such a play answers one line naming the play, in the page's language (409), never a
500 or a traceback; the other plays keep working.

The rows are written straight into a real history file (Store.update_sheets, which keeps the
text as given), so these tests do not depend on what `sheetkit import` lets through."""

from __future__ import annotations

import logging
import re
import shutil

import pytest

from sheetkit.history import Store
from sheetkit.web.plays.routes import STORES
from sheetkit.web.app import create_app

from test_web import Client
from test_web_play_iunu import START as IUNU_START
from test_web_plays import START as GLUX_START
from test_web_plays import start_play

STARTS = {
    "glux": GLUX_START,
    "yuncos": {"game": "yuncos", "variant": "yuncos-easy", "name0": "Ana", "name1": "Bea", "first": "0"},
    "levelx": {"game": "levelx", "name0": "Ana", "name1": "Ben", "first": "0"},
    "iunu": IUNU_START,
}

DEEP = "x = " + "[" * 3000 + "]" * 3000 + "\n"
# what a play's stored record text may be when the page did not write it
FOREIGN = {
    "deep": DEEP,
    "deep_tables": "game = \"glux\"\n" + "a." * 2000 + "b = 1\n",
    "digits": "game = \"glux\"\nx = " + "9" * 5000 + "\n",
    "int_2_70": "game = \"{game}\"\nin_progress = true\nx = " + str(2 ** 70) + "\n",
    "not_toml": "this is not a record = = =\n",
    "nul": "game = \"{game}\"\nin_progress = true\x00\n",
    "empty": "",
    "bom_only": "\ufeff",
    "other_game": "game = \"{other}\"\nin_progress = true\n",
    "no_game": "in_progress = true\nplayers = 3\n",
    "layout_path": "game = \"yuncos\"\nlayout = \"../../etc/passwd\"\nin_progress = true\n",
    "board_path": "game = \"glux\"\nkind = \"game\"\nboard = \"/etc/passwd\"\nin_progress = true\n",
    "table_paths": "game = \"yuncos\"\nkind = \"table\"\nin_progress = true\n[[player]]\nname = \"A\"\nsheet = \"/etc/passwd\"\n",
    "deck_path": "game = \"iunu\"\ndeck = \"/etc/passwd\"\nin_progress = true\n",
    "array_root": "game = [1, 2]\nin_progress = true\n",
}
OTHER = {"glux": "levelx", "yuncos": "glux", "levelx": "iunu", "iunu": "yuncos"}


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """A history with two plays in progress of each game the page enters: (file, {game: (a, b)})."""
    db = tmp_path_factory.mktemp("foreign") / "template.sqlite3"
    phone = Client(create_app(db=db), lang="en")
    ids = {game: (start_play(phone, form), start_play(phone, {**form, "name0": "Zoe"}))
           for game, form in STARTS.items()}
    assert STORES.settled()  # the page idle: the file alone holds its plays, to be copied
    return db, ids


@pytest.fixture
def history(template, tmp_path):
    db = tmp_path / "history.sqlite3"
    shutil.copy(template[0], db)
    return db, template[1]


def rewrite(db, play_id: int, text: str, sheet: int = 0) -> None:
    """Sheet `sheet` of the play holds `text` from now on, its verdict as it was (as an
    import that does not check the text would leave it)."""
    with Store.open(db) as store:
        play = store.get(play_id)
        sheets = list(play.sheets)
        sheets[sheet] = type(sheets[sheet])(text, sheets[sheet].source, sheets[sheet].verdict, sheets[sheet].player)
        store.update_sheets(play_id, sheets)


def routes(play_id: int) -> list[tuple[str, str]]:
    return [("GET", f"/play/{play_id}"), ("GET", f"/play/{play_id}?whole=1"), ("POST", f"/play/{play_id}/move"),
            ("POST", f"/play/{play_id}/undo"), ("POST", f"/play/{play_id}/end"), ("GET", f"/play/{play_id}/end"),
            ("GET", f"/play/{play_id}/record/1"), ("GET", f"/play/{play_id}/pdf/1"), ("GET", f"/play/{play_id}/table")]


def answers(phone, db, play_id: int):
    """Each route of the play: (method, url, page), a redirect followed."""
    with Store.open(db) as store:
        version = store.get(play_id).version
    for method, url in routes(play_id):
        if method == "GET":
            page = phone.get(url, follow_redirects=True)
        else:
            page = phone.post(url, {"version": version, "player": "A", "face": "3", "square": "5", "action": "place"},
                              follow_redirects=True)
        yield method, url, page


def tables(db) -> list:
    import sqlite3

    con = sqlite3.connect(db)
    try:
        return [con.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
                for t in ("plays", "sheets", "seats", "people")]
    finally:
        con.close()


def assert_refused(page, play_id: int, lang: str = "en", url: str = ""):
    assert page.code == 409, (url, page.code, page.text[:1500])
    assert page.error and "\n" not in page.error, page.text[:1500]
    assert re.search(rf"\b(Play|partida) {play_id}\b", page.error), page.error
    assert "Traceback" not in page.text and "root:" not in page.text


@pytest.mark.parametrize("game", list(STARTS))
@pytest.mark.parametrize("kind", list(FOREIGN))
def test_a_play_whose_record_the_page_cannot_use_is_one_line_on_every_route(history, game, kind, caplog):
    db, ids = history
    bad, good = ids[game]
    rewrite(db, bad, FOREIGN[kind].format(game=game, other=OTHER[game]))
    before = tables(db)
    phone = Client(create_app(db=db), lang="en")
    with caplog.at_level(logging.ERROR):
        for method, url, page in answers(phone, db, bad):
            assert_refused(page, bad, url=url)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text[:3000]
    assert tables(db) == before  # nothing written
    page = phone.get(f"/play/{good}")  # the other plays keep working
    assert page.code == 200 and page.error is None, page.text[:1500]


def test_the_refusal_is_in_the_pages_language(history):
    db, ids = history
    bad, _ = ids["glux"]
    rewrite(db, bad, "not toml at all")
    phone = Client(create_app(db=db), lang="es")
    page = phone.get(f"/play/{bad}")
    assert_refused(page, bad, "es")
    assert "partida" in page.error, page.error


def test_a_second_sheet_the_page_cannot_use_refuses_the_whole_play(history):
    db, ids = history
    bad, good = ids["yuncos"]
    rewrite(db, bad, FOREIGN["digits"], sheet=1)
    phone = Client(create_app(db=db), lang="en")
    for method, url, page in answers(phone, db, bad):
        assert_refused(page, bad)
    assert phone.get(f"/play/{good}").code == 200


def test_the_home_page_still_lists_the_play(history):
    db, ids = history
    bad, _ = ids["levelx"]
    rewrite(db, bad, FOREIGN["nul"].format(game="levelx"))
    page = Client(create_app(db=db), lang="en").get("/")
    assert page.code == 200 and f'href="/play/{bad}"' in page.text


@pytest.fixture
def photo_history(tmp_path):
    """A history with two Yuncos sheets read from a photo, both still to confirm: (file, a, b)."""
    db = tmp_path / "history.sqlite3"
    phone = Client(create_app(db=db), lang="en")
    ids = [start_play(phone, {**STARTS["yuncos"], "name1": ""}) for _ in range(2)]
    with Store.open(db) as store:
        for pid in ids:
            store.save_photo(pid, 0, b"\xff\xd8\xff\xe0 a photo", {"fields": [
                {"key": "start", "confidence": 0.5, "box": [20, 30, 10, 8]}], "notes": []})
    return db, ids[0], ids[1]


@pytest.mark.parametrize("kind", ["deep", "digits", "int_2_70", "nul", "empty", "other_game", "layout_path", "table_paths"])
def test_a_sheet_read_from_a_photo_whose_text_the_page_cannot_use(photo_history, kind, caplog):
    db, bad, good = photo_history
    rewrite(db, bad, FOREIGN[kind].format(game="yuncos", other="glux"))
    before = tables(db)
    phone = Client(create_app(db=db), lang="en")
    with Store.open(db) as store:
        version = store.get(bad).version
    form = {"version": version, "sheet": "0", "start": "1", "text": 'game = "yuncos"\nlayout = "yuncos-easy"\n'}
    with caplog.at_level(logging.ERROR):
        for url in (f"/play/{bad}", f"/photo/{bad}", f"/photo/{bad}/image/0", f"/photo?play={bad}"):
            assert_refused(phone.get(url, follow_redirects=True), bad, url=url)
        for url in (f"/photo/{bad}/fields", f"/photo/{bad}/text"):
            assert_refused(phone.post(url, form), bad, url=url)
        assert_refused(phone.post("/photo", {"play": str(bad), "name": "Zoe"}), bad)  # another sheet for it
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text[:3000]
    assert tables(db) == before
    assert phone.get(f"/photo/{good}").code == 200


def test_a_finished_photo_play_whose_text_the_page_cannot_use(photo_history, caplog):
    db, bad, _ = photo_history
    with Store.open(db) as store:  # saved (no longer in progress), then its text replaced
        play = store.get(bad)
        s = play.sheets[0]
        store.update_sheets(bad, [type(s)(FOREIGN["digits"], s.source, {**s.verdict, "in_progress": False}, s.player)])
    phone = Client(create_app(db=db), lang="en")
    with caplog.at_level(logging.ERROR):
        for url in (f"/photo?play={bad}", f"/play/{bad}/end"):
            page = phone.get(url)
            assert page.code in (200, 409), (url, page.code, page.text[:1500])
        page = phone.post("/photo", {"play": str(bad), "name": "Zoe"})
        assert page.code in (400, 409) and page.error, page.text[:1500]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text[:3000]


@pytest.mark.parametrize("kind", list(FOREIGN))
def test_a_finished_play_whose_record_the_page_cannot_use_keeps_its_end_page(history, kind, caplog):
    """A finished play is shown from the verdicts kept: its end page still answers, the
    downloads that need the record say so (or are not offered), never a 500."""
    db, ids = history
    for game in ("yuncos", "glux"):
        bad, _ = ids[game]
        with Store.open(db) as store:
            play = store.get(bad)
            store.update_sheets(bad, [type(s)(FOREIGN[kind].format(game=game, other=OTHER[game]), s.source,
                                              {**s.verdict, "in_progress": False}, s.player) for s in play.sheets])
        phone = Client(create_app(db=db), lang="en")
        with caplog.at_level(logging.ERROR):
            assert phone.get(f"/play/{bad}/end").code == 200
            assert phone.get(f"/play/{bad}/record/1").code == 200  # the text kept, as it is
            assert phone.get(f"/play/{bad}/pdf/1").code == 404
            page = phone.get(f"/play/{bad}/table")
            assert page.code == 404 or (page.code == 409 and str(bad) in page.error), page.text[:1000]
            assert phone.get(f"/play/{bad}").resp.headers["Location"] == f"/play/{bad}/end"
            assert phone.post(f"/play/{bad}/move", {"version": "x"}).code in (303, 409)
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text[:3000]
