"""Measure `sheetkit read` on photos from bench/unseen/simulate.py, a simulator of its own.

    python bench/unseen/measure.py                      # 8 photos per tier, seed 1
    python bench/unseen/measure.py --n 4 --seed 7 --tiers medium,hard --out /tmp/run

The photos are drawn first (two at a time), then read one at a time by the command a
user runs, `sheetkit read PHOTO -o DRAFT` (timed from the command's start to its end, so
Python's start-up is included), and each draft is compared with the record of the game
that was pencilled. `sheetkit check --json` then judges the truth, the draft, and the
draft once its marked fields are confirmed. The reader is used only through that
command: nothing of sheetkit's photo code is imported here.

Photo i of a tier is an Easy sheet for even i and a Hard one for odd i, and one player's
sheet of a table game when i % 4 is 2 or 3 (else a solo game). Each tier draws its own
sheets (seed * 1000 + 100 * tier + i), or the same sheets in every tier with --paired (so
the tiers differ only in the camera).

**Fields.** What a player pencils on a sheet, one field each, the same on every sheet of
a level whatever the draft says:

* `start`: the start point marked on the island;
* each turn's **flight** (its steps; "E E N" and "2E N" are the same flight);
* each turn's **dice** in the dice log (a pair, in either order), for the turns whose record
  notes them;
* each **puzzle box** of the level (nests and luminaries, filled or empty: its number or
  nothing). This is what the paper shows: which turn wrote a number is not on the
  paper, so a draft that puts the same numbers in the same boxes from other turns is
  right box by box;
* the two **counters**, fish eaten and crashes marked (how many boxes);
* each **ability box** of the level (crossed out or not).

A draft with more turns than the truth has one wrong field more for every flight and
dice pair of those extra turns; a draft with fewer misses the flights and dice of the
turns it lacks (wrong). So "wrong" can exceed what a sheet's fields total.

**Marked and asked.** The draft lists the fields it asks the user to confirm now (`# To
confirm: ...`), the fields that wait on those (`# Waiting on those ...`: unsure only
because an earlier turn is, read again once it is confirmed), and marks both on their
lines with `# check`. They map to the fields above: `start`, `turn[N].flight`,
`turn[N].dice`, `turn[N].value` (the puzzle box the draft writes that turn's number in,
or the truth's box for that turn where the draft marks a crash), `fish_marked`,
`crashes_marked`, and `used` (every ability box: the list is checked as a whole).
"Confidently wrong" counts the wrong fields that are not marked; "asked" the fields of
the "To confirm" list.

**Exact.** "Exact (same record)" is a draft that is the truth's record: the same start,
counters and crossed-out boxes, the same number of turns, each turn with the same flight,
the same number in the same box (or the same crash) and the same dice (`use` lists are
not compared: the paper does not show when an ability was used). "Every field right" is
the looser, box-by-box test of the fields above.

**Confirmed.** A user edits the lines the draft asks about (docs/photo.md). That is
simulated: every asked field of the draft is replaced by the truth's (a turn's flight, its
number and the box it is in, named as the user sees it, or crash; its dice; the start,
the counters, the list of crossed-out boxes). A turn so made the truth's turn in every field takes the truth's `use` list too
(the user knows when they used an ability), any other keeps the draft's; an asked turn
past the sheet's last turn is deleted (the user sees no such flight on the paper). Fields
not asked stay as read, those waiting among them. "Right once confirmed" is a draft that is
then exact (the same record); "check same once confirmed" one that `sheetkit check` then
judges as it judges the truth.

**Read again.** The player's next rounds on the command line: the draft with its asked
fields so confirmed and their `# check` deleted (its lists at the top kept, but for the
fields waiting, which are left to be read again) is handed back, `sheetkit read PHOTO
--confirmed DRAFT`, which holds those fields and reads the rest of the photo again around
them; while the new draft asks something, its asks are confirmed the same way and the
photo read again, ROUNDS times at most. Its table counts the drafts that check as the
truth after the first reading again, and once the last draft's asks are confirmed too,
and the fields asked over all the rounds.

**Check same.** `sheetkit check --json` gives the draft the truth's verdict: legal or not
alike, the same total score, eliminated alike.

The photos, truths, drafts and a results.json stay in --out (a fresh folder under /tmp by
default), never in the checkout.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import simulate as sim  # noqa: E402  (bench/unseen/simulate.py)
from sheetkit import layouts  # noqa: E402
from sheetkit.games.yuncos.play import to_toml  # noqa: E402

KINDS = ("start", "flight", "dice", "box", "counter", "ability")


def sheetkit_cmd() -> list[str]:
    exe = Path(sys.executable).with_name("sheetkit")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "sheetkit"]


# ---- photos -------------------------------------------------------------------------------------

def plan(n: int, seed: int, tiers: list[str], paired: bool) -> list[dict]:
    jobs = []
    for tier in tiers:
        for i in range(n):
            sheet_seed = seed * 1000 + (0 if paired else 100 * sim.TIERS.index(tier)) + i
            jobs.append({"tier": tier, "i": i, "seed": sheet_seed, "level": "easy" if i % 2 == 0 else "hard",
                         "table": i % 4 in (2, 3), "name": f"{tier}-{i:02d}"})
    return jobs


def _make(job: dict, out: str) -> dict:
    t = time.perf_counter()
    shot = sim.simulate(job["seed"], job["tier"], out, job["level"], job["table"], job["name"], job.get("pencil"))
    return {**job, "photo": str(shot.photo), "truth": str(shot.truth), "meta": shot.meta,
            "sim_seconds": round(time.perf_counter() - t, 2)}


# ---- the draft ----------------------------------------------------------------------------------

FIELD = re.compile(r"start|fish_marked|crashes_marked|used|turn\[\d+\]\.\w+")
ROUNDS = 6  # times the player confirms what a draft asks and has the photo read again, at most


def asked_fields(text: str) -> set[str]:
    """The record fields a draft asks to confirm now: its "To confirm" list at the top (the
    fields it lists as waiting on those are read again once they are confirmed)."""
    for line in text.splitlines():
        m = re.match(r"#\s*(?:To confirm|Por confirmar|Para confirmar)\s*:\s*(.*)$", line.strip(), re.IGNORECASE)
        if m:
            return set(FIELD.findall(m.group(1)))
    return set()


def marked_fields(text: str) -> set[str]:
    """The record fields a draft marks as unsure: its list at the top and every `# check`."""
    marks: set[str] = set()
    turn = 0
    for line in text.splitlines():
        s = line.strip()
        m = re.match(r"#\s*(?:To confirm|Por confirmar|Para confirmar|A confirmar|Confirmar)[^:]*:\s*(.*)$", s, re.IGNORECASE)
        if m:
            marks.update(x.strip() for x in m.group(1).split(",") if x.strip())
            continue
        if s.startswith("[[turn]]"):
            turn += 1
            continue
        m = re.match(r"([A-Za-z_]+)\s*=.*#\s*check\b", s)
        if m:
            key = m.group(1)
            if key in ("puzzle", "value", "crash"):
                key = "value"
            marks.add(f"turn[{turn}].{key}" if turn and key in ("flight", "value", "dice", "use", "from") else key)
    return {re.sub(r"\.(puzzle|crash)$", ".value", m) for m in marks}


def paper_view(record: dict) -> dict:
    """What a record says is on the paper, field by field."""
    turns = record.get("turn", []) or []
    flights, dice = [], []
    for t in turns:
        try:
            flights.append(tuple(sim.flight_steps(t.get("flight", ""))))
        except (ValueError, KeyError):
            flights.append(("unreadable", str(t.get("flight"))))
        d = t.get("dice")
        dice.append(tuple(sorted(int(x) for x in d)) if isinstance(d, list) else None)
    cells = sim.resolve_cells(record)
    boxes: dict[str, int] = {}
    turn_cell: list[str | None] = []
    for t, c in zip(turns, cells):
        turn_cell.append(c)
        if c and c not in boxes and "value" in t:
            boxes[c] = int(t["value"])
    return {"start": record.get("start"), "fish": record.get("fish_marked"), "crashes": record.get("crashes_marked"),
            "used": {sim.canon_box(u) for u in record.get("used", []) or []}, "flights": flights, "dice": dice,
            "boxes": boxes, "turn_cell": turn_cell}


def level_boxes(layout) -> tuple[list[str], list[str]]:
    spec = layout.spec
    cells = [f"nest{r + 1}.{i + 1}" for r in range(2) for i in range(spec.nests.length)]
    cells += [f"lum{c + 1}.{lv + 1}" for c in range(spec.luminaries.columns) for lv in range(spec.luminaries.height)]
    abilities = [f"nest{r + 1}.ability{k + 1}" for r, row in enumerate(spec.nests.abilities) for k in range(len(row))]
    abilities += [f"lum{c + 1}.ability" for c in range(spec.luminaries.columns)]
    abilities += [f"fish{int(k)}.ability" for k in spec.fish.abilities]
    return cells, abilities


def compare(truth: dict, draft: dict, marks: set[str], layout, asked: set[str] | None = None) -> list[dict]:
    """Every field: its kind, name, whether the draft has it right, whether it is marked,
    whether it is asked now (of `asked`; default: the marked ones), and whether it is one of
    the draft's extra turns."""
    if asked is not None:
        now = compare(truth, draft, asked, layout)
        return [{**f, "asked": g["marked"]} for f, g in zip(compare(truth, draft, marks, layout), now)]
    t, d = paper_view(truth), paper_view(draft)
    cells, abilities = level_boxes(layout)
    out = []

    def field(kind, name, right, marked, extra=False):
        out.append({"kind": kind, "name": name, "right": bool(right), "marked": bool(marked), "asked": bool(marked),
                    "extra": extra})

    field("start", "start", t["start"] == d["start"], "start" in marks)
    nt, nd = len(t["flights"]), len(d["flights"])
    for i in range(max(nt, nd)):
        n = i + 1
        fm = f"turn[{n}].flight" in marks and i < nd
        dm = f"turn[{n}].dice" in marks and i < nd
        if i < nt:
            field("flight", f"turn[{n}].flight", i < nd and d["flights"][i] == t["flights"][i], fm)
            if t["dice"][i] is not None:
                field("dice", f"turn[{n}].dice", i < nd and d["dice"][i] == t["dice"][i], dm)
        else:
            field("flight", f"turn[{n}].flight", False, fm, extra=True)
            if d["dice"][i] is not None:
                field("dice", f"turn[{n}].dice", False, dm, extra=True)
    marked_cells = set()
    for m in marks:
        mm = re.fullmatch(r"turn\[(\d+)\]\.value", m)
        if mm:
            i = int(mm.group(1)) - 1
            if i < nd and d["turn_cell"][i]:
                marked_cells.add(d["turn_cell"][i])
            elif i < nt and t["turn_cell"][i]:
                marked_cells.add(t["turn_cell"][i])
    for c in cells:
        field("box", c, t["boxes"].get(c) == d["boxes"].get(c), c in marked_cells)
    for c in set(d["boxes"]) - set(cells):  # a box not on the level
        field("box", c, False, c in marked_cells, extra=True)
    field("counter", "fish_marked", t["fish"] == d["fish"], "fish_marked" in marks)
    field("counter", "crashes_marked", t["crashes"] == d["crashes"], "crashes_marked" in marks)
    for a in abilities:
        field("ability", a, (a in t["used"]) == (a in d["used"]), "used" in marks)
    return out


