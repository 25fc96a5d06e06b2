"""Printing like a pro: viewer preferences, the calibration sheet, printer profiles,
measured in the PDFs that sheetkit writes (pypdf for the document's dictionaries,
pypdfium2 for where things land on the page)."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from sheetkit import layouts
from sheetkit.cli import cli
from sheetkit.paper import printers, printing
from sheetkit.paper.scene import paper_size

PT = 72 / 25.4
TWO_SIDED = {"yuncos", "glux-chips", "calibration"}


def _render(tmp_path, ref, paper="a4", lang="en", printer=None, name=None):
    layout, scene = printing.compose(ref, paper, lang)
    out = tmp_path / (name or f"{layout.id}-{paper}-{lang}.pdf")
    printing.write_pdf(scene, out, printer=printer)
    return out


@pytest.mark.parametrize("ref", layouts.shipped_ids())
def test_every_pdf_asks_for_actual_size_and_two_sided_ones_for_long_edge_duplex(tmp_path, ref):
    prefs = PdfReader(_render(tmp_path, ref)).trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/PrintScaling"] == "/None"
    if ref in TWO_SIDED:
        assert prefs["/Duplex"] == "/DuplexFlipLongEdge"
    else:
        assert "/Duplex" not in prefs


def _bounds(path, page):
    """(x0, y0, x1, y1) in mm from the page's top-left corner, of every object on the page."""
    doc = pdfium.PdfDocument(str(path))
    pg = doc[page]
    h = pg.get_height()
    out = []
    for o in pg.get_objects(max_depth=1):
        l, b, r, t = o.get_bounds()
        out.append((l / PT, (h - t) / PT, r / PT, (h - b) / PT))
    return out


def _ruler_ticks(boxes, vertical_ruler: bool):
    """Centres of the long (10 mm) ticks of a calibration ruler: 4 mm long, thin."""
    out = []
    for x0, y0, x1, y1 in boxes:
        w, h = x1 - x0, y1 - y0
        if vertical_ruler and 3.8 < w < 4.6 and h < 0.6:
            out.append(((x0 + x1) / 2, (y0 + y1) / 2))
        if not vertical_ruler and 3.8 < h < 4.6 and w < 0.6:
            out.append(((x0 + x1) / 2, (y0 + y1) / 2))
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_calibration_rulers_measure_their_length_on_the_page(tmp_path, paper):
    spec = layouts.load("calibration").spec
    boxes = _bounds(_render(tmp_path, "calibration", paper), 0)
    xs = [x for x, y in _ruler_ticks(boxes, vertical_ruler=False) if y < 100]
    ys = [y for x, y in _ruler_ticks(boxes, vertical_ruler=True) if x < 30]
    assert len(xs) == spec.ruler_x // 10 + 1 and len(ys) == spec.ruler_y // 10 + 1
    assert max(xs) - min(xs) == pytest.approx(150.0, abs=0.01)
    assert max(ys) - min(ys) == pytest.approx(200.0, abs=0.01)
    W, H = paper_size(paper)
    assert all(10 <= b[0] and b[2] <= W - 10 and 10 <= b[1] and b[3] <= H - 10 for b in boxes)


def test_calibration_back_scales_sit_behind_the_front_crosses(tmp_path):
    """Long-edge flip: the back scale's zero is at the mirror image of each front cross."""
    from sheetkit.paper import calibration

    W, _ = paper_size("a4")
    layout, scene = printing.compose("calibration", "a4", "en")
    front, back = scene.pages
    assert back.back and not front.back
    zero_ticks = [(it.x1, it.y2) for it in back.items
                  if getattr(it, "style", None) is not None and it.style.width == 0.3 and hasattr(it, "x1")
                  and it.x1 == it.x2]
    for tx, ty in calibration.targets("a4"):
        assert (W - tx, ty + calibration.SCALE_OFFSET) in zero_ticks


def test_a_profile_scales_every_page_and_moves_the_back_by_exactly_its_offset(tmp_path):
    profile = printers.make("office", scale_x=1.003, scale_y=0.998, back_dx=1.5, back_dy=-0.5)
    plain = _render(tmp_path, "yuncos", name="plain.pdf")
    fixed = _render(tmp_path, "yuncos", printer=profile, name="fixed.pdf")
    W, H = paper_size("a4")
    for page, (dx, dy) in ((0, (0, 0)), (1, (1.5, -0.5))):
        before, after = _bounds(plain, page), _bounds(fixed, page)
        assert len(before) == len(after) > 500
        for (a0, b0, a1, b1), (c0, d0, c1, d1) in zip(before, after):
            cx, cy = (a0 + a1) / 2, (b0 + b1) / 2
            assert (c0 + c1) / 2 == pytest.approx(W / 2 + 1.003 * (cx - W / 2) + dx, abs=0.005)
            assert (d0 + d1) / 2 == pytest.approx(H / 2 + 0.998 * (cy - H / 2) + dy, abs=0.005)
            if a1 - a0 > 20:  # long things: their length scales by exactly the factor
                assert (c1 - c0) / (a1 - a0) == pytest.approx(1.003, abs=2e-4)


def test_a_profile_scales_the_calibration_rulers(tmp_path):
    profile = printers.make("p", scale_x=1.01, scale_y=0.99)
    boxes = _bounds(_render(tmp_path, "calibration", printer=profile), 0)
    xs = [x for x, y in _ruler_ticks(boxes, vertical_ruler=False) if y < 100]
    ys = [y for x, y in _ruler_ticks(boxes, vertical_ruler=True) if x < 30]
    assert max(xs) - min(xs) == pytest.approx(151.5, abs=0.01)
    assert max(ys) - min(ys) == pytest.approx(198.0, abs=0.01)


