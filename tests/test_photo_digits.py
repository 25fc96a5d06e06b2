"""The digit reader and the pencil drawer of the photo reader (sheetkit[photo]).

The accuracy floor is measured on simulated crops in handwriting the shipped network never
saw in training (a font and a stroke style held out), at the sizes a phone photo gives a
Yuncos box's inside: ~33 and ~45 px at 1200x1600, ~90 and ~115 px at 3000x4000.
"""

from __future__ import annotations

import numpy as np
import pytest

from sheetkit.photo import digits, handwriting

HELD_OUT_FONT, HELD_OUT_STROKES = "humor-sans", "serif"


def best(p: dict) -> int | None:
    return max(p.items(), key=lambda kv: kv[1])[0]


def test_the_shipped_network_never_saw_the_held_out_styles():
    with np.load(digits.MODEL) as z:
        assert set(z["held_out"]) == {HELD_OUT_FONT, HELD_OUT_STROKES}


@pytest.mark.parametrize("style", [HELD_OUT_STROKES, HELD_OUT_FONT])
def test_accuracy_floor_on_held_out_handwriting(style):
    if style not in handwriting.styles():
        pytest.skip(f"the font of style {style} is not installed (apt-get install fonts-humor-sans; .ci/run does)")
    right = total = 0
    for seed, sides in ((7, (30, 48)), (8, (85, 122))):
        inks, labels = handwriting.crop_set(np.random.default_rng(seed), 8, [style], sides)
        right += sum(best(digits.classify(a)) == d for a, d in zip(inks, labels))
        total += len(labels)
    assert right / total >= 0.9, f"{right}/{total}"


def test_probabilities_cover_1_to_6_and_empty():
    a = handwriting.ink_crop(np.random.default_rng(3), 4, (40, 44), "print")
    p = digits.classify(a)
    assert set(p) == {None, 1, 2, 3, 4, 5, 6}
    assert abs(sum(p.values()) - 1) < 1e-6 and all(0 <= v <= 1 for v in p.values())


def test_empty_boxes_are_none():
    rng = np.random.default_rng(5)
    assert best(digits.classify(np.zeros((40, 40)))) is None
    for side in (20, 33, 45, 90, 115):
        assert best(digits.classify(handwriting.ink_crop(rng, None, side))) is None
    # a leftover of the box's printed edge along one side is not a 1
    a = np.zeros((45, 45), np.float32)
    a[:, :2] = 0.8
    assert best(digits.classify(a)) is None


def test_smallest_and_non_square_boxes_read():
    rng = np.random.default_rng(11)
    for d in range(1, 7):
        p = digits.classify(handwriting.ink_crop(rng, d, (16, 16), "print"))
        assert sum(p.values()) == pytest.approx(1)
        assert best(digits.classify(handwriting.ink_crop(rng, d, (60, 45), "print"))) == d


@pytest.mark.parametrize("ink, message", [
    (np.zeros((0, 0)), "px on each side"),
    (np.zeros((10, 40)), "px on each side"),
    (np.zeros((5000, 5000), np.float32), "px on each side"),
    (np.full((30, 30), np.nan), "NaN"),
    (np.full((30, 30), np.inf), "NaN"),
    (np.full((30, 30), 255.0), "lie in [0, 1]"),
    (np.zeros((30, 30, 3)), "2-D"),
    ([[0.0] * 30] * 30, "2-D numpy array"),
    (np.array([["a"] * 30] * 30), "numbers"),
])
def test_absurd_ink_is_refused_clearly(ink, message):
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        digits.classify(ink)


def sure(d: int | None, p: float = 0.97) -> dict:
    """A box read as d with probability p, the rest spread evenly."""
    cell = {c: (1 - p) / 6 for c in digits.CLASSES}
    cell[d] = p
    return cell


def torn(a: int, b: int) -> dict:
    """A confusable box: a slightly ahead of b."""
    cell = {c: 0.01 for c in digits.CLASSES}
    cell[a], cell[b] = 0.52, 0.43
    return cell


@pytest.mark.parametrize("rule, cells, truth", [
    # nest row 1: all different; the 4th box looks a bit more like a 5 already written
    ("all_different", [sure(3), sure(5), sure(1), torn(5, 2), sure(None), sure(None)],
     [3, 5, 1, 2, None, None]),
    # nest row 2: each lower than the last
    ("descending", [sure(6), sure(4), torn(5, 3), sure(None), sure(None), sure(None)],
     [6, 4, 3, None, None, None]),
    # a luminary column, bottom to top: each higher
    ("rising", [sure(2), sure(4), torn(3, 6)], [2, 4, 6]),
    # no gaps: a faint digit between two clear ones is a digit, not an empty box
    ("all_different", [sure(3), torn(None, 4), sure(5), sure(None)], [3, 4, 5, None]),
])
def test_narrow_corrects_one_confusable_box(rule, cells, truth):
    reading = digits.narrow(cells, rule)
    assert [v for v, _ in reading] == truth
    assert all(0 < c <= 1 for _, c in reading)
    # the corrected box is less certain than the clear ones, but more than its raw reading
    i = next(i for i, c in enumerate(cells) if max(c.values()) < 0.9)
    assert 0.43 < reading[i][1] < min(c for j, (_, c) in enumerate(reading) if j != i)


def test_narrow_without_a_rule_keeps_each_box_own_reading():
    cells = [sure(3), sure(3), torn(5, 2)]
    assert digits.narrow(cells, "none") == [(3, pytest.approx(0.97)), (3, pytest.approx(0.97)),
                                           (5, pytest.approx(0.52))]


