"""Registration: lay a photo of a filled sheet exactly over the blank it was printed from.

The QR code names the layout, its version and the serial, so the blank page is rendered
again (sheetkit/paper/png.py) at PX_PER_MM. A phone photo's code is small (2-3 px a
module at 1200x1600) and often blurred, so the sheet's four black registration squares
(SheetGeometry.marks) are found first: 3.6 mm of solid black survive blur and a low
resolution, in any turn of the photo. Where they put the code, that part of the photo is
cut out, rectified and upscaled, and read by zxing-cpp, or module by module through its
finder patterns, its blur undone if need be (_read_code). Only if that fails is the whole photo searched for a code,
and the squares then looked for from it outwards. The squares' centres and the code's
corners give the homography from the photo to the blank, which an ECC alignment on every
printed line refines to about a pixel. The photo, warped onto the blank and with its
lighting evened out, is what fields.py compares with the blank.

Sheet coordinates are those of the A4 page: the content block is the same on A4 and
Letter, only its place on the paper differs, and everything read lies inside it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from sheetkit.messages import msg
from sheetkit.errors import UserError
from sheetkit.photo import PX_PER_MM
from sheetkit.photo.digits import percentile  # numpy's, value for value, without importing numpy.ma

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
    from sheetkit.games.yuncos.compose import sheet_geometry
    from sheetkit.paper import pads, png
    from sheetkit.paper import scene as S

    layout, scene = _composed(layout_id, lang)
    scene = pads.pad(scene, layout, 1, serial)
    dpi = px_per_mm * 25.4
    # the copy is the sheet (a form, the same in every copy) and its stamp (the serial and
    # the code): the sheet is drawn once, each copy's stamp onto a copy of it
    if isinstance(scene.pages[0].items[0], S.Use):
        img = png.draw_onto(_unstamped(layout_id, lang, dpi).copy(), scene, 0, dpi, start=1)
    else:
        img = png.page_image(scene, 0, dpi)
    return np.asarray(img.convert("L"), dtype=np.float32) / 255.0, layout, sheet_geometry(layout.spec, "a4")


@lru_cache(maxsize=4)
def _composed(layout_id: str, lang: str):
    """(the layout, its sheet composed on A4 in `lang`)."""
    from sheetkit import layouts
    from sheetkit.games.yuncos.compose import compose

    layout = layouts.load(layout_id)
    scene = compose(layout, "a4", lang)
    scene.lang = lang
    return layout, scene


@lru_cache(maxsize=4)
def _unstamped(layout_id: str, lang: str, dpi: float):
    """A numbered copy's page drawn up to its stamp: the sheet, the same in every copy."""
    from sheetkit.paper import pads, png

    layout, scene = _composed(layout_id, lang)
    return png.page_image(pads.pad(scene, layout, 1, 1), 0, dpi, upto=1)


def forget_blanks() -> None:
    """Drop every blank drawn so far: the benches read each photo as a fresh command does."""
    for cached in (blank, _composed, _unstamped):
        cached.cache_clear()


@lru_cache(maxsize=8)
def blank(layout_id: str, serial: int, lang: str) -> Blank:
    """The blank sheet `layout_id` copy `serial` in `lang` as printed on A4, rendered again."""
    img, layout, g = render(layout_id, serial, lang)
    return Blank(layout, g, img, lang, _code_box(layout, g)[0])


def load_photo(path: str | Path) -> np.ndarray:
    """The photo as grey uint8; UserError if it is no image sheetkit can read."""
    p = Path(path)
    if not p.is_file():
        raise UserError(msg("error.file.missing"), source=str(path))
    data = np.fromfile(str(p), dtype=np.uint8)
    if data.size == 0:
        raise UserError(msg("error.photo.empty"), source=str(path))
    try:
        import PIL.Image

        with PIL.Image.open(p) as im:  # the size first: a decompression bomb is refused unread
            if im.width * im.height > MAX_PIXELS:
                raise UserError(msg("error.photo.too_large", width=im.width, height=im.height), source=str(path))
    except UserError:
        raise
    except Exception:
        raise UserError(msg("error.photo.not_image"), source=str(path)) from None
    global _last
    seen = _last
    if seen.data is not None and np.array_equal(data, seen.data):
        return seen.image  # the same bytes: the same photo
    img = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE)
    if img is None or min(img.shape) < 200:
        raise UserError(msg("error.photo.unreadable"), source=str(path))
    _last = _Seen(data, img)
    return img


class _Seen:
    """The last photo decoded and what was found in it, each once: `sheetkit read` first
    tells which sheet a photo shows (padread.identify), then reads it, and both find the
    squares and read the code in the same photo. A file of the very same bytes is the same
    photo. The image is read-only, so that what was found in it stays true."""

    def __init__(self, data: np.ndarray | None, image: np.ndarray | None):
        if image is not None:
            image.flags.writeable = False
        self.data, self.image = data, image
        self.found: dict = {}  # what -> what was found

    def once(self, img: np.ndarray, what, find):
        """find(), or what it gave for `what` in this very image before."""
        if img is not self.image:
            return find()
        if what not in self.found:
            self.found[what] = find()
        return self.found[what]


_last = _Seen(None, None)  # replaced whole, so that a thread sees one photo's or another's


def _zxing(im: np.ndarray, **options):
    """The first QR code zxing-cpp decodes in `im`, or None."""
    import zxingcpp

    try:
        found = [r for r in zxingcpp.read_barcodes(im, formats=zxingcpp.BarcodeFormat.QRCode, **options)
                 if r.valid and r.text]
    except Exception:
        return None
    if not found:
        return None
    p = found[0].position
    pts = np.array([[p.top_left.x, p.top_left.y], [p.top_right.x, p.top_right.y],
                    [p.bottom_right.x, p.bottom_right.y], [p.bottom_left.x, p.bottom_left.y]], dtype=np.float64)
    return found[0].text, pts


