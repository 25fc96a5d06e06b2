"""Glüx entered placement by placement: a game record (`kind = "game"`, `in_progress =
true`) whose `moves` grow by one line a tap.

The start form gives the board side, the players (seat order from the first player on)
and the face each one's start chip shows. Start squares go to the seats around the board
in order (clockwise from the top left; with 2 players, opposite corners), letters A-D and
the colours of the chips in that order. A placement is "LETTER SQUARE FACE" (the chip
counted from is the one that reaches the square, as the checker finds it) or "LETTER start
FACE" (G8); a placement that breaks a rule is entered all the same and shows its finding.
"""

from __future__ import annotations

import copy
import math
from typing import Any, Callable

from sheetkit import forms as inputs
from sheetkit.forms import FormError
from sheetkit.forms import english
from sheetkit.messages import finding_on_page
from sheetkit.games.interface import records_of

from sheetkit.games.glux import GAME

VARIANTS = GAME.entry.variants  # the board sides: (value, label key)
LETTERS = "ABCD"
COLOURS = ("yellow", "green", "red", "violet")
FACES = range(1, 7)


def _side(variant: str):
    from sheetkit import layouts

    return layouts.load(f"glux-board-{variant}").spec


def start_squares(side, n: int) -> list[tuple[int, int]]:
    """The start squares for n players, in seat order around the board: counter-clockwise
    on the screen from the top-left corner (with 2 players, opposite corners)."""
    if n == 2:
        return [(0, 0), (side.width - 1, side.height - 1)]
    squares = side.start_squares(n)
    cx, cy = (side.width - 1) / 2, (side.height - 1) / 2
    first = math.atan2(-cy, -cx)
    return sorted(squares, key=lambda s: (first - math.atan2(s[1] - cy, s[0] - cx)) % (2 * math.pi))


def start_choices() -> list[str]:
    """The squares offered as start squares on the start form (of either board side)."""
    from sheetkit.grid import square_name

    out = set()
    for variant, _ in VARIANTS:
        side = _side(variant)
        out |= {square_name(s) for s in side.corners()} | {square_name(s) for s in side.starts}
    return sorted(out, key=lambda n: (n[0], int(n[1:])))


def start_context(store, t: Callable = english) -> dict[str, Any]:
    return {"start_choices": start_choices()}


def new_records(start, t) -> list[tuple[None, dict[str, Any]]]:
    from sheetkit.grid import parse_square, square_name

    side = _side(start.variant)
    n = len(start.seats)
    if n not in side.players:
        raise FormError(t("err_glux_side", n=n, side=t(dict(VARIANTS)[start.variant])))
    chosen = {}
    for slot, name in start.seats:
        raw = start.form.get(f"start_sq{slot}", "")
        if raw:
            sq = parse_square(raw) if isinstance(raw, str) and len(raw) <= 5 else None
            if sq is None or not side.on_board(sq):
                raise FormError(t("err_not_square", got=inputs.shown(str(raw)), w=side.width, h=side.height))
            if sq in chosen.values():
                raise FormError(t("err_start_twice", square=square_name(sq)))
            chosen[slot] = sq
    free = [s for s in start_squares(side, n) if s not in chosen.values()]
    players = []
    for k, (slot, name) in enumerate(start.seats):
        face = inputs.integer(start.form, f"start_chip{slot}", t("start_chip_of", name=name), 1, 6, t, default=None)
        if face is None:
            raise FormError(t("err_start_chip", name=name))
        sq = chosen[slot] if slot in chosen else free.pop(0)
        players.append({"name": name, "letter": LETTERS[k], "colour": COLOURS[k], "start": square_name(sq),
                        "start_chip": face})
    return [(None, {"game": "glux", "kind": "game", "board": f"glux-board-{start.variant}", "in_progress": True,
                    "players": players, "moves": ""})]


def open_record(data: dict[str, Any], form, t) -> list[tuple[None, dict[str, Any]]]:
    if data.get("kind") != "game":
        raise FormError(t("err_glux_board_record"))
    data = copy.deepcopy(data)
    moves = str(data.get("moves", ""))
    if moves and not moves.endswith("\n"):  # every line ends: a placement added and undone gives it back exactly
        data["moves"] = moves + "\n"
    return [(None, data)]


def _is_move(line: str) -> bool:
    return bool(line.split("#", 1)[0].strip())


def _lines(data) -> list[str]:
    return [ln for ln in str(data.get("moves", "")).splitlines() if _is_move(ln)]


def read_line(form, data, t) -> str:
    """The placement line of the entry form ("A C4 3", "B start 5"), or FormError for what
    is no placement at all."""
    from sheetkit.grid import parse_square, square_name

    letters = [p["letter"] for p in data["players"]]
    letter = inputs.choice(form, "player", t("who_places"), letters, t, "")
    face = inputs.integer(form, "face", t("chip_face"), 1, 6, t, default=None)
    if face is None:
        raise FormError(t("err_face"))
    action = inputs.choice(form, "action", t("place_button"), ("place", "start"), t, "place")
    if action == "start":
        return f"{letter} start {face}"
    raw = form.get("square", "")
    sq = parse_square(raw) if isinstance(raw, str) and len(raw) <= 5 else None
    side = _side_of(data)
    if not raw:
        raise FormError(t("err_square"))
    if sq is None or not side.on_board(sq):
        raise FormError(t("err_not_square", got=inputs.shown(raw), w=side.width, h=side.height))
    return f"{letter} {square_name(sq)} {face}"