def test_narrow_reads_clearly_illegal_ink_as_written():
    # two very clear 3s in an all-different row: the sheet breaks the rule, the checker says so
    cells = [sure(3, 0.9999), sure(3, 0.9999), sure(None, 0.9999)]
    assert [v for v, _ in digits.narrow(cells, "all_different")] == [3, 3, None]


def test_narrow_on_real_crops_of_a_legal_row():
    rng = np.random.default_rng(21)
    row = [6, 5, 3, 2, 1, None]
    cells = [digits.classify(handwriting.ink_crop(rng, d, 45, "print")) for d in row]
    assert [v for v, _ in digits.narrow(cells, "descending")] == row


@pytest.mark.parametrize("cells, rule, message", [
    ([sure(1)], "sorted", "unknown rule"),
    ([], "none", "non-empty"),
    ([{1: -1.0, None: 2.0}], "none", ">= 0"),
    ([{1: float("nan")}], "none", "finite"),
    ([{7: 1.0}], "none", "keyed by"),
    ([sure(1)] * 100, "rising", "not a row"),
])
def test_narrow_refuses_absurd_groups(cells, rule, message):
    with pytest.raises(ValueError, match=message):
        digits.narrow(cells, rule)


def test_draw_digit_pencils_inside_its_box_only():
    canvas = np.ones((100, 200), np.float64)
    for style in handwriting.styles():
        c = canvas.copy()
        assert handwriting.draw_digit(c, (60, 20, 100, 70), 5, np.random.default_rng(1), style) == style
        ys, xs = np.nonzero(c < 0.99)
        assert len(ys) > 20, style
        assert 50 <= xs.min() and xs.max() <= 110 and 10 <= ys.min() and ys.max() <= 80, style
        assert c.min() >= handwriting.GREY[0] - 1e-6  # one layer of pencil is never blacker
    a, b = canvas.copy(), canvas.copy()
    handwriting.draw_digit(a, (10, 10, 50, 50), 3, np.random.default_rng(2))
    handwriting.draw_digit(b, (10, 10, 50, 50), 3, np.random.default_rng(2))
    assert np.array_equal(a, b)


def test_strokes_and_crosses():
    c = np.ones((120, 120), np.float32)
    handwriting.draw_stroke(c, [(10, 10), (60, 100), (110, 20)], np.random.default_rng(4), width=2.5)
    assert c[10:100, :].min() < 0.8 and c[110:, :].min() > 0.99
    c = np.ones((120, 120), np.float32)
    assert handwriting.draw_cross(c, (20, 20, 60, 60), np.random.default_rng(4), "x") == "x"
    assert c[25:55, 25:55].min() < 0.8 and c[70:, :].min() == 1 and c[:, 70:].min() == 1
    # pencil past the canvas edge is clipped, not an error
    handwriting.draw_stroke(c, [(-50, 60), (500, 60)], np.random.default_rng(4))


@pytest.mark.parametrize("call", [
    lambda c, r: handwriting.draw_digit(c, (0, 0, 20, 20), 7, r),
    lambda c, r: handwriting.draw_digit(c, (0, 0, 20, 20), 3, r, "gothic"),
    lambda c, r: handwriting.draw_digit(c, (0, 0, float("nan"), 20), 3, r),
    lambda c, r: handwriting.draw_digit(c.astype(np.uint8), (0, 0, 20, 20), 3, r),
    lambda c, r: handwriting.draw_stroke(c, [(0, 0)], r),
    lambda c, r: handwriting.draw_cross(c, (0, 0, 20, 20), r, "o"),
])
def test_drawer_refuses_nonsense(call):
    with pytest.raises(ValueError):
        call(np.ones((50, 50)), np.random.default_rng(0))


def test_the_training_script_gives_the_same_network_for_the_same_seed(tmp_path):
    import subprocess
    import sys

    from conftest import ROOT

    if any(s not in handwriting.styles() for s in ("breip", "comic-neue", "dkg", "klee", "humor-sans")):
        pytest.skip("the handwriting fonts are not installed (.ci/run installs them)")
    outs = []
    for name in ("a.npz", "b.npz"):
        out = tmp_path / name
        proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "train_digits.py"), "--per-class", "6",
                               "--epochs", "2", "--out", str(out)], capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        with np.load(out) as z:
            outs.append({k: z[k] for k in z.files})
    assert outs[0].keys() == outs[1].keys()
    assert all(np.array_equal(outs[0][k], outs[1][k]) for k in outs[0])
    model = {k: outs[0][k].astype(np.float32) for k in ("mean", "std", "w1", "b1", "w2", "b2")}
    x = digits.features(handwriting.ink_crop(np.random.default_rng(0), 2, 40))
    assert digits.probabilities(x, model).shape == (1, len(digits.CLASSES))


def test_odd_but_valid_ink_gives_probabilities_not_a_crash():
    rng = np.random.default_rng(9)
    odd = [np.ones((30, 30)), np.full((30, 30), 0.5), rng.random((17, 90)), rng.random((64, 64)) ** 8,
           np.eye(40), np.zeros((16, 16), bool), (rng.random((50, 50)) > 0.99).astype(np.uint8)]
    spot = np.zeros((40, 40))
    spot[20, 20] = 1.0
    odd.append(spot)
    for a in odd:
        p = digits.classify(a)
        assert all(np.isfinite(v) for v in p.values()) and sum(p.values()) == pytest.approx(1)
