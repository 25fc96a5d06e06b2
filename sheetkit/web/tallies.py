"""The quick tallies as forms: form values in, a Verdict out, through the games' own code.

Yuncos and Glüx call the scoring that `sheetkit score yuncos|glux` uses. IUNU and Level X
have no count-only tally: their end-of-game forms build a record (the TOML that `sheetkit
check` reads, offered for download) and check it, so the page and the command line agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping

from sheetkit.tomlfile import dump_toml
from sheetkit.errors import UserError
from sheetkit.web import inputs
from sheetkit.web.inputs import FormError

SOURCE = "web form"
MAX_PLAYERS = 4
IUNU_CASTES = ("farmer", "baker", "soldier", "merchant", "noble", "priest", "scribe", "pharaoh", "ninth")
IUNU_AFTERLIFE_SLOTS = 3
LEVELX_ROWS = (5, 6, 7, 8, 9, 10)
LEVELX_BONUSES = (15, 12, 9, 6)
BIG = 999  # a count above what any box of any game holds, to catch typos as out of range


@dataclass(frozen=True)
class Outcome:
    verdict: object  # sheetkit.checking.verdict.Verdict
    record: str | None = None  # the record built from the form, when there is one


def yuncos(form: Mapping[str, str], t: Callable) -> Outcome:
    from sheetkit.checking.verdict import Verdict
    from sheetkit.games.yuncos.scoring import TallyDetails, rank
    from sheetkit.games.yuncos.tally import tally_counts

    level = inputs.choice(form, "level", t("level"), ("easy", "hard"), t, "easy")
    counts = {k: inputs.integer(form, k, t(k), 0, BIG, t)
              for k in ("nests", "columns", "fish", "stars", "colours", "crashes")}
    solo = form.get("solo") == "on"
    try:
        score = tally_counts(level, solo=solo, **counts)
    except UserError as e:  # a count the sheet cannot hold: say it with the page's label
        line = inputs.said(e)
        option = line.split(" ", 1)[0].lstrip("-")
        raise FormError(f"{t(option)}: {line.split(': ', 1)[-1]}" if option in counts else line) from None
    details = TallyDetails(level, rank(score.total) if solo else None)
    return Outcome(Verdict(game="yuncos", source=SOURCE, scores=[score], details=details))


def glux_rooms(board: str) -> list[tuple[str, str, bool]]:
    """(key, label in English, is the middle room) of a shipped board side's rooms."""
    from sheetkit import layouts

    spec = layouts.load(f"glux-board-{board}").spec
    return [(k, r.label("en"), bool(r.middle)) for k, r in spec.rooms.items()]


def glux(form: Mapping[str, str], t: Callable) -> Outcome:
    from sheetkit.games.glux import rules

    board = inputs.choice(form, "board", t("board_side"), ("2p", "34p"), t, "34p")
    most = 2 if board == "2p" else 4
    slots = [(t("name_n", n=i + 1), inputs.name(form, f"name{i}", t("name_n", n=i + 1), t)) for i in range(most)]
    rooms = glux_rooms(board)
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
    result = rules.score(scored, names, middle)
    return Outcome(rules.verdict(result, SOURCE))


def _named_slots(form, t, filled: Callable[[int], bool]) -> list[tuple[int, str]]:
    """(slot, name) of the player slots in use: a slot with a name, or with numbers typed
    (then the name is missing)."""
    out, names = [], []
    for i in range(MAX_PLAYERS):
        field = t("name_n", n=i + 1)
        n = inputs.name(form, f"name{i}", field, t)
        if not n and filled(i):
            raise FormError(t("err_empty_name", field=field))
        names.append((field, n))
        if n:
            out.append((i, n))
    return out, names


