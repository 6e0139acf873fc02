"""Exactly what a print service asks for, deck by deck, checked before anyone uploads it.

    order = Order.plan(project, service, langs=("en",), out=Path("out"), decks=starter_decks(project))
    result = make(project, order, progress)   # writes the files, then preflights each one
    result.files, result.preflight, result.notes

A PDF service (a print shop, DriveThruCards) gets one PDF/X file per deck, one face per
page in its order (write/printshop.py): `<out>/<lang>/<service>/<deck>-<lang>.pdf`. A picture
service (The Game Crafter, MakePlayingCards, PrinterStudio) gets one PNG per distinct front
at its pixel size, `back.png`, and `upload.txt` (each picture's quantity), in
`<out>/<lang>/<service>/<deck>/` — rendered from the same faces (export/png.py). Every file
is preflighted against the service's profile afterwards (preflight.py: for pictures, also
the faces PDF they were rendered from, where text and resolution can be measured). A deck
whose size the service does not sell is named with the nearest sizes and what they mean.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from ..draw.faces import CardGeometry
from ..errors import UsageError
from ..read.services import BUILD_SIZE, PDFX_VERSIONS, Service, card_size_of
from ..units import MM, check_length, fmt_mm
from ..write.report import BuildReport
from .preflight import Profile, Result, check_pdf, check_pictures

Progress = Callable[[int, int, str], None]


@dataclass(frozen=True)
class Deck:
    name: str  # file name stem: starter-rome, my-deck
    cards: tuple  # every copy, in deck order


def starter_decks(project, factions: Sequence[str] = ()) -> list[Deck]:
    return [Deck(f"starter-{f}", tuple(c for c, n in project.game.starter_deck(f) for _ in range(n)))
            for f in (factions or project.game.factions)]


def decklist_deck(name: str, cards) -> Deck:
    return Deck(name, tuple(c for c, n in cards for _ in range(n)))


@dataclass(frozen=True)
class Order:
    service: Service
    langs: tuple[str, ...]
    out: Path
    decks: tuple[Deck, ...]
    geometry: CardGeometry
    size_name: str  # "poker 2.5 × 3.5 in", "63 × 88 mm"
    pdfx: str | None = None  # the standard of a PDF service's files (--pdfx over the service's)
    bleed: float = 0.0  # mm
    back: str | None = None  # the card back's variant (templates/card.yaml `backs:`); None = the first
    size: str | None = None  # the service's card size (poker …); None: the build's own (a print shop)

    @classmethod
    def plan(cls, project, service: Service, langs, out: Path, decks, card_size: str | None = None,
             bleed: float | str | None = None, pdfx: str | None = None, back: str | None = None) -> "Order":
        """Check the options against the service before anything is drawn."""
        from ..units import MAX_BLEED, parse_card_size

        if pdfx is not None and service.file != "pdf":
            raise UsageError(f"--pdfx: {service.name} takes pictures, not a PDF (--pdfx is for print shops' PDFs)")
        if pdfx is not None and pdfx != service.pdfx and service.key != "print-shop":
            raise UsageError(f"--pdfx: {service.name} asks for {PDFX_VERSIONS[service.pdfx]}; only --for print-shop takes another standard")
        if bleed is not None and service.key != "print-shop":
            raise UsageError(f"--bleed: {service.name} asks for {service.bleed:g} mm; only --for print-shop takes another bleed")
        try:
            b = service.bleed if bleed is None else check_length(bleed, "--bleed", 0, MAX_BLEED)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        key, inches = card_size_of(service, card_size)
        if key == BUILD_SIZE:
            try:
                size = parse_card_size(card_size or (project.config.build or {}).get("card_size") or "poker")
            except ValueError as exc:
                raise UsageError(f"--card-size: {exc}") from None
            geometry = CardGeometry.from_mm(size.width, size.height, b)
            name = f"{fmt_mm(size.width)} × {fmt_mm(size.height)} mm"
        else:
            geometry = CardGeometry(inches[0] * 72, inches[1] * 72, b * MM)
            name = f"{key} {inches[0]:g} × {inches[1]:g} in"
        return cls(service, tuple(langs), Path(out), tuple(decks), geometry, name, pdfx or service.pdfx, b, back,
                   None if key == BUILD_SIZE else key)

    @property
    def profile(self) -> Profile:
        return Profile.of(self.service, self.pdfx, self.bleed, self.size)

    @property
    def upload(self) -> str:
        """What to do with the files at the service: its `upload:` text, {size} the card size
        ordered (The Game Crafter's "make a tarot deck" for --card-size tarot, not "poker")."""
        return self.service.upload.replace("{size}", self.size or "card")

    def folder(self, lang: str) -> Path:
        """Where a language's files for the service go: OUT/LANG/SERVICE."""
        return self.out / lang / self.service.key

    def describe(self) -> str:
        s = self.service
        what = PDFX_VERSIONS.get(self.pdfx, "PNG")
        colour = f"CMYK ({s.condition.identifier}, total ink ≤ {s.condition.total_ink:g} %)" if s.cmyk else "sRGB"
        faces = "one face per page" if s.file == "pdf" else "one picture per face"
        return (f"{s.name}: {what}, {colour}, {self.size_name} + {self.bleed:g} mm bleed, {s.dpi:g} dpi, "
                f"{faces}, {len(self.decks)} {'deck' if len(self.decks) == 1 else 'decks'}")


@dataclass
class OrderResult:
    files: list[Path] = field(default_factory=list)  # every file written
    uploads: list[Path] = field(default_factory=list)  # what to upload: a PDF per deck, or a folder of pictures per deck
    notes: list[str] = field(default_factory=list)  # deck sizes against the service's
    report: BuildReport = field(default_factory=BuildReport)
    preflight: Result | None = None
    bytes: int = 0


def make(project, order: Order, progress: Progress | None = None, jobs: int | None = None) -> OrderResult:
    """Write every deck of every language for the service, then preflight what was written. A
    print shop's PDFs are drawn `jobs` at a time, in worker processes (default: one per core)."""
    import os
    from contextlib import closing

    result = OrderResult(preflight=Result(order.profile))
    keys = [(lang, i) for lang in order.langs for i in range(len(order.decks))]
    if order.service.file == "pdf":
        from ..write.workers import in_workers

        calls = {(lang, i): (_deck_pdf, (order, order.decks[i], lang)) for lang, i in keys}
        jobs = min(len(keys), jobs or os.cpu_count() or 1)
        project.load_languages(order.langs)  # before the workers fork
        with closing(in_workers(project, jobs, calls)) as drawn_decks:  # closed here (Ctrl-C, a failed write): the workers end
            for done, ((lang, i), drawn) in enumerate(drawn_decks, 1):
                _take_pdf(order, order.decks[i], lang, drawn, result)
                if progress:
                    progress(done, len(keys), f"{lang}: {order.decks[i].name}")
    else:
        for done, (lang, i) in enumerate(keys):
            if progress:
                progress(done, len(keys), f"{lang}: {order.decks[i].name}")
            _pictures(project, order, order.decks[i], lang, result)
    if progress:
        progress(len(keys), len(keys), "done")
    result.notes = [note for deck in order.decks if (note := deck_size_note(order.service, deck))]
    return result


def _deck_path(order: Order, deck: Deck, lang: str) -> Path:
    return order.folder(lang) / f"{deck.name}-{lang}.pdf"


def _deck_pdf(project, order: Order, deck: Deck, lang: str):
    """A deck's PDF for a print shop (run in a worker): its bytes, the warnings drawing it gave,
    and its preflight."""
    from ..write.printshop import deck_pdf
    from ..write.report import fallbacks_reported

    title = f"{project.config.game} — {deck.name} ({lang})"
    report = BuildReport()
    with fallbacks_reported(project.locale(lang), report):
        data = deck_pdf(project, deck.cards, lang, order.geometry, order.service, report, order.pdfx, title, order.back)
    return data, report.warnings, check_pdf(_deck_path(order, deck, lang), order.profile, data)


def _take_pdf(order: Order, deck: Deck, lang: str, drawn, result: OrderResult) -> None:
    """A deck's PDF drawn: written (atomically), its warnings and preflight added to `result`."""
    from ..write.atomic import write_atomic

    data, warnings, checked = drawn
    for w in warnings:
        result.report.warning(w.code, w.message, w.lang, w.subject, w.strict)
    path = _deck_path(order, deck, lang)
    write_atomic(path, data)
    result.files.append(path)
    result.uploads.append(path)
    result.bytes += len(data)
    result.preflight.files.append(checked)


def _pictures(project, order: Order, deck: Deck, lang: str, result: OrderResult) -> None:
    from ..export.png import CardImage, export_png
    from ..export.raster import card_raster
    from ..write.atomic import write_atomic

    deck_folder = order.folder(lang) / deck.name
    counts: dict[str, int] = {}
    distinct = {}
    for card in deck.cards:
        counts[card.id] = counts.get(card.id, 0) + 1
        distinct.setdefault(card.id, card)
    image = CardImage(order.geometry, card_raster(order.geometry, order.service.dpi), order.size_name)
    exported = export_png(project, lang, deck_folder, image, list(distinct.values()), back=order.back)
    for w in exported.report.warnings:
        result.report.warning(w.code, w.message, w.lang, w.subject)
    lines = [f"{order.service.name}: {deck.name} ({lang}), {len(deck.cards)} cards, {image.size.width} × {image.size.height} px each",
             "", "picture        quantity  card"]
    lines += [f"{card.code + '.png':<14} {counts[card.id]:>8}  {project.card_name(card, lang)}" for card in distinct.values()]
    lines += [f"{'back.png':<14} {'':>8}  the back of every card", "", f"To upload: {order.upload}."]
    if note := deck_size_note(order.service, deck):
        lines += ["", note]
    manifest = deck_folder / "upload.txt"
    write_atomic(manifest, "\n".join(lines) + "\n")
    result.files += exported.files + [manifest]
    result.uploads.append(deck_folder)
    result.bytes += exported.bytes
    faces = check_pdf(deck_folder / "(the faces these pictures were rendered from)", order.profile.of_faces(), exported.source_pdf)
    result.preflight.files.extend(check_pictures(sorted(p for p in exported.files if p.suffix == ".png"), order.profile, deck_folder))
    if faces.problems:
        result.preflight.files.append(faces)


def deck_size_note(service: Service, deck: Deck) -> str | None:
    """A deck the service does not sell in that size: the nearest sizes and what each means."""
    sizes = service.deck_sizes
    n = len(deck.cards)
    if sizes is None or sizes.fit(n) is None:
        return None
    options = []
    bigger = [s for s in sizes.all() if s > n]
    smaller = [s for s in sizes.all() if s < n]
    if bigger:
        options.append(f"{bigger[0]} ({bigger[0] - n} blank or extra cards to fill)")
    if smaller:
        options.append(f"{smaller[-1]} ({n - smaller[-1]} cards too many: leave them out)")
    nearest = sizes.nearest(n)
    return (f"{deck.name}: {n} cards is not a deck size {service.name} sells ({sizes.describe()}); "
            f"the nearest is {nearest}: order {' or '.join(options)}")
