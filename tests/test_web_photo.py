"""Reading a Yuncos sheet from a phone photo on the page, every route through Flask's test
client on a real history file, with the real reader on a SIMULATED photo
(sheetkit.photo.simulate: a random legal game pencilled onto the rendered sheet and
photographed with perspective, blur, uneven light, noise and JPEG compression): the draft
kept at once as a play in progress, the confirm screen, corrections (by the controls and
as the whole record), check, save, another sheet of the same game; hostile uploads, the
size caps, CSRF, cross-site posts, two phones at once; the page without the photo extra."""

from __future__ import annotations

import glob
import html
import io
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import tomllib

import pytest

cv2 = pytest.importorskip("cv2")

import numpy as np  # noqa: E402

from sheetkit.history import Store  # noqa: E402
from sheetkit.photo import simulate  # noqa: E402
from sheetkit.web.app import create_app  # noqa: E402
from sheetkit.web.photo import PHOTO_MAX  # noqa: E402

from conftest import ROOT, sheetkit  # noqa: E402
from test_web import Client, assert_clear_error  # noqa: E402

SEED = 1  # a simulated Easy sheet that reads into a draft with uncertain flights and dice


@pytest.fixture(scope="module")
def sample():
    return simulate.sample(SEED, "yuncos-easy", (1200, 1600))


def upload(phone, data: bytes, name="Ana", filename="sheet.jpg", **extra):
    return phone.post("/photo", {"name": name, "photo": (io.BytesIO(data), filename), **extra})


@pytest.fixture(scope="module")
def read_once(sample, tmp_path_factory):
    """A history with the sample read into play 1 (reading takes seconds: done once, copied per test)."""
    db = tmp_path_factory.mktemp("photo-db") / "history.sqlite3"
    phone = Client(create_app(db=db))
    own = tmp_path_factory.mktemp("tmp")
    saved, tempfile.tempdir = tempfile.tempdir, str(own)  # the reader's temporary file goes here
    try:
        page = upload(phone, sample.jpeg)
    finally:
        tempfile.tempdir = saved
    assert page.code == 303, page.text[:3000]
    assert page.resp.headers["Location"] == "/photo/1"
    assert not glob.glob(str(own / "*"))  # the photo's temporary file is gone
    return db


@pytest.fixture
def phone(read_once, tmp_path):
    db = tmp_path / "history.sqlite3"
    with sqlite3.connect(read_once) as src, sqlite3.connect(db) as dst:
        src.backup(dst)
    client = Client(create_app(db=db))
    client.db = db
    return client


def draft_read(sample):
    from sheetkit.photo.read import read_photo

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "s.jpg")
        with open(path, "wb") as f:
            f.write(sample.jpeg)
        return read_photo(path)


@pytest.fixture(scope="module")
def draft(sample):
    return draft_read(sample)


def fields_of(page) -> list[tuple[int, str]]:
    return [(int(n), k) for n, k in re.findall(r'<fieldset class="confirm[^"]*" id="field-(\d+)" data-key="([^"]+)"', page.text)]


def truth_form(page, truth: dict) -> dict:
    """The confirm form with every field set to the game drawn, as a player would tap it."""
    from sheetkit.games.yuncos.record import box_name
    from sheetkit.photo.flight import turn_cells

    form = {"version": page.hidden(r"/photo/\d+/fields", "version"), "sheet": page.hidden(r"/photo/\d+/fields", "sheet")}
    # what the paper shows in each puzzle box (not in which turn it was written)
    paper = {box: e["value"] for box, e in zip(turn_cells(truth), truth["turn"]) if box}
    for _, key in fields_of(page):
        if key.startswith("turn["):
            t = int(key[5:key.index("]")])
            what = key.split(".", 1)[1]
            entry = truth["turn"][t - 1]
            if what == "flight":
                form[key] = entry["flight"]
            elif what == "dice":
                form[f"{key}.1"], form[f"{key}.2"] = map(str, entry["dice"])
            elif what == "value":  # as simulate.confirmed: the number in the box outlined, else where it went
                box = page.selected(f"turn[{t}].puzzle") or ""
                if box in paper and box != "crash":
                    form[key], form[f"turn[{t}].puzzle"] = str(paper[box]), box
                else:
                    form[f"turn[{t}].puzzle"] = turn_cells(truth)[t - 1] or "crash"
                    form[key] = str(entry.get("value", page.value(key) or 1))
        elif key in ("start", "fish_marked", "crashes_marked"):
            form[key] = str(truth[key])
        elif key == "used":  # the ability boxes crossed out, as the toggles are tapped
            form[key] = [b for b in page.options("used") if box_name(b) in set(truth.get("used", []))]
    return form


