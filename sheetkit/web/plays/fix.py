"""Fixing an earlier move of a play on the page, for every game whose `Entry` says how
(`moves`: the moves entered, each with its form; `replace_move`: the records with move n
replaced).

`GET /play/<id>/fix/<n>`: move n's form, prefilled as it was entered (the game's own move
form, `<game>/move_form.html`, the one the entry screen shows). `POST /play/<id>/fix/<n>`
("Check"): the play checked with move n replaced, nothing saved: the new verdict, and every
later move that no longer fits, with its finding. `POST /play/<id>/fix/<n>/save`: one step
of the play (`plays.step`), carrying the CSRF token and the play's version as every step
does: a version that is no longer the play's is refused (409), nothing saved. A move number
that is not one of the play's moves is 404; a play that is over has nothing to fix (409).
"""

from __future__ import annotations

from flask import abort, redirect, render_template, request

from sheetkit.errors import UserError
from sheetkit.web.plays.routes import PAGE_HEADER

MOST_FIELDS = 64  # a move form has a dozen fields: what the Save form carries of the checked one
LONGEST_VALUE = 400


def sent(form) -> list[tuple[str, str]]:
    """The fields of the checked move's form (not the token, the version or the move number),
    carried by the Save form as they were sent."""
    out = []
    for k in form:
        if k in ("csrf", "version", "fix") or len(k) > 40:
            continue
        v = form.get(k, "")
        if isinstance(v, str) and len(v) <= LONGEST_VALUE:
            out.append((k, v))
    return out[:MOST_FIELDS]


def register(app, store, t, lang, view) -> None:
    """`store()`: the request's history; `t`, `lang`, `view` as routes.register has them."""
    from sheetkit.forms import Words
    from sheetkit.history.store import StalePlay
    from sheetkit.web import plays
    from sheetkit.web.plays.routes import play_or_404

    def words():
        return Words(lang())

    def opened(play_id: int, n: int):
        """(play, entry, position, moves) of a play in progress whose move n can be fixed;
        404 when there is no such move to fix."""
        play = play_or_404(store(), play_id)
        game = plays.game_of(play.game)
        e = game.entry if game is not None else None
        if e is None or e.replace_move is None or e.moves is None:
            abort(404)
        position = plays.load(store(), play, t)
        moves = e.moves(position, words())
        if not 1 <= n <= len(moves):
            abort(404)
        return play, game, position, moves

    def page(play, game, position, moves, n, form, version, *, checked=None, later=None, error=None, code=200):
        e = game.entry
        ctx = e.view(position, words(), lang(), {**form, "fix": str(n)})
        return render_template("play_fix.html", play=play, game=game, n=n, fix=moves[n - 1], v=form,
                               version=version, move_form=e.template.rsplit("/", 1)[0] + "/move_form.html",
                               checked=checked, later=later, sent=sent(request.form) if checked is not None else [],
                               error=error, **ctx), code, {PAGE_HEADER: f"/play/{play.id}/fix/{n}"}

    def finished(play_id: int):
        play = play_or_404(store(), play_id)
        if not play.in_progress:
            return render_template("error.html", title=t("fix"), text=t("err_finished"), code=409), 409
        return None

    @app.get("/play/<int:play_id>/fix/<int:n>")
    def play_fix(play_id: int, n: int):
        play = play_or_404(store(), play_id)
        if not play.in_progress:
            return redirect(f"/play/{play_id}/end", code=303)
        play, game, position, moves = opened(play_id, n)
        return page(play, game, position, moves, n, dict(moves[n - 1]["form"]), play.version)

    @app.post("/play/<int:play_id>/fix/<int:n>")
    def play_fix_check(play_id: int, n: int):
        """The play checked with move n replaced by the form's: nothing is saved."""
        refused = finished(play_id)
        if refused is not None:
            return refused
        play, game, position, moves = opened(play_id, n)
        form = dict(sent(request.form))
        version = request.form.get("version", "")
        e = game.entry
        try:
            results = plays.check(play.game, e.replace_move(position, n, request.form, words()), play.id, prior=position)
        except UserError as err:  # a FormError too: its sentence
            return page(play, game, position, moves, n, form, version, error=plays.said(err), code=400)
        before = {m["n"]: m["findings"] for m in moves}
        later = [m for m in e.moves(results, words())
                 if m["n"] > n and m["findings"] and any(f not in before.get(m["n"], []) for f in m["findings"])]
        return page(play, game, position, moves, n, form, version,
                    checked=[view(r.verdict, lang(), play=True) for r in results], later=later)

    @app.post("/play/<int:play_id>/fix/<int:n>/save")
    def play_fix_save(play_id: int, n: int):
        """The fix saved: one step of the play, at the version the page showed."""
        refused = finished(play_id)
        if refused is not None:
            return refused
        play, game, position, moves = opened(play_id, n)
        form = dict(sent(request.form))
        e = game.entry
        try:
            plays.step(store(), play, request.form.get("version", ""),
                       lambda pos: e.replace_move(pos, n, request.form, words()), t)
        except StalePlay:
            play = store().get(play_id)  # the play as it is now: its move n, if it still has one
            now = e.moves(position := plays.load(store(), play, t), words()) if play.in_progress else []
            if n > len(now):
                return render_template("error.html", title=t("fix"), text=t("err_stale"), code=409), 409
            return page(play, game, position, now, n, form, play.version, error=t("err_stale"), code=409)
        except UserError as err:  # a FormError too: its sentence
            return page(play, game, position, moves, n, form, play.version, error=plays.said(err), code=400)
        return redirect(f"/play/{play_id}", code=303)
