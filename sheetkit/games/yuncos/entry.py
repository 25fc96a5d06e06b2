"""Yuncos entered on the page as it is played: one sheet per player (1-5), turn by turn.

The records are plain dicts in sheetkit's Yuncos notation (docs/yuncos-records.md), one
per player, in the table's order; no function here changes the records it is given. A
turn is entered player after player: the first one to enter turn n enters the turn's dice
too, and every later sheet of that turn gets the same dice (they are rolled once for the
whole table). Each move is checked at once by the engine of `sheetkit check`: a single
sheet for a solo game, else the table check of the sheets held in memory
(`table.table_from_sheets`, which opens no file).

What the paper would show follows the rules: the fish counter and the crash track of the
player's sheet are marked as the replay says (the page is the sheet). When the game ends by
the rules (a player came back to the island with 4 stars, or completed both puzzles, and
every player has entered that turn; or every Yunco is eliminated), the records are
finished (`in_progress` is dropped) without asking.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from sheetkit.errors import FieldError, UserError
from sheetkit import forms as inputs
from sheetkit.forms import FormError
from sheetkit.messages import finding_on_page
from sheetkit.games.interface import records_of
from sheetkit.forms import Words, english
from sheetkit.memo import NOT_PLAIN, Memo, plain

LEVELS = ("yuncos-easy", "yuncos-hard")
MOST_PLAYERS = 5  # on the page: 1-5 players (a table record allows up to 6)
MOST_USES = 3  # ability boxes of one kind spent in one turn
SOURCE = "play"


# ------------------------------------------------------------------ new play



def new_records(start, t: Callable = english) -> list[tuple[str | None, dict[str, Any]]]:
    """The blank sheets of a new play, from the start form (`start.variant`: the level,
    `start.players`: 1 to 5 names, one is a solo game)."""
    return blank_sheets(start.variant, list(start.players), t)


def first_start(spec) -> int:
    """The start point a sheet names until its first turn taps one: the island's first."""
    return min(spec.board.starts)


def blank_sheets(level: str, names: list[str], t: Callable = english) -> list[tuple[str | None, dict[str, Any]]]:
    """One blank sheet in progress per player, in the table's order. The start point is
    tapped on the map at each player's first turn; until then a sheet names the island's
    first one."""
    from sheetkit import layouts

    if level not in LEVELS:
        raise FormError(t("err_choice", field=t("level")))
    if not 1 <= len(names) <= MOST_PLAYERS:
        raise FormError(t("yuncos.err_players", n=len(names), most=MOST_PLAYERS))
    seen: set[str] = set()
    for n in names:
        if n.casefold() in seen:
            raise FormError(t("err_name_twice", field=t("player"), name=n))
        seen.add(n.casefold())
    start = first_start(layouts.load(level).spec)
    out: list[tuple[str | None, dict[str, Any]]] = []
    for n in names:
        rec: dict[str, Any] = {"game": "yuncos", "layout": level, "start": start}
        if len(names) == 1:
            rec["solo"] = True
        rec.update({"in_progress": True, "fish_marked": 0, "crashes_marked": 0, "turn": []})
        out.append((n, rec))
    return out


# ------------------------------------------------------------------ checking


# A move checks its table twice, to see whether the game is over and as the play's verdict:
# the same records (kept by identity: the entries make new records, never change one).
_TABLES = Memo(64)


def table_check(records, prior=None):
    """The Checked of the whole play as the page shows it: the solo sheet, or the table of
    every sheet held in memory (its state: player name -> replayed Sheet); the history
    keeps each sheet's own. `prior`: the play's Checked some turns earlier, gone on from
    (one step a turn). This is the game's Entry.together."""
    return _TABLES.kept(tuple(n for n, _ in records), tuple(r for _, r in records) + (prior,),
                        lambda: _table_check(records, prior))


def _table_check(records, prior):
    from sheetkit.games.yuncos.check import check as check_sheet
    from sheetkit.games.yuncos.record import read_record
    from sheetkit.games.yuncos.table import check_table, table_from_sheets

    if len(records) == 1:
        record = read_record(records[0][1], SOURCE)
        if record.kind == "table":  # a whole table in one record (logged so by the command line)
            return check_table(record, SOURCE, prior=prior)
        return check_sheet(record, SOURCE, prior)
    progress = any(r.get("in_progress") for _, r in records)
    table = table_from_sheets([(n or "", r) for n, r in records], SOURCE, in_progress=progress)
    return check_table(table, SOURCE, prior=prior)


