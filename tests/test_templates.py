"""templates/card.yaml: a designer's file, checked like every other file a person writes."""
from __future__ import annotations

import re

import pytest

import ppgen
from clitools import Break
from ppgen.draw.colours import Colours, mix
from ppgen.draw.faces import CardGeometry, front_face
from ppgen.errors import DataError
from ppgen.read.templates import load_card_template, read_card_template, scaled
from ppgen.units import MM
from ppgen.write.faces import render_card_pdf


def edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(path, needle):
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if needle in line)


def problems_of(path):
    with pytest.raises(DataError) as exc:
        read_card_template(path, path.parent.parent)
    return exc.value.problems


def test_shipped_template_loads(project):
    t = load_card_template(project)
    assert (t.width, t.height, t.safe_margin) == (63, 88, 3.2)
    assert list(t.backs) == ["dark", "light"]  # the first is the default
    assert set(t.kinds) == {"unit", "doctrine", "tactic"}
    assert "level" in t.kinds["unit"] and "level" not in t.kinds["doctrine"]
    assert "bonus" in t.kinds["doctrine"] and "atk" not in t.kinds["tactic"]
    # kind sections override single keys of the shared layout
    assert t.kinds["doctrine"]["effect"].x == t.kinds["unit"]["effect"].x
    assert t.kinds["doctrine"]["effect"].h > t.kinds["unit"]["effect"].h


def test_unknown_keys_reported_with_position_and_suggestion(game_copy):
    path = game_copy / "templates" / "card.yaml"
    edit(path, "  name:        {x: 14.3, w: 43.2}", "  nmae:        {x: 14.3, w: 43.2}")
    edit(path, "  code:       {x: 5.6, y: 3.65,", "  code:       {x: 5.6, yy: 3.65,")
    problems = problems_of(path)
    shown = [str(p) for p in problems]
    nmae = line_of(path, "  nmae:")
    assert any(p.line == nmae and p.col == 3 and "unknown element 'nmae'" in p.message and "'name'" in p.message for p in problems), shown
    code = line_of(path, "yy: 3.65")
    assert any(p.line == code and p.code == "unknown-key" and "'yy'" in p.message for p in problems), shown
    assert all(p.file == "templates/card.yaml" for p in problems)


def test_wrong_types_and_values_reported(game_copy):
    path = game_copy / "templates" / "card.yaml"
    edit(path, "    size: 8.5\n", "    size: big\n")
    edit(path, "parchment: \"#F5ECD7\"", "parchment: \"#F5ECD\"")
    edit(path, "  art:        {x: 4, y: 43.6, w: 55, h: 30.8, fill: faction-dark,", "  art:        {x: 4, y: 43.6, w: 55, h: 30.8, fill: faction-drak,")
    edit(path, "style: type_line}", "style: typeline}")
    problems = problems_of(path)
    shown = [str(p) for p in problems]
    size = line_of(path, "size: big")
    assert any(p.line == size and p.code == "type" and "'size' must be a number, not the text 'big'" in p.message for p in problems), shown
    pal = line_of(path, "#F5ECD\"")
    assert any(p.line == pal and "palette colour 'parchment'" in p.message for p in problems), shown
    art = line_of(path, "faction-drak")
    assert any(p.line == art and "unknown colour 'faction-drak'" in p.message and "'faction-dark'" in p.message for p in problems), shown
    tl = line_of(path, "style: typeline}")
    assert any(p.line == tl and "unknown style 'typeline'" in p.message for p in problems), shown


def test_artwork_outside_the_safe_zone_refused(game_copy):
    path = game_copy / "templates" / "card.yaml"
    edit(path, "  header:     {x: 4, y: 75.2, w: 55, h: 9,", "  header:     {x: 1, y: 75.2, w: 55, h: 9,")
    problems = problems_of(path)
    header = line_of(path, "  header:")
    assert any(p.line == header and p.code == "safe-zone" and "element 'header'" in p.message and "3.2 mm inside" in p.message
               for p in problems), [str(p) for p in problems]


