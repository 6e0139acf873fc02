"""Typography a typesetter would sign, read back from the built PDFs (PDFium's character
positions, not the text engine's model): every card, rulebook paragraph and mat caption in
all four languages.

- no key word or unbreakable phrase (the glossary's `keywords` and `unbreakable`, and every
  **bold** span) is split across lines;
- no two-line card name leaves a short word alone on a line;
- no paragraph ends with a runt line (ja/zh: under 3 characters; en/ko: a single word),
  unless the build reported it as one no break in its box avoids;
- justified ja/zh rulebook lines end within 0.5 pt of each other at the right margin;
- no justified ja/zh line is letter-spaced: the character spacing (Tc) of every card front
  widens a gap by at most justify.MAX_SPREAD of an em (a line that would need more is set left).
"""
from __future__ import annotations

import re
import unicodedata

import pytest

from pdftools import MM, glyphs, placements, reader, text_lines
from ppgen.draw.card_front import marked_effect
from ppgen.read.styles import rulebook_style
from ppgen.read.templates import load_card_template
from ppgen.typeset.breaking import MIN_LAST_CHARS, MIN_LAST_WORDS
from ppgen.typeset.text import plain

LANGS = ["en", "ja", "ko", "zh"]
CJK = {"ja", "zh"}
CODE = re.compile(r"[A-Z]{3}-\d{2}")


@pytest.fixture(scope="session")
def printed(full_set):
    """Every part of every language, built once (conftest.py): (output folder, build result)."""
    result, out = full_set
    return out, result


@pytest.fixture(scope="session")
def pages(printed):
    """{(lang, part): glyphs of every page}, read once."""
    out, _ = printed
    return {(lang, part): glyphs(out / lang / f"{part}-{lang}.pdf", upright=part != "cards")
            for lang in LANGS for part in ("rulebook", "mats", "score-sheet", "cards")}


# ── reading text back ────────────────────────────────────────────────────
def compact(text: str) -> str:
    return "".join(ch for ch in text if not ch.isspace())


def split_spans(lines: list[str], text: str, spans) -> list[str]:
    """The spans of `text` (its printed lines given) whose characters lie on more than one line."""
    line_of = [k for k, line in enumerate(lines) for _ in compact(line)]
    assert compact("".join(lines)) == compact(text), (lines, text)
    before = [0]
    for ch in text:
        before.append(before[-1] + (not ch.isspace()))
    return [text[a:b] for a, b in spans if before[b] > before[a] and len(set(line_of[before[a]:before[b]])) > 1]


def runt(lines: list[str], lang: str) -> bool:
    """Does a paragraph of two lines or more end with a runt line (as typeset/breaking.py counts)?"""
    if len(lines) < 2:
        return False
    if lang in CJK:
        return len(compact(lines[-1])) < MIN_LAST_CHARS < len(compact("".join(lines)))
    return len(lines[-1].split()) < MIN_LAST_WORDS < len(" ".join(lines).split())


# Line heights (× the type size) of ppgen's styles: templates/rulebook-style.yaml and the
# drawing modules' own (draw/mat.py, draw/score_sheet.py, draw/rulebook.py).
LEADINGS = (1.1, 1.15, 1.2, 1.22, 1.25, 1.28, 1.3, 1.35, 1.42, 1.6)


def blocks(lines):
    """Lines that set one paragraph: the same size, exactly one line height apart, overlapping
    horizontally (a list item or a new paragraph starts further down, or closer: a one-line
    item is only its type's height plus the gap)."""
    out = []
    for line in lines:  # top to bottom; columns side by side interleave
        for block in reversed(out):
            last = block[-1]
            if (abs(last.size - line.size) < 0.05 and line.left < last.right and line.right > last.left
                    and any(abs(last.baseline - line.baseline - line.size * k) < 0.06 for k in LEADINGS)):
                block.append(line)
                break
        else:
            out.append([line])
    return out


def cells(found):
    """Every printed line, split where characters stand more than 0.6 em apart (table columns)."""
    out = []
    for line in text_lines(found):
        current = [line.glyphs[0]]
        for g in line.glyphs[1:]:
            if g.x0 - current[-1].x1 > 0.6 * g.size:
                out.append(type(line)(current))
                current = []
            current.append(g)
        out.append(type(line)(current))
    return [line for line in out if line.text.strip()]


def fronts(project, pdf_path, lang, found_pages):
    """(card, placed x, placed y, the page's glyphs) for every card front on the sheets."""
    cards = {card.id: card for card in project.game.cards}
    for page, found in zip(reader(pdf_path).pages, found_pages):
        for placed in placements(page):
            if placed.form.startswith(f"front-{lang}-"):
                yield cards[placed.form.removeprefix(f"front-{lang}-")], placed.x, placed.y, found


def element_lines(template, card, name, x, y, found):
    e = template.elements(card.kind)[name]
    return text_lines(found, x + e.x * MM, y + e.y * MM, x + (e.x + e.w) * MM, y + (e.y + e.h) * MM)


