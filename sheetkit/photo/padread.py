"""Reading a filled score pad from a phone photo: Glüx, IUNU and Level X.

    read_pad(photo, fixed=None) -> PadDraft

The photo is laid over its blank (padregister.py); the fields to read are the page's own
(`Page.fields`: every box the pad's table drew, with its row's key, its part and its
player column). Each digit cell's ink is read into a few likely numbers (paddigits.py), each
tick box into a chance that it is marked, each name box is kept as a picture. The game's
own arithmetic (padgames.py: a row's count times its factor, a column's parts and its
total) then picks the likeliest reading of each player's column as a whole (padsolve.py),
and gives every field its confidence. The draft is a record in the game's own notation
with every unsure field marked, checked and scored as usual.

Every field carries its box in blank-sheet mm, so a confirm page can outline it on the
photo; `fixed` holds fields a player confirmed ({field key: value}): they are read as
certain and the rest is read again around them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sheetkit.photo import PX_PER_MM

SURE = 0.8  # a field read with less confidence than this is marked to confirm
INSET = 0.55  # mm inside a box's printed frame: the frame's line, blur and a pixel of registration


@dataclass(eq=False)  # a field is itself: hashed by identity
class PadField:
    key: str  # FieldBox.key: "t0.chips.5.count.p1"
    kind: str  # "digits", "tick", "name"
    row: str
    part: str
    player: int | None
    table: int
    box: tuple[float, float, float, float]  # x, y, w, h mm on the blank page
    value: object = None  # a number, True/False for a tick, None for an empty cell or a name
    confidence: float = 1.0
    unsure: bool = False
    note: str = ""  # why it is unsure
    readings: list = field(default_factory=list)  # [(value, weight), ...] as the ink alone says
    fixed: bool = False  # confirmed by the player: its value, and no other

    def to_json(self) -> dict:
        return {"key": self.key, "kind": self.kind, "row": self.row, "part": self.part, "player": self.player,
                "table": self.table, "box": list(self.box), "value": self.value,
                "confidence": round(float(self.confidence), 4), "unsure": self.unsure, "note": self.note}


@dataclass
class PadDraft:
    layout: str  # the layout id the QR code names
    game: str
    paper: str
    lang: str
    text: str  # the QR text
    serial: int
    fields: dict[str, PadField]
    players: list[int]  # the player columns in use, in seat order
    record: dict  # in the notation `sheetkit check` (or `sheetkit score`) reads
    unsure: list[str]  # keys of the fields to confirm
    notes: list[str]  # what the arithmetic said (a column whose sum disagrees)
    names: dict[int, np.ndarray]  # player column -> the photo of the name box (grey, 0-1)
    record_text: str = ""
    seconds: float = 0.0
    registered: object = None
    lines: dict = field(default_factory=dict)  # a line of the record -> the fields it is read from

    def to_json(self) -> dict:
        return {"layout": self.layout, "game": self.game, "paper": self.paper, "lang": self.lang, "qr": self.text,
                "serial": self.serial, "players": self.players, "unsure": self.unsure, "notes": self.notes,
                "fields": [f.to_json() for f in self.fields.values()], "record": self.record_text}


def _crop(img: np.ndarray, box, inset: float = INSET) -> np.ndarray:
    x, y, w, h = box
    x0, y0 = int(round((x + inset) * PX_PER_MM)), int(round((y + inset) * PX_PER_MM))
    x1, y1 = int(round((x + w - inset) * PX_PER_MM)), int(round((y + h - inset) * PX_PER_MM))
    return img[y0:y1, x0:x1]


def ink(reg, box, inset: float = INSET) -> np.ndarray:
    """What the pencil took away from the blank in `box` (mm): 1 = black, 0 = the blank."""
    a = _crop(reg.photo, box, inset)
    b = _crop(reg.blank_image, box, inset)
    d = b - a
    # a cell's own paper level: a shaded box, larger than the lighting's reach, is evened
    # out to white in the photo but not in the blank
    from sheetkit.photo.digits import median  # numpy's, without importing numpy.ma

    return np.clip(d - float(median(d)), 0.0, 1.0).astype(np.float32)


def _tick(a: np.ndarray) -> float:
    """The chance a circle's inside (its ink `a`) is marked: the share of it darkened."""
    h, w = a.shape
    yy, xx = np.mgrid[0:h, 0:w]
    inside = ((xx - w / 2 + 0.5) ** 2 + (yy - h / 2 + 0.5) ** 2) <= (0.42 * min(h, w)) ** 2
    share = float((a[inside] > 0.12).mean()) if inside.any() else 0.0
    return float(1.0 / (1.0 + np.exp(-(share - 0.05) / 0.012)))


