"""Scene -> SVG text: the sheets drawn for a web page, from the same scene as the PDF.

One page becomes one <svg> whose user units are the scene's millimetres (viewBox), so a
position in the SVG is the position in the scene. Forms become <g> in <defs>, placed with
<use>, as the PDF backend writes each form once. Text is set in the bundled DejaVu Sans
Condensed when the page can load it (`font_url`), else in a generic sans-serif; anchors
and sizes are the scene's, so the layout's own fitting (measured with that font) holds.

Deterministic: the same scene gives the same text (numbers rounded to 1/1000 mm, a form's
or a clip's id a digest of what it draws, so SVGs inlined in one page never share an id
that draws two different things). No third-party import: the QR modules come from sheetkit.paper.qr.
"""

from __future__ import annotations

import hashlib
import threading
from functools import lru_cache
from xml.sax.saxutils import escape, quoteattr

from sheetkit.memo import Memo
from sheetkit.paper import scene as S

FONT_FAMILY = "DejaVu Sans Condensed"
PT = 25.4 / 72  # mm per point
VIEW_MARGIN = 1.0  # mm around a view within which an item is still drawn (a stroke's width, a glyph's overhang)


def num(v: float) -> str:
    """A coordinate as short, stable text: 1/1000 mm, no trailing zeros, no "-0"."""
    text = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _style(st: S.Style, *, fill_default: str = "none") -> str:
    out = [f'fill="{escape(st.fill)}"' if st.fill else f'fill="{fill_default}"']
    if st.stroke:
        out.append(f'stroke="{escape(st.stroke)}" stroke-width="{num(st.width)}"')
        if st.dash:
            out.append(f'stroke-dasharray="{" ".join(num(d) for d in st.dash)}"')
    return " ".join(out)


def _points(points) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in points)


class _Writer:
    def __init__(self, forms: dict[str, S.Form]):
        self.forms = forms
        self.form_ids: dict[str, str] = {}  # form name -> its id
        self.clips: list[str] = []  # <clipPath> elements, in order of first use
        self.clip_ids: set[str] = set()
        self.defs: list[str] = []

    def form_id(self, name: str) -> str:
        # Ids named by what they draw: a web page inlines several SVGs (a sheet's two pages,
        # every player's sheet), where a "form1" of each would all draw the first one's.
        if name not in self.form_ids:
            body = self.items(self.forms[name].items)  # nested forms are defined first
            fid = "form-" + _digest(name + "\n" + body)
            self.form_ids[name] = fid
            self.defs.append(f'<g id="{fid}" data-form={quoteattr(name)}>\n{body}</g>')
        return self.form_ids[name]

    def items(self, items) -> str:
        out: list[str] = []
        run: list[S.Line] = []  # consecutive plain lines of one style: one <path> (a board's hatching is hundreds)
        kept = _BY_ITEM.get
        for it in items:
            line = _plain_line(it)
            if line and (not run or run[0].style is it.style or run[0].style == it.style):
                run.append(it)
                continue
            if run:
                out.append(self._run(run))
                run = []
            if line:
                run.append(it)
                continue
            known = kept(id(it))  # self.item's lookup, inlined: this runs for every item of every page drawn
            out += (known[2] if known is not None and known[0] is it and known[2] is not None else self.item(it), "\n")
        if run:
            out.append(self._run(run))
        return "".join(out)

    def _run(self, run: list) -> str:
        if len(run) == 1:
            return self.item(run[0]) + "\n"
        got = _RUNS.get(None, run)  # by the very lines first, as _known finds an item
        return (got if got is not None else _RUNS.put(None, run, _lines(tuple(run)))) + "\n"

    def item(self, it) -> str:
        if isinstance(it, S.Use):
            use = f'<use href="#{self.form_id(it.name)}" x="{num(it.x)}" y="{num(it.y)}"/>'
            if not it.clip:
                return use
            cx, cy, cw, ch = it.clip
            rect = f'<rect x="{num(cx)}" y="{num(cy)}" width="{num(cw)}" height="{num(ch)}"/>'
            cid = "clip-" + _digest(rect)
            if cid not in self.clip_ids:
                self.clip_ids.add(cid)
                self.clips.append(f'<clipPath id="{cid}">{rect}</clipPath>')
            return f'<g clip-path="url(#{cid})">{use}</g>'
        known = _known(it)
        if known[2] is None:  # written the first time it shows
            known[2] = _drawn(it)
        return known[2]


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def _plain_line(it) -> bool:
    """A line that draws the same as a subpath of a <path>: undashed (a dash pattern starts
    again at each subpath) and unfilled."""
    return type(it) is S.Line and not it.style.dash and not it.style.fill


