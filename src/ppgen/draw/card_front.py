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
from dataclasses import dataclass, replace

from ..read.model import COMMANDER_MARK, Card
from ..read.templates import Element, TextStyle, load_card_template, scaled
from ..typeset import text as textengine
from ..typeset.phrases import leading_clauses
from ..units import MM
from .art import art_box, draw_picture, fit
from .colours import Colours, mix, rl
from .emblems import draw_emblem, draw_icon
from .faces import form_name
from .frames import TRIMMED, draw_frame, draw_texture
from .illustrations import draw_illustration, draw_landscape

# Colours the drawing asks for by name where the template says none (or besides what it says):
# what a front depends on beyond its elements' own colours (draw/face_inputs.py).
DRAWN_COLOURS = ("faction", "faction-dark", "faction-light", "accent", "ink", "mix(parchment, faction, 0.1)")


def frame_kind(card: Card) -> str:
    """What the card is at a glance (templates/card.yaml `frames:`): commander, terrain, or its kind."""
    return "commander" if card.commander else "terrain" if card.terrain else card.kind


def motif_key(card: Card) -> str:
    """Which illustration a card without a picture shows (templates/card.yaml `illustrations:`):
    its unit type, or terrain, doctrine, tactic."""
    return card.type if card.is_unit else ("terrain" if card.terrain else card.kind)


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
    no sentence end before it; typeset.phrases.leading_clauses) is bold when it
    is at most `max_em` ems wide (`width_em(clause)` measures it at 1 pt). The
    text engine never breaks a bold span across lines, so a key word stays
    whole. A text that already has `**` markup is left as the translator wrote it.
    """
    if max_em <= 0 or "**" in text:
        return text
    out: list[str] = []
    pos = 0
    for start, end in leading_clauses(text):
        if width_em(text[start:end]) <= max_em:
            out += [text[pos:start], f"**{text[start:end]}**"]
            pos = end
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
        align=style.align_in(lang),
        valign=style.valign,
        colour=colours(style.colour),
        bold_all=bold_all,
        phrases=project.phrases(lang),
        balance=style.balance,
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

    def __init__(self, project, card: Card, lang: str, geometry, report=None, art=None):
        self.project, self.card, self.lang, self.geometry = project, card, lang, geometry
        self.art = art  # draw.art.CardArt: the card's picture, or None (the faction's art window shows)
        self._picture = art.layer if art is not None else None
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
        self.runts: list[tuple[str, str]] = []  # (element, key): a last line no re-breaking in the box avoids
        self._lay_out(report)
        self._looks()

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
        self._text("code", p.small_print(card, lang), "label.code-revised" if card.revised else None, report, box=self._off_the_frame("code"))
        self._text("lang", lang.upper(), None, report, box=self._off_the_frame("lang"))

    def _type_parts(self) -> list[tuple[str, str]]:
        loc = self.project.locale(self.lang)
        return [(k, loc.get(k)) for k in type_keys(self.card)]

    def _bonus_parts(self) -> list[tuple[str, str]]:
        loc = self.project.locale(self.lang)
        return [(k, loc.get(k)) for k in bonus_keys(self.card)]

    def _off_the_frame(self, name: str) -> tuple[float, float, float, float] | None:
        """The box of the small print (code, language), raised off a frame drawn wider than the room
        below it: a Terrain's band (0.75 mm) came up into the box, and the code stood on it. None when
        there is no such element."""
        e, frame, look = self.elements.get(name), self.elements.get("frame"), self.template.frame(self.frame_kind)
        if e is None:
            return None
        x, y, w, h = self.box(e)
        if frame is not None and look.style != "none":
            inner = self.box(frame)[1] + look.width * MM * self.scale
            y = max(y, inner)  # (moved up whole: the 5 pt line needs the box's height)
        return (x, y, w, h)

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
        elif lay.orphans:
            self.runts.append((name, key))
            if report is not None:
                report.warning(
                    "orphan",
                    f"{card_name} ({self.lang}): the {what} ends with a lone word on its last line "
                    "(no break that fits its box avoids it); shorten or reword it",
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
    def frame_kind(self) -> str:
        return frame_kind(self.card)

    def _looks(self) -> None:
        """The layers a front places, each a form drawn once per PDF: the background (by faction and
        kind of card), the art window's glow (by faction and window), the picture (shared by every
        card showing it) or the illustration (by faction, kind and motif), the frame (by faction and kind)."""
        kind, faction = self.frame_kind, self.card.faction
        self.frame = self.template.frame(kind)
        self.motif = self.template.motif(motif_key(self.card))
        self._backdrop = Layer(f"backdrop-{faction}-{kind}", self._background)
        art = self.elements.get("art")
        window = "-".join(f"{v / MM:.2f}" for v in art_box(art, self.geometry)) if art is not None else ""
        self._window = Layer(f"window-{faction}-{window}", self._art_window) if art is not None else None
        self._illustration = None
        if self._picture is None and self.motif != "none" and "art" in self.elements:
            self._illustration = Layer(f"illustration-{faction}-{kind}-{self.motif}", self._draw_illustration)
        self._frame = Layer(f"frame-{faction}-{kind}", self._draw_frame)

    @property
    def layers(self) -> tuple:
        """The forms a front places (see `_looks`), in drawing order."""
        middle = self._picture or self._illustration
        return tuple(layer for layer in (self._backdrop, self._window, middle, self._frame) if layer is not None)

    @property
    def underlay(self) -> tuple:
        """The layers painted first, over the whole card and opaque (its backdrop, its art window's
        glow): the same on every front of a faction, kind of card and window. A picture of the
        front may be these rasterised once and the rest of it (`overlay`) rasterised over them
        (write/raster.py): the same pixels as the front rasterised whole, in a fraction of the
        time — they are most of the work of rasterising a front."""
        return tuple(layer for layer in (self._backdrop, self._window) if layer is not None)

    @property
    def overlay(self) -> "Overlay":
        """The front without its `underlay`: a face of its own, painted over it."""
        return Overlay(self)

    def draw(self, canvas) -> None:
        """Paint the front; its layers are placed as the forms the Document defined from `layers`."""
        self._paint(canvas, in_place=False)

    def draw_flat(self, canvas) -> None:
        """Paint the front with everything drawn in place (no forms needed)."""
        self._paint(canvas, in_place=True)

    def _paint(self, canvas, in_place: bool, underlay: bool = True) -> None:
        c = canvas
        c.saveState()
        if underlay:
            for layer in self.underlay:
                self._place(c, layer, in_place)
        if self._picture is not None:
            self._draw_art(c, in_place)
        elif self._illustration is not None:
            self._place(c, self._illustration, in_place)
        self._place(c, self._frame, in_place)
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

    @staticmethod
    def _place(c, layer, in_place: bool) -> None:
        if in_place:
            c.saveState()
            layer.draw(c)
            c.restoreState()
        else:
            c.doForm(form_name(layer.key))

    def _background(self, c) -> None:
        """The card's colour and texture, into the bleed: the same on every card of a faction and kind."""
        e = self.elements.get("background")
        if e is None:
            return
        g = self.geometry
        fill = self.colours(self.frame.background or e.fill or "faction")
        c.setFillColor(rl(fill))
        c.rect(0, 0, g.width, g.height, stroke=0, fill=1)
        # a quiet texture, part of the background (it runs into the bleed), one per kind of card.
        # No transparency: the faces' forms are drawn opaque.
        if self.frame.texture == "none":
            return
        c.saveState()
        p = c.beginPath()
        p.rect(0, 0, g.width, g.height)
        c.clipPath(p, stroke=0, fill=0)
        c.setStrokeColor(rl(mix(fill, self.colours("faction-dark"), 0.3)))
        c.setLineWidth(0.35)
        draw_texture(c, self.frame.texture, g.width, g.height, 1.6 * MM)
        c.restoreState()

    def _trimmed(self, e: Element) -> Element:
        """An element with the frame's trim colour on its rule, and the header in the frame's
        `header` fill (Commanders: gold)."""
        if self.frame.trim and e.name in TRIMMED and e.stroke:
            e = replace(e, stroke=self.frame.trim)
        if self.frame.header and e.name == "header":
            e = replace(e, fill=self.frame.header)
        return e

    def _panel(self, c, name: str) -> None:
        e = self.elements.get(name)
        if e is None:
            return
        x, y, w, h = self.box(e)
        self._shape(c, self._trimmed(e), x, y, w, h)

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

    def _draw_art(self, c, in_place: bool = False) -> None:
        """The card's picture in the art window (over the backdrop's glow; the frame's rules over it)."""
        e = self.elements.get("art")
        if e is not None:
            box = art_box(e, self.geometry)
            draw_picture(c, self._picture, fit(box, self._picture.size, self.art.fit, self.art.focus), in_place)

    def _art_window(self, c) -> None:
        """The window's field: a radial glow of the faction's colours (no PDF shading: nested discs)."""
        e = self.elements.get("art")
        if e is None:
            return
        x, y, w, h = art_box(e, self.geometry)
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
        for i in range(steps, 0, -1):
            t = i / steps
            c.setFillColor(rl(glow(t)))
            c.circle(cx, cy, reach * t, stroke=0, fill=1)
        c.setLineWidth(0.45 * self.scale)
        for t in (0.3, 0.42, 0.56, 0.72, 0.9):  # thin rings, blended with the glow beneath them
            c.setStrokeColor(rl(mix(glow(t), accent, 0.22)))
            c.circle(cx, cy, reach * t, stroke=1, fill=0)
        c.restoreState()

    def _draw_illustration(self, c) -> None:
        """The motif of this card's type (or kind) in the art window, in the faction's colours."""
        art, em = self.elements.get("art"), self.elements.get("emblem")
        shadow = mix(self.colours("faction-dark"), "#000000", 0.35)
        if self.motif == "landscape":
            draw_landscape(c, art_box(art, self.geometry), near=shadow, far=mix(self.colours("faction-dark"), self.colours("accent"), 0.35),
                           sky=self.colours(em.colour if em is not None and em.colour else "accent"))
        elif em is not None:
            draw_illustration(c, self.motif, self.faction.emblem, self.box(em), self.colours(em.colour or "accent"), shadow,
                              0.45 * MM * self.scale)

    def _draw_frame(self, c) -> None:
        """The card's frame (its style by kind of card) and the art window's rules."""
        e = self.elements.get("frame")
        f = self.frame
        if e is not None and f.style != "none":
            draw_frame(c, f.style, self.box(e), e.radius * MM, f.width * MM * self.scale, self.colours(f.colour or e.stroke or "accent"))
        art = self.elements.get("art")
        if art is None or art.bleed:
            return
        box = art_box(art, self.geometry)
        rule = self._trimmed(art)
        self._shape(c, Element("art", fill=None, stroke=rule.stroke, stroke_width=art.stroke_width), *box)
        if f.style == "double":  # the most precious cards: a second rule inside the window
            inset = 0.7 * MM * self.scale
            inner = Element("art", fill=None, stroke=rule.stroke, stroke_width=art.stroke_width * 0.4)
            x, y, w, h = box
            self._shape(c, inner, x + inset, y + inset, w - 2 * inset, h - 2 * inset)

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
        e = self._trimmed(e)
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


class Overlay:
    """A front without its underlay (FrontFace.overlay): what is painted over the backdrop and the glow."""

    def __init__(self, front: FrontFace):
        self.front = front
        self.key = f"{front.key}-overlay"

    @property
    def layers(self) -> tuple:
        under = self.front.underlay
        return tuple(layer for layer in self.front.layers if layer not in under)

    def draw(self, canvas) -> None:
        self.front._paint(canvas, in_place=False, underlay=False)


class Layer:
    """A part of fronts that many cards share (see FrontFace.layers): a face of its own, drawn once."""

    def __init__(self, key: str, draw):
        self.key = key
        self.draw = draw
