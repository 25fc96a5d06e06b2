"""`sheetkit read`: simulated phone photos of filled Yuncos sheets -> draft records.

These photos are simulated (sheetkit.photo.simulate): random legal games pencilled onto
the rendered sheet and photographed with perspective, rotation, blur, uneven light, noise
and JPEG compression. The larger measured set is bench/bench_photo.py.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from sheetkit.photo import register, simulate  # noqa: E402
from sheetkit.photo.read import draft_toml, read_photo  # noqa: E402

from conftest import assert_user_error, sheetkit  # noqa: E402


def verdict(record):
    from sheetkit.checking import records

    v = records.check(records.parse(record, "r.toml")).verdict
    return v.legal, v.scores[0].total


@pytest.fixture(scope="module")
def easy(tmp_path_factory):
    s = simulate.sample(1, "yuncos-easy", (1200, 1600))
    path = tmp_path_factory.mktemp("photo") / "easy.jpg"
    path.write_bytes(s.jpeg)
    return s, path


@pytest.mark.parametrize("lid", ["yuncos-easy", "yuncos-hard"])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_registration_squares_stand_clear_of_everything_else(lid, lang):
    img, _, g = register.render(lid, 1, lang, 6.0)
    for x, y, size in g.marks:
        inner = img[int((y + 0.4) * 6):int((y + size - 0.4) * 6), int((x + 0.4) * 6):int((x + size - 0.4) * 6)]
        assert inner.max() < 0.2  # filled black
        ring = img[int((y - 0.7) * 6):int((y + size + 0.7) * 6), int((x - 0.7) * 6):int((x + size + 0.7) * 6)].copy()
        ring[3:-3, 3:-3] = 1.0  # the square itself, and its anti-aliased edge
        assert ring.min() > 0.9, (x, y)  # white for 0.7 mm around it: nothing printed there


def test_a_photo_reads_into_a_draft_that_checks_as_the_game_drawn(easy, tmp_path):
    s, path = easy
    out, dbg = tmp_path / "draft.toml", tmp_path / "debug.png"
    run = sheetkit("read", str(path), "-o", str(out), "--debug", str(dbg))
    assert run.code == 0, run.err
    assert "to confirm" in run.err
    text = out.read_text()
    assert text.startswith("# A draft read by sheetkit read")
    assert "# To confirm:" in text
    draft = tomllib.loads(text)
    assert draft["qr"].startswith("SK1:yuncos-easy:")
    assert draft["start"] == s.truth["start"]
    assert len(draft["turn"]) == len(s.truth["turn"])
    assert verdict(draft) == verdict(s.truth)
    check = sheetkit("check", str(out))
    assert check.code == 0, check.out
    debug = cv2.imread(str(dbg))
    assert debug is not None and debug.shape[0] > 1000


def test_uncertain_fields_are_marked_on_their_lines_and_listed(easy):
    s, path = easy
    draft = read_photo(path)
    text = draft_toml(draft)
    listed = next(line for line in text.splitlines() if line.startswith("# To confirm:"))
    for key in draft.uncertain:
        assert key in listed
    # those unsure only because an earlier turn (or the start point, 0) is wait on it, listed
    # apart, marked as well
    assert draft.waiting and all(draft.confidence[k].after is not None for k in draft.waiting)
    waiting = next(line for line in text.splitlines() if line.startswith("# Waiting on those"))
    assert all(k in waiting and k not in listed.split(": ", 1)[1].split(", ") for k in draft.waiting)
    marked = [line for line in text.splitlines() if "# check:" in line and not line.startswith("#")]
    assert len(marked) == len(draft.uncertain) + len(draft.waiting)
    fixed = simulate.confirmed(draft, s.truth)
    assert verdict(fixed) == verdict(s.truth)



def test_the_drafts_comments_are_in_the_language_asked_for(easy, tmp_path):
    """`read --lang es` writes the draft's comment lines in Spanish; the record (keys,
    values, the `# check` marker) is the same, word for word, in both languages."""
    _, path = easy
    draft = read_photo(path)
    en, es = draft_toml(draft, "easy.jpg", "en"), draft_toml(draft, "easy.jpg", "es")
    assert es.startswith("# Borrador leído por sheetkit read de easy.jpg: compruébalo con la hoja.")
    assert "# Por confirmar:" in es and "[[turn]]  # turno 1" in es and "# To confirm" not in es
    if draft.uncertain:
        assert "  # check: " in es
    strip = lambda t: [line.split("  #")[0] for line in t.splitlines() if not line.startswith("#")]  # noqa: E731
    assert strip(en) == strip(es) and tomllib.loads(en) == tomllib.loads(es)
    out = tmp_path / "draft.toml"
    run = sheetkit("read", "--lang", "es", str(path), "-o", str(out))
    assert run.code == 0, run.err
    assert run.err.startswith(f"borrador escrito en {out}:") and out.read_text() == es.replace("easy.jpg", str(path))


def test_a_hard_sheet_checks_as_drawn_once_its_uncertain_fields_are_confirmed(tmp_path):
    s = simulate.sample(1011, "yuncos-hard", (3000, 4000))
    path = tmp_path / "hard.jpg"
    path.write_bytes(s.jpeg)
    draft = read_photo(path)
    c = simulate.compare(draft, s.truth, "yuncos-hard")
    assert c["edges"][0] == c["edges"][1]
    assert c["digits"][0] == c["digits"][1]
    assert c["draft_agrees"] and c["confirmed_agrees"]


def test_several_photos_are_read_at_once_into_a_folder_each_as_read_alone(easy, tmp_path):
    """A game night's photos in one command: each draft in the folder is the draft the photo
    gives alone; a photo that cannot be read is said in its own line, the others are still
    read, and the command ends with exit 2 saying how many were not."""
    from sheetkit.photo import padsimulate

    _, path = easy
    pad = tmp_path / "pad.jpg"
    padsimulate.write(padsimulate.sample(3, "levelx", "table"), pad)
    notes = tmp_path / "notes.jpg"
    notes.write_text("not a photo")
    alone = {}
    for photo in (path, pad):
        run = sheetkit("read", str(photo), "-o", str(tmp_path / "alone.toml"))
        assert run.code == 0, run.err
        alone[photo.stem] = (tmp_path / "alone.toml").read_text()
    for jobs in ("1", "2"):  # one after another in this process; a process per photo
        drafts = tmp_path / f"drafts-{jobs}"
        run = sheetkit("read", str(path), str(notes), str(pad), "-o", str(drafts), "--jobs", jobs,
                       "--debug", str(tmp_path / f"found-{jobs}"))
        assert run.code == 2 and "Traceback" not in run.err, run.err
        lines = run.err.strip().splitlines()
        assert len(lines) == 4, run.err
        assert lines[0].startswith(f"{path}: ") and str(drafts / "easy.toml") in lines[0]
        assert lines[1] == f"sheetkit: {notes}: not an image (JPEG or PNG expected)"
        assert lines[2].startswith(f"{pad}: read levelx-score-pad")
        assert lines[3].startswith("sheetkit: 1 of the 3 photos could not be read") and str(drafts) in lines[3]
        assert sorted(p.name for p in drafts.iterdir()) == ["easy.toml", "pad.toml"]
        assert {p.stem: p.read_text() for p in drafts.iterdir()} == alone
        assert sorted(p.name for p in (tmp_path / f"found-{jobs}").iterdir()) == ["easy.png", "pad.png"]


def test_reading_several_photos_is_refused_in_one_line_where_it_cannot_be_done(easy, tmp_path):
    _, path = easy
    other = tmp_path / "other"
    other.mkdir()
    (other / "easy.jpg").write_bytes(path.read_bytes())
    assert_user_error(sheetkit("read", str(path), str(path)), "folder", "-o")
    assert_user_error(sheetkit("read", str(path), str(other / "easy.jpg"), "-o", str(tmp_path / "d")),
                      "same draft", "easy.toml")
    assert_user_error(sheetkit("read", str(path), str(path), "-o", str(tmp_path / "d")), "given twice")
    assert not (tmp_path / "d").exists()  # nothing read, nothing made
    assert_user_error(sheetkit("read", str(path), str(path), "-o", str(tmp_path / "d"), "--confirmed",
                               str(tmp_path / "x.toml")), "one photo")
    assert_user_error(sheetkit("read", str(path), str(path), "-o", str(tmp_path / "d"), "--jobs", "0"), "--jobs")
    assert_user_error(sheetkit("read", str(path), "-o", str(path)), "easy.jpg", "over the photo")  # refused
    assert_user_error(sheetkit("read", str(path), "--debug", str(path)), "over the photo")
    assert path.read_bytes()[:2] == b"\xff\xd8"  # the photo left as it was
    # one photo and an existing folder, or a name ending in a slash: the draft goes in it
    run = sheetkit("read", str(path), "-o", str(other))
    assert run.code == 0 and (other / "easy.toml").is_file(), run.err


def _children(pid: int) -> list[int]:
    """The processes `pid` started (Linux's /proc)."""
    import glob

    out = []
    for path in glob.glob(f"/proc/{pid}/task/*/children"):
        with open(path) as f:
            out += [int(c) for c in f.read().split()]
    return out


def _alive(pid: int) -> bool:
    import os

    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"  # a zombie has ended
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_a_batch_stopped_ends_at_once_with_its_workers_and_says_every_draft_it_wrote(easy, tmp_path, how):
    """Ctrl-C (to the command's process group, as a terminal sends it) or SIGTERM (to the
    command alone, as `timeout` sends it) while several photos are read: the command ends
    within seconds, its workers with it, every draft in the folder was said, and none is
    written after it ended."""
    import os
    import signal
    import time

    _, path = easy
    photos = []
    for k in range(8):
        photos.append(tmp_path / f"sheet{k}.jpg")
        photos[-1].write_bytes(path.read_bytes())
    out = tmp_path / "drafts"
    run = subprocess.Popen([sys.executable, "-m", "sheetkit", "read", *map(str, photos), "-o", str(out), "--jobs", "2"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        first = run.stderr.readline()  # the first photo read: the workers are at work
        assert "wrote the draft" in first, first
        workers = _children(run.pid)
        assert len(workers) >= 2
        if how == "ctrl-c":
            os.killpg(run.pid, signal.SIGINT)
        else:
            os.kill(run.pid, signal.SIGTERM)
        t = time.time()
        run.wait(timeout=30)
        took = time.time() - t
        rest = run.stderr.read()  # the workers share the pipe: its end comes when they have ended
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert took < 5, took
    assert run.returncode == (2 if how == "ctrl-c" else 128 + signal.SIGTERM), rest
    assert "Traceback" not in rest
    if how == "ctrl-c":
        assert rest.strip().endswith("sheetkit: aborted"), rest
    deadline = time.time() + 5
    while any(_alive(w) for w in workers) and time.time() < deadline:
        time.sleep(0.1)
    assert not any(_alive(w) for w in workers)
    written = sorted(p.name for p in out.iterdir())
    said = (first + rest).count("wrote the draft")
    assert len(written) == said and 1 <= said < len(photos), (written, (first + rest).replace(str(tmp_path), "T"))
    time.sleep(1)
    assert sorted(p.name for p in out.iterdir()) == written  # nothing after the end
    assert not [p for p in out.iterdir() if p.suffix != ".toml"]  # no temporary file left


def test_a_batch_writes_over_no_photo_and_leaves_no_folder_for_nothing(easy, tmp_path):
    """A draft named as another photo of the batch (a link in the folder to it) is refused
    before anything is read; -o naming a file is refused with several photos; a batch
    where every photo fails leaves no empty folder behind and says none was read."""
    import os

    _, path = easy
    a, b = tmp_path / "a.jpg", tmp_path / "b.jpg"
    a.write_bytes(path.read_bytes())
    b.write_bytes(path.read_bytes())
    out = tmp_path / "out"
    out.mkdir()
    os.symlink(b, out / "a.toml")
    assert_user_error(sheetkit("read", str(a), str(b), "-o", str(out)), "b.jpg", "over the photo")
    assert b.read_bytes() == path.read_bytes()
    (tmp_path / "file.toml").write_text("x")
    assert_user_error(sheetkit("read", str(a), str(b), "-o", str(tmp_path / "file.toml")), "folder")
    run = sheetkit("read", str(tmp_path / "none1.jpg"), str(tmp_path / "none2.jpg"), "-o", str(tmp_path / "new"))
    assert run.code == 2 and run.err.strip().splitlines()[-1] == "sheetkit: none of the 2 photos could be read " \
        "(said above): see each one's line for what to do", run.err
    assert not (tmp_path / "new").exists()


def _image(tmp_path, name, img):
    path = tmp_path / name
    cv2.imwrite(str(path), img)
    return str(path)


def _qr_image(text):
    import qrcode

    q = qrcode.QRCode(border=4, box_size=8)
    q.add_data(text)
    q.make(fit=True)
    m = np.array(q.get_matrix(), dtype=np.uint8)
    img = np.kron(1 - m, np.ones((8, 8), np.uint8)) * 255
    canvas = np.full((1200, 900), 255, np.uint8)
    canvas[400:400 + img.shape[0], 300:300 + img.shape[1]] = img
    return canvas


def test_what_is_not_a_photo_of_a_sheet_is_refused_in_one_line(tmp_path):
    text = tmp_path / "notes.jpg"
    text.write_text("not a photo")
    assert_user_error(sheetkit("read", str(text)), "not an image")
    assert_user_error(sheetkit("read", str(tmp_path / "missing.jpg")), "no such file")
    blank = _image(tmp_path, "wall.png", np.full((1200, 900), 200, np.uint8))
    assert_user_error(sheetkit("read", blank), "no QR code")
    other = _image(tmp_path, "other.png", _qr_image("https://example.org"))
    assert_user_error(sheetkit("read", other), "not a sheetkit sheet")
    glux = _image(tmp_path, "glux.png", _qr_image("SK1:glux-score-pad:0a1b2c3d:0001"))
    assert_user_error(sheetkit("read", glux), "reads Yuncos sheets")
    old = _image(tmp_path, "old.png", _qr_image("SK1:yuncos-easy:deadbeef:0001"))
    assert_user_error(sheetkit("read", old), "version deadbeef", "not installed")


def test_a_blurred_or_cut_off_photo_is_refused_not_guessed(easy, tmp_path):
    _, path = easy
    img = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    blurred = _image(tmp_path, "blurred.jpg", cv2.GaussianBlur(img, (0, 0), 7))
    run = sheetkit("read", blurred)
    assert_user_error(run)
    assert "blurred" in run.err or "sharp" in run.err
    cut = _image(tmp_path, "cut.jpg", img[img.shape[0] * 2 // 5:])
    run = sheetkit("read", cut)
    assert_user_error(run)
    assert "cut off" in run.err or "squares" in run.err or "whole" in run.err


def test_without_the_photo_extra_the_rest_works_and_read_says_how_to_install(tmp_path):
    block = tmp_path / "block"
    block.mkdir()
    for mod in ("cv2", "numpy", "zxingcpp"):
        (block / f"{mod}.py").write_text("raise ImportError('not installed')\n")
    env = {"PYTHONPATH": str(block), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent

    def run(*args):
        return subprocess.run([sys.executable, "-m", "sheetkit", *args], capture_output=True, text=True,
                              env=env, cwd=tmp_path, timeout=120)

    assert run("--help").returncode == 0
    assert run("render", "yuncos-easy", "-o", str(tmp_path / "s.pdf")).returncode == 0
    assert run("check", str(root / "examples" / "yuncos-easy-legal.toml")).returncode == 0
    r = run("read", str(tmp_path / "s.pdf"))
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == ["sheetkit: sheetkit read needs the photo extra: install it with pip install 'sheetkit[photo]'"]
