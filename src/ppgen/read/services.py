"""Print services, `templates/services.yaml`: what each one takes, as data.

A `Service` says which file it wants (one PDF per deck, PDF/X-1a or X-4; or one picture
per face), the card sizes it prints, its bleed, resolution, safe zone, the order of the
faces, the deck sizes it sells and what to upload. A `Condition` is a printing condition:
its ICC output profile (templates/icc/) and how a PDF/X OutputIntent names it. Nothing else
knows a service by name; every problem is reported at templates/services.yaml:line:col.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import DataError, Problem, UsageError
from ..units import TRADE_SIZES_IN
from .schema import Field, check_mapping, did_you_mean, one_of
from .yamlio import load_yaml

FILES = ("pdf", "png")
PDFX_VERSIONS = {"x1a": "PDF/X-1a:2001", "x4": "PDF/X-4"}  # --pdfx and services.yaml `pdfx:` → the standard
PDFX = tuple(PDFX_VERSIONS)
ORDERS = ("front-back", "back-front", "fronts-then-backs", "faces")
BUILD_SIZE = "build"  # the build's own --card-size (a print shop cuts whatever it is sent)
MAX_PROFILE_BYTES = 8 * 2**20


def _between(lo: float, hi: float, unit: str = ""):
    def check(v):
        return None if lo <= v <= hi else f"must be between {lo:g} and {hi:g}{unit}, not {v}"

    return check


def _sizes(v):
    known = (BUILD_SIZE, *TRADE_SIZES_IN)
    for size in v:
        if size not in known:
            return f"names an unknown card size '{size}'{did_you_mean(str(size), known)} (sizes: {', '.join(known)})"
    return None if v else "names no card size"


def _deck_sizes(v):
    if isinstance(v, list):
        ok = v and all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in v) and v == sorted(set(v))
        return None if ok else "must list whole numbers of cards, smallest first"
    if set(v) != {"step", "max"} or not all(isinstance(v[k], int) and not isinstance(v[k], bool) and v[k] > 0 for k in v):
        return "must be a list of deck sizes or {step: N, max: M} (whole numbers of cards)"
    return None if v["max"] >= v["step"] else "'max' must be at least 'step'"


CONDITION_SPEC = {
    "identifier": Field(str, True, help="OutputConditionIdentifier"),
    "registry": Field(str, False, "http://www.color.org", help="RegistryName"),
    "info": Field(str, True, help="Info: the condition described for people"),
    "profile": Field(str, True, help="the ICC output profile, relative to templates/"),
    "total_ink": Field(float, True, check=_between(100, 400, " %"), help="highest C+M+Y+K, %"),
}

SERVICE_SPEC = {
    "name": Field(str, True),
    "file": Field(str, True, check=one_of(*FILES)),
    "pdfx": Field(str, False, check=one_of(*PDFX)),
    "condition": Field(str, False),
    "sizes": Field(list, True, check=_sizes),
    "bleed": Field(float, True, check=_between(0, 10, " mm")),
    "dpi": Field(float, True, check=_between(72, 1200)),
    "safe": Field(float, False, 3.0, check=_between(0, 20, " mm")),
    "order": Field(str, True, check=one_of(*ORDERS)),
    "deck_sizes": Field((list, dict), False, check=_deck_sizes),
    "upload": Field(str, True),
}

FILE_SPEC = {
    "conditions": Field(dict, False, {}),
    "services": Field(dict, True),
}


@dataclass(frozen=True)
class Condition:
    """A printing condition: how an OutputIntent names it, and its ICC profile."""

    key: str
    identifier: str
    registry: str
    info: str
    profile: Path  # the .icc file
    total_ink: float  # %


@dataclass(frozen=True)
class DeckSizes:
    """The deck sizes a service sells: `sizes` listed, or every `step` up to `max`."""

    sizes: tuple[int, ...] = ()
    step: int = 0
    max: int = 0

    def all(self) -> tuple[int, ...]:
        return self.sizes or tuple(range(self.step, self.max + 1, self.step))

    def fit(self, cards: int) -> tuple[int, int] | None:
        """(the smallest deck size holding `cards`, cards left blank) — None when it matches
        a size exactly; (largest size, −cards over) when no size is large enough."""
        sizes = self.all()
        if cards in sizes:
            return None
        bigger = [n for n in sizes if n >= cards]
        if bigger:
            return bigger[0], bigger[0] - cards
        return sizes[-1], sizes[-1] - cards

    def nearest(self, cards: int) -> int:
        return min(self.all(), key=lambda n: (abs(n - cards), -n))

    def describe(self) -> str:
        if self.sizes:
            return ", ".join(str(n) for n in self.sizes)
        return f"{self.step}, {2 * self.step}, {3 * self.step} … {self.max}"


@dataclass(frozen=True)
class Service:
    key: str  # drivethrucards …
    name: str
    file: str  # pdf | png
    sizes: tuple[str, ...]  # card size keys (TRADE_SIZES_IN) or "build"
    bleed: float  # mm
    dpi: float
    safe: float  # mm inside the trim
    order: str
    upload: str
    pdfx: str | None = None  # x1a | x4 (pdf)
    condition: Condition | None = None  # None: sRGB pictures
    deck_sizes: DeckSizes | None = None  # None: any count

    @property
    def cmyk(self) -> bool:
        return self.condition is not None


def load_services(project) -> dict[str, Service]:
    """Every service of templates/services.yaml, checked, read once per project."""
    gamedir = project.dir
    return project.cached("template:services", lambda: services_from(gamedir.yaml(gamedir.template("services")), gamedir.templates))


def service(project, key: str, option: str = "--for") -> Service:
    """The service named `key`, or a UsageError naming the ones there are."""
    services = load_services(project)
    name = str(key).strip().lower()
    if name not in services:
        raise UsageError(f"{option}: unknown print service '{key}'{did_you_mean(name, services)} (services: {', '.join(services)})")
    return services[name]


def read_services(path, root=None) -> dict[str, Service]:
    """Load and check a services file; DataError with file:line:col for every problem."""
    path = Path(path)
    return services_from(load_yaml(path, root), path.parent)


def services_from(doc, templates: Path) -> dict[str, Service]:
    """The services of a services file's YAML document, checked (profiles relative to `templates`)."""
    problems: list[Problem] = []
    top = check_mapping(doc, (), doc.data if doc.data is not None else {}, FILE_SPEC, problems, "services.yaml")
    if top is None or problems:
        raise DataError(problems or [doc.problem((), "services.yaml must map 'conditions' and 'services'")])
    conditions = _conditions(doc, top["conditions"] or {}, templates, problems)
    out: dict[str, Service] = {}
    for key, value in (top["services"] or {}).items():
        before = len(problems)
        s = check_mapping(doc, ("services", key), value, SERVICE_SPEC, problems, f"service '{key}'")
        if s is None or len(problems) > before:
            continue
        where = ("services", key)
        if s["condition"] is not None and s["condition"] not in conditions:
            problems.append(doc.problem(where + ("condition",), f"'condition' names an unknown printing condition "
                                        f"'{s['condition']}'{did_you_mean(s['condition'], conditions)} (conditions: {', '.join(conditions) or 'none'})", "value"))
        if s["file"] == "pdf" and s["pdfx"] is None:
            problems.append(doc.problem(where, f"service '{key}' makes a PDF: it needs 'pdfx' (x1a or x4)", "missing-key"))
        if s["file"] == "pdf" and s["condition"] is None:
            problems.append(doc.problem(where, f"service '{key}' makes a PDF/X file: it needs a CMYK 'condition'", "missing-key"))
        if s["file"] == "png" and s["pdfx"] is not None:
            problems.append(doc.problem(where + ("pdfx",), f"service '{key}' takes pictures (file: png): 'pdfx' is for PDFs", "value"))
        if (s["file"] == "png") != (s["order"] == "faces"):
            problems.append(doc.problem(where + ("order",), "'order: faces' (one picture per face) goes with 'file: png', and only there", "value"))
        if len(problems) > before:
            continue
        out[key] = Service(key, s["name"], s["file"], tuple(s["sizes"]), float(s["bleed"]), float(s["dpi"]), float(s["safe"]),
                           s["order"], " ".join(s["upload"].split()), s["pdfx"], conditions.get(s["condition"]),
                           _sizes_of(s["deck_sizes"]))
    if problems:
        raise DataError(problems)
    return out


