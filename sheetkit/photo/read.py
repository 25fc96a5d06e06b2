"""`sheetkit read`: a photo of a filled Yuncos sheet -> a draft record to confirm.

    draft = read_photo("sheet.jpg")
    print(draft_toml(draft))            # the record, uncertain fields marked `# check: ...`
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from sheetkit.photo import PX_PER_MM
from sheetkit.photo.confirm import turn_field
from sheetkit.photo.flight import CONFIRM, Draft, build, read_digits
from sheetkit.photo.fields import align_boxes, ink_image, map_blur, read_fields
from sheetkit.photo.register import register


def read_photo(path: str | Path, debug: str | Path | None = None, fixed: dict | None = None) -> Draft:
    """The draft record read from the photo at `path`; UserError (one line) if the photo
    cannot be read. With `debug`, a PNG of what was found where is written there.

    fixed: the fields the player confirmed (field path -> value as in the record: "start",
    "fish_marked", "crashes_marked", "used", "turn[N].flight", "turn[N].dice"): the photo is
    read again with them held, the rest searched again around them (see reread)."""
    return read_registered(path, debug, fixed)[0]


def reread(path: str | Path, record: dict, confirmed: list[str]) -> Draft:
    """The photo read again with the fields `confirmed` (paths as in Draft.uncertain) held
    at their values in `record` (the draft as the player corrected it): a corrected flight
    moves the cut of the turns around it, which are read again."""
    return read_photo(path, fixed=held_fields(record, confirmed))


def read_registered(path: str | Path, debug: str | Path | None = None, fixed: dict | None = None):
    """(the draft, the Registered photo: warped onto its blank) as read_photo reads them;
    the web page shows the player the registered photo beside the fields to confirm."""
    check_image(path)
    reg = register(path)
    return read_laid(reg, debug, fixed, str(path)), reg


def registered_from(image: np.ndarray, qr: str, lang: str):
    """The Registered photo again from a registered photo kept (grey, the page at
    PX_PER_MM, as Registered.photo: `image` uint8 or float in 0..1), its QR text and the
    language its sheet was printed in: what the phone page keeps to read the sheet again."""
    from sheetkit.photo.register import Registered, _even_light, _level, blank

    layout_id, serial = _level(qr, "photo")
    b = blank(layout_id, serial, lang)
    photo = image.astype(np.float32) / (255.0 if image.dtype == np.uint8 else 1.0)
    if photo.shape != b.image.shape:  # kept at another size: back to the blank's
        photo = cv2.resize(photo, (b.image.shape[1], b.image.shape[0]), interpolation=cv2.INTER_LINEAR)
    return Registered(qr, serial, b, photo, np.eye(3), {"qr": [], "marks": []}, 1.0, _even_light(b.image))


def reread_registered(reg, record: dict, confirmed: list[str]) -> Draft:
    """reread() on a registered photo (registered_from): the confirmed fields held, the
    rest read again around them."""
    return read_laid(reg, fixed=held_fields(record, confirmed))


def held_fields(record: dict, confirmed: list[str]) -> dict:
    """The fields `confirmed` (paths as in Draft.uncertain) with their values in `record`,
    as read_photo's `fixed` takes them."""
    fixed = {}
    for key in confirmed:
        tf = turn_field(key)
        if tf is not None:
            t, name = tf
            if not 1 <= t <= len(record["turn"]):
                continue  # a turn the record does not have holds nothing
            turn = record["turn"][t - 1]
            if name == "value":  # the number: its box and value, or a crash
                fixed[key] = {k: turn[k] for k in ("puzzle", "value", "crash") if k in turn}
            elif name == "use":  # the abilities it used: none is an answer too
                use = turn.get("use", [])
                fixed[key] = use if isinstance(use, list) else [use]
            elif name in turn:
                fixed[key] = turn[name]
        elif key in record:
            fixed[key] = record[key]
    if any(k.endswith(".flight") for k in fixed):  # where each confirmed flight starts
        flights = []
        for turn in record.get("turn", []):
            if "from" in turn:
                break  # a flight that starts anew elsewhere: the walk stops there
            flights.append(turn.get("flight"))
        fixed["path"] = {"start": record.get("start"), "flights": flights}
    return fixed