def same_record(truth: dict, draft: dict) -> bool:
    """The draft is the truth's record: the same start, counters and crossed-out boxes, the
    same turns, each with the same flight, the same number in the same box (or the same
    crash) and the same dice. `use` lists and comments are not compared (the paper does not
    show when an ability was used)."""
    t, d = paper_view(truth), paper_view(draft)
    if (t["start"], t["fish"], t["crashes"], t["used"]) != (d["start"], d["fish"], d["crashes"], d["used"]):
        return False
    tt, dt = truth.get("turn", []), draft.get("turn", [])
    if len(tt) != len(dt) or t["flights"] != d["flights"] or t["dice"] != d["dice"] or t["turn_cell"] != d["turn_cell"]:
        return False
    return all((a.get("value"), bool(a.get("crash"))) == (b.get("value"), bool(b.get("crash"))) for a, b in zip(tt, dt))


def confirm(draft: dict, truth: dict, marks: set[str]) -> dict:
    """The draft once the user has confirmed (corrected) every marked field against the sheet."""
    out = copy.deepcopy(draft)
    touched = set()
    boxes = sim.resolve_cells(truth)  # the box each turn's number is in, as the user sees it
    for m in sorted(marks):
        if m in ("start", "fish_marked", "crashes_marked", "used"):
            if m in truth:
                out[m] = copy.deepcopy(truth[m])
            else:
                out.pop(m, None)
            continue
        mm = re.fullmatch(r"turn\[(\d+)\]\.(\w+)", m)
        if not mm:
            continue
        i, key = int(mm.group(1)) - 1, mm.group(2)
        dturns, tturns = out.get("turn", []), truth.get("turn", [])
        if not (i < len(dturns) and i < len(tturns)):
            continue
        dt, tt = dturns[i], tturns[i]
        keys = {"flight": ("flight",), "value": ("puzzle", "value", "crash"), "dice": ("dice",),
                "use": ("use",), "from": ("from",)}.get(key, ())
        for k in keys:
            if k in tt:
                # a number is confirmed in the box the user sees it in (a row or column
                # named alone in the truth says no box)
                dt[k] = boxes[i] if k == "puzzle" and i < len(boxes) and boxes[i] else copy.deepcopy(tt[k])
            else:
                dt.pop(k, None)
        if keys:
            touched.add(i)
    # a marked turn that the sheet does not have: the user deletes it
    extra = {int(m.group(1)) - 1 for m in (re.fullmatch(r"turn\[(\d+)\]\.\w+", x) for x in marks) if m}
    extra = {i for i in extra if i >= len(truth.get("turn", []))}
    if extra and "turn" in out:
        out["turn"] = [t for i, t in enumerate(out["turn"]) if i not in extra]
    for i in touched:
        tt, dt = truth["turn"][i], out["turn"][i]
        box = boxes[i] if i < len(boxes) and boxes[i] else tt.get("puzzle")
        if all(dt.get(k) == tt.get(k) for k in ("flight", "value", "crash", "dice")) and dt.get("puzzle") in (box, tt.get("puzzle")):
            if "use" in tt:
                dt["use"] = copy.deepcopy(tt["use"])
            else:
                dt.pop("use", None)
    return out


