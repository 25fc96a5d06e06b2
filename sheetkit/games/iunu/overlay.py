"""`sheetkit check RECORD --render out.pdf` for IUNU: the score pad filled in from the
record and the majorities checking found (the checked state), with the verdict and its
findings under the table."""

from __future__ import annotations

from sheetkit import layouts
from sheetkit.paper import annotate
from sheetkit.paper import scene as S
from sheetkit.paper import tables as T
from sheetkit.games.iunu.compose import INNER, pad_items, rows
from sheetkit.games.iunu import GAME
from sheetkit.games.iunu.record import KNOWN_CASTES, Record, Tally
from sheetkit.paper.measure import clip_text, fit_size


def _terms(record: "Record | Tally", majors: dict[str, int]) -> tuple[dict[str, tuple[str, int]], list[dict[str, int]]]:
    """(caste -> (its label, its majority bonus), per player caste -> the multiplier of each
    majority held): from the deck and the afterlife cards of a game record, as written on
    the pad of a tally."""
    data = record.data
    if record.deck is None:
        return {k: (k.capitalize(), b) for k, b in data.bonus.items()}, [dict(p.majorities) for p in data.player]
    deck = record.deck
    held = []
    for p, pl in enumerate(data.player):
        mult: dict[str, int] = {}
        for card in pl.afterlife:
            mult.setdefault(card.caste, card.multiplier)  # a second card on a majority is a finding, not counted
        held.append({k: mult.get(k, 1) for k in deck.castes if majors.get(k) == p})
    return {k: (deck.label(k), c.cards) for k, c in deck.castes.items()}, held


def overlay(record: "Record | Tally", checked, paper: str = "a4", lang: str = "en") -> S.Scene:
    majors, verdict = checked.state, checked.verdict  # caste -> index of the player holding it
    layout = layouts.load(GAME.pad)
    spec = layout.spec
    cells: dict = {}
    items, bottom = pad_items(spec, paper, lang, cells)
    table_rows = rows(spec, lang)
    players = record.data.player
    scores = {s.player: s for s in verdict.scores}
    bonuses, held = _terms(record, majors)
    # the pad's caste lines: the known castes by key, the write-in line for the deck's other one
    extra = [k for k in bonuses if k not in KNOWN_CASTES]
    caste_row: dict[str, int] = {}
    for i, r in enumerate(table_rows[3:3 + len(spec.castes)], 3):
        key = spec.castes[i - 3].key
        if key in bonuses:
            caste_row[key] = i
        elif r.write_in and extra:
            caste_row[extra.pop(0)] = i
    fill: list[S.Item] = []
    for key, i in caste_row.items():
        if (i, -1) in cells and cells[i, -1]:
            T.write(fill, cells[i, -1][0], str(bonuses[key][1]))
        if (i, "label") in cells:
            x, y, w, h = cells[i, "label"][0]
            label = bonuses[key][0]
            size = fit_size(label, w - 1.0, 8.0, True, T.MIN_PT)
            fill.append(S.Text(x + 0.5, y + h - 0.8, clip_text(label, w - 1.0, size, True), size=size, bold=True,
                               color=T.INK))
    value_rows = [i for i, r in enumerate(table_rows) if r.kind == "value"]
    citizens_i, bread_i, deben_i, third_i, total_i = value_rows
    winner_i = len(table_rows) - 1
    for p, pl in enumerate(players[:spec.players]):
        sc = scores[pl.name]
        parts = dict(sc.parts)
        T.write(fill, cells[0, p][0], pl.name, size=9.0)
        T.write(fill, cells[citizens_i, p][0], str(parts["citizens"]))
        for key, i in caste_row.items():
            if key not in held[p]:
                continue
            bonus, m = bonuses[key][1], held[p][key]
            a, f, r = cells[i, p]
            T.write(fill, a, str(bonus))
            T.write(fill, f, str(m))
            T.write(fill, r, str(bonus * m))
        T.write(fill, cells[bread_i, p][0], str(parts["bread"]))
        T.write(fill, cells[deben_i, p][0], str(pl.deben))
        T.write(fill, cells[third_i, p][0], str(parts["deben"]))
        T.write(fill, cells[total_i, p][0], str(sc.total))
        if pl.name in verdict.winners and verdict.legal:  # an illegal record has no winner
            x, y, w, h = cells[winner_i, p][0]
            fill.append(S.Circle(x + w / 2, y + h / 2, w / 2 - 1.2, style=S.Style(stroke=None, fill=T.INK)))

    column = {pl.name: p for p, pl in enumerate(players[:spec.players])}

    def places(f) -> list[annotate.Spot]:
        """The field of a finding: a player's Deben box (with the Deben the record says), a
        player's afterlife multiplier box (with the card's multiplier written in it), a
        player's caste line, a caste's line across the players, or a player's name."""
        at = f.at
        p, i = column.get(at.get("player")), caste_row.get(at.get("caste"))
        if p is not None and getattr(f.text, "id", "") == "finding.iunu.I4_deben":
            return [annotate.cell(*cells[deben_i, p][0], value=str(players[p].deben), side="beside")]
        if p is not None and "total" in at:  # the pad's total, beside the parts' sum written in its box
            return [annotate.cell(*cells[total_i, p][0], value=str(at["total"]), side="beside")]
        if p is not None and i is not None:
            boxes = cells[i, p]
            if "afterlife" in at and len(boxes) > 1:
                cards = players[p].afterlife
                m = cards[at["afterlife"]].multiplier if at["afterlife"] < len(cards) else None
                if m is not None and majors.get(at["caste"]) != p:  # the record's card, in its box
                    T.write(fill, boxes[1], str(m))
                # tagged by its top right corner: beside it, in the formula, sits its "="
                return [annotate.cell(*boxes[1], value=None if m is None else f"×{m}")]
            return [annotate.cell(*annotate.union(boxes), side="beside")]
        if i is not None:
            return [annotate.cell(*annotate.union(b for q in column.values() for b in cells[i, q]))]
        if p is not None:
            return [annotate.cell(*cells[0, p][0], side="beside")]
        return []

    return T.filled_scene("IUNU", verdict, paper, INNER, items, fill, bottom,
                          places=[places(f) for f in verdict.findings], lang=lang)