def together_of(position):
    """The play's Checked together of a position (Result.together)."""
    return position[0].together


def table_text(records) -> str:
    """The whole table as one record, every sheet inline (`[player.sheet]`): what the page
    downloads, and what it accepts back; `sheetkit check` of it checks the table."""
    from sheetkit.tomlfile import dump_toml

    data: dict[str, Any] = {"game": "yuncos", "kind": "table"}
    if any(r.get("in_progress") for _, r in records):
        data["in_progress"] = True
    data["player"] = [{"name": n, "sheet": {k: v for k, v in r.items() if k != "lang"}} for n, r in records]
    return dump_toml(data, "A Yuncos table entered on the sheetkit score-keeper page, every sheet inline. "
                           "Check it: sheetkit check FILE")


# ------------------------------------------------------------------ whose turn


@dataclass(frozen=True)
class Turn:
    """Who enters what next: the player (index in the table) and the turn number, and the
    dice of that turn if another player entered them already."""

    seat: int
    number: int
    dice: tuple[int, int] | None


def states(records, checked) -> list:
    """Each player's replayed Sheet (rules.Sheet), in the table's order."""
    if len(records) == 1:
        return [checked.state]
    return [checked.state[n] for n, _ in records]


def next_turn(records, checked) -> Turn | None:
    """The next move to enter, or None when the game is over by the rules: everybody has
    entered the turn in which the first player ended it, or every Yunco is eliminated."""
    from sheetkit.games.yuncos.table import whose_turn

    sheets = states(records, checked)
    alive = [i for i, s in enumerate(sheets) if s.eliminated is None]
    due = whose_turn([len(r["turn"]) for _, r in records], alive, _ended(records, checked, sheets) is not None)
    if due is None:
        return None
    seat, n = due
    dice = next((tuple(r["turn"][n - 1]["dice"]) for _, r in records
                 if len(r["turn"]) >= n and r["turn"][n - 1].get("dice")), None)
    return Turn(seat, n, dice)


def _ended(records, checked, sheets) -> int | None:
    """The turn in which the game ended (Y21), by the table's reading."""
    if len(records) == 1:
        return sheets[0].end[0] if sheets[0].end else None
    end = checked.verdict.details.end
    return end["turn"] if end else None


def last_move(records) -> int | None:
    """The seat whose move was entered last (turn by turn, in the table's order)."""
    lengths = [len(r["turn"]) for _, r in records]
    longest = max(lengths)
    if not longest:
        return None
    return max(i for i, n in enumerate(lengths) if n == longest)


# ------------------------------------------------------------------ moves


def add_move(position, form: Mapping[str, str], t: Callable = english):
    """The records with the next player's turn added, from the move form:

    - `flight`: the steps in the notation ("E E N", "NE 2S"), drawn by taps on the map;
    - `puzzle`: nest1, nest2, lum1... (the next free box) or `crash` (a ground crash),
      `value`: 1-6;
    - `die1`, `die2`: the turn's dice, 1-6 (only the first player to enter the turn);
    - `plusminus`, `yunco`: how many of those ability boxes the turn spends (0-3); drawn
      diagonal steps count as diagonal uses by themselves;
    - `start`: at a player's first turn, the island's start point (its number);
    - `seat`, `turn` (optional): whose move the form was made for; a form sent twice, or
      from an old page, is refused instead of entered for the wrong player.

    A move that breaks a rule is entered (the check says what is wrong); a value that cannot
    be a move at all is a FormError and nothing changes."""
    records = records_of(position)
    checked = together_of(position)
    nxt = next_turn(records, checked)
    if nxt is None:
        raise FormError(t("yuncos.err_over"))
    _expect(form, nxt, records, t)
    name, rec = records[nxt.seat]
    spec = _spec(rec)
    turn = read_turn(form, spec, nxt.dice, t)
    new = dict(rec, turn=rec["turn"] + [turn])
    if not rec["turn"] and form.get("start"):
        new["start"] = _start(form, spec, t)
    out = list(records)
    out[nxt.seat] = (name, _marked(new, position[nxt.seat].checked))
    return _finish_if_over(out, checked)


