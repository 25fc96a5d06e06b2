"""The score-keeper's web page, served by `sheetkit serve`.

Flask, not Starlette: sheetkit is synchronous from end to end (the engine checks a record
in a millisecond; there is nothing to await), and Flask gives server-rendered Jinja2
templates with autoescaping, signed session cookies, a request-size limit and a test
client out of the box, is long and well maintained, and needs no ASGI server: its own
threaded server is enough for one table of phones. Pages are plain HTML forms, so the page
works without JavaScript and needs no build step and no download.

`create_app()` builds the app; sheetkit.web.app holds the routes, sheetkit.web.security the
access token, CSRF and origin checks, sheetkit.web.inputs the defensive reading of every
value a request brings. Importing this package does not import Flask.
"""


def create_app(**kw):
    from sheetkit.web.app import create_app as make

    return make(**kw)
