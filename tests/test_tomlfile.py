"""The guarded reader's bounds walk, given the data a value was made from: the same verdict
as walking it whole, however the two share their tables and arrays."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from sheetkit.errors import UserError
from sheetkit.tomlfile import INT_MAX, MAX_DEPTH, check_bounds

scalar = st.one_of(st.integers(-5, 5), st.sampled_from([INT_MAX, INT_MAX + 1, -INT_MAX - 2]), st.text(max_size=3),
                   st.booleans())
value = st.recursive(scalar, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                     st.dictionaries(st.text(max_size=2), inner, max_size=4)),
                     max_leaves=40)


def deep(n: int):
    out: list = [1]
    for _ in range(n):
        out = [out]
    return out


def verdict(data, before=None):
    try:
        check_bounds(data, "t.toml", before)
    except UserError as e:
        return str(e), e.field
    return None


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=2), value, max_size=5), st.lists(value, max_size=4),
       st.sampled_from([0, MAX_DEPTH - 3, MAX_DEPTH - 1, MAX_DEPTH + 2]), st.data())
def test_what_passed_before_is_not_walked_again_and_the_verdict_is_the_same(before, added, depth, data):
    if verdict(before) is not None:
        before = {}  # `before` is data that passed: a play's record before its move
    turns = before.get("turn") if isinstance(before.get("turn"), list) else []
    data_ = dict(before)  # its tables and arrays the very objects of `before`
    data_["turn"] = turns + added + ([deep(depth)] if data.draw(st.booleans()) else [])
    for k in data.draw(st.lists(st.sampled_from(sorted(before)), max_size=2)) if before else []:
        data_[k] = data.draw(value)  # a value replaced
    assert verdict(data_, before) == verdict(data_)
