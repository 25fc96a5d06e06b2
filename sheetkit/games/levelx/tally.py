"""`sheetkit score levelx RECORD`: totals, winner(s) and the first player's (1)."""


def score_lines(verdict, lang: str = "en") -> list[str]:
    from sheetkit.messages import text

    out = [f"{verdict.source}: Level X"]
    players = verdict.details.players
    for s in verdict.scores:
        p = players[s.player]
        chips = "  ".join(f"{v}x{n}" for v, n in p.chips.items() if n)
        bonus = "+".join(str(b) for b in p.bonuses) or "0"
        mark = " (1)" if "(1)" in s.notes else ""
        said = text("levelx.chips", lang, chips=chips) if chips else text("levelx.no_chips", lang)
        out.append(f"  {s.player}{mark}: {s.total}  ({said}; {text('levelx.bonuses', lang, bonuses=bonus)})")
    return out