def read_turn(form, spec, dice, t: Callable = english) -> dict[str, Any]:
    """A [[turn]] table of the move form (see add_move); `dice`: the turn's dice when another
    sheet gave them already, else read from the form."""
    turn: dict[str, Any] = {"flight": _flight(form, t)}
    puzzle = form.get("puzzle", "")
    cells = ["nest1", "nest2"] + [f"lum{c + 1}" for c in range(spec.luminaries.columns)]
    if puzzle == "crash":
        turn["crash"] = True
    elif puzzle in cells:
        turn["puzzle"] = puzzle
        turn["value"] = die(form, "value", t("yuncos.value"), t)
    elif not puzzle:
        raise FormError(t("yuncos.err_puzzle"))
    else:
        raise FormError(t("err_choice", field=t("yuncos.puzzle")))
    dice = dice or (die(form, "die1", t("yuncos.die", n=1), t), die(form, "die2", t("yuncos.die", n=2), t))
    turn["dice"] = list(dice)
    use = []
    for kind in ("plusminus", "yunco"):
        use += [kind] * inputs.integer(form, kind, t(f"yuncos.{kind}"), 0, MOST_USES, t)
    if use:
        turn["use"] = use
    return turn


# ------------------------------------------------------------------ fixing an earlier turn


def order(records) -> list[tuple[int, int]]:
    """(seat, turn number) of every move entered, in the order entered: turn by turn, in the
    table's order."""
    lengths = [len(r["turn"]) for _, r in records]
    return [(seat, n) for n in range(1, max(lengths, default=0) + 1) for seat, k in enumerate(lengths) if k >= n]


def _where_label(turn: dict[str, Any], t: Callable) -> str:
    if turn.get("crash"):
        return t("yuncos.crash")
    cell = str(turn.get("puzzle", ""))
    label = t("yuncos.nest", n=cell[4:]) if cell.startswith("nest") else t("yuncos.lum", n=cell[3:]) if cell.startswith("lum") else cell
    return f"{label} {turn.get('value', '')}".strip()


def form_of_turn(rec: dict[str, Any], n: int) -> dict[str, str]:
    """The move form's fields of turn n (from 1) of a sheet."""
    turn = rec["turn"][n - 1]
    form = {"flight": str(turn.get("flight", "")), "puzzle": "crash" if turn.get("crash") else str(turn.get("puzzle", "")),
            "plusminus": str(list(turn.get("use") or []).count("plusminus")),
            "yunco": str(list(turn.get("use") or []).count("yunco"))}
    if "value" in turn:
        form["value"] = str(turn["value"])
    for i, d in enumerate(list(turn.get("dice") or [])[:2], 1):
        form[f"die{i}"] = str(d)
    if n == 1:
        form["start"] = str(rec.get("start", ""))
    return form


def moves(position, t: Callable = english, forms: bool = True) -> list[dict[str, Any]]:
    """Each turn entered, in the order entered: its number, what it was, its form (not
    with `forms` false: the list of moves shows none) and the table's findings at it."""
    records = records_of(position)
    findings = together_of(position).verdict.findings
    solo = len(records) == 1
    lang = _lang(t)
    at: dict[tuple, list] = {}  # (turn, player: None when solo) -> the findings there, once for every move
    for f in findings:
        where = f.at or {}
        at.setdefault((where.get("turn"), None if solo else where.get("player")), []).append(f)
    out = []
    for k, (seat, n) in enumerate(order(records), 1):
        name, rec = records[seat]
        turn = rec["turn"][n - 1]
        row = {"n": k, "seat": seat, "turn": n, "text": _move_text(t, n, name, turn),
               "findings": [finding_on_page(f, lang) for f in at.get((n, None if solo else name), ())]}
        if forms:
            row["form"] = {**form_of_turn(rec, n), "seat": str(seat), "turn": str(n)}
        out.append(row)
    return out


# A move's line in the list, by the page's language and what it shows: the page lists every
# move at every move, each said the same as the time before.
_MOVE_TEXTS = Memo(4096)


def _move_text(t: Callable, n: int, name: str | None, turn: dict[str, Any]) -> str:
    key, got = None, None
    if type(t) is Words:  # the page's words: what they say is their language's
        said = plain((n, name, turn.get("flight"), turn.get("crash"), turn.get("puzzle"), turn.get("value")))
        if said is not NOT_PLAIN:  # anything else is said each time
            key = (t.lang, said)
            got = _MOVE_TEXTS.get(key)
    if got is None:
        got = t("yuncos.move", n=n, name=name or "", flight=turn.get("flight", ""), where=_where_label(turn, t))
        if key is not None:
            _MOVE_TEXTS.put(key, (), got)
    return got