def merge_confirmed(rec: dict, read: dict, confirmed: list[str]) -> dict | None:
    """The player's record `rec` with every field they did not confirm as the sheet read
    again (`read`, reread with those fields held) gives it: a confirmed field keeps the
    player's value. A confirmed number says what its box holds, and the box keeps it; which
    turn wrote it is the reading's (the paper does not show it: the dice log does), so every
    turn's number is the reading's, and a turn's abilities are the player's only while its
    number is the one they had. None when the reading has another number of turns (the turns
    are the dice log's), or when the record it gives breaks more rules than the player's:
    confirming only mends, so a reading that would undo what the player put right mends
    nothing."""
    import copy

    from sheetkit.photo.flight import errors_of, turn_cells

    if len(read["turn"]) != len(rec.get("turn", [])):
        return None
    out = copy.deepcopy(rec)
    for k in ("start", "fish_marked", "crashes_marked", "used"):
        if k not in confirmed:
            out[k] = copy.deepcopy(read[k])
    numbers = ("puzzle", "value", "crash")
    moved = moved_numbers(rec, read)
    # the boxes whose number the player confirmed (a row or column named alone names none)
    said = {turn["puzzle"]: turn.get("value") for t, turn in enumerate(rec["turn"], 1)
            if f"turn[{t}].value" in confirmed and "." in str(turn.get("puzzle", ""))}
    for t, (mine, new, box) in enumerate(zip(out["turn"], read["turn"], turn_cells(read)), 1):
        for name, keys in (("flight", ("flight",)), ("value", numbers), ("dice", ("dice",))):
            if name != "value" and f"turn[{t}].{name}" in confirmed:
                continue
            for k in keys:
                if k in new:
                    mine[k] = copy.deepcopy(new[k])
                else:
                    mine.pop(k, None)
        if box in said:
            mine["value"] = said[box]
        # a turn's abilities go with its flight and its number: the player's while both are
        # as they confirmed them, the reading's once its number moved
        if t in moved or not any(f"turn[{t}].{n}" in confirmed for n in ("flight", "value", "use")):
            if "use" in new:
                mine["use"] = copy.deepcopy(new["use"])
            else:
                mine.pop("use", None)
    if out != rec and errors_of(out) > errors_of(rec):
        return None
    return out


def moved_numbers(rec: dict, read: dict) -> set[int]:
    """The turns that write another number (another box, value or crash) in `read` than in
    the player's `rec`."""
    from sheetkit.photo.flight import turn_cells

    theirs, ours = turn_cells(rec), turn_cells(read)
    return {t for t in range(1, min(len(theirs), len(ours)) + 1) if _number(rec, theirs, t) != _number(read, ours, t)}


def _number(record: dict, cells: list, t: int) -> tuple:
    """Turn t's number as the paper shows it: the box it fills (`cells`: turn_cells), its
    value, and whether the turn crashed."""
    turn = record["turn"][t - 1]
    return cells[t - 1], turn.get("value"), bool(turn.get("crash"))


def follow_boxes(rec: dict, out: dict, confirmed: list[str]) -> list[str]:
    """The fields confirmed once the player's record `rec` is read again into `out`: a
    confirmed number follows its box (it is confirmed at the turn that writes that box in
    `out`), a confirmed crash stays while its turn still crashes, and a turn the reading gave
    another number to is no longer confirmed (that number is as the photo reads it)."""
    from sheetkit.photo.flight import names, turn_cells

    ours = turn_cells(out)
    numbers = {k: tf[0] for k in confirmed if (tf := turn_field(k)) and tf[1] == "value"}
    boxes, crashes, rows = set(), set(), {}
    for t in numbers.values():
        if t <= len(rec.get("turn", [])):
            turn = rec["turn"][t - 1]
            cell = turn.get("puzzle")
            if not isinstance(cell, str):
                crashes.add(t)
            elif "." in cell:
                boxes.add(cell)
            else:  # a row or column named alone says no box (its next one, in whose order?)
                rows[t] = (cell, turn.get("value"))
    # a turn's abilities confirmed go with its number: no longer once another was given it
    moved = moved_numbers(rec, out)
    followed = [k for k in confirmed if k not in numbers
                and not (k.endswith("].use") and turn_field(k)[0] in moved)]
    followed += [f"turn[{u}].value" for u, cell in enumerate(ours, 1)
                 if (cell in boxes) or (cell is None and u in crashes)
                 or (u in rows and names(rows[u][0], cell) and out["turn"][u - 1].get("value") == rows[u][1])]
    return followed


