"""The routes of the score-keeper: the games, their quick tallies, checking a record."""

from __future__ import annotations

import os
import re
import secrets
import tempfile

from flask import Flask, Response, abort, g, render_template, request, session
from flask.templating import Environment as FlaskEnvironment
from werkzeug.exceptions import HTTPException

from sheetkit import games
from sheetkit.errors import UserError
from sheetkit.web import i18n, inputs, photo, security
from sheetkit.web.inputs import FormError
from sheetkit.web.views import _sheets, _view

MAX_BODY = 256 * 1024  # a record is a few kB; the largest form well under 64 kB
_HERE = os.path.dirname(os.path.abspath(__file__))

# The only files the page serves, by fixed name: nothing in a request names a file.
STATIC = {"style.css": ("text/css; charset=utf-8", os.path.join(_HERE, "static", "style.css")),
          # a play's steps without reloading the page (the forms work without it)
          "steps.js": ("text/javascript; charset=utf-8", os.path.join(_HERE, "static", "steps.js")),
          # to keep the page on a phone's home screen (scripts/make_icons.py draws them)
          "manifest.webmanifest": ("application/manifest+json", os.path.join(_HERE, "static", "manifest.webmanifest")),
          **{name: (mime, os.path.join(_HERE, "static", name)) for name, mime in (
              ("icon.svg", "image/svg+xml"), ("icon-180.png", "image/png"), ("icon-192.png", "image/png"),
              ("icon-512.png", "image/png"), ("favicon.ico", "image/x-icon"))}}


def _game_scripts(pages: dict[str, str]) -> dict[str, tuple[str, str]]:
    """The scripts of the games' own pages, served as /static/<game>/<file>."""
    kinds = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
    out = {}
    for name, folder in pages.items():
        for f in sorted(os.listdir(folder)):
            mime = kinds.get(os.path.splitext(f)[1])
            if mime:
                out[f"/static/{name}/{f}"] = (mime, os.path.join(folder, f))
    return out


def _fonts() -> dict[str, tuple[str, str]]:
    from sheetkit.resources import font_path

    return {os.path.basename(font_path(b)): ("font/ttf", font_path(b)) for b in (False, True)}


class _Environment(FlaskEnvironment):
    """Flask's template environment, with `row.n` of a view's dict found as its key at once:
    Jinja asks for an attribute first and takes the key after the AttributeError, and a
    page lists every move of a long game, each row a dict. The same answer as Jinja's: a
    key that is also a dict's method (`items`) is still the method."""

    def getattr(self, obj, attribute):
        if type(obj) is dict and attribute in obj and not hasattr(dict, attribute):
            return obj[attribute]
        return super().getattr(obj, attribute)


