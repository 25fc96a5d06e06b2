"""`sheetkit score iunu RECORD`: the totals, majorities and winner(s) of a game record."""


def score_lines(verdict, lang: str = "en") -> list[str]:
    from sheetkit.checking.verdict import part_label

    out = [f"{verdict.source}: IUNU"]
    for s in verdict.scores:
        parts = ", ".join(f"{part_label(label, lang)} {pts}" for label, pts in s.parts)
        out.append(f"  {s.player}: {s.total}  ({parts}; {'; '.join(s.notes_in(lang))})")
    return out
