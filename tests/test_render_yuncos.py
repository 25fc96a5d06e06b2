"""The Yuncos sheet as printed: rasterize the real PDF and look at what is on it."""

import pytest
from PIL import ImageChops

from conftest import assert_user_error, sheetkit
from pdfutil import ink_box_mm, page_sizes_mm, raster, text
from sheetkit import layouts
from sheetkit.paper import printing
from sheetkit.games.yuncos.compose import BOX, SMALL_BOX, sheet_geometry
from sheetkit.paper.scene import PAPERS, SAFE_MARGIN

DPI = 100


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    """Every level x paper x language, rendered once through the library."""
    out = tmp_path_factory.mktemp("pdf")
    files = {}
    for ref in ("yuncos-easy", "yuncos-hard"):
        for paper in PAPERS:
            for lang in ("es", "en"):
                layout, scene = printing.compose(ref, paper, lang)
                files[ref, paper, lang] = printing.write_pdf(scene, out / f"{ref}-{paper}-{lang}.pdf")
    return files


@pytest.mark.parametrize("paper", list(PAPERS))
@pytest.mark.parametrize("ref", ["yuncos-easy", "yuncos-hard"])
def test_page_size_and_printer_margin(rendered, ref, paper):
    path = rendered[ref, paper, "en"]
    (w, h), = page_sizes_mm(path)
    assert (round(w, 1), round(h, 1)) == PAPERS[paper]
    x0, y0, x1, y1 = ink_box_mm(raster(path, dpi=DPI), DPI)
    assert min(x0, y0, w - x1, h - y1) >= SAFE_MARGIN - 0.3, (x0, y0, w - x1, h - y1)


SECTIONS = ["nests", "luminaries", "fish_counter", "crashes", "dice", "score_nests", "score_navigation",
            "score_total", "solo", "calibration", "abilities", "island", "start"]


@pytest.mark.parametrize("lang,other", [("es", "en"), ("en", "es")])
@pytest.mark.parametrize("ref", ["yuncos-easy", "yuncos-hard"])
def test_every_section_is_labelled_in_the_chosen_language(rendered, ref, lang, other):
    spec = layouts.load(ref).spec
    words = text(rendered[ref, "a4", lang])
    flat = " ".join(words.split())
    names = SECTIONS + (["patterns"] if spec.level == "hard" else [])
    for name in names:
        label = getattr(spec.labels, name)
        assert " ".join(label(lang).split()) in flat, (name, label(lang))
    # labels that differ between languages do not leak from the other one
    for name in ("nests", "luminaries", "crashes", "calibration"):
        label = getattr(spec.labels, name)
        assert label(other) not in flat
    assert spec.labels.level(lang) in flat
    for colour in spec.colours.values():
        assert colour.name(lang) in flat


def _ink(img, x_mm, y_mm, r_mm=0.6):
    """Darkest grey level in a small square around a point."""
    k = DPI / 25.4
    box = (round((x_mm - r_mm) * k), round((y_mm - r_mm) * k), round((x_mm + r_mm) * k), round((y_mm + r_mm) * k))
    return img.crop(box).getextrema()[0]


@pytest.mark.parametrize("ref", ["yuncos-easy", "yuncos-hard"])
def test_map_and_icons_are_where_the_layout_puts_them(rendered, ref):
    spec = layouts.load(ref).spec
    g = sheet_geometry(spec, "a4")
    img = raster(rendered[ref, "a4", "en"], dpi=DPI)
    board = spec.board
    # the map's four corners carry its frame
    for v in [(0, 0), (board.width - 1, 0), (0, board.height - 1), (board.width - 1, board.height - 1)]:
        assert _ink(img, *g.vertex(v)) < 160, v
    # every light point is a dark bulb, every start point a circle with its number
    for v in board.lights:
        assert _ink(img, *g.vertex(v), 0.3) < 80, v
    # the middle of an empty sea square is blank paper
    empty = [(c, r) for c in range(board.width - 1) for r in range(board.height - 1)
             if not any(w in board.land | board.fish | board.lights | set(board.stars) | set(board.starts.values())
                        for w in [(c + dc, r + dr) for dc in (-1, 0, 1, 2) for dr in (-1, 0, 1, 2)])]
    assert empty
    for c, r in empty[:10]:
        x, y = g.vertex((c, r))
        assert _ink(img, x + g.square / 2, y + g.square / 2, 0.5) > 240


