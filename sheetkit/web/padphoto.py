"""Reading a filled score pad from a phone photo on the page: upload the photo, confirm on
the photo itself the fields the reader was unsure of, type the names, save the play.

- Which pads: every game of the registry whose score pad the pad reader reads (its
  `Game.pad` among sheetkit.photo.padregister.PADS); the game comes from the photo's QR
  code (the draft's `game`), never from this file.
- The photo is read (sheetkit.photo.padread) from a private temporary file removed as soon
  as it is read. What is kept until the play is saved is the photo laid over its blank
  (the reader's PX_PER_MM: a PNG, lossless, read again from; and a JPEG, what the screen
  shows) and the draft's fields, in a folder beside the history (`<history>.pad-photos`,
  owner-only), one reading per random token: a reload, a closed tab or a restarted server
  loses nothing. A reading left unsaved is removed after KEEP_HOURS.
- Confirming: the values the player gave become `fixed` and the pad is read again around
  them (padread.read_registered with fixed), so a confirmed cell moves the column's
  arithmetic with it, until nothing is unsure.
- Saving: the draft's record, with the names typed, becomes a play in the history
  (sheetkit.web.plays.start: checked by the engine of `sheetkit check`, stored as that very
  text), the photo kept beside it (Store.save_photo); its end page and its record download
  are the play's own.

Every form value is read defensively (sheetkit.web.inputs); a refused step keeps what was
typed; every reading carries a version, so a form from an older screen is refused (409).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from flask import Response, abort, redirect, render_template, request

from sheetkit.web import inputs, photo, plays
from sheetkit.web.inputs import FormError

UPLOAD = "/pad-photo"
PHOTO_MAX = photo.PHOTO_MAX  # a phone photo, as for a sheet
KEEP_HOURS = 48  # an unsaved reading is kept this long
MOST_KEPT = 32  # and at most this many readings at once (the oldest go first)
BIG = 9999  # above any number a pad's cell holds: a typo is refused as out of range
TOKEN = re.compile(r"[A-Za-z0-9_-]{22}")
JPEG_QUALITY = 88
# The reader names player column p "Player {p + 1}" in its record (sheetkit.photo.padgames):
# the names typed take the place of these.
PLACEHOLDER = "Player {n}"

# The taps on the photo: an outline focuses its field's input (the page's CSP allows
# scripts from this server only, so it is served, not inlined). Without it the outline is a
# link to the input, which the browser scrolls to.
SCRIPT = """(function () {
  "use strict";
  document.addEventListener("click", function (ev) {
    var a = ev.target && ev.target.closest ? ev.target.closest("[data-focus]") : null;
    if (!a) return;
    var el = document.getElementById(a.getAttribute("data-focus"));
    if (!el) return;
    ev.preventDefault();
    el.scrollIntoView({block: "center"});
    el.focus({preventScroll: true});
    if (el.select) el.select();
  });
})();
"""


def pad_games() -> list:
    """The registry's games whose score pad is read from a photo, in the registry's order."""
    from sheetkit import games
    from sheetkit.photo.padregister import PADS

    return [g for g in games.all_games() if g.pad in PADS and plays.game_of(g.name) is not None]


# ------------------------------------------------------------------ the readings kept


class Kept:
    """The readings not yet saved, in a folder beside the history: <token>.json (the
    draft's fields, what was confirmed and typed), <token>.png (the photo over its blank,
    read again from) and <token>.jpg (what the screen shows). Written whole under a
    temporary name, then moved into place."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.lock = threading.Lock()  # a step reads, reads the pad again and writes: one at a time

    def _path(self, token: str, ext: str) -> Path:
        return self.folder / f"{token}.{ext}"

    def _write(self, path: Path, data: bytes) -> None:
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)

    def new(self, png: bytes, jpeg: bytes, info: dict) -> str:
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.prune()
        token = secrets.token_urlsafe(16)
        self._write(self._path(token, "png"), png)
        self._write(self._path(token, "jpg"), jpeg)
        self.put(token, info)
        return token

    def put(self, token: str, info: dict) -> None:
        self._write(self._path(token, "json"), json.dumps(info, ensure_ascii=False, default=_plain).encode("utf-8"))

    def info(self, token: str) -> dict | None:
        if not TOKEN.fullmatch(token or ""):
            return None
        try:
            data = json.loads(self._path(token, "json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def image(self, token: str, ext: str) -> bytes | None:
        if not TOKEN.fullmatch(token or ""):
            return None
        try:
            return self._path(token, ext).read_bytes()
        except OSError:
            return None

    def saved(self, token: str, play_id: int) -> None:
        """The reading saved as a play: its photos go, its token leads to the play."""
        self.put(token, {"saved": play_id, "at": time.time()})
        for ext in ("png", "jpg"):
            self._path(token, ext).unlink(missing_ok=True)

    def prune(self) -> None:
        """Readings older than KEEP_HOURS go, and the oldest beyond MOST_KEPT."""
        try:
            files = sorted(self.folder.glob("*.json"), key=lambda p: p.stat().st_mtime)
        except OSError:
            return
        old = time.time() - KEEP_HOURS * 3600
        for i, p in enumerate(files):
            try:
                if p.stat().st_mtime < old or i < len(files) - MOST_KEPT + 1:
                    for ext in ("json", "png", "jpg"):
                        p.with_suffix(f".{ext}").unlink(missing_ok=True)
            except OSError:
                pass


# ------------------------------------------------------------------ reading


def read_upload(data: bytes):
    """The draft of the photo's bytes, read through a private temporary file that is always
    removed; UserError (its one line, without the file's name) when it cannot be read."""
    from sheetkit.errors import UserError
    from sheetkit.photo import padread

    fd, path = tempfile.mkstemp(prefix="sheetkit-pad-", suffix=".img")  # mode 0600
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        try:
            return padread.read_pad(path)
        except UserError as e:
            raise UserError(e.message) from None
    finally:
        os.unlink(path)


def encoded(reg) -> tuple[bytes, bytes]:
    """The registered photo (the page over its blank) as PNG (read again from: lossless)
    and JPEG (shown)."""
    import cv2
    import numpy as np

    img = (np.clip(reg.photo, 0, 1) * 255).round().astype(np.uint8)
    _, png = cv2.imencode(".png", img)
    _, jpg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    return png.tobytes(), jpg.tobytes()


def registered_again(png: bytes, info: dict):
    """The registered pad rebuilt from its kept photo: the blank its QR text names, the
    photo as kept, the blank matched to it as the reader matches it (padregister). None
    when the kept photo cannot be decoded."""
    import cv2
    import numpy as np

    from sheetkit.photo import PX_PER_MM, padregister

    img = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE) if png else None
    if img is None:
        return None
    b = padregister.blank(info["layout"], info["paper"], info["lang"], info["qr"])
    if img.shape != b.image.shape:
        return None
    photo_ = img.astype(np.float32) / 255.0
    g = b.geometry
    box = tuple(int(v * PX_PER_MM) for v in (g.ox, g.oy, g.ox + g.content_w, g.oy + g.content_h))
    return padregister.PadRegistered(info["qr"], info["serial"], b, photo_, np.eye(3), {}, 1.0,
                                     padregister.as_photographed(photo_, b.image, box))


def reread(png: bytes, info: dict, fixed: dict):
    """The pad read again from its kept photo with `fixed` held; None when it cannot be."""
    from sheetkit.errors import UserError
    from sheetkit.photo import padread

    reg = registered_again(png, info)
    if reg is None:
        return None
    try:
        return padread.read_registered(reg, fixed)
    except UserError:
        return None


def _plain(v):
    """A value of the reader (a NumPy scalar, perhaps) as JSON keeps it."""
    if hasattr(v, "item"):
        return v.item()
    raise TypeError(f"{type(v).__name__} is not kept")


def _value(v):
    v = v.item() if hasattr(v, "item") else v
    return v if v is None or isinstance(v, (bool, int)) else None


def info_of(draft, prior: dict | None = None) -> dict:
    """What is kept of a draft: where the fields are and what was read, what the player
    confirmed (`fixed`) and typed (`names`), the record."""
    from sheetkit.photo.padregister import page

    prior = prior or {}
    reg = draft.registered
    pg = reg.blank.page
    g = page(draft.layout, draft.paper, draft.lang)[2]
    fields = {}
    for f in draft.fields.values():
        if f.kind == "name" and f.player not in draft.players:
            continue
        if f.kind != "name" and not f.unsure and not f.fixed:
            continue  # only what the screen shows: the fields to confirm, the confirmed, the names
        fields[f.key] = {"kind": f.kind, "box": [round(float(v), 2) for v in f.box], "value": _value(f.value),
                         "confidence": round(float(f.confidence), 3), "note": f.note, "player": f.player,
                         "row": f.row, "part": f.part}
    return {"version": int(prior.get("version", 0)) + 1, "game": draft.game, "layout": draft.layout,
            "paper": draft.paper, "lang": draft.lang, "qr": draft.text, "serial": draft.serial,
            "page": [pg.width, pg.height], "view": [g.ox - 3, g.oy - 3, g.content_w + 6, g.content_h + 6],
            "players": list(draft.players), "fields": fields, "unsure": list(draft.unsure),
            "fixed": dict(prior.get("fixed", {})), "names": dict(prior.get("names", {})),
            "notes": list(draft.notes), "record": draft.record}


def named(record: Any, names: dict[str, str]) -> Any:
    """The record with each placeholder name (a string value or a table key equal to one: a
    game's counts may be keyed by player) replaced by the name typed for it."""
    if isinstance(record, dict):
        return {names.get(k, k): named(v, names) for k, v in record.items()}
    if isinstance(record, list):
        return [named(v, names) for v in record]
    if isinstance(record, str) and record in names:
        return names[record]
    return record


# ------------------------------------------------------------------ the form


def field_label(f: dict, t) -> str:
    """A field's name for the player: its player column and what it holds (the close-up of
    the photo beside it shows which cell; the pad's own row names are the layout's keys)."""
    if f.get("player") is None:
        return t("pad_photo_number_all")
    return t("pad_photo_mark" if f.get("kind") == "tick" else "pad_photo_number", n=int(f["player"]) + 1)


def shown_keys(info: dict) -> list[str]:
    """The fields the screen asks about, in the pad's order: the unsure, then the confirmed."""
    fields = info.get("fields", {})
    keys = [k for k in info.get("unsure", []) if k in fields]
    return keys + [k for k in fields if k in info.get("fixed", {}) and k not in keys]


def confirmed(form, info: dict, t) -> dict[str, Any]:
    """The values the form gives for the fields shown ({key: value}); FormError for a value
    that is none (nothing is taken then)."""
    out = {}
    for key in shown_keys(info):
        f = info["fields"][key]
        name = f"cell:{key}"
        if f["kind"] == "tick":
            raw = form.get(name, "")
            if raw not in ("", "on"):
                raise FormError(t("err_choice", field=field_label(f, t)))
            out[key] = raw == "on"
        elif f["kind"] == "digits":
            n = inputs.integer(form, name, field_label(f, t), 0, BIG, t, default=None)
            out[key] = n  # an empty box: the cell is empty
    return out


def names_typed(form, info: dict, t) -> dict[str, str]:
    """The names typed, by player column (empty where none was)."""
    out = {}
    for p in info.get("players", []):
        out[str(p)] = inputs.name(form, f"name-{p}", t("pad_photo_player", n=int(p) + 1), t)
    return out


def names_complete(names: dict[str, str], info: dict, t) -> dict[str, str]:
    """{placeholder: name} for saving: every player named, no name twice."""
    seen: dict[str, str] = {}
    out = {}
    for p in info.get("players", []):
        label = t("pad_photo_player", n=int(p) + 1)
        n = names.get(str(p), "")
        if not n:
            raise FormError(t("pad_photo_err_name", field=label))
        if n.casefold() in seen:
            raise FormError(t("err_name_twice", field=label, name=n))
        seen[n.casefold()] = label
        out[PLACEHOLDER.format(n=int(p) + 1)] = n
    return out


# ------------------------------------------------------------------ the routes


def register(app, db, t, lang, view) -> None:
    from werkzeug.exceptions import HTTPException

    from sheetkit.errors import UserError
    from sheetkit.history.store import Store, now
    from sheetkit.web.plays import routes as play_routes

    path = play_routes.db_path(db)
    kept = Kept(Path(f"{path}.pad-photos"))

    def store() -> Store:
        return play_routes.request_store(path)

    def people() -> list[str]:
        return [p.name for p in store().people()] if path.is_file() else []

    def larger_upload():
        # before every other check reads the form: a phone photo is larger than the page's
        # other requests (this sets a limit, it reads nothing)
        if request.method == "POST" and request.path == UPLOAD:
            request.max_content_length = PHOTO_MAX

    app.before_request_funcs.setdefault(None, []).insert(0, larger_upload)
    generic = app.error_handler_spec[None][None].get(HTTPException)

    def too_large(e):
        if request.path == UPLOAD:
            return new_page(t("ph_too_large", mb=PHOTO_MAX // 2 ** 20), 413)
        return generic(e) if generic is not None else e

    app.register_error_handler(413, too_large)

    def new_page(error=None, code=200):
        return render_template("pad_photo_new.html", available=photo.available(), install=photo.INSTALL,
                               error=error, pads=pad_games()), code

    @app.get(UPLOAD)
    def pad_photo_new():
        return new_page()

    @app.get(UPLOAD + "/script.js")
    def pad_photo_script():
        resp = Response(SCRIPT, mimetype="text/javascript")
        resp.headers["Cache-Control"] = "max-age=3600"
        return resp

    @app.post(UPLOAD)
    def pad_photo_post():
        try:
            if not photo.available():
                return new_page(t("ph_install", cmd=photo.INSTALL), 503)
            data = photo.uploaded(t, t("pad_photo_err_no_photo"))
            try:
                draft = read_upload(data)
            except UserError as e:
                raise FormError(t("ph_err_read", why=inputs.said(e))) from None
            if draft.game not in {g.name for g in pad_games()}:
                raise FormError(t("pad_photo_err_game"))
            png, jpeg = encoded(draft.registered)
            info = info_of(draft)
            info["read_at"] = now()
            try:
                with kept.lock:
                    token = kept.new(png, jpeg, info)
            except OSError as e:  # a history folder that cannot hold it: said, never a fault
                raise FormError(t("pad_photo_err_keep", why=e.strerror or type(e).__name__)) from None
        except FormError as e:
            return new_page(str(e), 400)
        return redirect(f"{UPLOAD}/{token}", code=303)

    def reading(token: str) -> dict:
        info = kept.info(token)
        if info is None:
            abort(404)
        return info

    def check_of(info: dict, names: dict[str, str]):
        """(the result partial's view, the one line why the record cannot be checked)."""
        rec = named(info.get("record", {}),  # a name not typed yet: the page's words for it
                    {PLACEHOLDER.format(n=int(p) + 1): names.get(str(p)) or t("pad_photo_player", n=int(p) + 1)
                     for p in info.get("players", [])})
        try:
            results = plays.check(info["game"], [(None, rec)], None, t=t)
        except FormError as e:
            return None, str(e)
        return view(results[0].verdict, lang()), None

    def confirm_page(token: str, info: dict, error=None, code=200, form=None):
        fields = info.get("fields", {})
        fixed = info.get("fixed", {})
        controls = []
        for i, key in enumerate(shown_keys(info), 1):
            f = fields[key]
            done = key in fixed
            value = fixed[key] if done else f.get("value")
            c = {"n": i, "key": key, "kind": f["kind"], "box": f["box"], "zoom": photo.zoom(f["box"], least=(50.0, 24.0), room=(24.0, 12.0), widest=None),
                 "label": field_label(f, t), "done": done, "sure": round(100 * float(f.get("confidence", 0))),
                 "read": (t("pad_photo_ticked") if f.get("value") is True
                          else t("pad_photo_empty") if f.get("value") in (None, False) else f["value"])}
            if form is not None:
                raw = form.get(f"cell:{key}", "")
                c["value"] = raw == "on" if f["kind"] == "tick" else raw if isinstance(raw, str) else ""
            else:
                c["value"] = bool(value) if f["kind"] == "tick" else "" if value is None else str(value)
            controls.append(c)
        typed = info.get("names", {})
        names = []
        for p in info.get("players", []):
            box = next((f["box"] for f in fields.values() if f["kind"] == "name" and f.get("player") == p), None)
            value = form.get(f"name-{p}", "") if form is not None else typed.get(str(p), "")
            crop = f"{box[0] - 2:.1f} {box[1] - 2:.1f} {box[2] + 4:.1f} {box[3] + 4:.1f}" if box else None
            names.append({"p": p, "n": int(p) + 1, "box": box, "zoom": crop,  # the name box itself
                          "value": value if isinstance(value, str) else ""})
        result, why = check_of(info, {k: v for k, v in typed.items() if v})
        from sheetkit import games

        return render_template("pad_photo_confirm.html", token=token, info=info, controls=controls, names=names,
                               game=games.get(info["game"]).title, version=info.get("version", 0),
                               view_box=" ".join(f"{v:.1f}" for v in info["view"]), page=info["page"],
                               error=error, result=result, why=why, people=people(),
                               unsure=len(info.get("unsure", [])), notes=info.get("notes", [])), code

    @app.get(UPLOAD + "/<token>")
    def pad_photo_confirm(token: str):
        info = reading(token)
        if "saved" in info:
            return redirect(f"/play/{int(info['saved'])}/end", code=303)
        return confirm_page(token, info)

    @app.get(UPLOAD + "/<token>/image")
    def pad_photo_image(token: str):
        data = kept.image(token, "jpg")
        if data is None:
            abort(404)
        resp = Response(data, mimetype="image/jpeg")
        resp.headers["Cache-Control"] = "private, max-age=3600"
        return resp

    @app.post(UPLOAD + "/<token>")
    def pad_photo_step(token: str):
        save = request.form.get("action") == "save"
        with kept.lock:
            info = reading(token)
            if "saved" in info:
                return redirect(f"/play/{int(info['saved'])}/end", code=303)
            if request.form.get("version", "") != str(info.get("version")):
                return confirm_page(token, info, t("pad_photo_err_stale"), 409)
            try:
                values = confirmed(request.form, info, t)
                names = names_typed(request.form, info, t)
                if save:
                    to_name = names_complete(names, info, t)
            except FormError as e:
                return confirm_page(token, info, str(e), 400, request.form)
            fixed = {**info.get("fixed", {}), **values}
            again = info
            if values or not save:
                draft = reread(kept.image(token, "png"), info, fixed)
                if draft is None:
                    return confirm_page(token, info, t("pad_photo_err_reread"), 409, request.form)
                again = info_of(draft, {**info, "fixed": fixed})
                again["read_at"] = info.get("read_at")
            again["names"] = names
            if save and again.get("unsure"):
                again["version"] = int(again["version"])
                kept.put(token, again)
                left = len(again["unsure"])
                return confirm_page(token, again, t("pad_photo_err_unsure", n=left), 400)
            if not save:
                kept.put(token, again)
                return redirect(f"{UPLOAD}/{token}", code=303)
            record = named(again["record"], to_name)
            try:
                with store().transaction():  # the play and its photo: both or neither
                    play_id = plays.start(store(), again["game"], [(None, record)], now())
                    store().save_photo(play_id, 0, kept.image(token, "jpg"),
                                       {"pad": True, "fixed": fixed, "qr": again["qr"], "read_at": again.get("read_at"),
                                        "lang": again["lang"], "paper": again["paper"]})
            except FormError as e:
                kept.put(token, again)
                return confirm_page(token, again, str(e), 400, request.form)
            kept.saved(token, play_id)
        return redirect(f"/play/{play_id}/end", code=303)