def _conditions(doc, data: dict, templates: Path, problems: list[Problem]) -> dict[str, Condition]:
    out = {}
    for key, value in data.items():
        before = len(problems)
        c = check_mapping(doc, ("conditions", key), value, CONDITION_SPEC, problems, f"printing condition '{key}'")
        if c is None or len(problems) > before:
            continue
        profile = templates / c["profile"]
        if not profile.is_file():
            problems.append(doc.problem(("conditions", key, "profile"), f"'profile' names {c['profile']}, which is not in "
                                        f"{templates.name}/ (an ICC output profile, e.g. icc/ppgen-swop-tr003-240.icc)", "value"))
            continue
        out[key] = Condition(key, c["identifier"], c["registry"], c["info"], profile, float(c["total_ink"]))
    return out


def _sizes_of(value) -> DeckSizes | None:
    if value is None:
        return None
    if isinstance(value, list):
        return DeckSizes(tuple(value))
    return DeckSizes(step=value["step"], max=value["max"])


def card_size_of(service_: Service, chosen: str | None) -> tuple[str, tuple[float, float] | None]:
    """The card size a service prints: `chosen` (--card-size) if it prints it, else its first, as
    (key, (width, height) in inches); a print shop (`build`) cuts the build's own size: (build, None)."""
    if BUILD_SIZE in service_.sizes:
        return BUILD_SIZE, None
    key = (chosen or service_.sizes[0]).strip().lower()
    if key not in service_.sizes:
        raise UsageError(f"--card-size: {service_.name} prints {', '.join(service_.sizes)} cards, not '{chosen}'{did_you_mean(key, service_.sizes)}")
    return key, TRADE_SIZES_IN[key]


__all__ = ["Condition", "DeckSizes", "Service", "card_size_of", "load_services", "read_services", "service"]
