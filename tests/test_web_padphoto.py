"""Reading a filled score pad from a phone photo on the page (sheetkit/web/padphoto.py),
through Flask's test client on a real history file, with the real pad reader on SIMULATED
photos (sheetkit.photo.padsimulate: a random legal end of a game written into the numbered
pad in held-out handwriting and photographed as a phone does): each game uploaded,
its marked cells confirmed with the truth, the names typed, saved as a play, and the
stored record checked by `sheetkit check --json` against the truth's scores; bad uploads,
absurd form values, stale forms, a restart between the steps."""

from __future__ import annotations

import html
import io
import json
import re
import sqlite3

import pytest

cv2 = pytest.importorskip("cv2")
pytest.importorskip("zxingcpp")

import numpy as np  # noqa: E402

from sheetkit import games  # noqa: E402
from sheetkit.history import Store  # noqa: E402
from sheetkit.photo import padsimulate  # noqa: E402
from sheetkit.web import padphoto  # noqa: E402
from sheetkit.web.app import create_app  # noqa: E402

from conftest import sheetkit  # noqa: E402
from test_web import Client, assert_clear_error  # noqa: E402

# A seed and tier per game whose photo reads with cells to confirm (Level X reads every cell of
# a photo at a table surely: its photo is a steep, shadowed, small one).
SEEDS = {"levelx": (11, "steep"), "glux": (12, "table"), "iunu": (1, "table")}


@pytest.fixture(scope="module")
def samples():
    return {g: padsimulate.sample(seed, g, tier) for g, (seed, tier) in SEEDS.items()}


def upload(phone, data: bytes, filename="pad.jpg"):
    return phone.post("/pad-photo", {"photo": (io.BytesIO(data), filename)})


def keys_of(page) -> list[str]:
    return re.findall(r'data-key="([^"]+)"', page.text)


def version_of(page) -> str:
    return re.search(r'name="version" value="(\d+)"', page.text).group(1)


def truth_form(page, s, names: dict[int, str], action="save") -> dict:
    """The confirm form as a player fills it from the pad: every marked cell at the
    truth's value, every name typed."""
    form = {"version": version_of(page), "action": action}
    for k in keys_of(page):
        v = s.values.get(k)
        if isinstance(v, bool):
            if v:
                form[f"cell:{k}"] = "on"
        elif v is not None:
            form[f"cell:{k}"] = str(v)
    for col in s.players:
        form[f"name-{col}"] = names[col]
    return form


@pytest.fixture(scope="module")
def read_once(samples, tmp_path_factory):
    """A history folder with every sample uploaded once (reading takes seconds): the
    readings' tokens, copied per test."""
    db = tmp_path_factory.mktemp("pad-db") / "history.sqlite3"
    phone = Client(create_app(db=db))
    tokens = {}
    for game, s in samples.items():
        page = upload(phone, s.jpeg)
        assert page.code == 303, page.text[:3000]
        tokens[game] = page.resp.headers["Location"].rsplit("/", 1)[1]
    return db, tokens


@pytest.fixture
def phone(read_once, tmp_path):
    import shutil

    src, tokens = read_once
    db = tmp_path / "history.sqlite3"
    if src.exists():
        with sqlite3.connect(src) as a, sqlite3.connect(db) as b:
            a.backup(b)
    shutil.copytree(f"{src}.pad-photos", f"{db}.pad-photos")
    client = Client(create_app(db=db))
    client.db, client.tokens = db, tokens
    return client


def names_for(s) -> dict[int, str]:
    return {c: f"Ana{c}" if c % 2 else f"Bea{c}" for c in s.players}


def confirm_and_save(phone, game, s):
    """Confirm the marked cells with the truth (reading again as long as the reader marks
    more), type the names, save: the response of the save."""
    url = f"/pad-photo/{phone.tokens[game]}"
    page = phone.get(url)
    assert page.code == 200, page.text[:2000]
    for _ in range(6):
        resp = phone.post(url, truth_form(page, s, names_for(s)))
        if resp.code != 400 or "more cell" not in (resp.error or ""):
            return resp
        page = resp  # read again around what was confirmed: more to confirm
    return resp


def checked_scores(text: str, tmp_path) -> dict[str, int]:
    path = tmp_path / "record.toml"
    path.write_text(text, encoding="utf-8")
    run = sheetkit("check", str(path), "--json")
    assert run.code in (0, 1), run.err
    verdict = json.loads(run.out)[0]
    return {sc["player"]: sc["total"] for sc in verdict["scores"]}