def _find_qr(img: np.ndarray):
    """The QR code found anywhere in the photo: (text, its corners in photo px), or None;
    searched for once per photo."""
    return _last.once(img, "anywhere", lambda: _find_qr_in(img))


def _find_qr_in(img: np.ndarray):
    """The QR code found anywhere in the photo: (text, its corners in photo px), or None."""
    # as taken, then sharpened (an unsharp mask: a small code a little out of focus), then
    # smaller (a large photo of a sharp code)
    sharp = cv2.addWeighted(img, 1.8, cv2.GaussianBlur(img, (0, 0), 2), -0.8, 0)
    for scale, src in ((1.0, img), (1.0, sharp), (0.5, img), (0.25, img)):
        im = src if scale == 1.0 else cv2.resize(src, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        found = _zxing(im)
        if found:
            return found[0], found[1] / scale
    return None


CROP_PX_PER_MM = 20.0  # the code cut out of the photo at 10 px a module
CROP_MARGIN = 5.0  # mm around the code's stamp: room for a first fit a few mm off


def _code_box(layout, g) -> tuple[tuple[float, float, float], int]:
    """Where the code itself lies on the sheet (x, y, size in mm, without its quiet zone),
    and its number of modules a side. Every copy's text has the same length, so the same."""
    from sheetkit.checking.qr import qr_text
    from sheetkit.paper import qr as qrmod

    x, y, size = g.stamp
    band = max(3.2, min(6.0, size * 0.16))
    q = size - band
    n = len(qrmod.matrix(qr_text(layout, 0)))
    m = q / n
    code = (x + (size - q) / 2 + qrmod.QUIET_ZONE * m, y + qrmod.QUIET_ZONE * m, (n - 2 * qrmod.QUIET_ZONE) * m)
    return code, n - 2 * qrmod.QUIET_ZONE


@lru_cache(maxsize=4)
def _known_modules(layout_id: str) -> tuple[np.ndarray, np.ndarray]:
    """The modules that are the same in every copy's code (finder, timing and alignment
    patterns, and the format information: sheetkit prints every code at level M with one
    mask): (which, their values, True dark), the quiet zone left out."""
    from sheetkit import layouts
    from sheetkit.checking.qr import qr_text
    from sheetkit.paper import qr as qrmod

    ref = np.array(qrmod.matrix(qr_text(layouts.load(layout_id), 0)), dtype=bool)
    ref = ref[qrmod.QUIET_ZONE:-qrmod.QUIET_ZONE, qrmod.QUIET_ZONE:-qrmod.QUIET_ZONE]
    n = len(ref)
    known = np.zeros((n, n), bool)
    known[:9, :9] = known[:9, -8:] = known[-8:, :9] = True  # finders, separators, format information
    known[6, :] = known[:, 6] = True  # timing
    if 25 <= n <= 41:  # versions 2-6: one alignment pattern
        known[n - 9:n - 4, n - 9:n - 4] = True
    return known, ref


def _finder_template(module: float, sigma: float) -> np.ndarray:
    m = np.ones((9, 9), np.float32)  # a finder pattern with a module of white around it
    m[1:8, 1:8] = 0
    m[2:7, 2:7] = 1
    m[3:6, 3:6] = 0
    t = cv2.resize(m, None, fx=module, fy=module, interpolation=cv2.INTER_NEAREST)
    return cv2.GaussianBlur(t, (0, 0), sigma) if sigma > 0.3 else t


def _peak(m: np.ndarray, loc) -> tuple[float, float]:
    """The maximum of the match `m` at `loc`, to a fraction of a pixel (a parabola each way)."""
    px, py = loc
    out = []
    for a, b, c, ok in ((m[py, px - 1] if px > 0 else 0, m[py, px], m[py, px + 1] if px < m.shape[1] - 1 else 0,
                         0 < px < m.shape[1] - 1),
                        (m[py - 1, px] if py > 0 else 0, m[py, px], m[py + 1, px] if py < m.shape[0] - 1 else 0,
                         0 < py < m.shape[0] - 1)):
        d = a - 2 * b + c
        out.append(0.5 * (a - c) / d if ok and abs(d) > 1e-9 else 0.0)
    return px + out[0], py + out[1]


def _finders(f: np.ndarray, code, n: int):
    """The centres of the code's three finder patterns in the rectified crop `f` (0-1),
    where `code` (x, y, size in crop px) says it should be, matched against templates
    blurred as the photo may be; None unless all three are there, as far apart as a code of
    `n` modules has them: then the code is where the squares said."""
    x0, y0, size = code
    module = size / n
    best = None
    for sigma in (0.0, 0.3 * module, 0.6 * module):  # the photo's blur, unknown: the best match
        t = _finder_template(module, sigma)
        half = t.shape[0] / 2
        centres, worst = [], 1.0
        for mx, my in ((3.5, 3.5), (n - 3.5, 3.5), (3.5, n - 3.5)):
            cx, cy = x0 + mx * module, y0 + my * module
            r = int(6 * module + half)  # 3 mm each way: a fit from three squares is that far off
            X0, Y0 = max(0, int(cx - r)), max(0, int(cy - r))
            win = f[Y0:int(cy + r), X0:int(cx + r)]
            if win.shape[0] <= t.shape[0] or win.shape[1] <= t.shape[1]:
                return None
            m = cv2.matchTemplate(win, t, cv2.TM_CCOEFF_NORMED)
            _, v, _, loc = cv2.minMaxLoc(m)
            px, py = _peak(m, loc)
            centres.append((X0 + px + half - 0.5, Y0 + py + half - 0.5))
            worst = min(worst, v)
        if best is None or worst > best[0]:
            best = (worst, np.array(centres))
    worst, (a, b, c) = best
    span = (n - 7) * module
    if worst < 0.6 or abs(np.hypot(*(b - a)) - span) > module or abs(np.hypot(*(c - a)) - span) > module:
        return None
    return best[1]


def _clean_codes(f: np.ndarray, centres: np.ndarray, n: int, layout_id: str):
    """A code too blurred for zxing-cpp as photographed, read module by module: the module
    grid laid through its finder patterns' `centres`, each module's value sampled after
    sharpening at several strengths and cut at several thresholds, the modules every copy
    shares set to what they are. Yields (a clean code image, module -> crop px, affine)."""
    A = cv2.getAffineTransform(np.float32([[3.5, 3.5], [n - 3.5, 3.5], [3.5, n - 3.5]]), np.float32(centres))
    module = float(np.hypot(*A[:, 0]))
    jj, ii = np.mgrid[0:n, 0:n].astype(np.float32) + 0.5
    mapx = (A[0, 0] * ii + A[0, 1] * jj + A[0, 2]).astype(np.float32)
    mapy = (A[1, 0] * ii + A[1, 1] * jj + A[1, 2]).astype(np.float32)
    known, ref = _known_modules(layout_id)
    for amount in (2.5, 4.0, 6.0):
        sharp = cv2.addWeighted(f, 1 + amount, cv2.GaussianBlur(f, (0, 0), 0.6 * module), -amount, 0)
        vals = cv2.remap(sharp, mapx, mapy, cv2.INTER_LINEAR)
        v8 = np.clip(vals * 255, 0, 255).astype(np.uint8)
        otsu = cv2.threshold(v8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0] / 255.0
        for k in (1.0, 0.9, 1.1):
            dark = vals < otsu * k
            dark[known] = ref[known]
            img = np.pad(np.where(dark, 0, 255).astype(np.uint8), 4, constant_values=255)
            yield cv2.resize(img, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST), A


DEBLUR_SIGMAS = (0.4, 0.5, 0.6, 0.7, 0.8, 0.9)  # the photo's blur tried, in modules
DEBLUR_RING = 2  # modules of quiet zone solved for too: blur carries the code's edge into them
DEBLUR_SAMPLES = 2  # samples a module each way: as many as a small photo has, or more


def _module_blur(n: int, sigma: float) -> np.ndarray:
    """How dark each of `n` modules in a row makes each of the samples along it, under a
    Gaussian blur of `sigma` modules: (samples, modules), a module's box integrated."""
    from math import erf

    u = (np.arange(n * DEBLUR_SAMPLES) + 0.5) / DEBLUR_SAMPLES
    edge = np.arange(n + 1)[None, :] - u[:, None]
    cdf = 0.5 * np.vectorize(erf)(edge / (sigma * np.sqrt(2)))
    return cdf[:, 1:] - cdf[:, :-1]


def _deblurred(darkness: np.ndarray, blur: np.ndarray, fixed: np.ndarray, value: np.ndarray):
    """The modules' darkness (1 dark) that best explains the sampled `darkness` of the
    photo blurred by `blur` (_module_blur, the same across and down), by least squares:
    the `fixed` modules are `value` times one contrast, the paper's level is a plane, the
    other modules free (a little ridge keeps them from ringing). Solved by conjugate
    gradients on the blur itself (small products: a solver on the full matrix is slow
    where the cores are shared). Returns (the mean square left unexplained, the darkness
    of every module, the fixed ones at their value)."""
    S, N = darkness.shape[0], len(fixed)
    free = ~fixed
    F = int(free.sum())
    pattern = np.where(fixed, value, 0.0)
    ys, xs = np.mgrid[0:S, 0:S] / S
    paper = np.stack([np.ones((S, S)), xs, ys])
    q = (blur ** 2).sum(axis=0)
    ridge = 1e-3 * q.mean() ** 2

    def forward(x):
        Z = pattern * x[F]
        Z[free] += x[:F]
        return blur @ Z @ blur.T + np.tensordot(x[F + 1:], paper, 1)

    def back(y):
        Y = blur.T @ y @ blur
        return np.concatenate([Y[free], [(Y * pattern).sum()], (paper * y).sum(axis=(1, 2))])

    def normal(x):
        out = back(forward(x))
        out[:F] += ridge * x[:F]
        return out

    unit = np.zeros(F + 4)
    unit[F] = 1.0  # the contrast alone
    scale = np.concatenate([np.outer(q, q)[free] + ridge, [(forward(unit) ** 2).sum()], (paper ** 2).sum(axis=(1, 2))])
    b = back(darkness)
    x = np.zeros(F + 4)
    r = b.copy()
    z = r / scale
    p = z.copy()
    rz = r @ z
    for _ in range(200):
        if r @ r <= 1e-12 * (b @ b):
            break
        Mp = normal(p)
        a = rz / (p @ Mp)
        x = x + a * p
        r = r - a * Mp
        z = r / scale
        rz, rz0 = r @ z, rz
        p = z + rz / rz0 * p
    contrast = x[F]
    modules = pattern.copy()
    modules[free] = x[:F] / contrast if abs(contrast) > 1e-9 else 0.5
    return float(((forward(x) - darkness) ** 2).mean()), modules


def _deblurred_codes(f: np.ndarray, centres: np.ndarray, n: int, layout_id: str):
    """A code too blurred to read module by module as sampled (blur spreads each module
    over its neighbours), its blur undone: the modules found by least squares against the
    photo blurred as it is (_deblurred), the blur the one that explains it best; then the
    surest modules are fixed in turn and the rest solved again, each round's sure ones
    making the next's neighbours clearer. Yields (a clean code image, module -> crop px,
    affine), as _clean_codes."""
    A = cv2.getAffineTransform(np.float32([[3.5, 3.5], [n - 3.5, 3.5], [3.5, n - 3.5]]), np.float32(centres))
    N = n + 2 * DEBLUR_RING
    t = (np.arange(N * DEBLUR_SAMPLES) + 0.5) / DEBLUR_SAMPLES - DEBLUR_RING
    ii, jj = np.meshgrid(t, t)
    mapx = (A[0, 0] * ii + A[0, 1] * jj + A[0, 2]).astype(np.float32)
    mapy = (A[1, 0] * ii + A[1, 1] * jj + A[1, 2]).astype(np.float32)
    darkness = 1.0 - cv2.remap(f, mapx, mapy, cv2.INTER_LINEAR).astype(np.float64)
    known, ref = _known_modules(layout_id)
    inner = (slice(DEBLUR_RING, -DEBLUR_RING),) * 2
    fixed, value = np.zeros((N, N), bool), np.zeros((N, N))
    in_code = np.zeros((N, N), bool)
    in_code[inner] = True
    fixed[inner], value[inner] = known, ref
    blurs = {s: _module_blur(N, s) for s in DEBLUR_SIGMAS}
    fits = sorted((_deblurred(darkness, blurs[s], fixed, value)[0], s) for s in DEBLUR_SIGMAS)
    for _, sigma in fits[:3]:  # the likeliest blurs
        now_fixed, now_value = fixed.copy(), value.copy()
        for _ in range(4):
            z = _deblurred(darkness, blurs[sigma], now_fixed, now_value)[1]
            open_ = in_code & ~now_fixed  # the quiet zone's modules stay free
            sure = np.argsort(-np.where(open_, np.abs(z - 0.5), -1).ravel())[:int(open_.sum() * 0.4)]
            now_fixed.ravel()[sure] = True
            now_value.ravel()[sure] = z.ravel()[sure] > 0.5
        z = _deblurred(darkness, blurs[sigma], now_fixed, now_value)[1]
        dark = np.where(now_fixed, now_value > 0.5, z > 0.5)[inner]
        img = np.pad(np.where(dark, 0, 255).astype(np.uint8), 4, constant_values=255)
        yield cv2.resize(img, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST), A


def _read_code(img: np.ndarray, H: np.ndarray, layout_id: str, g=None):
    """_read_code_at, once per photo, homography and sheet."""
    # a level's own geometry said or not, the same sheet (the key holds any other alive)
    same = g is None or (layout_id in LEVELS and g is _geometry(layout_id))
    key = ("code", H.tobytes(), layout_id, None if same else g)
    return _last.once(img, key, lambda: _read_code_at(img, H, layout_id, g))


def _read_code_at(img: np.ndarray, H: np.ndarray, layout_id: str, g=None):
    """The QR code read from the photo where the homography `H` (photo px -> blank px) puts
    the code of a `layout_id` sheet: that part of the photo is cut out, rectified and
    upscaled (a code 2 px a module becomes one of 10 px); if its finder patterns are there,
    it is read as it is, sharpened, module by module (_clean_codes), and with the photo's
    blur undone (_deblurred_codes: a small code blurred over its modules). Returns (text and
    the code's corners in photo px, or None; whether the code was there at all). `g`: where
    the sheet's stamp square is (its `stamp`), by default the Yuncos level's geometry; any
    numbered sheet's page will do (sheetkit.photo.padregister)."""
    from sheetkit import layouts

    g = _geometry(layout_id) if g is None else g
    x, y, size = g.stamp
    x0, y0 = x - CROP_MARGIN, y - CROP_MARGIN
    n = int((size + 2 * CROP_MARGIN) * CROP_PX_PER_MM)
    # crop px -> blank px -> photo px
    C = np.array([[PX_PER_MM / CROP_PX_PER_MM, 0, x0 * PX_PER_MM],
                  [0, PX_PER_MM / CROP_PX_PER_MM, y0 * PX_PER_MM], [0, 0, 1]])
    T = np.linalg.inv(H) @ C
    crop = cv2.warpPerspective(img, T, (n, n), flags=cv2.INTER_CUBIC | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)
    crop = cv2.normalize(crop, None, 0, 255, cv2.NORM_MINMAX)
    f = crop.astype(np.float32) / 255.0
    (cx, cy, cs), modules = _code_box(layouts.load(layout_id), g)
    code = ((cx - x0) * CROP_PX_PER_MM, (cy - y0) * CROP_PX_PER_MM, cs * CROP_PX_PER_MM)
    centres = _finders(f, code, modules)
    if centres is None:
        return None, False
    for im in (crop, cv2.addWeighted(crop, 2.0, cv2.GaussianBlur(crop, (0, 0), 4), -1.0, 0)):
        found = _zxing(im, try_rotate=False, try_invert=False)
        if found:
            return (found[0], cv2.perspectiveTransform(found[1][None], T)[0]), True
    for clean, A in itertools.chain(_clean_codes(f, centres, modules, layout_id),
                                    _deblurred_codes(f, centres, modules, layout_id)):
        found = _zxing(clean, try_rotate=False, try_invert=False, try_downscale=False, is_pure=True)
        if found:
            corners = np.array([[0, 0], [modules, 0], [modules, modules], [0, modules]], np.float64)
            corners = corners @ A[:, :2].T + A[:, 2]
            return (found[0], cv2.perspectiveTransform(corners[None], T)[0]), True
    return None, True


def _level(text: str, source: str):
    from sheetkit import layouts
    from sheetkit.checking import qr

    try:
        layout_id, version, serial = qr.parse(text)
    except UserError:
        raise UserError(msg("error.photo.qr_not_sheetkit", text=repr(text[:40])), source=source) from None
    if layout_id not in LEVELS:
        raise UserError(msg("error.photo.qr_not_yuncos", layout=layout_id, levels=", ".join(LEVELS)), source=source)
    installed = layouts.load(layout_id).version
    if installed != version:
        raise UserError(msg("error.photo.qr_version", layout=layout_id, version=version, installed=installed),
                        source=source)
    return layout_id, serial


WORK_PX = 2000  # the squares are looked for in the photo shrunk to this long side at most


def _squares(img: np.ndarray) -> np.ndarray:
    """_squares_in, once per photo."""
    return _last.once(img, "squares", lambda: _squares_in(img))


SQUASH = 2.0  # how oblong a registration square may show: a steep photo shears the far ones to 5:3
AFFINE_LEFT = 0.08  # what an affine fit may leave of four squares, in page lengths: a 34-degree tilt from 27 cm left 0.063


def _squares_in(img: np.ndarray) -> np.ndarray:
    """Every isolated filled dark square in the photo, as rows (x, y, side) in photo px.

    The sheet's registration squares are among the largest: 3.6 mm of solid black with
    white around them, which blur and a low resolution leave whole. The lighting is divided
    out first (a closing wider than any square), so a dark photo or a shadow does not
    matter; what is darker than half the paper around it is ink."""
    h, w = img.shape
    s = min(1.0, WORK_PX / max(h, w))
    im = cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA) if s < 1 else img
    small = cv2.resize(im, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA).astype(np.float32)
    k = max(3, int(max(im.shape) / 100)) | 1
    bg = cv2.morphologyEx(small, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    bg = cv2.resize(bg, (im.shape[1], im.shape[0]), interpolation=cv2.INTER_LINEAR)
    # im < 0.55 * max(bg, 1) in float32, as the photo in float32 compares: in place, and
    # the answer's bytes (0, 1) taken as they are
    bg = np.multiply(np.maximum(bg, 1.0, out=bg), 0.55, out=bg)
    ink = np.less(im, bg).view(np.uint8)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(ink, connectivity=8)
    out = []
    H, W = ink.shape
    x, y, ww, hh, a = stats.T
    # a square turned by any angle fills at least half its upright bounding box
    maybe = (a >= 12) & (a >= 0.45 * ww * hh) & (ww < SQUASH * hh) & (hh < SQUASH * ww) & (np.maximum(ww, hh) < max(H, W) / 15)
    maybe[0] = False  # the background
    maybe = np.flatnonzero(maybe)
    for i in maybe[np.argsort(-a[maybe])][:2000]:  # the largest: a photo of noise has many specks
        x, y, ww, hh, a = stats[i]
        ys, xs = np.nonzero(labels[y:y + hh, x:x + ww] == i)
        (_, _), (rw, rh), _ = cv2.minAreaRect(np.column_stack([xs, ys]).astype(np.float32))
        # filled and square: it fills its turned bounding box (a light's round bulb does
        # not); a steep, close photo shows a square as an oblong, sheared to 5:3 and more
        # far from the lens
        if a / max(1.0, (rw + 1) * (rh + 1)) < 0.72 or not 1 / SQUASH < rw / max(1.0, rh) < SQUASH:
            continue
        side = float(np.sqrt(a))
        # nothing printed close around it (0.7 mm of paper, where blur leaves it white)
        r0, r1 = int(side * 0.12) + 1, int(side * 0.25) + 2
        X0, Y0, X1, Y1 = x - r1, y - r1, x + ww + r1, y + hh + r1
        if X0 < 0 or Y0 < 0 or X1 > W or Y1 > H:
            continue
        ring = ink[Y0:Y1, X0:X1].copy()
        ring[r1 - r0:r1 + hh + r0, r1 - r0:r1 + ww + r0] = 0
        if ring.mean() > 0.05:
            continue
        out.append((cents[i][0] / s, cents[i][1] / s, side / s))
    return np.array(out, dtype=np.float64).reshape(-1, 3)


def _side_spread(H: np.ndarray, squares: np.ndarray, side_px: float) -> float:
    """How unequally the `squares` (x, y, side in photo px) match the side the homography
    `H` (photo px -> blank px) gives a mark of `side_px` where each lies: the largest ratio
    of measured to expected side over the smallest, less 1 (blur grows all alike)."""
    inv = np.linalg.inv(H)
    ratios = []
    for x, y, side in squares:
        p = H @ [x, y, 1.0]
        p = p[:2] / p[2]  # the square's centre on the blank
        w = inv[2] @ [p[0], p[1], 1.0]
        q = inv[:2] @ [p[0], p[1], 1.0] / w
        J = (inv[:2, :2] - np.outer(q, inv[2, :2])) / w  # blank px -> photo px, there
        ratios.append(side / (side_px * np.sqrt(abs(np.linalg.det(J)))))
    return max(ratios) / max(1e-9, min(ratios)) - 1.0


def _fit_marks(squares: np.ndarray, marks, shape) -> list[tuple[np.ndarray, list]]:
    """Where `squares` may be the sheet's registration squares `marks` (x, y, size in mm),
    the likeliest first: (the homography photo px -> blank px, the index of the square for
    each mark, None for one not found). Four squares must form the marks' shape up to a
    moderate perspective (an affine fit leaves little), the likeliest those whose sides are
    each what the homography through them says (at a steep tilt the far ones are smaller,
    and other squares may fit an affine map better); any three fit an affine map and
    any two a turn and a scale, so fewer count only when four (or three) do not: a square
    hidden or cut off. The squares keep the page's handedness (a photo is not a mirror),
    have the size the fit predicts for them, and make a page no larger than the photo (of
    `shape`); the caller then looks for the QR code where each puts it, and that decides."""
    from itertools import combinations, permutations

    centres = np.array([[x + m / 2, y + m / 2] for x, y, m in marks])
    side_mm = marks[0][2]
    top = np.argsort(-squares[:, 2])[:8]  # the marks are among the largest squares
    out = []
    for k in (4, 3, 2):
        if len(top) < k:
            continue
        tries = np.array([p for c in combinations(top, k) for p in permutations(c)], dtype=int)
        P = squares[tries, :2]  # (tries, k, x y)
        for which in combinations(range(4), k):
            B = np.column_stack([centres[list(which)], np.ones(k)])
            if k > 2:
                A = np.linalg.pinv(B) @ P  # blank mm -> photo px, the affine that fits best
            else:  # two squares: a turn, a scale and a shift (as complex numbers: p = s c + t)
                c0, c1 = (complex(*centres[i]) for i in which)
                p0, p1 = P[:, 0, 0] + 1j * P[:, 0, 1], P[:, 1, 0] + 1j * P[:, 1, 1]
                sc = (p1 - p0) / (c1 - c0)
                t = p0 - sc * c0
                A = np.stack([np.stack([sc.real, sc.imag], 1), np.stack([-sc.imag, sc.real], 1),
                              np.stack([t.real, t.imag], 1)], 1)
            det = A[:, 0, 0] * A[:, 1, 1] - A[:, 0, 1] * A[:, 1, 0]
            scale = np.sqrt(np.maximum(det, 1e-9))  # photo px per mm
            err = np.sqrt(((B @ A - P) ** 2).sum(axis=2).max(axis=1)) / (scale * 185.0)
            size = np.abs(squares[tries, 2] / (scale[:, None] * side_mm) - 1).max(axis=1)
            ok = (det > 0) & (err < AFFINE_LEFT) & (size < (0.5 if k == 4 else 0.3)) & (scale * 210 < max(shape))
            # fewer than four: the largest squares first (the marks are the largest)
            rank = err + 0.05 * size if k == 4 else size - squares[tries, 2].min(axis=1) / squares[top[0], 2]
            best = np.flatnonzero(ok)[np.argsort(rank[ok])]
            if k == 4:
                # At a steep tilt the affine fit leaves much, and another four squares may
                # leave less: the homography through the four then says how large each must
                # be (the far ones smaller), which only the sheet's own squares all are.
                best = best[:30]
                homographies = {t: cv2.getPerspectiveTransform(squares[tries[t], :2].astype(np.float32),
                                                               (centres * PX_PER_MM).astype(np.float32)) for t in best}
                rank = rank.copy()
                for t in best:
                    rank[t] = _side_spread(homographies[t], squares[tries[t]], side_mm * PX_PER_MM) + 0.1 * err[t]
                best = best[np.argsort(rank[best])]
            for t in best[:3 if k == 4 else 6]:
                idx = [None] * 4
                for mark, sq in zip(which, tries[t]):
                    idx[mark] = int(sq)
                if k == 4:
                    H = homographies[t]
                else:
                    H = np.vstack([cv2.invertAffineTransform(A[t].T), [0, 0, 1]])
                    H = np.diag([PX_PER_MM, PX_PER_MM, 1.0]) @ H
                out.append((k, float(rank[t]), H.astype(np.float64), idx))
        if out and k == 4:
            break
    out.sort(key=lambda o: (-o[0], o[1]))
    # the best few of four, or else of three and of two
    return [(H, idx) for k, _, H, idx in out if k == 4][:3] or \
        [(H, idx) for k, _, H, idx in out if k == 3][:6] + [(H, idx) for k, _, H, idx in out if k == 2][:6]


def _even_light(img: np.ndarray) -> np.ndarray:
    """Divide by the paper's own brightness (a wide closing), so shadows and a lamp's falloff
    go, and stretch: paper 1, the darkest print near 0."""
    small = cv2.resize(img, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    k = int(_px(4) / 4) | 1
    bg = cv2.morphologyEx(small, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    bg = cv2.resize(cv2.GaussianBlur(bg, (0, 0), _px(3) / 4), (img.shape[1], img.shape[0]),
                    interpolation=cv2.INTER_LINEAR)
    out = img / np.maximum(bg, 1e-3, out=bg)
    lo = float(percentile(out, 0.5))
    # in place, the same float32 operations as out = clip((out - lo) / (1 - lo), 0, 1)
    out -= lo
    out /= max(1e-3, 1.0 - lo)
    return np.clip(out, 0, 1, out=out).astype(np.float32, copy=False)


def _refine(photo: np.ndarray, blank_img: np.ndarray, H: np.ndarray, g) -> np.ndarray:
    """H refined by ECC on every printed line of the content block: coarse to fine, first at
    a quarter of the blank's scale (most of the way, cheaply), then a few steps at half
    (steps after the fourth moved the sheet by nothing measured: `bench/bench_photo.py
    --only-register`)."""
    x0, y0, x1, y1 = (v * PX_PER_MM for v in (g.ox, g.oy, g.ox + g.content_w, g.oy + g.content_h))
    W = np.eye(3, dtype=np.float64)
    for scale, steps, eps in ((0.25, 50, 1e-4), (0.5, 4, 1e-5)):
        S = np.diag([scale, scale, 1.0])
        small = lambda im: cv2.GaussianBlur(cv2.resize(im, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA),  # noqa: E731
                                            (0, 0), 1.0)
        t, p = small(blank_img), small(photo)
        block = (slice(int(y0 * scale), int(y1 * scale)), slice(int(x0 * scale), int(x1 * scale)))
        Ws = _ecc(t, p, S @ W @ np.linalg.inv(S), block, steps, eps)
        if Ws is None:
            if scale == 0.25:
                return H  # no better alignment found: keep the squares' own
            break
        W = np.linalg.inv(S) @ Ws @ S
    return np.linalg.inv(W) @ H


PRINT_EDGE = 0.05  # the blank's grey changes by more than this a pixel at the print's edges
ECC_POINTS = 40_000  # of those, at most this many: eight unknowns, a sheet of print to fix them


def _ecc(template: np.ndarray, image: np.ndarray, W: np.ndarray, block, steps: int, eps: float):
    """The homography W (template px -> image px) refined so that the image, warped by it,
    correlates best with the template in `block` (its rows and columns): the enhanced
    correlation coefficient's steps (Evangelidis and Psarakis, 2008, as OpenCV's
    findTransformECC takes them), over only the points where the template's print changes
    (at most ECC_POINTS). Blank paper moves no step: OpenCV's, over every pixel, cost 28 ms
    a step at half scale, these about 8. None where it cannot go on (the images uncorrelated
    there)."""
    # central differences, as numpy.gradient's, faster
    grad = lambda im, dx, dy: cv2.Sobel(im, cv2.CV_32F, dx, dy, ksize=1, scale=0.5)  # noqa: E731
    ys, xs = np.nonzero((np.abs(grad(template[block], 1, 0)) + np.abs(grad(template[block], 0, 1))) > PRINT_EDGE)
    if len(xs) < 100:
        return None
    every = -(-len(xs) // ECC_POINTS)  # evenly spread, the same points every time
    ys, xs = ys[::every] + block[0].start, xs[::every] + block[1].start
    t = template[ys, xs].astype(np.float64)
    xs, ys = xs.astype(np.float64), ys.astype(np.float64)
    igx, igy = grad(image, 1, 0), grad(image, 0, 1)
    h, w = image.shape
    W = W.astype(np.float64).copy()
    last = None
    for _ in range(steps):
        d = W[2, 0] * xs + W[2, 1] * ys + 1.0
        u = (W[0, 0] * xs + W[0, 1] * ys + W[0, 2]) / d
        v = (W[1, 0] * xs + W[1, 1] * ys + W[1, 2]) / d
        inside = (u >= 0) & (u <= w - 1) & (v >= 0) & (v <= h - 1)
        if inside.sum() < 100:
            return None
        # remap takes maps under 32767 a side: the points in rows of 1024
        mx, my = (np.resize(a.astype(np.float32), (-(-len(a) // 1024), 1024)) for a in (u, v))
        at = lambda im: cv2.remap(im, mx, my, cv2.INTER_LINEAR).ravel()[:len(u)][inside].astype(np.float64)  # noqa: E731
        i, ix, iy = at(image), at(igx), at(igy)
        x, y, dd, uu, vv, tt = xs[inside], ys[inside], d[inside], u[inside], v[inside], t[inside]
        i -= i.mean()
        tt -= tt.mean()
        # the image's change with each of the homography's eight entries, row by row
        r = -(ix * uu + iy * vv)
        J = np.stack([ix * x, ix * y, ix, iy * x, iy * y, iy, r * x, r * y], axis=1) / dd[:, None]
        # sums over the points by einsum and numpy's own pairwise sums, not BLAS: the same to
        # the last bit however many threads BLAS runs (its dot products split the sums)
        G = np.einsum("ni,nj->ij", J, J)
        try:
            G_inv = np.linalg.inv(G)
        except np.linalg.LinAlgError:
            return None
        i_proj, t_proj = np.einsum("ni,n->i", J, i), np.einsum("ni,n->i", J, tt)
        i_proj_g = G_inv @ i_proj
        corr, i_sq = float(np.sum(i * tt)), float(np.sum(i * i))
        rho = corr / max(np.sqrt(i_sq * float(np.sum(tt * tt))), 1e-12)
        lam_d = corr - float(t_proj @ i_proj_g)
        if lam_d <= 0:
            return None
        lam = (i_sq - float(i_proj @ i_proj_g)) / lam_d
        W.flat[:8] += G_inv @ np.einsum("ni,n->i", J, lam * tt - i)
        if not np.isfinite(W).all():
            return None  # a step off to nowhere (the print and the photo all but unrelated)
        if last is not None and abs(rho - last) < eps:
            break  # as OpenCV's: the step that moved the correlation by less than eps is the last
        last = rho
    return W


def sharpness(img: np.ndarray, blank_img: np.ndarray, box) -> float:
    """How much of the blank's fine detail the photo keeps in `box` (px): 1 as sharp, 0 none."""
    x0, y0, x1, y1 = (int(v) for v in box)
    a = cv2.Laplacian(img[y0:y1, x0:x1], cv2.CV_32F)
    b = cv2.Laplacian(cv2.GaussianBlur(blank_img[y0:y1, x0:x1], (0, 0), 0.6), cv2.CV_32F)
    return float(np.abs(a).mean() / max(1e-6, np.abs(b).mean()))


def _marks_from_code(squares, corners, code_px, centres_mm, side_mm, size, source):
    """The registration squares looked for from the QR code outwards (when the four were not
    found together: one hidden, or other squares about): for each, the square of the
    expected size nearest where the code and the squares found so far put it, or None."""
    w, h = size
    src, dst = [corners], [code_px]
    found = [None] * 4
    cut = 0
    for i in (3, 2, 0, 1):  # nearest the code first: each square found makes the next guess better
        c_px = centres_mm[i] * PX_PER_MM
        # Guessed by an affine fit to what was found so far: a homography fitted to points
        # bunched on one side of the sheet swings wildly on the other.
        A, _ = cv2.estimateAffine2D(np.concatenate(dst), np.concatenate(src), method=cv2.LMEDS)
        if A is None:
            A = cv2.estimateAffine2D(code_px, corners)[0]
        guess = A @ np.append(c_px, 1)
        side = float(np.hypot(*(A @ np.append(c_px + [side_mm * PX_PER_MM, 0], 1) - guess)))
        if not (side < guess[0] < w - side and side < guess[1] < h - side):
            cut += 1  # out of the picture: one may be missed as one hidden may
            continue
        if len(squares):
            d = np.hypot(*(squares[:, :2] - guess).T)
            ok = (np.abs(squares[:, 2] / side - 1) < 0.45) & (d < side * (12 if i in (0, 1) else 8))
            if ok.any():
                k = int(np.argmin(np.where(ok, d, np.inf)))
                found[i] = squares[k, :2]
                src.append(found[i][None])
                dst.append(c_px[None])
    missing = sum(1 for c in found if c is None)
    if missing > 1:
        raise UserError(msg("error.photo.cut_off_squares") if cut else msg("error.photo.squares_missing", missing=missing),
                        source=source)
    return found


GREY_LEVELS = (np.arange(256, dtype=np.float32) / 255.0).reshape(1, 256)  # each grey level of a uint8 photo, 0-1


def laid_over(img: np.ndarray, H: np.ndarray, first, source: str) -> tuple[np.ndarray, np.ndarray]:
    """The photo laid over the blank `first` (a sheet's or a pad's: its image and geometry) by H
    (photo px -> blank px), its lighting evened
    out, and H refined: (photo, H). UserError when the blank's content block, where
    everything read lies, is not wholly in the picture."""
    g = first.geometry
    h, w = img.shape[:2]
    x1, y1 = g.ox + g.content_w, g.oy + g.content_h
    block = np.array([[g.ox, g.oy], [x1, g.oy], [x1, y1], [g.ox, y1]]) * PX_PER_MM
    seen = cv2.perspectiveTransform(block[None], np.linalg.inv(H))[0]
    if (seen < -2).any() or (seen[:, 0] > w + 1).any() or (seen[:, 1] > h + 1).any():
        raise UserError(msg("error.photo.cut_off"), source=source)
    bh, bw = first.image.shape
    # warped as it is (uint8), then made 0-1 float32 (GREY_LEVELS): the blank's size, not
    # the photo's 12 megapixels of float (48 MB), rounded to half a grey level
    warp = lambda H: cv2.LUT(cv2.warpPerspective(img, H, (bw, bh), flags=cv2.INTER_LINEAR,  # noqa: E731
                                                 borderMode=cv2.BORDER_CONSTANT, borderValue=255), GREY_LEVELS)
    photo = _even_light(warp(H))
    # The squares and the code fix the sheet to a millimetre or so; every printed line of
    # the blank then fixes it to a pixel (ECC on half-size images, in the content block).
    H = _refine(photo, first.image, H, g)
    return _even_light(warp(H)), H


@lru_cache(maxsize=4)
def _geometry(layout_id: str):
    from sheetkit import layouts
    from sheetkit.games.yuncos.compose import sheet_geometry

    return sheet_geometry(layouts.load(layout_id).spec, "a4")


def _locate(img: np.ndarray, squares: np.ndarray, source: str):
    """The QR code's text and corners (photo px), and the registration squares found with
    it (the index in `squares` for each mark, None for one not found) or None.

    The squares first: they are big and survive blur. Where they put the code, it is cut
    out and read (_read_code). Only when that fails is the whole photo searched for a code
    (zxing-cpp as it comes)."""
    seen = None
    for layout_id in LEVELS:  # the levels place the lower squares and the code differently
        for H, idx in _fit_marks(squares, _geometry(layout_id).marks, img.shape):
            found, there = _read_code(img, H, layout_id)
            if found:
                return found, idx
            if there and seen is None:
                seen = H
    found = _find_qr(img)
    if found:
        return found, None
    if seen is not None:
        # the sheet is there, its code not readable: too small in the frame, or blurred
        px = 297 * float(np.sqrt(abs(np.linalg.det(np.linalg.inv(seen)[:2, :2])))) * PX_PER_MM
        raise UserError(msg("error.photo.qr_unreadable", px=f"{px:.0f}"), source=source)
    raise UserError(msg("error.photo.no_qr"), source=source)


def register(path: str | Path) -> Registered:
    """The photo at `path` laid over its blank; UserError (one line) when it cannot be."""
    source = str(path)
    img = load_photo(path)
    squares = _squares(img)
    (text, corners), idx = _locate(img, squares, source)
    layout_id, serial = _level(text, source)
    h, w = img.shape
    first = blank(layout_id, serial, "en")
    qx, qy, qs = first.qr
    code_mm = np.array([[qx, qy], [qx + qs, qy], [qx + qs, qy + qs], [qx, qy + qs]], dtype=np.float64)
    code_px = code_mm * PX_PER_MM
    H0, _ = cv2.findHomography(corners, code_px)
    if H0 is None:
        raise UserError(msg("error.photo.qr_plane"), source=source)
    centres_mm = [np.array([mx + ms / 2, my + ms / 2]) for mx, my, ms in first.geometry.marks]
    marks = None
    if idx is not None and None not in idx:
        # the four squares found together, with this level's places for them, put the code's
        # corners where they are (within 2 mm): they are the sheet's
        H4 = cv2.getPerspectiveTransform(squares[idx, :2].astype(np.float32),
                                         (np.array(centres_mm) * PX_PER_MM).astype(np.float32))
        got = cv2.perspectiveTransform(corners[None], H4.astype(np.float64))[0]
        if np.abs(got - code_px).max() < 2.0 * PX_PER_MM:
            marks = [squares[i, :2] for i in idx]
    if marks is None:
        marks = _marks_from_code(squares, corners, code_px, centres_mm, first.geometry.marks[0][2], (w, h), source)
    src = np.concatenate([corners] + [c[None] for c in marks if c is not None])
    dst = np.concatenate([code_px] + [(m * PX_PER_MM)[None] for m, c in zip(centres_mm, marks) if c is not None])
    H, _ = cv2.findHomography(src, dst, 0)
    g = first.geometry
    photo, H = laid_over(img, H, first, source)
    content = (_px(g.ox), _px(g.oy), _px(g.ox + g.content_w), _px(g.oy + g.content_h))
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
        raise UserError(msg("error.photo.blurred", kept=f"{sharp:.0%}"), source=source)
    found = {"qr": [cv2.perspectiveTransform(corners[None], H)[0].tolist()],
             "marks": [None if c is None else cv2.perspectiveTransform(c[None, None], H)[0, 0].tolist()
                       for c in marks]}
    return Registered(text, serial, b, photo, H, found, sharp, _even_light(b.image))