# ---- the checker --------------------------------------------------------------------------------

def verdicts(paths: list[Path], env: dict) -> list[dict | None]:
    """`sheetkit check --json` of each record: (legal, total, eliminated), None if unusable."""
    def run(ps):
        r = subprocess.run(sheetkit_cmd() + ["check", "--json", *map(str, ps)], capture_output=True, text=True,
                           env=env, timeout=120)
        if r.returncode not in (0, 1):
            return None
        try:
            return json.loads(r.stdout)
        except json.JSONDecodeError:
            return None

    data = run(paths)
    if data is None or len(data) != len(paths):
        data = [(run([p]) or [None])[0] for p in paths]
    out = []
    for v in data:
        if not v:
            out.append(None)
            continue
        score = (v.get("scores") or [{}])[0]
        out.append({"legal": v.get("legal"), "total": score.get("total"), "eliminated": score.get("eliminated"),
                    "status": v.get("status")})
    return out


def same_verdict(a, b) -> bool:
    return a is not None and b is not None and (a["legal"], a["total"], a["eliminated"]) == (
        b["legal"], b["total"], b["eliminated"])


# ---- one photo ----------------------------------------------------------------------------------

def read_one(shot: dict, env: dict) -> dict:
    photo = Path(shot["photo"])
    draft_path = photo.with_suffix(".draft.toml")
    t = time.perf_counter()
    r = subprocess.run(sheetkit_cmd() + ["read", str(photo), "-o", str(draft_path)], capture_output=True, text=True,
                       env=env, timeout=600)
    seconds = time.perf_counter() - t
    res = {**shot, "seconds": round(seconds, 2), "rc": r.returncode}
    if r.returncode != 0 or not draft_path.exists():
        lines = [x for x in (r.stderr or r.stdout).strip().splitlines() if x.strip()]
        res["refused"] = lines[-1] if lines else f"exit {r.returncode}"
        return res
    truth = tomllib.loads(Path(shot["truth"]).read_text(encoding="utf-8"))
    text = draft_path.read_text(encoding="utf-8")
    draft = tomllib.loads(text)
    marks, asked = marked_fields(text), asked_fields(text)
    layout = layouts.load(truth["layout"])
    fields = compare(truth, draft, marks, layout, asked)
    confirmed = confirm(draft, truth, asked)
    conf_path = photo.with_suffix(".confirmed.toml")
    conf_path.write_text(to_toml(confirmed), encoding="utf-8")
    conf_fields = compare(truth, confirmed, set(), layout)
    again = read_again(photo, text, confirmed, truth, layout, env)
    v_truth, v_draft, v_conf = verdicts([Path(shot["truth"]), draft_path, conf_path], env)
    res.update({
        "draft": str(draft_path), "marks": sorted(marks), "asked": sorted(asked), "fields": fields,
        "layout_same": draft.get("layout") == truth.get("layout"),
        "turns": [len(truth.get("turn", [])), len(draft.get("turn", []))],
        "fields_right": all(f["right"] for f in fields),
        "fields_right_confirmed": all(f["right"] for f in conf_fields),
        "exact": same_record(truth, draft),
        "exact_confirmed": same_record(truth, confirmed),
        "verdict_truth": v_truth, "verdict_draft": v_draft, "verdict_confirmed": v_conf,
        "check_same": same_verdict(v_truth, v_draft), "check_same_confirmed": same_verdict(v_truth, v_conf),
    })
    if again is not None:
        v_again, v_final = verdicts([Path(again["draft"]), Path(again["final"])], env)
        again.update(check_same=same_verdict(v_truth, v_again), check_same_final=same_verdict(v_truth, v_final))
        res["again"] = again
    return res