def replace_move(position, n: int, form: Mapping[str, str], t: Callable = english):
    """The records with move n (from 1, in the order entered) replaced by the form's turn:
    that sheet's turn, its fish counter and crash track marked again; every other turn as it
    was (a later turn that no longer fits shows its finding)."""
    records = records_of(position)
    moves_ = order(records)
    if not isinstance(n, int) or not 1 <= n <= len(moves_):
        raise FormError(t("err_no_such_move", n=n))
    seat, k = moves_[n - 1]
    name, rec = records[seat]
    spec = _spec(rec)
    turns = list(rec["turn"])
    turns[k - 1] = read_turn(form, spec, None, t)
    new = dict(rec, turn=turns)
    if k == 1 and form.get("start"):
        new["start"] = _start(form, spec, t)
    out = list(records)
    out[seat] = (name, _marked(new))
    return out


def undo(position, t: Callable = english):
    """The records without the move entered last (and in progress again)."""
    records = records_of(position)
    seat = last_move(records)
    if seat is None:
        raise FormError(t("yuncos.err_nothing"))
    name, rec = records[seat]
    back = dict(rec, turn=rec["turn"][:-1])
    if not back["turn"]:  # the start point was tapped at the first turn: the blank sheet's again
        back["start"] = first_start(_spec(rec))
    out = [(n, _in_progress(r)) for n, r in records]
    out[seat] = (name, _marked(_in_progress(back)))
    return out


def finish(position, form: Mapping[str, str] | None = None, t: Callable = english):
    """The records finished as they are (a table that stops before the rules end it: the
    check then says so, Y21)."""
    records = records_of(position)
    if last_move(records) is None:
        raise FormError(t("yuncos.err_nothing"))
    return [(n, _finished(r)) for n, r in records]


def _finish_if_over(records, prior=None):
    if next_turn(records, table_check(records, prior)) is None:
        return [(n, _finished(r)) for n, r in records]
    return records


def _finished(rec: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in rec.items() if k != "in_progress"}


def _in_progress(rec: dict[str, Any]) -> dict[str, Any]:
    """The record with in_progress = true in its place (after solo/layout/start)."""
    if rec.get("in_progress"):
        return rec
    out: dict[str, Any] = {}
    for k, v in rec.items():
        if k == "fish_marked":
            out["in_progress"] = True
        out[k] = v
    return out


def _marked(rec: dict[str, Any], prior=None) -> dict[str, Any]:
    """The sheet with its fish counter and crash track marked as its turns say (`prior`: the
    sheet's check before the turn, gone on from)."""
    from sheetkit.games.yuncos.check import check as check_sheet
    from sheetkit.games.yuncos.record import read_record
    from sheetkit.games.yuncos.scoring import CRASH_TRACK

    try:
        parsed = read_record(dict(rec, in_progress=True), SOURCE)
    except UserError as e:
        raise FormError(str(e)) from None
    s = check_sheet(parsed, SOURCE, prior).state
    return dict(rec, fish_marked=min(len(s.fish), len(parsed.spec.fish.values)),
                crashes_marked=min(s.marks, len(CRASH_TRACK)))


def _spec(rec):
    from sheetkit import layouts

    return layouts.load(rec["layout"]).spec


def _expect(form, nxt: Turn, records, t) -> None:
    for key, want in (("seat", nxt.seat), ("turn", nxt.number)):
        if form.get(key, "").strip() and inputs.integer(form, key, key, 0, 10_000, t, default=-1) != want:
            raise FormError(t("yuncos.err_stale", name=records[nxt.seat][0] or "", n=nxt.number))


def _flight(form, t) -> str:
    from sheetkit.games.yuncos.record import parse_flight

    raw = form.get("flight", "")
    text = " ".join(raw.split()) if isinstance(raw, str) else ""
    if not text:
        raise FormError(t("yuncos.err_flight_empty"))
    if len(text) > 200:
        raise FormError(t("yuncos.err_flight", got=inputs.shown(raw), why=t("yuncos.too_long")))
    try:
        parse_flight(text)
    except FieldError as e:
        raise FormError(t("yuncos.err_flight", got=inputs.shown(raw), why=e.message)) from None
    return text


def die(form, key: str, field: str, t) -> int:
    if not str(form.get(key, "")).strip():
        raise FormError(t("yuncos.err_missing", field=field))
    return inputs.integer(form, key, field, 1, 6, t)