@pytest.mark.parametrize("old,new,element,nearest", [
    # the header's box keeps 3.2 mm, but half its 0.6 mm line reaches 2.9 mm from the trim
    ("  header:     {x: 4, y: 75.2, w: 55, h: 9, radius: 1.4, fill: parchment, stroke: accent, stroke_width: 0.4}",
     "  header:     {x: 3.2, y: 75.2, w: 55, h: 9, radius: 1.4, fill: parchment, stroke: accent, stroke_width: 0.6}", "header", "2.9"),
    # the frame draws its lines inside its box: its box is what must keep the margin
    ("  frame:      {x: 3.3, y: 3.3, w: 56.4, h: 81.4,", "  frame:      {x: 3.1, y: 3.3, w: 56.6, h: 81.4,", "frame", "3.1"),
    # a text box 3 mm from the bottom edge
    ("  code:       {x: 5.6, y: 3.65,", "  code:       {x: 5.6, y: 3,", "code", "3"),
    # a kind's own override (the Tactic's effect panel), named with its kind
    ("(frames: tactic)\n  emblem:     {x: 18.5, y: 52.5, w: 26, h: 20.5}", "(frames: tactic)\n  emblem:     {x: 18.5, y: 52.5, w: 42, h: 20.5}",
     "emblem", "2.5"),
])
def test_the_safe_zone_is_a_rule_every_element_obeys(game_copy, old, new, element, nearest):
    """Checked when the template loads, an error naming the element, its kind and how near it comes."""
    path = game_copy / "templates" / "card.yaml"
    edit(path, old, new)
    problems = [p for p in problems_of(path) if p.code == "safe-zone"]
    assert problems and all(f"element '{element}'" in p.message for p in problems), [str(p) for p in problems]
    assert all(f"comes {nearest} mm from the trim" in p.message for p in problems), [str(p) for p in problems]
    assert all(p.line == line_of(path, new.split("\n")[-1]) for p in problems)
    if element == "emblem":
        assert [p.message.split("(")[1].split(")")[0] for p in problems] == ["tactic"]  # only the kind that says so
    with pytest.raises(DataError):  # and the build stops
        front_face(ppgen.load(game_copy), ppgen.load(game_copy).game.cards[0], "en", CardGeometry.named())


SIZES = ["poker", "bridge", "mini", "tarot", "50x70", "80x80"]


@pytest.mark.parametrize("size", SIZES)
def test_every_element_keeps_the_safe_margin_on_every_card_size(project, size):
    """The template is checked at its design size; scaling keeps the safe margin in mm, so the
    shipped elements (and any that pass the check) keep it on every card size, lines included."""
    from ppgen.read.templates import ink_box
    from ppgen.units import parse_card_size

    t = load_card_template(project)
    card = parse_card_size(size)
    for kind in t.kinds:
        elements, _ = scaled(t, kind, card.width, card.height)
        for e in elements.values():
            if e.name == "background" or not e.show:
                continue
            x0, y0, x1, y1 = ink_box(e)
            assert min(x0, y0, card.width - x1, card.height - y1) >= t.safe_margin - 1e-9, (size, kind, e.name, ink_box(e))


def test_template_error_stops_drawing_with_position(game_copy):
    path = game_copy / "templates" / "card.yaml"
    edit(path, "  stat:        {font: bold, size: 15,", "  stat:        {font: heavy, size: 15,")
    project = ppgen.load(game_copy)
    with pytest.raises(DataError) as exc:
        front_face(project, project.game.cards[0], "en", CardGeometry.named())
    assert re.search(rf"templates/card\.yaml:{line_of(path, 'font: heavy')}:\d+: error\[value\] 'font' must be one of body, bold, title", str(exc.value))


def test_designer_moves_a_box_and_changes_a_colour(game_copy, tmp_path):
    """The drawing follows the YAML: no Python is touched."""
    path = game_copy / "templates" / "card.yaml"
    project = ppgen.load(game_copy)
    card = project.game.card("hastati-line") if project.game.has_card("hastati-line") else project.game.cards[0]
    before = front_face(project, card, "en", CardGeometry.named())
    edit(path, "  parchment: \"#F5ECD7\"", "  parchment: \"#00FF00\"")
    edit(path, "  name:        {x: 14.3, w: 43.2}", "  name:        {x: 20, w: 37}")
    project = ppgen.load(game_copy)
    after = front_face(project, card, "en", CardGeometry.named())
    assert after.texts["name"].x == pytest.approx(20 * MM) and before.texts["name"].x == pytest.approx(14.3 * MM)
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(render_card_pdf(project, card, "en", tmp_path / "c.pdf")))
    image = pdf[0].render(scale=1).to_pil().convert("RGB")
    # the text panel (parchment) is now green, at its template position
    e = after.elements["text_panel"]
    px = image.getpixel((round((e.x + 1) * MM), round(image.height - (e.y + 1) * MM)))
    assert px == (0, 255, 0)


