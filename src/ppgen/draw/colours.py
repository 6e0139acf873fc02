"""Colours as the drawing uses them: "#rrggbb" blends, contrast, ReportLab colours, and the
template's colour names resolved for one faction (faction, faction-dark, on-faction, mix(…))."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..read.templates import MIX_RE


@lru_cache(maxsize=4096)
def _rgb(hex_colour: str) -> tuple[float, float, float]:
    return tuple(int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))


def _hex(rgb) -> str:
    return "#" + "".join(f"{round(max(0.0, min(1.0, c)) * 255):02X}" for c in rgb)


@lru_cache(maxsize=8192)
def mix(a: str, b: str, t: float) -> str:
    """`a` moved towards `b` by t (0 = a, 1 = b)."""
    ra, rb = _rgb(a), _rgb(b)
    return _hex(tuple(x + (y - x) * t for x, y in zip(ra, rb)))


@lru_cache(maxsize=1024)
def rl(colour: str):
    """A "#rrggbb" colour as a ReportLab Color, parsed once (ReportLab re-parses strings on every use)."""
    from reportlab.lib.colors import HexColor

    return HexColor(colour)


@lru_cache(maxsize=4096)
def luminance(colour: str) -> float:
    def lin(c):
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in _rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def readable_on(colour: str, dark: str = "#1E1912", light: str = "#FFFFFF") -> str:
    """The text colour (dark or light) with the better contrast on `colour`."""
    lum = luminance(colour)
    contrast_dark = (lum + 0.05) / (luminance(dark) + 0.05)
    contrast_light = (luminance(light) + 0.05) / (lum + 0.05)
    return dark if contrast_dark >= contrast_light else light


@dataclass(frozen=True)
class Colours:
    """Resolves template colour names for one faction."""

    palette: dict
    faction: str
    accent: str

    def __call__(self, name: str | None) -> str | None:
        if name is None:
            return None
        if name.startswith("#"):
            return name.upper()
        m = MIX_RE.match(name)
        if m:
            return mix(self(m.group(1)), self(m.group(2)), float(m.group(3)))
        derived = {
            "faction": self.faction,
            "faction-dark": mix(self.faction, "#000000", 0.38),
            "faction-light": mix(self.faction, "#FFFFFF", 0.22),
            "accent": self.accent,
            "accent-dark": mix(self.accent, "#000000", 0.3),
            "on-faction": readable_on(self.faction),
            "on-accent": readable_on(self.accent),
        }
        if name in derived:
            return derived[name]
        return self.palette[name].upper()