def test_stars_are_coloured_and_lettered(rendered):
    spec = layouts.load("yuncos-easy").spec
    g = sheet_geometry(spec, "a4")
    img = raster(rendered["yuncos-easy", "a4", "en"], dpi=DPI)  # grey
    import pypdfium2 as pdfium

    colour = pdfium.PdfDocument(str(rendered["yuncos-easy", "a4", "en"]))[0].render(scale=DPI / 72).to_pil().convert("RGB")
    k = DPI / 25.4
    for v, name in spec.board.stars.items():
        x, y = g.vertex(v)
        px = colour.getpixel((round((x + 1.6) * k), round((y - 0.2) * k)))  # inside a star arm, beside the letter
        assert max(px) - min(px) > 25, (v, name, px)  # a tint, not grey
        assert _ink(img, x, y, 0.8) < 100  # the letter is there, dark, for black-and-white print


@pytest.mark.parametrize("paper", list(PAPERS))
def test_boxes_are_big_enough_and_the_calibration_bar_is_50_mm(rendered, paper):
    spec = layouts.load("yuncos-hard").spec
    g = sheet_geometry(spec, paper)
    assert BOX >= 7 and SMALL_BOX >= 7
    for box in [g.nest_box(0, 0), g.lum_box(0, 0), g.fish_box(0), g.crash_box(0), g.dice_box(36, 1), g.score_box("total")]:
        assert box[2] >= 7 and box[3] >= 7
    dpi = 300
    img = raster(rendered["yuncos-hard", paper, "en"], dpi=dpi)
    k = dpi / 25.4
    x0 = g.ox + g.content_w - 52
    y = g.score_y + 2 + 3.2 + 1 + 0.8  # the middle of the bar (sheetkit.paper.marks.scale_check)
    row = [img.getpixel((px, round(y * k))) for px in range(round((x0 - 5) * k), round((x0 + 55) * k))]
    dark = [i for i, v in enumerate(row) if v < 100]
    length_mm = (dark[-1] - dark[0] + 1) / k
    assert abs(length_mm - 50) < 0.3, length_mm


def test_preview_png_and_pdf_agree(tmp_path, rendered):
    """Both backends draw the same scene: ink in the same 2 mm cells."""
    from sheetkit.paper import png

    layout, scene = printing.compose("yuncos-hard", "a4", "en")
    a = png.page_image(scene, 0, dpi=DPI).convert("L").resize((210, 297))  # one pixel per mm
    b = raster(rendered["yuncos-hard", "a4", "en"], dpi=DPI).resize((210, 297))
    ma = a.point(lambda v: 255 if v < 225 else 0).resize((105, 148)).point(lambda v: 255 if v else 0)
    mb = b.point(lambda v: 255 if v < 225 else 0).resize((105, 148)).point(lambda v: 255 if v else 0)
    diff = ImageChops.difference(ma, mb)
    differing = sum(diff.histogram()[1:])
    inked = sum(mb.histogram()[1:])
    assert inked > 1000
    assert differing / inked < 0.08, (differing, inked)


def test_same_input_gives_identical_bytes_and_fonts_are_embedded(tmp_path):
    a = sheetkit("render", "yuncos-easy", "-o", tmp_path / "a.pdf")
    b = sheetkit("render", "yuncos-easy", "-o", tmp_path / "b.pdf")
    assert a.code == b.code == 0, a.err + b.err
    data = (tmp_path / "a.pdf").read_bytes()
    assert data == (tmp_path / "b.pdf").read_bytes()
    assert b"/FontFile2" in data and b"DejaVuSansCondensed" in data
    assert [p.name for p in tmp_path.iterdir()] and not [p for p in tmp_path.iterdir() if p.suffix != ".pdf"]


