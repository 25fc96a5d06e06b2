"""Simulated photos of filled Yuncos sheets, for the tests and bench/bench_photo.py.

These are simulated photos, not real ones: a random legal game (the independent player in
sheetkit.games.yuncos.play) is drawn onto the rendered sheet as pencil would be
(handwriting.py: strokes of varying width and greyness, digits in handwriting fonts and
hand-drawn strokes, crosses in boxes), then "photographed": the page laid on a table at a
tilt (perspective), turned up to 15 degrees, blurred, lit unevenly, with sensor noise,
JPEG-compressed, at a phone's resolution. Every step draws from one seeded generator, so a
seed always gives the same photo.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import cv2
import numpy as np

from sheetkit.photo import handwriting
from sheetkit.photo.confirm import turn_field
from sheetkit.photo.register import render

SHEET_PX_PER_MM = 10.0  # the pencil is drawn at this scale, finer than any phone sees the sheet
PAGE_MM = (210.0, 297.0)


@dataclass
class Sample:
    jpeg: bytes  # the photo
    truth: dict  # the record the pencil shows (dice in the order written: flight, puzzle, or as rolled)
    layout: str
    serial: int
    size: tuple[int, int]  # photo width, height
    homography: np.ndarray | None = None  # sheet px at SHEET_PX_PER_MM -> photo px, as photographed


def paper_dice(entry: dict, log: dict) -> list[int] | None:
    """The turn's dice as the dice log shows them: the flown die first, then the puzzle's
    (as rolled, before any plus or minus)."""
    rolled = log["dice"]
    for i in (0, 1):
        if abs(rolled[i] - log["fly"]) + abs(rolled[1 - i] - log["write"]) <= log["plusminus"]:
            return [rolled[i], rolled[1 - i]]
    return list(rolled)


def truth_record(game) -> dict:
    rec = dict(game.record)
    turns = []
    for entry, log in zip(game.record["turn"], game.log):
        e = dict(entry)
        e["dice"] = paper_dice(entry, log)
        turns.append(e)
    rec["turn"] = turns
    return rec


def _mm_box(box, k):
    x, y, w, h = box
    return (x * k, y * k, (x + w) * k, (y + h) * k)


def draw_game(canvas: np.ndarray, game, g, rng: np.random.Generator, k: float = SHEET_PX_PER_MM,
              marks: np.random.Generator | None = None, wide: bool = False, truth: dict | None = None,
              hand: np.random.Generator | None = None) -> None:
    """The pencil of `game` (a play.Game) on `canvas`, the rendered sheet (1 = white).

    marks: the generator of the turn-end marks and of the crosses rubbed out again
    (default: `rng`). wide: the hand varies as real ones do (WIDE): each player has a
    turn-end style of their own among seven (small pressed dots, open circles, small crosses,
    a dot with the turn's number beside it, as well as dots, circles and ticks), one end in
    ten in another style, one in fifty forgotten; boxes marked also with ticks and loops,
    and rubbed-out marks more often; the flight drawn beside the grid line as much as a
    player's hand drifts (up to 1 mm, each turn its own way). truth: the record whose dice
    the log shows, in its order (default truth_record(game)). hand: with `wide`, the
    generator of how big and where this player writes the dice log's digits: one player in
    three writes them up to half again the box's size and off its middle, over its edge and
    into the next box."""
    from sheetkit.games.yuncos.record import parse_flight

    spec = g.spec
    board = spec.board
    rec = game.record
    start = board.starts[rec["start"]]
    sx, sy = g.vertex(start)
    r = max(g.square * 0.26, 2.0) + 0.6
    handwriting.draw_cross(canvas, (( sx - r) * k, (sy - r) * k, (sx + r) * k, (sy + r) * k), rng)
    pos = start
    scratch = None
    own = None
    drift = float(marks.uniform(0, 0.8)) if wide and marks is not None else 0.0  # mm, this hand's
    for entry in rec["turn"]:
        steps = parse_flight(entry["flight"])
        pts = [pos]
        for dx, dy in steps:
            pts.append((pts[-1][0] + dx, pts[-1][1] + dy))
        pos = pts[-1]
        px = [tuple(c * k for c in g.vertex(p)) for p in pts]
        if drift:  # the whole turn a little beside the lines, and each corner a little more
            shift = marks.normal(0, drift * k, 2)
            px = [(x + shift[0] + d[0], y + shift[1] + d[1])
                  for (x, y), d in zip(px, marks.normal(0, 0.3 * drift * k, (len(px), 2)))]
        handwriting.draw_stroke(canvas, px, rng)
        ex, ey = px[-1]
        if marks is None:
            handwriting.draw_end_mark(canvas, (ex, ey), steps[-1], rng, k)
            continue
        if wide:
            if own is None:
                own = ALL_END_MARKS[int(marks.integers(len(ALL_END_MARKS)))]
            u = marks.random()
            if u < 0.02:
                continue  # forgotten
            kind = own if u >= 0.12 else ALL_END_MARKS[int(marks.integers(len(ALL_END_MARKS)))]
            handwriting.draw_end_mark(canvas, (ex, ey), steps[-1], marks, k, kind)
            continue
        # The turn's end as players mark it: a dot, a small circle or a tick, drawn from
        # `marks`. `rng` still draws the large dot that these photos once had (onto a
        # scratch page), so every other mark of a seed's photo stays what it was.
        if scratch is None:
            scratch = np.ones_like(canvas)
        dot = k * rng.uniform(0.9, 1.3)
        for rr in np.linspace(dot, 0, 5):
            a = np.linspace(0, 2 * np.pi, 9)
            handwriting.draw_stroke(scratch, list(zip(ex + rr * np.cos(a), ey + rr * np.sin(a))), rng)
        handwriting.draw_end_mark(canvas, (ex, ey), steps[-1], marks, k)
    # the numbers, where the player put them
    from sheetkit.checking import records as rec_mod

    checked = rec_mod.check(rec_mod.parse(rec, "sim.toml"))
    cells = _cells(checked)
    for name, value in cells.items():
        base, _, idx = name.partition(".")
        i = int(idx) - 1
        box = g.nest_box(int(base[4:]) - 1, i) if base.startswith("nest") else g.lum_box(int(base[3:]) - 1, i)
        handwriting.draw_digit(canvas, _mm_box(box, k), value, rng)
    big = wide and hand is not None and hand.random() < 1 / 3
    for t, entry in enumerate((truth or truth_record(game))["turn"], 1):
        for which, value in enumerate(entry["dice"]):
            x0, y0, x1, y1 = _mm_box(g.dice_box(t, which), k)
            if big:
                grow, side = hand.uniform(1.1, 1.5), x1 - x0
                cx = (x0 + x1) / 2 + hand.uniform(-0.2, 0.2) * side
                cy = (y0 + y1) / 2 + hand.uniform(-0.15, 0.15) * side
                x0, x1, y0, y1 = cx - grow * side / 2, cx + grow * side / 2, cy - grow * side / 2, cy + grow * side / 2
            handwriting.draw_digit(canvas, (x0, y0, x1, y1), value, rng)
    from sheetkit.games.yuncos.scoring import CRASH_TRACK
    from sheetkit.photo.fields import ability_boxes

    boxes = ability_boxes(g)
    marked = [g.fish_box(i) for i in range(rec["fish_marked"])]
    marked += [g.crash_box(i) for i in range(rec["crashes_marked"])]
    marked += [boxes[name] for name in rec.get("used", [])]
    extra = rng if marks is None else marks
    box_kind = handwriting.BOX_MARKS[int(extra.integers(len(handwriting.BOX_MARKS)))] if wide else None
    for box in marked:
        handwriting.draw_cross(canvas, _mm_box(box, k), rng, box_kind)
        if extra.random() < 0.15:  # some players fill the box in as well
            handwriting.draw_cross(canvas, _mm_box(box, k), extra, "fill")
    # a box crossed by mistake and rubbed out again: a faint trace in a box not marked
    free = [g.fish_box(i) for i in range(rec["fish_marked"], len(spec.fish.values))][:1]
    free += [g.crash_box(i) for i in range(rec["crashes_marked"], len(CRASH_TRACK))][:1]
    free += [box for name, box in boxes.items() if name not in rec.get("used", [])]
    for box in free:
        if extra.random() < (0.25 if wide else 0.12):
            handwriting.draw_cross(canvas, _mm_box(box, k), extra, box_kind, erased=True)


ALL_END_MARKS = handwriting.END_MARKS + handwriting.MORE_END_MARKS


def _cells(checked) -> dict[str, int]:
    """The puzzle cells filled by the replay: name -> value."""
    state = checked.state
    out = {}
    for r, row in enumerate(state.nests):
        for i, v in enumerate(row):
            if v is not None:
                out[f"nest{r + 1}.{i + 1}"] = v
    for c, col in enumerate(state.lums):
        for i, v in enumerate(col):
            if v is not None:
                out[f"lum{c + 1}.{i + 1}"] = v
    return out


def photograph(sheet: np.ndarray, rng: np.random.Generator, size: tuple[int, int] = (1200, 1600),
               quality: int | None = None, blur: float | None = None, tilt: float = 1.0,
               transform: dict | None = None, wide: bool = False) -> bytes:
    """A phone photo of the page `sheet` (1 = white, SHEET_PX_PER_MM) as JPEG bytes: the
    page turned up to 15 degrees, in perspective, filling most of the frame, on a table.
    With `transform`, the homography applied (sheet px -> photo px) is left in it. wide: any
    rotation, tilt up to 35 degrees, the sheet at 5-14 px/mm, dimmer light (WIDE)."""
    W, H = size
    ph, pw = sheet.shape
    # where the page's corners land: a turned, scaled rectangle, each corner pushed about
    fill = rng.uniform(0.80, 0.92)
    scale = min(W / pw, H / ph) * fill
    angle = np.deg2rad(rng.uniform(-15, 15))
    if wide:
        angle = rng.uniform(0, 2 * np.pi)
        scale = min(scale, rng.uniform(5.0, 14.0) / SHEET_PX_PER_MM)
    c, s = np.cos(angle), np.sin(angle)
    corners = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], dtype=np.float64) - [pw / 2, ph / 2]
    rot = corners @ np.array([[c, s], [-s, c]]) * scale
    # shrink further if the turned page would leave the frame
    span = rot.max(axis=0) - rot.min(axis=0)
    rot *= min(1.0, 0.97 * W / span[0], 0.97 * H / span[1])
    jitter = rng.normal(0, 0.025 * tilt, (4, 2)) * [W, H]
    if wide:  # a tilt of up to 35 degrees about an axis in the table: the far side shrinks
        t = np.deg2rad(rng.uniform(0, 35))
        ax = rng.uniform(0, 2 * np.pi)
        u = rot @ np.array([np.cos(ax), np.sin(ax)])
        span_u = np.ptp(u) or 1.0
        shrink = 1 - np.sin(t) * 0.5 * (u - u.min()) / span_u
        rot = rot * shrink[:, None]
        rot *= min(1.0, 0.97 * W / np.ptp(rot[:, 0]), 0.97 * H / np.ptp(rot[:, 1]))
        jitter = rng.normal(0, 0.01, (4, 2)) * [W, H]
    dst = rot + [W / 2, H / 2] + jitter
    M = cv2.getPerspectiveTransform(corners.astype(np.float32) + np.float32([pw / 2, ph / 2]),
                                    dst.astype(np.float32))
    if transform is not None:
        transform["homography"] = M
    # resample through an area filter first: the camera sees the page at its own scale
    k = max(1.0, 1.0 / (scale * 1.05))
    src = cv2.GaussianBlur(sheet, (0, 0), 0.5 * k) if k > 1.2 else sheet
    table = np.float32(rng.uniform(0.15, 0.45))
    img = cv2.warpPerspective(src, M, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                              borderValue=float(table))
    # uneven light: a gradient across the frame and a soft shadow
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    gx, gy = rng.normal(0, 1, 2)
    light = 1.0 - 0.25 * rng.uniform(0.3, 1.0) * ((xx / W - 0.5) * gx + (yy / H - 0.5) * gy)
    cx, cy = rng.uniform(0, W), rng.uniform(0, H)
    light *= 1.0 - 0.2 * rng.uniform(0, 1) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * (0.3 * W) ** 2))
    img = img * light * (rng.uniform(0.45, 0.95) if wide else rng.uniform(0.75, 0.95))
    sigma = blur if blur is not None else rng.uniform(0.3, 1.3) * max(W, H) / 1600
    if wide and blur is None:  # the lens blurs the sheet's mm alike whatever the frame
        sigma = rng.uniform(0.3, 1.3) * scale * SHEET_PX_PER_MM / 4.85
    img = cv2.GaussianBlur(img, (0, 0), sigma)
    img = img + rng.normal(0, rng.uniform(0.005, 0.02), img.shape).astype(np.float32)
    img8 = np.clip(img * 255, 0, 255).astype(np.uint8)
    q = quality if quality is not None else int(rng.integers(60, 92))
    ok, buf = cv2.imencode(".jpg", img8, [cv2.IMWRITE_JPEG_QUALITY, q])
    return buf.tobytes()


def sample(seed: int, layout_id: str = "yuncos-easy", size: tuple[int, int] = (1200, 1600),
           lang: str = "en", wide: bool = False, **camera) -> Sample:
    """One simulated photo of a random legal game: everything from `seed`. wide: hands and
    cameras as varied as WIDE says (the default keeps every seed's photo as it was)."""
    from sheetkit import layouts
    from sheetkit.games.yuncos.play import play

    rng = np.random.default_rng(seed)
    layout = layouts.load(layout_id)
    game = play(layout, random.Random(seed), ability_rate=0.5)
    serial = int(rng.integers(1, 500))
    sheet, _, g = render(layout_id, serial, lang, SHEET_PX_PER_MM)
    sheet = sheet.copy()
    truth = truth_record(game)
    if wide:
        # the log's heading asks for the flown die first; some players note the dice as
        # they were rolled (either order), as the records allow
        order = np.random.default_rng([seed, 2])
        if order.random() < 0.3:
            for e in truth["turn"]:
                if e.get("dice") and order.random() < 0.5:
                    e["dice"] = e["dice"][::-1]
    draw_game(sheet, game, g, rng, marks=np.random.default_rng([seed, 1]), wide=wide, truth=truth,
              hand=np.random.default_rng([seed, 3]))
    applied = {}
    jpeg = photograph(sheet, rng, size, transform=applied, wide=wide, **camera)
    return Sample(jpeg, truth, layout_id, serial, size, applied["homography"])


SIZES = ((1200, 1600), (3000, 4000))
WIDE_SIZES = ((1600, 1200), (2048, 1536), (2592, 1944), (3264, 2448), (4000, 3000), (4032, 3024))
WIDE = "turn-end marks of seven styles, boxes marked six ways, dice digits over their box's edge, any rotation, tilt to 35 degrees, 5-14 px/mm, dim light"
LEVELS = ("yuncos-easy", "yuncos-hard")


def photo_set(n_sheets: int, first: int, folder, wide: bool = False):
    """The benches' simulated photos: (seed, level, size, sample, JPEG path) for seeds
    `first`.., Easy and Hard alternating, each size two sheets in turn, each written into
    `folder`; every blank drawn is forgotten before each, so each is read as from a fresh start."""
    from pathlib import Path

    from sheetkit.photo import register

    for n in range(n_sheets):
        seed = first + n
        level, size = LEVELS[n % 2], SIZES[(n // 2) % 2]
        if wide:
            size = WIDE_SIZES[(n // 2) % len(WIDE_SIZES)]
        s = sample(seed, level, size, wide=wide)
        photo = Path(folder) / f"{seed}.jpg"
        photo.write_bytes(s.jpeg)
        register.forget_blanks()
        yield seed, level, size, s, photo


def registration_error(s: Sample, homography: np.ndarray, g) -> np.ndarray:
    """How far a registration (`homography`: photo px -> blank px at PX_PER_MM) puts the
    points of a 5 mm grid over the content block of `g` (a SheetGeometry) from where they
    are, in blank px, by the transform the simulation applied to the sample `s`."""
    from sheetkit.photo import PX_PER_MM

    xs, ys = np.meshgrid(np.arange(g.ox, g.ox + g.content_w + 0.1, 5.0), np.arange(g.oy, g.oy + g.content_h + 0.1, 5.0))
    mm = np.column_stack([xs.ravel(), ys.ravel()])
    # pixel centres: a point x mm from the page's edge is pixel x * (px per mm) - 0.5
    photo = cv2.perspectiveTransform((mm * SHEET_PX_PER_MM - 0.5)[None], s.homography)
    back = cv2.perspectiveTransform(photo, homography)[0]
    return np.hypot(*(back - (mm * PX_PER_MM - 0.5)).T)


# ---- a draft against the truth ------------------------------------------------------------

def _verdict(record: dict):
    from sheetkit.checking import records
    from sheetkit.errors import UserError

    try:
        v = records.check(records.parse(record, "draft.toml")).verdict
    except UserError:
        return None
    return (v.legal, v.scores[0].total if v.scores else None)


def _path_edges(record: dict, board) -> set:
    from sheetkit.games.yuncos.record import parse_flight

    pos = board.starts[record["start"]]
    out = set()
    for t in record["turn"]:
        for dx, dy in parse_flight(t["flight"]):
            nxt = (pos[0] + dx, pos[1] + dy)
            out.add((min(pos, nxt), max(pos, nxt)))
            pos = nxt
    return out


def _ends(record: dict, board) -> list:
    from sheetkit.games.yuncos.record import parse_flight

    pos = board.starts[record["start"]]
    out = []
    for t in record["turn"]:
        for dx, dy in parse_flight(t["flight"]):
            pos = (pos[0] + dx, pos[1] + dy)
        out.append(pos)
    return out


def confirmed(draft, truth: dict) -> dict | None:
    """The draft with every field marked for confirmation corrected as a player looking at
    the sheet would: a flight, a die, a start as the truth's, a number as the box the draft
    names shows it (the paper shows what a box holds, not which turn wrote it; a box the
    paper leaves empty, or a crash, as the truth's turn); None when the draft has another
    number of turns (nothing to confirm)."""
    import copy

    from sheetkit.photo.flight import turn_cells

    rec = copy.deepcopy(draft.record)
    if len(rec["turn"]) != len(truth["turn"]):
        return None
    paper = {box: e["value"] for box, e in zip(turn_cells(truth), truth["turn"]) if box}
    uses = []
    for key in draft.uncertain:
        if (tf := turn_field(key)) is not None:
            t, name = tf
            src, dst = truth["turn"][t - 1], rec["turn"][t - 1]
            if name == "use":  # once the rest of the turn is confirmed: see below
                uses.append(t)
                continue
            if name == "value":  # the number in the box named, as the paper shows it
                if _number_as_on_paper(dst, rec, t, truth):
                    continue  # the box named holds that number: the player confirms it as it is
                box = turn_cells(rec)[t - 1]
                for k in ("puzzle", "value", "crash"):
                    dst.pop(k, None)
                if box in paper:  # the number misread: the player writes the one in the box
                    dst["puzzle"], dst["value"] = box, paper[box]
                elif "puzzle" in src:  # no number there: the player finds the turn's own box
                    dst["puzzle"], dst["value"] = turn_cells(truth)[t - 1], src["value"]
                else:
                    dst["crash"] = src.get("crash", True)
            elif name in src:
                dst[name] = src[name]
            else:
                dst.pop(name, None)
        elif key == "used":
            rec["used"] = list(truth.get("used", []))
        else:
            rec[key] = truth[key]
    # the abilities a turn used are not on the paper: a player who knows the turn as it was
    # played (its flight, number and dice as the truth's) gives its use; any other keeps the draft's
    for t in uses:
        src, dst = truth["turn"][t - 1], rec["turn"][t - 1]
        if all(dst.get(k) == src.get(k) for k in ("flight", "puzzle", "value", "crash", "dice")):
            if "use" in src:
                dst["use"] = list(src["use"])
            else:
                dst.pop("use", None)
    return rec


def _number_as_on_paper(entry: dict, record: dict, t: int, truth: dict) -> bool:
    """Whether turn t's number in `record` is what a player sees on the sheet: a crash where
    the truth crashed, or the box it names holding that value (the paper does not show in
    which turn a number was written, so a player cannot correct the turn order)."""
    from sheetkit.photo.flight import turn_cells

    src = truth["turn"][t - 1]
    if "crash" in entry or "puzzle" not in entry:
        return "puzzle" not in src
    filled = dict(zip(turn_cells(truth), (x.get("value") for x in truth["turn"])))
    return filled.get(turn_cells(record)[t - 1]) == entry.get("value")


def compare(draft, truth: dict, layout_id: str) -> dict:
    """How a draft read from a simulated photo matches the game drawn: per field kind the
    (right, total) counts, and per sheet whether it is read with no error and whether,
    its uncertain fields confirmed, it checks the same as the truth."""
    from sheetkit import layouts
    from sheetkit.games.yuncos.record import box_name

    spec = layouts.load(layout_id).spec
    board = spec.board
    rec = draft.record
    n_edges = (board.width - 1) * board.height + board.width * (board.height - 1) + 2 * (board.width - 1) * (board.height - 1)
    te, de = _path_edges(truth, board), _path_edges(rec, board)
    wrong_edges = len(te ^ de)
    tends, dends = _ends(truth, board), _ends(rec, board)
    ends_right = sum(1 for a, b in zip(tends, dends) if a == b)
    from sheetkit.games.yuncos.record import all_boxes

    every = all_boxes(spec)
    tu = {box_name(b) for b in truth.get("used", [])}
    du = {box_name(b) for b in rec.get("used", [])}
    boxes_total = len(spec.fish.values) + 6 + len(every)
    boxes_wrong = abs(truth["fish_marked"] - rec["fish_marked"]) + abs(truth["crashes_marked"] - rec["crashes_marked"])
    boxes_wrong += len(tu ^ du)
    # digits: the dice log, and the numbers (as a multiset per group would hide a swap:
    # compared box by box through the replay)
    digits_right = digits_total = 0
    for a, b in zip(truth["turn"], rec["turn"]):
        for x, y in zip(a.get("dice", []), b.get("dice", [None, None])):
            digits_total += 1
            digits_right += x == y
    digits_total += 2 * abs(len(truth["turn"]) - len(rec["turn"]))
    from sheetkit.checking import records as R

    def cells(record):
        try:
            return _cells(R.check(R.parse(record, "x.toml")))
        except Exception:
            return {}

    tc, dc = cells(truth), cells(rec)
    digits_total += len(set(tc) | set(dc))
    digits_right += sum(1 for k in tc if dc.get(k) == tc[k])
    same = _verdict(truth)
    fixed = confirmed(draft, truth)
    no_error = (wrong_edges == 0 and boxes_wrong == 0 and len(tends) == len(dends) and ends_right == len(tends)
                and digits_right == digits_total and rec["start"] == truth["start"] and _verdict(rec) == same)
    return {"edges": (n_edges - wrong_edges, n_edges), "ends": (ends_right, max(len(tends), len(dends))),
            "boxes": (boxes_total - boxes_wrong, boxes_total), "digits": (digits_right, digits_total),
            "no_error": no_error, "draft_agrees": _verdict(rec) == same,
            "confirmed_agrees": fixed is not None and _verdict(fixed) == same,
            # a turn's abilities are asked with its flight and number, not a field of their own
            "uncertain": sum(1 for k in draft.uncertain if not k.endswith(".use")), **_wrong_fields(draft, truth)}


def _wrong_fields(draft, truth: dict) -> dict:
    """The draft's fields against the truth: how many there are, how many are wrong, and how
    many of those wrong ones are not marked for confirmation (confidently wrong), and which
    those are; a turn the draft has and the truth has not is wrong in every field."""
    from sheetkit.games.yuncos.record import box_name

    rec, unsure = draft.record, set(draft.uncertain) | set(draft.waiting)  # both marked # check
    wrong = []
    for key in ("start", "fish_marked", "crashes_marked"):
        wrong.append((key, rec[key] != truth[key]))
    wrong.append(("used", {box_name(b) for b in rec.get("used", [])} != {box_name(b) for b in truth.get("used", [])}))
    for t, entry in enumerate(rec["turn"], 1):
        src = truth["turn"][t - 1] if t <= len(truth["turn"]) else None
        for name in ("flight", "value", "dice"):
            key = f"turn[{t}].{name}"
            if key not in draft.confidence:
                continue
            if src is None:
                bad = True
            elif name == "value":
                bad = not _number_as_on_paper(entry, rec, t, truth)
            else:
                bad = entry.get(name) != src.get(name)
            wrong.append((key, bad))
    missing = max(0, len(truth["turn"]) - len(rec["turn"]))
    unmarked = [k for k, b in wrong if b and k not in unsure]
    return {"fields": len(wrong) + 3 * missing, "wrong": sum(b for _, b in wrong) + 3 * missing,
            "wrong_unmarked": len(unmarked) + 3 * missing,
            "unmarked": unmarked + [f"{missing} turn(s) missing"] * bool(missing)}


# ---- fields read against the truth (no flight search) --------------------------------------

def _where(v, pts: list, end_at: set, board) -> str:
    """Where on the drawn path a vertex lies: what its ink looks like there. `pts` is the
    whole path, vertex by vertex from the start; `end_at` the turns' ends."""
    seen = [i for i, p in enumerate(pts) if p == v]
    print_ = v in board.stars or v in board.fish or v in board.lights or v in board.starts.values()
    if not seen:
        near = any(max(abs(v[0] - p[0]), abs(v[1] - p[1])) <= 1 for p in pts)
        where = "off the path, next to it" if near else "off the path"
    elif len(seen) > 1:
        where = "a crossing"
    elif seen[0] == 0:
        where = "the start"
    elif seen[0] == len(pts) - 1:
        where = "the line's end"
    else:
        i = seen[0]
        a, b = (pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]), (pts[i + 1][0] - pts[i][0], pts[i + 1][1] - pts[i][1])
        where = "straight through" if a == b else "a corner"
    return where + (", on print" if print_ else "")


def field_truth(truth: dict, layout_id: str) -> dict:
    """What the pencil of a simulated photo shows, field by field: the path (its grid points
    in order from the start), the pencilled edges, the turns' ends, the boxes marked (keys as
    in fields.Measures.boxes)."""
    from sheetkit import layouts
    from sheetkit.games.yuncos.record import box_name, parse_flight

    board = layouts.load(layout_id).spec.board
    pts = [board.starts[truth["start"]]]
    ends = set()
    for t in truth["turn"]:
        for dx, dy in parse_flight(t["flight"]):
            pts.append((pts[-1][0] + dx, pts[-1][1] + dy))
        ends.add(pts[-1])
    boxes = {("fish", i) for i in range(truth["fish_marked"])} | {("crash", i) for i in range(truth["crashes_marked"])}
    boxes |= {("ability", box_name(b)) for b in truth.get("used", [])}
    return {"path": pts, "edges": {tuple(sorted((a, b))) for a, b in zip(pts, pts[1:])}, "ends": ends,
            "boxes": boxes, "board": board}


def on_frame(e, board) -> bool:
    """An edge along the map's frame (where pencil cannot be seen)."""
    (a, b), W, H = e, board.width - 1, board.height - 1
    return (a[0] == b[0] in (0, W)) or (a[1] == b[1] in (0, H))


def field_rows(f, truth: dict, layout_id: str) -> list[tuple[str, float, bool, str]]:
    """Every field a Fields read from a simulated photo holds, against the game drawn:
    (kind, probability read, truly marked, where). Kinds: "edges" (pencilled or not; the
    map's frame apart as "frame edges": pencil on it cannot be seen, the flight infers it),
    "ends" (a turn-end mark at a grid point), "boxes" (fish counter, crash track, abilities)."""
    tr = field_truth(truth, layout_id)
    board, pts, ends = tr["board"], tr["path"], tr["ends"]
    rows = []
    for e, p in f.edges.items():
        (a, b) = e
        rows.append(("frame edges" if on_frame(e, board) else "edges", p, e in tr["edges"],
                     "diagonal" if a[0] != b[0] and a[1] != b[1] else "unit"))
    for v, p in f.ends.items():
        rows.append(("ends", p, v in ends, _where(v, pts, ends, board)))
    rows += [("boxes", p, ("fish", i) in tr["boxes"], "fish") for i, p in enumerate(f.fish)]
    rows += [("boxes", p, ("crash", i) in tr["boxes"], "crash") for i, p in enumerate(f.crashes)]
    rows += [("boxes", p, ("ability", name) in tr["boxes"], "ability") for name, p in f.abilities.items()]
    return rows
