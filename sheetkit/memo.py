"""A bounded memo for what the page draws or reads again at every move (a board side's
drawing, a sheet's turns, a game's turn lines), kept by values and by objects.

A key is its values (hashable) and some objects compared by identity (a layout's spec, a
validated turn: large, or not hashable). The objects are kept beside the value, so that an
id in the key cannot be another object's while the value is kept. Full, the memo forgets
everything and starts again: what it holds is rebuilt at the cost of one miss each.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Hashable, Sequence


class Memo:
    def __init__(self, most: int):
        self.most = most
        self._kept: dict[tuple, tuple[tuple, Any]] = {}
        self._lock = threading.Lock()

    def get(self, key: Hashable, objects: Sequence[object] = ()) -> Any:
        """The value kept for `key` and these very `objects`, else None."""
        got = self._kept.get((key, tuple(map(id, objects))))
        if got is None or any(a is not b for a, b in zip(got[0], objects)):
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
