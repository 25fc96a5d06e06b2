"""Registration of simulated phone photos (sheetkit.photo.register): a photo laid over the
blank it was printed from, or refused in one line.

These photos are simulated (sheetkit.photo.simulate), not real ones. How far a
registration is off is measured against the transform the simulation applied
(simulate.registration_error, in px of the blank at 6 px/mm).
"""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from sheetkit.errors import UserError  # noqa: E402
from sheetkit.photo import register, simulate  # noqa: E402

from conftest import assert_user_error, sheetkit  # noqa: E402


def _photo(seed, level, size=(1200, 1600)):
    s = simulate.sample(seed, level, size)
    return s, cv2.imdecode(np.frombuffer(s.jpeg, np.uint8), cv2.IMREAD_GRAYSCALE)


@pytest.fixture(scope="module")
def easy():
    # small and blurred: zxing-cpp does not read its code as photographed; it is read
    # module by module once cut out where the squares put it
    return _photo(2016, "yuncos-easy")


@pytest.fixture(scope="module")
def hard():
    # the top right square stands close under the Hard level's subtitle, which blur nearly joins to it
    return _photo(2017, "yuncos-hard")


def _save(tmp_path, name, img):
    path = tmp_path / name
    cv2.imwrite(str(path), img)
    return path


def _accurate(s, reg):
    err = simulate.registration_error(s, reg.homography, reg.blank.geometry)
    assert err.mean() < 1.0 and err.max() < 2.0, (err.mean(), err.max())


@pytest.mark.parametrize("which", ["easy", "hard"])
def test_small_blurred_phone_photos_register_to_a_pixel(which, request, tmp_path):
    s, img = request.getfixturevalue(which)
    reg = register.register(_save(tmp_path, "p.png", img))
    assert reg.text.startswith(f"SK1:{s.layout}:") and reg.serial == s.serial
    assert all(m is not None for m in reg.found["marks"])
    _accurate(s, reg)


def test_the_four_squares_are_found_in_the_blank_and_nothing_else_is_taken_for_them():
    for level in register.LEVELS:
        img, _, g = register.render(level, 7, "es", 6.0)
        squares = register._squares((img * 255).astype(np.uint8))
        fits = register._fit_marks(squares, g.marks, img.shape)
        H, idx = fits[0]
        centres = np.array([[x + m / 2, y + m / 2] for x, y, m in g.marks]) * 6.0 - 0.5
        assert np.abs(squares[idx, :2] - centres).max() < 0.5


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_a_photo_turned_by_quarter_turns_registers_as_upright(easy, turns, tmp_path):
    s, img = easy
    upright = register.register(_save(tmp_path, "up.png", img))
    turned = register.register(_save(tmp_path, "turned.png", np.ascontiguousarray(np.rot90(img, turns))))
    assert turned.text == upright.text
    g = upright.blank.geometry
    y0, y1, x0, x1 = (int(v * 6) for v in (g.oy, g.oy + g.content_h, g.ox, g.ox + g.content_w))
    assert np.abs(turned.photo - upright.photo)[y0:y1, x0:x1].mean() < 0.02


def test_a_dark_photo_and_a_sheet_small_in_the_frame_register(easy, tmp_path):
    s, img = easy
    _accurate(s, register.register(_save(tmp_path, "dark.png", (img * 0.3).astype(np.uint8))))
    # the whole photo smaller, on a wide table (the sheet about 900 px long)
    table = np.full((1600, 2000), 70, np.uint8)
    table[300:1340, 800:1580] = cv2.resize(img, (780, 1040), interpolation=cv2.INTER_AREA)
    reg = register.register(_save(tmp_path, "table.png", table))
    assert reg.text.startswith(f"SK1:{s.layout}:")


def test_a_sheet_too_small_in_the_frame_is_refused_in_one_line(easy, tmp_path):
    _, img = easy
    table = np.full((1600, 1200), 70, np.uint8)
    table[500:980, 400:760] = cv2.resize(img, (360, 480), interpolation=cv2.INTER_AREA)
    run = sheetkit("read", str(_save(tmp_path, "far.png", table)))
    assert_user_error(run, "QR code could not be read", "filling the frame")


