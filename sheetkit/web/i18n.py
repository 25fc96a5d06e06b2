"""The page's words: the message catalogues' `page.*` messages, in the page's language.

The phone page speaks through the same catalogues as every other output
(sheetkit/messages.py, sheetkit/locale/en.toml and es.toml): its labels, buttons, hints
and form errors are the messages `page.<key>`, the findings, scores and tiebreaks it shows
are the engine's own messages. `label(lang, key, **values)` is `text("page." + key, ...)`:
a key or a placeholder the catalogue lacks raises MessageError in strict mode (under
pytest, or with SHEETKIT_STRICT_MESSAGES=1) and shows a visible ⟦page.key⟧ marker
otherwise, never another language's words.

The page's language (`page_lang()`): the one the session chose (`?lang=es` or `?lang=en`,
kept in the session cookie), else the one the browser asks for first (its Accept-Language
header), else `messages.DEFAULT`.
"""

from __future__ import annotations

from sheetkit import messages

LANGS = messages.LANGS
DEFAULT = messages.DEFAULT  # the one default language: the catalogues'


def page_lang() -> str:
    """The language of the page being answered: the session's choice, else the browser's
    (Accept-Language), else DEFAULT; DEFAULT outside a request."""
    from flask import g, has_request_context, request, session

    if not has_request_context():
        return DEFAULT
    chosen = session.get("lang")
    if chosen in LANGS:
        return chosen
    # the browser's wish is the same all through a request, and a page asks for its
    # language at every word it shows (a long play's move list: thousands of times)
    asked = g.get("browser_lang")
    if asked is None:
        asked = g.browser_lang = request.accept_languages.best_match(LANGS) or DEFAULT
    return asked


def label(lang: str, key: str, **kw) -> str:
    """The page's words `key` in `lang` (the catalogue's `page.<key>`), placeholders filled."""
    return messages.text("page." + key, lang, **kw)