@pytest.mark.parametrize("game", list(SEEDS))
def test_each_game_is_uploaded_confirmed_saved_and_checks_as_the_truth(phone, samples, game, tmp_path):
    s = samples[game]
    page = phone.get(f"/pad-photo/{phone.tokens[game]}")
    # every cell to confirm is outlined on the photo, a tap target for its own input
    for n, key in enumerate(keys_of(page), 1):
        assert f'data-focus="in-{n}"' in page.text and f'id="in-{n}"' in page.text
        assert f'name="cell:{key}"' in page.text
    assert all(f'id="name-{c}"' in page.text for c in s.players)  # a name box per player, its picture above
    resp = confirm_and_save(phone, game, s)
    assert resp.code == 303, resp.error or resp.text[:2000]
    play_id = int(re.fullmatch(r"/play/(\d+)/end", resp.resp.headers["Location"]).group(1))
    end = phone.get(f"/play/{play_id}/end")
    assert end.code == 200 and f"/play/{play_id}/record/1" in end.text
    record = phone.c.get(f"/play/{play_id}/record/1")
    assert record.status_code == 200
    got = checked_scores(record.get_data(as_text=True), tmp_path)
    names = names_for(s)
    assert got == {names[int(k.split()[1]) - 1]: v for k, v in s.scores.items()}
    with Store.open(phone.db) as store:
        play = store.get(play_id)
        assert play.game == game and not play.in_progress
        assert {st.name for st in play.seats} == set(names.values())
        assert store.photo_image(play_id, 0)[:2] == b"\xff\xd8"  # the photo kept with the play
    # the reading is done: its page leads to the play, a second save makes no second play
    again = phone.get(f"/pad-photo/{phone.tokens[game]}")
    assert again.code == 303 and again.resp.headers["Location"] == f"/play/{play_id}/end"
    assert phone.post(f"/pad-photo/{phone.tokens[game]}", {"action": "save"}).code == 303
    with Store.open(phone.db) as store:
        assert len(store.plays()) == 1
    assert not list((phone.db.parent / f"{phone.db.name}.pad-photos").glob(f"{phone.tokens[game]}.png"))
    # the players named are the history's people now: offered for the next pad's names
    other = next(g for g in SEEDS if g != game)
    offered = phone.get(f"/pad-photo/{phone.tokens[other]}").text
    assert all(f'<option value="{n}">' in offered for n in names.values())


def test_what_is_kept_until_saved_is_the_owners_alone(phone):
    import stat

    folder = phone.db.parent / f"{phone.db.name}.pad-photos"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    files = list(folder.iterdir())
    assert files and all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in files)
    assert {f.suffix for f in files} == {".json", ".png", ".jpg"}


@pytest.mark.parametrize("game", list(SEEDS))
def test_confirming_reads_the_pad_again_around_what_was_confirmed(phone, samples, game):
    """The confirm step of every game: the confirmed cells held, the pad read again until
    nothing is unsure, the draft then the truth's (what it says as a record is the
    reader's; its scores, as `sheetkit check` scores it)."""
    from sheetkit.photo import padgames

    s = samples[game]
    url = f"/pad-photo/{phone.tokens[game]}"
    page = phone.get(url)
    for _ in range(6):
        resp = phone.post(url, truth_form(page, s, names_for(s), action="check"))
        assert resp.code == 303, resp.error
        page = phone.get(url)
        if not keys_of(page) or all("confirmed" in p for p in re.findall(r'<p class="read">(.*?)</p>', page.text)):
            break
    kept = padphoto.Kept(phone.db.parent / f"{phone.db.name}.pad-photos").info(phone.tokens[game])
    assert kept["unsure"] == []
    assert all(kept["fixed"][k] == (bool(s.values.get(k)) if kept["fields"][k]["kind"] == "tick"
                                    else s.values.get(k)) for k in kept["fixed"])

    class Draft:  # the kept draft as padgames.scores reads one
        pass

    d = Draft()
    d.game, d.record = kept["game"], kept["record"]
    assert padgames.scores(d)[1] == s.scores
    # what was typed is kept between the steps
    assert all(f'value="{n}"' in page.text for n in names_for(s).values())


def test_a_restart_between_the_steps_loses_nothing(phone, samples):
    url = f"/pad-photo/{phone.tokens['levelx']}"
    before = phone.get(url)
    restarted = Client(create_app(db=phone.db))
    after = restarted.get(url)
    assert after.code == 200
    assert keys_of(after) == keys_of(before) and version_of(after) == version_of(before)
    assert restarted.c.get(f"{url}/image").data[:2] == b"\xff\xd8"


