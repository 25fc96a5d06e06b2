"""Who may use the page, and from where.

- The Host header: only the names this server is reached by (this machine's own, and the
  address `sheetkit serve` printed) are served; anything else is 421 before any route
  runs, so a page elsewhere cannot reach a server on this machine by DNS rebinding.
- The secret that signs sessions and forms is kept beside the play history (created
  once, readable by its owner only), so a restart keeps the open pages working; the
  access token is derived from it, so the printed link stays the same too.
- The access token: when the server listens beyond this machine, every request must carry
  the token printed by `sheetkit serve`, in the link (`?token=...`, then kept in a cookie)
  or in that cookie; otherwise 403.
- Cross-site requests: every POST carries the session's CSRF token in a hidden field, and
  its Origin (or, without one, its Referer) must be this server.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from flask import abort, redirect, request, session

COOKIE = "sheetkit_token"
CSRF_FIELD = "csrf"
LOOPBACK = ("localhost", "127.0.0.1", "[::1]")
SECRET_BYTES = 32


def new_token() -> str:
    return secrets.token_urlsafe(16)


def secret_path(db: str | os.PathLike) -> Path:
    """The server's secret beside the history file: history.sqlite3 -> history.sqlite3.key"""
    return Path(f"{os.fspath(db)}.key")


def kept_secret(db: str | os.PathLike, renew: bool = False) -> bytes:
    """The secret kept with the history `db`: read, or made once (owner-only, written whole
    under a temporary name, then linked into place: two servers starting at once agree).
    `renew`: a new secret, which ends every open page and the printed link. OSError when
    the history's folder cannot hold it."""
    path = secret_path(db)
    if not renew:
        kept = _read_secret(path)
        if kept is not None:
            return kept
    data = secrets.token_bytes(SECRET_BYTES)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if renew or os.path.lexists(path):  # a new secret asked for, or a damaged one replaced
            os.replace(tmp, path)
        else:
            try:
                os.link(tmp, path)
            except FileExistsError:  # another server made it meanwhile: theirs is the one
                pass
    finally:
        tmp.unlink(missing_ok=True)
    return _read_secret(path) or data


def _read_secret(path: Path) -> bytes | None:
    try:
        with open(path, "rb") as f:
            data = f.read(SECRET_BYTES + 1)
    except FileNotFoundError:
        return None
    return data if len(data) == SECRET_BYTES else None


def token_from(secret: bytes) -> str:
    """The access token of a server with this secret: the same across restarts."""
    digest = hmac.new(secret, b"sheetkit access token", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode("ascii").rstrip("=")


def allowed_hosts(port: int | None, printed: tuple[str, ...] = ()) -> frozenset[str]:
    """The Host headers a server answers: this machine's own names and the addresses it
    printed for phones, each with the port; a name alone (any port) when `port` is None,
    for a server whose port the system chose."""
    names = set(LOOPBACK) | {f"[{h}]" if ":" in h and not h.startswith("[") else h.lower() for h in printed}
    if port is None:
        return frozenset(names)
    return frozenset(f"{n}:{port}" for n in names) | (frozenset(names) if port == 80 else frozenset())


def check_host(hosts: frozenset[str]) -> None:
    """421 for a request whose Host header is not one of this server's names."""
    host = request.headers.get("Host", "").strip().lower()
    name = host.rsplit(":", 1)[0] if host.rsplit("]", 1)[-1].count(":") == 1 else host  # without its port
    if host not in hosts and name not in hosts:
        abort(421, "host")


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