def read_again(photo: Path, text: str, confirmed: dict, truth: dict, layout, env: dict) -> dict | None:
    """The player's next rounds on the command line: the draft with the fields it asks
    corrected and their `# check` deleted (its lists at the top kept, but for the fields it
    says wait on those: they are left to be read again), read again with `sheetkit read
    PHOTO --confirmed DRAFT`; again while the new draft asks something, ROUNDS times at
    most; then the fields the last draft asks confirmed as well. The fields asked over the
    rounds are counted. None when the reader refused it."""
    asked_total = set(asked_fields(text))
    for k in range(1, ROUNDS + 1):
        head = []
        for line in text.splitlines():
            if not line.startswith("#"):
                break
            if not re.match(r"#\s*(?:Waiting on those|A la espera de esos)", line):
                head.append(line)
        edited = photo.with_suffix(".edited.toml")
        edited.write_text("\n".join(head) + "\n" + to_toml(confirmed), encoding="utf-8")
        again_path = photo.with_suffix(".again.toml")
        r = subprocess.run(sheetkit_cmd() + ["read", str(photo), "--confirmed", str(edited), "-o", str(again_path)],
                           capture_output=True, text=True, env=env, timeout=600)
        if r.returncode != 0 or not again_path.exists():
            return None
        text = again_path.read_text(encoding="utf-8")
        draft = tomllib.loads(text)
        marks, asked = marked_fields(text), asked_fields(text)
        if k == 1:
            first_again = str(again_path.with_suffix(".1.toml"))
            Path(first_again).write_text(text, encoding="utf-8")
        confirmed = confirm(draft, truth, asked)
        asked_total |= asked
        if not asked:
            break
    final_path = photo.with_suffix(".final.toml")
    final_path.write_text(to_toml(confirmed), encoding="utf-8")
    fields = compare(truth, draft, marks, layout)
    return {"draft": first_again, "last": str(again_path), "final": str(final_path), "marks": sorted(marks),
            "rounds": k, "asked": len(asked_total),
            "wrong": sum(not f["right"] for f in fields),
            "wrong_unmarked": sum(not f["right"] and not f["marked"] for f in fields),
            "exact_final": same_record(truth, confirmed)}


