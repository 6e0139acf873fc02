"""Card fronts: units, Doctrines and Tactics, drawn from the card template.

`FrontFace` lays every text out in its constructor (so overflow is known and
reported before anything is drawn), then `draw(canvas)` paints the card into
(0, 0)–(width, height) of the bleed box. Geometry, colours and text styles
come from `templates/card.yaml` (read/templates.py); nothing here hard-codes a
position that a designer might want to move.

Every text goes through the text engine (typeset/text.py): font chains per
language, kinsoku, shrink-to-fit, clipping. A character no font can draw is a
GlyphError naming the locale key and its file:line:col.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from ..read.model import COMMANDER_MARK, Card
from ..read.templates import Element, TextStyle, load_card_template, scaled
from ..typeset import text as textengine
from ..units import MM
from .colours import Colours, mix, rl
from .emblems import draw_emblem, draw_icon
from .faces import form_name

NBSP = "\u00a0"
# Colours the drawing asks for by name where the template says none (or besides what it says):
# what a front depends on beyond its elements' own colours (draw/face_inputs.py).
DRAWN_COLOURS = ("faction", "faction-dark", "faction-light", "accent", "ink", "mix(parchment, faction, 0.1)")

# A sentence starts at the start of the text, after a newline, or after a full stop.
_SENTENCE_START = re.compile(r"(?:^|\n|(?<=[.!?])\s+|(?<=[。！？]))")
_SENTENCE_END = re.compile(r"[.!?。！？\n]")


# ── where a text comes from ────────────────────────────────────────────────
def check_emblem(project, faction) -> None:
    """An emblem id cards.yaml names must be one emblems.py can draw."""
    from ..errors import DataError, Problem
    from ..read.schema import did_you_mean
    from .emblems import EMBLEMS

    if faction.emblem in EMBLEMS:
        return
    game = project.game
    index = list(game.factions).index(faction.id)
    file, (line, col) = (game.doc.file, game.doc.mark(("factions", index, "emblem"))) if game.doc else ("cards.yaml", (0, 0))
    raise DataError([Problem(file, line, col, f"unknown emblem '{faction.emblem}'{did_you_mean(faction.emblem, EMBLEMS)} (emblems: {', '.join(EMBLEMS)})", "unknown-ref")])


# ── key words in bold ──────────────────────────────────────────────────────
def bold_keywords(text: str, max_em: float, width_em) -> str:
    """Set a short leading clause in bold: "On Deploy:", "Once per turn:", "配備時：".

    The rule works the same in every language, without per-card markup: at the
    start of the text or of a sentence, a clause that ends in ":" or "：" (with
    no sentence end before it) is bold when it is at most `max_em` ems wide
    (`width_em(clause)` measures it at 1 pt); its spaces become no-break
    spaces, so a key word is never split across lines. A text that already
    has `**` markup is left as the translator wrote it.
    """
    if max_em <= 0 or "**" in text:
        return text
    out: list[str] = []
    pos = 0
    for m in _SENTENCE_START.finditer(text):
        start = m.end()
        if start < pos or start >= len(text):
            continue
        colon = _clause_end(text, start)
        if colon is None:
            continue
        clause = text[start : colon + 1]
        if clause.strip() and width_em(clause) <= max_em:
            out.append(text[pos:start])
            out.append(f"**{clause.replace(' ', NBSP)}**")  # a key word is never broken across lines
            pos = colon + 1
    out.append(text[pos:])
    return "".join(out)


def marked_effect(project, card, lang: str, style: TextStyle) -> str:
    """The effect text of `card` in `lang`, its key words marked bold by the style's rule."""
    text = project.card_effect(card, lang)
    limit = style.keyword_limit(lang)
    if limit <= 0:
        return text
    bold = project.fonts.chain(lang, "bold")
    return bold_keywords(text, limit, lambda clause: bold.width(clause, 1.0))


def _clause_end(text: str, start: int) -> int | None:
    for i in range(start, len(text)):
        ch = text[i]
        if ch == "：" or (ch == ":" and (i + 1 == len(text) or text[i + 1] in " \n")):
            return i
        if _SENTENCE_END.match(ch):
            return None
    return None