def test_boxes_scale_inside_the_safe_margin_and_fonts_by_the_smaller_factor(project):
    t = load_card_template(project)
    elements, s = scaled(t, "unit", 44, 63)  # mini
    assert s == pytest.approx(min(44 / 63, 63 / 88))
    name, m = t.kinds["unit"]["name"], t.safe_margin
    kx, ky = (44 - 2 * m) / (63 - 2 * m), (63 - 2 * m) / (88 - 2 * m)
    assert elements["name"].x == pytest.approx(m + (name.x - m) * kx)
    assert elements["name"].h == pytest.approx(name.h * ky)
    assert elements["frame"].x == pytest.approx(m + (t.kinds["unit"]["frame"].x - m) * kx)  # 3.2 mm stays 3.2 mm
    assert elements["frame"].stroke_width == pytest.approx(t.kinds["unit"]["frame"].stroke_width * min(s, kx, ky))


def test_colours():
    c = Colours({"parchment": "#F5ECD7"}, "#B07A12", "#3A2A5E")
    assert c("faction") == "#B07A12"
    assert c("on-accent") == "#FFFFFF"  # white reads better on a dark accent
    assert c("on-faction") != c("on-accent")
    assert c("mix(parchment, faction, 0)") == "#F5ECD7"
    assert c("mix(parchment, faction, 1)") == "#B07A12"
    assert mix("#000000", "#FFFFFF", 0.5) == "#808080"


def test_unknown_emblem_reported_in_cards_yaml(game_copy):
    cards = game_copy / "cards.yaml"
    edit(cards, "    emblem: laurel", "    emblem: laurels")
    project = ppgen.load(game_copy)
    with pytest.raises(DataError) as exc:
        front_face(project, project.game.cards_of("rome")[0], "en", CardGeometry.named())
    line = line_of(cards, "emblem: laurels")
    assert f"cards.yaml:{line}:13: error[unknown-ref] unknown emblem 'laurels'; did you mean 'laurel'?" in str(exc.value)


def test_per_language_numbers_need_a_default(game_copy):
    path = game_copy / "templates" / "card.yaml"
    edit(path, "keyword_max: {default: 9.8, ko: 6.5, zh: 6.5}", "keyword_max: {ko: 6.5, zh: 6.5}")
    problems = problems_of(path)
    assert [(p.line, p.code) for p in problems] == [(line_of(path, "keyword_max: {ko"), "value")]
    assert "needs a 'default'" in problems[0].message


def test_show_false_leaves_an_element_out(game_copy):
    path = game_copy / "templates" / "card.yaml"
    edit(path, "unit:\n", "unit:\n  watermark:    {show: false}\n  code:         {show: false}\n")
    project = ppgen.load(game_copy)
    unit = front_face(project, project.game.card("numidian-cavalry"), "en", CardGeometry.named())
    doctrine = front_face(project, project.game.card("desert-routes"), "en", CardGeometry.named())
    assert "watermark" not in unit.elements and "code" not in unit.texts
    assert "watermark" in doctrine.elements and "code" in doctrine.texts


def test_alignment_may_differ_by_language_and_is_checked(game_copy):
    from ppgen.read.templates import read_card_template

    path = game_copy / "templates" / "card.yaml"
    effect = read_card_template(path).style("effect")
    assert (effect.align_in("ja"), effect.align_in("zh"), effect.align_in("en")) == ("justify", "justify", "left")
    edit(path, "align: {default: left, ja: justify, zh: justify}", "align: {default: left, ja: justfy}")
    problems = problems_of(path)
    assert [(p.line, p.code) for p in problems] == [(line_of(path, "align: {default: left, ja: justfy}"), "value")]
    assert "must be one of left, center, right, justify" in problems[0].message and "'justfy'" in problems[0].message


# A language named by another name (ppgen.yaml's aliases) or misspelt in a value given per language:
# it was ignored, that language set with the default (its cards ragged, its rulebook not justified).
LANGUAGE_KEYS = {
    "card-align-alias": ("card", Break("\nstyles:", "align: {default: left, ja: justify,", "align: {default: left, jp: justify,", "unknown-key",
                                       "unknown language 'jp' in 'align'; did you mean 'ja' (日本語)?", "align: {default: left, jp", "jp")),
    "card-number-misspelt": ("card", Break("\nstyles:", "single_line_min: {default: 10, ja: 8.5, zh: 8.5}",
                                           "single_line_min: {default: 10, ja: 8.5, zhh: 8.5}", "unknown-key",
                                           "unknown language 'zhh' in 'single_line_min'; did you mean 'zh'?", "    single_line_min: {", "zhh")),
    "rulebook-align-name": ("rulebook-style", Break("\ntype:", "body_align: {default: left, ja: justify,", "body_align: {default: left, japanese: justify,",
                                                    "unknown-key", "unknown language 'japanese' in 'body_align'; did you mean 'ja' (日本語)?",
                                                    "body_align:", "japanese")),
}