def confirmed_draft(path: str | Path, rec: dict, confirmed: list[str], debug: str | Path | None = None,
                    source: str | None = None) -> Draft:
    """The draft of `sheetkit read --confirmed`: the photo read again with the fields the
    player confirmed held (reread) and the player's number of turns (the dice log's rows,
    where the player deleted one the draft had), their values as the player gave them and
    sure, every other field as read again; or, when that reading cannot be taken, the
    player's record kept (kept_draft). A UserError naming `source` (the player's draft)
    when that draft is another sheet's, said before anything is read."""
    from sheetkit.errors import UserError
    from sheetkit.messages import msg

    check_image(path)
    reg = register(path)
    if reg.text != rec.get("qr"):
        raise UserError(msg("error.photo.confirmed_other_sheet", draft=rec.get("qr"), photo=reg.text), source=source)
    draft = read_laid(reg, debug, {**held_fields(rec, confirmed), "turns": len(rec["turn"])}, str(path))
    merged = merged_draft(rec, draft, confirmed)
    return kept_draft(rec, draft, confirmed) if merged is None else merged


def merged_draft(rec: dict, draft: Draft, confirmed: list[str]) -> Draft | None:
    """The player's record `rec` read again (`draft`, reread with the fields `confirmed`
    held) as the page and `--confirmed` take it: merge_confirmed's record, the fields
    confirmed sure (a number following its box: follow_boxes) and listed as held, the errors
    the rules find in that record asked (flight.faults_asked); None when the reading cannot
    be taken (see merge_confirmed)."""
    import dataclasses

    from sheetkit.messages import msg
    from sheetkit.photo.flight import faults_asked

    out = merge_confirmed(rec, draft.record, confirmed)
    if out is None:
        return None
    held = follow_boxes(rec, out, confirmed)
    sure = {k: dataclasses.replace(r, confidence=1.0 if k in held else r.confidence) for k, r in draft.confidence.items()}
    faults = faults_asked(out, sure, held)
    notes = [n for n in draft.notes if getattr(n, "id", None) != "photo.note.faults"]
    notes += [msg("photo.note.faults", faults=faults)] if faults else []
    on_sheet = [k for k in held if (tf := turn_field(k)) is None or tf[0] <= len(out["turn"])]  # turn 999 is none
    return dataclasses.replace(draft, record=out, confidence=sure, held=on_sheet,
                               faults=faults, notes=notes)


# what a field is read from, by its name, for one the reading again has not (photo.why.*)
_WHY = {"start": "start", "fish_marked": "fish", "crashes_marked": "crashes", "used": "used",
        "flight": "flight", "dice": "dice", "use": "use"}


def kept_draft(rec: dict, again: Draft, confirmed: list[str]) -> Draft:
    """The player's record kept as they left it, when the photo read again (`again`) cannot
    be taken (merge_confirmed: it breaks more rules, or has another number of turns): its
    own fields, those the player confirmed sure, every other one as surely as the reading
    reads it alike, and asked where the reading reads it otherwise (or has another number of
    turns, or no such field)."""
    from sheetkit.messages import msg
    from sheetkit.photo.flight import Reading, errors_of

    alike = len(again.record.get("turn", [])) == len(rec.get("turn", []))
    sure = {}
    for key in _fields_of(rec):
        r = again.confidence.get(key)
        if r is not None:
            why = r.why
        else:
            t, name = turn_field(key) or (0, key)
            why = (msg("photo.why.number", cell=rec["turn"][t - 1].get("puzzle", "-")) if name == "value"
                   else msg(f"photo.why.{_WHY[name]}"))
        value = _field(rec, key)
        if key in confirmed:
            sure[key] = Reading(value, 1.0, why)
        elif alike and r is not None and _same(rec, again.record, key):
            sure[key] = Reading(value, r.confidence, why, r.after)  # waiting where the reading waits
        else:
            sure[key] = Reading(value, min(r.confidence if r is not None else 0.5, 0.5), msg("photo.why.otherwise", why=why))
    return Draft(rec, sure, errors_of(rec), again.walks, [msg("photo.note.kept" if alike else "photo.note.kept_turns")],
                 [k for k in sure if k in confirmed])


def _fields_of(rec: dict) -> list[str]:
    """The fields of a record, in the order a draft lists them."""
    turns = rec.get("turn", [])
    keys = ["start"]
    for t, turn in enumerate(turns, 1):
        keys += [f"turn[{t}].flight", f"turn[{t}].value"] + ([f"turn[{t}].dice"] if "dice" in turn else [])
    keys += [f"turn[{t}].use" for t, turn in enumerate(turns, 1) if "use" in turn]
    return keys + ["fish_marked", "crashes_marked", "used"]