def _start(form, spec, t) -> int:
    starts = sorted(spec.board.starts)
    n = inputs.integer(form, "start", t("yuncos.start"), min(starts), max(starts), t)
    if n not in starts:
        raise FormError(t("err_choice", field=t("yuncos.start")))
    return n


# ------------------------------------------------------------------ what the page shows


def view(results, t: Callable = english, lang: str = "en", form: Mapping[str, str] | None = None) -> dict[str, Any]:
    """What play_yuncos.html shows (as `y`): the table's verdict (findings with rule id, where and
    sentence), each player's fish, stars, crashes and score, and for the player whose turn
    is entered the sheet's map and puzzles drawn from the checked sheet's scene (the scene
    of `sheetkit check --render`), with what the script needs to turn taps into a flight."""
    import json

    from sheetkit.games.yuncos.compose import CONTENT_W, sheet_geometry
    from sheetkit.games.yuncos.moves import ready
    from sheetkit.games.yuncos.overlay import overlay
    from sheetkit.games.yuncos.rules import next_free
    from sheetkit.paper import svg

    records = [(r.player, r.data) for r in results]
    table = together_of(results)
    verdict = table.verdict
    nxt = next_turn(records, table)
    sheets = states(records, table)
    spec = results[0].loaded.record.spec
    board = spec.board
    g = sheet_geometry(spec, "a4")

    rows = []
    for i, ((name, rec), s, score) in enumerate(zip(records, sheets, verdict.scores)):
        rows.append({"seat": i, "name": name, "turns": len(rec["turn"]), "fish": len(s.fish), "stars": len(s.stars),
                     "colours": len({c for _, c in s.stars}), "crashes": s.marks, "total": score.total,
                     "eliminated": s.eliminated is not None, "to_move": nxt is not None and nxt.seat == i})

    hard = spec.level == "hard"
    right = g.ox + CONTENT_W + 1 if hard else g.map_x + g.map_w + 5
    map_box = (g.map_x - 8, g.map_y - 7, right - (g.map_x - 8), g.map_h + 10)
    puzzle_box = (g.ox - 2, g.puzzles_y - 1, CONTENT_W + 4, g.score_y + 15 - g.puzzles_y)

    def drawn(i: int) -> dict[str, Any]:
        r = results[i]
        scene = overlay(r.loaded.record, r.checked.on_page(lang), "a4", lang)
        title = t("yuncos.sheet_of", name=r.player or "")
        drawn_map, puzzles = svg.page_views(scene, 0, [map_box, puzzle_box], title=title)
        return {"name": r.player, "map": drawn_map, "puzzles": puzzles}

    entry = None
    due = (nxt.seat, nxt.number, nxt.dice) if nxt is not None else None
    fixing = _fixing(records, (form or {}).get("fix"))
    if fixing is not None:  # the form of an earlier turn (the fix page): as it was entered
        seat, k = fixing
        rec = records[seat][1]
        due = (seat, k, None)
    if due is not None:
        seat, number, dice = due
        rec = records[seat][1]
        s = sheets[seat] if fixing is None else _before(rec, number)
        cells = [{"name": f"nest{r + 1}", "label": t("yuncos.nest", n=r + 1), "full": next_free(s.nests[r]) is None}
                 for r in range(2)]
        cells += [{"name": f"lum{c + 1}", "label": t("yuncos.lum", n=c + 1), "full": next_free(s.lums[c]) is None}
                  for c in range(spec.luminaries.columns)]
        regions = []
        for r in range(2):
            x0, y0, _, h = g.nest_box(r, 0)
            x1, _, w1, _ = g.nest_box(r, spec.nests.length - 1)
            regions.append({"cell": f"nest{r + 1}", "box": [x0, y0, x1 + w1 - x0, h]})
        for c in range(spec.luminaries.columns):
            x0, top, w, _ = g.lum_box(c, spec.luminaries.height - 1)
            _, y1, _, h1 = g.lum_box(c, 0)
            regions.append({"cell": f"lum{c + 1}", "box": [x0, top, w, y1 + h1 - top]})
        geometry = {"x": g.map_x, "y": g.map_y, "sq": g.square, "w": board.width, "h": board.height,
                    "pos": list(s.pos), "first": not rec["turn"] or number == 1 and fixing is not None,
                    "starts": {str(n): list(v) for n, v in board.starts.items()}, "regions": regions}
        first = not rec["turn"] or (fixing is not None and number == 1)
        entry = {"seat": seat, "turn": number, "name": records[seat][0], "dice": dice,
                 "cells": cells, "usable": ready(s, number), "first": first,
                 "starts": sorted(board.starts), "start": rec["start"],
                 "geometry": json.dumps(geometry, separators=(",", ":")), "sheet": drawn(seat)}
    from sheetkit.messages import text

    status = t("legal") if verdict.legal else text("status.illegal", lang, n=verdict.errors)
    if verdict.in_progress:
        status += f" ({t('in_progress')})"
    return {"y": {"level": spec.level, "solo": len(records) == 1, "players": rows, "entry": entry,
                  "over": nxt is None, "legal": verdict.legal, "status": status, "findings": [finding_on_page(f, lang) for f in verdict.findings],
                  "scores": [_score_rows(s, lang) for s in verdict.scores], "v": form or {}, "moves": moves(results, t, forms=False)},
            "ended": ended(results, t, lang)}


