"""A verdict written on paper: the head line and every finding in full, under a drawing,
continued on new pages as needed. Every game's `check --render` uses it."""

from __future__ import annotations

from sheetkit.paper.measure import fit_size, wrap
from sheetkit.paper.scene import BLACK, SAFE_MARGIN, Page, Text

RED = "#d40000"
SIZE = 7.5


def list_findings(pages: list[Page], y: float, head: str, findings, color: str = BLACK,
                  margin: float = SAFE_MARGIN, lang: str = "en") -> None:
    """Write `head` at `y` on the last page, then each finding below it in `lang`
    (continuation lines indented); a new page of the same size whenever one is full."""
    from sheetkit.checking.messages import text

    width, height = pages[-1].width, pages[-1].height
    text_w = width - 2 * margin
    pages[-1].items.append(Text(margin, y, head, size=fit_size(head, text_w, 9.0, True), bold=True, color=color))
    for f in findings:
        for k, line in enumerate(wrap(f.line(lang), text_w - 4, SIZE)):
            y += 4.2 if k == 0 else 3.2
            if y > height - margin - 2:
                more = text("status.continued", lang, head=head)
                pages.append(Page(width, height, [Text(margin, margin + 4, more, size=fit_size(more, text_w, 9.0, True),
                                                       bold=True, color=color)]))
                y = margin + 10
            pages[-1].items.append(Text(margin + (4 if k else 0), y, line, size=SIZE, color=color))