def test_every_font_in_the_pdf_is_embedded(tmp_path):
    """No font is merely named (ReportLab's default Helvetica would be, on every page): print
    shops and PDF checkers flag a font that is not embedded, even an unused one."""
    import re

    for ref in ("yuncos", "glux-board-34p"):
        out = tmp_path / f"{ref}.pdf"
        assert sheetkit("render", ref, "--copies", "1", "-o", out).code == 0
        data = out.read_bytes()
        fonts = set(re.findall(rb"/BaseFont /([A-Za-z0-9+-]+)", data))
        assert fonts and all(b"DejaVuSansCondensed" in f for f in fonts), fonts
        assert data.count(b"/FontFile2") == len(fonts)


def test_duplex_sheet_has_easy_front_and_hard_back(tmp_path):
    run = sheetkit("render", "yuncos", "--lang", "es", "--paper", "letter", "--out-dir", tmp_path)
    assert run.code == 0, run.err
    path = tmp_path / "yuncos-letter-es.pdf"
    assert len(page_sizes_mm(path)) == 2
    assert "Nivel fácil" in text(path, 0) and "Nivel difícil" in text(path, 1)


def test_render_all_writes_every_layout(tmp_path):
    run = sheetkit("render", "--all", "--out-dir", tmp_path)
    assert run.code == 0, run.err
    assert sorted(p.stem for p in tmp_path.glob("*.pdf")) == sorted(f"{i}-a4-en" for i in layouts.shipped_ids())


def test_preview_writes_a_png_of_the_asked_page(tmp_path):
    from PIL import Image

    run = sheetkit("preview", "yuncos", "--page", "2", "--dpi", "50", "-o", tmp_path / "p.png")
    assert run.code == 0, run.err
    img = Image.open(tmp_path / "p.png")
    assert img.size == (round(210 / 25.4 * 50), round(297 / 25.4 * 50))
    assert_user_error(sheetkit("preview", "yuncos", "--page", "3", "-o", tmp_path / "q.png"), "--page 3", "2 page")
    assert not (tmp_path / "q.png").exists()


def test_render_bad_input(tmp_path):
    assert_user_error(sheetkit("render"), "layout id")
    assert_user_error(sheetkit("render", "yuncos", "--all"), "not both")
    assert_user_error(sheetkit("render", "yuncos", "yuncos-easy", "-o", tmp_path / "x.pdf"), "-o")
    assert_user_error(sheetkit("render", "yuncos", "--paper", "a3"), "a3")
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert_user_error(sheetkit("render", "yuncos", "--out-dir", blocker), "is a file")


def test_output_files_get_ordinary_permissions(tmp_path):
    import os
    import stat

    run = sheetkit("render", "yuncos-easy", "-o", tmp_path / "a.pdf")
    assert run.code == 0, run.err
    mode = stat.S_IMODE(os.stat(tmp_path / "a.pdf").st_mode)
    umask = os.umask(0)
    os.umask(umask)
    assert mode == 0o666 & ~umask  # what any new file gets, not a temporary file's private 0600


def test_output_through_a_symlink_or_to_a_pipe_keeps_it(tmp_path):
    """-o naming a symbolic link writes the file it points to (the link stays); -o naming a
    pipe or device (/dev/null, /dev/stdout) writes into it rather than replacing it with a
    regular file."""
    import os
    import stat
    import threading

    real = tmp_path / "real.pdf"
    link = tmp_path / "link.pdf"
    link.symlink_to(real)
    run = sheetkit("render", "yuncos-easy", "-o", link)
    assert run.code == 0, run.err
    assert link.is_symlink() and real.read_bytes().startswith(b"%PDF")

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []

    def reader():
        with open(fifo, "rb") as f:
            got.append(f.read())

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    run = sheetkit("render", "yuncos-easy", "-o", fifo)
    t.join(timeout=10)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode), "the pipe was replaced by a regular file"
    assert run.code == 0, run.err
    assert got and got[0].startswith(b"%PDF")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.pdf", "pipe", "real.pdf"]
