"""The IUNU score pad and the Level X board and pad as printed: rasterize the real PDFs."""

import pytest

from conftest import ROOT
from pdfutil import ink_box_mm, page_sizes_mm, raster, text
from sheetkit import layouts
from sheetkit.paper import printing
from sheetkit.paper import scene as S
from sheetkit.games.iunu.record import KNOWN_CASTES
from sheetkit.games.levelx.compose import X_SQUARE
from sheetkit.paper.scene import PAPERS, SAFE_MARGIN
from sheetkit.paper.tables import INK as T_INK

DPI = 100
REFS = ["iunu-score-pad", "levelx-board", "levelx-score-pad"]


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    out = tmp_path_factory.mktemp("pdf")
    files, scenes = {}, {}
    for ref in REFS:
        for paper in PAPERS:
            for lang in ("es", "en"):
                layout, scene = printing.compose(ref, paper, lang)
                scenes[ref, paper, lang] = scene
                files[ref, paper, lang] = printing.write_pdf(scene, out / f"{ref}-{paper}-{lang}.pdf")
    return files, scenes


@pytest.mark.parametrize("paper", list(PAPERS))
@pytest.mark.parametrize("ref", REFS)
def test_one_page_of_the_paper_and_clear_of_the_margin(rendered, ref, paper):
    files, scenes = rendered
    path = files[ref, paper, "es"]
    sizes = page_sizes_mm(path)
    assert len(sizes) == 1
    (w, h), = sizes
    assert (round(w, 1), round(h, 1)) == PAPERS[paper]
    x0, y0, x1, y1 = ink_box_mm(raster(path, dpi=DPI), DPI)
    assert min(x0, y0, w - x1, h - y1) >= SAFE_MARGIN - 0.3, (x0, y0, w - x1, h - y1)


@pytest.mark.parametrize("ref", REFS)
def test_stamp_square_is_free_and_inside_the_safe_area(rendered, ref):
    files, scenes = rendered
    for paper in PAPERS:
        page = scenes[ref, paper, "en"].pages[0]
        x, y, size = page.stamp
        assert size >= 22 - 1e-9
        assert x >= SAFE_MARGIN and y >= SAFE_MARGIN
        assert x + size <= page.width - SAFE_MARGIN and y + size <= page.height - SAFE_MARGIN
        img = raster(files[ref, paper, "en"], dpi=DPI)
        k = DPI / 25.4
        crop = img.crop((round(x * k), round(y * k), round((x + size) * k), round((y + size) * k)))
        assert crop.getextrema()[0] > 235, "ink in the stamp square"


@pytest.mark.parametrize("ref", REFS)
def test_black_and_white(rendered, ref):
    import pypdfium2 as pdfium
    from PIL import ImageChops

    files, _ = rendered
    rgb = pdfium.PdfDocument(str(files[ref, "a4", "en"]))[0].render(scale=40 / 72).to_pil().convert("RGB")
    r, g, b = rgb.split()
    spread = ImageChops.lighter(ImageChops.difference(r, g), ImageChops.difference(g, b))
    assert spread.getextrema()[1] < 16  # no colour anywhere: greys only


def test_iunu_pad_labels(rendered):
    files, _ = rendered
    en = text(files["iunu-score-pad", "a4", "en"])
    es = text(files["iunu-score-pad", "letter", "es"])
    for word in ["IUNU: score pad", "Player", "Citizens", "Majorities", "Farmer", "Pharaoh", "Bread",
                 "Deben ÷ 3", "Total", "Winner", "tie: most Deben"]:
        assert word in en, word
    for word in ["hoja de puntuación", "Jugador", "Ciudadanos", "Mayorías", "Granjero", "Faraón", "Pan",
                 "Ganador", "empate: más Deben"]:
        assert word in es, word
    layout = layouts.load("iunu-score-pad")
    assert [c.key for c in layout.spec.castes][:8] == list(KNOWN_CASTES)


def test_levelx_board_labels_and_counts(rendered):
    files, _ = rendered
    en = text(files["levelx-board", "a4", "en"])
    for word in ["Level X: board", "Start", "× 12 chips", "× 7 chips", "11 with 2-3 players",
                 "6 with 2-3 players", "Bonus tiles", "15", "12", "9", "6"]:
        assert word in en, word
    assert en.count("X") >= 6
    es = text(files["levelx-board", "letter", "es"])
    assert "Salida" in es and "× 12 fichas" in es and "Bonificaciones" in es


@pytest.mark.parametrize("paper", list(PAPERS))
def test_levelx_board_squares_are_20_mm_on_paper(rendered, paper):
    """Find the X squares' heavy frames in the raster: 20 mm apart edge to edge."""
    files, scenes = rendered
    scene = scenes["levelx-board", paper, "en"]
    items = [it for f in scene.forms.values() for it in f.items]
    xs = [it for it in items if isinstance(it, S.Rect) and it.style == X_SQUARE]
    assert len(xs) == 6
    img = raster(files["levelx-board", paper, "en"], dpi=200)
    k = 200 / 25.4
    for sq in xs:
        row = round((sq.y + 2.0) * k)  # just under the top edge, away from the big X
        dark = [x for x in range(round((sq.x - 3) * k), round((sq.x + sq.w + 3) * k))
                if img.getpixel((x, row)) < 100]
        assert dark, "no frame found"
        left, right = min(dark), max(dark)
        assert abs((right - left) / k - (20.0 + X_SQUARE.width)) < 0.5, (right - left) / k