def verdict(record: dict):
    from sheetkit.checking import records

    v = records.check(records.parse(record, "r.toml")).verdict
    return v.legal, [s.total for s in v.scores]


# --- the form -------------------------------------------------------------------------------

def test_home_offers_the_photo_page_and_its_form_opens_the_camera(phone):
    home = phone.get("/")
    assert 'href="/photo"' in home.text
    page = phone.get("/photo")
    assert page.code == 200
    assert re.search(r'<input type="file" name="photo"[^>]*accept="image/\*" capture="environment"', page.text)
    assert 'enctype="multipart/form-data"' in page.text
    assert '<option value="Ana">' in page.text  # names from the history, as the start form offers them
    es = phone.get("/photo?lang=es")
    assert "Leer una hoja de Yuncos de una foto" in es.text


# --- the draft kept at once -----------------------------------------------------------------

def test_the_draft_is_a_play_in_progress_with_its_registered_photo(phone, sample, draft):
    with Store.open(phone.db) as store:
        (listed,) = store.plays()
        play = store.get(listed.id)
        assert play.game == "yuncos" and play.in_progress
        assert [s.name for s in play.seats] == ["Ana"]
        rec = tomllib.loads(play.sheets[0].text)
        assert rec["in_progress"] is True
        assert {k: v for k, v in rec.items() if k != "in_progress"} == draft.record
        infos = store.photos(play.id)
        assert list(infos) == [0]
        # every uncertain field but a turn's abilities (no control: they go with its flight and number)
        assert [f["key"] for f in infos[0]["fields"]] == [k for k in draft.uncertain if not k.endswith(".use")]
        image = store.photo_image(play.id, 0)
    img = cv2.imdecode(np.frombuffer(image, np.uint8), cv2.IMREAD_GRAYSCALE)
    # the A4 page at the reader's 6 px/mm, to read the sheet again from when fields are confirmed
    assert img.shape == (297 * 6, 210 * 6)
    assert image != sample.jpeg and len(image) < 600_000  # the original photo is not kept
    assert infos[0]["qr"] == draft.record["qr"] and infos[0]["lang"] in ("en", "es")
    # the home page offers it to resume; its entry page is the confirm screen
    home = phone.get("/")
    assert 'href="/play/1"' in home.text
    page = phone.get("/play/1")
    assert page.code == 303 and page.resp.headers["Location"] == "/photo/1"


def test_a_restarted_server_shows_the_same_confirm_screen(phone):
    first = phone.get("/photo/1").text
    again = Client(create_app(db=phone.db)).get("/photo/1")
    assert again.code == 200
    strip = lambda s: re.sub(r'name="csrf" value="[^"]*"', "", s)  # noqa: E731
    assert strip(again.text) == strip(first)


def test_the_confirm_screen_outlines_and_numbers_each_uncertain_field(phone, draft):
    page = phone.get("/photo/1")
    assert page.code == 200
    fields = fields_of(page)
    assert [k for _, k in fields] == [k for k in draft.uncertain if not k.endswith(".use")]
    assert [n for n, _ in fields] == list(range(1, len(fields) + 1))
    # the fields unsure only because an earlier turn is are not asked: they wait, and are counted
    assert not {k for _, k in fields} & set(draft.waiting)
    hint = re.search(r'<p class="hint" id="waiting">(.*?)</p>', page.text)
    assert (hint is not None) == any(not k.endswith(".use") for k in draft.waiting)
    shown = [k for k in draft.waiting if not k.endswith(".use")]  # a turn's abilities have no field of their own
    if shown:
        assert hint.group(1).startswith(f"{len(shown)} more field")
    assert 'href="/photo/1/image/0"' in page.text
    # on the whole photo: one outline per field, with its number
    photo = re.search(r'<svg viewBox="[^"]+"[^>]*id="photo">(.*?)</svg>', page.text, re.S).group(1)
    assert photo.count('<g class="field') == len(fields)
    assert [int(n) for n in re.findall(r"<text[^>]*>(\d+)</text>", photo)] == [n for n, _ in fields]
    for n, key in fields:
        block = re.search(rf'id="field-{n}".*?</fieldset>', page.text, re.S).group(0)
        r = draft.confidence[key]
        # the page keeps each confidence to three places, and shows that as a percentage
        assert f"{round(100 * round(r.confidence, 3))} % sure" in block
        assert "/photo/1/image/0" in block  # its close-up
        if key.endswith(".flight"):
            assert f'value="{r.value}"' in block and "<polyline" in block
        if key.endswith(".dice"):
            for d, v in zip((1, 2), r.value):
                assert re.search(rf'name="{re.escape(key)}.{d}" value="{v}" checked', block)
        # and why it is asked, in the page's language
        assert f"unsure: {r.why('en')}" in html.unescape(block)
    # the verdict of the draft as it would be saved, and its checked sheet
    assert page.status and "<svg" in page.text.split('id="sheets"', 1)[1]
    assert "turn = " not in page.text.split('id="record-text"', 1)[0]  # the TOML only in its textarea


