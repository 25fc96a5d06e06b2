"""What a score pad's fields mean in each game: its arithmetic, and the record it gives.

For each game, `GAMES[game](draft, fixed)` takes the fields read from the ink
(padread.read_cells) and decides every field's value and confidence, each player's column
read as a whole under the pad's arithmetic (padsolve.solve), and writes the draft's record:

* Level X: per player the chips of each value (a row's count, times the value, is its
  points), the bonus tiles (their sum: 15, 12, 9 and 6, each tile once at the table), the
  total; the ticked (1) is the first player. The record is a final position
  (`kind = "final"`), which `sheetkit check` reads.
* Glüx: per player and room the pips, the place and the VP (a place gives 4 or 2 VP), the
  total VP, the middle-room tiebreak. The record is the rooms' pips (`kind = "rooms"`).
* IUNU: per player the citizens' VP, per caste bonus x afterlife multiplier = VP (the bonus
  is also in the caste's box, filled once), bread, Deben, Deben / 3, the total. The record
  is the pad's tally (`kind = "tally"`).

Every draft's record is one `sheetkit check` reads and scores.
The record's names are "Player 1", ...: names are kept as pictures for the player to type.
"""

from __future__ import annotations

import itertools

from sheetkit.photo.padsolve import Option, solve

FLOOR = 1e-4  # the weight of a value the ink's readings do not list (something else was written)
SURE = 0.8


def _w(f, v) -> float:
    """How likely f's ink makes value v (an empty cell counts as 0 where 0 is meant)."""
    d = dict(f.readings)
    if f.fixed:  # confirmed: that value and no other
        w = f.readings[0][0]
        return 1.0 if v == w or (v == 0 and w is None) else 0.0
    if v == 0:
        return max(d.get(0, 0.0), d.get(None, 0.0), FLOOR)
    return max(d.get(v, 0.0), FLOOR)


def _wn(f, v) -> float:
    """How likely f's ink makes exactly v (None: the cell left empty)."""
    if f.fixed:
        return 1.0 if v == f.readings[0][0] else 0.0
    return max(dict(f.readings).get(v, 0.0), FLOOR)


def _num(f) -> list[int]:
    """The whole numbers f's readings list, an empty cell as 0."""
    return sorted({0 if v is None else int(v) for v, _ in f.readings})


NEAR_CERTAIN = 0.99  # a part of a column whose sum disagrees that is left unasked
OVERRULED = 0.1  # a value the ink itself finds this much less likely than its best reading


def _set(f, value, p: float, note: str = "", sure: float = SURE) -> None:
    f.value, f.confidence = value, float(p)
    f.unsure = p < sure
    if f.unsure and not f.note:
        f.note = note or "the ink"
    if not f.fixed and f.kind in ("digits", "tick") and f.readings:
        # the pad's arithmetic chose what the ink does not say: asked, however sure the rest is
        top = max(w for _, w in f.readings)
        if top > 0 and _wn(f, value if value != 0 or f.kind != "digits" else 0) < OVERRULED * top \
                and not (value == 0 and _wn(f, None) >= OVERRULED * top):
            f.unsure, f.note = True, "the ink reads otherwise"
            f.confidence = min(f.confidence, 0.5)


def _written(draft, table: int, player: int) -> bool:
    """A player column is in use when its name is written or two of its cells surely hold
    a number (a speck or a smudge in one cell is no player)."""
    sure = 0
    for f in draft.fields.values():
        if f.table == table and f.player == player:
            if f.kind == "name" and f.readings[0][0]:
                return True
            if f.kind == "digits" and f.readings and f.readings[0][0] is not None and f.readings[0][1] > 0.6:
                sure += 1
    return sure >= 2


def _table(draft) -> tuple[int, list[int]]:
    """The first table with writing, and its player columns in use."""
    tables = sorted({f.table for f in draft.fields.values()})
    for t in tables:
        cols = sorted({f.player for f in draft.fields.values() if f.table == t and f.player is not None})
        used = [p for p in cols if _written(draft, t, p)]
        if used:
            return t, used
    from sheetkit.errors import UserError
    from sheetkit.messages import msg

    raise UserError(msg("error.photo.pad_empty"))