_RUNS = Memo(1 << 12)  # a run of plain lines, by the very lines -> its <path>


@lru_cache(maxsize=1 << 12)
def _lines(run: tuple) -> str:
    d = "".join(f"M{num(ln.x1)} {num(ln.y1)}L{num(ln.x2)} {num(ln.y2)}" for ln in run)
    return f'<path d="{d}" {_style(run[0].style)} stroke-linecap="butt"/>'


def _within(items, forms, views) -> list[list]:
    """The items that show in each of `views` (x, y, w, h): a page cut to its board or its
    map carries nothing of the rest of the sheet (less to send, nothing hidden read aloud).
    Each item is measured once for all the views."""
    kept = _BY_ITEM.get
    boxes = []
    for it in items:
        known = kept(id(it))  # _known, inlined: this runs for every item of every page drawn
        if known is None or known[0] is not it:
            known = _known(it) if not isinstance(it, S.Use) else (it, S.bounds([it], forms))
        boxes.append(known[1])
    out = []
    for vx, vy, vw, vh in views:
        x0, y0, x1, y1 = vx - VIEW_MARGIN, vy - VIEW_MARGIN, vx + vw + VIEW_MARGIN, vy + vh + VIEW_MARGIN
        out.append([it for it, b in zip(items, boxes) if b is not None and b[0] < x1 and b[2] > x0 and b[1] < y1
                    and b[3] > y0])
    return out


# An item's box and SVG text, found by the very item (kept beside them, so that its id is
# no other item's while kept): a page is drawn again at every move over the same items (a
# blank sheet's, those kept of the turns before), and finding a frozen item by its value
# (its dataclass' __hash__ and __eq__, in Python) costs several times the lookup by id.
_BY_ITEM: dict[int, list] = {}
_MOST_BY_ITEM = 1 << 16
_LOCK = threading.Lock()


def _known(it) -> list:
    """[the item, its box, its SVG text] of an item that is not a Use (whose box depends
    on its forms); its text None until it is first written."""
    got = _BY_ITEM.get(id(it))
    if got is not None and got[0] is it:
        return got
    try:
        got = [it, _box(it), None]
    except TypeError:  # an item holding a list: not hashable, measured and written each time
        return [it, S.bounds([it]), _draw(it)]
    with _LOCK:
        if len(_BY_ITEM) >= _MOST_BY_ITEM:
            _BY_ITEM.clear()
        _BY_ITEM[id(it)] = got
    return got


@lru_cache(maxsize=1 << 16)
def _box(it):
    return S.bounds([it])


@lru_cache(maxsize=1 << 16)
def _drawn(it) -> str:
    """An item's SVG text, looked up when the same item is drawn again: the page draws the
    same board under every move, and only the chips change."""
    return _draw(it)