def test_the_image_route(phone):
    r = phone.c.get("/photo/1/image/0")
    assert r.status_code == 200 and r.mimetype == "image/jpeg" and r.data[:2] == b"\xff\xd8"
    assert phone.c.get("/photo/1/image/1").status_code == 404
    assert phone.c.get("/photo/2/image/0").status_code == 404
    assert phone.c.get("/photo/99999999999999999999/image/0").status_code == 404
    for bad in ("abc", "-1", "9" * 40, "1%00"):
        assert phone.c.get(f"/photo?play={bad}").status_code == 404


def test_photo_routes_of_a_play_not_read_from_a_photo_are_404(phone):
    from test_web_plays import START, start_play

    pid = start_play(phone, {**START})
    for url in (f"/photo/{pid}", f"/photo/{pid}/image/0", f"/photo?play={pid}"):
        assert phone.get(url).code == 404, url
    assert phone.post(f"/photo/{pid}/fields", {"version": "x"}).code == 404


# --- confirming, checking, saving ------------------------------------------------------------

def test_confirmed_towards_the_truth_checked_and_saved(phone, sample, draft):
    page = phone.get("/photo/1")
    form = truth_form(page, sample.truth)
    done = phone.post("/photo/1/fields", {**form, "action": "check"})
    assert done.code == 303 and done.resp.headers["Location"] == "/photo/1"
    page = phone.get("/photo/1")
    assert page.code == 200 and not page.error
    # the dice of a turn whose flight, confirmed, its flown die flies only with a +-1 (turn
    # 10 of the game drawn) are asked then: a digit misread alike would look the same; and
    # flights that waited on those confirmed, read again around them and still unsure
    undone = re.findall(r'<fieldset class="confirm" id="field-\d+" data-key="([^"]+)"', page.text)
    assert "turn[10].dice" in undone
    assert all(k == "turn[10].dice" or (k.endswith(".flight") and k in draft.waiting) for k in undone)
    done = phone.post("/photo/1/fields", {**truth_form(page, sample.truth), "action": "check"})
    page = phone.get("/photo/1")
    assert page.text.count('class="confirm done"') == len(fields_of(page))  # shown as confirmed
    legal, totals = verdict(sample.truth)
    assert page.status == ("Legal" if legal else page.status)
    assert list(page.totals().values()) == totals
    with Store.open(phone.db) as store:
        assert store.get(1).in_progress  # checked, not saved yet
    saved = phone.post("/photo/1/fields", {**truth_form(page, sample.truth), "action": "save"})
    assert saved.code == 303 and saved.resp.headers["Location"] == "/photo?play=1&saved=1"
    after = phone.get("/photo?play=1&saved=1")
    assert "saved in play 1" in after.text and 'href="/play/1/end"' in after.text
    assert 'name="play" value="1"' in after.text  # another sheet of this game
    # the play is finished: it counts, its end page and downloads are those of every play
    with Store.open(phone.db) as store:
        play = store.get(1)
        assert not play.in_progress and play.legal == legal
    assert phone.get("/photo/1").resp.headers["Location"] == "/photo?play=1&saved=1"
    end = phone.get("/play/1/end")
    assert end.code == 200
    text = phone.c.get("/play/1/record/1").get_data(as_text=True)
    rec = tomllib.loads(text)
    assert "in_progress" not in rec
    assert verdict(rec) == (legal, totals)
    pdf = phone.c.get("/play/1/pdf/1")
    assert pdf.status_code == 200 and pdf.data[:4] == b"%PDF"
    stats = sheetkit("stats", "--db", str(phone.db))
    assert stats.code == 0 and "Ana" in stats.out


