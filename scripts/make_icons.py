"""Draw the phone page's icons (favicon, home-screen icons) into sheetkit/web/static/.

    python scripts/make_icons.py

A sheet of paper with its grid of points and a pencilled flight on it, the same drawing as
icon.svg; run again after changing the drawing. The PNGs are committed: nothing is drawn
at run time.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

STATIC = Path(__file__).resolve().parent.parent / "sheetkit" / "web" / "static"
INK, PAPER, PENCIL = (28, 43, 74), (250, 250, 245), (204, 51, 51)
# in a 64-unit square: the sheet, its 4 x 4 points, the flight through some of them
SHEET = (12, 8, 52, 56)
POINTS = [(18 + 9.3 * i, 16 + 10.7 * j) for j in range(4) for i in range(4)]
FLIGHT = [POINTS[12], POINTS[8], POINTS[9], POINTS[5], POINTS[6], POINTS[2], POINTS[3]]


def png(size: int, path: Path) -> None:
    k = size / 64
    img = Image.new("RGB", (size, size), INK)
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = (v * k for v in SHEET)
    d.rounded_rectangle((x0, y0, x1, y1), radius=3 * k, fill=PAPER)
    for x, y in POINTS:
        r = 1.3 * k
        d.ellipse((x * k - r, y * k - r, x * k + r, y * k + r), fill=INK)
    d.line([(x * k, y * k) for x, y in FLIGHT], fill=PENCIL, width=max(1, round(2.2 * k)), joint="curve")
    img.save(path, optimize=True)


def svg() -> str:
    dots = "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="1.3"/>' for x, y in POINTS)
    flight = " ".join(f"{x:.1f},{y:.1f}" for x, y in FLIGHT)
    x0, y0, x1, y1 = SHEET
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
            f'<rect width="64" height="64" rx="10" fill="rgb{INK}"/>'
            f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" rx="3" fill="rgb{PAPER}"/>'
            f'<g fill="rgb{INK}">{dots}</g>'
            f'<polyline points="{flight}" fill="none" stroke="rgb{PENCIL}" stroke-width="2.2" '
            f'stroke-linejoin="round" stroke-linecap="round"/></svg>\n')


if __name__ == "__main__":
    for size, name in ((180, "icon-180.png"), (192, "icon-192.png"), (512, "icon-512.png")):
        png(size, STATIC / name)
    Image.open(STATIC / "icon-192.png").save(STATIC / "favicon.ico", sizes=[(16, 16), (32, 32), (48, 48)])
    (STATIC / "icon.svg").write_text(svg(), encoding="utf-8")
    print("drawn:", ", ".join(p.name for p in sorted(STATIC.glob("*icon*"))))