# ── styles ─────────────────────────────────────────────────────────────────
def text_style(project, lang: str, style: TextStyle, colours: Colours, scale: float) -> textengine.Style:
    """A template text style as a text-engine Style for `lang`, scaled for the card size."""
    fonts = project.fonts
    if style.font == "body":
        regular, bold, bold_all = fonts.chain(lang, "body"), fonts.chain(lang, "bold"), False
    else:
        regular = bold = fonts.chain(lang, style.font)
        bold_all = True
    return textengine.Style(
        regular=regular,
        bold=bold,
        size=style.size * scale,
        min_size=None if style.min_size is None else style.min_size * scale,
        leading=style.leading,
        line_break=project.config.languages[lang].line_break,
        align=style.align,
        valign=style.valign,
        colour=colours(style.colour),
        bold_all=bold_all,
    )


@dataclass
class PlacedText:
    element: str
    layout: textengine.Layout
    x: float  # points, in the bleed box
    y: float
    key: str | None  # the locale key the text comes from, when one


# ── the locale keys a front prints ─────────────────────────────────────────
def type_keys(card: Card) -> list[str]:
    """The keys the type line is built from ("Infantry · Mercenary"), separator last."""
    keys = [f"type.{card.type}" if card.is_unit else f"kind.{card.kind}"]
    keys += [f"trait.{t}" for t in card.traits]
    if card.terrain:
        keys.append("label.terrain")
    return keys + ["label.type-separator"]


def bonus_keys(card: Card) -> list[str]:
    """The keys the bonus badge's text is built from (none without a bonus)."""
    if not card.bonus:
        return []
    keys = ["bonus.part", "bonus.separator"]
    for b in card.bonus:
        keys.append(f"stat.{b.stat}")
        if b.when != "always":
            keys.append(f"bonus.when.{b.when}")
        if b.whose != "own":
            keys.append(f"bonus.whose.{b.whose}")
    return list(dict.fromkeys(keys))


def printed_keys(card: Card) -> list[str]:
    """Every locale key the front of `card` prints, in the order of the face."""
    keys = [f"card.{card.id}.name", *type_keys(card), f"card.{card.id}.effect"]
    keys += ["label.level-short"] if card.is_unit else bonus_keys(card)
    return keys + (["label.code-revised"] if card.revised else [])


# ── the face ───────────────────────────────────────────────────────────────
def front_key(card: Card, lang: str) -> str:
    """The front's form key: one per card and language."""
    return f"front-{lang}-{card.id}"


