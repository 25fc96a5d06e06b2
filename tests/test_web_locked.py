"""The page locked down: no file opened for a record from outside, no DNS rebinding, a
restart that keeps open pages working, and a Yuncos table carried whole in one file."""

from __future__ import annotations

import json
import os
import re
import socket
import stat
import subprocess
import sys
import time
import tomllib
import urllib.error
import urllib.request

import pytest

from sheetkit.checking import records
from sheetkit.web import security
from sheetkit.web.app import create_app

from conftest import ROOT, sheetkit
from test_web import Client, assert_clear_error

EXAMPLES = ROOT / "examples"


def table_naming(path: str) -> str:
    return f'game = "yuncos"\nkind = "table"\n[[player]]\nname = "A"\nsheet = "{path}"\n[[player]]\nname = "B"\nsheet = "b.toml"\n'


# --- a record from the page never touches the file system ---------------------------------

def test_a_table_naming_a_file_is_refused_the_same_whether_it_exists_or_not(tmp_path):
    secret = tmp_path / "secret.toml"
    secret.write_text('game = "TOP-SECRET-42"\n')
    phone = Client(create_app(db=tmp_path / "h.sqlite3"))
    answers = []
    for path in ("/etc/passwd", str(secret), str(tmp_path / "missing.toml"), "~/x.toml", "../../etc/shadow"):
        for form in ({"text": table_naming(path)},
                     {"record": (__import__("io").BytesIO(table_naming(path).encode()), "t.toml")}):
            page = phone.post("/check", form, content_type="multipart/form-data")
            assert_clear_error(page, "player[0].sheet", "cannot name a file")
            assert "TOP-SECRET" not in page.text and "root:" not in page.text and "TOML" not in page.error
            answers.append((tuple(form), page.error))
    assert len(set(answers)) == 2, answers  # pasted, uploaded: nothing tells whether a file is there


@pytest.mark.parametrize("text, field", [
    ('game = "yuncos"\nlayout = "/etc/passwd"\n', "layout"),
    ('game = "glux"\nkind = "game"\nboard = "../layouts/glux-board-2p.toml"\n', "board"),
    ('game = "iunu"\ndeck = "examples/iunu-deck-example.toml"\n', "deck"),
    ('game = "yuncos"\nkind = "table"\n[[player]]\nname = "A"\n[player.sheet]\nlayout = "/tmp/x.toml"\n', "player[0].sheet.layout"),
])
def test_every_field_that_names_a_file_is_refused_before_any_path_is_looked_at(text, field):
    page = Client().post("/check", {"text": text}, content_type="multipart/form-data")
    assert_clear_error(page, f"{field}: a record given here cannot name a file")


def test_every_record_kind_that_can_name_a_file_says_so_in_the_game_interface():
    from sheetkit import games

    named = {(g.name, k): [f.path for f in rk.files] for g in games.all_games() for k, rk in g.record_kinds.items()}
    assert named[("yuncos", "game")] == ["layout"]
    assert named[("yuncos", "table")] == ["player[].sheet", "player[].sheet.layout"]
    assert named[("glux", "game")] == named[("glux", "board")] == ["board"]
    assert named[("iunu", "game")] == ["deck"]


def test_a_whole_table_inline_is_checked_on_the_page_as_on_the_command_line():
    text = (EXAMPLES / "yuncos-table-3p-inline.toml").read_text()
    page = Client().post("/check", {"text": text}, content_type="multipart/form-data")
    assert page.code == 200, page.text[:1500]
    assert page.status == "Legal" and page.totals() == {"Ana": 31, "Bea": 36, "Caro": 40}


def test_an_inline_table_and_one_of_files_give_the_same_verdict():
    one = records.check(records.load(EXAMPLES / "yuncos-table-3p-inline.toml")).verdict.to_json()
    files = records.check(records.load(EXAMPLES / "yuncos-table-3p.toml")).verdict.to_json()
    one.pop("source"), files.pop("source")
    assert one == files


@pytest.mark.parametrize("name", ["~nosuchuser-sheetkit/a.toml", "x" * 300 + ".toml", "/dev/zero", "fifo", "folder"])
def test_a_table_sheet_path_that_cannot_be_a_sheet_is_one_line(tmp_path, name):
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "folder").mkdir()
    (tmp_path / "table.toml").write_text(table_naming(name))
    for command in (["check"], ["moves"], ["log", "--db", str(tmp_path / "h.sqlite3")]):
        run = sheetkit(*command, "table.toml", cwd=tmp_path)
        assert run.code == 2, (command, run.out, run.err)
        line = run.err.strip()
        assert "\n" not in line and "Traceback" not in line and "player[0].sheet" in line, line
        if name in ("/dev/zero", "fifo"):
            assert "no such sheet file" not in line and "not a regular file" in line, line


# --- the Host header: no DNS rebinding -------------------------------------------------------

