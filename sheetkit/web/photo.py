"""Reading a filled sheet from a phone photo on the page: take or upload the photo,
confirm the fields the reader was unsure of on the photo itself, check, save.

- Which sheets: those the photo reader reads (sheetkit.photo.read); what the confirm
  screen needs of the sheet's game (its fields and where they lie, their controls, a
  form or a typed record turned into the sheet) is the game's sheet page
  (sheetkit.photo.sheetpage), found through the game the draft names (read from the
  photo's QR code) or the play's, never from this file.
- The photo is read (sheetkit.photo.read) from a private temporary file that is removed
  as soon as it is read; the photo itself is not kept.
- The draft is kept at once as a play in progress of its game in the history: its sheet
  is the draft record (with `in_progress = true` until it is saved), so a reload, a
  closed tab or a killed server loses nothing and the home page offers it to resume.
  Beside it, in the history's `photos` table: the photo laid over its blank (a JPEG of
  the page at the reader's 6 px/mm, what the confirm screen shows and what the sheet is
  read again from) and the fields to confirm with where they lie on the sheet.
- Confirming reads the sheet again (sheetkit.photo.read.reread_registered): the fields the
  player confirmed are held, every other one is read again around them, so a corrected
  turn moves the turns after it with it; a reading that would break more rules than the
  player's record is not taken (confirming only mends): theirs stays, and what the photo
  reads otherwise is asked (sheetkit.photo.read.kept_draft).
- A sheet is confirmed field by field (taps where they can be, typing for a flight) or as
  a whole (its TOML), checked by the engine of `sheetkit check`, and saved: the record
  loses `in_progress`. Another player's sheet of the same game can then be read into the
  same play (as many sheets as the sheet page allows, checked together by the game's
  Entry.together, as the table).

Every change is a step of the play (sheetkit.web.plays.step): it carries the play's
version, so a form from a phone that another phone has overtaken is refused (409).
"""

from __future__ import annotations

import copy
import os
import re
import tempfile
from typing import Any, Mapping

from flask import Response, abort, make_response, redirect, render_template, request

from sheetkit.photo import INSTALL  # the package itself needs no extra
from sheetkit.web import inputs, plays
from sheetkit.games.interface import records_of as position_records
from sheetkit.web.inputs import FormError

PHOTO_MAX = 20 * 1024 * 1024  # a phone photo is 2-8 MB; every other request keeps the page's 256 kB
UPLOADS = ("/photo",)  # the routes that take a photo (and so the larger limit)
IMAGE_QUALITY = 90  # JPEG quality of the registered photo kept: the sheet is read again from it


def available() -> bool:
    """Whether the photo extra (OpenCV, NumPy, zxing-cpp) can be imported."""
    from sheetkit import photo
    from sheetkit.errors import UserError

    try:
        photo.require()
    except UserError:
        return False
    return True


# ------------------------------------------------------------------ reading a photo


def uploaded(t, missing: str) -> bytes:
    """The photo the form sent (its `photo` field); FormError `missing` without one, and
    one line for an empty file."""
    upload = request.files.get("photo")
    if upload is None or not upload.filename:
        raise FormError(missing)
    data = upload.read(PHOTO_MAX + 1)
    if not data:
        raise FormError(t("ph_err_empty"))
    return data


def read_upload(data: bytes):
    """(draft, registered) read from the photo's bytes, through a private temporary file
    that is always removed; UserError (its one line, without the file's name) when the
    photo cannot be read."""
    from sheetkit.errors import UserError
    from sheetkit.photo.read import read_registered

    fd, path = tempfile.mkstemp(prefix="sheetkit-photo-", suffix=".img")  # mode 0600
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        try:
            return read_registered(path)
        except UserError as e:
            raise UserError(e.message) from None
    finally:
        os.unlink(path)


def image_of(reg) -> bytes:
    """The registered photo (the whole A4 page as it lies over its blank, at the reader's
    PX_PER_MM, so that the sheet can be read again from it) as JPEG."""
    import cv2
    import numpy as np

    img = (np.clip(reg.photo, 0, 1) * 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, IMAGE_QUALITY])
    return buf.tobytes()


def page_of(rec: Any):
    """The sheet page (sheetkit.photo.sheetpage) of the game a record names, or None."""
    from sheetkit.photo.sheetpage import sheet_page

    return sheet_page(rec.get("game") if isinstance(rec, dict) else None)


