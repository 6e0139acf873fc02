"""Colour separation: the drawing's sRGB colours and pictures as the CMYK of a printing condition.

    sep = Separation(profile_bytes, total_ink=240)
    sep.colour(HexColor("#B02024"))  # → CMYKColor, through the ICC transform, ink capped
    sep.picture(pil_image)           # → a CMYK PIL image, the same transform, ink capped

Every colour goes through one transform, built with Pillow's ImageCms (LittleCMS): sRGB
to the output profile, relative colorimetric with black point compensation, the intent
print shops use for artwork. A neutral grey (r = g = b: black text, rules) becomes black ink
alone, of the same lightness on that paper, so black text never prints in four
registered inks. Afterwards the sum C + M + Y + K is capped at the condition's total ink:
above it, cyan, magenta and yellow are reduced together and black is kept (the look of
grey component replacement). `write/pdf.py` routes every colour a drawing sets, and every
image it places, through here when a Document is CMYK; drawing code never knows.
"""
from __future__ import annotations

import io
from functools import lru_cache

LEVELS = 255  # colours are computed on 8-bit values (what an ICC transform of a picture sees)


class Separation:
    """sRGB → the output profile's CMYK, total ink capped at `total_ink` %."""

    def __init__(self, profile: bytes, total_ink: float, name: str = ""):
        from PIL import ImageCms

        self.name = name
        self.profile = profile
        self.total_ink = float(total_ink)
        output = ImageCms.ImageCmsProfile(io.BytesIO(profile))
        srgb = ImageCms.createProfile("sRGB")
        flags = ImageCms.Flags.BLACKPOINTCOMPENSATION
        self._to_cmyk = ImageCms.buildTransform(srgb, output, "RGB", "CMYK", ImageCms.Intent.RELATIVE_COLORIMETRIC, flags=flags)
        self._k_lightness = _black_ramp(output)
        self._srgb_lightness = ImageCms.buildTransform(srgb, ImageCms.createProfile("LAB"), "RGB", "LAB",
                                                        ImageCms.Intent.RELATIVE_COLORIMETRIC, flags=flags)
        self.colour = lru_cache(maxsize=4096)(self._colour)

    # ── vector colours ───────────────────────────────────────────────────
    def cmyk(self, r: float, g: float, b: float) -> tuple[float, float, float, float]:
        """An sRGB colour (0–1 each) as C, M, Y, K (0–1 each)."""
        rgb = tuple(max(0, min(LEVELS, round(v * LEVELS))) for v in (r, g, b))
        return self._cmyk8(rgb)

    def _cmyk8(self, rgb: tuple[int, int, int]) -> tuple[float, float, float, float]:
        from PIL import Image, ImageCms

        if rgb[0] == rgb[1] == rgb[2]:
            return (0.0, 0.0, 0.0, self._black_for(rgb[0]))
        pixel = ImageCms.applyTransform(Image.new("RGB", (1, 1), rgb), self._to_cmyk).getpixel((0, 0))
        return cap_ink(tuple(v / LEVELS for v in pixel), self.total_ink / 100)

    def _black_for(self, grey: int) -> float:
        """The black ink (0–1) that prints as light as sRGB grey `grey` (0–255) on this paper."""
        from PIL import Image, ImageCms

        lightness = ImageCms.applyTransform(Image.new("RGB", (1, 1), (grey,) * 3), self._srgb_lightness).getpixel((0, 0))[0]
        return _interpolate(self._k_lightness, lightness)

    def _colour(self, colour):
        """ReportLab's `enforceColorSpace` hook: any colour a drawing sets, as a CMYKColor."""
        from reportlab.lib.colors import CMYKColor, Color, toColor

        c = toColor(colour)
        if isinstance(c, CMYKColor):
            return c
        if not isinstance(c, Color):
            raise ValueError(f"not a colour: {colour!r}")
        alpha = getattr(c, "alpha", None)
        return CMYKColor(*self.cmyk(c.red, c.green, c.blue), alpha=alpha if alpha not in (None, 1) else None)

    # ── pictures ─────────────────────────────────────────────────────────
    def picture(self, im):
        """A PIL image (L, RGB, RGBA, CMYK) as CMYK; transparency flattened onto white
        (callers that may keep it take the alpha channel first)."""
        from PIL import Image, ImageCms

        if im.mode == "CMYK":
            return cap_ink_image(im, self.total_ink / 100)
        if im.mode in ("RGBA", "LA", "PA", "P") or "transparency" in im.info:
            im = im.convert("RGBA")
            white = Image.new("RGB", im.size, (255, 255, 255))
            white.paste(im, mask=im.getchannel("A"))
            im = white
        elif im.mode != "RGB":
            im = im.convert("RGB")
        return cap_ink_image(ImageCms.applyTransform(im, self._to_cmyk), self.total_ink / 100)


def cap_ink(cmyk: tuple[float, float, float, float], limit: float) -> tuple[float, float, float, float]:
    """C, M, Y, K (0–1) with C + M + Y + K at most `limit` (e.g. 2.4): cyan, magenta and yellow
    reduced in proportion, black kept."""
    c, m, y, k = cmyk
    total = c + m + y + k
    if total <= limit + 1e-9:
        return (round(c, 4), round(m, 4), round(y, 4), round(k, 4))
    scale = max(0.0, limit - k) / (c + m + y)
    return tuple(round(v * scale, 4) for v in (c, m, y)) + (round(k, 4),)