# ---- the report ---------------------------------------------------------------------------------

def pct(a: int, b: int) -> str:
    return f"{a}/{b} ({100 * a / b:.0f} %)" if b else "0/0"


def report(results: list[dict], tiers: list[str]) -> str:
    lines = ["| tier | photos | refused | check same | exact (same record) | every field right | fields | wrong "
             "| wrong, not marked | asked to confirm | right once confirmed | check same once confirmed "
             "| s/photo mean | s/photo max |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    kinds = ["| tier | " + " | ".join(f"{k} wrong (unmarked)" for k in KINDS) + " |",
             "|---|" + "---|" * len(KINDS)]
    refusals = []
    for tier in tiers:
        rs = [r for r in results if r["tier"] == tier]
        read = [r for r in rs if "refused" not in r]
        fields = [f for r in read for f in r["fields"]]
        total = sum(1 for f in fields if not f["extra"])
        wrong = [f for f in fields if not f["right"]]
        sure_wrong = [f for f in wrong if not f["marked"]]
        marked = sum(1 for f in fields if f.get("asked", f["marked"]) and not f["extra"])
        secs = [r["seconds"] for r in rs]
        lines.append(
            f"| {tier} | {len(rs)} | {len(rs) - len(read)} | {pct(sum(r['check_same'] for r in read), len(rs))} "
            f"| {pct(sum(r['exact'] for r in read), len(rs))} | {pct(sum(r['fields_right'] for r in read), len(rs))} "
            f"| {total} | {len(wrong)} | {len(sure_wrong)} "
            f"| {marked} ({100 * marked / total if total else 0:.0f} % of fields) "
            f"| {pct(sum(r['exact_confirmed'] for r in read), len(rs))} "
            f"| {pct(sum(r['check_same_confirmed'] for r in read), len(rs))} "
            f"| {statistics.mean(secs):.1f} | {max(secs):.1f} |")
        row = []
        for k in KINDS:
            kf = [f for f in fields if f["kind"] == k]
            kt = sum(1 for f in kf if not f["extra"])
            kw = [f for f in kf if not f["right"]]
            row.append(f"{len(kw)}/{kt} ({sum(1 for f in kw if not f['marked'])})")
        kinds.append(f"| {tier} | " + " | ".join(row) + " |")
        refusals += [f"- {tier} `{Path(r['photo']).name}`: {r['refused']}" for r in rs if "refused" in r]
    second = ["| tier | read again | check same read again | ... once its asks are confirmed too "
              "| same record then | wrong, not marked, read again | fields asked over the rounds |",
              "|---|---|---|---|---|---|---|"]
    for tier in tiers:
        rs = [r for r in results if r["tier"] == tier]
        ag = [r["again"] for r in rs if "again" in r]
        total = sum(1 for r in rs if "refused" not in r for f in r["fields"] if not f["extra"])
        asked = sum(r["again"]["asked"] for r in rs if "again" in r)
        second.append(f"| {tier} | {len(ag)} | {pct(sum(a['check_same'] for a in ag), len(rs))} "
                      f"| {pct(sum(a['check_same_final'] for a in ag), len(rs))} "
                      f"| {pct(sum(a['exact_final'] for a in ag), len(rs))} "
                      f"| {sum(a['wrong_unmarked'] for a in ag)} "
                      f"| {asked} ({100 * asked / total if total else 0:.0f} % of fields) |")
    out = ["### `sheetkit read` on bench/unseen photos", "", *lines, "",
           "The asked fields confirmed, then read again (`sheetkit read --confirmed`), round after round:", "", *second, "",
           "Wrong fields by kind, of the fields of that kind (in brackets: wrong and not marked):", "", *kinds, ""]
    out += ["Refused:", "", *(refusals or ["- none"]), ""]
    return "\n".join(out)


