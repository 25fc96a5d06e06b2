"""Level X entered on the page as it is played: one record (`kind = "game"`, in progress
until finished), one [[turn]] table per turn, exactly the notation `sheetkit check` reads.

A turn comes from the entry form as the four dice (`die0`..`die3`, 1-6) and the group each
die was tapped into (`group0`..`group3`, A-D, or "-" for a die left out of every group),
plus who played (`player`, by default whoever is to move). Grouping by letters means every
way of splitting the dice can be entered; a die left out, or a player out of turn, is
entered anyway and checked (L4, L8), as it would be on paper. What cannot be a turn at all
(a die of 7, an unknown group, a name not at the table) is a FormError and saves nothing.

The board shown on the page is the printed board's own scene (games/levelx/compose.py)
with the pawns, what is left of each chip stack and the bonus tiles taken drawn over it.
"""

from __future__ import annotations

from typing import Callable, Mapping

from sheetkit import forms as inputs
from sheetkit.forms import FormError
from sheetkit.memo import Memo
from sheetkit.messages import finding_on_page
from sheetkit.games.interface import records_of
from sheetkit.forms import english, one_record

GAME = "levelx"
DICE = 4
GROUPS = ("A", "B", "C", "D")
NO_GROUP = "-"


def _game(records) -> dict:
    return one_record(records, GAME)


def _with(data: dict, turn: list) -> list[tuple[str | None, dict]]:
    """The record with these turns, every other key where it was: written back as the same
    text, so that undo gives back exactly the record before the turn."""
    out = dict(data)
    out["turn"] = turn  # an existing key keeps its place
    return [(None, out)]


# -- the adapter ---------------------------------------------------------------------------

def new_records(start, t: Callable = english) -> list[tuple[str | None, dict]]:
    """The blank game in progress: the players in seat order from the first player on
    (`start`: the core's plays.Start)."""
    return [(None, {"game": GAME, "kind": "game", "players": list(start.players), "in_progress": True, "turn": []})]


def open_record(data: dict, form: Mapping[str, str] | None = None, t: Callable = english):
    """An uploaded Level X game (turn by turn) as a play to continue; a game written in the
    one-line notation (`turns = ["Ana: 3+4 5 2", ...]`) becomes the same turns as tables."""
    from sheetkit.errors import FieldError
    from sheetkit.games.levelx.record import turn_from_line

    if data.get("kind") != "game":
        raise FormError(t("levelx.err_final"))
    data = {k: v for k, v in data.items()}
    if "turns" in data:
        lines = data.pop("turns")
        if not isinstance(lines, list) or "turn" in data:
            raise FormError(t("levelx.err_final"))
        try:
            data["turn"] = [turn_from_line(ln, data.get("players"), f"turns[{i}]") for i, ln in enumerate(lines)]
        except FieldError as e:
            raise FormError(f"{e.field}: {e.message}") from None
        data["turn"] = [{k: v for k, v in tn.items() if v is not None} for tn in data["turn"]]
    return [(None, data)]


def read_turn(form: Mapping[str, str], players: list[str], to_move: str | None, t: Callable = english) -> dict:
    """The [[turn]] table of the entry form, or FormError for what cannot be a turn."""
    dice, groups = [], {g: [] for g in GROUPS}
    for i in range(DICE):
        dice.append(inputs.integer(form, f"die{i}", t("levelx.die", n=i + 1), 1, 6, t, default=None))
        if dice[-1] is None:
            raise FormError(t("levelx.err_die", n=i + 1))
        g = form.get(f"group{i}", GROUPS[i])
        if not isinstance(g, str) or g not in (*GROUPS, NO_GROUP):
            raise FormError(t("err_choice", field=t("levelx.group_of", n=i + 1)))
        if g != NO_GROUP:
            groups[g].append(dice[-1])
    used = [groups[g] for g in GROUPS if groups[g]]
    if not used:
        raise FormError(t("levelx.err_no_group"))
    player = form.get("player", "") or to_move
    if player is not None and player not in players:
        raise FormError(t("err_choice", field=t("player")))
    turn = {"dice": dice, "groups": used}
    return {"player": player, **turn} if player else turn