def reread(image: bytes, info: dict[str, Any], rec: dict[str, Any], confirmed: list[str]):
    """The sheet read again from its registered photo kept (`image`, `info` as kept) with
    the fields `confirmed` held at their values in `rec`: (the record, every other field
    read again around them, the confirmed ones as the player gave them; the new fields to
    confirm; the fields confirmed now, a confirmed number following its box:
    read.follow_boxes; how many fields wait on the new ones, Draft.waiting); when that
    reading cannot be taken (it breaks more rules than the player's record, or has another
    number of turns), the player's record, the fields the photo reads otherwise, the fields
    confirmed, and 0; None when the photo cannot be read again (the record then stays as it
    is)."""
    import cv2
    import numpy as np

    from sheetkit.errors import UserError
    from sheetkit.photo.read import kept_draft, merged_draft, registered_from, reread_registered

    page = page_of(rec)
    if page is None or not image or not info.get("qr"):
        return None
    img = cv2.imdecode(np.frombuffer(image, np.uint8), cv2.IMREAD_GRAYSCALE)
    if img is None:
        return None
    try:
        reg = registered_from(img, info["qr"], info.get("lang", "en"))
        draft = reread_registered(reg, rec, confirmed)
    except UserError:
        return None
    merged = merged_draft(rec, draft, confirmed)
    if merged is None:  # the reading cannot be taken: the player's record stays, what it reads otherwise asked
        kept = kept_draft(rec, draft, confirmed)
        return rec, [f for f in page.fields(kept, reg.blank.geometry) if f["key"] not in confirmed], list(confirmed), 0
    return merged.record, page.fields(merged, reg.blank.geometry), merged.held, waiting_shown(merged)


def draft_record(draft, solo: bool = False) -> dict[str, Any]:
    """The draft record as a sheet in progress (`in_progress = true` until it is saved), as
    its game's sheet page makes it; a solo game's sheet says so."""
    return page_of(draft.record).draft_record(draft, solo)


# ------------------------------------------------------------------ corrections


def corrected(rec: dict[str, Any], fields: list[dict], form: Mapping[str, str], t) -> tuple[dict[str, Any], list[str]]:
    """The record with the values the confirm form gave for its listed fields, and the keys
    of the fields it confirmed, as its game's sheet page reads them; FormError (nothing
    changed) for a value that is no value."""
    page = page_of(rec)
    if page is None:
        raise FormError(t("ph_err_other_game"))
    return page.corrected(rec, fields, form, t)


def record_from_text(raw: str, source: str, page, t) -> dict[str, Any]:
    """The whole draft as typed (its TOML): one sheet of the sheet page's game, kept in
    progress until saved."""
    text = raw.replace("\r\n", "\n")
    if not text.strip():
        raise FormError(t("err_nothing"))
    data = inputs.toml_text(text.encode("utf-8", "surrogatepass"), source, t)
    inputs.refuse_paths(data, source, t)
    return page.typed(data, t)


def finished(rec: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in rec.items() if k != "in_progress"}


# ------------------------------------------------------------------ the routes