@pytest.mark.parametrize("method, path", [("GET", "/"), ("GET", "/play/new?game=levelx"), ("POST", "/play/new"),
                                          ("GET", "/static/style.css"), ("GET", "/no-such-page"), ("POST", "/check"),
                                          ("GET", "/play/1/record/1")])
def test_a_foreign_host_is_refused_before_any_route(tmp_path, method, path):
    app = create_app(db=tmp_path / "h.sqlite3")
    c = app.test_client()
    headers = {"Host": "evil.example:8000", "Origin": "http://evil.example:8000"}
    resp = c.open(path, method=method, headers=headers, data={"game": "levelx"} if method == "POST" else None)
    assert resp.status_code == 421
    assert "Set-Cookie" not in resp.headers  # no session was started for it
    assert not (tmp_path / "h.sqlite3").exists()  # nothing was written


def test_the_allow_list_of_a_server_on_the_network():
    hosts = security.allowed_hosts(8000, ("192.168.1.20",))
    c = create_app(token="tok", hosts=hosts).test_client()
    for host, code in (("192.168.1.20:8000", 303), ("localhost:8000", 303), ("127.0.0.1:8000", 303),
                       ("[::1]:8000", 303), ("192.168.1.20:8001", 421), ("192.168.1.20", 421),
                       ("evil.example:8000", 421), ("", 421), ("localhost:8000@evil", 421)):
        assert c.get("/?token=tok", headers={"Host": host}).status_code == code, host


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(tmp_path, *extra):
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "sheetkit", "serve", "--port", str(port),
                             "--db", str(tmp_path / "history.sqlite3"), *extra], cwd=ROOT,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return proc, port
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise AssertionError(proc.stderr.read())


def _get(port: int, path: str, host: str) -> int:
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Host": host})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status
    except urllib.error.HTTPError as e:
        return e.code


def test_the_real_server_on_this_machine_answers_only_to_its_own_names(tmp_path):
    proc, port = _serve(tmp_path)
    try:
        assert _get(port, "/", f"127.0.0.1:{port}") == 200
        assert _get(port, "/", f"localhost:{port}") == 200
        assert _get(port, "/", f"evil.example:{port}") == 421
        assert _get(port, "/static/style.css", f"evil.example:{port}") == 421
        assert _get(port, "/", f"localhost:{port + 1}") == 421
    finally:
        proc.terminate()
        proc.wait(timeout=10)


# --- a restart keeps open pages working -------------------------------------------------------

def test_the_secret_is_kept_beside_the_history_privately(tmp_path):
    db = tmp_path / "h.sqlite3"
    first = security.kept_secret(db)
    assert security.kept_secret(db) == first and len(first) == 32
    mode = os.stat(security.secret_path(db)).st_mode
    assert stat.S_IMODE(mode) == 0o600
    assert security.kept_secret(db, renew=True) != first
    security.secret_path(db).write_bytes(b"short")  # damaged: made anew, never used as it is
    assert len(security.kept_secret(db)) == 32


def test_a_page_open_before_a_restart_still_works(tmp_path):
    """The phone keeps its cookie and the form it was shown; the server comes back as a new
    process (a new app over the same history): the next tap is taken, in the page's language."""
    db = tmp_path / "h.sqlite3"
    phone = Client(create_app(db=db), lang="es")
    page = phone.get("/check")
    assert page.code == 200
    restarted = create_app(db=db)
    phone.app, cookies = restarted, phone.c._cookies
    phone.c = restarted.test_client()
    phone.c._cookies = cookies
    sent = phone.post("/check", {"text": (EXAMPLES / "levelx-final.toml").read_text()},
                      content_type="multipart/form-data")  # the form's CSRF token, from before the restart
    assert sent.code == 200, sent.text[:1500]
    assert sent.error is None and sent.status
    assert '<html lang="es">' in sent.text
    assert '<html lang="es">' in phone.get("/").text


