"""Deleting and abandoning a play from the page, and every play in progress reachable.

- `POST /play/<id>/delete`: the play is gone from the history (Store.delete), with its
  records, seats and photos.
- `POST /play/<id>/abandon`: a play in progress is kept as it stands, marked abandoned
  (Store.abandon): it never counts in the standings, is not listed as in progress and is
  not offered to resume. Its pages then show it as it stood (the end page, marked
  abandoned, with its downloads and "Delete this play"); nothing more can be entered into
  it (a step sent from an old tab is refused, 409).
- `GET /plays/in-progress`: every play in progress, newest first (the home page lists the
  newest 20 and links here when there are more).

Each POST is asked once on the page (a `<details>` with a confirm button, no script) and
carries the session's CSRF token (checked for every POST by sheetkit.web.security) and the
play's `version`, as every step does: a form from a page that is no longer current is
refused with the play as it is now (409), nothing changed. After it, the browser goes to
the home page (303) with a notice.
"""

from __future__ import annotations

import re
from pathlib import Path

from flask import abort, flash, g, make_response, redirect, render_template, request

from sheetkit import games
from sheetkit.history.schema import HistoryError
from sheetkit.web import plays
from sheetkit.web.plays import routes

# the routes of one play that enter something into it, or show it to be continued
_PLAY_ROUTE = re.compile(r"/(play|photo)/([0-9]{1,19})(?:/(move|undo|end|fields|text))?\Z")


def register(app, path: Path, t, lang, view) -> None:
    """The routes above, over the history at `path`; `t`, `lang` and `view` as for
    routes.register."""
    from sheetkit.history.store import StalePlay

    def store():
        return routes.request_store(path)

    @app.context_processor
    def manage_context():
        # the refused delete or abandon, shown inside its own box, opened (play_base.html, play_end.html)
        return {"manage_error": g.get("manage_error"), "manage_open": g.get("manage_open")}

    def end_page(play, code: int = 200):
        """An abandoned play's page: the end page of the play as it stood."""
        from sheetkit.history import exports

        n = len(play.sheets)
        names = [plays.source_name(play.game, play.id, s.player, i, n) for i, s in enumerate(play.sheets)]
        sheets = [{"n": i + 1, "name": names[i], "player": s.player, "view": routes.view_json(s.verdict, lang(), t),
                   "pdf": routes._loaded(s.text, names[i], t) is not None} for i, s in enumerate(play.sheets)]
        e = plays.entry_of(play.game)
        known = play.game in {x.name for x in games.all_games()}
        link = exports.bgstats_link(play)
        return render_template("play_end.html", play=play, game=games.get(play.game) if known else None,
                               sheets=sheets, table=n > 1 and e is not None and e.table_text is not None,
                               ranking=routes.ranking(play), breakdown=routes.breakdown(sheets), bgstats=link,
                               bgstats_qr=routes.qr_svg(link), counted=False), code

    def as_now(play_id: int, error: str, which: str | None):
        """The play as it is now, with the one line of a refused request (409): its
        entry screen while in progress, else its end page; `which` box opened."""
        g.manage_error, g.manage_open = error, which
        play = routes.play_or_404(store(), play_id)
        if play.abandoned:
            resp = make_response(end_page(play))
        else:
            shown = app.view_functions.get(  # routes.py's: the entry screen, or the end page
                "play_page" if play.in_progress and plays.entry_of(play.game) else "play_end_page")
            resp = make_response(shown(play_id=play_id)) if shown else None
        if resp is None or resp.status_code != 200:  # a draft read from a photo has its own screen: say it plainly
            title = games.get(play.game).title if play.game in {x.name for x in games.all_games()} else t("error")
            return render_template("error.html", title=title, text=error, code=409), 409
        resp.status_code = 409
        return resp

    @app.before_request
    def closed_when_abandoned():
        """An abandoned play is shown as it stood and takes no more steps: its entry screen
        leads to its end page, a step sent to it (an old tab) is refused, 409."""
        m = _PLAY_ROUTE.match(request.path)
        if m is None or int(m.group(2)) > routes.MAX_ID or not path.is_file():
            return None
        play_id = int(m.group(2))
        found = store().plays(ids=[play_id])
        if not found or not found[0].abandoned:
            return None
        if request.method == "POST":  # the end page, named so (routes.PAGE_HEADER) for the page's script
            g.manage_error = t("err_abandoned")
            body, code = end_page(store().get(play_id), 409)
            return body, code, {routes.PAGE_HEADER: f"/play/{play_id}/end"}
        if m.group(1) == "play" and m.group(3) == "end":
            return end_page(store().get(play_id))
        return redirect(f"/play/{play_id}/end", code=303)

    def managed(play_id: int, what: str, act, notice: str):
        """Delete or abandon at the version the page showed; the play as it is now when another
        phone changed it meanwhile, nothing done."""
        try:
            act(request.form.get("version", ""))
        except StalePlay:
            return as_now(play_id, t("err_stale_manage"), what)
        except HistoryError as e:
            gone(e)
        flash(t(notice, n=play_id), "notice")
        return redirect("/", code=303)

    @app.post("/play/<int:play_id>/delete")
    def play_delete(play_id: int):
        routes.play_or_404(store(), play_id)
        return managed(play_id, "delete", lambda v: store().delete(play_id, expect=v), "deleted_notice")

    @app.post("/play/<int:play_id>/abandon")
    def play_abandon(play_id: int):
        play = routes.play_or_404(store(), play_id)
        if not play.open:
            return as_now(play_id, t("err_not_abandonable"), None)
        return managed(play_id, "abandon", lambda v: store().abandon(play_id, expect=v), "abandoned_notice")

    @app.get("/plays/in-progress")
    def plays_in_progress():
        return render_template("home.html", unfinished=routes.unfinished(path, limit=None), everything=True)


def gone(e: HistoryError):
    """404 for a play deleted meanwhile (by another phone, or `sheetkit delete`); else e."""
    if str(e).startswith("no play"):
        abort(404)
    raise e
