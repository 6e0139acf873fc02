"""Fonts and font chains: which font draws each character.

A language names, per role (body, bold, title), a chain of TrueType files in
`fonts/` (see ppgen.yaml). A character is drawn by the first font in the chain
that has it; a character no font has is reported, never drawn as tofu.
ReportLab embeds every TrueType font as a subset.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from ..errors import UsageError
from .frozen import hash_once

# Characters that need no glyph: they are spacing or formatting, never drawn.
INVISIBLE = frozenset("\n\t\u200b\u200c\u200d\u2060\ufeff\u00ad")


@dataclass(frozen=True)
class Font:
    name: str  # ReportLab font name
    path: Path
    cmap: frozenset  # code points the font has a glyph for
    stamp: tuple = ()  # the file's (size, modification time in ns) when registered: another file, other layouts

    def has(self, ch: str) -> bool:
        return ord(ch) in self.cmap


def register_font(path: Path) -> Font:
    """Register a TrueType file with ReportLab once per process; refuse what cannot be embedded.
    The same file reached by another path (a game directory whose fonts/ is a link) is parsed once,
    and its `path` is the file itself: in a process that outlives a game directory (the workbench,
    a script, the tests), the font another directory shares is still found where it is."""
    path = Path(path)
    try:
        real = path.resolve()
        stat = real.stat()
        key = (real, stat.st_size, stat.st_mtime_ns)
    except OSError:
        key = (path, -1, -1)  # missing: _register says so
    if key not in _REGISTERED:
        _REGISTERED[key] = replace(_register(path), path=key[0], stamp=key[1:])
    return _REGISTERED[key]


_REGISTERED: dict[tuple, "Font"] = {}  # (real path, size, mtime) → the font registered from it


def _register(path: Path) -> Font:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFError

    from .fontcache import parsed_font

    _astral_to_unicode()
    _subsets_read_in_place()

    name = path.stem
    if not path.is_file():
        raise UsageError(f"font file {path} not found")
    try:
        font = parsed_font(name, path)
    except TTFError as exc:
        reason = str(exc)
        if "postscript outlines" in reason.lower():
            reason = "it has CFF (PostScript) outlines; use a static TrueType (glyf) version of the font"
        raise UsageError(f"cannot use font {path.name}: {reason}") from None
    except Exception as exc:  # a truncated or corrupt file raises anything
        raise UsageError(f"cannot use font {path.name}: the file is damaged or not a TrueType font ({type(exc).__name__})") from None
    pdfmetrics.registerFont(font)
    return Font(name, path, frozenset(font.face.charToGlyph))


@lru_cache(maxsize=None)
def ink_extent(font_name: str, ch: str) -> tuple[float, float] | None:
    """Where the ink of `ch` lies across its cell, in ems from the glyph's origin: (left, right),
    from the bounding box the font's `glyf` table records; None for a glyph without outline."""
    import struct

    from reportlab.pdfbase import pdfmetrics

    face = pdfmetrics.getFont(font_name).face
    glyph = face.charToGlyph.get(ord(ch))
    if glyph is None or glyph + 1 >= len(face.glyphPos) or face.glyphPos[glyph + 1] == face.glyphPos[glyph]:
        return None
    table, _ = face.get_table_pos("glyf")
    at = table + face.glyphPos[glyph]
    _, x_min, _, x_max, _ = struct.unpack(">hhhhh", face._ttf_data[at : at + 10])
    return (x_min / face.unitsPerEm, x_max / face.unitsPerEm)


_ASTRAL = re.compile(r"<([0-9A-F]{2})> <([0-9A-F]{5,6})>")


@lru_cache(maxsize=None)
def _astral_to_unicode() -> None:
    """ReportLab writes a character beyond U+FFFF into a font's ToUnicode map as five hex
    digits, which PDF readers take for a BMP character (😀 U+1F600 is copied, searched and
    extracted as ὠ U+1F60). Write it as its UTF-16 surrogate pair, as the PDF format says."""
    from reportlab.pdfbase import ttfonts

    original = ttfonts.makeToUnicodeCMap

    def utf16(m):
        code = int(m.group(2), 16) - 0x10000
        return f"<{m.group(1)}> <{0xD800 + (code >> 10):04X}{0xDC00 + (code & 0x3FF):04X}>"

    ttfonts.makeToUnicodeCMap = lambda fontname, subset: _ASTRAL.sub(utf16, original(fontname, subset))