def test_same_input_same_bytes_with_a_profile(tmp_path):
    profile = printers.make("p", scale_x=1.002, back_dx=0.7)
    a = _render(tmp_path, "glux-chips", printer=profile, name="a.pdf")
    b = _render(tmp_path, "glux-chips", printer=profile, name="b.pdf")
    assert a.read_bytes() == b.read_bytes()


# ---- the commands ----------------------------------------------------------------------

def _run(args, tmp_path, **env):
    env = {"SHEETKIT_PRINTERS": str(tmp_path / "conf" / "printers.toml"), **env}
    return CliRunner().invoke(cli, args, env=env, catch_exceptions=False)


def _main(args, tmp_path, capsys, monkeypatch):
    """Through sheetkit.cli.main: exit status and the one-line errors, as a user sees them."""
    import sys
    from sheetkit.cli import main

    monkeypatch.setenv("SHEETKIT_PRINTERS", str(tmp_path / "conf" / "printers.toml"))
    monkeypatch.setattr(sys, "argv", ["sheetkit", *args])
    with pytest.raises(SystemExit) as e:
        main()
    out = capsys.readouterr()
    return e.value.code, out.out, out.err


def test_printer_set_list_and_render_with_the_profile(tmp_path):
    r = _run(["printer", "list"], tmp_path)
    assert r.exit_code == 0 and "no printer profiles yet" in r.output
    r = _run(["printer", "set", "office", "--scale-x", "1.003", "--scale-y", "0.998",
              "--back-dx", "1.5", "--back-dy", "-0.5"], tmp_path)
    assert r.exit_code == 0, r.output
    _run(["printer", "set", "home", "--scale-y", "1.01"], tmp_path)
    _run(["printer", "set", "office", "--scale-x", "1.004"], tmp_path)  # replaced, home kept
    r = _run(["printer", "list"], tmp_path)
    assert r.output.splitlines() == ["home: scale x 1, y 1.01; back moved +0 mm across, +0 mm down",
                                     "office: scale x 1.004, y 1; back moved +0 mm across, +0 mm down"]
    assert printers.load_all(tmp_path / "conf" / "printers.toml")["home"].scale_y == 1.01
    out = tmp_path / "y.pdf"
    r = _run(["render", "yuncos-easy", "--printer", "office", "-o", str(out)], tmp_path)
    assert r.exit_code == 0 and out.exists()


def test_the_default_profile_file_is_in_the_config_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("SHEETKIT_PRINTERS", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert printers.path() == tmp_path / "xdg" / "sheetkit" / "printers.toml"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert printers.path() == tmp_path / "home" / ".config" / "sheetkit" / "printers.toml"


@pytest.mark.parametrize("args, says", [
    (["--scale-x", "nan"], "scale-x: expected a scale between 0.9 and 1.1"),
    (["--scale-x", "0"], "scale-x: expected a scale between 0.9 and 1.1"),
    (["--scale-y", "-1.0"], "scale-y: expected a scale between 0.9 and 1.1"),
    (["--scale-y", "1e9"], "scale-y: expected a scale between 0.9 and 1.1"),
    (["--back-dx", "1e9"], "back-dx: expected an offset between -10 and 10 mm"),
    (["--back-dy", "inf"], "back-dy: expected an offset between -10 and 10 mm"),
    (["--back-dy", "-nan"], "back-dy: expected an offset"),
    (["--scale-x", "abc"], "is not a valid float"),
])
def test_bad_profile_values_are_refused_with_one_line(tmp_path, capsys, monkeypatch, args, says):
    code, out, err = _main(["printer", "set", "p", *args], tmp_path, capsys, monkeypatch)
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "conf" / "printers.toml").exists()


def test_bad_names_and_unknown_profiles_exit_2(tmp_path, capsys, monkeypatch):
    code, _, err = _main(["printer", "set", "a b"], tmp_path, capsys, monkeypatch)
    assert code == 2 and "printer name 'a b'" in err
    code, _, err = _main(["render", "yuncos", "--printer", "nope", "-o", str(tmp_path / "x.pdf")],
                         tmp_path, capsys, monkeypatch)
    assert code == 2 and "no printer profile 'nope'" in err and not (tmp_path / "x.pdf").exists()


@pytest.mark.parametrize("text, says", [
    ("[printers.p]\nscale_x = nan\n", "printers.p: scale-x: expected a scale"),
    ("[printers.p]\nscale_x = 0\n", "printers.p: scale-x: expected a scale"),
    ("[printers.p]\nback_dx = 1e9\n", "printers.p: back-dx: expected an offset"),
    ("[printers.p]\nscale_x = \"1.0\"\n", "printers.p: scale-x: expected a number"),
    ("[printers.p]\nzoom = 1.0\n", "printers.p: unknown key 'zoom'"),
    ("printers = 3\n", "expected [printers.NAME] tables"),
    ("[printers\n", "not valid TOML"),
])
def test_a_hand_edited_profile_file_that_is_wrong_says_where(tmp_path, capsys, monkeypatch, text, says):
    file = tmp_path / "conf" / "printers.toml"
    file.parent.mkdir()
    file.write_text(text)
    code, _, err = _main(["printer", "list"], tmp_path, capsys, monkeypatch)
    assert code == 2 and says in err and str(file) in err and len(err.strip().splitlines()) == 1