def add_move(position, form, t):
    """The record with the form's placement added; when nobody can place any more after it
    (G10), finished in the same step (`in_progress` dropped)."""
    records = records_of(position)
    (player, data), = records
    if _over(position[0]):  # nobody can place any more (G10): no move is offered, none is taken
        raise FormError(t("glux.over"))
    line = read_line(form, data, t)
    data = copy.deepcopy(data)
    moves = str(data.get("moves", ""))  # the lines as they are, comments of an uploaded record kept
    data["moves"] = moves + ("\n" if moves and not moves.endswith("\n") else "") + line + "\n"
    return _finish_if_over([(player, data)], position[0])


def _finish_if_over(records, prior):
    """The records finished when the rules end the game with them (G10: no player can place
    any more), else as they are; checked going on from `prior` (the Result before the move)."""
    from sheetkit.games.glux.check import check
    from sheetkit.games.glux.moves import legal_moves_of
    from sheetkit.games.glux.record import read_record

    (player, data), = records
    record = read_record(copy.deepcopy(data), prior.source)  # the game's own reading: one step from `prior`
    if legal_moves_of(record, check(record, prior.source, prior.checked)).player is None:
        return [(player, {k: v for k, v in data.items() if k != "in_progress"})]
    return records


def _over(result) -> bool:
    """The game of this checked record is over: no player has a chip and a legal placement."""
    from sheetkit.games.glux.moves import legal_moves_of

    return legal_moves_of(result.loaded.record, result.checked).player is None


def ended(result, t, over: bool | None = None) -> str | None:
    """Why the game ended, when the rules ended it (the record finished and nobody can place
    any more, G10); None for a game in progress or one the players stopped early. `over`:
    whether nobody can place, when already known."""
    if result.data.get("in_progress") or result.data.get("kind") != "game":
        return None
    return t("glux.end_why") if (_over(result) if over is None else over) else None


# -- fixing an earlier placement -----------------------------------------------------------

def _move_lines(data) -> list[int]:
    """The indexes (in the record's `moves` lines) of the placement lines, in order."""
    lines = str(data.get("moves", "")).splitlines(keepends=True)
    return [i for i, ln in enumerate(lines) if _is_move(ln)]


def form_of_line(line: str) -> dict[str, str]:
    """The entry form's fields of a placement line ("A C4 3", "A B3-C4 3", "A start 3")."""
    parts = line.split("#", 1)[0].split()
    form = {"player": parts[0] if parts else ""}
    if len(parts) >= 3:
        form["face"] = parts[2]
        if parts[1].lower() == "start":
            form["action"] = "start"
        else:
            form.update(action="place", square=parts[1].split("-")[-1])
    return form


def moves(position, t) -> list[dict[str, Any]]:
    """Each placement entered: its number, its line, its form and the findings at it."""
    r = position[0]
    at: dict[int, list] = {}
    for f in r.verdict.findings:
        turn = (f.at or {}).get("turn")
        if isinstance(turn, int):
            at.setdefault(turn, []).append(f)
    out = []
    for i, line in enumerate(_lines(r.data), 1):
        out.append({"n": i, "text": line.split("#", 1)[0].strip(), "form": form_of_line(line),
                    "findings": [finding_on_page(f, getattr(t, "lang", "en")) for f in at.get(i, [])]})
    return out


def replace_move(position, n: int, form, t):
    """The record with placement n (from 1) replaced by the form's, every other line (and
    comment) as it was."""
    (player, data), = records_of(position)
    lines = str(data.get("moves", "")).splitlines(keepends=True)
    where = _move_lines(data)
    if not isinstance(n, int) or not 1 <= n <= len(where):
        raise FormError(t("err_no_such_move", n=n))
    line = read_line(form, data, t)
    old = lines[where[n - 1]]
    comment = old.split("#", 1)[1].rstrip("\r\n") if "#" in old else None
    end = old[len(old.rstrip("\r\n")):] or ""
    lines[where[n - 1]] = line + (f"  #{comment}" if comment is not None else "") + end
    data = copy.deepcopy(data)
    data["moves"] = "".join(lines)
    return [(player, data)]


def undo(position, t):
    """The last placement's line taken out, every other line as it was."""
    records = records_of(position)
    (player, data), = records
    lines = str(data.get("moves", "")).splitlines(keepends=True)
    last = next((i for i in range(len(lines) - 1, -1, -1) if _is_move(lines[i])), None)
    if last is None:
        raise FormError(t("err_nothing_to_undo"))
    data = copy.deepcopy(data)
    data["moves"] = "".join(lines[:last] + lines[last + 1:])
    return [(player, data)]


