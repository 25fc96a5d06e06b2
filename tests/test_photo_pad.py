"""Reading filled score pads (Glüx, IUNU, Level X) from photos: marks, fields,
registration, reading with the pad's arithmetic, the draft, and hostile input."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("cv2")
pytest.importorskip("zxingcpp")

from sheetkit.paper import printing  # noqa: E402
from sheetkit.paper import scene as S  # noqa: E402
from sheetkit.photo import padgames, padread, padregister, padsimulate  # noqa: E402

from tests.conftest import sheetkit  # noqa: E402

PADS = ("glux-score-pad", "iunu-score-pad", "levelx-score-pad")
GAMES = ("levelx", "glux", "iunu")


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("layout_id", PADS)
@pytest.mark.parametrize("paper", ("a4", "letter"))
def test_every_pad_carries_four_marks_clear_of_everything(layout_id, paper):
    from sheetkit.paper import marks

    _, scene = printing.compose(layout_id, paper, "es")
    page = scene.pages[0]
    assert len(page.marks) == 4
    W, H = page.width, page.height
    items = scene.forms[page.items[0].name].items
    squares = {(x, y, x + s, y + s) for x, y, s in page.marks}
    drawn = [b for b in marks.occupied(items) if b not in squares]
    for x0, y0, x1, y1 in squares:
        assert S.SAFE_MARGIN <= x0 and x1 <= W - S.SAFE_MARGIN and S.SAFE_MARGIN <= y0 and y1 <= H - S.SAFE_MARGIN
        grown = (x0 - 1.5, y0 - 1.5, x1 + 1.5, y1 + 1.5)
        assert not any(_overlap(grown, b) for b in drawn), "a mark touches what the pad draws"
        sx, sy, ss = page.stamp
        assert not _overlap(grown, (sx, sy, sx + ss, sy + ss))
    # solid black squares, spread over the page (a quadrilateral, not a line)
    xs, ys = [x for x, _, _ in page.marks], [y for _, y, _ in page.marks]
    assert max(xs) - min(xs) > 100 and max(ys) - min(ys) > 150
    # the same places in both languages: a photo is laid over either
    _, other = printing.compose(layout_id, paper, "en")
    assert other.pages[0].marks == page.marks


@pytest.mark.parametrize("layout_id", PADS)
def test_the_fields_come_from_the_drawn_table(layout_id):
    _, scene = printing.compose(layout_id, "a4", "en")
    page = scene.pages[0]
    fields = page.fields
    assert len({f.key for f in fields}) == len(fields)
    items = scene.forms[page.items[0].name].items
    drawn = {(round(it.x, 3), round(it.y, 3)) for it in items if isinstance(it, S.Rect)}
    drawn |= {(round(it.x - it.r, 3), round(it.y - it.r, 3)) for it in items if isinstance(it, S.Circle)}
    for f in fields:  # every field is a box the renderer drew
        assert (round(f.box[0], 3), round(f.box[1], 3)) in drawn, f.key
    kinds = {f.kind for f in fields}
    assert kinds == {"digits", "tick", "name"}
    players = {f.player for f in fields if f.player is not None}
    assert players == {0, 1, 2, 3}
    assert any(f.row == "total" for f in fields)


@pytest.fixture(scope="module")
def samples(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pads")
    out = {}
    for game, seed in zip(GAMES, (11, 12, 13)):
        s = padsimulate.sample(seed, game, "flat", paper="a4" if game != "glux" else "letter")
        path = folder / f"{game}.jpg"
        padsimulate.write(s, path)
        out[game] = (s, path)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_registration_lays_the_photo_over_the_blank(samples, game):
    import cv2

    s, path = samples[game]
    reg = padregister.register(path)
    assert reg.blank.layout.id == s.layout and reg.blank.paper == s.paper and reg.serial == s.serial
    # where the registered photo puts a grid of points over the page against where the
    # photo took them: within half a millimetre
    mm = np.array([(x, y) for x in range(30, 190, 20) for y in range(40, 240, 20)], np.float64)
    photo = cv2.perspectiveTransform((mm * padsimulate.SHEET_PX_PER_MM)[None], s.homography)
    back = cv2.perspectiveTransform(photo, reg.homography)[0] / 6.0
    assert np.abs(back - mm).max() < 0.5


@pytest.mark.parametrize("game", GAMES)
def test_a_filled_pad_is_read_to_the_truths_scores(samples, game):
    s, path = samples[game]
    d = padread.read_pad(path)
    assert d.layout == s.layout and d.players == sorted(s.players) or game == "levelx"
    n, wrong = padsimulate.field_errors(d, s)
    assert n > 20
    assert all(unsure for *_, unsure in wrong), "a wrong field left unmarked"
    if d.unsure:
        d = padread.read_pad(path, fixed=padsimulate.confirmed(d, s))
    assert padgames.scores(d)[1] == s.scores
    for f in d.fields.values():  # every field says where it is and how sure it is
        js = f.to_json()
        assert len(js["box"]) == 4 and 0.0 <= js["confidence"] <= 1.0


def test_the_level_x_draft_checks_as_the_truth(samples, tmp_path):
    s, path = samples["levelx"]
    out = tmp_path / "draft.toml"
    run = sheetkit("read", str(path), "-o", str(out))
    assert run.code == 0, run.err
    assert "levelx-score-pad" in run.err  # which layout it saw
    check = sheetkit("check", str(out), "--json")
    import json

    verdict = json.loads(check.out)[0]
    assert check.code == 0 and verdict["legal"] is True
    got = {sc["player"]: sc["total"] for sc in verdict["scores"]}
    assert got == s.scores


def test_the_arithmetic_catches_a_misread(samples):
    s, path = samples["levelx"]
    reg = padregister.register(path)
    p = s.players[0]
    row = next(v for v in (5, 6, 7, 8, 9, 10) if f"t0.chips.{v}.count.p{p}" in s.values)
    key = f"t0.chips.{row}.result.p{p}"
    truth = s.values[key]
    # the ink of a result read as one more, and surely: the count times the row's value
    # says otherwise, and the reading follows the arithmetic
    cells = padread.read_cells(reg)
    cells[key].readings = [(truth + 1, 0.9), (truth, 0.1)]
    d = padread.read_registered(reg, cells=cells)
    assert d.fields[key].value == truth
    # a total misread beyond what any reading of the parts gives: said, and marked
    cells = padread.read_cells(reg)
    tkey = f"t0.total.value.p{p}"
    cells[tkey].readings = [(s.values[tkey] + 50, 0.99)]
    d = padread.read_registered(reg, cells=cells)
    assert d.notes and tkey in d.unsure
    assert "disagrees" in d.fields[tkey].note


def test_a_confirmed_field_is_held(samples):
    s, path = samples["iunu"]
    key = f"t0.deben.value.p{s.players[0]}"
    d = padread.read_pad(path, fixed={key: 99})
    assert d.fields[key].value == 99 and d.fields[key].confidence == 1.0 and key not in d.unsure


def test_bad_photos_are_one_line_and_exit_2(samples, tmp_path):
    import cv2

    s, path = samples["iunu"]
    notes = tmp_path / "notes.jpg"
    notes.write_text("not a photo")
    noise = tmp_path / "noise.png"
    cv2.imwrite(str(noise), (np.random.default_rng(1).random((1200, 900)) * 255).astype(np.uint8))
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(path.read_bytes()[:len(path.read_bytes()) // 3])
    for bad, words in ((notes, "not an image"), (noise, "no QR code"), (cut, "cut short")):
        run = sheetkit("read", str(bad))
        assert run.code == 2, (bad, run.err)
        assert len(run.err.strip().splitlines()) == 1 and "Traceback" not in run.err
        assert words in run.err
