"""The score-keeper's server, every route, without a browser (Flask's test client).

Results are compared with the engine itself (the quick tallies' code, `records.check`,
and the real `sheetkit check` on a downloaded record); hostile requests get one clear
message on the page, never a stack trace.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
import tomllib

import pytest

from sheetkit.checking import records
from sheetkit.web import i18n
from sheetkit.web.app import MAX_BODY, create_app

from conftest import ROOT, sheetkit

EXAMPLES = ROOT / "examples"


class Page:
    def __init__(self, resp):
        self.resp = resp
        self.code = resp.status_code
        self.text = resp.get_data().decode("utf-8", "replace")

    def find(self, id_: str) -> str | None:
        m = re.search(rf'id="{id_}"[^>]*>(.*?)</', self.text, re.S)
        return html.unescape(re.sub(r"<[^>]+>", "", m.group(1))).strip() if m else None

    @property
    def error(self):
        return self.find("error")

    @property
    def status(self):
        return self.find("status")

    def totals(self) -> dict[str, int]:
        out = {}
        for m in re.finditer(r'<table class="score" data-player="([^"]*)">.*?class="total-value">(-?\d+)<', self.text, re.S):
            out[html.unescape(m.group(1))] = int(m.group(2))
        return out

    def rules(self) -> list[str]:
        return re.findall(r'<b class="rule">([^<]+)</b>', self.text)

    def value(self, name: str) -> str | None:
        m = re.search(rf'name="{re.escape(name)}"[^>]*value="([^"]*)"', self.text)
        return html.unescape(m.group(1)) if m else None

    def options(self, name: str) -> list[str]:
        """The values a select, a radio group or checkboxes of this name offer."""
        select = re.search(rf'<select name="{re.escape(name)}"[^>]*>(.*?)</select>', self.text, re.S)
        if select:
            return [html.unescape(v) for v in re.findall(r'<option value="([^"]*)"', select.group(1))]
        return [html.unescape(v) for v in re.findall(rf'name="{re.escape(name)}" value="([^"]*)"', self.text)]

    def selected(self, name: str) -> str | None:
        """The option selected (or the radio checked) of this name, as the browser would send it."""
        select = re.search(rf'<select name="{re.escape(name)}"[^>]*>(.*?)</select>', self.text, re.S)
        if select:
            m = re.search(r'<option value="([^"]*)"[^>]*\bselected', select.group(1))
        else:
            m = re.search(rf'name="{re.escape(name)}" value="([^"]*)"[^>]*\bchecked', self.text)
        return html.unescape(m.group(1)) if m else None

    def hidden(self, form_action: str, name: str) -> str:
        form = re.search(rf'action="{form_action}".*?</form>', self.text, re.S).group(0)
        return html.unescape(re.search(rf'name="{name}" value="([^"]*)"', form, re.S).group(1))


class Client:
    """A phone's browser: keeps the session cookie, sends the page's CSRF token and its
    own origin, as a browser does for a form on the page."""

    def __init__(self, app=None, lang="en"):
        self.app = app or create_app()
        self.c = self.app.test_client()
        self.csrf = None
        if lang:
            self.get(f"/?lang={lang}")

    def get(self, url, **kw) -> Page:
        page = Page(self.c.get(url, **kw))
        m = re.search(r'name="csrf" value="([^"]+)"', page.text)
        if m:
            self.csrf = m.group(1)
        return page

    def post(self, url, data=None, *, csrf=True, headers=None, **kw) -> Page:
        if self.csrf is None:
            self.get("/tally/yuncos")
        data = dict(data or {})
        if csrf:
            data.setdefault("csrf", self.csrf)
        headers = {"Origin": "http://localhost", **(headers or {})}
        return Page(self.c.post(url, data=data, headers=headers, **kw))


@pytest.fixture
def client():
    return Client()


def assert_clear_error(page: Page, *words: str, code: int = 400):
    assert page.code == code, page.text[:2000]
    assert page.error, page.text[:2000]
    assert "Traceback" not in page.text and "File \"" not in page.text
    for w in words:
        assert w in page.error, page.error


# --- pages and languages ------------------------------------------------------------------

def test_home_lists_every_game_in_both_languages(client):
    from sheetkit import games

    page = client.get("/")
    assert page.code == 200
    for g in games.all_games():
        assert f'href="/tally/{g.name}"' in page.text and g.title in page.text
    assert "Check a record" in page.text and 'lang="en"' in page.text
    es = client.get("/?lang=es")
    assert "Comprobar una partida" in es.text and 'lang="es"' in es.text
    assert "Comprobar una partida" in client.get("/").text  # the choice is kept


def test_without_a_choice_the_browsers_language_is_the_pages():
    assert 'lang="es"' in Client(lang=None).get("/", headers={"Accept-Language": "es-ES,es;q=0.9,en;q=0.8"}).text
    assert 'lang="en"' in Client(lang=None).get("/", headers={"Accept-Language": "en-GB,es;q=0.5"}).text
    assert f'lang="{i18n.DEFAULT}"' in Client(lang=None).get("/", headers={"Accept-Language": "fr"}).text
    assert f'lang="{i18n.DEFAULT}"' in Client(lang=None).get("/").text


def test_both_languages_have_the_same_labels():
    from sheetkit import messages

    assert len([i for i in messages.catalogue("en") if i.startswith("page.")]) > 250
    assert not [p for p in messages.problems() if p.startswith("page.")]


def test_security_headers(client):
    resp = client.c.get("/")
    csp = resp.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
    assert resp.headers["X-Content-Type-Options"] == "nosniff" and resp.headers["X-Frame-Options"] == "DENY"


def test_the_page_loads_nothing_from_elsewhere(client):
    for url in ("/", "/tally/yuncos", "/tally/glux", "/tally/iunu", "/tally/levelx", "/check"):
        text = client.get(url).text
        assert not re.search(r'(src|href)="(https?:)?//', text), url
    css = client.c.get("/static/style.css")
    assert css.status_code == 200 and css.mimetype == "text/css" and b"//" not in css.data.replace(b"/*", b"").replace(b"*/", b"")


def test_fonts_and_style_are_served_by_fixed_name_only(client):
    assert client.c.get("/font/DejaVuSansCondensed.ttf").data[:4] == b"\x00\x01\x00\x00"
    assert client.c.get("/font/DejaVuSansCondensed-Bold.ttf").status_code == 200
    for url in ("/static/../app.py", "/static/%2e%2e/app.py", "/font/../../README.md", "/static/app.py",
                "/font/LICENSE-DejaVu.txt"):
        page = Page(client.c.get(url))
        assert page.code == 404 and "Traceback" not in page.text


def test_unknown_page_and_method(client):
    assert client.get("/no/such/page").code == 404
    page = Page(client.c.delete("/check"))
    assert page.code == 405 and page.error


# --- Yuncos ---------------------------------------------------------------------------------

YUNCOS = {"level": "easy", "nests": "9", "columns": "2", "fish": "5", "stars": "4", "colours": "3", "crashes": "2"}


@pytest.mark.parametrize("level", ["easy", "hard"])
@pytest.mark.parametrize("solo", [False, True])
def test_yuncos_tally_is_the_quick_tally(client, level, solo):
    from sheetkit.games.yuncos.scoring import rank
    from sheetkit.games.yuncos.tally import tally_counts

    form = {**YUNCOS, "level": level, **({"solo": "on"} if solo else {})}
    page = client.post("/tally/yuncos", form)
    want = tally_counts(level, solo=solo, **{k: int(form[k]) for k in ("nests", "columns", "fish", "stars", "colours", "crashes")})
    assert page.code == 200 and page.status == "Legal"
    assert page.totals() == {"": want.total}
    for label, pts in want.parts:
        assert re.search(rf"<th scope=\"row\">{label}</th><td>{pts}</td>", page.text)
    assert (page.find("rank") is not None) == solo
    if solo:
        assert rank(want.total).en in page.find("rank")
    assert page.value("nests") == "9"  # what was typed stays


@pytest.mark.parametrize("field, value, words", [
    ("nests", "9" * 5000, ["Filled nest boxes", "0 to 999"]),
    ("nests", "-1", ["0 to 999"]),
    ("fish", "3.5", ["Marked boxes of the fish counter"]),
    ("stars", "4 stars", ["Distinct stars passed"]),
    ("crashes", "\x00\x1b[2J", ["Marked boxes of the crash track", "\\x00"]),
    ("nests", "１２", ["Filled nest boxes"]),  # full-width digits are not a count here
    ("nests", "99", ["Filled nest boxes", "nest boxes"]),  # more than the sheet has
    ("crashes", "7", ["crash track"]),
    ("colours", "5", ["colours"]),  # more colours than stars, or than the map has
    ("level", "medium", ["Level"]),
])
def test_yuncos_hostile_values_give_one_message_and_keep_the_form(client, field, value, words):
    form = {**YUNCOS, field: value}
    page = client.post("/tally/yuncos", form)
    assert_clear_error(page, *words)
    assert page.find("result") is None
    if field != "level" and "\x00" not in value:
        assert page.value(field) == value  # kept as typed
    assert page.value("columns") == "2"


def test_yuncos_empty_form_scores_zero(client):
    page = client.post("/tally/yuncos", {})
    assert page.code == 200 and page.totals() == {"": 0}


# --- Glüx -----------------------------------------------------------------------------------

def test_glux_tally_matches_the_rules(client):
    from sheetkit.games.glux import rules

    form = {"board": "34p", "name0": "Ana", "name1": "Ben", "name2": "Cris",
            "pips0_A": "10", "pips1_A": "9", "pips2_A": "4", "pips0_B": "4", "pips1_B": "5", "pips2_B": "12",
            "pips0_middle": "3", "pips1_middle": "3"}
    page = client.post("/tally/glux", form)
    want = rules.score([("A", {"Ana": 10, "Ben": 9, "Cris": 4}), ("B", {"Ana": 4, "Ben": 5, "Cris": 12})]
                       + [(k, {}) for k in "CDEFGHIJ"] + [("middle", {"Ana": 3, "Ben": 3})],
                       ["Ana", "Ben", "Cris"], 10)
    assert page.code == 200, page.error
    assert page.totals() == want.totals
    assert page.find("winners").endswith(", ".join(want.winners))


def test_glux_two_player_side_and_tiebreak(client):
    page = client.get("/tally/glux?board=2p")
    assert "pips1_H" in page.text and "name2" not in page.text and "pips0_I" not in page.text
    page = client.post("/tally/glux", {"board": "2p", "name0": "Ana", "name1": "Ben", "pips0_A": "5", "pips1_B": "5"})
    assert page.code == 200 and page.find("winners") == "Shared win: Ana, Ben"


@pytest.mark.parametrize("form, words", [
    ({"name0": "Ana"}, ["2 to 4 players", "(got 1)"]),
    ({"name0": "Ana", "name1": "ana"}, ["appears twice"]),
    ({"name0": "Ana", "name1": "Ben", "pips2_A": "3"}, ["Player 3", "name"]),
    ({"name0": "Ana\u202eneB", "name1": "Ben"}, ["control characters"]),
    ({"name0": "A" * 500, "name1": "Ben"}, ["at most 60"]),
    ({"name0": "Ana", "name1": "Ben", "pips0_A": "ten"}, ["Room A, Ana", "'ten'"]),
    ({"name0": "Ana", "name1": "Ben", "board": "5p"}, ["Board side"]),
])
def test_glux_bad_forms(client, form, words):
    page = client.post("/tally/glux", {"board": "34p", **form})
    assert_clear_error(page, *words)


def test_names_are_escaped(client):
    evil = '<script>alert(1)</script>&"'
    page = client.post("/tally/glux", {"board": "2p", "name0": evil, "name1": "Ben", "pips0_A": "3"})
    assert page.code == 200, page.error
    assert "<script>alert" not in page.text and "&lt;script&gt;" in page.text
    assert page.totals()[evil] == 4  # one room won alone with 2 players


# --- IUNU -----------------------------------------------------------------------------------

def deck_form(path=EXAMPLES / "iunu-deck-example.toml") -> dict:
    deck = tomllib.loads(path.read_text())["castes"]
    form = {}
    for key, c in deck.items():
        k = key if key in ("farmer", "baker", "soldier", "merchant", "noble", "priest", "scribe", "pharaoh") else "ninth"
        for f in ("cards", "vp", "bread"):
            form[f"deck_{k}_{f}"] = str(c[f])
        if k == "ninth":
            form["deck_ninth_name"] = c.get("name", key.capitalize())
    return form, deck


def iunu_form(record=EXAMPLES / "iunu-game.toml", ninth="artisan") -> dict:
    form = {}
    for i, p in enumerate(tomllib.loads(record.read_text())["player"]):
        form[f"name{i}"] = p["name"]
        form[f"p{i}_deben"] = str(p["deben"])
        for table in ("cards", "fed"):
            for caste, n in p[table].items():
                form[f"p{i}_{table}_{'ninth' if caste == ninth else caste}"] = str(n)
        for j, a in enumerate(p.get("afterlife", [])):
            form[f"p{i}_after{j}_caste"] = "ninth" if a["caste"] == ninth else a["caste"]
            form[f"p{i}_after{j}_mult"] = str(a["multiplier"])
    return form


def test_iunu_deck_then_players_gives_the_records_verdict(client, tmp_path):
    page = client.get("/tally/iunu")
    assert 'id="deck-form"' in page.text  # no deck yet: the deck comes first
    page = client.post("/tally/iunu", iunu_form())
    assert_clear_error(page, "deck values")
    form, _ = deck_form()
    page = client.post("/tally/iunu/deck", form)
    assert page.code == 200 and page.find("notice") and 'id="tally-form"' in page.text
    page = client.post("/tally/iunu", iunu_form())
    want = records.check(records.load(EXAMPLES / "iunu-game.toml")).verdict
    assert page.code == 200, page.error
    assert page.status == "Legal"
    assert page.totals() == {s.player: s.total for s in want.scores}
    assert page.find("winners") == "Winner: " + ", ".join(want.winners)
    assert want.tiebreak and page.find("tiebreak") == f"Tiebreak: {want.tiebreak('en')}"
    # the record offered for download is what `sheetkit check` reads, with the same verdict
    text = page.hidden("/download/record", "record")
    resp = client.post("/download/record", {"record": text, "source": "iunu-game.toml"})
    assert resp.code == 200 and 'attachment; filename="iunu-game.toml"' == resp.resp.headers["Content-Disposition"]
    saved = tmp_path / "downloaded.toml"
    saved.write_text(resp.text)
    run = sheetkit("check", saved, "--json")
    assert run.code == 0, run.err
    got = json.loads(run.out)
    got = got[0] if isinstance(got, list) else got
    assert {s["player"]: s["total"] for s in got["scores"]} == page.totals() and got["winners"] == list(want.winners)
    # the deck is kept: the form comes back with it, ready for the next game
    assert 'id="tally-form"' in client.get("/tally/iunu").text
    assert client.get("/tally/iunu?deck=edit").value("deck_farmer_cards") == form["deck_farmer_cards"]


def test_iunu_bad_deck_and_players(client):
    form, _ = deck_form()
    bad = {**form, "deck_farmer_cards": ""}
    page = client.post("/tally/iunu/deck", bad)
    assert_clear_error(page, "Farmer")
    assert page.value("deck_vp" if False else "deck_baker_cards") == form["deck_baker_cards"]  # kept
    page = client.post("/tally/iunu/deck", {**form, "deck_ninth_name": "  "})
    assert_clear_error(page, "ninth caste")
    client.post("/tally/iunu/deck", form)
    players = iunu_form()
    assert_clear_error(client.post("/tally/iunu", {**players, "p0_deben": "1e9"}), "Ana, Deben")
    assert_clear_error(client.post("/tally/iunu", {**players, "p0_after0_caste": "../../etc"}), "Afterlife")
    page = client.post("/tally/iunu", {**players, "p0_fed_farmer": "9"})  # more fed than held: a finding
    assert page.code == 200 and page.status.startswith("ILLEGAL") and page.rules()


# --- Level X --------------------------------------------------------------------------------

def levelx_form(record=EXAMPLES / "levelx-final.toml") -> dict:
    form = {}
    for i, p in enumerate(tomllib.loads(record.read_text())["player"]):
        form[f"name{i}"] = p["name"]
        for v, n in p.get("chips", {}).items():
            form[f"p{i}_chips_{v}"] = str(n)
        for b in p.get("bonuses", []):
            form[f"p{i}_bonus_{b}"] = "on"
    return form


@pytest.mark.parametrize("example", ["levelx-final.toml", "levelx-final-illegal.toml"])
def test_levelx_form_gives_the_records_verdict(client, example):
    want = records.check(records.load(EXAMPLES / example)).verdict
    page = client.post("/tally/levelx", levelx_form(EXAMPLES / example))
    assert page.code == 200, page.error
    assert page.totals() == {s.player: s.total for s in want.scores}
    assert sorted(page.rules()) == sorted(f.rule for f in want.findings)
    assert page.status == ("Legal" if want.legal else f"ILLEGAL: {want.errors} finding{'' if want.errors == 1 else 's'}")
    pdf = client.post("/download/pdf", {"record": page.hidden("/download/pdf", "record"), "source": "levelx-game.toml"})
    assert pdf.resp.data[:5] == b"%PDF-" and pdf.resp.headers["Content-Disposition"].endswith('levelx-game-checked.pdf"')


def test_levelx_bad_forms(client):
    assert_clear_error(client.post("/tally/levelx", {"name0": "Ana", "p1_chips_5": "2"}), "Player 2")
    assert_clear_error(client.post("/tally/levelx", {"name0": "Ana", "name1": "Ben", "p1_chips_5": "-2"}), "Ben, Chips")
    page = client.post("/tally/levelx", {"name0": "Ana", "name1": "Ben", "p0_chips_5": "99"})  # more than the supply
    assert page.code == 200 and page.status.startswith("ILLEGAL")


# --- checking a record ------------------------------------------------------------------------

def upload(client, path, name=None, **extra):
    return client.post("/check", {"record": (open(path, "rb"), name or path.name), **extra},
                       content_type="multipart/form-data")


USABLE = ["yuncos-easy-legal.toml", "yuncos-hard-legal.toml", "yuncos-illegal.toml", "glux-board-3p.toml",
          "glux-game-3p.toml", "glux-game-illegal.toml", "iunu-inline-deck.toml", "levelx-final.toml",
          "levelx-final-illegal.toml", "levelx-game.toml", "levelx-game-illegal.toml"]


@pytest.mark.parametrize("example", USABLE)
def test_check_an_uploaded_record(client, example):
    want = records.check(records.load(EXAMPLES / example)).verdict
    page = upload(client, EXAMPLES / example)
    assert page.code == 200, page.error
    assert page.status == ("Legal" if want.legal else f"ILLEGAL: {want.errors} finding{'' if want.errors == 1 else 's'}")
    assert sorted(page.rules()) == sorted(f.rule for f in want.findings)
    for f in want.findings:
        assert f.message in html.unescape(page.text)
    assert page.totals() == {s.player: s.total for s in want.scores}
    if len(want.scores) > 1:
        assert page.find("winners").endswith(", ".join(want.winners))
    # the checked sheet, drawn as SVG from the overlay scene
    assert page.text.count("<svg") >= 1 and 'viewBox="0 0 ' in page.text
    # the record comes back byte for byte, and the checked PDF is the one `check --render` writes
    rec = client.post("/download/record", {"record": page.hidden("/download/record", "record"), "source": example})
    assert rec.text == (EXAMPLES / example).read_text()
    pdf = client.post("/download/pdf", {"record": page.hidden("/download/pdf", "record"), "source": example})
    assert pdf.resp.mimetype == "application/pdf" and pdf.resp.data[:5] == b"%PDF-"


def test_checked_pdf_is_the_command_lines(client, tmp_path):
    example = EXAMPLES / "yuncos-illegal.toml"
    page = upload(client, example)
    pdf = client.post("/download/pdf", {"record": page.hidden("/download/pdf", "record"), "source": example.name})
    out = tmp_path / "checked.pdf"
    run = sheetkit("check", example, "--render", out)
    assert run.code == 1
    assert pdf.resp.data == out.read_bytes()


def test_check_pasted_text(client):
    text = (EXAMPLES / "levelx-final.toml").read_text()
    page = client.post("/check", {"text": text}, content_type="multipart/form-data")
    assert page.code == 200 and page.status == "Legal"


@pytest.mark.parametrize("example, words", [
    ("yuncos-bad-input.toml", ["turn[2].flight"]),
    ("glux-bad-input.toml", []),
    ("iunu-bad-input.toml", []),
    ("levelx-bad-input.toml", []),
])
def test_check_unusable_records(client, example, words):
    page = upload(client, EXAMPLES / example)
    assert_clear_error(page, example, *words)


@pytest.mark.parametrize("data, words", [
    (b"", ["Choose a record file"]),
    (b"\xff\xfe\x00garbage", ["UTF-8"]),
    (b"game = ", ["TOML"]),
    (b"a = " + b"[" * 3000 + b"]" * 3000, []),
    (b"game = \"yuncos\"\nx = " + b"9" * 5000, []),
    (b"game = 5", ["game"]),
    (b'game = "chess"', ["unknown game"]),
    (b'game = "yuncos"\nlayout = "/etc/passwd"', ["layout", "shipped layout"]),
    (b'game = "yuncos"\nlayout = "../layouts/yuncos-easy.toml"', ["shipped layout"]),
    (b'game = "yuncos"\nlayout = "README.md"', ["shipped layout"]),
    (b'game = "glux"\nkind = "board"\nboard = "/tmp/board.toml"', ["board", "shipped layout"]),
    (b'game = "iunu"\ndeck = "iunu-deck-example.toml"\n[[player]]\nname = "A"', ["deck", "inline"]),
    (b'game = "iunu"\ndeck = "/dev/zero"', ["deck"]),
    (b'game = "levelx"\nkind = "final"\n[[player]]\nname = "A"\nchips = { "5" = 1e400 }', []),
    (b'game = "levelx"\nkind = ["final"]', ["kind"]),
])
def test_hostile_records(client, data, words):
    page = client.post("/check", {"record": (__import__("io").BytesIO(data), "x.toml")} if data else {"text": ""},
                       content_type="multipart/form-data")
    assert_clear_error(page, *words)


def test_iunu_record_naming_a_deck_file_is_refused_even_if_it_exists(client):
    page = upload(client, EXAMPLES / "iunu-game.toml")
    assert_clear_error(page, "deck")


def test_file_and_text_together_or_neither(client):
    assert_clear_error(client.post("/check", {"text": "  "}, content_type="multipart/form-data"), "Choose")
    both = client.post("/check", {"record": (open(EXAMPLES / "levelx-final.toml", "rb"), "a.toml"), "text": "x = 1"},
                       content_type="multipart/form-data")
    assert_clear_error(both, "not both")


def test_uploaded_file_name_is_only_a_label(client):
    page = upload(client, EXAMPLES / "levelx-final.toml", name="../../etc/\x00passwd<b>.toml")
    assert page.code == 200
    assert page.hidden("/download/record", "source") == "passwd<b>.toml"
    resp = client.post("/download/record", {"record": "x", "source": "../../etc/passwd"})
    assert resp.resp.headers["Content-Disposition"] == 'attachment; filename="passwd.toml"'


def test_download_pdf_of_a_bad_record(client):
    page = client.post("/download/pdf", {"record": "game = 1", "source": "a.toml"})
    assert_clear_error(page, "game")


# --- protection -----------------------------------------------------------------------------

def test_posts_without_the_csrf_token_are_refused(client):
    page = client.post("/tally/yuncos", YUNCOS, csrf=False)
    assert page.code == 403 and "reload the page" in page.error
    page = client.post("/tally/yuncos", {**YUNCOS, "csrf": "forged"})
    assert page.code == 403
    fresh = Client()  # another session's token is no good here
    fresh.get("/tally/yuncos")
    assert client.post("/tally/yuncos", {**YUNCOS, "csrf": fresh.csrf}).code == 403


@pytest.mark.parametrize("headers", [
    {"Origin": "http://evil.example"},
    {"Origin": "null"},
    {"Origin": "http://localhost:9999"},
])
def test_cross_site_posts_are_refused(client, headers):
    page = client.post("/tally/yuncos", YUNCOS, headers=headers)
    assert page.code == 403 and page.error


def test_referer_from_another_site_is_refused_without_origin(client):
    client.get("/tally/yuncos")
    resp = client.c.post("/tally/yuncos", data={**YUNCOS, "csrf": client.csrf}, headers={"Referer": "http://evil.example/x"})
    assert resp.status_code == 403
    resp = client.c.post("/tally/yuncos", data={**YUNCOS, "csrf": client.csrf}, headers={"Referer": "http://localhost/tally/yuncos"})
    assert resp.status_code == 200


def test_oversized_bodies_get_413_with_a_page(client):
    big = b"x = 1\n" * (MAX_BODY // 6 + 10)
    page = client.post("/check", {"record": (__import__("io").BytesIO(big), "big.toml")}, content_type="multipart/form-data")
    assert page.code == 413 and "kB" in page.error
    page = client.post("/tally/yuncos", {**YUNCOS, "nests": "1" * (MAX_BODY + 1)})
    assert page.code == 413
    resp = client.c.post("/check", data=b"x" * (MAX_BODY + 1), headers={"Content-Type": "application/octet-stream"})
    assert resp.status_code == 413


def test_too_many_form_fields(client):
    page = client.post("/check", {**{f"f{i}": "1" for i in range(1000)}}, content_type="multipart/form-data")
    assert page.code == 413 and page.error


# --- the access token -------------------------------------------------------------------------

def test_access_token_is_required_when_given():
    app = create_app(token="s3cret-token")
    c = app.test_client()
    for url in ("/", "/tally/yuncos", "/check", "/static/style.css", "/no/such/page"):
        page = Page(c.get(url))
        assert page.code == 403 and "sheetkit serve" in page.error, url
    assert Page(c.get("/?token=wrong")).code == 403
    assert c.post("/check", data={"text": "x"}).status_code == 403
    resp = c.get("/tally/glux?token=s3cret-token&lang=en")
    assert resp.status_code == 303 and resp.headers["Location"] == "/tally/glux?lang=en"  # the token leaves the address bar
    assert "sheetkit_token=s3cret-token" in resp.headers["Set-Cookie"] and "HttpOnly" in resp.headers["Set-Cookie"]
    assert c.get("/tally/glux").status_code == 200  # the cookie carries it from now on
    other = app.test_client()
    other.set_cookie("sheetkit_token", "wrong")
    assert other.get("/").status_code == 403


def test_no_token_on_this_machine_only(client):
    assert client.get("/").code == 200


# --- `sheetkit serve` -------------------------------------------------------------------------

def test_serve_help_and_loopback():
    from sheetkit.cli.serve import access_url, is_loopback

    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")
    assert access_url("192.168.1.5", 8000, "tok") == "http://192.168.1.5:8000/?token=tok"
    run = sheetkit("serve", "--help")
    assert run.code == 0 and "--host" in run.out and "--port" in run.out


def test_serve_bad_port():
    run = sheetkit("serve", "--port", "99999")
    assert run.code == 2 and "Traceback" not in run.err


def test_the_terminal_qr_code_reads_back():
    zxingcpp = pytest.importorskip("zxingcpp")
    from PIL import Image

    from sheetkit.cli.serve import qr_text

    url = "http://192.168.1.5:8000/?token=abcdefghijklmnop"
    rows = qr_text(url).splitlines()
    # each character is two modules stacked: upper and lower half blocks
    # inverted for dark terminals: a drawn half block is a light module
    dark = {"█": (0, 0), "\xa0": (1, 1), "▄": (1, 0), "▀": (0, 1)}
    w = max(len(r) for r in rows)
    img = Image.new("L", ((w + 8) * 8, (2 * len(rows) + 8) * 8), 255)
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            up, low = dark[ch]
            for k, on in ((0, up), (1, low)):
                if on:
                    img.paste(0, ((x + 4) * 8, (2 * y + k + 4) * 8, (x + 5) * 8, (2 * y + k + 5) * 8))
    assert [b.text for b in zxingcpp.read_barcodes(img)] == [url]


def test_serve_on_the_network_prints_the_token_and_guards_with_it(tmp_path):
    import socket
    import time
    import urllib.error
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    # listening on all addresses (0.0.0.0) needs the token; the test reaches it on 127.0.0.1
    proc = subprocess.Popen([sys.executable, "-m", "sheetkit", "serve", "--host", "0.0.0.0", "--port", str(port),
                             "--db", str(tmp_path / "history.sqlite3")], cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = ""
        deadline = time.time() + 30
        while "token=" not in line and time.time() < deadline:
            line = proc.stdout.readline()
        token = re.search(r"token=([\w-]+)", line).group(1)
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5)
                raise AssertionError("no token, yet not refused")
            except urllib.error.HTTPError as e:
                assert e.code == 403
                break
            except urllib.error.URLError:
                time.sleep(0.1)
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        with opener.open(f"http://127.0.0.1:{port}/?token={token}", timeout=5) as resp:
            assert resp.status == 200 and b"/tally/yuncos" in resp.read()
        with opener.open(f"http://127.0.0.1:{port}/check", timeout=5) as resp:
            assert resp.status == 200
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.parametrize("args", [["--help"], ["serve", "--help"], ["score", "yuncos", "--nests", "3"],
                                  ["--import", "sheetkit.web"], ["--import", "sheetkit.cli.serve"]], ids=" ".join)
def test_commands_do_not_import_the_web_framework(tmp_path, args):
    """`sheetkit --help` and the quick commands start fast: Flask only for `serve` itself."""
    from test_coldstart import PROBE

    report = tmp_path / "modules.json"
    proc = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args), str(report)],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert report.is_file(), proc.stderr
    modules = {m.split(".")[0] for m in json.loads(report.read_text())["modules"]}
    assert not modules & {"flask", "werkzeug", "jinja2", "selenium"}


def test_downloaded_record_comes_back_with_plain_newlines(client):
    """Browsers send the hidden record text with CRLF line ends; the download has the file's."""
    text = (EXAMPLES / "levelx-final.toml").read_text()
    resp = client.post("/download/record", {"record": text.replace("\n", "\r\n"), "source": "levelx-final.toml"})
    assert resp.text == text


def test_token_link_keeps_the_other_query_arguments():
    c = create_app(token="tok").test_client()
    resp = c.get("/tally/glux?board=2p&token=tok")
    assert resp.status_code == 303 and resp.headers["Location"] == "/tally/glux?board=2p"


def test_language_switch_after_a_post_leads_to_a_page(client):
    form, _ = deck_form()
    page = client.post("/tally/iunu/deck", form)
    href = re.search(r'id="lang-switch"', page.text) and re.search(r'class="lang" href="([^"]+)"', page.text).group(1)
    assert client.get(href).code == 200


def test_serve_on_a_port_in_use_or_a_bad_host_is_one_line():
    import socket

    from conftest import assert_user_error

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        run = sheetkit("serve", "--port", s.getsockname()[1])
    assert_user_error(run, "cannot listen")
    assert "serving" not in run.out
    assert_user_error(sheetkit("serve", "--host", "no-such-host.invalid", "--port", "8123"), "cannot listen")
