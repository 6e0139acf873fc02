"""The rulebook's structure, `templates/rulebook.yaml`: its title texts, the sections in
order, each a list of blocks (paragraph, bullets, numbered) naming locale keys, and
the card reference. Every key must name a text of the source locale (file:line:col).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import DataError, Problem
from .schema import Field, check_mapping

# ── the structure (templates/rulebook.yaml) ───────────────────────────────
BLOCK_KINDS = ("paragraph", "bullets", "numbered")


STRUCTURE_SPEC = {
    "title": Field(str, True),
    "subtitle": Field(str, True),
    "tagline": Field(str, True),
    "intro": Field(str, True),
    "sections": Field(list, True),
    "reference": Field(dict, True),
    "colophon": Field(str, True),
}


SECTION_SPEC = {
    "id": Field(str, True),
    "heading": Field(str, True),
    "blocks": Field(list, True),
    "panel": Field(bool, False, False, help="set the section's blocks on a shaded panel (worked examples)"),
}


BLOCK_SPEC = {
    "paragraph": Field(str),
    "bullets": Field(list),
    "numbered": Field(list),
}


REFERENCE_SPEC = {k: Field(str, True) for k in ("heading", "intro", "units", "doctrines_tactics", "doctrines_tactics_intro")}


@dataclass(frozen=True)
class Section:
    id: str
    heading: str  # locale key
    blocks: tuple[tuple[str, tuple[str, ...]], ...]  # (kind, locale keys)
    panel: bool = False


@dataclass(frozen=True)
class Structure:
    title: str
    subtitle: str
    tagline: str
    intro: str
    sections: tuple[Section, ...]
    reference: dict
    colophon: str


def load_structure(project) -> Structure:
    """Read templates/rulebook.yaml; every key must name an English text (DataError at file:line:col)."""
    doc = project.dir.yaml(project.dir.template("rulebook"))
    problems: list[Problem] = []
    english = project.locale(project.config.source_language)

    def key_at(path, value):
        if isinstance(value, str) and not english.has(value):
            problems.append(doc.problem(path, f"'{value}' is not a key of the source locale", "unknown-key"))
        elif not isinstance(value, str):
            problems.append(doc.problem(path, "must be a locale key such as rules.goal.1", "type"))
        return value

    top = check_mapping(doc, (), doc.data if doc.data is not None else {}, STRUCTURE_SPEC, problems, "rulebook.yaml")
    if top is None:
        raise DataError(problems)
    for k in ("title", "subtitle", "tagline", "intro", "colophon"):
        if top[k] is not None:
            key_at((k,), top[k])
    sections: list[Section] = []
    seen_ids: set[str] = set()
    for si, sdata in enumerate(top["sections"] or []):
        spath = ("sections", si)
        s = check_mapping(doc, spath, sdata, SECTION_SPEC, problems, "a section")
        if s is None or s["id"] is None:
            continue
        if s["id"] in seen_ids:
            problems.append(doc.problem(spath + ("id",), f"duplicate section id '{s['id']}'", "duplicate"))
        seen_ids.add(s["id"])
        key_at(spath + ("heading",), s["heading"])
        blocks = []
        for bi, bdata in enumerate(s["blocks"] or []):
            bpath = spath + ("blocks", bi)
            b = check_mapping(doc, bpath, bdata, BLOCK_SPEC, problems, "a block")
            if b is None:
                continue
            kinds = [k for k in BLOCK_KINDS if isinstance(bdata, dict) and k in bdata]
            if len(kinds) != 1:
                problems.append(doc.problem(bpath, f"a block is exactly one of {', '.join(BLOCK_KINDS)}", "value"))
                continue
            kind = kinds[0]
            keys = [b[kind]] if kind == "paragraph" else list(b[kind] or [])
            for ki, key in enumerate(keys):
                key_at(bpath + ((kind,) if kind == "paragraph" else (kind, ki)), key)
            blocks.append((kind, tuple(keys)))
        sections.append(Section(s["id"], s["heading"], tuple(blocks), bool(s["panel"])))
    ref = check_mapping(doc, ("reference",), top["reference"], REFERENCE_SPEC, problems, "reference") or {}
    for k, v in ref.items():
        if v is not None:
            key_at(("reference", k), v)
    if problems:
        raise DataError(problems)
    return Structure(top["title"], top["subtitle"], top["tagline"], top["intro"], tuple(sections), ref, top["colophon"])
