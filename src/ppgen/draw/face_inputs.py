"""What a printed card face is drawn from: its inputs, and their fingerprint.

    inputs = front_inputs(project, card, "ja")   # {"number.atk": 3, "text.effect": "…", "template.atk.fill": "#F5ECD7", …}
    fingerprint(inputs)                          # "3f9a…": equal exactly when the inputs are
    back_inputs(project)                         # the back every card shares

Two fronts whose inputs are equal print the same. The inputs are a flat mapping of
names to plain values (text, numbers, true/false), grouped by the first part of the
name, so a change can be told field by field (`ppgen errata`) and a drawing can be
skipped when nothing it depends on changed (incremental builds, a live preview):

    number.*    the numbers printed: level, atk, def, energy
    text.*      the words as printed in that language, English fallback included
                (name, type line, effect, bonus, level label, small print)
    card.*      data the front draws from beyond those (kind, Commander, Terrain)
    faction.*   the faction's colours and emblem (cards.yaml)
    template.*  the elements and text styles of the card's kind (templates/card.yaml),
                colours resolved for its faction; the frame of what the card is at a
                glance (commander, terrain, its kind) and its illustration's motif
    font.*      the font files of the language (by content), its line breaking, and
                where the glossary keeps the face's words together or breaks a
                compound (its unbreakable phrases and breaks found in the texts)
    art.*       the picture the card prints in that language (art/, art/<lang>/ or
                cards.yaml `art:`): its file, content digest, fit and focus, and the
                resolution it is prepared at

Nothing here reads a file itself: texts come from the project's locales, the
template from read/templates.py, font and picture digests from the GameDir (so a
git revision is fingerprinted from its own files, `ppgen errata`).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import fields

from ..read.model import Card
from ..read.templates import Element, load_card_template, per_language
from ..read.art import ArtError, ArtFolder
from .card_front import DRAWN_COLOURS, frame_kind, motif_key
from .colours import Colours

COLOUR_FIELDS = ("fill", "stroke", "colour")
FONT_ROLES = ("title", "bold", "body")


def fingerprint(inputs: dict) -> str:
    """A short digest of a mapping of inputs: equal exactly when the inputs are."""
    data = json.dumps(inputs, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(data.encode("utf-8")).hexdigest()[:20]


def front_fingerprint(project, card: Card, lang: str) -> str:
    return fingerprint(front_inputs(project, card, lang))


def front_inputs(project, card: Card, lang: str) -> dict:
    """Everything the front of `card` in `lang` is drawn from (see the module's doc)."""
    out: dict = {}
    out.update(number_inputs(card))
    texts = text_inputs(project, card, lang)
    out.update(texts)
    out.update(phrase_inputs(project, texts, lang))
    out.update({"card.kind": card.kind, "card.commander": card.commander, "card.terrain": card.terrain})
    faction = project.game.factions[card.faction]
    out.update({"faction.colour": faction.colour.upper(), "faction.accent": faction.accent.upper(), "faction.emblem": faction.emblem})
    out.update(template_inputs(project, card, lang))
    out.update(look_inputs(project, card))
    out.update(font_inputs(project, lang))
    out.update(art_inputs(project, card, lang))
    return out


def number_inputs(card: Card) -> dict:
    if not card.is_unit:
        return {}
    return {"number.level": card.level, "number.atk": card.atk, "number.def": card.def_, "number.energy": card.energy}


def text_inputs(project, card: Card, lang: str) -> dict:
    """The words of the face as printed (a missing translation prints, and counts as, English)."""
    out = {
        "text.name": project.card_name(card, lang),
        "text.type": project.type_line(card, lang),
        "text.effect": project.card_effect(card, lang),
        "text.small-print": project.small_print(card, lang),
        "text.lang": lang.upper(),
    }
    if card.is_unit:
        out["text.level-label"] = project.locale(lang).get("label.level-short")
    elif card.bonus:
        out["text.bonus"] = project.bonus_text(card, lang)
    return out


def phrase_inputs(project, texts: dict, lang: str) -> dict:
    """Where the glossary's phrases keep words together in the face's texts, and where its
    compounds break (what the text engine takes from the glossary: typeset/phrases.py), by
    text and paragraph; none found: {} (a glossary edit changes only the faces it reaches)."""
    from ..typeset.text import plain

    config = project.config.languages.get(lang)
    if config is None:
        return {}
    phrases, mode = project.phrases(lang), config.line_break
    found = {}
    for name, text in texts.items():
        flat = plain(text) if isinstance(text, str) else ""
        marks = []
        for i, paragraph in enumerate(flat.split("\n")):
            spans, seams = phrases.spans(paragraph, mode), sorted(phrases.seams(paragraph)) if mode == "cjk" else []
            if spans or seams:
                marks.append([i, [list(span) for span in spans], seams])
        if marks:
            found[name.removeprefix("text.")] = marks
    return {"font.phrases": found} if found else {}


def template_inputs(project, card: Card, lang: str) -> dict:
    """The template as this card uses it: the shown elements of its kind and their text
    styles, every colour resolved for the card's faction (a palette colour no element of
    this card uses is not an input). The same for every card of a kind and faction."""
    key = f"face-inputs:template:{card.kind}:{card.faction}:{lang}"
    return dict(project.cached(key, lambda: _template_inputs(project, card.kind, card.faction, lang)))


def _template_inputs(project, kind: str, faction_id: str, lang: str) -> dict:
    template = load_card_template(project)
    faction = project.game.factions[faction_id]
    colours = Colours(template.palette, faction.colour, faction.accent)
    out: dict = {"template.design": f"{template.width:g} × {template.height:g} mm, safe margin {template.safe_margin:g} mm"}
    styles: list[str] = []
    for name, element in template.elements(kind).items():
        if not element.show:
            continue
        for f in fields(Element):
            if f.name in ("name", "show"):
                continue
            value = getattr(element, f.name)
            if f.name in COLOUR_FIELDS:
                value = colours(value)
            if value is not None:
                out[f"template.{name}.{f.name}"] = value
        if element.style and element.style not in styles:
            styles.append(element.style)
    for name in styles:
        style = template.style(name)
        for f in fields(style):
            value = getattr(style, f.name)
            if f.name == "colour":
                value = colours(value)
            elif f.name in ("keyword_max", "single_line_min"):
                value = per_language(value, lang)
            out[f"template.style.{name}.{f.name}"] = value
    for name in DRAWN_COLOURS:
        out[f"template.colour.{name}"] = colours(name)
    return out


def look_inputs(project, card: Card) -> dict:
    """The frame the card wears and the motif its art window shows when it has no picture."""
    template = load_card_template(project)
    faction = project.game.factions[card.faction]
    colours = Colours(template.palette, faction.colour, faction.accent)
    kind = frame_kind(card)
    frame = template.frame(kind)
    out = {f"frame.{f.name}": colours(getattr(frame, f.name)) if f.name in ("colour", "trim", "background", "header")
           else getattr(frame, f.name) for f in fields(frame)}
    out["frame.kind"] = kind
    out["illustration.motif"] = template.motif(motif_key(card))
    return out


def font_inputs(project, lang: str) -> dict:
    """The language's font chains, each file by name and content, and how lines break."""
    return dict(project.cached(f"face-inputs:fonts:{lang}", lambda: _font_inputs(project, lang)))


def _font_inputs(project, lang: str) -> dict:
    config = project.config.languages.get(lang)
    if config is None:  # a locale without fonts in ppgen.yaml: it cannot be drawn (build says so)
        return {"font.chains": None}
    out = {"font.line-break": config.line_break}
    for role in FONT_ROLES:
        files = config.fonts.get(role, ())
        out[f"font.{role}"] = " > ".join(f"{name} ({_font_digest(project, name)})" for name in files)
    return out


def _font_digest(project, name: str) -> str:
    def digest():
        found = project.dir.digest(project.dir.fonts / name)
        return found[:12] if found else "missing"

    return project.cached(f"digest:fonts/{name}", digest)  # a font file is read once per project


def art_inputs(project, card: Card, lang: str) -> dict:
    """The picture `card` prints in `lang` (none: {}), by file and content, with how it fits."""
    folder = project.cached("art-folder", lambda: ArtFolder.scan(project.dir, project.languages))
    try:
        source = folder.source(project.game, card, lang)
    except ArtError as exc:  # a file that cannot be a picture: the build refuses it; here it is what is there
        return {"art.problem": str(exc)}
    if source is None:
        return {}
    return {
        "art.file": source.shown,
        "art.digest": project.dir.digest(source.path),
        "art.fit": card.art_fit,
        "art.focus": list(card.art_focus) if card.art_focus else None,
        "art.max_dpi": float((project.config.build or {}).get("art_max_dpi") or 600),
    }


def back_inputs(project) -> dict:
    """The backs every card may get (each variant of templates/card.yaml `backs:`): their colours,
    and the safe margin the template keeps."""
    template = load_card_template(project)
    out = {f"back.{name}.{key}": value.upper() for name, back in template.backs.items() for key, value in sorted(back.items()) if value}
    out["back.design"] = f"{template.width:g} × {template.height:g} mm, safe margin {template.safe_margin:g} mm"
    return out
