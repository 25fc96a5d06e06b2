"""The readers' percentile (sheetkit.photo.digits.percentile) is numpy's, value for value and
type for type, on random inks of every shape the readers give it: a digit's features, and so
every reading, are the same as with np.percentile."""

import numpy as np
import pytest

pytest.importorskip("cv2")

from sheetkit.photo.digits import percentile  # noqa: E402


def test_the_same_as_numpy_on_random_inks():
    rng = np.random.default_rng(3)
    for i in range(3000):
        h, w = (int(x) for x in rng.integers(1, 70, 2))
        a = rng.random((h, w)).astype(np.float32 if i % 2 else np.float64)
        if i % 3 == 0:
            a[a < 0.6] = 0  # blank paper: many equal values
        q = float(rng.choice([0, 0.5, 20, 50, 80, 90, 99, 99.5, 100, rng.random() * 100]))
        for axis in (None, 0, 1):
            want, got = np.asarray(np.percentile(a, q, axis=axis)), np.asarray(percentile(a, q, axis=axis))
            assert want.dtype == got.dtype and np.array_equal(want, got), (h, w, q, axis)


def test_the_median_is_numpys_on_random_inks():
    from sheetkit.photo.digits import median

    rng = np.random.default_rng(5)
    for i in range(3000):
        h, w = (int(x) for x in rng.integers(1, 40, 2))
        kind = i % 4
        a = rng.random((h, w))
        if kind == 0:
            a = a.astype(np.float32)
        elif kind == 1:
            a[a < 0.6] = 0  # blank paper: many equal values
        elif kind == 2:
            a = (a * 10).astype(np.int64)
        elif i % 8 == 3:
            a[rng.random((h, w)) < 0.05] = np.nan  # numpy's nan, where the data hold one
        for axis in (None, 0, 1):
            want, got = np.asarray(np.median(a, axis=axis)), np.asarray(median(a, axis=axis))
            assert want.dtype == got.dtype and np.array_equal(want, got, equal_nan=True), (h, w, axis, kind)
        assert type(np.median(a)) is type(median(a))
    assert median([3.0, 1.0, 2.0]) == np.median([3.0, 1.0, 2.0])