def test_bad_uploads_are_one_line_on_the_page(phone, tmp_path):
    noise = cv2.imencode(".png", (np.random.default_rng(1).random((1200, 900)) * 255).astype(np.uint8))[1].tobytes()
    pad = padsimulate.sample(SEEDS["iunu"][0], "iunu", "table").jpeg
    from sheetkit.photo import simulate

    yuncos = simulate.sample(1, "yuncos-easy", (1200, 1600)).jpeg
    cases = [(b"", "empty"), (b"not a photo at all", "not an image"), (noise, "no QR code"),
             (pad[: len(pad) // 3], "cut short"), (b"\x89PNG\r\n\x1a\n" + b"\0" * 64, ""),
             (b"GIF89a" + b"\xff" * 500, ""), (yuncos, "")]
    for data, words in cases:
        page = upload(phone, data)
        assert_clear_error(page, words)
        assert len(page.error.splitlines()) == 1 and "/tmp" not in page.error
        assert 'id="pad-form"' in page.text  # the form again, to try another photo
    assert_clear_error(phone.post("/pad-photo", {}), "photo")
    assert_clear_error(phone.post("/pad-photo", {"photo": (io.BytesIO(b"x"), "")}), "photo")


def test_a_photo_too_large_is_refused_before_it_is_read(phone):
    big = b"\xff\xd8" + b"\0" * (padphoto.PHOTO_MAX + 10)
    page = upload(phone, big)
    assert page.code == 413 and page.error and "MB" in page.error
    assert 'id="pad-form"' in page.text
    # the page's other forms keep their own limit, said as ever
    other = phone.post("/check", {"text": "x" * (400 * 1024)})
    assert other.code == 413 and "kB" in other.text


def test_without_the_csrf_token_or_from_another_site_nothing_is_read(phone, samples):
    assert phone.post("/pad-photo", {"photo": (io.BytesIO(samples["iunu"].jpeg), "p.jpg")}, csrf=False).code == 403
    page = phone.post("/pad-photo", {"photo": (io.BytesIO(b"x"), "p.jpg")}, headers={"Origin": "http://evil.example"})
    assert page.code == 403
    url = f"/pad-photo/{phone.tokens['levelx']}"
    assert phone.post(url, {"action": "save"}, csrf=False).code == 403


def test_absurd_form_values_are_one_line_and_keep_what_was_typed(phone, samples):
    s = samples["glux"]
    url = f"/pad-photo/{phone.tokens['glux']}"
    page = phone.get(url)
    keys = keys_of(page)
    assert keys, "the glux seed reads with cells to confirm"
    good = truth_form(page, s, names_for(s), action="check")
    cell = f"cell:{keys[0]}"
    for bad in ("abc", "-1", "1e3", "99999999999999999999999", "½", "12 3", "\u0661\u0662", "0x10", " " * 5000 + "x"):
        resp = phone.post(url, {**good, cell: bad})
        assert_clear_error(resp, "whole number")
        assert len(resp.error) < 300
        assert all(f'value="{html.escape(n)}"' in resp.text for n in names_for(s).values())  # kept as typed
    for name, words in (("A\u202eB", "name"), ("x" * 500, "name"), ("A\x00B", "name")):
        resp = phone.post(url, {**good, f"name-{s.players[0]}": name})
        assert_clear_error(resp, words)
    twice = {**good, "action": "save", **{f"name-{c}": "Same" for c in s.players}}
    assert_clear_error(phone.post(url, twice), "twice")
    missing = {**good, "action": "save", f"name-{s.players[0]}": "  "}
    assert_clear_error(phone.post(url, missing), "type the name")
    # a tick that is no tick, unknown fields, a list where a value is: refused or ignored, never a fault
    resp = phone.post(url, {**good, "cell:t0.winner.mark.p0": "yes", "cell:../../etc": "1", "zzz": "9"})
    assert resp.code in (303, 400) and "Traceback" not in resp.text
    # an old screen's form: refused, the reading as it is now shown
    assert_clear_error(phone.post(url, {**good, "version": "0"}), code=409)
    assert_clear_error(phone.post(url, {**good, "version": "9" * 400}), code=409)
    # nothing of it became a play
    with Store.open(phone.db) as store:
        assert store.plays() == []


def test_a_reading_that_is_not_there_is_404(phone):
    for token in ("nope", "A" * 22, "..%2F..%2Fetc%2Fpasswd", "A" * 5000):
        assert phone.get(f"/pad-photo/{token}").code == 404
        assert phone.get(f"/pad-photo/{token}/image").code == 404
        assert phone.post(f"/pad-photo/{token}", {"action": "save"}).code == 404


def test_the_pages_speak_both_languages_and_name_the_games_from_the_registry(phone):
    from sheetkit.photo.padregister import PADS
    from test_page_words import foreign_words

    titles = [g.title for g in padphoto.pad_games()]
    assert len(titles) == len(PADS)
    for lang in ("en", "es"):
        phone.get(f"/?lang={lang}")
        for url in ("/", "/pad-photo", f"/pad-photo/{phone.tokens['glux']}"):
            page = phone.get(url)
            assert page.code == 200 and "⟦" not in page.text
            assert not foreign_words(page.text, lang), (url, foreign_words(page.text, lang))
        assert all(html.escape(t_) in phone.get("/pad-photo").text for t_ in titles)
    assert 'id="pad-photo-link"' in phone.get("/").text


def test_a_history_folder_that_cannot_keep_the_reading_is_one_line(phone, samples):
    import shutil

    folder = phone.db.parent / f"{phone.db.name}.pad-photos"
    shutil.rmtree(folder)
    folder.write_text("in the way")  # the folder cannot be made: a file has its name
    page = upload(phone, samples["iunu"].jpeg)
    assert_clear_error(page, "cannot be kept")
