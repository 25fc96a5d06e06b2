"""sheetkit.memo: a value is given back only for the very objects it was made from."""

from sheetkit.memo import Memo


def test_a_value_is_kept_for_its_key_and_its_very_objects():
    memo, a, b = Memo(4), [1], [1]  # equal lists, two objects
    made = []
    assert memo.kept("k", (a,), lambda: made.append(1) or "for a") == "for a"
    assert memo.kept("k", (a,), lambda: made.append(1) or "again") == "for a" and made == [1]
    assert memo.get("k", (b,)) is None and memo.get("other", (a,)) is None


def test_an_id_seen_again_is_not_taken_for_the_object_kept():
    memo = Memo(4)
    memo.put("k", (object(),), "old")  # the object is kept beside its value: its id stays its own
    for _ in range(100):
        assert memo.get("k", (object(),)) is None


def test_full_it_starts_again():
    memo = Memo(2)
    for k in range(3):
        memo.put(k, (), k)
    assert memo.get(2) == 2 and memo.get(0) is None and len(memo._kept) == 1
