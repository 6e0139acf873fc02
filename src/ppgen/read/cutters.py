"""Cutting machines, `templates/cutters.yaml`: registration marks, print area, defaults.

Each machine is data (see the file's header): where its software expects its marks, how
large they are, the zone around each mark nothing else may enter, the largest print it
accepts; or, for software that prints the page itself from an uploaded picture (Cricut
Design Space), the resolution of that picture. `impose/cutter.py` lays card sheets out from a `Cutter`; nothing else knows a
machine by name. Every problem is reported at templates/cutters.yaml:line:col.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import DataError, Problem, UsageError
from .schema import Field, check_mapping, did_you_mean
from .yamlio import load_yaml

CORNERS = ("top-left", "top-right", "bottom-left", "bottom-right")
MARK_KINDS = ("square", "bracket")


def _length(lo: float, hi: float):
    def check(v):
        return None if lo <= v <= hi else f"must be between {lo:g} and {hi:g} mm, not {v}"

    return check


def _area(v):
    if len(v) != 2 or not all(isinstance(x, (int, float)) and not isinstance(x, bool) and 20 <= x <= 1000 for x in v):
        return "must be [width, height] in mm, each between 20 and 1000"
    return None


def _pattern(v):
    for corner, kind in v.items():
        if corner not in CORNERS:
            return f"names an unknown corner '{corner}'{did_you_mean(corner, CORNERS)} (corners: {', '.join(CORNERS)})"
        if kind not in MARK_KINDS:
            return f"puts an unknown mark '{kind}' at {corner}{did_you_mean(kind, MARK_KINDS)} (marks: {', '.join(MARK_KINDS)})"
    return None if v else "names no mark"


CUTTER_SPEC = {
    "name": Field(str, True, help="the machine, as messages name it"),
    "software": Field(str, True, help="the program that drives it"),
    "bleed": Field(float, True, check=_length(0, 10), help="default --bleed, mm"),
    "gap": Field(float, True, check=_length(0, 50), help="default --gutter, mm"),
    "margin": Field(float, False, 5.0, check=_length(0, 50), help="cards stay this far inside the paper edge"),
    "area": Field(list, False, check=_area, help="[width, height] of the largest print, centred on the paper"),
    "marks": Field(dict, False, help="registration marks; absent: none"),
    "upload": Field(dict, False, help="the software prints the page itself from an uploaded picture"),
}

UPLOAD_SPEC = {
    "dpi": Field(float, True, check=lambda v: None if 72 <= v <= 1200 else f"must be between 72 and 1200, not {v}",
                 help="the PNG's resolution"),
}

MARKS_SPEC = {
    "pattern": Field(dict, True, check=_pattern),
    "inset": Field(float, False, check=_length(0, 100), help="paper edge to the marks' outer edges"),
    "outside": Field(float, False, check=_length(0, 100), help="print area to the marks' outer edges"),
    "square": Field(float, True, check=_length(0.5, 50)),
    "length": Field(float, True, check=_length(1, 100)),
    "thickness": Field(float, True, check=_length(0.05, 10)),
    "keep_out": Field(float, True, check=_length(0, 100)),
    "clearance": Field(float, False, 0.0, check=_length(0, 50)),
}


@dataclass(frozen=True)
class Marks:
    pattern: tuple[tuple[str, str], ...]  # (corner, "square" | "bracket")
    square: float  # mm
    length: float
    thickness: float
    keep_out: float
    clearance: float
    inset: float | None = None  # from the paper edge …
    outside: float | None = None  # … or from the print area


@dataclass(frozen=True)
class Cutter:
    key: str  # silhouette | cricut | scanncut …
    name: str
    software: str
    bleed: float  # mm
    gap: float
    margin: float
    area: tuple[float, float] | None = None  # mm, centred on the paper
    marks: Marks | None = None
    upload_dpi: float | None = None  # the software prints from an uploaded PNG of this resolution (no marks of ppgen's)

    @property
    def uploads(self) -> bool:
        """Its software prints the page itself, from an uploaded picture and a cut file."""
        return self.upload_dpi is not None


def load_cutters(project) -> dict[str, Cutter]:
    """Every machine of templates/cutters.yaml, checked, read once per project."""
    return project.cached("template:cutters", lambda: cutters_from(project.dir.yaml(project.dir.template("cutters"))))


def cutter(project, key: str) -> Cutter:
    """The machine named `key`, or a UsageError naming the ones there are."""
    cutters = load_cutters(project)
    if key not in cutters:
        raise UsageError(f"--cutter: unknown cutting machine '{key}'{did_you_mean(key, cutters)} (machines: {', '.join(cutters)})")
    return cutters[key]


def read_cutters(path, root=None) -> dict[str, Cutter]:
    """Load and check a cutters file; DataError with file:line:col for every problem."""
    return cutters_from(load_yaml(path, root))


def cutters_from(doc) -> dict[str, Cutter]:
    """The machines of a cutters file's YAML document, checked."""
    problems: list[Problem] = []
    data = doc.data if doc.data is not None else {}
    if not isinstance(data, dict) or not data:
        raise DataError([doc.problem((), "cutters.yaml must map machine names to their settings")])
    out: dict[str, Cutter] = {}
    for key, value in data.items():
        before = len(problems)
        c = check_mapping(doc, (key,), value, CUTTER_SPEC, problems, f"cutter '{key}'")
        if c is None:
            continue
        marks = None
        if c["marks"] is not None:
            checked = len(problems)
            m = check_mapping(doc, (key, "marks"), c["marks"], MARKS_SPEC, problems, f"the marks of '{key}'")
            if len(problems) > checked:  # a value reported (and left None): nothing more to read from them
                m = None
            if m is not None and (m["inset"] is None) == (m["outside"] is None):
                problems.append(doc.problem((key, "marks"), f"the marks of '{key}' need either 'inset' (from the paper edge) "
                                            "or 'outside' (from the print area), not both or neither", "missing-key"))
            elif m is not None and m["outside"] is not None and c["area"] is None:
                problems.append(doc.problem((key, "marks", "outside"), f"'outside' places marks around the print area: '{key}' needs an 'area'", "value"))
            elif m is not None:
                marks = Marks(tuple(m["pattern"].items()), float(m["square"]), float(m["length"]), float(m["thickness"]),
                              float(m["keep_out"]), float(m["clearance"]), m["inset"], m["outside"])
        dpi = None
        if c["upload"] is not None:
            u = check_mapping(doc, (key, "upload"), c["upload"], UPLOAD_SPEC, problems, f"the upload of '{key}'")
            if u is not None and c["marks"] is not None:
                problems.append(doc.problem((key, "marks"), f"'{key}' prints from an upload (its software adds its own marks): "
                                            "it cannot have 'marks' too", "value"))
            elif u is not None and u["dpi"] is not None:
                dpi = float(u["dpi"])
        if len(problems) == before:
            area = tuple(float(x) for x in c["area"]) if c["area"] else None
            out[key] = Cutter(key, c["name"], c["software"], float(c["bleed"]), float(c["gap"]), float(c["margin"]), area, marks, dpi)
    if problems:
        raise DataError(problems)
    return out


__all__ = ["CORNERS", "Cutter", "Marks", "cutter", "load_cutters", "read_cutters"]
