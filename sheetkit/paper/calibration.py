"""The printer calibration sheet (`kind = "calibration"`): one two-sided sheet.

Front: a ruler along x and one along y, to measure how the printer scales each direction,
and three crosses. Back: behind each cross (long-edge flip), a horizontal and a vertical
scale. Held to the light with the back facing you, each front cross shows through at the
back-side shift, read off the scales in mm: the numbers to give `sheetkit printer set` as
--back-dx and --back-dy, no sign to work out (sheetkit.paper.printers explains why).
"""

from __future__ import annotations

from pydantic import model_validator

from sheetkit.messages import msg
from sheetkit.errors import FieldError
from sheetkit.paper import marks
from sheetkit.paper import scene as S
from sheetkit.paper.measure import fit_size, wrap
from sheetkit.schema import Label, Model

SCALE_SPAN = 6  # mm either side of the centre on the back scales
CROSS = 14.0  # mm: each arm of a front cross


# the {placeholders} each label may hold (the others are printed as written)
STEP_FIELDS = ("x", "y", "x_short")  # the rulers' lengths, and the x ruler as a 1.004 printer prints it
RULER_FIELDS = ("length",)


def _placeholders(text: str, allowed: tuple[str, ...], field: str) -> None:
    """FieldError unless every {name} in `text` is one of `allowed` (braces doubled, {{ }},
    are literal ones)."""
    import string

    try:
        names = [(name, spec, conv) for _, name, spec, conv in string.Formatter().parse(text) if name is not None]
    except ValueError:  # a lone { or }
        raise FieldError(field, msg("error.layout.braces", allowed=_shown(allowed))) from None
    for name, spec, conv in names:
        if name not in allowed or spec or conv:
            raise FieldError(field, msg("error.layout.placeholder", got=repr("{" + name + "}"),
                                        allowed=_shown(allowed)))


def _shown(allowed: tuple[str, ...]) -> str:
    return ", ".join("{" + a + "}" for a in allowed) if allowed else "-"


class CalibrationLabels(Model):
    front: Label
    back: Label
    steps: list[Label]  # the numbered steps on the front: {x}, {y}, {x_short} are filled in
    ruler_x: Label  # "{length}" is replaced by the ruler's length
    ruler_y: Label
    back_note: Label
    reading_x: Label
    reading_y: Label

    @model_validator(mode="after")
    def _check_placeholders(self):
        for i, step in enumerate(self.steps):
            for lang in ("es", "en"):
                _placeholders(step(lang), STEP_FIELDS, f"steps[{i}].{lang}")
        for name in ("ruler_x", "ruler_y"):
            for lang in ("es", "en"):
                _placeholders(getattr(self, name)(lang), RULER_FIELDS, f"{name}.{lang}")
        return self


class Calibration(Model):
    kind: str
    title: Label
    ruler_x: float = 150.0  # mm
    ruler_y: float = 200.0
    labels: CalibrationLabels

    @model_validator(mode="after")
    def _check(self):
        if self.kind != "calibration":
            raise FieldError("kind", msg("error.layout.calibration", got=repr(self.kind)))
        if not 50 <= self.ruler_x <= 160 or self.ruler_x != int(self.ruler_x):
            raise FieldError("ruler_x", msg("error.layout.whole_mm", low=50, high=160, got=repr(self.ruler_x)))
        if not 50 <= self.ruler_y <= 200 or self.ruler_y != int(self.ruler_y):
            raise FieldError("ruler_y", msg("error.layout.whole_mm", low=50, high=200, got=repr(self.ruler_y)))
        return self


def ruler_x_at(paper: str, spec: Calibration) -> tuple[float, float]:
    """(x, y) where the x ruler's 0 is."""
    W, _ = S.paper_size(paper)
    return (W - spec.ruler_x) / 2 + 8, 66.0


def ruler_y_at(paper: str, spec: Calibration) -> tuple[float, float]:
    return 20.0, 62.0


def targets(paper: str) -> list[tuple[float, float]]:
    """The crosses' centres on the front, in front-page mm: middle, upper right, lower right."""
    W, H = S.paper_size(paper)
    return [(W / 2 + 12, 150.0), (W - 40, 100.0), (W - 40, H - 50)]


def _cross(x: float, y: float) -> list[S.Item]:
    st = S.Style(width=0.15)
    return [S.Line(x - CROSS, y, x + CROSS, y, st), S.Line(x, y - CROSS, x, y + CROSS, st),
            S.Circle(x, y, 2.0, S.Style(width=0.15))]


SCALE_OFFSET = 8.0  # mm from the cross's centre to each scale, clear of the other scale