def register(app, db, t, lang, view) -> None:
    from sheetkit.errors import UserError
    from sheetkit.history.store import StalePlay, Store, now
    from sheetkit.web.plays import routes as play_routes
    from sheetkit.photo.sheetpage import sheet_page

    path = play_routes.db_path(db)

    def store() -> Store:
        return play_routes.request_store(path)

    def people() -> list[str]:
        return [p.name for p in store().people()] if path.is_file() else []

    def photo_play(play_id: int):
        """(play, {sheet: info}) of a play read from photos; 404 for any other."""
        play = play_routes.play_or_404(store(), play_id)
        infos = store().photos(play_id)
        if sheet_page(play.game) is None or not infos:
            abort(404)
        if play.in_progress:
            plays.load(store(), play, t)  # a draft the page cannot read: Unusable, said on every route of it
        return play, infos

    def new_page(error=None, code=200, play=None, saved=False):
        return render_template("photo_new.html", available=available(), install=INSTALL, error=error,
                               v=request.form, people=people(), play=play, saved=saved,
                               solo=play is not None and is_solo(play),
                               view=_table_view(play) if play is not None else None), code

    def together(game, records):
        """The play's sheets checked together, by its game's Entry.together (the table)."""
        return plays.entry_of(game).together(records)

    def _table_view(play):
        records = plays.records_of(play, t)
        try:
            checked = together(play.game, [(n, finished(r)) for n, r in records])
        except UserError:
            return None
        return view(checked.verdict, lang())

    @app.get("/photo")
    def photo_new():
        play = None
        if request.args.get("play"):
            raw = request.args.get("play", "")
            if not re.fullmatch(r"[0-9]{1,19}", raw):
                abort(404)
            play, _ = photo_play(int(raw))
            if play.in_progress:
                return redirect(f"/photo/{play.id}", code=303)
        return new_page(play=play, saved=request.args.get("saved") == "1")

    @app.post("/photo")
    def photo_post():
        play = None
        try:
            if request.form.get("play"):
                pid = inputs.integer(request.form, "play", "play", 1, play_routes.MAX_ID, t)
                play, infos = photo_play(pid)
                if play.in_progress:
                    raise FormError(t("ph_err_pending"))
                if is_solo(play):
                    raise FormError(t("ph_err_solo"))
                page = sheet_page(play.game)
                if len(play.sheets) >= page.most_sheets:
                    raise FormError(page.too_many(len(play.sheets) + 1, t))
            if not available():
                return new_page(t("ph_install", cmd=INSTALL), 503, play)
            name = inputs.name(request.form, "name", t("player"), t)
            if not name:
                raise FormError(t("ph_err_missing", field=t("player")))
            if play is not None and any((s.player or "").casefold() == name.casefold() for s in play.sheets):
                raise FormError(t("err_name_twice", field=t("player"), name=name))
            data = uploaded(t, t("ph_err_no_photo"))
            try:
                draft, reg = read_upload(data)
            except UserError as e:
                raise FormError(t("ph_err_read", why=inputs.said(e))) from None
            page = page_of(draft.record)
            if page is None or (play is not None and page.game != play.game):
                raise FormError(t("ph_err_other_game"))
            info = {"fields": page.fields(draft, reg.blank.geometry), "waiting": waiting_shown(draft),
                    "notes": [n.to_json() for n in draft.notes],
                    "faults": draft.faults, "read_at": now(), "qr": reg.text, "lang": reg.blank.lang}
            image = image_of(reg)
            rec = draft_record(draft, solo=play is None and request.form.get("solo") == "on")
            with store().transaction():  # the sheet and its photo: both or neither
                if play is None:
                    play_id = plays.start(store(), page.game, [(name, rec)], now())
                    sheet = 0
                else:
                    play_id = play.id
                    sheet = len(play.sheets)
                    version = request.form.get("version", "")
                    try:
                        plays.step(store(), play, version, lambda pos: position_records(pos) + [(name, rec)], t)
                    except StalePlay:
                        raise FormError(t("err_stale")) from None
                store().save_photo(play_id, sheet, image, info)
        except FormError as e:
            return new_page(str(e), 400, play)
        return redirect(f"/photo/{play_id}", code=303)

    def pending(play) -> int | None:
        for i, s in enumerate(play.sheets):
            if _in_progress_text(s.text):
                return i
        return None

    def confirm_page(play_id: int, error=None, code=200, form=None, text=None):
        play, infos = photo_play(play_id)
        n = pending(play)
        if n is None:
            return redirect(f"/photo?play={play_id}&saved=1", code=303)
        records = plays.records_of(play, t)
        name, rec = records[n]
        info = infos.get(n, {"fields": [], "notes": []})
        page = sheet_page(play.game)
        done = [(p, finished(r)) if i == n else (p, r) for i, (p, r) in enumerate(records)]
        result = sheets = None
        try:
            checked = together(play.game, done)
            result = view(checked.verdict, lang())
            from sheetkit.checking import records as engine
            from sheetkit.web.views import sheets as _sheets

            source = plays.source_name(play.game, play.id, name, n, len(records))
            loaded = engine.parse(copy.deepcopy(done[n][1]), source)
            sheets = _sheets(loaded, engine.check(loaded), lang())[:1]
        except FormError as e:
            error = error or str(e)
        except UserError as e:
            error = error or inputs.said(e)
        g = page.geometry(rec)
        controls = [control(page, f, i + 1, rec, g, form) for i, f in enumerate(info.get("fields", []))]
        return render_template("photo_confirm.html", play=play, sheet=n, name=name, info=info, controls=controls,
                               view_box=_content_box(g), result=result, sheets=sheets or [], error=error,
                               notes=[note_text(n, lang()) for n in info.get("notes", [])],
                               version=play.version, text=text if text is not None else play.sheets[n].text,
                               table=len(records) > 1, has_image=True), code

    def control(page, f, number, rec, g, form) -> dict[str, Any]:
        """What one field's control shows: its number on the photo, its name, what was read
        and how sure, the values to tap (or the text to type), and its zoomed view (the
        field's own part from its game's sheet page)."""
        key = f["key"]
        c = {"n": number, "key": key, "label": page.label(key, t), "confidence": f["confidence"],
             "sure": round(100 * f["confidence"]), "confirmed": f.get("confirmed", False),
             "box": f.get("box"), "path": f.get("path"), "kind": "", "zoom": zoom(f.get("box")),
             "why": why_text(f.get("why"), lang())}
        c.update(page.control(f, rec, g, form or {}, t))
        return c

    @app.get("/photo/<int:play_id>")
    def photo_confirm(play_id: int):
        return confirm_page(play_id)

    @app.get("/photo/<int:play_id>/image/<int:n>")
    def photo_image(play_id: int, n: int):
        photo_play(play_id)
        data = store().photo_image(play_id, n) if n < 100 else None
        if data is None:
            abort(404)
        resp = Response(data, mimetype="image/jpeg")
        resp.headers["Cache-Control"] = "private, max-age=3600"
        return resp

    def do(play_id: int, change, then=None, text=None):
        """One step of the photo play (the version the page showed), then the confirm screen."""
        version = request.form.get("version", "")
        try:
            plays.step(store(), store().get(play_id), version, lambda pos: change(position_records(pos)), t)
        except StalePlay:
            return make_response(confirm_page(play_id, t("err_stale"), 409))
        except FormError as e:
            return make_response(confirm_page(play_id, str(e), 400, request.form, text))
        return redirect(then or f"/photo/{play_id}", code=303)

    def sheet_index(play) -> int:
        n = pending(play)
        want = request.form.get("sheet", "")
        if n is None:
            raise FormError(t("err_finished"))
        if want.strip() and inputs.integer(request.form, "sheet", "sheet", 0, 100, t, default=-1) != n:
            raise FormError(t("err_stale"))
        return n

    @app.post("/photo/<int:play_id>/fields")
    def photo_fields(play_id: int):
        play, infos = photo_play(play_id)
        try:
            n = sheet_index(play)
        except FormError as e:
            return confirm_page(play_id, str(e), 409)
        info = infos.get(n, {"fields": []})
        save = request.form.get("action") == "save"
        confirmed: list[str] = []
        read_again: list[list[str]] = []  # the fields confirmed, once the sheet read again is taken
        # Checking reads the sheet again around what is confirmed (saving keeps what the
        # player saw, but for the flights waiting on what they confirmed: those are read
        # again, as the page says): done before the step, which only takes it if the sheet
        # is unchanged.
        again = None
        if not save or info.get("waiting"):
            try:
                shown = plays.stored_data(play.sheets[n].text) or {}
                new, done = corrected(shown, info.get("fields", []), request.form, t)
            except FormError:
                pass  # the step says it
            else:
                held = held_with(info, {f["key"] for f in info.get("fields", []) if f.get("confirmed")} | set(done))
                got = reread(store().photo_image(play_id, n), info, new, held)
                if got is not None:
                    again = (shown, held, got)

        def change(recs):
            name, rec = recs[n]
            new, done = corrected(rec, info.get("fields", []), request.form, t)
            confirmed[:] = done
            if again is not None and again[0] == rec:
                new = again[2][0]
                read_again[:] = [again[2][2]]
            out = list(recs)
            out[n] = (name, finished(new) if save else new)
            return out

        with store().transaction():  # the corrected sheet and the fields shown as confirmed: both or neither
            resp = do(play_id, change, f"/photo?play={play_id}&saved=1" if save else None)
            if resp.status_code == 303:
                for f in info.get("fields", []):
                    if f["key"] in confirmed:
                        f["confirmed"] = True
                if read_again:
                    # what is confirmed now: a confirmed number follows its box to the turn
                    # the reading gave it (read.follow_boxes)
                    info["held"] = read_again[0]
                    for f in info.get("fields", []):
                        f["confirmed"] = f["key"] in info["held"]
                    # the fields confirmed so far, then those the reading again is unsure of
                    kept = [f for f in info.get("fields", []) if f.get("confirmed")]
                    info["fields"] = kept + [f for f in again[2][1] if f["key"] not in {k["key"] for k in kept}]
                    info["waiting"] = again[2][3]
                store().save_photo(play_id, n, None, info)
        return resp

    @app.post("/photo/<int:play_id>/text")
    def photo_text(play_id: int):
        play, infos = photo_play(play_id)
        try:
            n = sheet_index(play)
        except FormError as e:
            return confirm_page(play_id, str(e), 409)
        raw = request.form.get("text", "")
        source = plays.source_name(play.game, play.id, play.sheets[n].player, n, len(play.sheets))
        page = sheet_page(play.game)

        typed: list[str] = []  # the fields the text changed: held when the sheet is read again

        def change(recs):
            from sheetkit.photo.read import changed_fields

            name, rec = recs[n]
            new = record_from_text(raw, source, page, t)
            typed[:] = changed_fields(rec, new)
            out = list(recs)
            out[n] = (name, new)
            return out

        resp = do(play_id, change, text=raw)
        if resp.status_code == 303:
            info = infos.get(n, {"fields": []})
            for f in info.get("fields", []):
                f["confirmed"] = True
            info["held"] = held_with(info, typed)
            store().save_photo(play_id, n, None, info)
        return resp


