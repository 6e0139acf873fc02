"""Pictures on cards: where a picture lies in its window, and drawing it there.

    box = art_box(elements["art"], geometry)         # the window, in the bleed box's points
    fitted = fit(box, (w, h), "cover", (0.5, 0.3))   # where the whole picture lies; how much is cut off
    layer = PictureLayer(prepared)                   # the picture as a face of its own: one form per PDF
    draw_picture(c, layer, fitted)                   # clipped to the window, the form placed

`cover` fills the window and cuts off what overhangs, keeping the focus point
(x, y from the picture's top left, 0–1) as near the window's centre as the
picture allows; `contain` shows the whole picture, centred. Cropping is a
clipping path: the picture is embedded whole, once, however many cards show it.
Drawing receives the prepared picture (read/art.py makes it); it reads no file.
"""
from __future__ import annotations

import io
from dataclasses import dataclass

from ..units import MM
from .faces import form_name

EDGE = 0.01  # pt: a picture this close to the window's edge reaches it


@dataclass(frozen=True)
class CardArt:
    """A card's picture and how it fits its window (from cards.yaml and the template)."""

    picture: object  # read.art.Prepared
    fit: str = "cover"  # cover | contain
    focus: tuple[float, float] = (0.5, 0.5)

    @property
    def layer(self) -> "PictureLayer":
        return PictureLayer(self.picture)


@dataclass(frozen=True)
class Fitted:
    """A picture placed for a window: its whole rectangle (points) and the window."""

    x: float
    y: float
    w: float
    h: float
    box: tuple[float, float, float, float]

    @property
    def cropped(self) -> float:
        """The share of the picture's area outside the window (0 for `contain`)."""
        bx, by, bw, bh = self.box
        visible = max(0.0, min(self.x + self.w, bx + bw) - max(self.x, bx)) * max(0.0, min(self.y + self.h, by + bh) - max(self.y, by))
        return 1 - visible / (self.w * self.h)

    @property
    def covers(self) -> bool:
        """Does the picture reach every edge of the window?"""
        bx, by, bw, bh = self.box
        return (self.x <= bx + EDGE and self.y <= by + EDGE and self.x + self.w >= bx + bw - EDGE
                and self.y + self.h >= by + bh - EDGE)

    def dpi(self, pixels_across: float) -> float:
        """The effective resolution of a picture `pixels_across` wide printed this size."""
        return pixels_across / (self.w / 72)


def art_box(element, geometry) -> tuple[float, float, float, float]:
    """The art window in the bleed box's points: the element's box, or the whole card
    into the bleed when the template says `bleed: true` (a full-art card)."""
    if element.bleed:
        return (0.0, 0.0, geometry.width, geometry.height)
    b = geometry.bleed
    return (b + element.x * MM, b + element.y * MM, element.w * MM, element.h * MM)


def fit(box, size, mode: str = "cover", focus: tuple[float, float] = (0.5, 0.5)) -> Fitted:
    """Place a picture of `size` (any unit; only its aspect counts) in `box`."""
    bx, by, bw, bh = box
    pw, ph = size
    scale = (max if mode == "cover" else min)(bw / pw, bh / ph)
    w, h = pw * scale, ph * scale
    fx, fy = focus if mode == "cover" else (0.5, 0.5)
    x = _clamp(bx + bw / 2 - fx * w, bx + bw - w, bx)  # the focus point as near the centre as the picture allows
    y = _clamp(by + bh / 2 - (1 - fy) * h, by + bh - h, by)  # (y of the focus counts from the picture's top)
    return Fitted(x, y, w, h, (bx, by, bw, bh))


def _clamp(v: float, a: float, b: float) -> float:
    lo, hi = min(a, b), max(a, b)
    return min(max(v, lo), hi)


class PictureLayer:
    """A picture as a face of its own (see draw/faces.py): drawn once per PDF as a form of
    its natural size, placed, scaled and clipped, by every card that shows it."""

    def __init__(self, picture):
        self.picture = picture
        self.key = picture.key
        self.size = (float(picture.width), float(picture.height))

    def draw(self, canvas) -> None:
        w, h = self.size
        if self.picture.drawing is not None:
            from reportlab.graphics import renderPDF

            renderPDF.draw(self.picture.drawing, canvas, 0, 0)
        else:
            from reportlab.lib.utils import ImageReader

            canvas.drawImage(ImageReader(io.BytesIO(self.picture.data)), 0, 0, w, h, mask="auto")


def draw_picture(c, layer: PictureLayer, fitted: Fitted, in_place: bool = False) -> None:
    """The picture clipped to its window: its form placed (or, `in_place`, drawn there)."""
    bx, by, bw, bh = fitted.box
    w, h = layer.size
    c.saveState()
    p = c.beginPath()
    p.rect(bx, by, bw, bh)
    c.clipPath(p, stroke=0, fill=0)
    c.transform(fitted.w / w, 0, 0, fitted.h / h, fitted.x, fitted.y)
    if in_place:
        layer.draw(c)
    else:
        c.doForm(form_name(layer.key))
    c.restoreState()
