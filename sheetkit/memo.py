"""A bounded memo for what the page draws or reads again at every move (a board side's
drawing, a sheet's turns, a game's turn lines), kept by values and by objects.

A key is its values (hashable) and some objects compared by identity (a layout's spec, a
validated turn: large, or not hashable). The objects are kept beside the value, so that an
id in the key cannot be another object's while the value is kept. Full, the memo forgets
everything and starts again: what it holds is rebuilt at the cost of one miss each.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from typing import Any, Callable, Hashable, Iterator, Sequence

NOT_PLAIN = object()
_SCALARS = (str, int, float, bool, type(None))
# the scalars' own types that are their own key (a subclass, Markup say, is looked up by
# isinstance; a float is not: -0.0 equals 0.0, and shows apart)
_EXACT = frozenset((str, int, bool, type(None)))


class Memo:
    def __init__(self, most: int):
        self.most = most
        self._kept: dict[tuple, tuple[tuple, Any]] = {}
        self._lock = threading.Lock()

    def get(self, key: Hashable, objects: Sequence[object] = ()) -> Any:
        """The value kept for `key` and these very `objects`, else None."""
        got = self._kept.get((key, tuple(map(id, objects))))
        if got is None:
            return None
        for a, b in zip(got[0], objects):  # a loop, not any(): this runs for every row of a page
            if a is not b:
                return None
        return got[1]

    def put(self, key: Hashable, objects: Sequence[object], value: Any) -> Any:
        with self._lock:
            if len(self._kept) >= self.most:
                self._kept.clear()
            self._kept[(key, tuple(map(id, objects)))] = (tuple(objects), value)
        return value

    def kept(self, key: Hashable, objects: Sequence[object], make: Callable[[], Any]) -> Any:
        """The value kept for `key` and `objects`, made (and kept) when there is none."""
        got = self.get(key, objects)
        return got if got is not None else self.put(key, objects, make())


def plain(value: Any) -> Any:
    """A hashable image of plain data, a key equal for two values only when they are the
    same data (tables, arrays, tuples, text, numbers, booleans, None: 1, 1.0 and true
    apart, a list and a tuple apart), or NOT_PLAIN for anything else (a date, a model)."""
    kind = type(value)
    if isinstance(value, float):
        return kind, value.hex()  # every bit of it: -0.0 and 0.0 apart, a nan equal to itself
    if kind in _EXACT or isinstance(value, _SCALARS):
        return kind, value
    if kind is dict:
        out = []
        for k, v in value.items():  # a table's values mostly scalars: no call for them
            p = (type(v), v) if type(v) in _EXACT else plain(v)
            key = k if type(k) is str else plain(k)
            if p is NOT_PLAIN or key is NOT_PLAIN:
                return NOT_PLAIN
            out.append((key, p))
        return dict, tuple(out)
    if kind is list or kind is tuple:
        if all(type(x) in _EXACT for x in value):  # most arrays: no recursion
            return kind, tuple((type(x), x) for x in value)
    if isinstance(value, (dict, list, tuple)):
        pairs = value.items() if isinstance(value, dict) else enumerate(value)
        out = []
        for k, v in pairs:
            p = plain(v)
            key = k if type(k) is str else plain(k)
            if p is NOT_PLAIN or key is NOT_PLAIN:
                return NOT_PLAIN
            out.append((key, p))
        return kind, tuple(out)
    return NOT_PLAIN


# Data that is never changed once made: a play's records on the page (a game's entry makes
# new records from the position's, sharing the tables it leaves as they were; no reader
# changes what it reads: tests/test_web_kept.py). There, what was read of a table can be
# kept by that very object, with no walk of its values; anywhere else (a program that builds
# a record and edits it) only by its values.
_UNCHANGED = contextvars.ContextVar("sheetkit_unchanged_data", default=False)


@contextlib.contextmanager
def unchanged_data() -> Iterator[None]:
    """Within it (this thread's context), the data read is never changed once made."""
    token = _UNCHANGED.set(True)
    try:
        yield
    finally:
        _UNCHANGED.reset(token)


def data_unchanged() -> bool:
    return _UNCHANGED.get()
