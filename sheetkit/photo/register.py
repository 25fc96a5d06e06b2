"""Registration: lay a photo of a filled sheet exactly over the blank it was printed from.

The QR code names the layout, its version and the serial, so the blank page is rendered
again (sheetkit/paper/png.py) at PX_PER_MM. zxing-cpp finds the code and its corners: a
first homography from the photo to the blank. The sheet's four registration squares
(SheetGeometry.marks) are then looked for where that homography puts them; their centres
and the code's corners give the final homography. The photo, warped onto the blank and
with its lighting evened out, is what fields.py compares with the blank.

Sheet coordinates are those of the A4 page: the content block is the same on A4 and
Letter, only its place on the paper differs, and everything read lies inside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from sheetkit.errors import UserError
from sheetkit.photo import PX_PER_MM

LEVELS = ("yuncos-easy", "yuncos-hard")
MAX_PIXELS = 60_000_000  # a photo larger than this is not a phone photo


@dataclass
class Blank:
    layout: object  # layouts.Layout of the level
    geometry: object  # SheetGeometry on A4
    image: np.ndarray  # grey, float32, 1 = white, at PX_PER_MM
    lang: str
    qr: tuple  # (x, y, size) in mm: the code itself, without its quiet zone


@dataclass
class Registered:
    text: str  # the QR text
    serial: int
    blank: Blank
    photo: np.ndarray  # the photo warped onto the blank, grey float32, lighting evened
    homography: np.ndarray  # photo px -> blank px
    found: dict  # what was found where (for the debug image): qr corners, marks, residuals
    sharpness: float
    blank_image: np.ndarray  # the blank, its lighting evened out as the photo's is (the land's tint goes too)


def _px(mm: float) -> float:
    return mm * PX_PER_MM


def render(layout_id: str, serial: int, lang: str, px_per_mm: float = PX_PER_MM):
    """Copy `serial` of the level `layout_id` in `lang`, printed on A4, as a grey image
    (float32, 1 = white) at `px_per_mm`; its layout and its SheetGeometry."""
    from sheetkit import layouts
    from sheetkit.games.yuncos.compose import compose, sheet_geometry
    from sheetkit.paper import pads, png

    layout = layouts.load(layout_id)
    scene = compose(layout, "a4", lang)
    scene.lang = lang
    scene = pads.pad(scene, layout, 1, serial)
    img = png.page_image(scene, 0, dpi=px_per_mm * 25.4).convert("L")
    return np.asarray(img, dtype=np.float32) / 255.0, layout, sheet_geometry(layout.spec, "a4")


@lru_cache(maxsize=8)
def blank(layout_id: str, serial: int, lang: str) -> Blank:
    """The blank sheet `layout_id` copy `serial` in `lang` as printed on A4, rendered again."""
    from sheetkit.paper import pads, qr as qrmod

    img, layout, g = render(layout_id, serial, lang)
    x, y, size = g.stamp
    band = max(3.2, min(6.0, size * 0.16))
    q = size - band
    n = len(qrmod.matrix(pads.qr_text(layout, serial)))
    m = q / n
    code = (x + (size - q) / 2 + qrmod.QUIET_ZONE * m, y + qrmod.QUIET_ZONE * m, (n - 2 * qrmod.QUIET_ZONE) * m)
    return Blank(layout, g, img, lang, code)


def load_photo(path: str | Path) -> np.ndarray:
    """The photo as grey uint8; UserError if it is no image sheetkit can read."""
    p = Path(path)
    if not p.is_file():
        raise UserError("no such file", source=str(path))
    data = np.fromfile(str(p), dtype=np.uint8)
    if data.size == 0:
        raise UserError("the file is empty", source=str(path))
    try:
        import PIL.Image

        with PIL.Image.open(p) as im:  # the size first: a decompression bomb is refused unread
            if im.width * im.height > MAX_PIXELS:
                raise UserError(f"the image is {im.width}x{im.height} pixels: too large for a photo",
                                source=str(path))
    except UserError:
        raise
    except Exception:
        raise UserError("not an image (JPEG or PNG expected)", source=str(path)) from None
    img = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE)
    if img is None or min(img.shape) < 200:
        raise UserError("not an image sheetkit can read, or too small to read a sheet from",
                        source=str(path))
    return img


def _find_qr(img: np.ndarray, source: str):
    import zxingcpp

    found = []
    # as taken, then sharpened (an unsharp mask: a small code a little out of focus), then
    # smaller (a large photo of a sharp code)
    sharp = cv2.addWeighted(img, 1.8, cv2.GaussianBlur(img, (0, 0), 2), -0.8, 0)
    for scale, src in ((1.0, img), (1.0, sharp), (0.5, img), (0.25, img)):
        im = src if scale == 1.0 else cv2.resize(src, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        try:
            found = [r for r in zxingcpp.read_barcodes(im, formats=zxingcpp.BarcodeFormat.QRCode)
                     if r.valid and r.text]
        except Exception:
            found = []
        if found:
            r = found[0]
            p = r.position
            pts = np.array([[p.top_left.x, p.top_left.y], [p.top_right.x, p.top_right.y],
                            [p.bottom_right.x, p.bottom_right.y], [p.bottom_left.x, p.bottom_left.y]],
                           dtype=np.float64) / scale
            return r.text, pts
    raise UserError("no QR code found: sheetkit reads numbered sheets (sheetkit render --copies N) "
                    "photographed whole and sharp", source=source)


def _level(text: str, source: str):
    from sheetkit import layouts
    from sheetkit.paper import pads

    try:
        layout_id, version, serial = pads.parse(text)
    except UserError:
        raise UserError(f"the QR code ({text[:40]!r}) is not a sheetkit sheet's", source=source) from None
    if layout_id not in LEVELS:
        raise UserError(f"the QR code names layout {layout_id}; sheetkit read reads Yuncos sheets "
                        f"({', '.join(LEVELS)})", source=source)
    installed = layouts.load(layout_id).version
    if installed != version:
        raise UserError(f"the sheet was printed from {layout_id} version {version}, which is not installed "
                        f"(the installed one is {installed}): it cannot be laid over its blank", source=source)
    return layout_id, serial


def _mark_centre(img: np.ndarray, guess: np.ndarray, size_px: float, reach: float):
    """The centre of the filled square nearest `guess` in a window of the photo, or None."""
    r = int(max(12, size_px * reach))
    h, w = img.shape
    gx, gy = int(guess[0]), int(guess[1])
    if not (size_px < gx < w - size_px and size_px < gy < h - size_px):
        return None, "outside"
    x0, y0 = max(0, gx - r), max(0, gy - r)
    win = cv2.GaussianBlur(img[y0:min(h, gy + r), x0:min(w, gx + r)], (3, 3), 0)
    _, bw = cv2.threshold(win, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(bw)
    best = None
    area = size_px * size_px
    for k in range(1, n):
        a = stats[k, cv2.CC_STAT_AREA]
        if not 0.45 * area < a < 2.0 * area:
            continue
        ys, xs = np.nonzero(labels == k)
        (_, _), (rw, rh), _ = cv2.minAreaRect(np.column_stack([xs, ys]).astype(np.float32))
        # a filled square: it fills its rotated bounding box (a light's round bulb does not)
        if a / max(1.0, rw * rh) < 0.84 or not 0.7 < rw / max(1.0, rh) < 1.4:
            continue
        d = np.hypot(cents[k][0] + x0 - gx, cents[k][1] + y0 - gy)
        if best is None or d < best[0]:
            best = (d, cents[k])
    if best is None or best[0] > r * 0.9:
        return None, "missing"
    return np.array([x0 + best[1][0], y0 + best[1][1]]), "ok"


def _even_light(img: np.ndarray) -> np.ndarray:
    """Divide by the paper's own brightness (a wide closing), so shadows and a lamp's falloff
    go, and stretch: paper 1, the darkest print near 0."""
    small = cv2.resize(img, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    k = int(_px(4) / 4) | 1
    bg = cv2.morphologyEx(small, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    bg = cv2.resize(cv2.GaussianBlur(bg, (0, 0), _px(3) / 4), (img.shape[1], img.shape[0]),
                    interpolation=cv2.INTER_LINEAR)
    out = img / np.maximum(bg, 1e-3)
    lo = float(np.percentile(out, 0.5))
    return np.clip((out - lo) / max(1e-3, 1.0 - lo), 0, 1).astype(np.float32)


def _refine(photo: np.ndarray, blank_img: np.ndarray, H: np.ndarray, g) -> np.ndarray:
    S = np.diag([0.5, 0.5, 1.0])
    small = lambda im: cv2.GaussianBlur(cv2.resize(im, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA),  # noqa: E731
                                        (0, 0), 1.0)
    mask = np.zeros((blank_img.shape[0] // 2 + 1, blank_img.shape[1] // 2 + 1), np.uint8)
    x0, y0, x1, y1 = (int(v * PX_PER_MM / 2) for v in (g.ox, g.oy, g.ox + 188, g.oy + 258))
    mask[y0:y1, x0:x1] = 255
    t, p = small(blank_img), small(photo)
    mask = mask[:t.shape[0], :t.shape[1]]
    W = np.eye(3, dtype=np.float32)
    try:
        _, W = cv2.findTransformECC(t, p, W, cv2.MOTION_HOMOGRAPHY,
                                    (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 60, 1e-5), mask, 3)
    except cv2.error:
        return H  # no better alignment found: keep the squares' own
    W = np.linalg.inv(S) @ W.astype(np.float64) @ S
    return np.linalg.inv(W) @ H


def sharpness(img: np.ndarray, blank_img: np.ndarray, box) -> float:
    """How much of the blank's fine detail the photo keeps in `box` (px): 1 as sharp, 0 none."""
    x0, y0, x1, y1 = (int(v) for v in box)
    a = cv2.Laplacian(img[y0:y1, x0:x1], cv2.CV_32F)
    b = cv2.Laplacian(cv2.GaussianBlur(blank_img[y0:y1, x0:x1], (0, 0), 0.6), cv2.CV_32F)
    return float(np.abs(a).mean() / max(1e-6, np.abs(b).mean()))