def _back_scales(x: float, y: float, lang: str, spec: Calibration) -> list[S.Item]:
    """Behind the cross at (x, y) of the back page: a horizontal scale SCALE_OFFSET mm below
    the centre, which the cross's vertical line crosses (mm to the right positive), and a
    vertical one SCALE_OFFSET mm right of it, which the horizontal line crosses (mm down
    positive). A tick every 0.5 mm, a number every 3 mm across and 2 mm down."""
    thin, thick = S.Style(width=0.12), S.Style(width=0.3)
    items: list[S.Item] = []
    hy, vx = y + SCALE_OFFSET, x + SCALE_OFFSET
    for k in range(-2 * SCALE_SPAN, 2 * SCALE_SPAN + 1):  # half millimetres
        t = 3.2 if k % 4 == 0 else 2.4 if k % 2 == 0 else 1.4
        st = thick if k == 0 else thin
        items.append(S.Line(x + k / 2, hy - t, x + k / 2, hy, st))
        items.append(S.Line(vx, y + k / 2, vx + t, y + k / 2, st))
        txt = f"{k // 2:+d}" if k else "0"
        if k % 6 == 0:  # a number every 3 mm, on two staggered lines so "+3" and "+6" stand apart
            items.append(S.Text(x + k / 2, hy + (2.8 if k % 12 == 0 else 5.4), txt, size=6, anchor="middle"))
        if k % 4 == 0:
            items.append(S.Text(vx + 4, y + k / 2 + 0.8, txt, size=6))
    items.append(S.Line(x - SCALE_SPAN, hy, x + SCALE_SPAN, hy, thin))
    items.append(S.Line(vx, y - SCALE_SPAN, vx, y + SCALE_SPAN, thin))
    items.append(S.Text(x - SCALE_SPAN - 1.5, hy + 0.2, spec.labels.reading_x(lang), size=6.5, bold=True, anchor="end"))
    items.append(S.Text(vx, y - SCALE_SPAN - 1.5, spec.labels.reading_y(lang), size=6.5, bold=True))
    return items


def compose(layout, paper: str, lang: str, scale: str = "real") -> S.Scene:
    spec: Calibration = layout.spec
    L = spec.labels
    W, H = S.paper_size(paper)
    m = S.SAFE_MARGIN
    front: list[S.Item] = [S.Text(m, m + 6, spec.title(lang), size=15, bold=True),
                           S.Text(W - m, m + 6, L.front(lang), size=11, bold=True, anchor="end")]
    y = m + 12
    width = W - 2 * m
    for n, step in enumerate(L.steps, 1):
        x_short = f"{spec.ruler_x / 1.004:.1f}".replace(".", "," if lang == "es" else ".")
        lines = wrap(step(lang).format(x=f"{spec.ruler_x:g}", y=f"{spec.ruler_y:g}", x_short=x_short),
                     width - 5, 7.5)
        front.append(S.Text(m, y, f"{n}.", size=7.5, bold=True))
        for line in lines:
            front.append(S.Text(m + 5, y, line, size=7.5))
            y += 3.3
        y += 0.6
    rx, ry = ruler_x_at(paper, spec)
    front += marks.ruler(rx, ry, spec.ruler_x)
    text = L.ruler_x(lang).format(length=f"{spec.ruler_x:g}")
    front.append(S.Text(rx, ry - 2, text, size=fit_size(text, spec.ruler_x, 8, True), bold=True))
    vx, vy = ruler_y_at(paper, spec)
    front += marks.ruler(vx, vy, spec.ruler_y, vertical=True)
    text = L.ruler_y(lang).format(length=f"{spec.ruler_y:g}")
    # under the ruler's end, clear of its last number (beside it, "20" and the label read as one)
    front.append(S.Text(vx - 1, vy + spec.ruler_y + 5.5, text, size=fit_size(text, 60, 8, True), bold=True))
    for tx, ty in targets(paper):
        front += _cross(tx, ty)
    front += marks.scale_check(W - m - 70, H - m - marks.SCALE_CHECK_H, lang, width=70)

    back: list[S.Item] = [S.Text(m, m + 6, spec.title(lang), size=15, bold=True),
                          S.Text(W - m, m + 6, L.back(lang), size=11, bold=True, anchor="end")]
    y = m + 12
    for line in wrap(L.back_note(lang), width, 7.5):
        back.append(S.Text(m, y, line, size=7.5))
        y += 3.3
    for tx, ty in targets(paper):
        back += _back_scales(W - tx, ty, lang, spec)  # long-edge flip: x mirrored
    pages = [S.Page(W, H, front), S.Page(W, H, back, back=True)]
    return S.Scene(pages, title=spec.title(lang))


def lint(layout) -> list:
    return []
