"""TrueType files parsed once per machine, not once per build.

ReportLab reads a font's tables (its character map, glyph widths and positions) every time a
process registers it: 0.18 s for a Japanese build, 0.5 s for every language, before any drawing
starts. What it reads is kept in the user's cache folder (read/cache.py: `PPGEN_CACHE_DIR` or
`~/.cache/ppgen`), `font-<digest>.bin`, keyed by the font file (its real path, size and
modification time) and ppgen's code and libraries (read/cache.py `code_digest`: another
ReportLab parses again). The font file itself is still read, for the subsets embedded at save.

A kept entry is trusted only when it rebuilds ReportLab's objects with exactly the attributes a
fresh parse gives; anything else (a damaged entry, another layout of ReportLab's objects) and the
font is parsed again, as without the cache. Fonts from the cache draw byte-identical PDFs
(tests/test_build_cache.py).
"""
from __future__ import annotations

import hashlib
import marshal
from functools import lru_cache
from pathlib import Path

from ..read.cache import store, stored

VERSION = 2
_NAMES = "TTFNameBytes"  # ReportLab's bytes-with-a-text type for the font's names
LAZY = ("glyphToChar",)  # tables only ReportLab's HarfBuzz shaping reads: rebuilt when first read (a CJK font's: 16 000 lists)


def parsed_font(name: str, path: Path):
    """`reportlab.pdfbase.ttfonts.TTFont(name, path)`, from the cache when it holds this file's parse."""
    from reportlab.pdfbase.ttfonts import TTFont

    entry = _entry(path)
    kept = stored(entry) if entry is not None else None
    if kept is not None:
        try:
            return _rebuilt(name, path, marshal.loads(kept))
        except Exception:  # an entry that does not rebuild the font exactly: parse it
            pass
    font = TTFont(name, str(path))
    if entry is not None:
        _keep(entry, name, font)
    return font


def _entry(path: Path) -> str | None:
    """The name of the font file's entry in the cache folder (None: no such file)."""
    from ..read.cache import code_digest

    try:
        real = path.resolve()
        stat = real.stat()
    except OSError:
        return None
    key = f"v{VERSION}\0{real}\0{stat.st_size}\0{stat.st_mtime_ns}\0{code_digest()}"
    return f"{_prefix(real)}{hashlib.sha256(key.encode()).hexdigest()[:16]}.bin"


def _prefix(real: Path) -> str:
    """The start of every entry's name for one font file: `font-<its path's digest>-`."""
    return f"font-{hashlib.sha256(str(real).encode()).hexdigest()[:16]}-"


def _keep(entry: str, name: str, font) -> None:
    from reportlab.pdfbase.ttfonts import TTFNameBytes

    face = {k: v for k, v in font.face.__dict__.items() if k not in ("_ttf_data", "_pdfScale", *LAZY)}
    state = {
        "name": name,
        "face": {k: bytes(v) if isinstance(v, TTFNameBytes) else v for k, v in face.items()},
        "lazy": {k: marshal.dumps(font.face.__dict__[k]) for k in LAZY if k in font.face.__dict__},
        "names": sorted(k for k, v in face.items() if isinstance(v, TTFNameBytes)),
        "face_attrs": sorted(font.face.__dict__),
        "font_attrs": sorted(font.__dict__),
        "ascii": font._asciiReadable,
        "shapable": font._shapable,
    }
    try:
        data = marshal.dumps(state)
    except ValueError:
        return  # a value marshal cannot write: parsed again next time
    store(entry, data, replacing=entry[:entry.rindex("-") + 1])  # the entries of another version of the file, or of ppgen, go


def _rebuilt(name: str, path: Path, state: dict):
    """ReportLab's TTFont as its constructor leaves it, from a kept parse."""
    from weakref import WeakKeyDictionary

    from reportlab.pdfbase.ttfonts import TTEncoding, TTFNameBytes, TTFont

    if state["name"] != name:
        raise ValueError("kept for another name")
    face = _kept_face().__new__(_kept_face())
    face.__dict__.update(state["face"])
    for key in state["names"]:
        face.__dict__[key] = TTFNameBytes(state["face"][key])
    face._ttf_data = path.read_bytes()
    face._pdfScale = _scale(face.unitsPerEm)
    face._lazy = dict(state["lazy"])
    font = TTFont.__new__(TTFont)
    font.__dict__.update(fontName=name, face=face, encoding=TTEncoding(), state=WeakKeyDictionary(),
                         _asciiReadable=state["ascii"], _shapable=state["shapable"])
    attributes = sorted((set(face.__dict__) - {"_lazy"}) | set(face._lazy))
    if attributes != state["face_attrs"] or sorted(font.__dict__) != state["font_attrs"]:
        raise ValueError("ReportLab's font objects differ from the kept ones")
    return font


@lru_cache(maxsize=1)
def _kept_face():
    """ReportLab's TTFontFace, as rebuilt from a kept parse: each table of LAZY unmarshalled when
    first read (once; then an attribute like any other). Made on first use: ReportLab is
    imported then, not with this module."""
    from reportlab.pdfbase.ttfonts import TTFontFace

    class KeptFace(TTFontFace):
        def __getattr__(self, name):  # only for an attribute not set (yet)
            kept = self.__dict__.get("_lazy", {}).get(name)
            if kept is None:
                raise AttributeError(name)
            value = self.__dict__[name] = marshal.loads(kept)  # from now on found without asking
            return value

    return KeptFace


def _scale(units_per_em: int):
    """Font units → PDF's thousandths of an em, as ReportLab's parser computes it."""
    if units_per_em == 1000:
        return lambda x: x
    mult = 1000 / units_per_em
    return lambda x: x * mult