def _paint(img, reg, boxes_mm):
    """`img` with the sheet's `boxes_mm` (x, y, w, h) painted over in paper grey."""
    out = img.copy()
    inv = np.linalg.inv(reg.homography)
    for x, y, w, h in boxes_mm:
        pts = cv2.perspectiveTransform((np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]]) * 6.0)[None], inv)
        cv2.fillPoly(out, [pts[0].astype(np.int32)], int(np.percentile(img, 90)))
    return out


def test_one_square_hidden_is_read_two_are_refused(hard, tmp_path):
    s, img = hard
    reg = register.register(_save(tmp_path, "p.png", img))
    marks = [(x - 1, y - 1, m + 2, m + 2) for x, y, m in reg.blank.geometry.marks]
    one = register.register(_save(tmp_path, "one.png", _paint(img, reg, marks[:1])))
    assert one.found["marks"][0] is None
    _accurate(s, one)
    run = sheetkit("read", str(_save(tmp_path, "two.png", _paint(img, reg, marks[:2]))))
    assert_user_error(run, "2 of the sheet's 4 black registration squares were not found")


def test_a_sheet_whose_code_is_hidden_or_cut_off_is_refused_in_one_line(easy, tmp_path):
    s, img = easy
    reg = register.register(_save(tmp_path, "p.png", img))
    x, y, size = reg.blank.geometry.stamp
    hidden = _paint(img, reg, [(x, y, size, size)])
    assert_user_error(sheetkit("read", str(_save(tmp_path, "hidden.png", hidden))), "no QR code found")
    h, w = img.shape
    for name, part in (("top", img[h * 2 // 5:]), ("left", img[:, w // 4:]), ("bottom", img[:h * 7 // 10])):
        run = sheetkit("read", str(_save(tmp_path, f"{name}.png", np.ascontiguousarray(part))))
        assert_user_error(run, "cut off")


def test_a_photo_of_something_else_with_black_squares_is_not_taken_for_a_sheet(tmp_path):
    rng = np.random.default_rng(5)
    img = np.full((1600, 1200), 210, np.uint8)
    for _ in range(12):
        x, y, k = rng.integers(50, 1100), rng.integers(50, 1500), rng.integers(15, 30)
        img[y:y + k, x:x + k] = 20
    with pytest.raises(UserError, match="no QR code found"):
        register.register(_save(tmp_path, "squares.png", img))


def _wide_photo(seed, level, size):
    s = simulate.sample(seed, level, size, wide=True)
    return s, cv2.imdecode(np.frombuffer(s.jpeg, np.uint8), cv2.IMREAD_GRAYSCALE)


@pytest.mark.parametrize("seed", [5024, 5036])
def test_a_small_code_blurred_past_its_modules_is_read_with_its_blur_undone(seed, tmp_path):
    # about 2.5 px/mm, a module 1.3 px and blurred over its neighbours: sampled module by
    # module, dozens are wrong; solved against the photo's blur, few enough for the code's
    # error correction
    s, img = _wide_photo(seed, "yuncos-easy", (1600, 1200))
    register._last = register._Seen(None, None)
    found, there = register._read_code_at(img, register._fit_marks(register._squares(img),
                                                                    register._geometry(s.layout).marks,
                                                                    img.shape)[0][0], s.layout)
    assert there and found
    reg = register.register(_save(tmp_path, "p.png", img))
    assert reg.text.startswith(f"SK1:{s.layout}:") and reg.serial == s.serial
    _accurate(s, reg)


def test_a_steeply_tilted_sheet_has_its_squares_fitted_by_the_size_perspective_gives_them(tmp_path):
    # tilted so that the far squares are much smaller: other squares fit the marks' shape
    # better under an affine map; only the sheet's own have each the size the homography
    # through them says
    s, img = _wide_photo(5069, "yuncos-hard", (4000, 3000))
    g = register._geometry(s.layout)
    H, idx = register._fit_marks(register._squares(img), g.marks, img.shape)[0]
    err = simulate.registration_error(s, H, g)
    assert err.max() < 4 * 6.0  # within 4 mm before the code and ECC refine it
    reg = register.register(_save(tmp_path, "p.png", img))
    assert reg.serial == s.serial
    _accurate(s, reg)


def test_a_code_blurred_beyond_reading_is_refused_not_guessed(tmp_path):
    # about 2.5 px/mm and blurred by more than a module: no blur undone reads it
    _, img = _wide_photo(5085, "yuncos-hard", (1600, 1200))
    run = sheetkit("read", str(_save(tmp_path, "p.png", img)))
    assert_user_error(run, "QR code could not be read")



def test_a_registration_square_close_to_the_lens_of_a_steep_photo_shows_as_an_oblong_and_is_found():
    """A phone held close over a steeply tilted sheet sees its near squares squashed to 2:3
    (the photo's perspective and the tilt's foreshortening): still a registration square."""
    img = np.full((1600, 1200), 235, np.uint8)
    cv2.rectangle(img, (300, 300), (319, 329), 40, -1)  # 20 x 30 px
    cv2.rectangle(img, (800, 1200), (821, 1221), 40, -1)  # an upright one
    found = register._squares_in(img)
    assert sorted(int(x) // 100 for x in found[:, 0]) == [3, 8]


def test_four_squares_of_a_steep_close_up_photo_fit_the_marks():
    """The squares found in a photo taken at 34 degrees from 27 cm (the near side 2.3 times the
    far one, px a mm): an affine fit of the four leaves 6.3 % of the page, more than a gentler
    tilt does; they are the sheet's squares all the same, and the homography through them
    says each square's size."""
    marks = register._geometry("yuncos-hard").marks
    squares = np.array([[1364.0, 1479.0, 30.0], [178.0, 1810.0, 21.0], [448.0, 761.0, 15.0],
                        [184.0, 899.0, 14.0], [950.0, 1397.0, 13.0], [941.0, 1239.0, 12.0],
                        [760.0, 546.0, 13.0], [931.0, 864.0, 12.0]])  # and four of the map's dots
    fits = register._fit_marks(squares, marks, (2048, 1536))
    assert fits and sorted(fits[0][1]) == [0, 1, 2, 3]


def test_a_square_at_the_frames_edge_is_missed_as_a_hidden_one_is(hard, tmp_path):
    """A registration square that lies at the photo's edge (a corner of a steep photo just
    in or out of the frame) cannot be found whole: it is one square missing, as one hidden
    is, and the sheet is laid by the other three and its code; two are refused as cut off."""
    s, img = hard
    path = _save(tmp_path, "p.png", img)
    reg = register.register(path)
    g = reg.blank.geometry
    (text, corners), _ = register._locate(img, register._squares(img), str(path))
    qx, qy, qs = reg.blank.qr
    code_px = np.array([[qx, qy], [qx + qs, qy], [qx + qs, qy + qs], [qx, qy + qs]], np.float64) * 6.0
    centres = [np.array([x + m / 2, y + m / 2]) for x, y, m in g.marks]
    inv = np.linalg.inv(reg.homography)
    at = [cv2.perspectiveTransform((c * 6.0)[None, None], inv)[0, 0] for c in centres]
    h, w = img.shape
    right = int(max(p[0] for p in at)) + 3  # the frame ending just past the rightmost square
    found = register._marks_from_code(register._squares(img), corners, code_px, centres, g.marks[0][2],
                                      (right, h), "p.png")
    assert sum(f is None for f in found) == 1
    bottom = int(max(p[1] for p in at)) + 3  # ... and just below the lowest two as well
    with pytest.raises(UserError, match="cut off"):
        register._marks_from_code(register._squares(img), corners, code_px, centres, g.marks[0][2],
                                  (right, bottom), "p.png")


def _warped_blank(W):
    """The Easy blank at half scale, blurred as _refine blurs it, and the same seen through
    the homography W (blank px -> photo px) under other light (gain and offset), with noise."""
    b = register.blank("yuncos-easy", 1, "en")
    half = cv2.GaussianBlur(cv2.resize(b.image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA), (0, 0), 1.0)
    h, w = half.shape
    seen = cv2.warpPerspective(half, W.astype(np.float32), (w, h), flags=cv2.INTER_LINEAR, borderValue=1.0)
    noise = np.random.default_rng(7).normal(0, 0.01, seen.shape)
    g = b.geometry
    block = tuple(slice(int(a * 3), int(z * 3)) for a, z in ((g.oy, g.oy + g.content_h), (g.ox, g.ox + g.content_w)))
    return half, (0.6 * seen + 0.25 + noise).astype(np.float32), block


def test_ecc_finds_the_homography_between_the_blank_and_a_photo_of_it_to_a_tenth_of_a_pixel():
    """register._ecc, on the print's edges only, as OpenCV's findTransformECC on every pixel:
    from 2-3 px off (all the squares leave), the blank's own print laid over again, under
    other light, to a tenth of a pixel over the whole content block."""
    a = np.radians(0.4)
    W = np.array([[np.cos(a), -np.sin(a), 2.6], [np.sin(a), np.cos(a), -1.8], [2e-6, -3e-6, 1.0]])
    half, seen, block = _warped_blank(W)
    found = register._ecc(half, seen, np.eye(3), block, 30, 1e-7)
    assert found is not None
    ys, xs = np.mgrid[block[0].start:block[0].stop:40, block[1].start:block[1].stop:40]
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1).astype(np.float64)[None]
    err = np.linalg.norm(cv2.perspectiveTransform(pts, found) - cv2.perspectiveTransform(pts, W), axis=2)
    assert err.max() < 0.1, err.max()


def test_ecc_on_paper_with_no_print_finds_nothing_rather_than_a_wrong_fit():
    half, seen, block = _warped_blank(np.eye(3))
    assert register._ecc(np.ones_like(half), seen, np.eye(3), block, 10, 1e-6) is None
    assert register._ecc(half, np.full_like(seen, 0.8), np.eye(3), block, 10, 1e-6) is None


@pytest.mark.parametrize("level, lang", [("yuncos-easy", "en"), ("yuncos-hard", "es")])
def test_a_blank_drawn_once_and_stamped_per_copy_is_the_copy_as_printed(level, lang):
    """Every copy of a sheet is the same form and its own stamp (serial and code): the form
    is drawn once, each copy's stamp onto a copy of it, and that gives the very pixels of the
    numbered copy drawn whole."""
    from sheetkit import layouts
    from sheetkit.games.yuncos.compose import compose
    from sheetkit.paper import pads, png

    layout = layouts.load(level)
    for serial in (1, 42, 9999):
        scene = compose(layout, "a4", lang)
        scene.lang = lang
        whole = png.page_image(pads.pad(scene, layout, 1, serial), 0, dpi=6.0 * 25.4).convert("L")
        img, _, _ = register.render(level, serial, lang, 6.0)
        assert np.array_equal(img, np.asarray(whole, dtype=np.float32) / 255.0), serial


def test_a_square_far_from_the_lens_of_a_steep_photo_shows_oblong_and_is_still_found(tmp_path):
    """Steep and close, the far side of a sheet shows its squares sheared into oblongs of 5:3
    and more (the sheet's right edge 0.6 as tall as its left, the sheet 0.7 as wide as it
    is): they are the sheet's squares still, and the photo is laid over its blank to within
    2 px."""
    k = 10.0  # px per mm of the sheet as drawn
    img, _, g = register.render("yuncos-hard", 7, "en", k)
    h, w = img.shape
    right_h, right_w = 0.6, 0.7
    top = (h - right_h * h) / 2
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[100, 100], [100 + right_w * w, 100 + top], [100 + right_w * w, 100 + top + right_h * h],
                      [100, 100 + h]])
    H = cv2.getPerspectiveTransform(src, dst)
    photo = cv2.warpPerspective((img * 255).astype(np.uint8), H, (w + 200, h + 200), borderValue=200)
    path = tmp_path / "steep.jpg"
    cv2.imwrite(str(path), photo, [cv2.IMWRITE_JPEG_QUALITY, 90])
    sides = []
    for x, y, s in g.marks:  # each square's turned bounding box, as the photo shows it
        corners = np.float32([[[x, y], [x + s, y], [x + s, y + s], [x, y + s]]]) * k
        (_, _), (a, b), _ = cv2.minAreaRect(cv2.perspectiveTransform(corners, H)[0])
        sides.append(max(a, b) / min(a, b))
    assert max(sides) > 1.6  # oblong as no upright square shows
    reg = register.register(path)
    mm = np.float32([[x, y] for x in np.arange(g.ox, g.ox + g.content_w, 20.0)
                     for y in np.arange(g.oy, g.oy + g.content_h, 20.0)])
    seen = cv2.perspectiveTransform((mm * k)[None], H)
    back = cv2.perspectiveTransform(seen.astype(np.float64), reg.homography)[0]
    assert np.abs(back - mm * register.PX_PER_MM).max() < 2.0