@lru_cache(maxsize=None)
def _subsets_read_in_place() -> None:
    """ReportLab copies a font's whole `glyf` table to take out the glyphs of each subset it
    embeds — 5 to 9 MB for a CJK font, for every font of every PDF: a tenth of the time a
    workbench takes to draw a block of cards. Let it read the glyphs where they are (a view of
    the font file, copied only where a composite glyph is renumbered): the same bytes out."""
    from reportlab.pdfbase import ttfonts

    get_table, splice = ttfonts.TTFontParser.get_table, ttfonts.splice

    def table(self, tag):
        if tag != "glyf":
            return get_table(self, tag)
        pos, length = self.get_table_pos(tag)
        return memoryview(self._ttf_data)[pos:pos + length]

    ttfonts.TTFontParser.get_table = table
    ttfonts.splice = lambda stream, offset, value: splice(bytes(stream), offset, value)


@dataclass(frozen=True)
class FontChain:
    """An ordered list of fonts for one role of one language."""

    lang: str
    role: str
    fonts: tuple[Font, ...]

    __hash__ = hash_once

    @property
    def primary(self) -> str:
        return self.fonts[0].name

    def font_for(self, ch: str) -> str | None:
        for font in self.fonts:
            if font.has(ch):
                return font.name
        return None

    def missing(self, text: str) -> list[str]:
        """Characters of `text` that no font in the chain can draw (in order, once each)."""
        seen: list[str] = []
        for ch in text:
            if ch not in INVISIBLE and ch != " " and self.font_for(ch) is None and ch not in seen:
                seen.append(ch)
        return seen

    def runs(self, text: str) -> list[tuple[str, str]]:
        """Split text into (font name, substring) runs; spaces stay in the current run."""
        out: list[tuple[str, str]] = []
        current, buf = None, []
        for ch in text:
            font = self.font_for(ch) if ch != " " else (current or self.primary)
            font = font or self.primary
            if font != current and buf:
                out.append((current, "".join(buf)))
                buf = []
            current = font
            buf.append(ch)
        if buf:
            out.append((current, "".join(buf)))
        return out

    def width(self, text: str, size: float) -> float:
        """Width in points of `text` set at `size`, each run in its own font."""
        from reportlab.pdfbase.pdfmetrics import stringWidth

        return sum(stringWidth(run, font, size) for font, run in self.runs(text))


class FontBook:
    """The fonts of one game directory, by language and role."""

    def __init__(self, fonts_dir: Path, languages: dict, config=None):
        self.fonts_dir = Path(fonts_dir)
        self.languages = languages  # code -> config.LanguageConfig
        self.config = config  # read.config.Config: where a chain is written, for messages
        self._chains: dict[tuple[str, str], FontChain] = {}

    def chain(self, lang: str, role: str = "body") -> FontChain:
        key = (lang, role)
        if key not in self._chains:
            try:
                files = self.languages[lang].fonts[role]
            except KeyError:
                raise UsageError(f"no '{role}' fonts configured for language '{lang}' in ppgen.yaml") from None
            if not self.fonts_dir.is_dir():
                raise UsageError(f"the game directory has no fonts/ folder ({self.fonts_dir})")
            if any(not (self.fonts_dir / f).is_file() for f in files):
                self._missing(lang)
            self._chains[key] = FontChain(lang, role, tuple(self._font(lang, role, i, f) for i, f in enumerate(files)))
        return self._chains[key]

    def _font(self, lang: str, role: str, i: int, name: str) -> Font:
        """The font file `name` of a chain, registered; one that cannot be used is a problem at its
        place in ppgen.yaml (when the chain is written there)."""
        try:
            return register_font(self.fonts_dir / name)
        except UsageError as exc:
            config = self.config
            where = ("languages", lang, "fonts", role, i)
            if config is None or config.doc is None or where not in config.doc.value_marks:
                raise
            from ..errors import DataError

            raise DataError([config.problem(where, f"languages.{lang}.fonts.{role}: {exc}", "font")]) from None

    def _missing(self, lang: str) -> None:
        """A font a chain of `lang` names is not in fonts/ (a typo in ppgen.yaml, a file moved away):
        every such name of the language's chains, each at its place in ppgen.yaml, with what is there."""
        from ..errors import DataError
        from ..read.config import Config
        from ..read.schema import did_you_mean

        there = sorted(p.name for p in self.fonts_dir.iterdir() if p.is_file())
        config = self.config or Config()  # (no file read: ppgen.yaml, without a line)
        problems = []
        for role, files in self.languages[lang].fonts.items():
            if config.doc is not None and ("languages", lang, "fonts", role) not in config.doc.value_marks:
                continue  # (the title chain, when not written, is the bold one's: said there)
            for i, f in enumerate(files):
                if not (self.fonts_dir / f).is_file():
                    message = f"languages.{lang}.fonts.{role} names '{f}', which is not in fonts/{did_you_mean(f, there)}"
                    problems.append(config.problem(("languages", lang, "fonts", role, i), message, "font"))
        raise DataError(problems)

    def load(self, langs) -> None:
        """Register every font of `langs` now (before worker processes are forked, so that each
        inherits them parsed instead of parsing them again)."""
        for lang in langs:
            for role in self.languages[lang].fonts:
                self.chain(lang, role)