def create_app(*, token: str | None = None, secret_key: bytes | None = None, db: str | os.PathLike | None = None,
               hosts: frozenset[str] | None = None) -> Flask:
    """`token`: the access token every request must carry (None: no token, for a server
    that listens on this machine only). `db`: the play history's file (None: the history's
    default place, as the history commands find it); the secret that signs sessions and
    forms is kept beside it (`secret_key` overrides). `hosts`: the Host headers served
    (security.allowed_hosts; default this machine's own names, on any port)."""
    app = Flask(__name__, static_folder=None, template_folder=os.path.join(_HERE, "templates"))
    app.jinja_environment = _Environment
    # a game's own page templates and scripts, named "<game>/..." (its Game.page_files)
    from jinja2 import ChoiceLoader, FileSystemLoader, PrefixLoader

    pages = {g.name: g.page_files for g in games.all_games() if g.page_files}
    app.jinja_loader = ChoiceLoader([FileSystemLoader(os.path.join(_HERE, "templates")),
                                     PrefixLoader({name: FileSystemLoader(folder) for name, folder in pages.items()})])
    from sheetkit.web.rows import kept_rows

    app.jinja_env.globals["kept_rows"] = kept_rows  # a play's list of moves, each row's HTML kept
    if secret_key is None and db is not None:
        try:
            secret_key = security.kept_secret(db)
        except OSError as e:  # a history folder that cannot hold it: this run's own secret
            app.logger.warning("sheetkit: the page's secret cannot be kept beside %s (%s): "
                               "open pages will need reloading after a restart", db, e.strerror or e)
    served = hosts if hosts is not None else security.allowed_hosts(None)
    app.config.update(
        SECRET_KEY=secret_key or secrets.token_bytes(32),
        MAX_CONTENT_LENGTH=MAX_BODY,
        MAX_FORM_MEMORY_SIZE=MAX_BODY,
        MAX_FORM_PARTS=400,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        TEMPLATES_AUTO_RELOAD=False,
    )
    files = {**{f"/static/{k}": v for k, v in STATIC.items()}, **{f"/font/{k}": v for k, v in _fonts().items()},
             "/favicon.ico": STATIC["favicon.ico"],  # asked for by browsers whatever the page says
             **_game_scripts(pages)}
    blobs = {}
    for url, (mime, path) in files.items():
        with open(path, "rb") as f:
            blobs[url] = (mime, f.read())

    @app.before_request
    def guard():
        security.check_host(served)  # before anything else: no route, no static file, no session
        resp = security.check_access(token)
        if resp is not None:
            return resp
        lang = request.args.get("lang")
        if lang in i18n.LANGS:
            session["lang"] = lang
        if request.method == "POST" and request.path in photo.UPLOADS:
            request.max_content_length = photo.PHOTO_MAX  # a phone photo; before the form is read
        security.check_post()
        return None

    @app.after_request
    def headers(resp: Response):
        resp.headers["Content-Security-Policy"] = (
            "default-src 'self'; img-src 'self' data:; style-src 'self'; font-src 'self'; script-src 'self'; "
            "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
        resp.headers["X-Content-Type-Options"] = "nosniff"
        resp.headers["X-Frame-Options"] = "DENY"
        resp.headers["Referrer-Policy"] = "same-origin"
        resp.headers.setdefault("Cache-Control", "no-store")
        return resp

    def lang() -> str:
        return i18n.page_lang()

    def t(key: str, **kw) -> str:
        return i18n.label(lang(), key, **kw)

    @app.context_processor
    def context():
        rule = request.url_rule
        # the page shown (a step answered with the play's page names it), else this GET's
        here = g.get("here") or (request.path if rule is not None and "GET" in (rule.methods or ()) else "/")
        from sheetkit.history.store import MAX_NAME

        return {"t": t, "lang": lang(), "other_lang": "en" if lang() == "es" else "es", "here": here,
                "csrf_token": security.csrf_token, "games": games.all_games(), "max_name": MAX_NAME}

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):
        code = e.code or 500
        if code == 421:
            title, text = t("wrong_host"), t("wrong_host_text")
        elif code == 403:
            title, text = t("forbidden"), t("forbidden_csrf" if e.description == "csrf" else "forbidden_token")
        elif code == 413 and request.path in photo.UPLOADS:
            title, text = t("too_large"), t("ph_too_large", mb=photo.PHOTO_MAX // 2 ** 20)
        elif code == 413:
            title, text = t("too_large"), t("too_large_text", kb=MAX_BODY // 1024)
        elif code == 404:
            title, text = t("not_found"), ""
        elif code == 405:
            title, text = t("not_found"), t("bad_method")
        else:
            title, text = t("error"), e.name
        return render_template("error.html", title=title, text=text, code=code), code

    @app.errorhandler(Exception)
    def fault(e: Exception):  # a bug of ours: one line on the page, never a stack trace
        app.logger.exception("fault")
        return render_template("error.html", title=t("error"), code=500,
                               text=f"internal error ({type(e).__name__}); please report it"), 500

    for url in blobs:
        def serve(url=url):
            mime, data = blobs[url]
            resp = Response(data, mimetype=mime)
            resp.headers["Cache-Control"] = "max-age=3600"
            return resp
        app.add_url_rule(url, f"file{url}", serve)

    @app.get("/")
    def home():
        from sheetkit.web.plays import routes as play_routes

        return render_template("home.html", unfinished=play_routes.unfinished(db))

    from sheetkit.web.plays import routes as play_routes

    play_routes.register(app, db, t, lang, _view)
    from sheetkit.web.plays import fix, manage

    fix.register(app, play_routes.request_store_of(db), t, lang, _view)  # an earlier move fixed: /play/<id>/fix/<n>
    manage.register(app, play_routes.db_path(db), t, lang, _view)  # delete, abandon, every play in progress
    photo.register(app, db, t, lang, _view)  # reading a sheet from a phone photo
    from sheetkit.web import padphoto

    padphoto.register(app, db, t, lang, _view)  # reading a score pad from a phone photo

    # --- quick tallies: every game's the same way ---------------------------------------

    def tally_form(name: str):
        game = next((g for g in games.all_games() if g.name == name and g.tally_form is not None), None)
        if game is None:
            abort(404)
        return game, game.tally_form

    def tally_page(game, form, outcome=None, error=None, notice=None, step=None):
        from sheetkit.forms import Words

        words = Words(lang())
        extra = form.context(request.values, session, words, step=step, refused=error is not None)
        return render_template(form.template, game=game, v=request.form if step is None else {}, outcome=outcome,
                               error=error, notice=notice, result=_view(outcome.verdict, lang()) if outcome else None,
                               **extra), (200 if error is None else 400)

    @app.route("/tally/<name>", methods=["GET", "POST"])
    def tally(name: str):
        from sheetkit.forms import Words

        game, form = tally_form(name)
        if request.method == "GET":
            return tally_page(game, form)
        try:
            return tally_page(game, form, form.score(request.form, session, Words(lang())))
        except UserError as e:  # a FormError too: its sentence
            return tally_page(game, form, error=e.line(lang()))

    @app.post("/tally/<name>/<step>")
    def tally_step(name: str, step: str):
        from sheetkit.forms import Words

        game, form = tally_form(name)
        if step not in form.steps:
            abort(404)
        try:
            notice = form.steps[step](request.form, session, Words(lang()))
        except FormError as e:
            return tally_page(game, form, error=str(e), step=step)
        return tally_page(game, form, notice=notice, step=step)

    # --- checking a record ----------------------------------------------------------------

    def record_from_request() -> tuple[bytes, str]:
        upload = request.files.get("record")
        text = request.form.get("text", "")
        has_file = upload is not None and upload.filename
        if has_file and text.strip():
            raise FormError(t("err_both"))
        if has_file:
            return upload.read(MAX_BODY + 1), inputs.safe_source(upload.filename)
        if text.strip():
            return text.encode("utf-8", "surrogatepass"), "pasted record"
        raise FormError(t("err_nothing"))

    @app.route("/check", methods=["GET", "POST"])
    def check():
        if request.method == "GET":
            return render_template("check.html", v={}, error=None, result=None)
        try:
            raw, source = record_from_request()
            loaded, checked = inputs.parse_record(raw, source, t)
        except FormError as e:
            return render_template("check.html", v=request.form, error=str(e), result=None), 400
        sheets = _sheets(loaded, checked, lang())
        return render_template("check.html", v={}, error=None, result=_view(checked.verdict, lang()),
                               record=raw.decode("utf-8-sig"), source=source, sheets=sheets,
                               has_pdf=loaded.kind.overlay is not None)

    @app.post("/download/record")
    def download_record():
        text = request.form.get("record", "").replace("\r\n", "\n")  # browsers send form text with CRLF
        name = _filename(request.form.get("source", ""), ".toml")
        return Response(text, mimetype="application/toml",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    @app.post("/download/pdf")
    def download_pdf():
        from sheetkit.paper.printing import write_pdf

        source = inputs.safe_source(request.form.get("source", ""))
        try:
            loaded, checked = inputs.parse_record(request.form.get("record", "").replace("\r\n", "\n").encode("utf-8", "surrogatepass"),
                                                  source, t)
        except FormError as e:
            return render_template("check.html", v={}, error=str(e), result=None), 400
        if loaded.kind.overlay is None:
            abort(404)
        scene = loaded.kind.overlay(loaded.record, checked, "a4", lang())
        with tempfile.TemporaryDirectory(prefix="sheetkit-web-") as tmp:
            out = write_pdf(scene, os.path.join(tmp, "checked.pdf"))
            data = out.read_bytes()
        return Response(data, mimetype="application/pdf", headers={
            "Content-Disposition": f'attachment; filename="{_filename(source, "-checked.pdf")}"'})

    return app


def _filename(source: str, suffix: str) -> str:
    """A download's name from the record's: letters, digits, - and _ only."""
    stem = re.sub(r"\.toml$", "", inputs.safe_source(source))
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", stem).strip("-")[:40] or "record"
    return stem + suffix