def _get(draft, table, row, part, player):
    who = "all" if player is None else f"p{player}"
    return draft.fields.get(f"t{table}.{row}.{part}.{who}")


def _apply(draft, column: list, solved, target, note_key: str) -> None:
    """Set the fields of a solved column: each option's cells at its value, their confidence
    the option's probability given the column. Where the column's reading disagrees with
    the ink (its total is not its parts' sum, or a part's value is one its ink does not
    say), the total and every part not near certain are marked: the column cannot say
    which of them is misread; a part overruled is marked with all its cells (a count and
    its result follow each other); the sum that disagrees is noted."""
    for opts, k, ps in zip(column, solved.choice, solved.term_p):
        for f, v in opts[k].cells.items():
            _set(f, v, ps[k])
    if target is None:
        return
    _set(target, solved.total, solved.total_p.get(solved.total, 0.0))
    chosen = [(opts[k], ps[k]) for opts, k, ps in zip(column, solved.choice, solved.term_p)]
    overruled = [o for o, _ in chosen if any(_overruled(f) for f in o.cells)]
    if solved.consistent and not overruled:
        return
    note = "the sum disagrees with its parts" if not solved.consistent else "its parts' ink disagrees with it"
    if not solved.consistent:
        draft.notes.append(note_key)
    weakest = min(chosen, key=lambda c: c[1])[0] if chosen else None
    for o, p in chosen:
        if p < NEAR_CERTAIN or o is weakest or o in overruled:
            for f in o.cells:
                _ask(f, note)
    _ask(target, note)


def _overruled(f) -> bool:
    return f.unsure and f.note == "the ink reads otherwise"


def _ask(f, note: str) -> None:
    """Mark f to be confirmed (a field the player confirmed stays as confirmed)."""
    if not f.fixed and not f.unsure:
        f.unsure, f.note, f.confidence = True, note, min(f.confidence, 0.5)


# --- Level X --------------------------------------------------------------------------------

CHIP_VALUES = (5, 6, 7, 8, 9, 10)
TILES = (15, 12, 9, 6)


def _tile_sums() -> dict[int, list[tuple[int, ...]]]:
    out: dict[int, list[tuple[int, ...]]] = {}
    for n in range(len(TILES) + 1):
        for c in itertools.combinations(TILES, n):
            out.setdefault(sum(c), []).append(c)
    return out