@pytest.fixture(scope="session")
def card_texts(project, printed, pages):
    """{lang: [(card, name lines, effect lines)]} for one printing of every card front."""
    out, _ = printed
    template = load_card_template(project)
    result = {}
    for lang in LANGS:
        seen = {}
        for card, x, y, found in fronts(project, out / lang / f"cards-{lang}.pdf", lang, pages[(lang, "cards")]):
            if card.id not in seen:
                seen[card.id] = (card, [l.text for l in element_lines(template, card, "name", x, y, found)],
                                 [l.text for l in element_lines(template, card, "effect", x, y, found)])
        result[lang] = list(seen.values())
    return result


# ── cards ────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("lang", LANGS)
def test_every_card_front_was_read(card_texts, project, lang):
    assert len(card_texts[lang]) == len(project.game.cards)


@pytest.mark.parametrize("lang", LANGS)
def test_no_key_word_or_unbreakable_phrase_is_split_on_a_card(card_texts, project, lang):
    style = load_card_template(project).style("effect")
    phrases = project.phrases(lang)
    mode = project.config.languages[lang].line_break
    split = {}
    for card, _, effect_lines in card_texts[lang]:
        marked = marked_effect(project, card, lang, style)
        text = plain(marked)
        bold, pos = [], 0
        for i, part in enumerate(marked.split("**")):
            if i % 2:
                bold.append((pos, pos + len(part)))
            pos += len(part)
        broken = split_spans(effect_lines, text, phrases.spans(text, mode) + bold)
        if broken:
            split[card.code] = broken
    assert not split


@pytest.mark.parametrize("lang", LANGS)
def test_two_line_names_leave_no_short_word_alone(card_texts, lang):
    lone = {}
    for card, name_lines, _ in card_texts[lang]:
        assert 1 <= len(name_lines) <= 2, (card.code, name_lines)
        if len(name_lines) == 2:
            for line in name_lines:
                short = len(compact(line)) < 3 if lang in CJK else (len(line.split()) == 1 and len(line.strip()) < 5)
                if short:
                    lone[card.code] = name_lines
            if "," in "".join(name_lines) and lang not in CJK:
                assert name_lines[0].endswith(","), (card.code, name_lines)  # breaks after the comma
    assert not lone


@pytest.mark.parametrize("lang", LANGS)
def test_no_card_text_ends_with_a_runt_line(card_texts, printed, project, lang):
    _, result = printed
    reported = {w.key for w in result.report.warnings if w.code == "orphan" and w.lang == lang}
    runts = {}
    for card, _, effect_lines in card_texts[lang]:
        text = plain(project.card_effect(card, lang))
        line_of = [k for k, line in enumerate(effect_lines) for _ in compact(line)]
        at = 0
        for paragraph in text.split("\n"):
            n = len(compact(paragraph))
            if n:
                first, last = line_of[at], line_of[at + n - 1]  # a paragraph ends its last line
                if runt(effect_lines[first : last + 1], lang) and f"card.{card.id}.effect" not in reported:
                    runts[card.code] = effect_lines
            at += n
    assert not runts


def letter_spacing(pdf_path) -> dict[str, float]:
    """{card front's face key: the widest character spacing (Tc) its text is set with, in ems of
    the size then in force (Tf)}, read from every front form of a card sheet PDF."""
    from pdftools import form_key, operations

    pdf = reader(pdf_path)
    widest: dict[str, float] = {}
    for page in pdf.pages:
        for name, ref in page["/Resources"].get("/XObject", {}).items():
            key = form_key(name)
            if not key.startswith("front-") or key in widest:
                continue
            size, spacing, found = 0.0, 0.0, 0.0
            for operands, op in operations(ref.get_object()):
                if op == b"Tf":
                    size = float(operands[1])
                elif op == b"Tc":
                    spacing = float(operands[0])
                elif op in (b"Tj", b"TJ", b"'", b'"'):  # the spacing and size a text is shown with
                    found = max(found, spacing / size)
            widest[key] = found
    return widest


@pytest.mark.parametrize("lang", sorted(CJK))
def test_no_justified_card_line_is_letter_spaced(printed, project, lang):
    """ja ROM-14 ("手札を1枚捨て、デッキから" before "レベル5未満", which is kept whole) and zh
    MAC-12, ROM-05 and ROM-10 were spread 0.19–0.37 em a gap; such a line is set left now."""
    from ppgen.typeset.justify import MAX_SPREAD

    out, _ = printed
    widest = letter_spacing(out / lang / f"cards-{lang}.pdf")
    assert len(widest) == len(project.game.cards)
    assert max(widest.values()) > 0.05  # justified lines are spread: the spacing is read
    loose = {key: round(v, 3) for key, v in widest.items() if v > MAX_SPREAD + 1e-3}
    assert not loose