def _score_rows(score, lang: str) -> dict[str, Any]:
    """A sheet's score as the page shows it: its parts in the page's language."""
    from sheetkit.checking.verdict import part_label

    return {"player": score.player, "eliminated": score.eliminated, "total": score.total,
            "parts": [(part_label(label, lang), pts) for label, pts in score.parts]}


def _fixing(records, raw) -> tuple[int, int] | None:
    """(seat, turn number) of the move the fix page fixes (`fix`: its number), else None."""
    if not isinstance(raw, str) or not raw.isdigit() or len(raw) > 6:
        return None
    moves_ = order(records)
    n = int(raw)
    return moves_[n - 1] if 1 <= n <= len(moves_) else None


def _before(rec: dict[str, Any], number: int):
    """The replayed sheet before its turn `number` (where that turn's flight starts)."""
    from sheetkit.games.yuncos.check import check as check_sheet
    from sheetkit.games.yuncos.record import read_record

    back = dict(rec, turn=rec["turn"][:number - 1], in_progress=True)
    return check_sheet(read_record(back, SOURCE), SOURCE).state


def ended(results, t: Callable = english, lang: str = "en") -> str | None:
    """Why the game ended, when the rules ended it (Y21: a player's return with 4 stars, or
    both puzzles complete, the turn then entered by everybody; or every Yunco eliminated);
    None for a game in progress or one the players stopped early."""
    from sheetkit.checking.verdict import say

    records = records_of(results)
    if any(r.get("in_progress") for _, r in records):
        return None
    table = together_of(results)
    sheets = states(records, table)
    end = _ended(records, table, sheets)
    if end is None:
        if all(s.eliminated is not None for s in sheets):
            return t("yuncos.end_eliminated")
        return None
    if len(records) == 1:
        reason = sheets[0].end[1]
    else:
        reason = table.verdict.details.end.get("reason")
    return t("yuncos.end_why", turn=end, reason=say(reason, lang) if reason is not None else "")


# ------------------------------------------------------------------ the quick tally


def tally_context(form, session, t: Callable = english, step=None, refused: bool = False) -> dict[str, Any]:
    return {}


def tally_score(form: Mapping[str, str], session, t: Callable = english):
    """The quick tally's counts scored as `sheetkit score yuncos` scores them."""
    from sheetkit.checking.verdict import Verdict
    from sheetkit.forms import BIG
    from sheetkit.games.interface import Outcome
    from sheetkit.games.yuncos.scoring import TallyDetails, rank
    from sheetkit.games.yuncos.tally import tally_counts

    level = inputs.choice(form, "level", t("level"), ("easy", "hard"), t, "easy")
    counts = {k: inputs.integer(form, k, t(k), 0, BIG, t)
              for k in ("nests", "columns", "fish", "stars", "colours", "crashes")}
    solo = form.get("solo") == "on"
    try:
        score = tally_counts(level, solo=solo, **counts)
    except UserError as e:  # a count the sheet cannot hold: say it with the page's label
        line = e.line("en")
        option = line.split(" ", 1)[0].lstrip("-")
        if option in counts:
            raise FormError(f"{t(option)}: {e.line(_lang(t)).split(': ', 1)[-1]}") from None
        raise
    details = TallyDetails(level, rank(score.total) if solo else None)
    return Outcome(Verdict(game="yuncos", source=TALLY_SOURCE, scores=[score], details=details))


TALLY_SOURCE = "web form"


def _lang(t: Callable) -> str:
    return getattr(t, "lang", "en")  # the page's Words; a plain function speaks English
