"""What a score pad's fields mean in each game: its arithmetic, and the record it gives.

For each game, `GAMES[game](draft, fixed)` takes the fields read from the ink
(padread.read_cells) and decides every field's value and confidence, each player's column
read as a whole under the pad's arithmetic (padsolve.solve), and writes the draft's record:

* Level X: per player the chips of each value (a row's count, times the value, is its
  points), the bonus tiles (their sum: 15, 12, 9 and 6, each tile once at the table), the
  total; the ticked (1) is the first player. The record is a final position
  (`kind = "final"`), which `sheetkit check` reads.
* Glüx: per player and room the pips, the place and the VP (a place gives 4 or 2 VP), the
  total VP, the middle-room tiebreak. The record is the rooms' pips, as
  `sheetkit score glux --room ...` takes them.
* IUNU: per player the citizens' VP, per caste bonus x afterlife multiplier = VP (the bonus
  is also in the caste's box, filled once), bread, Deben, Deben / 3, the total.

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
    the option's probability given the column; a column whose total is not its parts' sum
    is noted, its total and its least sure part marked."""
    weakest = None
    for opts, k, ps in zip(column, solved.choice, solved.term_p):
        o = opts[k]
        for f, v in o.cells.items():
            _set(f, v, ps[k])
        if weakest is None or ps[k] < weakest[0]:
            weakest = (ps[k], o)
    if target is not None:
        _set(target, solved.total, solved.total_p.get(solved.total, 0.0))
        if not solved.consistent:
            draft.notes.append(note_key)
            target.unsure, target.note = True, "the sum disagrees with its parts"
            if weakest is not None:
                for f in weakest[1].cells:
                    f.unsure, f.note = True, "the sum disagrees with its parts"


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
    used = [r for r in rooms if any(_get(draft, t, r, "pips", p).readings[0][0] is not None for p in players)
            or r == "room.middle"]
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
    for p in players:  # the winner's circle: read, not needed by the score
        f = _get(draft, t, "winner", "mark", p)
        pr = dict(f.readings)[True]
        _set(f, pr > 0.5, max(pr, 1 - pr))
        f.unsure = False
    draft.players = players
    draft.record = {"game": "glux", "players": names, "qr": draft.text,
                    "room": [",".join(f"{n}={v}" for n, v in pips.items() if v) for _, pips in room_pips],
                    "rooms": [name for name, _ in room_pips],
                    "middle": [name for name, _ in room_pips].index("middle") + 1 if "room.middle" in used else None}
    draft.lines = {}
    for i, r in enumerate(used):
        draft.lines[i, "room"] = [_get(draft, t, r, part, p) for p in players for part in ("pips", "place", "vp")]
    draft.lines["total"] = [_get(draft, t, "total", "value", p) for p in players] + [
        _get(draft, t, "tiebreak", "value", p) for p in players]


ROOM_COMBOS = 16  # the likeliest readings of a room's row kept
PIPS_SURE = 0.9
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
            _set(kf, places[j], share(2))
            _set(vf, vps[j], share(3))
            if r_tie := (_get(draft, t, "tiebreak", "value", players[j]) if used[i] == "room.middle" else None):
                _set(r_tie, qs[j], same)
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
        score = {b: max(dict(left.readings).get(b, 0.0), FLOOR)
                 * _prod(dict(f.readings).get(b, 0.0) + dict(f.readings).get(None, 0.0) + FLOOR for f in counts)
                 for b in cands}
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
    names = [f"Player {p + 1}" for p in players]
    record = {"game": "iunu", "qr": draft.text, "bonus": {c.split(".", 1)[1]: bonus[c] for c in castes if bonus[c]},
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
    for f in draft.fields.values():  # the winner's circle: read, not needed by the score
        if f.row == "winner" and f.player in players:
            pr = dict(f.readings)[True]
            _set(f, pr > 0.5, max(pr, 1 - pr))
            f.unsure = False
    draft.players = players
    draft.record = record
    draft.lines = {}


def _prod(xs) -> float:
    out = 1.0
    for x in xs:
        out *= x
    return out


GAMES = {"levelx": levelx, "glux": glux, "iunu": iunu}


# --- scores ---------------------------------------------------------------------------------

def iunu_scores(record: dict) -> dict[str, int]:
    """Each player's total by the pad's parts (I2-I5): citizens, bonus x multiplier for each
    majority held, bread, Deben // 3."""
    out = {}
    for pl in record["player"]:
        out[pl["name"]] = (pl["citizens"] + sum(record["bonus"].get(c, 0) * m for c, m in pl["majorities"].items())
                           + pl["bread"] + pl["deben"] // 3)
    return out


def scores(draft) -> tuple[bool | None, dict[str, int]]:
    """(legal, each player's score) of the draft's record, as sheetkit scores it: Level X by
    `sheetkit check`, Glüx by the rooms' pips (G11-G13, as `sheetkit score glux`), IUNU by the
    pad's own parts. legal None where no rules check the record (Glüx rooms, the IUNU tally)."""
    if draft.game == "levelx":
        from sheetkit.checking import records
        from sheetkit.errors import UserError

        try:
            v = records.check(records.parse(dict(draft.record), "draft.toml")).verdict
        except UserError:
            return False, {}
        return v.legal, {s.player: s.total for s in v.scores}
    if draft.game == "glux":
        from sheetkit.games.glux import rules

        rec = draft.record
        rooms = []
        for name, text in zip(rec["rooms"], rec["room"]):
            pips = dict((kv.split("=")[0], int(kv.split("=")[1])) for kv in text.split(",") if kv)
            rooms.append((name, pips))
        mid = rec["middle"] - 1 if rec["middle"] else None
        res = rules.score(rooms, rec["players"], mid)
        return None, dict(res.totals)
    return None, iunu_scores(draft.record)


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
        # the rooms someone has pips in, as `sheetkit score glux --room` takes them
        rooms = [(name, text) for name, text in zip(rec["rooms"], rec["room"]) if text]
        names = [name for name, _ in rooms]
        import shlex

        cmd = " ".join(f"--room {shlex.quote(text)}" for _, text in rooms)
        if "middle" in names:
            cmd += f" --middle {names.index('middle') + 1}"
        out.append("# The rooms' pips score as (G11-G13):")
        out.append(f"#   sheetkit score glux {cmd} --players {shlex.quote(','.join(rec['players']))}")
        out += ['game = "glux"', dump_toml({"qr": rec["qr"], "players": rec["players"]}).strip(), ""]
        for i, (name, text) in enumerate(zip(rec["rooms"], rec["room"])):
            out.append("[[room]]" + _mark(draft.lines[i, "room"]))
            out.append(dump_toml({"name": name, "pips": text}).strip())
        mark = _mark(draft.lines["total"])
        if mark:
            out.append("# totals:" + mark[1:])
        return "\n".join(out) + "\n"
    out += ['game = "iunu"', dump_toml({"qr": rec["qr"]}).strip(), ""]
    out.append(dump_toml({"bonus": rec["bonus"]}).strip())
    for pl in rec["player"]:
        out.append("")
        out.append("[[player]]")
        out.append(dump_toml({k: v for k, v in pl.items() if k != "majorities"}).strip())
        out.append(dump_toml({"majorities": pl["majorities"]}).strip())
    bad = [f for f in draft.fields.values() if f.unsure]
    if bad:
        out.append(_mark(bad).replace("  # check", "# check"))
    return "\n".join(out) + "\n"