def per_photo(results: list[dict]) -> str:
    out = ["| photo | level | kind | px/mm | tilt | turn ends | box marks | turns (truth/draft) | result "
           "| wrong (unmarked) | marked | s |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        m = r["meta"]
        cam = m["camera"]
        pen = m["pencil"]
        head = (f"| {Path(r['photo']).name} | {m['level']} | {'table' if m['table'] else 'solo'} | "
                f"{cam['px_per_mm']} | {cam['tilt_deg']} | {pen['end']} | {pen['counter']}, {pen['ability']} |")
        if "refused" in r:
            out.append(f"{head} {m['turns']}/- | refused | - | - | {r['seconds']} |")
            continue
        w = [f for f in r["fields"] if not f["right"]]
        res = "exact" if r["exact"] else ("fields right" if r["fields_right"] else (
            "check same" if r["check_same"] else "differs"))
        if not r["exact"] and r["exact_confirmed"]:
            res += ", right once confirmed"
        elif not r["fields_right"] and r["fields_right_confirmed"]:
            res += ", fields right once confirmed"
        elif not r["check_same"] and r["check_same_confirmed"]:
            res += ", check same once confirmed"
        out.append(f"{head} {r['turns'][0]}/{r['turns'][1]} | {res} | {len(w)} ({sum(not f['marked'] for f in w)}) "
                   f"| {sum(f['marked'] for f in r['fields'])} | {r['seconds']} |")
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Measure sheetkit read on photos of a simulator of its own.")
    ap.add_argument("--n", type=int, default=8, help="photos per tier (default 8)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tiers", default=",".join(sim.TIERS), help="comma-separated: easy,medium,hard")
    ap.add_argument("--out", help="folder for photos, truths and drafts (default: a new one under /tmp)")
    ap.add_argument("--paired", action="store_true", help="the same sheets in every tier")
    ap.add_argument("--jobs", type=int, default=2, help="photos drawn at once (default 2)")
    ap.add_argument("--photos", action="store_true", help="also print one line per photo")
    ap.add_argument("--pencil", default="", help="fix the players' ways on every sheet, e.g. end_style=dot,drift=0 "
                                                 "(the fields of simulate.Player)")
    a = ap.parse_args(argv)
    tiers = [t.strip() for t in a.tiers.split(",") if t.strip()]
    bad = [t for t in tiers if t not in sim.TIERS]
    if bad:
        ap.error(f"unknown tier {bad[0]!r}: choose from {', '.join(sim.TIERS)}")
    out = Path(a.out) if a.out else Path(tempfile.mkdtemp(prefix="sheetkit-unseen-"))
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8")
    jobs = plan(a.n, a.seed, tiers, a.paired)
    fixed = sim.parse_pencil(a.pencil)
    for j in jobs:
        j["pencil"] = fixed
    t0 = time.perf_counter()
    print(f"drawing {len(jobs)} photos into {out} ...", file=sys.stderr)
    if a.jobs > 1:
        with ProcessPoolExecutor(a.jobs) as pool:
            shots = list(pool.map(_make, jobs, [str(out)] * len(jobs)))
    else:
        shots = [_make(j, str(out)) for j in jobs]
    t1 = time.perf_counter()
    print(f"  {t1 - t0:.0f} s; reading them one at a time ...", file=sys.stderr)
    results = []
    for shot in shots:
        r = read_one(shot, env)
        results.append(r)
        status = r.get("refused") or ("exact" if r["exact"] else f"{sum(not f['right'] for f in r['fields'])} wrong")
        print(f"  {Path(r['photo']).name}: {r['seconds']:.1f} s, {status}", file=sys.stderr)
    (out / "results.json").write_text(json.dumps(results, indent=1, default=str), encoding="utf-8")
    print(report(results, tiers))
    if a.photos:
        print(per_photo(results))
        print()
    print(f"seed {a.seed}, {a.n} per tier{', paired' if a.paired else ''}{', pencil ' + a.pencil if a.pencil else ''}; photos, truths, drafts and "
          f"results.json in {out}; drawing {t1 - t0:.0f} s, reading and checking {time.perf_counter() - t1:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