def waiting_shown(draft) -> int:
    """How many of the draft's fields wait on an earlier flight, as the page counts fields (a
    turn's abilities go with its flight: the page shows no field of their own)."""
    return sum(1 for k in draft.waiting if not k.endswith(".use"))


def held_with(info: dict[str, Any], more) -> list[str]:
    """The fields the photo's kept info holds (as the page stored them) and `more`."""
    before = info.get("held") if isinstance(info.get("held"), list) else []
    return sorted({k for k in before if isinstance(k, str)} | set(more))


def _kept_text(kept, prefix: str, lang: str) -> str | None:
    """A reader's message kept with the photo (Msg.to_json), its id under `prefix`, in
    `lang`; None for anything else (kept data names no other message)."""
    from sheetkit.messages import Msg

    m = Msg.from_json(kept, prefix)
    return m(lang) if m is not None else None


def why_text(why, lang: str) -> str:
    """Why the reader asks a field in `lang`; nothing for a reading kept before the reasons
    were messages, or for anything else."""
    return _kept_text(why, "photo.why.", lang) or ""


def note_text(note, lang: str) -> str:
    """A reader's note in `lang`; a plain string (kept before notes were messages) as it is."""
    said = _kept_text(note, "photo.note.", lang)
    return said if said is not None else str(note)


