"""The routes of plays entered on the page: start, open a record, the entry screen, a move,
undo, end, the end page and the downloads.

Every step is one POST that carries the session's CSRF token and the play's `version` (as
the page showed it): a step sent from a page that is no longer current (another phone
entered a move meanwhile) is refused with the play as it is now, nothing saved. After a
step the browser is sent to the play's page (303), so reloading never enters a move twice;
a step the page's script sent (STEP_HEADER) is answered with that page itself, whose
address it then shows (PAGE_HEADER).

The history is opened once per request (a Store is for one thread at a time).
"""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path
from typing import Any

from flask import Response, abort, g, redirect, render_template, request

from sheetkit import games
from sheetkit.errors import UserError
from sheetkit.history.schema import HistoryError
from sheetkit.web import inputs, plays
from sheetkit.web.inputs import FormError

MAX_SLOTS = 4
MAX_ID = 2 ** 62  # beyond any play number SQLite hands out
STEP_HEADER = "X-Sheetkit-Step"  # sent by the page's script (static/steps.js) with a step's form
PAGE_HEADER = "X-Sheetkit-Page"  # the address of the entry screen answered, for the script to show


def chosen(game, values, mark: str = "on") -> dict[str, str]:
    """The view's choices (Entry.kept) that `values` mark ("on" in a form, "1" in an
    address), as the entry screen's form takes them."""
    return {k: "on" for k in (game.entry.kept if game else ()) if values.get(k) == mark}


def page_address(play, game, form) -> str:
    """The address of a play's entry screen with the view's choices in `form` (Entry.kept)."""
    from urllib.parse import urlencode

    kept = {k: "1" for k in chosen(game, form)}
    return f"/play/{play.id}" + (f"?{urlencode(kept)}" if kept else "")


def db_path(db: str | Path | None) -> Path:
    from sheetkit.history.schema import default_path

    return Path(db) if db else default_path()


def unfinished(db: str | Path | None, limit: int | None = 20) -> list:
    """The plays still in progress that the page can continue, newest first, at most
    `limit` (None: every one), abandoned plays not among them; `.total` says how many
    there are in all (OpenPlays). None (and no history file created) when there is
    no history yet."""
    from sheetkit.history.store import Store

    path = db_path(db)
    if not path.is_file():
        return OpenPlays()
    with Store.open(path) as store:
        return open_plays(store, {g_.name for g_ in plays.offered()}, limit)


class OpenPlays(list):
    """The plays in progress shown, newest first; `total`: how many there are in all."""

    total = 0


def open_plays(store, names: set[str], limit: int | None) -> OpenPlays:
    """The plays still being played of the games `names`, newest first, at most `limit`."""
    found = [p for p in store.plays(in_progress=True) if p.game in names]
    out = OpenPlays(found[:limit] if limit else found)
    out.total = len(found)
    return out


def request_store_of(db: str | Path | None):
    """`store()` for the routes of other modules: the request's history, opened once."""
    path = db_path(db)
    return lambda: request_store(path)