def _same(a: dict, b: dict, key: str) -> bool:
    """Whether two records with as many turns give a field alike, however it is written: a
    flight by its steps ("2E" and "E E"), a number by the box it fills (nest1 and nest1.3),
    the ability boxes as a set in either spelling, the abilities a turn used in any order."""
    from sheetkit.errors import FieldError
    from sheetkit.games.yuncos.record import box_name, parse_flight
    from sheetkit.photo.flight import turn_cells

    if key == "used":
        return {box_name(x) for x in a.get("used", [])} == {box_name(x) for x in b.get("used", [])}
    tf = turn_field(key)
    if tf is None:
        return a.get(key) == b.get(key)
    t, name = tf
    x, y = a["turn"][t - 1], b["turn"][t - 1]
    if name == "flight":
        try:
            return parse_flight(x.get("flight", "")) == parse_flight(y.get("flight", ""))
        except (FieldError, ValueError, TypeError):
            return x.get("flight") == y.get("flight")
    if name == "value":
        return _number(a, turn_cells(a), t) == _number(b, turn_cells(b), t)
    if name == "use":
        return sorted(x.get("use", [])) == sorted(y.get("use", []))
    return x.get(name) == y.get(name)


def _field(record: dict, key: str):
    """A field's value in a record (a path as in Draft.uncertain), as held_fields gives it."""
    return held_fields(record, [key]).get(key)


def changed_fields(before: dict, after: dict) -> list[str]:
    """The fields of record `after` (as Draft.confidence names them) whose value differs
    from `before`'s: what a player typed in the whole record."""
    if not isinstance(before.get("turn"), list):
        before = {**before, "turn": []}
    return [k for k in _fields_of(after) if _field(before, k) != _field(after, k)]


def read_laid(reg, debug: str | Path | None = None, fixed: dict | None = None, source: str = "") -> Draft:
    """The draft read from a photo already laid over its blank (register.Registered)."""
    from sheetkit.errors import UserError

    g = reg.blank.geometry
    blur = map_blur(reg)
    ink = ink_image(align_boxes(reg.photo, reg.blank_image, g), reg.blank_image, blur)
    f = read_fields(ink, g, reg.photo, reg.blank_image, blur)
    cells, dice = read_digits(f, g.spec)
    try:
        f = _held_boxes(f, fixed)
        draft = build(f, g.spec, reg.blank.layout.id, reg.text, cells, dice, fixed)
    except UserError as e:
        if debug:
            _debug_image(reg, f, None, debug)
        raise UserError(e.message, source=source or None) from None
    if debug:
        _debug_image(reg, f, draft, debug)
    return draft


def _held_boxes(f, fixed):
    """The boxes as the player confirmed them: the fish counter, the crash track, the
    ability boxes used."""
    import copy

    from sheetkit.games.yuncos.record import box_name

    if not fixed:
        return f
    f = copy.copy(f)
    if "fish_marked" in fixed:
        f.fish = [0.99 if i < fixed["fish_marked"] else 0.01 for i in range(len(f.fish))]
    if "crashes_marked" in fixed:
        f.crashes = [0.99 if i < fixed["crashes_marked"] else 0.01 for i in range(len(f.crashes))]
    if "used" in fixed:
        used = {box_name(b) for b in fixed["used"]}
        f.abilities = {b: (0.99 if b in used else 0.01) for b in f.abilities}
    return f


MAX_ASPECT = 4.0  # long side over short side: a whole A4 sheet is 1.41, a phone photo at most 2.2