def is_solo(play) -> bool:
    """A play of one solo sheet: no other sheet joins it."""
    return len(play.sheets) == 1 and bool((plays.stored_data(play.sheets[0].text) or {}).get("solo"))


def _in_progress_text(text: str) -> bool:
    return bool((plays.stored_data(text) or {}).get("in_progress"))


def _content_box(g) -> str:
    """The viewBox (mm) of the confirm screen's photo: the sheet's content block."""
    if g is None:
        return "0 0 210 297"
    return f"{g.ox - 3:.1f} {g.oy - 3:.1f} {g.content_w + 6:.1f} {g.content_h + 6:.1f}"


def zoom(box, least: tuple[float, float] = (60.0, 40.0), room: tuple[float, float] = (16.0, 12.0),
         widest: float | None = 2.2) -> str | None:
    """The viewBox (mm) of a field's close-up: the field with `room` around it, at least
    `least` (w, h) mm, so it is seen where it lies, and no wider than `widest` times its
    height (a sheet's long fields); None for a field with no box."""
    if not box:
        return None
    x, y, w, h = box
    W, H = max(w + room[0], least[0]), max(h + room[1], least[1])
    if widest is not None and W / H > widest:
        H = W / widest
    cx, cy = x + w / 2, y + h / 2
    return f"{cx - W / 2:.1f} {cy - H / 2:.1f} {W:.1f} {H:.1f}"