def _script(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return "k" if "KATAKANA" in name else "h" if "CJK UNIFIED" in name else "j" if "HIRAGANA" in name else ""


PHRASE_END_AFTER = set("、。，．・：；！？）」』】〉》”’,.;:!?)")


@pytest.mark.parametrize("lang", sorted(CJK))
def test_a_card_line_set_left_ends_where_a_phrase_does(printed, pages, project, lang):
    """A justified ja/zh line set left (too short to spread) ends at a space, after punctuation, where
    katakana and kanji meet, or after a particle before a word — not inside one: ja EGY-16 was
    "墓地からユニット1体を手札に加 / える。", ROM-12 "…DEFが1上 / がる。", zh MAC-12, CAR-14, DAC-10
    "…特殊部署 1 个 / 等级 < 5 的…" (the count away from what it counts)."""
    out, _ = printed
    template = load_card_template(project)
    inside, seen, checked = [], set(), 0
    for card, x, y, found in fronts(project, out / lang / f"cards-{lang}.pdf", lang, pages[(lang, "cards")]):
        if card.id in seen:
            continue
        seen.add(card.id)
        e = template.elements(card.kind)["effect"]
        right = x + (e.x + e.w) * MM
        lines = element_lines(template, card, "effect", x, y, found)
        text = plain(project.card_effect(card, lang))
        index = [i for i, ch in enumerate(text) if not ch.isspace()]  # where each printed character is in the text
        count = 0
        for line, after in zip(lines, lines[1:]):
            count += len(compact(line.text))
            at = index[count - 1]
            if text[at + 1] == "\n" or right - line.right < 1.0:  # a paragraph's last line, or a full one
                continue
            checked += 1
            a, b = text[at], text[at + 1]
            if not (b.isspace() or a in PHRASE_END_AFTER or {_script(a), _script(b)} == {"k", "h"}
                    or (_script(a) == "j" and _script(b) != "j" and b.isalnum())):
                inside.append((card.code, line.text, after.text))
    assert checked >= 3  # lines are set left: the check reads them
    assert not inside


# ── rulebook, mats, score sheet ──────────────────────────────────────────
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("part", ["rulebook", "mats", "score-sheet"])
def test_no_phrase_split_and_no_runt_in_the_rulebook_mats_and_score_sheet(pages, project, lang, part):
    phrases = project.phrases(lang)
    mode = project.config.languages[lang].line_break
    joiner = "" if lang in CJK else " "
    # a line that is a whole text of the locale is a paragraph of its own (after a line break:
    # "**Player 1**\nLife"), not the last line of the lines above it
    whole = {" ".join(project.locale(lang).get(key).split()) for key in project.locale("en").entries}
    split, runts = [], []
    cell_size = rulebook_style(project).type.table
    for n, found in enumerate(pages[(lang, part)], 1):
        # a card reference's name cell is the name, a line break, the collector code: the code
        # is a paragraph of its own, not the name's last line
        for block in blocks([line for line in cells(found) if not CODE.fullmatch(line.text.strip())]):
            lines = [line.text.strip() for line in block]
            text = joiner.join(lines)
            split += [(n, s) for s in split_spans(lines, text, phrases.spans(text, mode))]
            if runt(lines, lang) and lines[-1] not in whole:
                runts.append((n, lines))
            # a Commander's ♚ never wraps alone in a name cell (the badge of a card a picture shows is a glyph of its own)
            lone_mark = [line for line in block if line.text.strip() == "♚" and abs(line.size - cell_size) < 0.3]
            assert not lone_mark, (n, lines)
    assert not split
    assert not runts


@pytest.mark.parametrize("lang", sorted(CJK))
def test_justified_rulebook_lines_end_together(pages, project, lang):
    """Every line of a ja/zh body paragraph but its last ends at the right margin (of the page's
    text frame, or of the panel it sits in), within 0.5 pt — or, pushed in, with the empty half
    of its last mark (、。」) past it."""
    from test_text import LINE_END_MARKS

    look = rulebook_style(project)
    page_w = 210 * MM
    right = page_w - look.page.margin_side * MM
    margins = (right, right - look.space.panel_padding * MM)
    body_sizes = {look.type.body, look.type.lead}
    checked, ragged = 0, []
    for n, found in enumerate(pages[(lang, "rulebook")][1:], 2):
        for block in blocks(text_lines(found)):
            if round(block[0].size, 2) not in body_sizes:
                continue
            for line in block[:-1]:
                checked += 1
                past = 0.5 * line.size if line.text.rstrip()[-1] in LINE_END_MARKS else 0.0
                if not any(-0.5 <= line.right - m <= past + 0.5 for m in margins):
                    ragged.append((n, round(line.right - right, 2), line.text))
    assert checked > 15  # ja 40, zh 19 lines that are not the last of their paragraph
    assert not ragged


@pytest.mark.parametrize("part,label,lines", [
    ("mats", "mat.energy-max", ["エネルギー", "最大値"]),  # the energy panel's row label, beside "ターン"
])
def test_japanese_labels_are_re_broken_at_their_seam_not_shrunk(pages, project, part, label, lines):
    """Two lines at the label's own size rather than one shrunk: the glossary's breaks say where."""
    assert project.locale("ja").get(label) == "".join(lines)
    for found in pages[("ja", part)]:
        for block in blocks(text_lines(found)):
            if [line.text for line in block] == lines:
                neighbours = [line.size for line in text_lines(found) if line.text == "ターン"]  # the row above it
                assert block[0].size == max(neighbours)  # as large as its neighbours, not shrunk
                return
    pytest.fail(f"{lines} not found as two lines")