def test_a_corrected_value_that_is_no_value_is_one_message_and_keeps_the_form(phone, sample):
    page = phone.get("/photo/1")
    fields = fields_of(page)
    flight = next(k for _, k in fields if k.endswith(".flight"))
    dice = next(k for _, k in fields if k.endswith(".dice"))
    with Store.open(phone.db) as store:
        before = store.get(1).version
    base = {**truth_form(page, sample.truth), "action": "check"}
    bad = phone.post("/photo/1/fields", {**base, flight: "E E QQ", f"{dice}.1": "3", f"{dice}.2": "2"})
    assert_clear_error(bad, "QQ")
    assert bad.value(flight) == "E E QQ"  # what was typed is kept
    bad = phone.post("/photo/1/fields", {**base, flight: "E E", f"{dice}.1": "9", f"{dice}.2": "2"})
    assert_clear_error(bad, "Die 1")
    bad = phone.post("/photo/1/fields", {**base, flight: "", f"{dice}.1": "1", f"{dice}.2": "2"})
    assert_clear_error(bad, "empty")
    bad = phone.post("/photo/1/fields", {**base, flight: "N " * 300, f"{dice}.1": "1", f"{dice}.2": "2"})
    assert_clear_error(bad)
    with Store.open(phone.db) as store:
        assert store.get(1).version == before  # nothing saved


def test_the_whole_record_can_be_edited_as_text(phone, draft):
    page = phone.get("/photo/1")
    version = page.hidden(r"/photo/\d+/text", "version")
    text = re.search(r'<textarea name="text" id="record-text"[^>]*>(.*?)</textarea>', page.text, re.S).group(1)
    import html

    text = html.unescape(text)
    rec = tomllib.loads(text)
    rec["fish_marked"] = rec["fish_marked"] + 1  # a confident field the reader got wrong
    from sheetkit.tomlfile import dump_toml

    done = phone.post("/photo/1/text", {"version": version, "sheet": "0", "text": dump_toml(rec).replace("\n", "\r\n")})
    assert done.code == 303
    with Store.open(phone.db) as store:
        play = store.get(1)
        stored = tomllib.loads(play.sheets[0].text)
        assert stored["fish_marked"] == draft.record["fish_marked"] + 1 and stored["in_progress"] is True
        assert all(f["confirmed"] for f in store.photos(1)[0]["fields"])
    # garbage: one message, the text kept, nothing saved
    page = phone.get("/photo/1")
    version = page.hidden(r"/photo/\d+/text", "version")
    bad = phone.post("/photo/1/text", {"version": version, "sheet": "0", "text": "game = [[[ <b>"})
    assert_clear_error(bad)
    assert "game = [[[ &lt;b&gt;" in bad.text
    bad = phone.post("/photo/1/text", {"version": version, "sheet": "0", "text": 'game = "glux"\n'})
    assert_clear_error(bad, "Yuncos")
    bad = phone.post("/photo/1/text", {"version": version, "sheet": "0",
                                       "text": 'game = "yuncos"\nlayout = "/etc/passwd"\nstart = 1\nturn = []\n'})
    assert_clear_error(bad)
    with Store.open(phone.db) as store:
        assert store.get(1).version == version


def test_two_phones_confirming_at_once_never_lose_a_correction(phone, sample):
    other = Client(create_app(db=phone.db))
    a, b = phone.get("/photo/1"), other.get("/photo/1")
    form = truth_form(a, sample.truth)
    flight = next(k for _, k in fields_of(a) if k.endswith(".flight"))
    form[flight] = "E E E E E E"  # phone A changes the record
    assert phone.post("/photo/1/fields", {**form, "action": "check"}).code == 303
    stale = other.post("/photo/1/fields", {**truth_form(b, sample.truth), "action": "save"})
    assert_clear_error(stale, "another phone", code=409)
    with Store.open(phone.db) as store:
        assert store.get(1).in_progress  # the stale save did nothing
    text_form = {"version": b.hidden(r"/photo/\d+/text", "version"), "sheet": "0", "text": 'game = "yuncos"\n'}
    assert other.post("/photo/1/text", text_form).code == 409
    forged = other.post("/photo/1/fields", {**form, "version": "nonsense", "action": "check"})
    assert forged.code == 409


def test_csrf_and_cross_site_posts_are_refused(phone, sample):
    page = phone.get("/photo/1")
    form = {**truth_form(page, sample.truth), "action": "save"}
    assert phone.post("/photo/1/fields", form, csrf=False).code == 403
    assert phone.post("/photo/1/fields", form, headers={"Origin": "http://evil.example"}).code == 403
    assert phone.post("/photo/1/text", {"text": "x"}, csrf=False).code == 403
    r = upload(phone, b"x", csrf="wrong")
    assert r.code == 403
    assert phone.post("/photo", {"name": "Ana", "photo": (io.BytesIO(b"x"), "a.jpg")},
                      headers={"Origin": "null"}).code == 403
    with Store.open(phone.db) as store:
        assert store.get(1).in_progress and len(store.plays()) == 1


# --- hostile uploads and the size caps ----------------------------------------------------------

def _png(img) -> bytes:
    ok, buf = cv2.imencode(".png", img)
    return buf.tobytes()


