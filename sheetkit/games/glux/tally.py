"""`sheetkit score glux`: score the rooms from the pips counted at the table (G11-G13)."""

from __future__ import annotations

import re

from sheetkit.messages import msg
from sheetkit.errors import UserError
from sheetkit.games.glux import rules

_ENTRY = re.compile(r"^\s*([^=,]+?)\s*=\s*(-?[0-9]+)\s*$")


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


def parse_room(text: str, n: int) -> dict[str, int]:
    """"Ana=10,Ben=9" -> {"Ana": 10, "Ben": 9}."""
    out: dict[str, int] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        m = _ENTRY.match(part)
        if not m:
            raise UserError(msg("error.glux.room_entry", n=n, part=repr(part.strip())))
        if len(m.group(2).lstrip("+-0")) > 3:  # more than 96 chips of 6 pips could hold
            raise UserError(msg("error.glux.room_999", n=n, name=m.group(1)))
        name, pips = m.group(1), int(m.group(2))
        if pips < 0:
            raise UserError(msg("error.glux.room_negative", n=n, name=name, pips=pips))
        if any(_key(name) == _key(k) for k in out):
            raise UserError(msg("error.glux.room_twice", n=n, name=name))
        out[name] = pips
    return out


def tally(rooms: tuple[str, ...], middle: int | None, players: str | None) -> rules.Result:
    if not rooms:
        raise UserError(msg("error.glux.no_room"))
    parsed = [parse_room(r, i) for i, r in enumerate(rooms, 1)]
    # A name is the same player however it is capitalised ("ana" is "Ana"): spelt the
    # first way it is written. A player miscounted as two would switch the 2-player rule.
    names: list[str] = []
    spelt: dict[str, str] = {}
    if players is not None:
        for p in players.split(","):
            p = p.strip()
            if not p:
                raise UserError(msg("error.glux.players_commas", players=repr(players)))
            if _key(p) in spelt:
                raise UserError(msg("error.glux.players_twice", name=p))
            spelt[_key(p)] = p
            names.append(p)
    for i, room in enumerate(parsed, 1):
        for p in room:
            if _key(p) not in spelt:
                if players is not None:
                    raise UserError(msg("error.glux.not_among", n=i, name=p, players=", ".join(names)))
                spelt[_key(p)] = p
                names.append(p)
    parsed = [{spelt[_key(p)]: v for p, v in room.items()} for room in parsed]
    if len(names) < 2 or len(names) > 4:
        where = msg("error.glux.where_both" if players is not None else "error.glux.where_rooms")
        hint = "" if players is not None or len(names) > 4 else msg("error.glux.hint_players")
        raise UserError(msg("error.glux.tally_players", where=where, n=len(names),
                            names=", ".join(names) or msg("error.none"), hint=hint))
    if middle is not None and not 1 <= middle <= len(parsed):
        raise UserError(msg("error.glux.middle", middle=middle, n=len(parsed)))
    return rules.score(list(zip([str(i) for i in range(1, len(parsed) + 1)], parsed)), names,
                       middle - 1 if middle is not None else None)


def score(values: dict, lang: str):
    """The rooms' pips scored (G11-G13): the verdict and the lines `sheetkit score glux` prints."""
    from sheetkit.checking.verdict import say
    from sheetkit.messages import text

    middle = values.get("middle")
    result = tally(tuple(values.get("room") or ()), middle, values.get("players"))
    v = rules.verdict(result, "command line")
    lines = list(rules.room_lines(result, lang))
    lines += [text("glux.total", lang, player=p, vp=result.totals[p]) for p in result.players]
    if result.tiebreak:
        lines.append(say(result.tiebreak, lang))
    if len(result.winners) > 1 and middle is None:
        lines.append(text("tiebreak.glux.name_the_middle", lang))
    lines.append(f"{v.result_label(lang)}: {', '.join(result.winners)}")
    return v, lines
