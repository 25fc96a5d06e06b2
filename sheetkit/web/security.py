"""Who may use the page, and from where.

- The access token: when the server listens beyond this machine, every request must carry
  the token printed by `sheetkit serve`, in the link (`?token=...`, then kept in a cookie)
  or in that cookie; otherwise 403.
- Cross-site requests: every POST carries the session's CSRF token in a hidden field, and
  its Origin (or, without one, its Referer) must be this server.
"""

from __future__ import annotations

import hmac
import secrets
from urllib.parse import urlencode, urlsplit

from flask import abort, redirect, request, session

COOKIE = "sheetkit_token"
CSRF_FIELD = "csrf"


def new_token() -> str:
    return secrets.token_urlsafe(16)


def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return session["csrf"]


def _same(a: str | None, b: str | None) -> bool:
    return bool(a) and bool(b) and hmac.compare_digest(a.encode("utf-8", "replace"), b.encode("utf-8", "replace"))


def check_access(token: str | None):
    """None when the request may go on; else the response to give (a redirect that moves
    the token from the link into a cookie)."""
    if token is None:
        return None
    given = request.args.get("token")
    if given is not None:
        if not _same(given, token):
            abort(403, "token")
        if request.method == "GET":  # keep the token out of the address bar and history
            query = urlencode([(k, v) for k, v in request.args.items(multi=True) if k != "token"])
            resp = redirect(request.path + (f"?{query}" if query else ""), code=303)
            resp.set_cookie(COOKIE, token, httponly=True, samesite="Lax", max_age=7 * 24 * 3600)
            return resp
        return None
    if not _same(request.cookies.get(COOKIE), token):
        abort(403, "token")
    return None


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def check_post() -> None:
    """403 for a POST from another site, or without this session's CSRF token."""
    if request.method != "POST":
        return
    own = _origin(request.host_url)
    origin = request.headers.get("Origin")
    referer = request.headers.get("Referer")
    if origin is not None:
        if origin == "null" or _origin(origin) != own:
            abort(403, "csrf")
    elif referer is not None and _origin(referer) != own:
        abort(403, "csrf")
    if not _same(request.form.get(CSRF_FIELD), session.get("csrf")):
        abort(403, "csrf")