def test_hostile_uploads_are_one_line_each_and_keep_the_name(phone, sample):
    import PIL.Image

    bomb = io.BytesIO()
    PIL.Image.new("1", (9000, 9000)).save(bomb, "PNG")  # 81 million pixels in a few kB
    grey = cv2.imdecode(np.frombuffer(sample.jpeg, np.uint8), cv2.IMREAD_GRAYSCALE)
    blurred = cv2.imencode(".jpg", cv2.GaussianBlur(grey, (0, 0), 7))[1].tobytes()
    cases = [
        (b"", "empty"),
        (b"just some text, not a photo", "not an image"),
        (b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n", "not an image"),
        (bomb.getvalue(), "too large"),
        (_png(np.full((1200, 900), 200, np.uint8)), "no QR code"),  # a photo of something else
        (blurred, None),
        (_png(grey[grey.shape[0] * 2 // 5:]), None),  # cut off
    ]
    for data, words in cases:
        page = upload(phone, data, name="Bea <i>")
        assert_clear_error(page, *(["Cannot read this photo"] if data else []) + ([words] if words else []))
        assert page.value("name") == "Bea <i>"  # the form keeps the name (escaped on the page)
        assert "<i>" not in page.text.split('id="photo-name"', 1)[1][:200]
        assert "/tmp" not in page.text and "sheetkit-photo-" not in page.text  # no server path shown
    with Store.open(phone.db) as store:
        assert len(store.plays()) == 1  # nothing half saved


def test_missing_photo_or_name_and_a_second_sheet_while_one_is_pending(phone, sample):
    page = phone.post("/photo", {"name": "Bea"})
    assert_clear_error(page, "photo")
    page = upload(phone, sample.jpeg, name="")
    assert_clear_error(page, "Player")
    page = upload(phone, sample.jpeg, name="Bea", play="1", version="x")
    assert_clear_error(page, "confirm")  # play 1 still has a sheet to confirm
    assert upload(phone, sample.jpeg, play="12345", version="x").code == 404


def test_the_photo_route_takes_a_phone_photo_and_the_rest_keeps_its_cap(phone):
    big = os.urandom(PHOTO_MAX + 1024)
    page = upload(phone, big)
    assert page.code == 413 and "20 MB" in page.text and "Traceback" not in page.text
    medium = os.urandom(1024 * 1024)  # over the page's 256 kB, under the photo's 20 MB
    page = upload(phone, medium)
    assert_clear_error(page, "not an image")
    page = phone.post("/check", {"text": "x" * (300 * 1024)})
    assert page.code == 413 and "256 kB" in page.text
    page = phone.post("/photo/1/text", {"text": "x" * (300 * 1024)})
    assert page.code == 413 and "256 kB" in page.text


# --- another sheet of the same game ----------------------------------------------------------

def test_another_sheet_joins_the_same_play_and_is_checked_with_it(phone, sample):
    page = phone.get("/photo/1")
    assert phone.post("/photo/1/fields", {**truth_form(page, sample.truth), "action": "save"}).code == 303
    offer = phone.get("/photo?play=1&saved=1")
    version = re.search(r'name="version" value="([^"]+)"', offer.text).group(1)
    same = upload(phone, sample.jpeg, name="ana", play="1", version=version)
    assert_clear_error(same, "twice")
    second = upload(phone, sample.jpeg, name="Bea", play="1", version=version)
    assert second.code == 303 and second.resp.headers["Location"] == "/photo/1"
    with Store.open(phone.db) as store:
        play = store.get(1)
        assert len(play.sheets) == 2 and play.in_progress
        assert [s.name for s in play.seats] == ["Ana", "Bea"]
        assert sorted(store.photos(1)) == [0, 1]
    page = phone.get("/photo/1")
    assert "Confirm the sheet: Bea" in page.text and 'name="sheet" value="1"' in page.text
    assert 'href="/photo/1/image/1"' in page.text
    # a form for the first sheet, sent after the second one was read, is refused
    current = page.hidden(r"/photo/\d+/fields", "version")
    stale = phone.post("/photo/1/fields", {**truth_form(page, sample.truth), "sheet": "0", "version": current,
                                           "action": "save"})
    assert_clear_error(stale, "another phone", code=409)
    # the table: both sheets checked together (the same dice log twice: the same game)
    saved = phone.post("/photo/1/fields", {**truth_form(page, sample.truth), "action": "save"})
    assert saved.code == 303
    end = phone.get("/play/1/end")
    assert end.code == 200 and 'href="/play/1/table"' in end.text
    with Store.open(phone.db) as store:
        assert not store.get(1).in_progress
        store.delete(1)  # its photos go with it
        assert store.photos(1) == {} and store.photo_image(1, 0) is None


# --- without the photo extra ---------------------------------------------------------------------

def test_without_the_photo_extra_the_page_says_how_to_install_it(tmp_path):
    block = tmp_path / "block"
    block.mkdir()
    for mod in ("cv2", "numpy", "zxingcpp"):
        (block / f"{mod}.py").write_text("raise ImportError('not installed')\n")
    script = f"""
import io, re, sys
sys.path.insert(0, {str(ROOT / 'tests')!r})
from sheetkit.web.app import create_app
from test_web import Client
phone = Client(create_app(db={str(tmp_path / 'h.sqlite3')!r}))
assert phone.get("/").code == 200 and 'href="/photo"' in phone.get("/").text
page = phone.get("/photo")
assert page.code == 200, page.code
assert "pip install 'sheetkit[photo]'" in page.find("install"), page.text
assert 'name="photo"' not in page.text
page = phone.post("/photo", {{"name": "Ana", "photo": (io.BytesIO(b"x"), "a.jpg")}})
assert page.code == 503 and "pip install 'sheetkit[photo]'" in page.error, (page.code, page.text)
assert phone.get("/check").code == 200 and phone.get("/play/new?game=yuncos").code == 200
print("ok")
"""
    env = {"PYTHONPATH": str(block), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=tmp_path,
                       timeout=300)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-3000:]


def test_a_hard_sheet_at_a_phones_full_resolution_confirmed_and_saved(tmp_path):
    s = simulate.sample(1011, "yuncos-hard", (3000, 4000))  # a 12-megapixel photo
    phone = Client(create_app(db=tmp_path / "h.sqlite3"))
    page = upload(phone, s.jpeg, name="Carla")
    assert page.code == 303, page.text[:2000]
    page = phone.get("/photo/1")
    assert fields_of(page)
    saved = phone.post("/photo/1/fields", {**truth_form(page, s.truth), "action": "save"})
    assert saved.code == 303
    rec = tomllib.loads(phone.c.get("/play/1/record/1").get_data(as_text=True))
    assert rec["layout"] == "yuncos-hard" and verdict(rec) == verdict(s.truth)


def test_a_solo_game_has_its_rank_and_no_second_sheet(sample, tmp_path):
    phone = Client(create_app(db=tmp_path / "solo.sqlite3"))
    assert 'name="solo"' in phone.get("/photo").text
    page = upload(phone, sample.jpeg, name="Ana", solo="on")
    assert page.code == 303, page.text[:2000]
    with Store.open(tmp_path / "solo.sqlite3") as store:
        assert tomllib.loads(store.get(1).sheets[0].text)["solo"] is True
    page = phone.get("/photo/1")
    assert phone.post("/photo/1/fields", {**truth_form(page, sample.truth), "action": "save"}).code == 303
    saved = phone.get("/photo?play=1&saved=1")
    assert saved.find("rank") and 'id="photo-form"' not in saved.text
    with Store.open(tmp_path / "solo.sqlite3") as store:
        version = store.get(1).version
    assert_clear_error(upload(phone, sample.jpeg, name="Bea", play="1", version=version), "solo")


# --- the page's language --------------------------------------------------------------------

def test_a_photo_the_reader_refuses_is_said_in_the_pages_language(tmp_path):
    from test_errors_i18n import english_left

    app = create_app(db=tmp_path / "h.sqlite3")
    cases = [(b"just some text, not a photo", "no es una imagen (se esperaba JPEG o PNG)",
              "not an image (JPEG or PNG expected)"),
             (_png(np.full((400, 300), 200, np.uint8)), "no se encontró ningún código QR",
              "no QR code found: photograph a numbered sheet")]
    for data, es_words, en_words in cases:
        es = upload(Client(app, lang="es"), data)
        assert_clear_error(es, "No se puede leer esta foto: " + es_words)
        assert "⟦" not in es.error and not english_left(es.error), (english_left(es.error), es.error)
        en = upload(Client(app, lang="en"), data)
        assert_clear_error(en, "Cannot read this photo: " + en_words)
    with Store.open(tmp_path / "h.sqlite3") as store:
        assert store.plays() == []  # nothing kept of a photo not read


def test_why_a_field_is_asked_is_said_in_the_pages_language_and_kept_data_names_no_other_message(phone):
    from sheetkit.messages import msg

    with Store.open(phone.db) as store:
        info = store.photos(1)[0]
        first = info["fields"][0]["key"]
        info["fields"][0]["why"] = msg("photo.why.faulty", why=msg("photo.why.dice")).to_json()
        info["fields"][1]["why"] = {"id": "error.photo.no_qr", "values": {}}  # not a reason
        info["fields"][2]["why"] = {"id": "photo.why.after", "values": {"why": {"id": "error.cli.x"}, "turn": 2}}
        info["fields"][3]["why"] = "a reason kept as plain text"
        store.save_photo(1, 0, None, info)
    en = phone.get("/photo/1")
    assert en.code == 200 and first
    assert "unsure: the dice log (the rules find an error in this turn)" in en.text
    for n in (2, 3, 4):  # the others say nothing rather than anything
        block = re.search(rf'id="field-{n}".*?</fieldset>', en.text, re.S).group(0)
        assert 'class="hint why"' not in block
    phone.get("/?lang=es")
    es = phone.get("/photo/1")
    assert "dudoso: el registro de dados (las reglas encuentran un error en este turno)" in es.text


def test_the_readers_notes_are_said_in_the_pages_language(phone):
    from sheetkit.messages import msg

    with Store.open(phone.db) as store:
        info = store.photos(1)[0]
        info["notes"] = [msg("photo.note.faults", faults=2).to_json()]
        store.save_photo(1, 0, None, info)
    en = phone.get("/photo/1")
    assert "The reader says: the draft as read has 2 fault(s) by the rules: check the marked fields first" in en.text
    phone.get("/?lang=es")
    es = phone.get("/photo/1")
    assert ("El lector dice: el borrador leído tiene 2 errores según las reglas: comprueba primero los campos "
            "marcados") in es.text


# --- confirming reads the sheet again ---------------------------------------------------------

def test_confirming_reads_the_sheet_again_around_the_confirmed_fields(sample):
    """The confirm step reads the sheet again from the registered photo kept: the fields the
    player confirmed are held as given, every other one is what the photo shows around them
    (a field the page held wrongly is read again), and only unconfirmed fields are asked."""
    from sheetkit.web import photo

    draft, reg = photo.read_upload(sample.jpeg)
    image, info = photo.image_of(reg), {"qr": reg.text, "lang": reg.blank.lang}
    rec = photo.draft_record(draft)

    # flights not asked: sure, or waiting on one asked (or on the start point)
    sure = [t for t in range(1, len(rec["turn"]) + 1) if f"turn[{t}].flight" not in draft.uncertain]
    assert sure and draft.uncertain
    t = sure[-1]
    rec["turn"][t - 1]["flight"] = "N" if rec["turn"][t - 1]["flight"] != "N" else "S"  # held wrongly
    key = draft.uncertain[0]
    confirmed = [key]
    if key.startswith("turn[") and key.endswith(".dice"):
        n = int(key[5:key.index("]")])
        rec["turn"][n - 1]["dice"] = sample.truth["turn"][n - 1]["dice"]
    got = photo.reread(image, info, rec, confirmed)
    assert got is not None
    new, fields, held, _ = got
    assert key in held or key.endswith(".value")  # confirmed stays confirmed (a number follows its box)
    assert new["turn"][t - 1]["flight"] == draft.record["turn"][t - 1]["flight"]  # read again from the photo
    assert new["in_progress"] is True and len(new["turn"]) == len(rec["turn"])
    if key.endswith(".dice"):
        assert new["turn"][n - 1]["dice"] == rec["turn"][n - 1]["dice"]  # held as the player gave it
    assert key not in [f["key"] for f in fields]
    # no photo kept (a sheet read elsewhere) or one that cannot be read: the record stays
    assert photo.reread(b"", info, rec, confirmed) is None
    assert photo.reread(image, {}, rec, confirmed) is None


def _expected_reading(phone, sample):
    """(the confirm form set to the truth, the photo's kept info, the fields it confirms, what
    reading the sheet again around them gives), as the page's step will work them out."""
    from sheetkit.web import photo

    form = truth_form(phone.get("/photo/1"), sample.truth)
    with Store.open(phone.db) as store:
        before = store.get(1)
        info = store.photos(1)[0]
        image = store.photo_image(1, 0)
    shown = tomllib.loads(before.sheets[0].text)
    fixed, done = photo.corrected(shown, info["fields"], _Form(form), lambda k, **v: k)
    expect = photo.reread(image, info, fixed, sorted(done))
    assert expect is not None
    return form, info, done, expect


def test_the_check_step_keeps_the_sheet_read_again(phone, sample):
    form, _, done, expect = _expected_reading(phone, sample)
    assert phone.post("/photo/1/fields", {**form, "action": "check"}).code == 303
    with Store.open(phone.db) as store:
        after = tomllib.loads(store.get(1).sheets[0].text)
        kept = store.photos(1)[0]["fields"]
    assert after == expect[0]
    assert {f["key"] for f in kept if f["confirmed"]} == set(done)
    assert [f["key"] for f in kept if not f["confirmed"]] == [f["key"] for f in expect[1]]


def test_saving_while_flights_wait_reads_them_again_first(phone, sample, monkeypatch):
    """The flights waiting on the ones asked are not shown: saving reads them again around
    what the player confirmed, as checking does, and saves that; with nothing waiting,
    saving keeps what the player saw."""
    from sheetkit.web import photo

    form, info, _, expect = _expected_reading(phone, sample)
    assert info["waiting"] > 0, "the sample is chosen for a draft with flights waiting"
    calls = []
    real = photo.reread
    monkeypatch.setattr(photo, "reread", lambda *a: calls.append(a) or real(*a))  # the real reading, counted
    assert phone.post("/photo/1/fields", {**form, "action": "save"}).code == 303
    assert len(calls) == 1
    with Store.open(phone.db) as store:
        after = tomllib.loads(store.get(1).sheets[0].text)
    assert after == photo.finished(expect[0])


def test_saving_with_nothing_waiting_keeps_what_the_player_saw(phone, sample, monkeypatch):
    from sheetkit.web import photo

    with Store.open(phone.db) as store:
        info = store.photos(1)[0]
        info["waiting"] = 0
        store.save_photo(1, 0, None, info)
    calls = []
    monkeypatch.setattr(photo, "reread", lambda *a: calls.append(a))
    page = phone.get("/photo/1")
    assert 'id="waiting"' not in page.text
    assert phone.post("/photo/1/fields", {**truth_form(page, sample.truth), "action": "save"}).code == 303
    assert calls == []


def test_fields_typed_in_the_whole_record_are_held_when_the_sheet_is_read_again(phone, sample):
    """A flight the player types in the whole record (one the page did not ask, or one
    waiting) is held by the next reading again, not read back from the photo."""
    page = phone.get("/photo/1")
    with Store.open(phone.db) as store:
        rec = tomllib.loads(store.get(1).sheets[0].text)
        info = store.photos(1)[0]
    asked = {f["key"] for f in info["fields"]}
    t = next(t for t in range(len(rec["turn"]), 0, -1) if f"turn[{t}].flight" not in asked)
    rec["turn"][t - 1]["flight"] = sample.truth["turn"][t - 1]["flight"] if \
        sample.truth["turn"][t - 1]["flight"] != rec["turn"][t - 1]["flight"] else "N S"
    typed = rec["turn"][t - 1]["flight"]
    from sheetkit.tomlfile import dump_toml

    text = dump_toml(rec)
    version = page.hidden(r"/photo/\d+/text", "version")
    assert phone.post("/photo/1/text", {"text": text, "version": version, "sheet": "0"}).code == 303
    with Store.open(phone.db) as store:
        assert f"turn[{t}].flight" in store.photos(1)[0]["held"]
    page = phone.get("/photo/1")
    assert phone.post("/photo/1/fields", {**truth_form(page, sample.truth), "action": "check"}).code == 303
    with Store.open(phone.db) as store:
        assert tomllib.loads(store.get(1).sheets[0].text)["turn"][t - 1]["flight"] == typed


class _Form(dict):
    """A posted form as corrected() reads it (getlist for the toggles)."""

    def getlist(self, key):
        v = self.get(key, [])
        return v if isinstance(v, list) else [v]


def test_a_reading_again_that_cannot_be_taken_keeps_what_the_player_confirmed(phone, sample, monkeypatch):
    """Confirming only mends: when the photo read again cannot be taken (its record breaks
    more rules than the player's: merge_confirmed gives None), the sheet keeps the values
    the player gave, every field they confirmed stays confirmed, and only what the photo
    reads otherwise is asked next (read.kept_draft)."""
    from sheetkit.photo import read

    page = phone.get("/photo/1")
    form = truth_form(page, sample.truth)
    listed = [k for _, k in fields_of(page)]
    monkeypatch.setattr(read, "merge_confirmed", lambda rec, got, held: None)
    done = phone.post("/photo/1/fields", {**form, "action": "check"})
    assert done.code == 303
    after = phone.get("/photo/1")
    assert after.code == 200 and not after.error
    with Store.open(phone.db) as store:
        rec = tomllib.loads(store.get(1).sheets[0].text)
        info = store.photos(1)[0]
    assert set(listed) <= set(info["held"])  # what the player confirmed, held as they gave it
    for key in listed:
        if key.endswith(".flight"):
            t = int(key[5:key.index("]")])
            assert " ".join(rec["turn"][t - 1]["flight"].split()) == " ".join(form[key].split())
    asked = [f["key"] for f in info["fields"] if not f.get("confirmed")]
    assert not set(asked) & set(info["held"])