def read_cells(reg, fixed: dict | None = None) -> dict[str, PadField]:
    """Every field of the registered pad with what its own ink says (`readings`)."""
    from sheetkit.photo import paddigits

    fixed = fixed or {}
    out: dict[str, PadField] = {}
    for fb in reg.blank.page.fields:
        f = PadField(fb.key, fb.kind, fb.row, fb.part, fb.player, fb.table, fb.box)
        if fb.kind == "digits":
            if f.key in fixed:
                v = fixed[f.key]
                f.readings, f.fixed = [(None if v is None else int(v), 1.0)], True
            else:
                f.readings, _ = paddigits.read_number(ink(reg, fb.box))
        elif fb.kind == "tick":
            if f.key in fixed:
                p, f.fixed = (1.0 if fixed[f.key] else 0.0), True
            else:
                p = _tick(ink(reg, fb.box, 0.8))
            f.readings = [(True, p), (False, 1.0 - p)]
        else:  # a name: kept as a picture; written or not
            a = ink(reg, fb.box, 0.9)
            written = float((a > 0.12).mean()) > 0.035  # a printed label's leftovers stay under 2%
            f.readings = [(written, 1.0)]
        out[f.key] = f
    return out


def read_registered(reg, fixed: dict | None = None, cells: dict | None = None) -> PadDraft:
    """The draft of a registered pad; `cells`: its fields as read (read_cells), if known."""
    from sheetkit.photo import padgames

    cells = read_cells(reg, fixed) if cells is None else cells
    layout = reg.blank.layout
    draft = PadDraft(layout.id, layout.spec.game, reg.blank.paper, reg.blank.lang, reg.text, reg.serial, cells,
                     [], {}, [], [], {}, registered=reg)
    for f in cells.values():
        if f.kind == "name":
            draft.names[f.player] = _crop(reg.photo, f.box, 0.3).copy()
    padgames.GAMES[draft.game](draft, fixed or {})
    for key, v in (fixed or {}).items():
        if key in cells:
            f = cells[key]
            f.value = bool(v) if f.kind == "tick" else f.value if f.kind == "name" else v
            f.confidence, f.unsure, f.note = 1.0, False, ""
    draft.unsure = [k for k, f in cells.items() if f.unsure]
    return draft


def identify(path: str | Path):
    """Which numbered sheet the photo at `path` shows: (layout id, the photo, what locating
    its code found), found from its registration squares and QR code; UserError (one line)
    for a photo of no sheet sheetkit reads."""
    from sheetkit.photo import padregister
    from sheetkit.photo import register as R
    from sheetkit.photo.read import check_image

    check_image(path)
    img = R.load_photo(path)
    located = padregister.locate(img, R._squares(img), str(path))
    layout_id, _ = padregister.parse(located[0], str(path))
    return layout_id, img, located


def read_pad(path: str | Path, fixed: dict | None = None, seen=None) -> PadDraft:
    """The draft of the numbered score pad photographed at `path`; `fixed`: fields the
    player confirmed ({key: value}), held at their values while the rest is read again.
    `seen`: identify()'s answer, if known. UserError (one line) for a photo that cannot be
    read."""
    from sheetkit.photo import padregister

    t = time.perf_counter()
    _, img, located = seen or identify(path)
    reg = padregister.register(path, img, located)
    draft = read_registered(reg, fixed)
    from sheetkit.photo import padgames

    draft.record_text = padgames.draft_toml(draft, str(path))
    draft.seconds = time.perf_counter() - t
    return draft


def debug_image(draft: PadDraft, out: str | Path) -> None:
    """The registered photo with every field outlined where it lies on the blank (green:
    sure, orange: marked to confirm, grey: an empty cell), its value beside it, and the
    registration squares and the code as found (red)."""
    import cv2

    reg = draft.registered
    img = cv2.cvtColor((np.clip(reg.photo, 0, 1) * 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    for f in draft.fields.values():
        x, y, w, h = (round(v * PX_PER_MM) for v in f.box)
        colour = (0, 140, 255) if f.unsure else (160, 160, 160) if f.value in (None, False) else (0, 160, 0)
        cv2.rectangle(img, (x, y), (x + w, y + h), colour, 1)
        if f.kind != "name" and f.value not in (None, False):
            cv2.putText(img, "x" if f.value is True else str(f.value), (x + 1, y + h - 2), cv2.FONT_HERSHEY_SIMPLEX,
                        0.35, colour, 1, cv2.LINE_AA)
    for c in reg.found.get("marks", []):
        if c is not None:
            cv2.circle(img, (round(c[0]), round(c[1])), 14, (0, 0, 255), 2)
    for quad in reg.found.get("qr", []):
        cv2.polylines(img, [np.round(np.array(quad)).astype(np.int32)], True, (0, 0, 255), 2)
    from sheetkit.paper.atomic import replacing

    ok, png = cv2.imencode(".png", img)
    with replacing(Path(out)) as tmp:
        Path(tmp).write_bytes(png.tobytes())

