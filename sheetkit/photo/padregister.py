"""Registration of any numbered sheet: a photo laid over the blank page it was printed from.

The Yuncos reader (register.py) knows where a Yuncos level puts its four squares and its
code. Any other numbered sheet says so itself: its composed page carries its registration
squares (`Page.marks`, drawn by sheetkit.paper.marks) and its stamp square, in either paper
size. So the photo's filled dark squares (register._squares) are fitted to the marks of
each printable layout that has them (register._fit_marks), the code is read where a fit
puts it (register._read_code), and the code's text names the layout, its version and the
serial. The paper (A4 or Letter: the pads' columns are as wide as the paper allows) is the
one whose marks and code fit the squares found best. The homography from the squares'
centres and the code's corners is then refined by ECC on every printed line, as for Yuncos.

Coordinates are those of the page the sheet was printed on, in mm (the blank at PX_PER_MM).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from sheetkit.errors import UserError
from sheetkit.messages import msg
from sheetkit.photo import PX_PER_MM
from sheetkit.photo import register as R

PADS = ("glux-score-pad", "iunu-score-pad", "levelx-score-pad")
PAPERS = ("a4", "letter")
LANGS = ("en", "es")


@dataclass(frozen=True)
class Geometry:
    """What registration needs of a page (register's helpers read these names): the stamp
    square, the registration squares and the block that is read (ox, oy, content_w,
    content_h), in mm."""

    layout_id: str
    paper: str
    stamp: tuple[float, float, float]
    marks: tuple[tuple[float, float, float], ...]
    ox: float
    oy: float
    content_w: float
    content_h: float


@dataclass
class PadBlank:
    layout: object
    paper: str
    lang: str
    page: object  # the composed sheetkit.paper.scene.Page: its marks and fields
    geometry: Geometry
    image: np.ndarray  # grey float32, 1 = white, at PX_PER_MM, this copy's code drawn in
    qr: tuple  # (x, y, size) mm: the code without its quiet zone


@dataclass
class PadRegistered:
    text: str
    serial: int
    blank: PadBlank
    photo: np.ndarray  # warped onto the blank, lighting evened
    homography: np.ndarray  # photo px -> blank px
    found: dict
    sharpness: float
    blank_image: np.ndarray  # the blank, lighting evened as the photo's is


@lru_cache(maxsize=16)
def page(layout_id: str, paper: str, lang: str):
    """The composed page of `layout_id` on `paper` in `lang`, and its Geometry."""
    from sheetkit.paper import printing

    layout, scene = printing.compose(layout_id, paper, lang)
    pg = scene.pages[0]
    boxes = [f.box for f in pg.fields] + [(x, y, s, s) for x, y, s in pg.marks]
    x0 = min(b[0] for b in boxes) - 2
    y0 = min(b[1] for b in boxes) - 2
    x1 = max(b[0] + b[2] for b in boxes) + 2
    y1 = max(b[1] + b[3] for b in boxes) + 2
    return layout, scene, Geometry(layout_id, paper, pg.stamp, pg.marks, x0, y0, x1 - x0, y1 - y0)


@lru_cache(maxsize=12)
def _blank_page(layout_id: str, paper: str, lang: str) -> np.ndarray:
    """The page as printed on a pad (copy 0), grey, at PX_PER_MM."""
    from sheetkit.paper import pads, png

    layout, scene, _ = page(layout_id, paper, lang)
    scene.lang = lang
    img = png.page_image(pads.pad(scene, layout, 1, 0), 0, dpi=PX_PER_MM * 25.4).convert("L")
    return np.asarray(img, dtype=np.float32) / 255.0


def _paint_code(img: np.ndarray, stamp, text: str) -> None:
    """Draw the QR code of `text` into the stamp square of the blank image, in place: the
    blank is rendered once, and each copy's own code painted in (as pads.stamp_items puts it)."""
    from sheetkit.paper import qr as qrmod

    x, y, size = stamp
    band = max(3.2, min(6.0, size * 0.16))
    q = size - band
    m = np.array(qrmod.matrix(text), dtype=np.float32)
    n = len(m)
    x0, y0 = (x + (size - q) / 2) * PX_PER_MM, y * PX_PER_MM
    side = max(1, round(q * PX_PER_MM))
    patch = cv2.resize(1.0 - m, (side, side), interpolation=cv2.INTER_AREA)
    X0, Y0 = round(x0), round(y0)
    img[Y0:Y0 + side, X0:X0 + side] = patch


@lru_cache(maxsize=16)
def blank(layout_id: str, paper: str, lang: str, text: str) -> PadBlank:
    """The blank copy whose QR text is `text`, as printed."""
    layout, scene, g = page(layout_id, paper, lang)
    img = _blank_page(layout_id, paper, lang).copy()
    _paint_code(img, g.stamp, text)
    return PadBlank(layout, paper, lang, scene.pages[0], g, img, code_box(layout, g.stamp))


def code_box(layout, stamp) -> tuple[float, float, float]:
    """The code itself in the stamp square (x, y, size mm, its quiet zone left out), as
    pads.stamp_items draws it: every copy's text is as long, so the same for all."""
    from sheetkit.checking.qr import qr_text
    from sheetkit.paper import qr as qrmod

    x, y, size = stamp
    band = max(3.2, min(6.0, size * 0.16))
    q = size - band
    n = len(qrmod.matrix(qr_text(layout, 0)))
    mod = q / n
    return (x + (size - q) / 2 + qrmod.QUIET_ZONE * mod, y + qrmod.QUIET_ZONE * mod, (n - 2 * qrmod.QUIET_ZONE) * mod)


def candidates() -> list[Geometry]:
    """The geometries a photo is tried against: every numbered pad on either paper."""
    return [page(lid, paper, "en")[2] for lid in PADS for paper in PAPERS]


def locate(img: np.ndarray, squares: np.ndarray, source: str):
    """The QR code's text and corners (photo px) and the squares fitted with it (the index
    in `squares` for each mark, or None), found from the squares of any layout's marks
    first (register._locate does this for the Yuncos levels), else anywhere in the photo."""
    seen = None

    def fits(pages):
        tries = []
        for g, lid in pages:
            for H, idx in R._fit_marks(squares, g.marks, img.shape):
                tries.append((_shape_error(squares, idx, g.marks), len(tries), H, idx, g, lid))
        return sorted(tries, key=lambda t: (t[0], t[1]))

    # The fits closest to a layout's shape first: reading a code where a fit puts it is the
    # costly step. The Yuncos levels' close fits come first, their geometry at hand; the
    # pads' pages are composed only if need be (it takes a second); a Yuncos fit of a
    # looser shape (a sheet in steep perspective) comes last. Before the pads, those looser
    # fits are peeked at: a Yuncos level's code read there is the photo's (a pad's fit would
    # read that very code); any other waits its turn (register keeps what each fit read).
    yuncos = fits(zip((R._geometry(lid) for lid in R.LEVELS), R.LEVELS))
    close, loose = [t for t in yuncos if t[0] <= 0.02], [t for t in yuncos if t[0] > 0.02]
    for tries, peek in ((close, False), (loose, True), (None, False), (loose, False)):
        for _, _, H, idx, g, lid in (fits((g, g.layout_id) for g in candidates()) if tries is None else tries):
            found, there = R._read_code(img, H, lid, g)
            if found and (not peek or _is_level(found[0])):
                return found[0], found[1], idx
            if there and seen is None and not peek:
                seen = H
    found = R._find_qr(img)
    if found:
        return found[0], found[1], None
    if seen is not None:
        px = 297 * float(np.sqrt(abs(np.linalg.det(np.linalg.inv(seen)[:2, :2])))) * PX_PER_MM
        raise UserError(msg("error.photo.qr_unreadable", px=f"{px:.0f}"), source=source)
    raise UserError(msg("error.photo.no_qr"), source=source)


def _is_level(text: str) -> bool:
    """Whether a QR text names one of the Yuncos levels."""
    from sheetkit.checking import qr

    try:
        return qr.parse(text)[0] in R.LEVELS
    except UserError:
        return False


def _shape_error(squares, idx, marks) -> float:
    """How far the squares found for the marks (`idx`, None for one not found) are from the
    marks' shape under the affine map that fits them best, as a share of the marks' span;
    fewer squares than marks rank after all four."""
    pts = [(squares[i, :2], (x + s / 2, y + s / 2)) for i, (x, y, s) in zip(idx, marks) if i is not None]
    if len(pts) < len(marks):
        return 1.0 + (len(marks) - len(pts))
    P = np.array([p for p, _ in pts])
    B = np.column_stack([np.array([c for _, c in pts]), np.ones(len(pts))])
    A = np.linalg.lstsq(B, P, rcond=None)[0]
    span = float(np.ptp(P, axis=0).max()) or 1.0
    return float(np.abs(B @ A - P).max()) / span


def parse(text: str, source: str) -> tuple[str, int]:
    """The layout id and serial of a sheetkit QR text, refused in one line unless it names
    an installed layout of that very version."""
    from sheetkit import layouts
    from sheetkit.checking import qr

    try:
        layout_id, version, serial = qr.parse(text)
    except UserError:
        raise UserError(msg("error.photo.qr_not_sheetkit", text=repr(text[:40])), source=source) from None
    if layout_id not in PADS + R.LEVELS:
        raise UserError(msg("error.photo.qr_not_read", layout=layout_id, layouts=", ".join(R.LEVELS + PADS)),
                        source=source)
    installed = layouts.load(layout_id).version
    if installed != version:
        key = "error.photo.qr_version" if layout_id in R.LEVELS else "error.photo.qr_pad_version"
        raise UserError(msg(key, layout=layout_id, version=version, installed=installed), source=source)
    return layout_id, serial


def _marks_from_code(squares, corners, code_px, centres_px, side_px, source):
    """The registration squares looked for from the code outwards, when they were not
    fitted together: each the square of the expected size nearest where an affine fit to
    the code and the squares found so far puts it (nearest the code first)."""
    src, dst = [corners], [code_px]
    found: list = [None] * len(centres_px)
    order = np.argsort([np.hypot(*(c - code_px.mean(axis=0))) for c in centres_px])
    for i in order:
        A, _ = cv2.estimateAffine2D(np.concatenate(dst), np.concatenate(src), method=cv2.LMEDS)
        if A is None:
            continue
        guess = A @ np.append(centres_px[i], 1)
        side = float(np.hypot(*(A[:, :2] @ [side_px, 0])))
        dist = float(np.hypot(*(A[:, :2] @ (centres_px[i] - code_px.mean(axis=0)))))
        if len(squares):
            d = np.hypot(*(squares[:, :2] - guess).T)
            ok = (np.abs(squares[:, 2] / side - 1) < 0.45) & (d < max(side * 3, 0.08 * dist))
            if ok.any():
                k = int(np.argmin(np.where(ok, d, np.inf)))
                found[i] = squares[k, :2]
                src.append(found[i][None])
                dst.append(centres_px[i][None])
    missing = sum(1 for c in found if c is None)
    if missing > 2:
        raise UserError(msg("error.photo.squares_missing", missing=missing), source=source)
    return found


def _fit(corners, code_px, marks, centres_px):
    """The homography photo px -> blank px through the code's corners and the squares
    found, and how far (blank px, the worst point) it leaves them from where they fit."""
    src = np.concatenate([corners] + [m[None] for m in marks if m is not None])
    dst = np.concatenate([code_px] + [c[None] for c, m in zip(centres_px, marks) if m is not None])
    H, _ = cv2.findHomography(src, dst, 0)
    if H is None:
        return None, np.inf
    got = cv2.perspectiveTransform(src[None].astype(np.float64), H)[0]
    return H, float(np.abs(got - dst).max())


def register(path: str | Path, img: np.ndarray | None = None, located=None) -> PadRegistered:
    """The photo at `path` of a numbered score pad laid over its blank; UserError (one
    line) when it cannot be. `img`, `located`: the photo and locate()'s answer, if known."""
    source = str(path)
    if img is None:
        img = R.load_photo(path)
    squares = R._squares(img)
    text, corners, idx = located if located is not None else locate(img, squares, source)
    layout_id, serial = parse(text, source)
    if layout_id not in PADS:
        raise UserError(msg("error.photo.qr_not_read", layout=layout_id, layouts=", ".join(PADS)), source=source)
    h, w = img.shape
    best = None
    for paper in PAPERS:  # no blank is rendered yet: the page's geometry says where things are
        layout, _, geo = page(layout_id, paper, "en")
        qx, qy, qs = code_box(layout, geo.stamp)
        code_px = np.array([[qx, qy], [qx + qs, qy], [qx + qs, qy + qs], [qx, qy + qs]]) * PX_PER_MM
        centres_px = np.array([[x + s / 2, y + s / 2] for x, y, s in geo.marks]) * PX_PER_MM
        options = []
        if idx is not None and len(idx) == len(centres_px) and sum(i is not None for i in idx) >= 2:
            options.append([None if i is None else squares[i, :2] for i in idx])
        try:  # the squares fitted with the code may be another layout's reading of them
            options.append(_marks_from_code(squares, corners, code_px, centres_px, geo.marks[0][2] * PX_PER_MM,
                                            source))
        except UserError:
            if not options:
                raise
        for marks in options:
            H, err = _fit(corners, code_px, marks, centres_px)
            if H is None:
                continue
            # more squares fitted within 1.5 mm beat fewer: two squares and the code fit
            # any page's geometry well enough, four only the sheet's own
            rank = (-(sum(m is not None for m in marks)) if err < 1.5 * PX_PER_MM else 0, err)
            if best is None or rank < best[0]:
                best = (rank, paper, H, marks)
    if best is None or best[0][1] > 4 * PX_PER_MM:
        raise UserError(msg("error.photo.qr_plane"), source=source)
    _, paper, H, marks = best
    first = blank(layout_id, paper, "en", text)
    g = first.geometry
    photo, H = R.laid_over(img, H, first, source)
    x0, y0, x1, y1 = (int(v * PX_PER_MM) for v in (g.ox, g.oy, g.ox + g.content_w, g.oy + g.content_h))
    pick = None
    for lang in LANGS:  # the blank in the language the sheet was printed in matches best
        b = first if lang == "en" else blank(layout_id, paper, lang, text)
        res = float(np.abs(photo[y0:y1, x0:x1] - b.image[y0:y1, x0:x1]).mean())
        if pick is None or res < pick[0]:
            pick = (res, b)
    b = pick[1]
    sharp = R.sharpness(photo, b.image, (x0, y0, x1, y1))
    if sharp < 0.12:
        raise UserError(msg("error.photo.blurred", kept=f"{sharp:.0%}"), source=source)
    found = {"qr": [cv2.perspectiveTransform(corners[None], H)[0].tolist()],
             "marks": [None if c is None else cv2.perspectiveTransform(c[None, None], H)[0, 0].tolist()
                       for c in marks]}
    return PadRegistered(text, serial, b, photo, H, found, sharp, as_photographed(photo, b.image, (x0, y0, x1, y1)))


def as_photographed(photo: np.ndarray, blank_img: np.ndarray, box) -> np.ndarray:
    """The blank as the photo shows it: blurred as much as the photo is (the sigma that
    matches the photo best in `box`, px) and its grey levels mapped as the photo's are (a
    printed line photographed grey, not black), so that what is left when the blank is
    taken away is the pencil, not a halo around every printed line nor a shaded box."""
    x0, y0, x1, y1 = box
    p = photo[y0:y1:3, x0:x1:3].ravel()
    best = None
    for sigma in (0.0, 0.7, 1.2, 1.8, 2.6):
        b = cv2.GaussianBlur(blank_img, (0, 0), sigma) if sigma else blank_img
        q = b[y0:y1:3, x0:x1:3].ravel()
        A = np.column_stack([q, np.ones_like(q)])
        coef, *_ = np.linalg.lstsq(A, p, rcond=None)
        res = float(np.abs(A @ coef - p).mean())
        if best is None or res < best[0]:
            best = (res, b, coef)
    # its lighting evened out as the photo's is: a shaded box, wider than the evening's
    # reach, goes as light in both
    b = R._even_light(best[1])
    q = b[y0:y1:3, x0:x1:3].ravel()
    A = np.column_stack([q, np.ones_like(q)])
    (gain, offset), *_ = np.linalg.lstsq(A, p, rcond=None)
    return np.clip(b * gain + offset, 0, 1).astype(np.float32)