def add_move(position, form: Mapping[str, str], t: Callable = english):
    """The record with the form's turn added; when that turn completes the final round (L8),
    finished in the same step (`in_progress` dropped)."""
    records = records_of(position)
    data = _game(records)
    state = position[0].checked.state  # the kept position: who is to move, without a replay
    if state.over():  # the final round is played out: no turn is offered, none is taken
        raise FormError(t("levelx.err_over"))
    turn = read_turn(form, list(data["players"]), state.to_move(), t)
    out = _with(data, turn=[*data.get("turn", []), turn])
    if state.play(turn["groups"])[0].over():  # the rules end the game with this turn
        return [(None, {k: v for k, v in out[0][1].items() if k != "in_progress"})]
    return out


def ended(result, t: Callable = english) -> str | None:
    """Why the game ended, when the rules ended it (the record finished, its final round
    played out: L8); None for a game in progress or one the players stopped early."""
    state = result.checked.state
    if result.data.get("in_progress") or result.data.get("kind") != "game" or not state.over():
        return None
    why = t("levelx.end_bonuses") if not state.bonus_left else t("levelx.end_rows")
    return t("levelx.end_why", why=why, turn=state.ended_at, last=state.last_turn())


# -- fixing an earlier turn ----------------------------------------------------------------

def form_of_turn(turn: dict) -> dict[str, str]:
    """The entry form's fields of a recorded turn: each die's value and the group it went
    into (A, B... in the order of the groups; "-" for a die left out), and who played."""
    dice = list(turn.get("dice") or [])
    form = {f"die{i}": str(d) for i, d in enumerate(dice[:DICE])}
    free = list(range(len(dice)))
    group_of = {i: NO_GROUP for i in free}
    for g, group in enumerate(turn.get("groups") or []):
        for value in group:
            i = next((i for i in free if dice[i] == value), None)
            if i is not None and g < len(GROUPS):
                free.remove(i)
                group_of[i] = GROUPS[g]
    form.update({f"group{i}": group_of[i] for i in range(min(len(dice), DICE))})
    if turn.get("player"):
        form["player"] = str(turn["player"])
    return form


def moves(position, t: Callable = english) -> list[dict]:
    """Each turn entered: its number, what it was ("Ana: 3+4 5 2"), its form and its findings."""
    from sheetkit.games.levelx.moves import notation

    r = position[0]
    at: dict[int, list] = {}
    for f in r.verdict.findings:
        n = (f.at or {}).get("turn")
        if isinstance(n, int):
            at.setdefault(n, []).append(f)
    state = r.checked.state
    out = []
    for i, turn in enumerate(r.data.get("turn", []), 1):
        who = turn.get("player") or state.player_of_turn(i)
        out.append({"n": i, "text": f"{who}: {notation(turn['groups'])}", "form": form_of_turn(turn),
                    "findings": [finding_on_page(f, getattr(t, "lang", "en")) for f in at.get(i, [])]})
    return out


def replace_move(position, n: int, form: Mapping[str, str], t: Callable = english):
    """The record with turn n (from 1) replaced by the form's turn, every other turn as it was."""
    data = _game(records_of(position))
    turns = list(data.get("turn", []))
    if not isinstance(n, int) or not 1 <= n <= len(turns):
        raise FormError(t("err_no_such_move", n=n))
    who = turns[n - 1].get("player") or position[0].checked.state.player_of_turn(n)
    turns[n - 1] = read_turn(form, list(data["players"]), who, t)
    return _with(data, turn=turns)


def undo(position, t: Callable = english):
    records = records_of(position)
    data = _game(records)
    if not data.get("turn"):
        raise FormError(t("levelx.err_undo"))
    if "in_progress" not in data:
        # finished (never from the page: it refuses steps then): in progress again, where a new record says it
        data = {k: v for k, v in data.items() if k != "turn"} | {"in_progress": True, "turn": data["turn"]}
    return _with(data, turn=list(data["turn"][:-1]))