def _side_of(data):
    from sheetkit import layouts

    return layouts.load(str(data.get("board"))).spec


def board_svg(record, checked, lang: str = "en") -> str:
    """The board of the checked record's sheet (the scene of `check --render`), cut to the
    board itself: the squares, the chips and the findings circled; its words (the rooms,
    the start squares, the legend a screen reader reads) in the page's language."""
    from sheetkit.games.glux.overlay import board_page, overlay
    from sheetkit.paper import svg

    scene = overlay(record, checked.on_page(lang), "a4", lang)
    side = record.board
    _, sq, bx, by = board_page(record, "a4")
    # exactly the board, so that the grid of squares laid over it on the page matches it
    return svg.page_svg(scene, 0, view=(bx, by, side.width * sq, side.height * sq), title=side.title(lang))


def view(results, t, lang, form) -> dict[str, Any]:
    from sheetkit.games.glux.moves import legal_moves_of
    from sheetkit.games.glux.check import squares_of
    from sheetkit.grid import square_name

    r = results[0]
    record, checked, verdict = r.loaded.record, r.checked, r.verdict
    side = record.board
    moves = legal_moves_of(record, checked)
    players = record.spec.players
    mover = next((p for p in players if p.name == moves.player), None)
    dests = {square_name(d.square): [square_name(o) for o in d.origins] for d in moves.destinations}
    flagged = {square_name(sq) for sq, _ in squares_of(list(verdict.findings)) if side.on_board(sq)}
    board = checked.state.board
    cells = []
    for row in range(side.height):
        for col in range(side.width):
            name = square_name((col, row))
            cells.append({"name": name, "dest": name in dests, "origins": dests.get(name, []),
                          "full": board.count((col, row)) >= 2, "finding": name in flagged})
    letter = form.get("player") if form.get("player") in {p.letter for p in players} else (mover.letter if mover else players[0].letter)
    lines = _lines(r.data)
    placed = [{"n": i + 1, "text": ln} for i, ln in enumerate(lines)]
    details = verdict.details
    rooms = [{"name": room.name, "middle": room.name == details.middle, "pips": room.pips, "vp": room.vp}
             for room in details.rooms]
    totals = {s.player: s.total for s in verdict.scores}
    return {"board": board_svg(record, checked, lang), "cells": cells, "cols": side.width, "rows": side.height,
            "players": players, "mover": mover, "letter": letter, "faces": FACES, "free_faces": set(moves.faces),
            "start_available": moves.start_available, "start_forced": moves.start_forced,
            "start_square": square_name(moves.start_square) if moves.start_square else None,
            "over": moves.player is None, "placed": placed, "turns": len(lines), "rooms": rooms, "totals": totals,
            "face": form.get("face", ""), "square": form.get("square", ""), "whole": form.get("whole") == "on",
            "action": form.get("action", ""), "ended": ended(r, t, over=moves.player is None)}


# -- the quick tally -----------------------------------------------------------------------

TALLY_SOURCE = "web form"


def rooms_of(board: str, lang: str = "en") -> list[tuple[str, str, bool]]:
    """(key, label, is the middle room) of a shipped board side's rooms."""
    from sheetkit import layouts

    spec = layouts.load(f"glux-board-{board}").spec
    return [(k, r.label(lang), bool(r.middle)) for k, r in spec.rooms.items()]


def _tally_board(form) -> str:
    board = form.get("board", "34p")
    return board if board in ("2p", "34p") else "34p"


def tally_context(form, session, t=english, step=None, refused: bool = False) -> dict[str, Any]:
    board = _tally_board(form)
    return {"board": board, "rooms": rooms_of(board), "slots": 2 if board == "2p" else 4}


def tally_score(form, session, t=english):
    """The pips of every room scored as `sheetkit score glux` scores them (G12-G14)."""
    from sheetkit.forms import BIG
    from sheetkit.games.glux import rules
    from sheetkit.games.interface import Outcome

    board = inputs.choice(form, "board", t("board_side"), ("2p", "34p"), t, "34p")
    most = 2 if board == "2p" else 4
    slots = [(t("name_n", n=i + 1), inputs.name(form, f"name{i}", t("name_n", n=i + 1), t)) for i in range(most)]
    rooms = rooms_of(board)
    for i, (field, n) in enumerate(slots):  # pips typed for a player with no name
        if not n and any(form.get(f"pips{i}_{k}", "").strip() for k, _, _ in rooms):
            raise FormError(t("err_empty_name", field=field))
    names = inputs.players(slots, "Glüx", t)
    named = [i for i, (_, n) in enumerate(slots) if n]
    scored = []
    for key, label, _ in rooms:
        pips = {slots[i][1]: inputs.integer(form, f"pips{i}_{key}", f"{t('room')} {label}, {slots[i][1]}", 0, BIG, t)
                for i in named}
        scored.append((label, pips))
    middle = next(i for i, (_, _, m) in enumerate(rooms) if m)
    return Outcome(rules.verdict(rules.score(scored, names, middle), TALLY_SOURCE))
