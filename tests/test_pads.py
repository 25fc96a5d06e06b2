"""Pads: numbered copies with a QR code per sheet, read back with a real QR decoder."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pypdfium2 as pdfium
import pytest
import zxingcpp
from PIL import ImageChops

from sheetkit import layouts
from sheetkit.paper import printing
from sheetkit.checking import qr
from sheetkit.paper import pads
from sheetkit.paper import scene as S
from sheetkit.errors import UserError
from sheetkit.paper import png
from sheetkit.paper import pdf
from sheetkit.checking.verdict import WARNING, Verdict

from conftest import assert_user_error

DPI = 150


def raster(path: Path, page: int, dpi: float = DPI):
    return pdfium.PdfDocument(str(path))[page].render(scale=dpi / 72).to_pil().convert("L")


def decode(img) -> list[str]:
    return [r.text for r in zxingcpp.read_barcodes(img)]


def fake_layout(layout_id: str = "tiny-pad", version: str = "0123abcd") -> layouts.Layout:
    return layouts.Layout(id=layout_id, path=Path(f"{layout_id}.toml"), game="yuncos", kind="sheet",
                          version=version, spec=None)


def tiny_scene(stamp=(150.0, 10.0, 22.0)) -> S.Scene:
    """One A5 page with nested forms (a form that uses a form), clipping, text and a frame."""
    dot = S.Form(10, 10, [S.Circle(5, 5, 4, S.FILLED)])
    row = S.Form(60, 20, [S.Use("dot", 0, 5), S.Use("dot", 20, 5), S.Use("dot", 40, 5, clip=(40, 5, 5, 10))])
    items = [S.Rect(10, 10, 128, 190), S.Use("row", 20, 30), S.Use("row", 20, 60),
             S.Text(20, 120, "static text", size=12), *S.hatch(20, 140, 100, 40, 3)]
    return S.Scene([S.Page(210, 148, items, stamp=stamp)], forms={"dot": dot, "row": row}, title="tiny")


@pytest.fixture(scope="module")
def easy():
    return printing.compose("yuncos-easy", "a4", "en")


@pytest.fixture(scope="module")
def easy_pad(easy, tmp_path_factory):
    layout, scene = easy
    out = tmp_path_factory.mktemp("pad") / "easy.pdf"
    pdf.write(pads.pad(scene, layout, 3, 41), out)
    return layout, scene, out


# --- the QR text ---------------------------------------------------------------------------

@pytest.mark.parametrize("layout_id", ["yuncos-easy", "a-b-c-d", "my.level", "odd:id:with:colons", "x"])
@pytest.mark.parametrize("serial", [0, 7, 42, 9999, 123456])
def test_qr_text_round_trips(layout_id, serial):
    text = qr.qr_text(fake_layout(layout_id, "e7bc4f0d"), serial)
    assert text.startswith("SK1:")
    assert qr.parse(text) == (layout_id, "e7bc4f0d", serial)
    assert qr.parse(text + "\n") == (layout_id, "e7bc4f0d", serial)  # scanners add newlines


def test_qr_text_is_short_and_padded():
    assert qr.qr_text(fake_layout("yuncos-easy", "e7bc4f0d"), 42) == "SK1:yuncos-easy:e7bc4f0d:0042"


@pytest.mark.parametrize("text, words", [
    ("", "does not start with SK1:"),
    ("hello", "does not start with SK1:"),
    ("SK2:yuncos-easy:e7bc4f0d:0042", "unknown format 'SK2'"),
    ("SK1:yuncos-easy:0042", "not 4 fields"),
    ("SK1::e7bc4f0d:0042", "layout id is empty"),
    ("SK1:yuncos-easy:e7bc4f0:0042", "version 'e7bc4f0'"),
    ("SK1:yuncos-easy:zzzzzzzz:0042", "version 'zzzzzzzz'"),
    ("SK1:yuncos-easy:e7bc4f0d:", "serial ''"),
    ("SK1:yuncos-easy:e7bc4f0d:-1", "serial '-1'"),
    ("SK1:yuncos-easy:e7bc4f0d:12a", "serial '12a'"),
    ("SK1:yun\ncos:e7bc4f0d:0042", "control characters"),
])
def test_malformed_text_is_one_clear_line(text, words):
    with pytest.raises(UserError) as e:
        qr.parse(text)
    msg = str(e.value)
    assert "\n" not in msg and words in msg and "SK1:<layout id>:<version>:<serial>" in msg


def test_identify_the_installed_version():
    layout = layouts.load("yuncos-easy")
    info = qr.identify(qr.qr_text(layout, 42))
    assert info["layout"] == "yuncos-easy" and info["serial"] == 42 and info["version"] == layout.version
    assert info["installed"] and info["current"]
    assert "installed version" in qr.describe(info)


def test_identify_a_version_that_differs_from_the_installed_one():
    layout = layouts.load("yuncos-easy")
    old = "0" * 8 if layout.version != "0" * 8 else "1" * 8
    info = qr.identify(f"SK1:yuncos-easy:{old}:0007")
    assert info["installed"] and not info["current"]
    assert info["installed_version"] == layout.version and info["version"] == old
    assert "changed since this sheet was printed" in qr.describe(info)


def test_identify_an_unknown_layout_never_reads_paths():
    for text in ("SK1:no-such-layout:e7bc4f0d:0001", "SK1:../layouts/yuncos-easy:e7bc4f0d:0001"):
        info = qr.identify(text)
        assert not info["installed"] and not info["current"] and info["installed_version"] is None


def test_identify_command(cli):
    layout = layouts.load("yuncos-easy")
    run = cli("identify", qr.qr_text(layout, 42))
    assert run.code == 0, run.err
    assert "0042" in run.out and "yuncos-easy" in run.out and "installed version" in run.out
    run = cli("identify", "SK1:yuncos-easy:00000000:0042", "--json")
    assert run.code == 1
    assert '"current": false' in run.out and f'"installed_version": "{layout.version}"' in run.out
    assert_user_error(cli("identify", "SK1:yuncos-easy:oops"), "not a sheetkit QR text")


# --- the QR text in a record -----------------------------------------------------------------

def test_qr_findings_warn_when_the_layout_changed_or_differs():
    layout = fake_layout("yuncos-easy", "e7bc4f0d")
    info, findings = qr.qr_findings("SK1:yuncos-easy:e7bc4f0d:0042", layout)
    assert info["serial"] == 42 and info["current"] and findings == []
    info, findings = qr.qr_findings("SK1:yuncos-easy:11112222:0042", layout)
    assert not info["current"] and [(f.rule, f.severity) for f in findings] == [("QR", WARNING)]
    assert "11112222" in findings[0].message and "e7bc4f0d" in findings[0].message
    info, findings = qr.qr_findings("SK1:yuncos-hard:e7bc4f0d:0042", layout)
    assert [f.rule for f in findings] == ["QR"] and "yuncos-hard" in findings[0].message
    with pytest.raises(UserError) as e:
        qr.qr_findings("SK1:nonsense", layout, "rec.toml")
    assert str(e.value).startswith("rec.toml: qr: ")


def test_apply_qr_works_for_any_game_record():
    layout = fake_layout("some-board", "e7bc4f0d")
    record = SimpleNamespace(qr="SK1:some-board:aaaabbbb:0005", sheet=layout)
    v = qr.apply_qr(Verdict(game="g", source="r.toml"), record, "r.toml")
    assert v.info["serial"] == 5 and v.info["printed"]["version"] == "aaaabbbb"
    assert v.legal and [f.rule for f in v.findings] == ["QR"]
    assert "serial 5" in v.to_text()
    # a record without a QR text, or a game that already did it, is left alone
    assert qr.apply_qr(Verdict(game="g", source="r"), SimpleNamespace(qr=None, sheet=layout)).info == {}
    again = qr.apply_qr(v, record)
    assert len(again.findings) == 1


def test_check_reports_the_serial_of_a_yuncos_record(cli, tmp_path):
    layout = layouts.load("yuncos-easy")
    rec = tmp_path / "rec.toml"
    body = ('game = "yuncos"\nlayout = "yuncos-easy"\nqr = "{qr}"\nstart = 1\nfish_marked = 0\n'
            'crashes_marked = 0\nused = []\n\n[[turn]]\nflight = "E"\ncrash = true\n')
    rec.write_text(body.format(qr="SK1:yuncos-easy:00000000:0042"), encoding="utf-8")
    run = cli("check", rec, "--json")
    assert run.code in (0, 1), run.err
    assert '"serial": 42' in run.out and '"rule": "QR"' in run.out and layout.version in run.out
    rec.write_text(body.format(qr=qr.qr_text(layout, 42)), encoding="utf-8")
    run = cli("check", rec)
    assert "serial 42" in run.out.splitlines()[0] and " QR " not in run.out
    rec.write_text(body.format(qr="SK1:yuncos-easy:42"), encoding="utf-8")
    assert_user_error(cli("check", rec), "qr: not a sheetkit QR text")


# --- composing and drawing a pad -------------------------------------------------------------

def test_a_copy_is_a_form_placed_once_plus_its_stamp():
    scene = tiny_scene()
    p = pads.pad(scene, fake_layout(), 3, 8)
    assert len(p.pages) == 3 and set(scene.forms) < set(p.forms)
    for serial, page in zip((8, 9, 10), p.pages):
        use, qr, label = page.items
        assert isinstance(use, S.Use) and use.name in p.forms
        assert qr.data == f"SK1:tiny-pad:0123abcd:{serial:04d}"
        assert f"{serial:04d}" in label.text
        x, y, size = page.stamp
        assert x <= qr.x and y <= qr.y and qr.x + qr.size <= x + size and qr.y + qr.size <= y + size
        assert qr.size >= 15  # read by a phone camera from 30 cm


def test_nested_forms_draw_alike_in_pdf_and_png(tmp_path):
    p = pads.pad(tiny_scene(), fake_layout(), 2, 1)
    out = pdf.write(p, tmp_path / "tiny.pdf")
    a = raster(out, 1, 100).point(lambda v: 0 if v < 128 else 255)
    b = png.page_image(p, 1, 100).convert("L").point(lambda v: 0 if v < 128 else 255)
    assert a.size == b.size
    # the forms' dots, four levels deep (page form > row > dot), drawn in both
    def px(x, y):
        return (round(x / 25.4 * 100), round(y / 25.4 * 100))

    for x, y in ((25, 40), (45, 40), (25, 70), (45, 70), (63, 40), (63, 70)):
        assert a.getpixel(px(x, y)) == 0 and b.getpixel(px(x, y)) == 0, (x, y)
    # the clipped dots: only their left half (x 60-65 mm) is drawn
    for x, y in ((67, 40), (67, 70)):
        assert a.getpixel(px(x, y)) == 255 and b.getpixel(px(x, y)) == 255, (x, y)
    assert decode(a) == decode(b) == ["SK1:tiny-pad:0123abcd:0002"]
    diff = ImageChops.difference(a, b).point(lambda v: 255 if v else 0)
    assert diff.histogram()[255] < 0.01 * a.size[0] * a.size[1]


def test_a_real_decoder_reads_every_page_of_a_pad(easy_pad):
    layout, scene, out = easy_pad
    assert len(pdfium.PdfDocument(str(out))) == 3
    for i, serial in enumerate((41, 42, 43)):
        texts = decode(raster(out, i))
        assert len(texts) == 1
        assert qr.parse(texts[0]) == ("yuncos-easy", layout.version, serial)


def test_the_qr_reads_at_a_home_printers_lowest_resolution(easy_pad):
    layout, scene, out = easy_pad
    x, y, size = scene.pages[0].stamp
    dpi = 100  # a module is then about 2 pixels
    img = raster(out, 1, dpi)
    k = dpi / 25.4
    crop = img.crop((int(x * k) - 5, int(y * k) - 5, int((x + size) * k) + 5, int((y + size) * k) + 5))
    assert decode(crop) == [qr.qr_text(layout, 42)]


def test_pages_of_a_pad_differ_only_in_the_stamp_square(easy_pad):
    layout, scene, out = easy_pad
    a, b = raster(out, 0), raster(out, 2)
    box = ImageChops.difference(a, b).getbbox()
    assert box is not None  # the serial and the QR code do differ
    x, y, size = scene.pages[0].stamp
    k = DPI / 25.4
    inside = (x * k - 1, y * k - 1, (x + size) * k + 1, (y + size) * k + 1)
    assert inside[0] <= box[0] and inside[1] <= box[1] and box[2] <= inside[2] and box[3] <= inside[3], (box, inside)


def test_the_same_pad_gives_the_same_bytes(easy, tmp_path):
    layout, scene = easy
    a = pdf.write(pads.pad(scene, layout, 5, 1), tmp_path / "a.pdf").read_bytes()
    b = pdf.write(pads.pad(scene, layout, 5, 1), tmp_path / "b.pdf").read_bytes()
    assert a == b
    c = pdf.write(pads.pad(scene, layout, 5, 2), tmp_path / "c.pdf").read_bytes()
    assert c != a


def test_a_200_copy_pad_carries_the_static_page_once(easy, tmp_path):
    layout, scene = easy
    one = pdf.write(scene, tmp_path / "one.pdf").stat().st_size
    small = pdf.write(pads.pad(scene, layout, 1, 1), tmp_path / "pad1.pdf")
    big = pdf.write(pads.pad(scene, layout, 200, 1), tmp_path / "pad200.pdf")
    data = big.read_bytes()
    assert data.count(b"/Subtype /Form") == len(scene.pages) + len(scene.forms)
    assert len(pdfium.PdfDocument(str(big))) == 200
    per_copy = (len(data) - small.stat().st_size) / 199
    assert per_copy < one / 8, (per_copy, one)


def test_two_sided_sheets_name_each_sides_layout(tmp_path):
    layout, scene = printing.compose("yuncos", "a4", "en")
    out = pdf.write(pads.pad(scene, layout, 2, 9), tmp_path / "duplex.pdf")
    got = [qr.parse(decode(raster(out, i))[0]) for i in range(4)]
    sides = [page.source for page in scene.pages]
    assert [(g[0], g[1]) for g in got] == sides * 2
    assert [g[2] for g in got] == [9, 9, 10, 10]


def test_pages_without_stamp_get_no_serial():
    scene = tiny_scene()
    scene.pages.append(S.Page(210, 148, [S.Text(20, 20, "back")], stamp=None))
    p = pads.pad(scene, fake_layout(), 2, 1)
    assert [len(pg.items) for pg in p.pages] == [3, 1, 3, 1]


@pytest.mark.parametrize("copies, first, stamp, words", [
    (0, 1, (150, 10, 22), "--copies 0"),
    (1, -1, (150, 10, 22), "--first-serial -1"),
    (2, qr.MAX_SERIAL, (150, 10, 22), "at most"),
    (1, 1, None, "no place for a serial"),
    (1, 1, (150, 10, 12), "stamp square is 12 mm"),
])
def test_pads_refuse_what_they_cannot_print(copies, first, stamp, words):
    with pytest.raises(UserError) as e:
        pads.pad(tiny_scene(stamp), fake_layout(), copies, first)
    assert words in str(e.value)


# --- the command line --------------------------------------------------------------------------

def test_render_copies_writes_a_numbered_pad(cli, tmp_path):
    run = cli("render", "yuncos-easy", "--copies", "2", "--first-serial", "9", "--out-dir", tmp_path)
    assert run.code == 0, run.err
    assert run.err == ""  # no progress bar when standard error is not a terminal
    out = tmp_path / "yuncos-easy-a4-en-0009-0010.pdf"
    assert out.is_file() and str(out) in run.out
    assert [qr.parse(decode(raster(out, i))[0])[2] for i in range(2)] == [9, 10]


@pytest.mark.parametrize("args, words", [
    (["--copies", "0"], "--copies"),
    (["--copies", "abc"], "--copies"),
    (["--copies", "-3"], "--copies"),
    (["--copies", "2", "--first-serial", "-1"], "--first-serial"),
    (["--first-serial", "x"], "--first-serial"),
])
def test_render_bad_copies_are_one_line_and_write_nothing(cli, tmp_path, args, words):
    out = tmp_path / "out"
    assert_user_error(cli("render", "yuncos-easy", *args, "--out-dir", out), words)
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.parametrize("ref, paper", [(i, "a4") for i in layouts.shipped_ids() if i != "calibration"]
                         + [("yuncos-easy", "letter")])
def test_every_shipped_layout_prints_as_a_pad(ref, paper, tmp_path):
    """Each stamped page carries a readable QR code naming the layout it shows and the
    serial; two copies differ only inside the stamp squares."""
    layout, scene = printing.compose(ref, paper, "en")
    p = pads.pad(scene, layout, 2, 5)
    out = pdf.write(p, tmp_path / "pad.pdf")
    if pads.halves(scene.pages[0]) is not None:  # two copies a page: one page, a QR code in each half
        assert len(p.pages) == 1
        assert sorted(qr.parse(t) for t in decode(raster(out, 0))) == [(layout.id, layout.version, 5),
                                                                          (layout.id, layout.version, 6)]
        return
    n = len(scene.pages)
    k = 100 / 25.4
    for i, page in enumerate(scene.pages):
        first, second = raster(out, i, 100), raster(out, i + n, 100)
        box = ImageChops.difference(first, second).getbbox()
        if page.stamp is None:
            assert box is None
            continue
        x, y, size = page.stamp
        assert box is not None
        assert x * k - 1 <= box[0] and y * k - 1 <= box[1] and box[2] <= (x + size) * k + 1 and box[3] <= (y + size) * k + 1
        lid, version = page.source or (layout.id, layout.version)
        assert [qr.parse(t) for t in decode(first)] == [(lid, version, 5)]


def test_a_progress_bar_only_on_a_terminal(tmp_path):
    """Long renders show a bar on standard error when it is a terminal (here a pseudo-terminal)."""
    import os
    import subprocess
    import sys

    pty = pytest.importorskip("pty")
    from conftest import ROOT

    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "sheetkit", "render", "yuncos-easy", "--copies", "30",
                                 "--out-dir", str(tmp_path)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=slave)
        os.close(slave)
        err = b""
        while True:  # read as it comes, until the child's end closes the terminal
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            err += chunk
        proc.wait(timeout=120)
    finally:
        os.close(master)
    assert proc.returncode == 0
    assert b"100%" in err and b"yuncos-easy-a4-en-0001-0030.pdf" in err


def test_dashed_shapes_are_dashed_in_the_png_as_in_the_pdf(tmp_path):
    """A dashed circle (the Glüx start squares) and a dashed rounded box show gaps in the
    preview as in the PDF, not a solid outline."""
    import math

    dash = S.Style(width=0.6, dash=(2.0, 2.0))
    items = [S.Circle(50, 50, 30, dash), S.Rect(100, 20, 60, 60, dash, radius=5)]
    scene = S.Scene([S.Page(210, 148, items)])
    dpi = 100
    a = raster(pdf.write(scene, tmp_path / "d.pdf"), 0, dpi)
    b = png.page_image(scene, 0, dpi).convert("L")
    k = dpi / 25.4

    def inked(img, points):
        return [img.crop((round(x * k) - 1, round(y * k) - 1, round(x * k) + 2, round(y * k) + 2)).getextrema()[0] < 160
                for x, y in points]

    circle = [(50 + 30 * math.cos(t / 400 * 2 * math.pi), 50 + 30 * math.sin(t / 400 * 2 * math.pi))
              for t in range(400)]
    edge = [(110 + t / 10, 20) for t in range(400)]  # the box's top side, between its corners
    for points in (circle, edge):
        pdf_ink, png_ink = inked(a, points), inked(b, points)
        for name, ink in (("pdf", pdf_ink), ("png", png_ink)):
            share = sum(ink) / len(ink)
            assert 0.3 < share < 0.8, (name, share)  # dashes and gaps, about half and half


def test_a_pad_previews_at_any_resolution(easy_pad):
    """At a low preview resolution a QR module is under a pixel: the PNG still draws (the
    code as a dark blot), no error."""
    layout, scene, _ = easy_pad
    p = pads.pad(scene, layout, 1, 7)
    for dpi in (20, 37, 50):
        img = png.page_image(p, 0, dpi).convert("L")
        x, y, size = scene.pages[0].stamp
        k = dpi / 25.4
        assert img.crop((int(x * k), int(y * k), int((x + size) * k), int((y + size) * k))).getextrema()[0] < 100


def test_a_glux_record_reports_its_score_pad_serial(tmp_path):
    """Glüx records take the QR text of the score pad they were counted on."""
    from conftest import ROOT
    from sheetkit.checking import records

    pad = layouts.load("glux-score-pad")
    text = (ROOT / "examples" / "glux-board-3p.toml").read_text()
    rec = tmp_path / "counted.toml"
    rec.write_text(text.replace('kind = "board"', f'kind = "board"\nqr = "{qr.qr_text(pad, 7)}"', 1))
    v = records.check(records.load(str(rec))).verdict
    assert v.legal and v.info["serial"] == 7 and v.info["printed"]["current"]
    rec.write_text(text.replace('kind = "board"', 'kind = "board"\nqr = "SK1:glux-score-pad:00000000:0007"', 1))
    v = records.check(records.load(str(rec))).verdict
    assert v.legal and [f.rule for f in v.findings] == ["QR"]


# --- two pads a page ---------------------------------------------------------------------

def half_scene(W: float = 210.0, H: float = 297.0) -> S.Scene:
    """A two-up page: a half-page form (a frame and a text) placed twice."""
    half = S.Form(W, H / 2, [S.Rect(20, 40, 150, 80), S.Text(25, 50, "half a page", size=12)])
    return S.Scene([pads.two_up(W, H, "half", (W - 10 - 22, 10, 22))], {"half": half}, title="halves")


@pytest.mark.parametrize("copies, pages", [(1, 1), (2, 1), (3, 2), (6, 3), (7, 4)])
def test_a_two_up_pad_prints_two_copies_a_page(copies, pages):
    """N copies are ceil(N / 2) pages: each half a copy with its own serial; an odd last copy
    has its page's top half alone (no cut line)."""
    p = pads.pad(half_scene(), fake_layout(), copies, 11)
    assert len(p.pages) == pages
    serials = [int(it.text.split()[-1]) for pg in p.pages for it in pg.items if isinstance(it, S.Text)]
    assert serials == list(range(11, 11 + copies))
    last = p.pages[-1].items
    assert sum(isinstance(it, S.Use) for it in last) == (2 if copies % 2 == 0 else 1)
    assert any(isinstance(it, S.Line) and it.style.dash for it in last) == (copies % 2 == 0)


def test_a_two_up_pad_draws_its_half_once_and_both_qr_codes_read(tmp_path):
    scene = half_scene()
    out = pdf.write(pads.pad(scene, fake_layout(), 4, 1), tmp_path / "halves.pdf")
    data = out.read_bytes()
    assert data.count(b"/Subtype /Form") == 1  # the half page, however many copies
    assert [sorted(qr.parse(t)[2] for t in decode(raster(out, i))) for i in range(2)] == [[1, 2], [3, 4]]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_glux_track_is_two_up_within_the_margins(paper, tmp_path):
    """Two score tracks a page at full box size, each half 10 mm clear of the cut, and
    `--copies 3` is two pages whose three QR codes decode."""
    layout, scene = printing.compose("glux-score-track", paper, "es")
    page = scene.pages[0]
    assert pads.halves(page) == page.height / 2
    x0, y0, x1, y1 = S.bounds(scene.forms[page.items[0].name].items)
    assert y0 >= 10 and y1 <= page.height / 2 - 10
    out = pdf.write(pads.pad(scene, layout, 3, 1), tmp_path / "track.pdf")
    assert [sorted(qr.parse(t)[2] for t in decode(raster(out, i))) for i in range(2)] == [[1, 2], [3]]