def check_image(path: str | Path) -> None:
    """UserError (one line) unless `path` is a whole image of a shape a photo of a sheet can
    have, checked before OpenCV sees it: an absurd size or aspect is refused from the header
    alone, and the image is decoded once by Pillow (a JPEG at 1/8 scale, every byte still
    read), so that a file cut short is said here instead of by the image library's own
    warning on standard error. Third-party warnings (Pillow's) are kept off the terminal."""
    import os
    import stat
    import warnings

    from sheetkit.messages import msg
    from sheetkit.errors import UserError
    from sheetkit.photo.register import MAX_PIXELS

    global _checked
    source = str(path)
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size == 0:
            return  # a folder, a pipe, a device, an empty file: the photo's own loader says what it is
    except (OSError, ValueError):
        return  # not there, or not a name: the same
    # `sheetkit read` checks a photo when it tells which sheet it shows and again when it
    # reads it: the same file unchanged is not decoded twice
    seen = (source, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    if seen == _checked:
        return
    import PIL.Image

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. Pillow's DecompressionBombWarning: our own line says it
        try:
            with PIL.Image.open(path) as im:
                w, h = im.size
                if w * h > MAX_PIXELS:
                    raise UserError(msg("error.photo.too_large", width=w, height=h), source=source)
                if min(w, h) < 200:
                    raise UserError(msg("error.photo.unreadable"), source=source)
                if max(w, h) > MAX_ASPECT * min(w, h):
                    raise UserError(msg("error.photo.shape", width=w, height=h, most=f"{MAX_ASPECT:g}"),
                                    source=source)
                im.draft("L", (max(1, w // 8), max(1, h // 8)))
                im.load()
        except UserError:
            raise
        except OSError as e:
            if "truncated" in str(e) or "broken" in str(e).lower():
                raise UserError(msg("error.photo.truncated"), source=source) from None
            raise UserError(msg("error.photo.not_image"), source=source) from None
        except Exception:  # Pillow's own errors for what is no image (SyntaxError, ValueError, ...)
            raise UserError(msg("error.photo.not_image"), source=source) from None
    _checked = seen


_checked = None  # check_image's last photo that passed: its name and os.stat, as it was


def _line(key: str, value) -> str:
    from sheetkit.tomlfile import dump_toml

    return dump_toml({key: value}).strip()


def draft_toml(draft: Draft, source: str = "", lang: str = "en") -> str:
    """The draft as TOML that `sheetkit check` reads: the uncertain fields listed at the top
    and marked on their lines with `# check: <confidence> <what to look at>`; the comment
    lines in `lang` (the keys, values and the `# check` marker are the record's own)."""
    from sheetkit.messages import text
    from sheetkit.errors import say

    rec = draft.record
    conf = draft.confidence
    head = text("photo.draft.head_from", lang, source=source) if source else text("photo.draft.head", lang)
    out = [f"# {head}", "# " + text("photo.draft.marked", lang, percent=f"{CONFIRM:.0%}")]
    unsure = draft.uncertain
    if unsure:
        out.append("# " + text("photo.draft.to_confirm", lang, fields=", ".join(unsure)))
    else:
        out.append("# " + text("photo.draft.nothing", lang))
    if draft.waiting:
        out.append("# " + text("photo.draft.waiting", lang, fields=", ".join(draft.waiting)))
    if draft.held:  # listed, so that reading the draft again holds them still
        out.append("# " + text("photo.draft.confirmed", lang, fields=", ".join(draft.held)))
    out += ["# " + text("photo.draft.note", lang, note=say(n, lang)) for n in draft.notes]

    def mark(key: str) -> str:
        r = conf.get(key)
        if r is None or r.confidence >= CONFIRM:
            return ""
        return f"  # check: {r.confidence:.2f} {say(r.why, lang)}"

    for key in ("game", "layout", "qr", "start", "fish_marked", "crashes_marked", "used"):
        out.append(_line(key, rec[key]) + mark(key))
    for t, entry in enumerate(rec["turn"], 1):
        out += ["", "[[turn]]  # " + text("photo.draft.turn", lang, n=t)]
        for key, value in entry.items():
            # a crash is where the turn's number went: nowhere (the field turn[N].value)
            out.append(_line(key, value) + mark(f"turn[{t}].{'value' if key == 'crash' else key}"))
    return "\n".join(out) + "\n"


def _gallery(reg, f, draft, height: int) -> np.ndarray:
    """A panel beside the debug image: every field of the draft as read, with its confidence
    (green: sure, orange: marked to confirm), the dice log's boxes as the photo shows them
    beside the digits read, and the boxes' probabilities."""
    g = reg.blank.geometry
    k = PX_PER_MM
    W = 760
    panel = np.full((height, W, 3), 255, np.uint8)
    y = 18
    font = cv2.FONT_HERSHEY_SIMPLEX

    def put(text, colour=(0, 0, 0), x=6):
        nonlocal y
        if y < height - 4:
            cv2.putText(panel, text[:110], (x, y), font, 0.42, colour, 1, cv2.LINE_AA)
        y += 15

    if draft is None:
        put("no draft: the reader refused this photo", (0, 0, 200))
    else:
        put(f"{len(draft.record['turn'])} turns, {len(draft.uncertain)} fields to confirm, {draft.faults} faults")
        for key, r in draft.confidence.items():
            colour = (0, 140, 0) if r.confidence >= CONFIRM else (0, 120, 255)
            put(f"{key} = {r.value}  ({r.confidence:.2f})", colour)
    # the dice log: each row's two boxes as photographed
    y += 6
    put("dice log, as photographed, row by row:")
    thumbs = []
    for t in range(1, g.spec.dice_log + 1):
        row = []
        for w in (0, 1):
            x0, y0, bw, bh = g.dice_box(t, w)
            crop = reg.photo[int(y0 * k):int((y0 + bh) * k), int(x0 * k):int((x0 + bw) * k)]
            row.append(cv2.resize((crop * 255).astype(np.uint8), (36, 36)))
        thumbs.append(np.hstack(row))
    per_line = W // 80
    for i in range(0, len(thumbs), per_line):
        if y + 40 > height:
            break
        for j, th in enumerate(thumbs[i:i + per_line]):
            x = 6 + j * 80
            panel[y:y + 36, x:x + 72] = cv2.cvtColor(th, cv2.COLOR_GRAY2BGR)
            cv2.putText(panel, str(i + j + 1), (x, y + 46), font, 0.35, (120, 120, 120), 1, cv2.LINE_AA)
        y += 56
    put("boxes: fish " + " ".join(f"{p:.2f}" for p in f.fish))
    put("crashes " + " ".join(f"{p:.2f}" for p in f.crashes))
    put("abilities " + " ".join(f"{b}:{p:.2f}" for b, p in f.abilities.items() if p >= 0.05))
    return panel


def _debug_image(reg, f, draft, out) -> None:
    """The registered photo with what was read drawn on it: pencilled edges in blue (the
    unsure ones in orange), turn ends as red rings, marked boxes in green, the digits read,
    the registration squares and the QR code outlined."""
    from sheetkit.paper.atomic import replacing

    g = reg.blank.geometry
    k = PX_PER_MM
    img = cv2.cvtColor((reg.photo * 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    P = lambda v: tuple(int(round(c * k)) for c in g.vertex(v))  # noqa: E731
    for (a, b), p in f.edges.items():
        if p >= 0.2:
            cv2.line(img, P(a), P(b), (255, 80, 0) if p >= 0.8 else (0, 140, 255), 2)
    for v, p in f.ends.items():
        if p >= 0.5:
            cv2.circle(img, P(v), int(1.6 * k), (0, 0, 230), 2)
    R = lambda box: ((int(box[0] * k), int(box[1] * k)), (int((box[0] + box[2]) * k), int((box[1] + box[3]) * k)))  # noqa: E731
    from sheetkit.photo.fields import ability_boxes

    marked = [(g.fish_box(i), p) for i, p in enumerate(f.fish)] + [(g.crash_box(i), p) for i, p in enumerate(f.crashes)]
    marked += [(box, f.abilities[name]) for name, box in ability_boxes(g).items()]
    for box, p in marked:
        if p >= 0.5:
            cv2.rectangle(img, *R(box), (0, 170, 0), 2)
    for pts in reg.found["qr"]:
        cv2.polylines(img, [np.array(pts, np.int32)], True, (200, 0, 200), 2)
    for m in reg.found["marks"]:
        if m is not None:
            cv2.circle(img, (int(m[0]), int(m[1])), int(3 * k), (200, 0, 200), 2)
    if draft is not None:
        for t, entry in enumerate(draft.record["turn"], 1):
            if "puzzle" in entry:
                base, _, idx = entry["puzzle"].partition(".")
                box = g.nest_box(int(base[4:]) - 1, int(idx) - 1) if base.startswith("nest") else \
                    g.lum_box(int(base[3:]) - 1, int(idx) - 1)
                r = draft.confidence.get(f"turn[{t}].value")
                colour = (0, 170, 0) if r and r.confidence >= CONFIRM else (0, 140, 255)
                cv2.putText(img, f"{entry['value']}/t{t}", (int(box[0] * k) + 2, int((box[1] + box[3]) * k) - 3),
                            cv2.FONT_HERSHEY_SIMPLEX, 0.4, colour, 1, cv2.LINE_AA)
    img = np.hstack([img, _gallery(reg, f, draft, img.shape[0])])
    ok, buf = cv2.imencode(".png", img)
    with replacing(Path(out)) as tmp:
        Path(tmp).write_bytes(buf.tobytes())