@pytest.mark.parametrize("name", LANGUAGE_KEYS, ids=LANGUAGE_KEYS.keys())
def test_a_language_misnamed_in_a_value_given_per_language_is_an_error_at_its_key(game_copy, name):
    """One problem at the key, saying which language was meant, from the build; a language the
    game does not have (`fr`: a template may serve several games) is left alone."""
    from clitools import call_ppgen

    template, rule = LANGUAGE_KEYS[name]
    path = game_copy / "templates" / f"{template}.yaml"
    expected = rule.apply(path, f"templates/{template}.yaml")
    result = call_ppgen("build", "--lang", "ja", "--parts", "rulebook" if template != "card" else "cards", "-f", "rome", "--out", game_copy / "out", root=game_copy)
    assert result.returncode == 2 and expected in result.stderr.splitlines(), result.stderr
    assert "internal error" not in result.stderr


def test_a_language_the_game_does_not_have_may_be_given_per_language(game_copy):
    edit(game_copy / "templates" / "card.yaml", "align: {default: left, ja: justify, zh: justify}", "align: {default: left, ja: justify, zh: justify, fr: justify}")
    assert load_card_template(ppgen.load(game_copy)).style("effect").align_in("fr") == "justify"


# The rules that look at several keys or sections (read/templates.py), each at its position.
LAYOUT, DOCTRINE, STYLES = "\nlayout:", "\ndoctrine:", "\nstyles:"
TEMPLATE_RULES = {
    # an element of the shared layout is checked once, naming every kind that has it
    "needs-style": Break(LAYOUT, "h: 5, style: type_line}", "h: 5}", "missing-key",
                         "element 'type_line' (unit, doctrine, tactic) needs a 'style'",
                         "  type_line:", "{"),
    "needs-size": Break(LAYOUT, "  header:     {x: 4, y: 75.2, w: 55, h: 9,", "  header:     {x: 4, y: 75.2, h: 9,", "missing-key",
                        "element 'header' (unit, doctrine) needs a size: 'w' and 'h' in mm", "  header:", "{"),  # a Tactic's own gives its w
    "kind-outside-safe-zone": Break(DOCTRINE, "bonus:      {x: 9,", "bonus:      {x: 1,", "safe-zone",
                                    "element 'bonus' (doctrine) at x 0.82–46.17, y 44.62–51.77 mm (its 0.35 mm line included) comes "
                                    "0.82 mm from the trim: it leaves the safe zone, 3.2 mm inside the 63 × 88 mm card "
                                    "(only the background may reach the edge)",
                                    "  bonus:", "{"),
    "min-size": Break(STYLES, "    min_size: 7\n", "    min_size: 12\n", "value", "'min_size' (12) must not be larger than 'size' (11.5)",
                      "min_size: 12", "12"),
    "palette-faction-colour": Break("\npalette:", '  white: "#FFFFFF"\n', '  white: "#FFFFFF"\n  faction: "#000000"\n', "data",
                                    "'faction' is a faction colour and cannot be redefined", "  faction:", "faction"),
    "back-colour": Break("\nbacks:", 'colour: "#C9A45C"', "colour: parchmnt", "value",
                         "the back's 'colour' must be \"#rrggbb\" or a palette name; did you mean 'parchment', 'parchment-edge'?", "colour: parchmnt", "parchmnt"),
    "design-wrong-no-box-checked": Break("\ndesign:", "  width: 63", "  width: 0", "value", "'width' must be more than 0, not 0",
                                         "  width: 0", "0"),
}


@pytest.mark.parametrize("rule", TEMPLATE_RULES.values(), ids=TEMPLATE_RULES.keys())
def test_template_rule_message_and_position(game_copy, rule):
    path = game_copy / "templates" / "card.yaml"
    expected = rule.apply(path, "templates/card.yaml")
    shown = [str(p) for p in problems_of(path)]
    assert expected in shown, shown
    if "design" in rule.after:
        assert shown == [expected]  # no box is checked against a wrong card size


def test_an_earlier_templates_single_back_reads_as_the_dark_variant(game_copy):
    """Templates written before `backs:` had one `back:` (what `ppgen errata` compares with)."""
    path = game_copy / "templates" / "card.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("\nbacks:\n")
    path.write_text(text[:start] + '\nback:\n  fill: "#101010"\n  colour: parchment\n', encoding="utf-8")
    t = read_card_template(path, game_copy)
    assert t.backs == {"dark": {"fill": "#101010", "pattern": None, "colour": "#F5ECD7", "accent": "#8C2F22"}}
    assert t.back_name() == "dark"