def _draw(it) -> str:
    if isinstance(it, S.Line):
        return (f'<line x1="{num(it.x1)}" y1="{num(it.y1)}" x2="{num(it.x2)}" y2="{num(it.y2)}" '
                f'{_style(it.style)} stroke-linecap="butt"/>')
    if isinstance(it, S.Path):
        tag = "polygon" if it.closed else "polyline"
        return f'<{tag} points="{_points(it.points)}" {_style(it.style)} stroke-linejoin="round"/>'
    if isinstance(it, S.Rect):
        r = f' rx="{num(it.radius)}"' if it.radius else ""
        return (f'<rect x="{num(it.x)}" y="{num(it.y)}" width="{num(it.w)}" height="{num(it.h)}"{r} '
                f'{_style(it.style)}/>')
    if isinstance(it, S.Circle):
        return f'<circle cx="{num(it.x)}" cy="{num(it.y)}" r="{num(it.r)}" {_style(it.style)}/>'
    if isinstance(it, S.Text):
        bold = ' font-weight="bold"' if it.bold else ""
        return (f'<text x="{num(it.x)}" y="{num(it.y)}" font-size="{num(it.size * PT)}"{bold} '
                f'text-anchor="{it.anchor}" fill="{escape(it.color)}">{escape(it.text)}</text>')
    if isinstance(it, S.QR):
        from sheetkit.paper import qr

        n, rects = qr.rects(it.data)
        m = it.size / n
        d = "".join(f"M{num(it.x + c * m)} {num(it.y + r * m)}h{num(w * m)}v{num(h * m)}h{num(-w * m)}z"
                    for c, r, w, h in rects)
        return (f'<rect x="{num(it.x)}" y="{num(it.y)}" width="{num(it.size)}" height="{num(it.size)}" '
                f'fill="#ffffff"/><path d="{d}" fill="#000000" data-qr={quoteattr(it.data)}/>')
    raise TypeError(f"cannot draw {type(it).__name__}")  # pragma: no cover


def page_svg(scene: S.Scene, page: int = 0, *, font_url: str | None = None, title: str | None = None,
             view: tuple[float, float, float, float] | None = None) -> str:
    """One page of the scene as a standalone SVG document, sized in millimetres.

    `font_url`: where the page can load the bundled regular font (the bold one at the same
    address with `-Bold` before `.ttf`); without it, text falls back to sans-serif.
    `view`: (x, y, width, height) in mm, the part of the page shown (e.g. a board without
    the page around it); the whole page when not given."""
    return page_views(scene, page, [view], font_url=font_url, title=title)[0]


def page_views(scene: S.Scene, page: int, views: list, *, font_url: str | None = None,
               title: str | None = None) -> list[str]:
    """page_svg of each of `views` (None: the whole page), the page's items measured once
    for all of them (a sheet shown as its map and its puzzles)."""
    pg = scene.pages[page]
    cut = [v for v in views if v is not None]
    shown = iter(_within(pg.items, scene.forms, cut) if cut else [])
    return [_document(scene, pg, pg.items if view is None else next(shown), view, font_url, title) for view in views]


def _document(scene: S.Scene, pg: S.Page, items, view, font_url: str | None, title: str | None) -> str:
    w = _Writer(scene.forms)
    vx, vy, vw, vh = view if view is not None else (0.0, 0.0, pg.width, pg.height)
    body = w.items(items)
    head = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(vw)}mm" height="{num(vh)}mm" '
            f'viewBox="{num(vx)} {num(vy)} {num(vw)} {num(vh)}" '
            f'font-family="{FONT_FAMILY}, sans-serif">']
    label = title if title is not None else scene.title
    if label:
        head.append(f"<title>{escape(label)}</title>")
    defs = []
    if font_url:
        bold_url = font_url[:-4] + "-Bold.ttf" if font_url.endswith(".ttf") else font_url
        defs.append("<style>"
                    f"@font-face{{font-family:'{FONT_FAMILY}';src:url({quoteattr(font_url)[1:-1]})}}"
                    f"@font-face{{font-family:'{FONT_FAMILY}';font-weight:bold;src:url({quoteattr(bold_url)[1:-1]})}}"
                    "</style>")
    defs += w.clips + w.defs
    if defs:
        head.append("<defs>\n" + "\n".join(defs) + "\n</defs>")
    head.append(f'<rect x="0" y="0" width="{num(pg.width)}" height="{num(pg.height)}" fill="#ffffff"/>')
    return "\n".join(head) + "\n" + body + "</svg>\n"
