"""The SVG backend: parsed back with xml.etree, every element sits where the scene put it."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from sheetkit.checking import records
from sheetkit.paper import qr, scene as S, svg
from sheetkit.paper.printing import compose

from conftest import ROOT

NS = {"s": "http://www.w3.org/2000/svg"}


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


def f(el, name) -> float:
    return float(el.get(name))


def test_each_kind_of_item_lands_at_its_scene_position():
    form = S.Form(20, 10, [S.Rect(1, 2, 3, 4), S.Text(5, 6, "in form", size=8)])
    page = S.Page(100, 50, [
        S.Line(1, 2, 30.5, 4.25, S.Style(width=0.3, dash=(1, 0.5))),
        S.Path(((0, 0), (10, 5), (20, 0)), closed=False),
        S.Path(((1, 1), (9, 1), (5, 8)), closed=True, style=S.FILLED),
        S.Rect(10, 11, 12, 13, S.Style(fill="#ff0000"), radius=2),
        S.Circle(40, 20, 3.5),
        S.Text(50, 30, "Ana <&> \"Ben\"", size=12, bold=True, anchor="middle", color="#123456"),
        S.QR(60, 5, 20, "SK1:yuncos-easy:00000000:0042"),
        S.Use("pad", 70, 30),
        S.Use("pad", 5, 35, clip=(5, 35, 10, 5)),
    ])
    scene = S.Scene(pages=[page], forms={"pad": form}, title="test")
    root = parse(svg.page_svg(scene))
    assert root.get("viewBox") == "0 0 100 50" and root.get("width") == "100mm"
    line = root.find("s:line", NS)
    assert [f(line, k) for k in ("x1", "y1", "x2", "y2")] == [1, 2, 30.5, 4.25]
    assert line.get("stroke-dasharray") == "1 0.5" and f(line, "stroke-width") == 0.3
    assert root.find("s:polyline", NS).get("points") == "0,0 10,5 20,0"
    poly = root.find("s:polygon", NS)
    assert poly.get("points") == "1,1 9,1 5,8" and poly.get("fill") == "#000000" and poly.get("stroke") is None
    rects = [r for r in root.findall("s:rect", NS) if r.get("fill") == "#ff0000"]
    assert [(f(r, "x"), f(r, "y"), f(r, "width"), f(r, "height"), f(r, "rx")) for r in rects] == [(10, 11, 12, 13, 2)]
    c = root.find("s:circle", NS)
    assert (f(c, "cx"), f(c, "cy"), f(c, "r")) == (40, 20, 3.5)
    t = root.find("s:text", NS)
    assert t.text == 'Ana <&> "Ben"'  # escaped in the file, the same text once parsed
    assert (f(t, "x"), f(t, "y"), t.get("text-anchor"), t.get("font-weight"), t.get("fill")) == \
        (50, 30, "middle", "bold", "#123456")
    assert f(t, "font-size") == pytest.approx(12 * 25.4 / 72, abs=1e-3)
    # the form is defined once and placed twice, the second time clipped
    defs = root.find("s:defs", NS)
    groups = defs.findall("s:g", NS)
    assert len(groups) == 1 and groups[0].get("data-form") == "pad"
    uses = root.iter("{http://www.w3.org/2000/svg}use")
    fid = groups[0].get("id")
    assert [(u.get("href"), f(u, "x"), f(u, "y")) for u in uses] == [(f"#{fid}", 70, 30), (f"#{fid}", 5, 35)]
    clip = defs.find("s:clipPath/s:rect", NS)
    assert [f(clip, k) for k in ("x", "y", "width", "height")] == [5, 35, 10, 5]


def test_qr_modules_are_the_code_modules():
    data = "SK1:glux-score-pad:0badc0de:0007"
    page = S.Page(50, 50, [S.QR(10, 10, 25, data)])
    root = parse(svg.page_svg(S.Scene(pages=[page])))
    path = root.find("s:path", NS)
    assert path.get("data-qr") == data
    n, rects = qr.rects(data)
    m = 25 / n
    subpaths = [p for p in path.get("d").split("z") if p]
    assert len(subpaths) == len(rects)
    first = subpaths[0][1:].split("h")[0].split()
    c, r, _, _ = rects[0]
    assert float(first[0]) == pytest.approx(10 + c * m, abs=1e-3)
    assert float(first[1]) == pytest.approx(10 + r * m, abs=1e-3)


def test_rasterized_qr_reads_back():
    """The SVG's QR path, drawn module by module into an image, decodes with a real reader."""
    zxingcpp = pytest.importorskip("zxingcpp")
    from PIL import Image, ImageDraw

    data = "SK1:iunu-score-pad:12345678:0099"
    root = parse(svg.page_svg(S.Scene(pages=[S.Page(40, 40, [S.QR(5, 5, 30, data)])])))
    k = 10  # px per mm
    img = Image.new("L", (400, 400), 255)
    d = ImageDraw.Draw(img)
    for sub in root.find("s:path", NS).get("d").split("z"):
        if not sub:
            continue
        x, y, w, h = map(float, re.match(r"M(\S+) (\S+)h(\S+)v(\S+)h", sub).groups())
        d.rectangle([round(x * k), round(y * k), round((x + w) * k) - 1, round((y + h) * k) - 1], fill=0)
    found = zxingcpp.read_barcodes(img)
    assert [b.text for b in found] == [data]