def register(path: str | Path) -> Registered:
    """The photo at `path` laid over its blank; UserError (one line) when it cannot be."""
    source = str(path)
    img = load_photo(path)
    text, corners = _find_qr(img, source)
    layout_id, serial = _level(text, source)
    h, w = img.shape
    # The code's corners alone give a first homography; the squares (far from the code) then
    # fix the whole sheet. The language is the one whose blank matches best.
    first = blank(layout_id, serial, "en")
    qx, qy, qs = first.qr
    code_mm = np.array([[qx, qy], [qx + qs, qy], [qx + qs, qy + qs], [qx, qy + qs]], dtype=np.float64)
    code_px = code_mm * PX_PER_MM
    H0, _ = cv2.findHomography(corners, code_px)
    if H0 is None:
        raise UserError("the QR code's corners do not make a plane: photograph the sheet lying flat", source=source)
    src, dst = [corners], [code_px]
    marks = {}
    H = H0
    # nearest the code first: each square found makes the next guess better
    order = (3, 2, 0, 1)  # beside the crash track, under the fish, top left, top right
    for i in order:
        mx, my, ms = first.geometry.marks[i]
        c_mm = np.array([mx + ms / 2, my + ms / 2])
        # Guessed by an affine fit to what was found so far: a homography fitted to points
        # bunched on one side of the sheet swings wildly on the other.
        A, _ = cv2.estimateAffine2D(np.concatenate(dst), np.concatenate(src), method=cv2.LMEDS)
        if A is None:
            A = np.linalg.inv(H)[:2]
        guess = A @ np.append(c_mm * PX_PER_MM, 1)
        # the square's size in the photo, from the local scale of the fit
        edge = A @ np.append((c_mm + [ms, 0]) * PX_PER_MM, 1)
        size_px = float(np.hypot(*(edge - guess)))
        if not (0 <= guess[0] < w and 0 <= guess[1] < h):
            raise UserError("the sheet is cut off: photograph the whole sheet, its four black squares "
                            "and the QR code in the picture", source=source)
        centre, why = _mark_centre(img, guess, size_px, {3: 4.5, 2: 4.5, 0: 8.0, 1: 3.0}[i])
        if why == "outside":
            raise UserError("the sheet is cut off at an edge of the photo: photograph the whole sheet",
                            source=source)
        marks[i] = (guess, centre)
        if centre is not None:
            src.append(centre[None])
            dst.append((c_mm * PX_PER_MM)[None])
    marks = [marks[i] for i in range(4)]
    missing = sum(1 for _, c in marks if c is None)
    if missing > 1:
        raise UserError(f"{missing} of the sheet's 4 black registration squares were not found: photograph "
                        "the whole sheet, flat, sharp and evenly lit", source=source)
    H, _ = cv2.findHomography(np.concatenate(src), np.concatenate(dst), 0)
    bh, bw = first.image.shape
    grey = img.astype(np.float32) / 255.0
    warp = lambda H: cv2.warpPerspective(grey, H, (bw, bh), flags=cv2.INTER_LINEAR,  # noqa: E731
                                         borderMode=cv2.BORDER_CONSTANT, borderValue=1.0)
    photo = _even_light(warp(H))
    # The squares and the code fix the sheet to a millimetre or so; every printed line of
    # the blank then fixes it to a pixel (ECC on half-size images, in the content block).
    H = _refine(photo, first.image, H, first.geometry)
    photo = _even_light(warp(H))
    g = first.geometry
    content = (_px(g.ox), _px(g.oy), _px(g.ox + 188), _px(g.oy + 258))
    # a blank in the language the sheet was printed in: its printed text matches best
    best = None
    for lang in ("en", "es"):
        b = first if lang == "en" else blank(layout_id, serial, lang)
        x0, y0, x1, y1 = (int(v) for v in content)
        res = float(np.abs(photo[y0:y1, x0:x1] - b.image[y0:y1, x0:x1]).mean())
        if best is None or res < best[0]:
            best = (res, b)
    b = best[1]
    mx = _px(g.map_x), _px(g.map_y), _px(g.map_x + g.map_w), _px(g.map_y + g.map_h)
    sharp = sharpness(photo, b.image, mx)
    if sharp < 0.12:
        raise UserError(f"the photo is too blurred to read (it keeps {sharp:.0%} of the sheet's detail): "
                        "hold the phone still, focus, and photograph again", source=source)
    found = {"qr": [cv2.perspectiveTransform(corners[None], H)[0].tolist()],
             "marks": [None if c is None else cv2.perspectiveTransform(c[None, None], H)[0, 0].tolist()
                       for _, c in marks]}
    return Registered(text, serial, b, photo, H, found, sharp, _even_light(b.image))