def _formula(count, result, factor: int) -> list[Option]:
    """A row "count x factor = result": an option per count the ink allows."""
    cands = set(_num(count)) | {v // factor for v in _num(result) if v % factor == 0}
    return [Option(c * factor, _w(count, c) * _w(result, c * factor), {count: c, result: c * factor})
            for c in sorted(cands)]


def levelx(draft, fixed) -> None:
    t, players = _table(draft)
    sums = _tile_sums()
    bonus_of = {}
    for p in players:
        column = [_formula(_get(draft, t, f"chips.{v}", "count", p), _get(draft, t, f"chips.{v}", "result", p), v)
                  for v in CHIP_VALUES]
        b = _get(draft, t, "bonuses", "value", p)
        column.append([Option(s, _w(b, s), {b: s}) for s in sorted(sums)])
        total = _get(draft, t, "total", "value", p)
        solved = solve(column, total.readings)
        _apply(draft, column, solved, total, f"player {p + 1}: total")
        bonus_of[p] = b.value or 0
    # the first player: the (1) ticked
    ticks = {p: dict(_get(draft, t, "first", "mark", p).readings)[True] for p in players}
    first = max(ticks, key=ticks.get)
    z = sum(ticks.values()) or 1.0
    for p in players:
        f = _get(draft, t, "first", "mark", p)
        _set(f, p == first, ticks[first] / z if p == first else 1 - ticks[p] / z, "which (1) is marked")
    order = players[players.index(first):] + players[:players.index(first)]
    # the bonus tiles: each player's sum split into tiles, each tile once at the table
    splits = None
    for combo in itertools.product(*[sums.get(bonus_of[p], [()]) for p in order]):
        flat = [x for c in combo for x in c]
        if len(flat) == len(set(flat)):
            splits = combo
            break
    if splits is None:
        splits = [min(sums.get(bonus_of[p], [()]), key=len) for p in order]
    record = {"game": "levelx", "kind": "final", "qr": draft.text, "player": []}
    for p, tiles in zip(order, splits):
        chips = {str(v): _get(draft, t, f"chips.{v}", "count", p).value for v in CHIP_VALUES}
        record["player"].append({"name": f"Player {p + 1}", "chips": {k: v for k, v in chips.items() if v},
                                 "bonuses": list(tiles)})
    draft.players = order
    draft.record = record
    draft.lines = {(i, "chips"): [_get(draft, t, f"chips.{v}", part, p)
                                  for v in CHIP_VALUES for part in ("count", "result")]
                   for i, p in enumerate(order)}
    for i, p in enumerate(order):
        draft.lines[i, "bonuses"] = [_get(draft, t, "bonuses", "value", p), _get(draft, t, "total", "value", p)]
        draft.lines[i, "name"] = [_get(draft, t, "first", "mark", p)]


# --- Glüx -----------------------------------------------------------------------------------

def glux(draft, fixed) -> None:
    from sheetkit.games.glux import rules

    t, players = _table(draft)
    rooms = [r for r in dict.fromkeys(f.row for f in draft.fields.values() if f.row.startswith("room."))]
    # a room row nobody wrote in (rooms I and J on the 2-player side) is no room
    used = [r for r in rooms if r == "room.middle" or any(
        _get(draft, t, r, part, p).readings[0][0] not in (None, 0) for p in players for part in ("pips", "place", "vp"))]
    names = [f"Player {p + 1}" for p in players]
    _glux_joint(draft, t, players, names, used)
    for r in rooms:
        if r not in used:
            for p in players:
                for part in ("pips", "place", "vp"):
                    _set(_get(draft, t, r, part, p), None, 1.0)
    room_pips = []
    for r in used:
        pips = {n: _get(draft, t, r, "pips", p).value or 0 for n, p in zip(names, players)}
        room_pips.append((r.split(".", 1)[1], pips))
    draft.players = players
    record = {"game": "glux", "kind": "rooms", "qr": draft.text, "players": names,
              "room": [{"name": name, "pips": {n: v for n, v in pips.items() if v}} for name, pips in room_pips]}
    if "room.middle" in used:
        record["middle"] = "middle"
    draft.record = record
    draft.lines = {}
    for i, r in enumerate(used):
        draft.lines[i, "room"] = [_get(draft, t, r, part, p) for p in players for part in ("pips", "place", "vp")]
    draft.lines["total"] = [_get(draft, t, "total", "value", p) for p in players] + [
        _get(draft, t, "tiebreak", "value", p) for p in players]
    _winner_circles(draft, t, players)


def _winner_circles(draft, t, players) -> None:
    """The winner's circles as the ink has them (the score does not need them), asked where
    the ink is unsure or where it disagrees with the winner the draft's scores give."""
    v = _verdict(draft)
    won = None if v is None else set(v.winners)  # a draft that is no record: the ink alone
    for p in players:
        f = _get(draft, t, "winner", "mark", p)
        pr = dict(f.readings)[True]
        _set(f, pr > 0.5, max(pr, 1 - pr), "the winner's circle")
        if won is not None and (f"Player {p + 1}" in won) != f.value:
            _ask(f, "the winner by the scores")


ROOM_COMBOS = 16  # the likeliest readings of a room's row kept
PIPS_SURE = 0.95
BEAM = 400  # readings of the whole pad kept, room by room


def _glux_joint(draft, t, players, names, used) -> None:
    """The whole table read at once: a room's places and VP follow from everyone's pips in
    it (G11-G12), so each room's row is read as everyone's pips together, weighed by the ink
    of its pips, place and VP cells (and of the tiebreak, the middle room's pips again);
    each player's total VP must be the sum of their rooms' VP. The likeliest readings are
    kept room by room (a beam); a field's confidence is the weight of the kept readings that
    agree with the best on it."""
    from sheetkit.games.glux import rules

    def cands(f):
        """The pips worth trying: the readings not far below the best (a room's row is
        everyone's at once, so few each), and 0 where the cell may be empty."""
        top = f.readings[0][1] if f.readings else 1.0
        vals = [0 if v is None else v for v, p in f.readings[:3] if p >= 0.02 * top]
        if not f.fixed and _w(f, 0) >= 0.01 * top:
            vals.append(0)
        return list(dict.fromkeys(vals)) or [0]

    rows = []
    for r in used:
        cells = [tuple(_get(draft, t, r, part, p) for part in ("pips", "place", "vp")) for p in players]
        tie = [_get(draft, t, "tiebreak", "value", p) if r == "room.middle" else None for p in players]
        combos = []
        for qs in itertools.product(*[cands(c[0]) for c in cells]):
            res = rules.score_room(r, dict(zip(names, qs)), names)
            w = 1.0
            for (pf, kf, vf), tf, q, n in zip(cells, tie, qs, names):
                w *= _w(pf, q) * _wn(kf, res.place.get(n)) * _w(vf, res.vp[n]) * (_w(tf, q) if tf is not None else 1.0)
            combos.append((w, qs, tuple(res.place.get(n) for n in names), tuple(res.vp[n] for n in names)))
        combos.sort(key=lambda c: -c[0])
        rows.append((cells, combos[:ROOM_COMBOS]))
    beam = [(1.0, (0,) * len(players), ())]
    for _, combos in rows:
        nxt = [(w * c[0], tuple(a + b for a, b in zip(sums, c[3])), path + (k,))
               for w, sums, path in beam for k, c in enumerate(combos)]
        nxt.sort(key=lambda e: -e[0])
        beam = nxt[:BEAM]
    totals = [_get(draft, t, "total", "value", p) for p in players]

    def end(sums) -> tuple[float, bool]:
        w, ok = 1.0, True
        for f, s_ in zip(totals, sums):
            d = dict(f.readings)
            if d.get(s_, 0.0) > 0 or (f.fixed and f.readings[0][0] == s_):
                w *= 1.0 if f.fixed else d[s_]
            elif None in d and not f.fixed:
                w *= d[None]
            else:  # the total written is not the sum: the player added wrongly, or a misread
                from sheetkit.photo.padsolve import MISADDED

                w *= MISADDED * max(d.values(), default=1.0)
                ok = False
        return w, ok

    final = [(w * end(sums)[0], sums, path) for w, sums, path in beam]
    final.sort(key=lambda e: -e[0])
    z = sum(e[0] for e in final) or 1.0
    best_w, best_sums, best_path = final[0]
    for i, (cells, combos) in enumerate(rows):
        w, qs, places, vps = combos[best_path[i]]
        for j, (pf, kf, vf) in enumerate(cells):
            def share(k):  # the weight of the kept readings that agree with the best on this
                return sum(e[0] for e in final if combos[e[2][i]][k][j] == combos[best_path[i]][k][j]) / z
            # the places weigh only the pips' order: what the ink left unread (the share of
            # its readings no candidate holds) stays unknown
            same = share(1) * min(1.0, sum(p for _, p in pf.readings)) if not pf.fixed else 1.0
            # the places pin only the pips' order: the ink alone must be surer of them
            _set(pf, qs[j], same, "the pips", sure=PIPS_SURE)
            _set(kf, places[j], min(share(2), 1.0 if pf.fixed or not pf.unsure else same), "the pips")  # as sure as its pips
            _set(vf, vps[j], share(3))
            if r_tie := (_get(draft, t, "tiebreak", "value", players[j]) if used[i] == "room.middle" else None):
                _set(r_tie, qs[j], same)
            group = [pf, kf, vf] + ([r_tie] if r_tie else [])
            if any(_overruled(f) for f in group):  # the place and VP follow from the pips: one misread, all asked
                for f in group:
                    _ask(f, "the pips, place and VP disagree")
    ok = end(best_sums)[1]
    for j, f in enumerate(totals):
        d = dict(f.readings)
        if ok or best_sums[j] in d:
            _set(f, best_sums[j], sum(e[0] for e in final if e[1][j] == best_sums[j]) / z)
        else:
            _set(f, max((v for v in d if v is not None), key=d.get, default=None), 0.0)
            f.unsure, f.note = True, "the sum disagrees with its parts"
            draft.notes.append(f"player {players[j] + 1}: total VP")


# --- IUNU -----------------------------------------------------------------------------------

def iunu(draft, fixed) -> None:
    t, players = _table(draft)
    castes = [r for r in dict.fromkeys(f.row for f in draft.fields.values() if f.row.startswith("caste."))]
    bonus = {}
    for c in castes:
        left = _get(draft, t, c, "bonus", None)
        counts = [_get(draft, t, c, "count", p) for p in players]
        # a caste's bonus is its cards in the deck: 1 or more, in its box and in the holder's row
        cands = {v for f in [left] + counts for v, _ in f.readings if v}
        if not cands:
            _set(left, None, dict(left.readings).get(None, 0.5))
            bonus[c] = None
            continue
        def held(b, p):
            """How likely player p's row of the caste makes bonus b: empty, or b x k = b*k."""
            a, m, r = (_get(draft, t, c, part, p) for part in ("count", "factor", "result"))
            ks = {v for v, _ in m.readings if v} | {1} | {v // b for v in _num(r) if v and v % b == 0}
            return _wn(a, None) * _wn(m, None) * _wn(r, None) + max(_w(a, b) * _w(m, k) * _w(r, b * k) for k in ks)

        score = {b: max(dict(left.readings).get(b, 0.0), FLOOR) * _prod(held(b, p) for p in players) for b in cands}
        z = sum(score.values())
        b = max(score, key=score.get)
        bonus[c] = b
        _set(left, b, score[b] / z if z else 0.0, "the caste's bonus")
    for p in players:
        column = [[Option(v, _w(_get(draft, t, "citizens", "value", p), v), {_get(draft, t, "citizens", "value", p): v})
                   for v in _num(_get(draft, t, "citizens", "value", p))]]
        for c in castes:
            a, m, r = (_get(draft, t, c, part, p) for part in ("count", "factor", "result"))
            empty = _wn(a, None) * _wn(m, None) * _wn(r, None)
            opts = [Option(0, empty, {a: None, m: None, r: None})]
            b = bonus[c]
            if b:
                for k in sorted({v for v, _ in m.readings if v} | {1} | {v // b for v in _num(r) if v and v % b == 0}):
                    opts.append(Option(b * k, _w(a, b) * _w(m, k) * _w(r, b * k), {a: b, m: k, r: b * k}))
            column.append(opts)
        bread = _get(draft, t, "bread", "value", p)
        column.append([Option(v, _w(bread, v), {bread: v}) for v in _num(bread)])
        deben, third = _get(draft, t, "deben", "value", p), _get(draft, t, "deben3", "value", p)
        cands = set(_num(deben)) | {3 * v + k for v in _num(third) for k in range(3)}
        column.append([Option(d // 3, _w(deben, d) * _w(third, d // 3), {deben: d, third: d // 3})
                       for d in sorted(cands)])
        total = _get(draft, t, "total", "value", p)
        solved = solve(column, total.readings)
        _apply(draft, column, solved, total, f"player {p + 1}: total")
        for c in castes:  # a majority's count is its caste's bonus: each as unsure as the other
            left = _get(draft, t, c, "bonus", None)
            row = [_get(draft, t, c, part, p) for part in ("count", "factor", "result")]
            if left.unsure and row[0].value:
                for f in (row[0], row[2]):
                    _ask(f, "the caste's bonus")
            if any(f.unsure for f in row):
                _ask(left, "the caste's bonus")
    names = [f"Player {p + 1}" for p in players]
    record = {"game": "iunu", "kind": "tally", "qr": draft.text,
              "bonus": {c.split(".", 1)[1]: bonus[c] for c in castes if bonus[c]},
              "player": []}
    for n, p in zip(names, players):
        maj = {}
        for c in castes:
            m = _get(draft, t, c, "factor", p)
            if m.value:
                maj[c.split(".", 1)[1]] = m.value
        record["player"].append({"name": n, "citizens": _get(draft, t, "citizens", "value", p).value or 0,
                                 "majorities": maj, "bread": _get(draft, t, "bread", "value", p).value or 0,
                                 "deben": _get(draft, t, "deben", "value", p).value or 0,
                                 "total": _get(draft, t, "total", "value", p).value or 0})
    draft.players = players
    draft.record = record
    draft.lines = {}
    _winner_circles(draft, t, players)


def _prod(xs) -> float:
    out = 1.0
    for x in xs:
        out *= x
    return out


GAMES = {"levelx": levelx, "glux": glux, "iunu": iunu}


# --- scores ---------------------------------------------------------------------------------

def scores(draft) -> tuple[bool | None, dict[str, int]]:
    """(legal, each player's score) of the draft's record, as `sheetkit check` gives them
    (Level X's final position, Glüx's rooms, IUNU's tally); (False, {}) for a draft that is
    no record (a cell read as an absurd number)."""
    v = _verdict(draft)
    return (False, {}) if v is None else (v.legal, {s.player: s.total for s in v.scores})


def _verdict(draft):
    """`sheetkit check`'s verdict of the draft's record; None for a draft that is no record."""
    from sheetkit.checking import records
    from sheetkit.errors import UserError

    try:
        return records.check(records.parse(dict(draft.record), "draft.toml")).verdict
    except UserError:
        return None


# --- the draft as text ----------------------------------------------------------------------

def _mark(fields) -> str:
    bad = [f for f in fields if f is not None and f.unsure]
    if not bad:
        return ""
    return "  # check: " + ", ".join(f"{f.key} {f.confidence:.2f} {f.note}" for f in bad)


def draft_toml(draft, source: str = "") -> str:
    """The draft as TOML, every unsure field listed at the top and marked `# check` on its
    line; names are "Player N": type them (the photo keeps them)."""
    from sheetkit.tomlfile import dump_toml

    rec = draft.record
    head = [f"# A draft read by sheetkit read from {source}: confirm it against the pad.",
            f"# Layout {draft.layout} ({draft.paper}), sheet {draft.serial}. Fields marked `# check` were read with "
            f"less than {SURE:.0%} confidence.",
            "# The names are kept as pictures: type each player's name."]
    if draft.unsure:
        head.append("# To confirm: " + ", ".join(draft.unsure))
    for n in draft.notes:
        head.append(f"# The pad's sum disagrees: {n}")
    out = head
    if draft.game == "levelx":
        out += [f'game = "levelx"', 'kind = "final"', dump_toml({"qr": rec["qr"]}).strip(), ""]
        for i, pl in enumerate(rec["player"]):
            out.append("[[player]]" + ("  # the first player, (1)" if i == 0 else "") + _mark(draft.lines[i, "name"]))
            out.append(dump_toml({"name": pl["name"]}).strip() + "  # type the name")
            chips = ", ".join(f'"{k}" = {v}' for k, v in pl["chips"].items())
            out.append(f"chips = {{ {chips} }}" + _mark(draft.lines[i, "chips"]))
            out.append(f"bonuses = {pl['bonuses']}" + _mark(draft.lines[i, "bonuses"]))
            out.append("")
        return "\n".join(out)
    if draft.game == "glux":
        out += ['game = "glux"', 'kind = "rooms"', dump_toml({k: rec[k] for k in ("qr", "players", "middle") if k in rec}).strip()]
        for i, room in enumerate(rec["room"]):
            out += ["", "[[room]]" + _mark(draft.lines[i, "room"]), dump_toml({"name": room["name"]}).strip()]
            out.append(_inline("pips", room["pips"]))
        mark = _mark(draft.lines["total"])
        if mark:
            out.append("# totals:" + mark[1:])
        return "\n".join(out) + "\n"
    out += ['game = "iunu"', 'kind = "tally"', dump_toml({"qr": rec["qr"]}).strip(),
            _inline("bonus", rec["bonus"]) + _mark([f for f in draft.fields.values() if f.player is None])]
    for i, pl in enumerate(rec["player"]):
        column = [f for f in draft.fields.values() if f.player == draft.players[i]]
        out += ["", "[[player]]" + _mark(column)]
        out.append(dump_toml({k: v for k, v in pl.items() if k != "majorities"}).strip())
        out.append(_inline("majorities", pl["majorities"]))
    return "\n".join(out) + "\n"


def _inline(key: str, table: dict) -> str:
    """`key = { a = 1, "Player 2" = 3 }`: a table on one line, as a player reads it off the pad."""
    from sheetkit.tomlfile import dump_toml

    return f"{key} = {{ " + ", ".join(dump_toml({k: v}).strip() for k, v in table.items()) + " }" if table else f"{key} = {{}}"
