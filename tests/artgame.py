"""A game directory with pictures, made by the tests themselves (nothing binary is shipped).

`make_art_game(dest)` copies the game and adds, for Rome's cards:

    art/hastati-line.png            a 3:1 picture with a red marker at art_focus [0.75, 0.5]
    art/roman-archer-auxilia.jpg    CMYK JPEG tagged with a profile in which cyan prints green
    art/consular-cavalry.jpg        a photo stored portrait, EXIF orientation 6 (shown landscape:
                                    left half red, right half blue)
    art/legionary-cohort.png        a 60 × 40 px thumbnail
    art/principes-line.jpg          8000 × 6000 px, one flat colour (a few hundred kB)
    art/triarii-reserve.svg         vectors: a gradient and a half-transparent disc
    art/praetorian-guard.png        transparent but for an opaque yellow square in the middle
    art/shared/eagle.png            named by `art:` for two cards (embedded once)
    art/ja/hastati-line.png         Japanese only: all green

`icc_profile()` writes small ICC v2 profiles (a lut16 AToB0 to Lab), so colour
conversion through a profile can be proven without shipping one.
"""
from __future__ import annotations

import io
import itertools
import shutil
import struct
from pathlib import Path

MARKER = (220, 20, 20)
FOCUS = (0.75, 0.5)
CYAN_PRINTS_AS_LAB = (60, -60, 50)  # a green: far from the cyan a plain formula gives


# ── ICC profiles ───────────────────────────────────────────────────────────
def _s15(v: float) -> bytes:
    return struct.pack(">i", round(v * 65536))


def _lab16(L, a, b) -> bytes:
    return struct.pack(">HHH", round(L / 100 * 0xFF00), round((a + 128) * 256), round((b + 128) * 256))


def icc_profile(space: bytes, channels: int, corner_lab, description: str = "ppgen test profile") -> bytes:
    """A device → Lab profile: `corner_lab(corner)` gives the Lab of each grid corner (0/1 per channel)."""
    grid = b"".join(_lab16(*corner_lab(c)) for c in itertools.product((0, 1), repeat=channels))
    linear = struct.pack(">HH", 0, 0xFFFF)
    lut = (b"mft2" + bytes(4) + struct.pack(">BBBB", channels, 3, 2, 0) + b"".join(_s15(v) for v in (1, 0, 0, 0, 1, 0, 0, 0, 1))
           + struct.pack(">HH", 2, 2) + linear * channels + grid + linear * 3)
    text = description.encode("ascii") + b"\0"
    desc = b"desc" + bytes(4) + struct.pack(">I", len(text)) + text + bytes(8) + bytes(3) + bytes(67)
    tags = [(b"desc", desc), (b"wtpt", b"XYZ " + bytes(4) + _s15(0.9642) + _s15(1.0) + _s15(0.8249)),
            (b"cprt", b"text" + bytes(4) + b"none\0"), (b"A2B0", lut)]
    offset = 128 + 4 + 12 * len(tags)
    table, data = b"", b""
    for sig, body in tags:
        body += bytes(-len(body) % 4)
        table += sig + struct.pack(">II", offset + len(data), len(body))
        data += body
    header = (struct.pack(">I", offset + len(data)) + bytes(4) + struct.pack(">I", 0x02100000)
              + (b"prtr" if space == b"CMYK" else b"scnr") + space.ljust(4) + b"Lab " + bytes(12) + b"acsp" + bytes(28)
              + _s15(0.9642) + _s15(1.0) + _s15(0.8249) + bytes(48))
    return header + struct.pack(">I", len(tags)) + table + data


def cmyk_profile() -> bytes:
    def corner(c):
        C, M, Y, K = c
        if K:
            return (0, 0, 0)
        if C and not M and not Y:
            return CYAN_PRINTS_AS_LAB
        return (max(5, 100 - 40 * (C + M + Y)), 0, 0)

    return icc_profile(b"CMYK", 4, corner, "cyan prints green")


