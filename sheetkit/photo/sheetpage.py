"""What the phone page's photo screens need of a sheet the photo reader reads: its game's part
of the confirm screen, so that sheetkit/web names no game (docs/web.md, "A sheet read
from a photo").

`sheet_page(game)` is the sheet page of a game whose sheets the reader reads (SHEETS), None
for any other; the page finds it through the game the draft or the play names (the
draft's `game`, read from the photo's QR code), never a game of its own. A sheet page says

- `fields(draft, g)`: the draft's uncertain fields, each with where it lies on the sheet
  (a box in mm on the page, and for a flight the points of its path);
- `draft_record(draft, solo)`: the draft as a sheet in progress;
- `geometry(rec)`: the sheet's geometry for the confirm screen (its content block), or None;
- `control(field, rec, g, form, t)`: what one field's control shows (its kind, the values
  to tap, what was read), in the page's words `t`;
- `label(key, t)`: a field's name for the player;
- `corrected(rec, fields, form, t)`: the record with the values the confirm form gave;
- `typed(data, t)`: a whole draft as typed (its TOML, read), one sheet kept in progress;
- `most_sheets` and `too_many(n, t)`: the most sheets of one play, and the line that says so.

A value that is no value is a FormError (sheetkit.forms), its sentence in the page's
language. Only `fields` (of a draft just read) needs the photo extra.

The one game read so far is Yuncos (the reader: sheetkit.photo.read).
"""

from __future__ import annotations

import copy
import re
from typing import Any, Mapping

from sheetkit import forms
from sheetkit.forms import FormError
from sheetkit.games.yuncos.entry import die
from sheetkit.messages import Msg
from sheetkit.photo.confirm import turn_field


def _union(boxes) -> list[float]:
    x0 = min(b[0] for b in boxes)
    y0 = min(b[1] for b in boxes)
    x1 = max(b[0] + b[2] for b in boxes)
    y1 = max(b[1] + b[3] for b in boxes)
    return [round(x0, 2), round(y0, 2), round(x1 - x0, 2), round(y1 - y0, 2)]


def puzzle_box(g, name: str):
    """The mm box of a puzzle box named as in the records (nest1.3, lum2.1), or None."""
    m = re.fullmatch(r"(nest|lum)(\d)\.(\d)", name or "")
    if not m:
        return None
    a, b = int(m.group(2)) - 1, int(m.group(3)) - 1
    return g.nest_box(a, b) if m.group(1) == "nest" else g.lum_box(a, b)


def paths(record: dict, board) -> list[list[tuple[int, int]]]:
    """Each turn's flight as the grid points it passes, from the point it starts at."""
    from sheetkit.errors import FieldError
    from sheetkit.games.yuncos.record import parse_flight

    pos = board.starts.get(record.get("start"), min(board.starts.values()))
    out = []
    for entry in record.get("turn", []):
        pts = [pos]
        try:
            steps = parse_flight(entry.get("flight", ""))
        except (FieldError, ValueError, TypeError):
            steps = []
        for dx, dy in steps:
            pos = (pos[0] + dx, pos[1] + dy)
            pts.append(pos)
        out.append(pts)
    return out


def _spec(rec):
    from sheetkit import layouts
    from sheetkit.errors import UserError

    try:
        return layouts.load(rec["layout"]).spec
    except (UserError, KeyError, TypeError):
        return None


def puzzle_names(spec) -> list[str]:
    """Every puzzle box as the records name it, in the sheet's order."""
    names = [f"nest{r + 1}.{i + 1}" for r in range(2) for i in range(spec.nests.length)]
    names += [f"lum{c + 1}.{lv + 1}" for c in range(spec.luminaries.columns) for lv in range(spec.luminaries.height)]
    return names


def ability_names(spec) -> list[str]:
    """Every ability box as the records name it (nest1.ability2, lum3.ability, fish2.ability)."""
    from sheetkit.games.yuncos.record import all_boxes

    out = []
    for b in all_boxes(spec):
        if b.startswith("nest"):
            row, k = b.split(".")
            out.append(f"{row}.ability{k}")
        else:
            out.append(f"{b}.ability")
    return out


def _flight_value(form, name: str, label: str, t) -> str:
    from sheetkit.errors import FieldError
    from sheetkit.games.yuncos.record import parse_flight

    raw = form.get(name, "")
    text = " ".join(raw.split()).upper() if isinstance(raw, str) else ""
    if not text:
        raise FormError(t("ph_err_flight_empty", field=label))
    if len(text) > 200:
        raise FormError(t("ph_err_flight", field=label, got=forms.shown(raw), why=t("yuncos.too_long")))
    try:
        parse_flight(text)
    except FieldError as e:
        raise FormError(t("ph_err_flight", field=label, got=forms.shown(raw), why=e.message)) from None
    return text