@pytest.mark.parametrize("ref", ["yuncos-easy", "glux-board-2p", "iunu-score-pad", "levelx-board"])
def test_shipped_layouts_match_their_scene(ref):
    _, scene = compose(ref, "a4", "en")
    text = svg.page_svg(scene, 0)
    assert text == svg.page_svg(scene, 0)  # deterministic
    root = parse(text)
    page = scene.pages[0]

    def flat(items, dx=0.0, dy=0.0, top=True):
        for it in items:
            if isinstance(it, S.Use):
                yield from flat(scene.forms[it.name].items, dx + it.x, dy + it.y, False)
            else:
                yield it, dx, dy, top

    want_text = sorted((round(t.x + dx, 3), round(t.y + dy, 3), t.text) for t, dx, dy, _ in flat(page.items)
                       if isinstance(t, S.Text))

    # the SVG side: every <text>, with the offsets of the <use> it is placed through
    defs = {g.get("id"): g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("id")}

    def walk(el, dx=0.0, dy=0.0):
        for child in el:
            tag = child.tag.split("}")[1]
            if tag == "defs":
                continue
            if tag == "use":
                yield from walk(defs[child.get("href")[1:]], dx + f(child, "x"), dy + f(child, "y"))
            elif tag == "text":
                yield round(f(child, "x") + dx, 3), round(f(child, "y") + dy, 3), child.text or ""
            else:
                yield from walk(child, dx, dy)

    got_text = sorted(walk(root))
    assert got_text == want_text and want_text
    circles = [(round(c.x, 3), round(c.y, 3), round(c.r, 3)) for c, _, _, top in flat(page.items)
               if isinstance(c, S.Circle) and top]
    svg_circles = [(f(c, "cx"), f(c, "cy"), f(c, "r")) for c in root.findall("s:circle", NS)]
    assert sorted(svg_circles) == sorted(circles)


def test_checked_sheet_draws_as_svg():
    loaded = records.load(ROOT / "examples" / "yuncos-illegal.toml")
    checked = records.check(loaded)
    scene = loaded.kind.overlay(loaded.record, checked, "a4")
    text = svg.page_svg(scene, 0, font_url="/font/DejaVuSansCondensed.ttf")
    root = parse(text)
    style = root.find("s:defs/s:style", NS).text
    assert "/font/DejaVuSansCondensed.ttf" in style and "/font/DejaVuSansCondensed-Bold.ttf" in style
    rules = {f.rule for f in checked.verdict.findings}
    listed = parse(svg.page_svg(scene, 1, font_url="/font/DejaVuSansCondensed.ttf"))  # the sentences, page 2
    texts = " ".join(t.text or "" for t in listed.iter("{http://www.w3.org/2000/svg}text"))
    assert all(f"rule {r}" in " ".join(texts.split()) for r in rules)


def test_numbers_are_short_and_stable():
    assert svg.num(1.0) == "1" and svg.num(-0.0001) == "0" and svg.num(2.50049) == "2.5" and svg.num(1 / 3) == "0.333"


def test_a_run_of_plain_lines_of_one_style_is_one_path_of_those_segments():
    thin, dashed = S.Style(width=0.2), S.Style(width=0.2, dash=(1, 1))
    hatch = S.hatch(0, 0, 20, 10, 1.5)
    page = S.Page(40, 40, hatch + [S.Line(0, 20, 10, 20, dashed), S.Line(0, 30, 5, 30, thin), S.Circle(5, 5, 1),
                                   S.Line(1, 31, 6, 31, thin)])
    root = parse(svg.page_svg(S.Scene(pages=[page])))
    paths = root.findall("s:path", NS)
    assert len(paths) == 1 and paths[0].get("stroke-linecap") == "butt" and paths[0].get("fill") == "none"
    segs = [tuple(map(float, re.findall(r"-?[\d.]+", part))) for part in paths[0].get("d").split("M")[1:]]
    assert segs == [(float(svg.num(ln.x1)), float(svg.num(ln.y1)), float(svg.num(ln.x2)), float(svg.num(ln.y2)))
                    for ln in hatch]
    lines = root.findall("s:line", NS)  # the dashed one, and the lone lines either side of the circle
    assert [ln.get("stroke-dasharray") for ln in lines] == ["1 1", None, None]


def test_svgs_inlined_in_one_page_never_share_an_id_that_draws_two_things():
    """The end page inlines a sheet's pages and every player's sheet: an id of one must
    not be taken for another's form (a Level X board drew its score pad's form)."""
    def scene(rect):
        forms = {"art": S.Form(20, 20, [rect])}
        return S.Scene(pages=[S.Page(40, 40, [S.Use("art", 1, 1, clip=(0, 0, 10, 10))])], forms=forms)

    a, b = svg.page_svg(scene(S.Rect(0, 0, 5, 5))), svg.page_svg(scene(S.Circle(3, 3, 2)))

    def defined(text):
        return {el.get("id"): ET.tostring(el) for el in parse(text).iter() if el.get("id")}

    da, db = defined(a), defined(b)
    assert len(da) == len(db) == 2  # the form and its clip
    shared = da.keys() & db.keys()
    assert len(shared) == 1 and all(da[k] == db[k] for k in shared)  # the same clip only: the forms differ
    assert svg.page_svg(scene(S.Rect(0, 0, 5, 5))) == a  # the same drawing, the same ids