def finish(position, form: Mapping[str, str] | None = None, t: Callable = english):
    """The game as finished: `in_progress` goes, so the end is checked (L8): a game stopped
    before its end, or before its last round is complete, says so."""
    records = records_of(position)
    data = _game(records)
    return [(None, {k: v for k, v in data.items() if k != "in_progress"})]


# -- what the entry screen shows -----------------------------------------------------------

def view(results, t: Callable, lang: str = "en", form: Mapping[str, str] | None = None) -> dict:
    """The entry screen's data (as `lx`): the board, whose turn, the end, the turns played
    with what each did and the findings at each turn, the form as sent (kept on an error)."""
    r = results[0]
    records, checked = [(None, r.data)], r.checked
    data = _game(records)
    players = list(data["players"])
    state = checked.state
    findings: dict[int, list] = {}
    for f in checked.verdict.findings:
        n = (f.at or {}).get("turn")
        findings.setdefault(n, []).append(f)
    played = data.get("turn", [])
    lines = _turn_lines(tuple(players), state.board, tuple(_groups_key(turn["groups"]) for turn in played), t, lang)
    turns = [{"n": i, "player": turn.get("player") or who, "dice": turn["dice"], "line": line,
              "findings": [finding_on_page(f, lang) for f in findings.get(i, [])]}
             for i, (turn, (who, line)) in enumerate(zip(played, lines), 1)]
    end = None
    if state.ended_at is not None:
        last = state.last_turn()
        left = [state.player_of_turn(k) for k in range(state.turns + 1, last + 1)]
        end = t("levelx.end_round", turn=state.ended_at, names=", ".join(left)) if left else \
            t("levelx.end_over", turn=state.ended_at)
    seats = [{"name": p, "n": i + 1, "score": state.score(p),
              "chips": state.chips[p], "bonuses": state.bonuses[p]} for i, p in enumerate(players)]
    return {"lx": {"players": players, "seats": seats, "to_move": state.to_move(), "turn": state.turns + 1,
            "over": state.over(), "end": end, "turns": list(reversed(turns)),
            "in_progress": bool(data.get("in_progress")), "board": board_svg(state, lang),
            "groups": GROUPS, "no_group": NO_GROUP, "dice": range(DICE)}, "ended": ended(r, t)}


def _groups_key(groups) -> tuple:
    return tuple(tuple(g) for g in groups)


# What each turn did, in the page's words, for the turns played so far: kept, so that the
# page at turn 60 plays one turn more than at turn 59 instead of all sixty again: (the
# players, the language, the groups chosen so far) and the board -> (the lines, the state).
_LINES = Memo(64)


def _turn_lines(players: tuple, board, groups: tuple, t: Callable, lang: str) -> list[tuple[str, str]]:
    """(whose turn, what it did) of each turn of a game whose turns chose `groups`, played
    from the start on `board` (L1); a turn after the end says it came too late."""
    from sheetkit.games.levelx.moves import notation, option
    from sheetkit.games.levelx.rules import State

    got = _LINES.get((players, lang, groups), (board,))
    if got is not None:
        return got[0]
    before = _LINES.get((players, lang, groups[:-1]), (board,)) if groups else None
    lines, s = (list(before[0]), before[1]) if before is not None else ([], State.start(list(players), board))
    for i in range(len(lines), len(groups)):
        chosen = [list(g) for g in groups[i]]
        if s.over():
            lines.append((s.player_of_turn(i + 1), f"{notation(chosen)}: {t('levelx.eff_late')}"))
            continue
        lines.append((s.player_of_turn(i + 1), effect_line(option(s, chosen), t)))
        s = s.play(chosen)[0]
    _LINES.put((players, lang, groups), (board,), (lines, s))
    return lines