class YuncosSheet:
    """A Yuncos sheet on the phone page (the module's docstring says what each part is)."""

    game = "yuncos"
    most_sheets = 5  # a play of 1-5 sheets, checked together as the table

    def too_many(self, n: int, t) -> str:
        return t("yuncos.err_players", n=n, most=self.most_sheets)

    def fields(self, draft, g) -> list[dict[str, Any]]:
        """The draft's uncertain fields in the record's order, each with what was read, how
        sure, why, and where it lies on the sheet (mm on the A4 page: a box, and for a flight
        the points of its path)."""
        from sheetkit.photo.fields import ability_boxes
        from sheetkit.games.yuncos.scoring import CRASH_TRACK

        rec = draft.record
        spec = g.spec
        turn_paths = paths(rec, spec.board)
        out = []
        for key in draft.uncertain:
            r = draft.confidence[key]
            why = r.why.to_json() if isinstance(r.why, Msg) else str(r.why)  # said in the page's language
            field: dict[str, Any] = {"key": key, "confidence": round(float(r.confidence), 3), "why": why,
                                     "confirmed": False}
            tk = turn_field(key)
            if key == "start":
                x, y = g.vertex(spec.board.starts[rec["start"]])
                field["box"] = [x - 4, y - 4, 8, 8]
            elif key == "fish_marked":
                field["box"] = _union([g.fish_box(i) for i in range(len(spec.fish.values))])
            elif key == "crashes_marked":
                field["box"] = _union([g.crash_box(i) for i in range(len(CRASH_TRACK))])
            elif key == "used":
                field["box"] = _union(list(ability_boxes(g).values()))
            elif tk is not None and tk[0] <= len(rec["turn"]):
                t, name = tk
                entry = rec["turn"][t - 1]
                if name == "flight":
                    pts = [g.vertex(v) for v in turn_paths[t - 1]]
                    field["path"] = [[round(x, 2), round(y, 2)] for x, y in pts]
                    half = g.square / 2
                    field["box"] = _union([(x - half, y - half, 2 * half, 2 * half) for x, y in pts])
                elif name == "value":
                    box = puzzle_box(g, entry.get("puzzle", ""))
                    field["box"] = list(box) if box else _union([g.crash_box(i) for i in range(len(CRASH_TRACK))])
                elif name == "dice":
                    field["box"] = _union([g.dice_box(t, 0), g.dice_box(t, 1)])
                else:
                    continue
            else:
                continue
            out.append(field)
        return out

    def draft_record(self, draft, solo: bool = False) -> dict[str, Any]:
        """The draft record as a sheet in progress (`in_progress = true` until it is saved); a
        solo game's sheet says so (the paper does not show it: the player does)."""
        out: dict[str, Any] = {}
        for k, v in draft.record.items():
            if k == "start":
                if solo:
                    out["solo"] = True
                out["in_progress"] = True
            out[k] = copy.deepcopy(v)
        out.setdefault("in_progress", True)
        return out

    def geometry(self, rec: dict[str, Any]):
        """The A4 sheet's geometry of the layout the record names, or None."""
        spec = _spec(rec)
        if spec is None:
            return None
        from sheetkit.games.yuncos.compose import sheet_geometry

        return sheet_geometry(spec, "a4")

    def label(self, key: str, t) -> str:
        """A field's name for the player: "turn 3: flight", "fish counter"."""
        tk = turn_field(key)
        if tk is not None:
            return t("ph_turn_field", n=tk[0], what=t(f"ph_{tk[1]}"))
        return t(f"ph_{key}")

    def control(self, f: dict, rec: dict[str, Any], g, form, t) -> dict[str, Any]:
        """The field's own part of its control: its kind, the values to tap (or the text to
        type) as the form gave them or as read, what was read, and the words the control
        shows."""
        key = f["key"]
        spec = g.spec if g is not None else None
        c: dict[str, Any] = {"kind": ""}
        tk = turn_field(key)
        entry = rec["turn"][tk[0] - 1] if tk and tk[0] <= len(rec.get("turn", [])) else {}
        if key == "start":
            c.update(kind="choice", name="start", options=sorted(spec.board.starts) if spec else [],
                     value=str(form.get("start", rec.get("start", ""))))
            c["read"] = str(rec.get("start", ""))
        elif key in ("fish_marked", "crashes_marked"):
            from sheetkit.games.yuncos.scoring import CRASH_TRACK

            most = len(spec.fish.values) if key == "fish_marked" and spec else len(CRASH_TRACK)
            c.update(kind="choice", name=key, options=list(range(0, most + 1)),
                     value=str(form.get(key, rec.get(key, ""))))
            c["read"] = str(rec.get(key, ""))
        elif key == "used":
            from sheetkit.games.yuncos.record import box_name

            chosen = form.getlist("used") if hasattr(form, "getlist") and "used" in form else rec.get("used", [])
            crossed = {box_name(b) for b in chosen if isinstance(b, str)}  # a record may name them either way
            options = ability_names(spec) if spec else []
            c.update(kind="boxes", name="used", options=options, chosen=[b for b in options if box_name(b) in crossed])
            c["read"] = ", ".join(rec.get("used", [])) or "-"
        elif tk and tk[1] == "flight":
            c.update(kind="flight", name=key, value=form.get(key, entry.get("flight", "")))
            c["read"] = entry.get("flight", "")
        elif tk and tk[1] == "value":
            where = form.get(f"turn[{tk[0]}].puzzle", "crash" if entry.get("crash") else entry.get("puzzle", ""))
            c.update(kind="value", name=key, value=str(form.get(key, entry.get("value", ""))), where=where,
                     where_name=f"turn[{tk[0]}].puzzle", options=(puzzle_names(spec) if spec else []),
                     crash=t("yuncos.crash"))
            c["read"] = (f"{entry['value']} ({entry['puzzle']})" if "puzzle" in entry else t("yuncos.crash"))
        elif tk and tk[1] == "dice":
            dice = entry.get("dice") or ["", ""]
            c.update(kind="dice", name=key, values=[str(form.get(f"{key}.{d + 1}", dice[d] if d < len(dice) else ""))
                                                    for d in (0, 1)],
                     dice_labels=[t("yuncos.die", n=d) for d in (1, 2)])
            c["read"] = " ".join(str(d) for d in dice)
        return c

    def corrected(self, rec: dict[str, Any], fields: list[dict], form: Mapping[str, str],
                  t) -> tuple[dict[str, Any], list[str]]:
        """The record with the values the confirm form gave for its listed fields, and the
        keys of the fields it confirmed; FormError (nothing changed) for a value that is no
        value."""
        from sheetkit.games.yuncos.scoring import CRASH_TRACK

        spec = _spec(rec)
        if spec is None:
            raise FormError(t("ph_err_not_yuncos"))
        new = copy.deepcopy(rec)
        done = []
        for f in fields:
            key = f["key"]
            label = self.label(key, t)
            if key == "start":
                starts = sorted(spec.board.starts)
                n = forms.integer(form, "start", label, min(starts), max(starts), t)
                if n not in starts:
                    raise FormError(t("err_choice", field=label))
                new["start"] = n
            elif key == "fish_marked":
                new["fish_marked"] = forms.integer(form, key, label, 0, len(spec.fish.values), t)
            elif key == "crashes_marked":
                new["crashes_marked"] = forms.integer(form, key, label, 0, len(CRASH_TRACK), t)
            elif key == "used":
                allowed = ability_names(spec)
                chosen = form.getlist("used") if hasattr(form, "getlist") else []
                bad = [c for c in chosen if c not in allowed]
                if bad:
                    raise FormError(t("err_choice", field=label))
                new["used"] = [b for b in allowed if b in chosen]
            else:
                tk = turn_field(key)
                if tk is None or not 1 <= tk[0] <= len(new.get("turn", [])):
                    continue
                n, what = tk
                entry = new["turn"][n - 1]
                if what == "flight":
                    entry["flight"] = _flight_value(form, key, label, t)
                elif what == "value":
                    where = form.get(f"turn[{n}].puzzle", "")
                    if where == "crash":
                        entry.pop("puzzle", None)
                        entry.pop("value", None)
                        entry["crash"] = True
                    elif where in puzzle_names(spec):
                        entry.pop("crash", None)
                        entry["puzzle"] = where
                        entry["value"] = die(form, key, label, t)
                    else:
                        raise FormError(t("err_choice", field=t("ph_turn_field", n=n, what=t("ph_puzzle"))))
                elif what == "dice":
                    entry["dice"] = [die(form, f"{key}.{d}", t("ph_turn_field", n=n, what=t("yuncos.die", n=d)), t)
                                     for d in (1, 2)]
                else:
                    continue
            done.append(key)
        return new, done

    def typed(self, data: dict[str, Any], t) -> dict[str, Any]:
        """The whole draft as typed (its TOML, read): one Yuncos sheet, kept in progress until
        saved; FormError for anything else."""
        if data.get("game") != self.game or data.get("kind", "sheet") != "sheet":
            raise FormError(t("ph_err_not_yuncos"))
        if not isinstance(data.get("turn", []), list):
            raise FormError(t("ph_err_not_yuncos"))
        if "in_progress" not in data:
            out: dict[str, Any] = {}
            for k, v in data.items():
                if k in ("start", "fish_marked", "turn") and "in_progress" not in out:
                    out["in_progress"] = True
                out[k] = v
            out.setdefault("in_progress", True)
            data = out
        return data


# the games whose sheets the photo reader reads: game name -> its sheet page
SHEETS: dict[str, YuncosSheet] = {"yuncos": YuncosSheet()}


def sheet_page(game: Any) -> YuncosSheet | None:
    """The sheet page of the game named (a draft's or a play's `game`), or None when the
    photo reader reads no sheet of it."""
    return SHEETS.get(game) if isinstance(game, str) else None