class Stores:
    """Open histories kept between requests. Opening one costs a connection, its pragmas
    and the schema's check; closing the last connection of a WAL file costs a checkpoint
    and an fsync: both on every request otherwise. A kept one is given out again only
    while the file at its path is still the one it opened (its open file keeps that inode
    from being reused, so a history replaced or deleted is opened anew) and never inside a
    transaction; at most `most` are kept in all, the least recently given back closed.

    The page's connections commit with `synchronous = FULL`: a step the phone is told is
    saved is on disk (its log fsynced), whatever happens to the machine next. The log is
    checkpointed into the file once the page has been idle for `settle` seconds (no history
    given out, no write since), by a thread of its own through a kept connection, so the
    file alone is a whole copy of the history whenever the page is idle (docs/history.md:
    copying it then is a backup), and a step does not wait for the checkpoint's fsyncs."""

    def __init__(self, most: int = 8, settle: float = 0.5):
        self.most = most
        self.settle = settle
        self._idle: list[tuple[str, tuple[int, int], object]] = []
        self._changes: dict[int, int] = {}  # a store given out: its connection's changes then
        self._lock = threading.Lock()
        self._woken = threading.Condition(self._lock)
        self._out = 0  # histories given out now
        self._written: dict[str, float] = {}  # a path written to and not checkpointed since: when
        self._checkpointer: threading.Thread | None = None

    @staticmethod
    def _identity(path: Path) -> tuple[int, int] | None:
        try:
            st = path.stat()
        except OSError:
            return None
        return (st.st_dev, st.st_ino)

    def take(self, path: Path):
        here = self._identity(path)
        while True:
            with self._lock:
                got = self._pop_idle(str(path))
                self._out += 1
            try:
                store = open_for_page(path) if got is None else got[2]
            except BaseException:
                self._returned(None, wrote=False)
                raise
            if got is None or (got[1] == here and not store.db.in_transaction):
                self._changes[id(store)] = store.db.total_changes
                return store
            self._returned(None, wrote=False)
            store.close()

    def _pop_idle(self, path: str):
        """The kept (path, identity, store) of `path` given back last, taken out; else None.
        Called with the lock held."""
        i = next((i for i in range(len(self._idle) - 1, -1, -1) if self._idle[i][0] == path), None)
        return self._idle.pop(i) if i is not None else None

    def give_back(self, store, failed: bool) -> None:
        ident = self._identity(store.path)
        wrote = store.db.total_changes != self._changes.pop(id(store), None)
        self._returned(store.path, wrote)
        if failed or ident is None or store.db.in_transaction:
            store.close()
            return
        with self._lock:
            self._idle.append((str(store.path), ident, store))
            spill = self._idle[:-self.most] if len(self._idle) > self.most else []
            del self._idle[:len(spill)]
        for _, _, old in spill:
            old.close()

    def _returned(self, path: Path | None, wrote: bool) -> None:
        with self._lock:
            self._out -= 1
            if wrote:
                self._written[str(path)] = time.monotonic()
                if self._checkpointer is None:
                    self._checkpointer = threading.Thread(target=self._checkpoint_when_idle, daemon=True,
                                                          name="sheetkit-checkpoint")
                    self._checkpointer.start()
            self._woken.notify_all()

    def _checkpoint_when_idle(self) -> None:
        while True:
            with self._lock:
                while True:
                    wait = None if not self._written else (
                        max(self._written.values()) + self.settle - time.monotonic())
                    if self._written and self._out == 0 and wait <= 0:
                        break
                    self._woken.wait(None if wait is None or self._out else wait)  # a give-back wakes it
                begun, paths = time.monotonic(), list(self._written)
            for path in paths:
                self._checkpoint(path)
            with self._lock:  # a write given back meanwhile waits for the next idle moment
                self._written = {p: at for p, at in self._written.items() if at > begun}
                self._woken.notify_all()

    def settled(self, timeout: float = 10.0) -> bool:
        """Wait until every history written to is checkpointed (the page idle for `settle`
        seconds): True, or False after `timeout` seconds."""
        end = time.monotonic() + timeout
        with self._lock:
            self._woken.notify_all()  # the checkpointer looks at `settle` again
            while self._written:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._woken.wait(left)
        return True

    def _checkpoint(self, path: str) -> None:
        """The log of the history at `path` written into its file, through a kept connection
        still on the file at that path: a connection opened anew could pair another file (a
        history put back by hand meanwhile) with the log beside it. None kept: closing the
        last one checkpointed it. A failure is the next request's to say; the thread goes on."""
        with self._lock:
            got = self._pop_idle(path)
        if got is None:
            return
        try:
            if got[1] == self._identity(Path(path)) and not got[2].db.in_transaction:
                got[2].db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except Exception:  # noqa: BLE001 (a damaged or vanished file, whatever it raises)
            pass
        with self._lock:
            self._idle.append(got)

    def close_all(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for _, _, store in idle:
            store.close()


def open_for_page(path: Path):
    """A history opened for the page: its commits fsynced (the phone is told a step is saved
    only once it is on disk)."""
    from sheetkit.history.store import Store

    store = Store.open(path)
    try:
        store.db.execute("PRAGMA synchronous = FULL")
    except BaseException:
        store.close()
        raise
    return store


STORES = Stores()


def request_store(path: Path):
    """The history of the request being answered, taken once (given back when it ends)."""
    if "store" not in g:
        g.store = STORES.take(path)
    return g.store


def play_or_404(store, play_id: int):
    """The play of that number; 404 when the history has none."""
    if play_id > MAX_ID:
        abort(404)
    try:
        return store.get(play_id)
    except HistoryError as e:
        if str(e).startswith("no play"):
            abort(404)
        raise


def register(app, db: str | Path | None, t, lang, view) -> None:
    from sheetkit.web.views import sheets as sheet_svgs

    """`t(key, **kw)`: the page's words; `lang()`: its language; `view(verdict, lang)`: what
    the result partial shows of a verdict."""
    from sheetkit.history.store import StalePlay, Store, now

    path = db_path(db)
    app.jinja_env.filters["title_of"] = lambda name: games.get(name).title if name in {x.name for x in games.all_games()} else name

    def store() -> Store:
        return request_store(path)

    @app.teardown_appcontext
    def give_back_store(exc):
        s = g.pop("store", None)
        if s is not None:
            STORES.give_back(s, failed=exc is not None)

    @app.errorhandler(HistoryError)
    def history_error(e: HistoryError):
        return render_template("error.html", title=t("history_error"), text=str(e), code=503), 503

    @app.errorhandler(plays.Unusable)
    def unusable(e: plays.Unusable):  # a play's stored text the page cannot read: nothing to enter into
        title = games.get(e.play.game).title if e.play.game in {x.name for x in games.all_games()} else t("error")
        return render_template("error.html", title=title, code=409,
                               text=t("err_unusable", n=e.play.id, why=e.why)), 409

    def get_play(play_id: int):
        return play_or_404(store(), play_id)

    def people() -> list[str]:
        return [p.name for p in store().people()] if path.is_file() else []

    # --- starting a play ------------------------------------------------------------------

    def words():
        """The page's words for the games' own code (its t, with t.lang)."""
        from sheetkit.forms import Words

        return Words(lang())

    def start_page(game=None, error=None, code=200):
        entry = game.entry if game else None
        extra = entry.start_context(store() if path.is_file() else None, words()) if entry and entry.start_context else {}
        return render_template("play_new.html", offered=plays.offered(), game=game, entry=entry, v=request.form,
                               people=people(), slots=range(most_players(entry)), error=error,
                               extra=entry.start_template if entry else None, start_context=extra), code

    def chosen_game(value) -> Any:
        if value is None:
            return None
        game = plays.game_of(value)
        if game is None:
            raise FormError(t("err_choice", field=t("game")))
        return game

    @app.get("/play/new")
    def play_new():
        try:
            game = chosen_game(request.args.get("game"))
        except FormError as e:
            return start_page(None, str(e), 400)
        return start_page(game)

    @app.post("/play/new")
    def play_new_post():
        try:
            game = chosen_game(request.form.get("game", ""))
        except FormError as e:
            return start_page(None, str(e), 400)
        try:
            start = read_start(game, request.form, t, store())
            with store().transaction():  # what the start keeps (a deck) and the play: both or neither
                records = game.entry.new_records(start, words())
                play_id = plays.start(store(), game.name, records, now())
        except UserError as e:  # a FormError too: its sentence
            return start_page(game, plays.said(e), 400)
        return redirect(f"/play/{play_id}", code=303)

    @app.post("/play/open")
    def play_open():
        upload = request.files.get("record")
        try:
            if upload is None or not upload.filename:
                raise FormError(t("err_nothing_file"))
            raw = upload.read(app.config["MAX_CONTENT_LENGTH"] + 1)
            source = inputs.safe_source(upload.filename)
            loaded, _ = inputs.parse_record(raw, source, t)
            entry = plays.entry_of(loaded.game)
            if entry is None or entry.open_record is None:
                raise FormError(t("err_not_continued", game=games.get(loaded.game).title))
            from hashlib import sha256

            data = inputs.toml_text(raw, source, t)
            records = entry.open_record(data, request.form, words())
            # the same file opened again: the play it already is (as uploaded, or as first stored)
            for text in (raw.decode("utf-8-sig"), *(plays.text_of(d) for _, d in records)):
                known = store().find(sha256(text.encode("utf-8")).hexdigest())
                if known is not None:
                    return redirect(f"/play/{known}", code=303)
            play_id = plays.start(store(), loaded.game, records, now())
        except FormError as e:
            return start_page(None, str(e), 400)
        return redirect(f"/play/{play_id}", code=303)

    # --- the entry screen and its steps --------------------------------------------------

    def entry(play, error=None, code=200, form=None, position=None):
        """The play's entry screen; its address (with the view's choices) said in the
        PAGE_HEADER, also when it answers a step refused at the step's own address."""
        game = plays.game_of(play.game)
        if game is None:
            return render_template("error.html", title=games.get(play.game).title if play.game in
                                   {x.name for x in games.all_games()} else play.game,
                                   text=t("no_entry"), code=404), 404
        position = position if position is not None else plays.load(store(), play, t)
        form = form if form is not None else {}
        ctx = game.entry.view(position, words(), lang(), form)
        g.here = f"/play/{play.id}"  # the language switch leads to this page, whatever the request's address
        page = render_template(game.entry.template, play=play, game=game, results=position,
                               views=[view(r.verdict, lang(), play=True) for r in position], error=error, v=form,
                               version=play.version, **ctx)
        return page, code, {PAGE_HEADER: page_address(play, game, form)}

    def shown(play, form):
        """What the play's page shows: its entry screen, or where it leads (its end page, the
        confirm screen of a sheet read from a photo)."""
        if not play.in_progress:
            return redirect(f"/play/{play.id}/end", code=303)
        if store().photos(play.id):  # a sheet read from a photo: confirmed, not entered move by move
            return redirect(f"/photo/{play.id}", code=303)
        return entry(play, form=form)

    @app.get("/play/<int:play_id>")
    def play_page(play_id: int):
        play = get_play(play_id)
        return shown(play, chosen(plays.game_of(play.game), request.args, "1"))

    def again(play) -> str:
        """The entry screen after a step, with the view's choices as they were (Entry.kept)."""
        return page_address(play, plays.game_of(play.game), request.form)

    def do_step(play, change, then: str):
        """Apply `change` to the play's records (as open_for_steps read it: a play changed
        since is refused by its version) and save; then `then` (303), or the entry screen
        with the one message of a refused step (nothing saved). A step the page's script
        sent (STEP_HEADER) to go on to the play's page is answered with that page itself:
        one request a move, the page drawn once."""
        version = request.form.get("version", "")
        try:
            plays.step(store(), play, version, change, t)
        except StalePlay:
            # the view's choices kept; the move sent is not
            return entry(store().get(play.id), t("err_stale"), 409, chosen(plays.game_of(play.game), request.form))
        except UserError as e:  # a FormError, or the game's own code refusing a record field
            return entry(store().get(play.id), plays.said(e), 400, request.form)
        if request.headers.get(STEP_HEADER) == "1" and then == again(play):
            return shown(store().get(play.id), chosen(plays.game_of(play.game), request.form))
        return redirect(then, code=303)

    def open_for_steps(play_id: int):
        """(play, entry), or the response when nothing can be entered into it."""
        play = get_play(play_id)
        game = plays.game_of(play.game)
        if game is None:
            return play, None, entry(play)
        if not play.in_progress:
            return play, None, entry(play, t("err_finished"), 409)
        return play, game.entry, None

    @app.post("/play/<int:play_id>/move")
    def play_move(play_id: int):
        play, e, refused = open_for_steps(play_id)
        return refused or do_step(play, lambda pos: e.add_move(pos, request.form, words()), again(play))

    @app.post("/play/<int:play_id>/undo")
    def play_undo(play_id: int):
        play, e, refused = open_for_steps(play_id)
        return refused or do_step(play, lambda pos: e.undo(pos, words()), again(play))

    @app.post("/play/<int:play_id>/end")
    def play_end(play_id: int):
        play, e, refused = open_for_steps(play_id)
        if refused is not None:
            return redirect(f"/play/{play_id}/end", code=303) if plays.entry_of(play.game) else refused
        finish = e.finish or plays.finish_default
        return do_step(play, lambda pos: finish(pos, request.form, words()), f"/play/{play_id}/end")


    # --- the end page and the downloads --------------------------------------------------

    @app.get("/play/<int:play_id>/end")
    def play_end_page(play_id: int):
        from sheetkit.history import exports

        play = get_play(play_id)
        if play.in_progress and plays.entry_of(play.game) is not None:
            return redirect(f"/play/{play_id}", code=303)
        n = len(play.sheets)
        position = None
        if plays.entry_of(play.game) is not None:
            try:  # the records checked again (kept after the first time): said in the page's language
                position = plays.load(store(), play, t)
            except plays.Unusable:
                position = None  # a text the page cannot read: the verdicts kept, in their English
        ended = None
        if position is not None:  # why the game ended, when its rules ended it (the game's view says)
            try:
                ended = plays.entry_of(play.game).view(position, words(), lang(), {}).get("ended")
            except (AttributeError, KeyError, TypeError, UserError):  # records the page did not write
                ended = None  # (a table logged whole by the command line): no reason said
        sheets = []
        for i, s in enumerate(play.sheets):
            name = plays.source_name(play.game, play.id, s.player, i, n)
            if position is not None:
                r = position[i]
                shown, drawn = view(r.verdict, lang(), play=True), r.loaded.kind.overlay is not None
                final = sheet_svgs(r.loaded, r.checked, lang(), play=True) if drawn else []  # every page: a board drawn on the second too
            else:
                got = _loaded(s.text, name, t)
                shown, drawn, final = view_json(s.verdict, lang(), t), got is not None, []
            sheets.append({"n": i + 1, "name": name, "player": s.player, "view": shown, "pdf": drawn, "final": final})
        link = exports.bgstats_link(play)
        e = plays.entry_of(play.game)
        table = n > 1 and e is not None and e.table_text is not None
        return render_template("play_end.html", play=play, game=games.get(play.game), sheets=sheets, table=table,
                               ranking=ranking(play), breakdown=breakdown(sheets), bgstats=link, bgstats_qr=qr_svg(link),
                               counted=play.legal and not play.in_progress, ended=ended)

    def readable(play) -> None:
        """Unusable for a play in progress whose stored records the page cannot read: each
        of its routes says so, as its entry screen does (a finished play keeps its end page,
        drawn from the verdicts kept)."""
        if play.in_progress and plays.entry_of(play.game) is not None:
            plays.load(store(), play, t)

    def sheet_of(play_id: int, n: int):
        play = get_play(play_id)
        if not 1 <= n <= len(play.sheets):
            abort(404)
        readable(play)
        s = play.sheets[n - 1]
        return play, s, plays.source_name(play.game, play.id, s.player, n - 1, len(play.sheets))

    @app.get("/play/<int:play_id>/record/<int:n>")
    def play_record(play_id: int, n: int):
        _, s, name = sheet_of(play_id, n)
        return Response(s.text, mimetype="application/toml",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    @app.get("/play/<int:play_id>/table")
    def play_table(play_id: int):
        """The whole play of several records as one record (Entry.table_text), every one inline."""
        play = get_play(play_id)
        readable(play)
        e = plays.entry_of(play.game)
        n = len(play.sheets)
        if e is None or e.table_text is None or n < 2:
            abort(404)
        text = e.table_text(plays.records_of(play, t))  # every sheet inline: one file
        return Response(text, mimetype="application/toml", headers={
            "Content-Disposition": f'attachment; filename="{play.game}-play-{play.id}.toml"'})

    @app.get("/play/<int:play_id>/pdf/<int:n>")
    def play_pdf(play_id: int, n: int):
        import os
        import tempfile

        from sheetkit.paper.checked import render

        _, s, name = sheet_of(play_id, n)
        got = _loaded(s.text, name, t)
        if got is None:
            abort(404)
        loaded, checked = got
        with tempfile.TemporaryDirectory(prefix="sheetkit-web-") as tmp:  # as `check --render` writes it
            data = render(loaded, checked, os.path.join(tmp, "checked.pdf"), lang=lang()).read_bytes()
        return Response(data, mimetype="application/pdf", headers={
            "Content-Disposition": f'attachment; filename="{name.removesuffix(".toml")}-checked.pdf"'})



def _loaded(text: str, source: str, t):
    """(Loaded, Checked) of a stored record checked under its download's name, when it has
    a sheet to draw; else None."""
    try:
        loaded, checked = inputs.parse_record(text.encode("utf-8"), source, t)
    except FormError:
        return None
    return (loaded, checked) if loaded.kind.overlay is not None else None


def read_start(game, form, t, store=None) -> "plays.Start":
    """The start form: the level or board side, the names (as many as the game takes), the
    first player; the seats in playing order from the first player on."""
    entry = game.entry
    variants = [v for v, _ in entry.variants]
    variant = inputs.choice(form, "variant", t(entry.variant_label), variants or [""], t,
                            variants[0] if variants else "")
    from sheetkit.history.store import name_key

    lo, hi = entry.players
    slots = []
    seen: dict[str, str] = {}
    for i in range(most_players(entry)):
        field = t("name_n", n=i + 1)
        n = inputs.name(form, f"name{i}", field, t)
        if not n:
            continue
        try:  # as the history will tell people apart, before a game keeps anything (a deck)
            key = name_key(n)
        except HistoryError as e:
            raise FormError(f"{field}: {inputs.said(e)}") from None
        if key in seen:
            raise FormError(t("err_name_twice", field=field, name=n))
        seen[key] = n
        slots.append((i, n))
    if not lo <= len(slots) <= hi:
        raise FormError(t("err_players_range", game=game.title, lo=lo, hi=hi, n=len(slots)))
    named = [i for i, _ in slots]
    first = form.get("first", "")
    if first == "" or first is None:
        k = 0
    else:
        if not isinstance(first, str) or not re.fullmatch(r"[0-9]", first) or int(first) not in named:
            raise FormError(t("err_first"))
        k = named.index(int(first))
    return plays.Start(game.name, variant, tuple(slots[k:] + slots[:k]), form, store)


def most_players(entry) -> int:
    """How many name slots the start form has: the game's most players."""
    return entry.players[1] if entry is not None else MAX_SLOTS


def ranking(play) -> list[dict]:
    """The seats best first (a total of None last), with their place: the winners first
    (a tiebreak decides between equal totals), equal totals otherwise share a place."""
    seats = sorted(enumerate(play.seats), key=lambda e: (e[1].score is None, -(e[1].score or 0), not e[1].winner, e[0]))
    out, place, last = [], 0, object()
    for k, (_, s) in enumerate(seats, 1):
        if (s.score, s.winner) != last:
            place, last = k, (s.score, s.winner)
        out.append({"place": place, "name": s.name, "score": s.score, "winner": s.winner,
                    "eliminated": s.eliminated, "rank": s.rank, "start": s.start})
    return out


def breakdown(sheets: list[dict]) -> dict | None:
    """Every player's points side by side, one row per part, when all players' scores have
    the same parts (a room, a column of the sheet); else None (each score is shown alone)."""
    scores = [sc for s in sheets for sc in s["view"]["scores"]]
    if len(scores) < 2 or len({tuple(label for label, _ in sc["parts"]) for sc in scores}) != 1:
        return None
    names = [sc["player"] or s["player"] or "" for s in sheets for sc in s["view"]["scores"]]
    rows = [(label, [dict(sc["parts"])[label] for sc in scores]) for label, _ in scores[0]["parts"]]
    return {"players": names, "rows": rows, "totals": [sc["total"] for sc in scores],
            "notes": [(n, sc["notes"]) for n, sc in zip(names, scores)]}


def view_json(v: dict, lang: str, t) -> dict:
    """What the result partial shows, from a stored verdict (its JSON)."""
    findings = v.get("findings") or []
    errors = sum(1 for f in findings if f.get("severity") == "error")
    from sheetkit.messages import text

    status = t("legal") if v.get("legal") else text("status.illegal", lang, n=errors)
    if v.get("in_progress"):
        status += f" ({t('in_progress')}" + (f"; {t('to_move', name=v['to_move'])}" if v.get("to_move") else "") + ")"
    scores = [{"player": s.get("player", ""), "parts": list((s.get("parts") or {}).items()), "total": s.get("total"),
               "notes": s.get("notes") or [], "eliminated": s.get("eliminated")} for s in v.get("scores") or []]
    info = v.get("info") or {}
    rank = info.get("rank")
    from sheetkit.web.views import ahead

    progress = bool(v.get("in_progress"))
    winners = ahead((v.get("leading") if progress else v.get("winners")) or [], len(scores), progress)
    return {"legal": bool(v.get("legal")), "status": status, "findings": findings, "scores": scores,
            "multi": len(scores) > 1, "winners": winners,
            "winner_label": t("leading") if progress else t("winner") if len(winners) == 1 else t("shared_win"),
            "tiebreak": None if progress else info.get("tiebreak"), "rank": rank.get(lang) if isinstance(rank, dict) else rank,
            "game": v.get("game")}


def qr_svg(text: str) -> str:
    """A QR code as inline SVG, drawn from memory by the page's SVG backend."""
    from sheetkit.paper import scene as S
    from sheetkit.paper import svg

    size = 60.0
    page = S.Page(size, size, [S.QR(0, 0, size, text)])
    return svg.page_svg(S.Scene([page], {}, "BG Stats"), 0)