# ── the pictures ───────────────────────────────────────────────────────────
def focus_picture():
    from PIL import Image, ImageDraw

    im = Image.new("RGB", (1800, 600), (128, 128, 128))
    d = ImageDraw.Draw(im)
    cx, cy, r = FOCUS[0] * 1800, FOCUS[1] * 600, 40
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=MARKER)
    return im


def rotated_photo_bytes() -> bytes:
    """Shown (after EXIF orientation 6) as 400 × 300: left half red, right half blue."""
    from PIL import Image

    shown = Image.new("RGB", (400, 300), (0, 0, 230))
    shown.paste((230, 0, 0), (0, 0, 200, 300))
    stored = shown.transpose(Image.Transpose.ROTATE_90)  # what orientation 6 turns back upright
    exif = Image.Exif()
    exif[0x0112] = 6
    buffer = io.BytesIO()
    stored.save(buffer, "JPEG", quality=95, exif=exif.tobytes())
    return buffer.getvalue()


SVG = b"""<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="400" height="224" viewBox="0 0 400 224">
  <defs><linearGradient id="sky" x1="0" y1="0" x2="1" y2="0">
    <stop offset="0" stop-color="#ff0000"/><stop offset="1" stop-color="#0000ff"/></linearGradient></defs>
  <rect width="400" height="224" fill="url(#sky)"/>
  <circle cx="200" cy="112" r="60" fill="#00ff00" fill-opacity="0.5"/>
</svg>
"""


def transparent_png():
    from PIL import Image

    im = Image.new("RGBA", (900, 500), (0, 0, 0, 0))
    im.paste((250, 220, 0, 255), (350, 150, 550, 350))
    return im


def save(im, path: Path, **kw) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    im.save(path, **kw)
    return path


def make_art_game(dest: Path, root: Path) -> Path:
    """A copy of the game at `root` in `dest` with the pictures above."""
    from PIL import Image

    dest.mkdir(parents=True, exist_ok=True)
    for name in ("cards.yaml", "ppgen.yaml"):
        shutil.copy(root / name, dest / name)
    for folder in ("locales", "templates", "decks"):
        shutil.copytree(root / folder, dest / folder)
    (dest / "fonts").symlink_to(root / "fonts")
    art = dest / "art"
    save(focus_picture(), art / "hastati-line.png")
    save(Image.new("CMYK", (800, 450), (255, 0, 0, 0)), art / "roman-archer-auxilia.jpg", quality=95, icc_profile=cmyk_profile())
    (art / "consular-cavalry.jpg").write_bytes(rotated_photo_bytes())
    save(Image.new("RGB", (60, 40), (40, 160, 60)), art / "legionary-cohort.png")
    save(Image.new("RGB", (8000, 6000), (30, 90, 160)), art / "principes-line.jpg", quality=90)
    (art / "triarii-reserve.svg").write_bytes(SVG)
    save(transparent_png(), art / "praetorian-guard.png")
    save(Image.new("RGB", (1100, 616), (120, 60, 20)), art / "shared" / "eagle.png")
    save(Image.new("RGB", (1800, 600), (0, 200, 0)), art / "ja" / "hastati-line.png")
    set_card_keys(dest / "cards.yaml", "hastati-line", {"art_focus": "[0.75, 0.5]"})
    for card in ("centurion-commander", "eagle-standard"):
        set_card_keys(dest / "cards.yaml", card, {"art": "art/shared/eagle.png"})
    return dest


def set_card_keys(cards_yaml: Path, card_id: str, values: dict[str, str]) -> None:
    """Add `key: value` lines to a card in cards.yaml, right after its id."""
    text = cards_yaml.read_text(encoding="utf-8")
    marker = f"- id: {card_id}\n"
    start = text.index(marker)
    indent = " " * (start - (text.rfind("\n", 0, start) + 1) + 2)  # under the card's "id:"
    lines = "".join(f"{indent}{k}: {v}\n" for k, v in values.items())
    cards_yaml.write_text(text.replace(marker, marker + lines, 1), encoding="utf-8")