def cap_ink_image(im, limit: float):
    """A CMYK image with no pixel above `limit` total ink (the same rule as `cap_ink`)."""
    from PIL import Image, ImageMath

    c, m, y, k = im.split()
    total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"], c=c, m=m, y=y, k=k)
    if total.getextrema()[1] <= limit * LEVELS + 0.5:
        return im
    # scale = min(1, (limit·255 − k) / (c + m + y)), per pixel; 8-bit results rounded down (never above the cap)
    scale = ImageMath.lambda_eval(
        lambda a: a["min"](a["float"](a["L"] - a["k"]) / a["max"](a["float"](a["c"] + a["m"] + a["y"]), 1.0), 1.0),
        c=c, m=m, y=y, k=k, L=limit * LEVELS)
    channels = [ImageMath.lambda_eval(lambda a: a["convert"](a["v"] * a["s"], "L"), v=ch, s=scale) for ch in (c, m, y)]
    return Image.merge("CMYK", (*channels, k))


def _black_ramp(output) -> list[tuple[float, float]]:
    """(L*, black ink) of black ink alone on the profile's paper, K from 0 to 100 %, lightest first."""
    from PIL import Image, ImageCms

    to_lab = ImageCms.buildTransform(output, ImageCms.createProfile("LAB"), "CMYK", "LAB",
                                     ImageCms.Intent.RELATIVE_COLORIMETRIC, flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    steps = list(range(0, LEVELS + 1, 5))
    im = Image.new("CMYK", (len(steps), 1))
    for i, k in enumerate(steps):
        im.putpixel((i, 0), (0, 0, 0, k))
    lab = ImageCms.applyTransform(im, to_lab)
    return [(lab.getpixel((i, 0))[0], k / LEVELS) for i, k in enumerate(steps)]


def _interpolate(ramp: list[tuple[float, float]], lightness: float) -> float:
    """The black ink of `lightness` (L* as 0–255) on the ramp, interpolated; clamped at its ends."""
    if lightness >= ramp[0][0]:
        return 0.0
    for (l0, k0), (l1, k1) in zip(ramp, ramp[1:]):
        if l1 <= lightness <= l0:
            t = 0.0 if l0 == l1 else (l0 - lightness) / (l0 - l1)
            return round(k0 + (k1 - k0) * t, 4)
    return 1.0


# ── the canvas that draws in CMYK ──────────────────────────────────────────
def cmyk_canvas(buffer, separation: Separation, opaque: bool, **options):
    """A ReportLab canvas whose every colour (fill, stroke, text, grey, gradient) and every
    picture goes through `separation`; `opaque` (PDF/X-1a): PDF 1.3, transparency dropped
    and counted in `canvas.transparency_dropped`."""
    return _canvas_class()(buffer, separation=separation, opaque=opaque, **options)


@lru_cache(maxsize=1)
def _canvas_class():
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    class CMYKCanvas(Canvas):
        def __init__(self, buffer, separation: Separation, opaque: bool, **options):
            self.separation = separation
            self.opaque = opaque
            self.transparency_dropped = 0
            self.flattened_pictures = 0
            if opaque:
                options["pdfVersion"] = (1, 3)  # PDF/X-1a:2001 is PDF 1.3
            super().__init__(buffer, enforceColorSpace=separation.colour, **options)

        # greys and gradients set no Color object: send them through the separation too
        def setFillGray(self, gray, alpha=None):
            self.setFillColor((gray, gray, gray), alpha)

        def setStrokeGray(self, gray, alpha=None):
            self.setStrokeColor((gray, gray, gray), alpha)

        def linearGradient(self, x0, y0, x1, y1, colors, positions=None, extend=True):
            return super().linearGradient(x0, y0, x1, y1, [self.separation.colour(c) for c in colors], positions, extend)

        def radialGradient(self, x, y, radius, colors, positions=None, extend=True):
            return super().radialGradient(x, y, radius, [self.separation.colour(c) for c in colors], positions, extend)

        def setFillAlpha(self, a):
            if self.opaque:
                self.transparency_dropped += a < 1
                return None
            return super().setFillAlpha(a)

        def setStrokeAlpha(self, a):
            if self.opaque:
                self.transparency_dropped += a < 1
                return None
            return super().setStrokeAlpha(a)

        def drawImage(self, image, x, y, width=None, height=None, mask=None, preserveAspectRatio=False, anchor="c",
                      anchorAtXY=False, showBoundary=False, extraReturn=None):
            from PIL import Image

            im = image._image if isinstance(image, ImageReader) else (image if isinstance(image, Image.Image) else ImageReader(image)._image)
            if im.mode in ("RGBA", "LA", "PA") or "transparency" in im.info:
                self.flattened_pictures += 1
            reader = ImageReader(self.separation.picture(im))
            return super().drawImage(reader, x, y, width, height, None, preserveAspectRatio, anchor, anchorAtXY, showBoundary, extraReturn)

    return CMYKCanvas