def test_levelx_pad_labels(rendered):
    files, _ = rendered
    en = text(files["levelx-score-pad", "a4", "en"])
    for word in ["Level X: score pad", "Game", "Chips of 5", "Chips of 10", "Bonus tiles", "Total",
                 "First player", "(1)"]:
        assert word in en, word
    assert en.count("Chips of 7") == 2  # two games per page
    es = text(files["levelx-score-pad", "letter", "es"])
    assert "Fichas de 5" in es and "Jugador inicial" in es


@pytest.mark.parametrize("ref", REFS)
def test_digit_boxes_text_and_lines(rendered, ref):
    _, scenes = rendered
    scene = scenes[ref, "a4", "en"]
    items = [it for f in scene.forms.values() for it in f.items]
    texts = [it for it in items if isinstance(it, S.Text) and it.text]
    assert min(t.size for t in texts) >= 6.0
    widths = [it.style.width for it in items if getattr(it, "style", None) and it.style.stroke]
    assert min(widths) >= 0.25 * 25.4 / 72
    if ref.endswith("pad"):
        boxes = [it for it in items if isinstance(it, S.Rect) and it.style.stroke and it.h < 15]
        assert boxes and min(min(b.w, b.h) for b in boxes) >= 7.0


@pytest.mark.parametrize("example, words, code", [
    ("levelx-game.toml", ["Ana (1)", "124", "100", "117", "legal, 84 turns; winner: Carla", "15"], 0),
    ("levelx-game-illegal.toml", ["ILLEGAL: 5 findings", "turn 3: ", "(rule L4)", "after turn 6: "], 1),
    ("iunu-game.toml", ["Carla", "Artisan", "34", "18", "legal"], 0),
    ("iunu-illegal.toml", ["ILLEGAL: 5 findings", "caste Pharaoh: ", "(rule I2)", "-2"], 1),
])
def test_check_render_fills_the_pad(tmp_path, example, words, code):
    from conftest import sheetkit

    out = tmp_path / "filled.pdf"
    run = sheetkit("check", f"examples/{example}", "--render", out)
    assert run.code == code, run.err
    assert page_sizes_mm(out)[0] == pytest.approx(PAPERS["a4"], abs=0.1)
    layer = " ".join(text(out, k) for k in range(len(page_sizes_mm(out))))  # the list may be on page 2
    for w in words:
        assert w in layer, w
    x0, y0, x1, y1 = ink_box_mm(raster(out, dpi=DPI), DPI)
    assert min(x0, y0) >= SAFE_MARGIN - 0.3 and x1 <= 210 - SAFE_MARGIN + 0.3


def _ink_texts(scene):
    return [it for it in scene.pages[0].items if isinstance(it, S.Text) and it.color == T_INK]


def _extent(t):
    from sheetkit.paper.measure import text_width

    w = text_width(t.text, t.size, t.bold)
    x0 = {"start": t.x, "middle": t.x - w / 2, "end": t.x - w}[t.anchor]
    return x0, x0 + w


def test_filled_pads_keep_long_names_inside_their_boxes(tmp_path):
    """A long player name (and a long ninth caste) is shrunk, then shortened with an
    ellipsis: never written over the next box."""
    from sheetkit.checking import records
    from sheetkit.games.iunu.compose import geometry as iunu_geometry
    from sheetkit.games.levelx.compose import pad_geometry

    long = "Maximiliano Fernández de la Vega y Montenegro"
    (tmp_path / "lx.toml").write_text(
        'game = "levelx"\nkind = "final"\n'
        f'[[player]]\nname = "{long}"\nchips = {{ "5" = 11, "6" = 10, "7" = 9 }}\n'
        f'[[player]]\nname = "{long} II"\n')
    loaded = records.load(tmp_path / "lx.toml")
    scene = loaded.kind.overlay(loaded.record, records.check(loaded), "a4")
    g = pad_geometry(layouts.load("levelx-score-pad").spec, "a4", 0)
    names = [t for t in _ink_texts(scene) if t.text.startswith("Maximiliano")]
    assert len(names) == 2
    assert names[0].text.endswith("(1)")  # the first player's mark stays readable
    for p, t in enumerate(names):
        x0, x1 = _extent(t)
        left = g.x + g.label_w + p * g.col_w
        assert left + 1.5 <= x0 and x1 <= left + g.col_w - 1.5, (t.text, x0, x1)

    deck = (ROOT / "examples" / "iunu-deck-example.toml").read_text().replace(
        'name = "Artisan"', 'name = "Artesanos y constructores del Nilo Superior"')
    (tmp_path / "deck.toml").write_text(deck)
    (tmp_path / "iu.toml").write_text(
        'game = "iunu"\ndeck = "deck.toml"\n'
        f'[[player]]\nname = "{long}"\ndeben = 3\ncards = {{ artisan = 1 }}\n'
        '[[player]]\nname = "B"\ndeben = 0\n')
    loaded = records.load(tmp_path / "iu.toml")
    scene = loaded.kind.overlay(loaded.record, records.check(loaded), "a4")
    g = iunu_geometry(layouts.load("iunu-score-pad").spec, "a4")
    texts = _ink_texts(scene)
    name = next(t for t in texts if t.text.startswith("Maximiliano"))
    x0, x1 = _extent(name)
    assert g.x + g.label_w + 1.5 <= x0 and x1 <= g.x + g.label_w + g.col_w - 1.5, (name.text, x0, x1)
    caste = next(t for t in texts if t.text.startswith("Artesanos"))
    x0, x1 = _extent(caste)
    assert x1 <= g.x + g.label_w - 2.0 - g.box - 1.5, (caste.text, x1)  # clear of the bonus box