def test_the_network_link_is_the_same_after_a_restart_and_new_with_new_link(tmp_path):
    def token(*extra):
        port = _free_port()
        proc = subprocess.Popen([sys.executable, "-m", "sheetkit", "serve", "--host", "0.0.0.0", "--port", str(port),
                                 "--db", str(tmp_path / "history.sqlite3"), *extra], cwd=ROOT,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line, deadline = "", time.time() + 30
            while "token=" not in line and time.time() < deadline:
                line = proc.stdout.readline()
            return re.search(r"token=([\w-]+)", line).group(1)
        finally:
            proc.terminate()
            proc.wait(timeout=10)

    first = token()
    assert token() == first
    assert token("--new-link") != first


# --- the table downloaded from a play is one file the page takes back ---------------------------

def test_an_inline_table_record_round_trips_through_the_page_and_the_command_line(tmp_path):
    text = (EXAMPLES / "yuncos-table-3p-inline.toml").read_text()
    data = tomllib.loads(text)
    assert all(isinstance(p["sheet"], dict) for p in data["player"])
    (tmp_path / "one.toml").write_text(text)
    run = sheetkit("check", "one.toml", "--json", cwd=tmp_path)
    assert run.code == 0, run.err
    assert [s["total"] for s in json.loads(run.out)[0]["scores"]] == [31, 36, 40]


def test_a_plays_checked_pdf_is_in_the_pages_language(tmp_path):
    db = tmp_path / "h.sqlite3"
    assert sheetkit("log", EXAMPLES / "glux-game-3p.toml", "--db", db).code == 0
    phone = Client(create_app(db=db), lang="es")
    pdf = phone.c.get("/play/1/pdf/1")
    assert pdf.status_code == 200
    (tmp_path / "glux-play-1.toml").write_text((EXAMPLES / "glux-game-3p.toml").read_text())
    for lang in ("es", "en"):
        assert sheetkit("check", "glux-play-1.toml", "--render", f"{lang}.pdf", "--lang", lang, cwd=tmp_path).code == 0
    assert pdf.get_data() == (tmp_path / "es.pdf").read_bytes() != (tmp_path / "en.pdf").read_bytes()


@pytest.mark.parametrize("name, ok", [
    ("👩\u200d👩\u200d👧 Ana", True),  # an emoji sequence joined by zero-width joiners
    ("🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f Bea", True),  # a flag of tag characters
    ("x" * 60, True),  # as long as the history keeps
    ("x" * 61, False),
    ("Ana\u202e", False),  # reorders the text after it
    ("Ana\x07", False),
])
def test_names_are_taken_as_the_history_takes_them(tmp_path, name, ok):
    page = Client().post("/tally/glux", {"board": "2p", "name0": name, "name1": "Ben", "pips0_A": "5", "pips1_B": "3"})
    if ok:
        assert page.code == 200 and page.error is None, page.error
        assert name in __import__("html").unescape(page.text)
    else:
        assert_clear_error(page)


def test_the_name_fields_allow_what_the_server_takes():
    from sheetkit.history.store import MAX_NAME

    page = Client().get("/play/new?game=glux")
    assert re.findall(r'name="name0"[^>]*maxlength="(\d+)"', page.text) == [str(MAX_NAME)]


def test_the_page_can_be_kept_on_a_phones_home_screen():
    c = create_app().test_client()
    page = c.get("/").get_data(as_text=True)
    links = dict(re.findall(r'<link rel="([a-z-]+)" href="([^"]+)"', page))
    assert {"icon", "apple-touch-icon", "manifest", "stylesheet"} <= set(links)
    manifest = c.get(links["manifest"])
    assert manifest.status_code == 200 and manifest.mimetype == "application/manifest+json"
    data = json.loads(manifest.get_data())
    assert data["start_url"] == "/" and data["display"] == "standalone"
    for url in [i["src"] for i in data["icons"]] + [links["icon"], links["apple-touch-icon"], "/favicon.ico"]:
        got = c.get(url)
        assert got.status_code == 200 and got.mimetype.startswith("image/"), url
        assert "max-age" in got.headers["Cache-Control"]  # kept by the browser, not fetched at every page
    from PIL import Image
    import io

    sizes = {i["sizes"] for i in data["icons"]}
    assert {"192x192", "512x512"} <= sizes
    assert Image.open(io.BytesIO(c.get("/static/icon-512.png").get_data())).size == (512, 512)


def test_a_legal_play_with_a_warning_is_not_called_illegal_on_its_end_page(tmp_path):
    import random

    from sheetkit import layouts
    from sheetkit.games.yuncos.play import play_table
    from sheetkit.tomlfile import dump_toml

    gs = play_table(layouts.load("yuncos-easy"), random.Random(2), players=2)
    n = 4  # the table stops after turn 4, before anybody ended the game: a warning (Y21)
    sheets = [dict(g.record, turn=g.record["turn"][:n], fish_marked=g.log[n - 1]["sheet"]["fish_marked"],
                   crashes_marked=g.log[n - 1]["sheet"]["crashes_marked"], used=g.log[n - 1]["sheet"]["used"])
              for g in gs]
    data = {"game": "yuncos", "kind": "table", "player": [{"name": p, "sheet": s} for p, s in zip(("Ana", "Bea"), sheets)]}
    (tmp_path / "t.toml").write_text(dump_toml(data))
    (v,) = json.loads(sheetkit("check", "t.toml", "--json", cwd=tmp_path).out)
    assert v["legal"] and [f["severity"] for f in v["findings"]] == ["warning"]
    db = tmp_path / "h.sqlite3"
    assert sheetkit("log", "t.toml", "--db", db, cwd=tmp_path).code == 0
    end = Client(create_app(db=db)).get("/play/1/end")
    assert end.code == 200 and "the tally is not a result" not in end.text