class FrontFace:
    """The front of one card in one language, laid out; `draw` paints it."""

    def __init__(self, project, card: Card, lang: str, geometry, report=None):
        self.project, self.card, self.lang, self.geometry = project, card, lang, geometry
        self.key = front_key(card, lang)
        self.template = load_card_template(project)
        faction = project.game.factions[card.faction]
        check_emblem(project, faction)
        self.faction = faction
        self.colours = Colours(self.template.palette, faction.colour, faction.accent)
        elements, self.scale = scaled(self.template, card.kind, geometry.trim_w / MM, geometry.trim_h / MM)
        self.elements = {name: e for name, e in elements.items() if e.show}
        self.texts: dict[str, PlacedText] = {}
        self.problems: list[tuple[str, str, float]] = []  # (element, key, overflow in mm)
        self._lay_out(report)

    # geometry ------------------------------------------------------------
    def box(self, e: Element) -> tuple[float, float, float, float]:
        """An element's box in points, in the bleed box's coordinates."""
        b = self.geometry.bleed
        return (b + e.x * MM, b + e.y * MM, e.w * MM, e.h * MM)

    # layout --------------------------------------------------------------
    def _lay_out(self, report) -> None:
        p, card, lang = self.project, self.card, self.lang
        loc = p.locale(lang)
        name_key = f"card.{card.id}.name"
        effect_key = f"card.{card.id}.effect"
        self._text("name", p.card_name(card, lang), name_key, report)
        self._text("type_line", p.type_line(card, lang), None, report, parts=self._type_parts())
        effect = self.elements.get("effect")
        if effect is not None:
            self._text("effect", marked_effect(p, card, lang, self.template.style(effect.style)), effect_key, report)
        if card.is_unit:
            self._text("level_label", loc.get("label.level-short"), "label.level-short", report)
            self._text("level_number", str(card.level), None, report)
            for stat, value in (("atk", card.atk), ("def", card.def_), ("energy", card.energy)):
                e = self.elements.get(stat)
                if e is not None:
                    self._text(stat, str(value), None, report, box=self._badge_number_box(e))
        elif card.bonus:
            self._text("bonus", p.bonus_text(card, lang), None, report, parts=self._bonus_parts(), box=self._bonus_text_box())
        if card.commander and "mark" in self.elements:
            self._text("mark", COMMANDER_MARK, None, report)
        self._text("code", p.small_print(card, lang), "label.code-revised" if card.revised else None, report)
        self._text("lang", lang.upper(), None, report)

    def _type_parts(self) -> list[tuple[str, str]]:
        loc = self.project.locale(self.lang)
        return [(k, loc.get(k)) for k in type_keys(self.card)]

    def _bonus_parts(self) -> list[tuple[str, str]]:
        loc = self.project.locale(self.lang)
        return [(k, loc.get(k)) for k in bonus_keys(self.card)]

    def _badge_number_box(self, e: Element) -> tuple[float, float, float, float]:
        x, y, w, h = self.box(e)
        return (x + h * 0.92, y, w - h * 1.12, h)

    def _bonus_text_box(self) -> tuple[float, float, float, float]:
        x, y, w, h = self.box(self.elements["bonus"])
        pad = h * 0.45
        return (x + pad, y + h * 0.06, w - 2 * pad, h * 0.88)

    def _text(self, name: str, text: str, key: str | None, report, parts=None, box=None) -> None:
        e = self.elements.get(name)
        if e is None:
            return
        style = text_style(self.project, self.lang, self.template.style(e.style), self.colours, self.scale)
        origin = self.project.locale(self.lang).where(key) if key else f"{self.card.code} {name}"
        if parts:  # a text built from several locale entries: name the entry a bad character is in
            for part_key, part in parts:
                for chain in {style.regular, style.bold}:
                    missing = chain.missing(textengine.plain(part))
                    if missing:
                        raise textengine.GlyphError(self.project.locale(self.lang).where(part_key), missing, chain)
        x, y, w, h = box or self.box(e)
        lay = self._fit(text, style, self.template.style(e.style), w, h, origin)
        self.texts[name] = PlacedText(name, lay, x, y, key)
        self._check(name, lay, key, report, style.min_size)

    def _fit(self, text, style, tstyle: TextStyle, w, h, origin):
        """Shrink to fit; a style with `single_line_min` first tries one line down to that size."""
        single = tstyle.single_line_limit(self.lang)
        if single is not None:
            one_line_min = single * self.scale
            if one_line_min < style.size:
                one_line_h = style.size * (textengine.ASCENT + textengine.DESCENT) + 0.01
                one = textengine.fit(text, replace(style, min_size=one_line_min), w, min(h, one_line_h), where=origin)
                if one.fits and len(one.lines) == 1:
                    return replace(one, box_h=h)
        return textengine.fit(text, style, w, h, where=origin)

    def _check(self, name: str, lay, key, report, min_size: float | None) -> None:
        what = {"name": "name", "effect": "effect text", "type_line": "type line", "bonus": "bonus"}.get(name, name)
        card_name = self.card.code
        if not lay.fits:
            mm = lay.overflow / MM
            self.problems.append((name, key, mm))
            if report is not None:
                report.warning(
                    "overflow",
                    f"{card_name} ({self.lang}): the {what} does not fit its box at {lay.size:g} pt; "
                    f"it overflows by {mm:.1f} mm and is cut off",
                    lang=self.lang,
                    key=key,
                )
        elif min_size is not None and lay.size <= min_size + 1e-9 and min_size < lay.style.size:
            if report is not None:
                report.warning(
                    "shrunk",
                    f"{card_name} ({self.lang}): the {what} was shrunk to the minimum size, {lay.size:g} pt",
                    lang=self.lang,
                    key=key,
                )

    # drawing -------------------------------------------------------------
    @property
    def layers(self) -> tuple:
        """The backdrop every card of this faction and kind shares: drawn once per PDF as its own
        form, placed by each front (the drawing order is unchanged)."""
        return (Backdrop(self),)

    def draw(self, canvas) -> None:
        """Paint the front; its backdrop is placed as the form the Document defined from `layers`."""
        self._paint(canvas, lambda c: c.doForm(form_name(self.layers[0].key)))

    def draw_flat(self, canvas) -> None:
        """Paint the front with everything drawn in place (no forms needed)."""
        self._paint(canvas, self.draw_backdrop)

    def _paint(self, canvas, backdrop) -> None:
        c = canvas
        c.saveState()
        backdrop(c)
        self._mark(c)
        self._panel(c, "header")
        self._level(c)
        self._panel(c, "type_band")
        self._panel(c, "text_panel")
        self._watermark(c)
        for stat in ("atk", "energy", "def"):
            self._badge(c, stat)
        self._bonus(c)
        for placed in self.texts.values():
            textengine.draw(c, placed.layout, placed.x, placed.y)
        c.restoreState()

    def draw_backdrop(self, c) -> None:
        """Background, frame and art: the same on every card of this faction and kind."""
        self._background(c)
        self._panel(c, "frame")
        self._art(c)

    def _background(self, c) -> None:
        e = self.elements.get("background")
        if e is None:
            return
        g = self.geometry
        c.setFillColor(rl(self.colours(e.fill or "faction")))
        c.rect(0, 0, g.width, g.height, stroke=0, fill=1)
        # a quiet diagonal texture, part of the background (it runs into the bleed).
        # No transparency anywhere: ReportLab drops the ExtGState and Shading
        # resources of form XObjects, and faces are drawn as forms.
        c.saveState()
        p = c.beginPath()
        p.rect(0, 0, g.width, g.height)
        c.clipPath(p, stroke=0, fill=0)
        c.setStrokeColor(rl(mix(self.colours(e.fill or "faction"), self.colours("faction-dark"), 0.3)))
        c.setLineWidth(0.35)
        step = 1.6 * MM
        n = int((g.width + g.height) / step) + 2
        for i in range(n):
            x0 = i * step - g.height
            c.line(x0, 0, x0 + g.height, g.height)
        c.restoreState()

    def _panel(self, c, name: str) -> None:
        e = self.elements.get(name)
        if e is None:
            return
        x, y, w, h = self.box(e)
        self._shape(c, e, x, y, w, h)

    def _shape(self, c, e: Element, x, y, w, h, ellipse: bool = False) -> None:
        fill, stroke = self.colours(e.fill), self.colours(e.stroke)
        if fill is None and (stroke is None or e.stroke_width <= 0):
            return
        if fill:
            c.setFillColor(rl(fill))
        if stroke and e.stroke_width > 0:
            c.setStrokeColor(rl(stroke))
            c.setLineWidth(e.stroke_width * MM)
        do_stroke = 1 if stroke and e.stroke_width > 0 else 0
        if ellipse:
            c.ellipse(x, y, x + w, y + h, stroke=do_stroke, fill=1 if fill else 0)
        elif e.radius > 0:
            c.roundRect(x, y, w, h, min(e.radius * MM, w / 2, h / 2), stroke=do_stroke, fill=1 if fill else 0)
        else:
            c.rect(x, y, w, h, stroke=do_stroke, fill=1 if fill else 0)

    def _art(self, c) -> None:
        e = self.elements.get("art")
        if e is not None:
            x, y, w, h = self.box(e)
            c.saveState()
            p = c.beginPath()
            p.rect(x, y, w, h)
            c.clipPath(p, stroke=0, fill=0)
            edge = self.colours(e.fill or "faction-dark")
            centre = self.colours("faction-light")
            accent = self.colours("accent")
            cx, cy = x + w / 2, y + h * 0.55
            reach = math.hypot(w / 2, h * 0.55)

            def glow(t):  # the colour at t = distance / reach: light in the middle, dark at the edge
                return mix(centre, edge, min(1.0, t) ** 0.8)

            c.setFillColor(rl(edge))
            c.rect(x, y, w, h, stroke=0, fill=1)
            steps = 36
            for i in range(steps, 0, -1):  # a radial glow as nested discs (no PDF shadings)
                t = i / steps
                c.setFillColor(rl(glow(t)))
                c.circle(cx, cy, reach * t, stroke=0, fill=1)
            c.setLineWidth(0.45 * self.scale)
            for t in (0.3, 0.42, 0.56, 0.72, 0.9):  # thin rings, blended with the glow beneath them
                c.setStrokeColor(rl(mix(glow(t), accent, 0.22)))
                c.circle(cx, cy, reach * t, stroke=1, fill=0)
            c.restoreState()
            self._shape(c, Element("art", fill=None, stroke=e.stroke, stroke_width=e.stroke_width), x, y, w, h)
        em = self.elements.get("emblem")
        if em is not None:
            x, y, w, h = self.box(em)
            colour = self.colours(em.colour or "accent")
            off = 0.45 * MM * self.scale
            draw_emblem(c, self.faction.emblem, x + off, y - off, w, h, mix(self.colours("faction-dark"), "#000000", 0.35))
            draw_emblem(c, self.faction.emblem, x, y, w, h, colour)

    def _watermark(self, c) -> None:
        e = self.elements.get("watermark")
        if e is None:
            return
        x, y, w, h = self.box(e)
        draw_emblem(c, self.faction.emblem, x, y, w, h, self.colours(e.colour or "mix(parchment, faction, 0.1)"))

    def _mark(self, c) -> None:
        e = self.elements.get("mark")
        card = self.card
        if e is None:
            return
        icon = None
        if card.terrain:
            icon = "terrain"
        elif card.kind in ("doctrine", "tactic"):
            icon = card.kind
        elif not card.commander:
            return
        x, y, w, h = self.box(e)
        self._shape(c, e, x, y, w, h, ellipse=True)
        inner = Element("ring", stroke=e.colour or "ink", stroke_width=0.15 * self.scale)
        inset = w * 0.1
        self._shape(c, inner, x + inset, y + inset, w - 2 * inset, h - 2 * inset, ellipse=True)
        if icon:
            pad = w * 0.25
            draw_icon(c, icon, x + pad, y + pad, w - 2 * pad, h - 2 * pad, self.colours(e.colour or "ink"))

    def _level(self, c) -> None:
        e = self.elements.get("level")
        if e is None or not self.card.is_unit:
            return
        x, y, w, h = self.box(e)
        self._shape(c, e, x, y, w, h, ellipse=True)
        inset = w * 0.09
        ring = Element("ring", stroke=e.stroke, stroke_width=0.12 * self.scale)
        self._shape(c, ring, x + inset, y + inset, w - 2 * inset, h - 2 * inset, ellipse=True)

    def _badge(self, c, stat: str) -> None:
        e = self.elements.get(stat)
        if e is None or not self.card.is_unit:
            return
        x, y, w, h = self.box(e)
        self._shape(c, e, x, y, w, h)
        # the icon disc at the left end
        r = h / 2 - 0.55 * MM * self.scale
        cx, cy = x + h / 2, y + h / 2
        c.setFillColor(rl(self.colours(e.colour or "ink")))
        c.circle(cx, cy, r, stroke=0, fill=1)
        s = r * 1.4
        draw_icon(c, stat, cx - s / 2, cy - s / 2, s, s, "#FFFFFF")

    def _bonus(self, c) -> None:
        e = self.elements.get("bonus")
        if e is None or self.card.is_unit:
            return
        x, y, w, h = self.box(e)
        if self.card.bonus:
            self._shape(c, e, x, y, w, h)
            return
        # no bonus: an ornament of the accent colour holds the place
        c.saveState()
        c.setStrokeColor(rl(self.colours("accent")))
        c.setFillColor(rl(self.colours("accent")))
        c.setLineWidth(0.3 * MM * self.scale)
        cy = y + h / 2
        d = h * 0.22
        c.line(x + w * 0.12, cy, x + w / 2 - d * 1.8, cy)
        c.line(x + w / 2 + d * 1.8, cy, x + w * 0.88, cy)
        p = c.beginPath()
        p.moveTo(x + w / 2, cy + d)
        p.lineTo(x + w / 2 + d, cy)
        p.lineTo(x + w / 2, cy - d)
        p.lineTo(x + w / 2 - d, cy)
        p.close()
        c.drawPath(p, stroke=0, fill=1)
        c.restoreState()


class Backdrop:
    """The shared backdrop of a front (see FrontFace.layers): a face of its own."""

    def __init__(self, front: FrontFace):
        self.front = front
        self.key = f"backdrop-{front.card.faction}-{front.card.kind}"

    def draw(self, canvas) -> None:
        self.front.draw_backdrop(canvas)