def iunu_deck(form: Mapping[str, str], t: Callable) -> dict:
    """The deck's tables from the deck form, as a record carries them inline."""
    castes = {}
    for c in IUNU_CASTES:
        label = t("ninth_name") if c == "ninth" else c.capitalize()
        entry = {k: inputs.integer(form, f"deck_{c}_{k}", f"{label}, {t(k)}", 0 if k == "bread" else 1, BIG, t,
                                   default=None) for k in ("cards", "vp", "bread")}
        for k, v in entry.items():
            if v is None:
                raise FormError(t("err_int", field=f"{label}, {t(k)}", lo=0 if k == "bread" else 1, hi=BIG, got="''"))
        if c == "ninth":
            n = inputs.name(form, "deck_ninth_name", t("ninth_name"), t)
            if not n:
                raise FormError(t("err_empty_name", field=t("ninth_name")))
            entry = {"name": n, **entry}
        castes[c] = entry
    return {"castes": castes}


def iunu(form: Mapping[str, str], deck: dict, t: Callable) -> Outcome:
    data = {"game": "iunu", "deck": deck, "player": iunu_players(form, t)}
    return _built(data, "An IUNU game entered on the sheetkit page.\nCheck it with: sheetkit check THIS.toml", t)


def iunu_players(form: Mapping[str, str], t: Callable) -> list[dict]:
    """The [[player]] tables of the IUNU end-of-game form."""
    def filled(i):
        return any(form.get(f"p{i}_{k}", "").strip() for k in
                   ["deben"] + [f"cards_{c}" for c in IUNU_CASTES] + [f"fed_{c}" for c in IUNU_CASTES])

    slots, names = _named_slots(form, t, filled)
    inputs.players(names, "IUNU", t)
    players = []
    for i, n in slots:
        cards = {c: v for c in IUNU_CASTES if (v := inputs.integer(form, f"p{i}_cards_{c}", f"{n}, {t('dynasty')}, {c}", 0, BIG, t))}
        fed = {c: v for c in IUNU_CASTES if (v := inputs.integer(form, f"p{i}_fed_{c}", f"{n}, {t('fed')}, {c}", 0, BIG, t))}
        after = []
        for j in range(IUNU_AFTERLIFE_SLOTS):
            caste = form.get(f"p{i}_after{j}_caste", "")
            if not caste:
                continue
            inputs.choice(form, f"p{i}_after{j}_caste", f"{n}, {t('afterlife')}", IUNU_CASTES, t, "")
            mult = inputs.integer(form, f"p{i}_after{j}_mult", f"{n}, {t('afterlife')}, {t('multiplier')}", 1, BIG, t, default=1)
            after.append({"caste": caste, "multiplier": mult})
        players.append({"name": n, "deben": inputs.integer(form, f"p{i}_deben", f"{n}, {t('deben')}", 0, 99999, t),
                        "cards": cards, "fed": fed, "afterlife": after})
    return players


def levelx(form: Mapping[str, str], t: Callable) -> Outcome:
    def filled(i):
        return any(form.get(f"p{i}_chips_{r}", "").strip() for r in LEVELX_ROWS) or \
            any(form.get(f"p{i}_bonus_{b}") for b in LEVELX_BONUSES)

    slots, names = _named_slots(form, t, filled)
    inputs.players(names, "Level X", t)
    players = []
    for i, n in slots:
        chips = {str(r): v for r in LEVELX_ROWS
                 if (v := inputs.integer(form, f"p{i}_chips_{r}", f"{n}, {t('chips')}, {r}", 0, BIG, t))}
        bonuses = [b for b in LEVELX_BONUSES if form.get(f"p{i}_bonus_{b}") == "on"]
        players.append({"name": n, "chips": chips, "bonuses": bonuses})
    data = {"game": "levelx", "kind": "final", "player": players}
    return _built(data, "The final position of a Level X game entered on the sheetkit page.\n"
                        "Check it with: sheetkit check THIS.toml", t)


def _built(data: dict, comment: str, t: Callable) -> Outcome:
    """Write the record as TOML and check that text, as an upload would be checked."""
    text = dump_toml(data, comment)
    _, checked = inputs.parse_record(text.encode("utf-8"), SOURCE, t)
    return Outcome(checked.verdict, text)
