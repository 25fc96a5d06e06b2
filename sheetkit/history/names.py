"""Who a person is in the history: a name as kept (`clean_name`) and the key that makes
"Ana", "ana" and " ANA " one person (`name_key`). The store keeps names by these rules,
the stats and the page look people up by them.
"""

from __future__ import annotations

import unicodedata

from sheetkit.forms import MAX_NAME, name_refused  # one rule for names, the page's forms and the history's
from sheetkit.history.schema import HistoryError
from sheetkit.messages import msg


def clean_name(name: str) -> str:
    """A person's name as kept: spaces trimmed and single; refuses empty, over-long or
    control characters."""
    if not isinstance(name, str):
        raise HistoryError(msg("error.history.name_text", got=repr(name)))
    cleaned = " ".join(unicodedata.normalize("NFC", name).split())
    if not cleaned:
        raise HistoryError(msg("error.history.name_needed"))
    if len(cleaned) > MAX_NAME:
        raise HistoryError(msg("error.history.name_long", most=MAX_NAME, got=len(cleaned)))
    if name_refused(cleaned):
        raise HistoryError(msg("error.history.name_control", got=repr(name)))
    return cleaned


def name_key(name: str) -> str:
    """Who a name is: "Ana", "ana" and " ANA " are one person."""
    return clean_name(name).casefold()