def effect_line(opt, t: Callable) -> str:
    """What a turn did, in the page's language: "3+4 5 2: 7 to X, chip; 5 to square 2 of 4"."""
    from sheetkit.games.levelx.moves import notation

    parts = []
    for e in opt.events:
        if e.square is None:
            parts.append(t("levelx.eff_nothing", total=e.total))
            continue
        x = e.x  # the row's X square on the board played on (L1)
        key = ("levelx.eff_x" if e.square == x else "levelx.eff_to") if e.moved else \
            ("levelx.eff_stays" if e.square == x else "levelx.eff_nothing")
        bits = [t(key, total=e.total, square=e.square, of=x)]
        if e.bumped:
            bits.append(t("levelx.eff_bumped", name=e.bumped))
        if e.chip:
            bits.append(t("levelx.eff_chip"))
        bits += [t("levelx.eff_bonus", b=b) for b in e.bonuses]
        parts.append(", ".join(bits))
    tail = ([t("levelx.eff_points", n=opt.points)] if opt.points else []) + ([t("levelx.eff_ends")] if opt.ends_game else [])
    return f"{notation(opt.groups)}: " + "; ".join(parts) + (f" ({', '.join(tail)})" if tail else "")


def board_scene(state, lang: str = "en"):
    """The printed board (A4) with this position drawn on it, as the checked sheet draws it
    (sheetkit.games.levelx.overlay.board_page), sized for the phone. Returns (scene, crop box)."""
    from sheetkit.games.levelx.overlay import board_crop, board_page
    from sheetkit.paper import scene as S

    scene = S.Scene(title="Level X", lang=lang)
    scene.pages.append(board_page(scene, state, "a4", lang, screen=True))
    return scene, board_crop("a4", state.board)


def board_svg(state, lang: str = "en") -> str:
    """The board as inline SVG, cut to the rows and the bonus tiles (the page's style.css
    brings the font)."""
    from sheetkit.paper import svg

    scene, crop = board_scene(state, lang)
    return svg.page_svg(scene, 0, title="Level X", view=crop)


# -- the quick tally -----------------------------------------------------------------------

ROWS = (5, 6, 7, 8, 9, 10)
BONUSES = (15, 12, 9, 6)
TALLY_SOURCE = "web form"


def tally_context(form, session, t: Callable = english, step=None, refused: bool = False) -> dict:
    return {"slots": range(4), "rows": ROWS, "bonuses": BONUSES}


def tally_score(form: Mapping[str, str], session, t: Callable = english):
    """The final position typed in (chips per row, bonus tiles) as a record, checked as
    `sheetkit check` checks it."""
    from sheetkit.forms import BIG
    from sheetkit.games.interface import Outcome
    from sheetkit.games.levelx.check import check_final
    from sheetkit.games.levelx.record import read_record
    from sheetkit.tomlfile import dump_toml, parse_toml_text

    def filled(i):
        return any(form.get(f"p{i}_chips_{r}", "").strip() for r in ROWS) or \
            any(form.get(f"p{i}_bonus_{b}") for b in BONUSES)

    slots, names = inputs.named_slots(form, t, filled)
    inputs.players(names, "Level X", t)
    players = []
    for i, n in slots:
        chips = {str(r): v for r in ROWS if (v := inputs.integer(form, f"p{i}_chips_{r}", f"{n}, {t('chips')}, {r}", 0, BIG, t))}
        bonuses = [b for b in BONUSES if form.get(f"p{i}_bonus_{b}") == "on"]
        players.append({"name": n, "chips": chips, "bonuses": bonuses})
    text = dump_toml({"game": GAME, "kind": "final", "player": players},
                     "The final position of a Level X game entered on the sheetkit page.\nCheck it with: sheetkit check THIS.toml")
    record = read_record(parse_toml_text(text, TALLY_SOURCE), TALLY_SOURCE)
    return Outcome(check_final(record, TALLY_SOURCE).verdict, text)
