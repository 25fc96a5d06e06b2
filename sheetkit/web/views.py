"""What the page shows of a verdict and of a checked sheet, in the page's language: one
shape for the result partial, for every game and every route (the check page, the plays,
the photo reader)."""

from __future__ import annotations

from sheetkit.web import i18n


def sheets(loaded, checked, lang: str = "en", play: bool = False) -> list[str]:
    """The checked sheet's pages as inline SVG, drawn from the game's overlay scene in the
    page's language. `play`: a play entered on the page, whose findings the sheet words as
    the page does (messages.on_page: the fix as a player makes it there, no record key)."""
    from sheetkit.paper import svg

    if loaded.kind.overlay is None:
        return []
    scene = loaded.kind.overlay(loaded.record, checked.on_page(lang) if play else checked, "a4", lang)
    return [svg.page_svg(scene, i) for i in range(min(2, len(scene.pages)))]


def ahead(names, players: int, in_progress: bool) -> list[str]:
    """The winners of a game over, or who leads one going on, as the page names them: none
    for a single player, and nobody leads while everybody is level (a fresh play at 0-0)."""
    names = list(names)
    if players < 2 or (in_progress and len(names) == players):
        return []
    return names


def verdict_view(verdict, lang: str, play: bool = False) -> dict:
    """What the result partial shows of a verdict, in the page's language: the labels from
    the page's own words, the findings, notes and tiebreak from the message
    catalogues, as every other output says them. `play`: the verdict of a play entered on
    the page, whose findings say their fix as a player does it there (messages.on_page); a
    record checked from a file keeps the words that name the file's notation."""
    from sheetkit.checking.verdict import part_label, say
    from sheetkit.messages import finding_on_page, text

    t = lambda k, **kw: i18n.label(lang, k, **kw)  # noqa: E731
    rank = getattr(verdict.details, "rank", None)
    status = t("legal") if verdict.legal else text("status.illegal", lang, n=verdict.errors)
    if verdict.in_progress:
        status += f" ({t('in_progress')}" + (f"; {t('to_move', name=verdict.to_move)}" if verdict.to_move else "") + ")"
    return {
        "legal": verdict.legal,
        "status": status,
        "findings": [finding_on_page(f, lang) if play else
                     {"rule": f.rule, "severity": f.severity, "where": f.where_in(lang), "message": f.message_in(lang)}
                     for f in verdict.findings],
        "scores": [{"player": s.player, "eliminated": s.eliminated, "total": s.total, "notes": s.notes_in(lang),
                    "parts": [(part_label(label, lang), pts) for label, pts in s.parts]} for s in verdict.scores],
        "multi": len(verdict.scores) > 1,
        "winners": ahead(verdict.ahead, len(verdict.scores), verdict.in_progress),
        "winner_label": t("leading") if verdict.in_progress else t("winner") if len(verdict.winners) == 1 else t("shared_win"),
        "tiebreak": say(verdict.tiebreak, lang) if verdict.tiebreak and not verdict.in_progress else None,
        "rank": rank(lang) if rank is not None else None,
        "game": verdict.game,
    }


_sheets, _view = sheets, verdict_view  # the app's names for them
