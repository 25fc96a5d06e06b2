"""A page's long lists rendered a row at a time, each row's HTML kept.

A play's page lists every move entered (each with its Fix link) and is drawn again at
every move: without this, the template renders all of them again (some 14 µs a row in
Jinja), one more each move. In a template:

    {% call(m) kept_rows("moves", y.moves, play.id, fix) %}<li>{{ m.text }} ...</li>{% endcall %}

renders exactly what `{% for m in y.moves %}<li>...</li>{% endfor %}` renders. A row's HTML
is kept by the template and the list's name, the page's language, the values given after
the rows (everything else the row's HTML uses: the play's number, a word) and the row's
very values (memo.plain: 1, 1.0 and true apart); a row holding anything else (an object
may show what its key does not say) is rendered every time.
"""

from __future__ import annotations

from jinja2 import pass_context
from markupsafe import Markup

from sheetkit.memo import NOT_PLAIN, Memo, plain

_ROWS = Memo(8192)  # (template, list, language, values given, a row's values) -> its HTML


@pass_context
def kept_rows(context, name: str, rows, *given, caller) -> Markup:
    """Each row rendered by the call block (`caller(row)`), or its HTML kept from a page
    before: see the module's docstring."""
    where = plain((context.name, name, context.get("lang"), given))
    out = []
    for row in rows:
        key = plain(row) if where is not NOT_PLAIN else NOT_PLAIN
        got = _ROWS.get((where, key)) if key is not NOT_PLAIN else None
        if got is None:
            got = caller(row)
            if key is not NOT_PLAIN:
                _ROWS.put((where, key), (), got)
        out.append(got)
    return Markup("".join(out))
