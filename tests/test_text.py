"""The text engine alone, on small strings: breaking, kinsoku, fitting, glyphs, markup."""
from __future__ import annotations

import io

import pytest

from ppgen.typeset.text import NO_LINE_END, NO_LINE_START, GlyphError, MarkupError, Style, draw, fit, layout


def style(project, lang, size=9.0, min_size=None, **kw):
    fonts = project.fonts
    mode = project.config.languages[lang].line_break
    return Style(fonts.chain(lang, "body"), fonts.chain(lang, "bold"), size, min_size, line_break=mode, **kw)


def test_english_breaks_between_words(project):
    lay = layout("Once per turn: target 1 face-up unit; it loses 1 ATK this turn.", style(project, "en"), 80, 200)
    assert len(lay.lines) > 2
    words = set("Once per turn: target 1 face-up unit; it loses 1 ATK this turn.".split())
    for line in lay.text.split("\n"):
        for word in line.replace("\u00a0", " ").split():
            assert word in words, line
    assert all(line.width <= 80 + 1e-6 for line in lay.lines)


def test_number_stays_with_its_stat(project):
    lay = layout("it loses 1 ATK this turn and 2 DEF", style(project, "en"), 45, 200)
    for line in lay.text.split("\n"):
        assert not line.rstrip().endswith(("1", "2")), lay.text


def test_korean_breaks_only_between_words(project):
    text = "자신이 조종하는 보병 또는 원거리 보병이 공격 대상으로 지정되었을 때: 그 유닛을 수비 표시로 변경하고 그 공격을 무효화합니다."
    lay = layout(text, style(project, "ko"), 90, 300)
    assert len(lay.lines) > 3
    words = set(text.split())
    for line in lay.text.split("\n"):
        assert all(w in words for w in line.split()), line


@pytest.mark.parametrize("lang", ["ja", "zh"])
def test_kinsoku_in_every_card_effect(project, lang):
    """No line of any wrapped ja/zh effect starts with closing punctuation or ends with an opening bracket."""
    st = style(project, lang)
    checked = 0
    for card in project.game.cards:
        text = project.card_effect(card, lang)
        for width in (60, 75, 90, 110):
            lines = layout(text, st, width, 999).text.split("\n")
            for before, after in zip(lines, lines[1:]):
                assert after[:1] not in NO_LINE_START, (card.id, width, before, after)
                assert before[-1:] not in NO_LINE_END, (card.id, width, before, after)
                checked += 1
    assert checked > 1000


def test_kinsoku_on_a_crafted_string(project):
    text = "「テストゥド」が表側で存在する場合、このカードのDEFが1上がる。（超過分は相手のLPへのダメージとなる）"
    st = style(project, "ja")
    one = layout("あ", st, 100, 100).lines[0].width
    for n in range(4, 20):  # every possible line length in characters
        lines = layout(text, st, one * n + 0.01, 999).text.split("\n")
        for before, after in zip(lines, lines[1:]):
            assert after[0] not in "、。」）" and before[-1] not in "「（", (n, lines)


def test_long_word_without_spaces_is_broken_not_overflowing(project):
    lay = layout("Supercalifragilisticexpialidocious" * 3, style(project, "en"), 60, 500)
    assert len(lay.lines) > 3
    assert lay.width <= 60 + 1e-6


def test_fit_shrinks_to_fit_then_reports_overflow(project):
    text = " ".join(["word"] * 60)
    roomy = fit(text, style(project, "en", 9, 5), 150, 200)
    assert roomy.fits and roomy.size == 9
    tight = fit(text, style(project, "en", 9, 5), 150, 60)
    assert tight.fits and 5 <= tight.size < 9
    assert (tight.size * 4) == int(tight.size * 4)  # 0.25 pt steps
    bigger = layout(text, style(project, "en"), 150, 60, size=tight.size + 0.25)
    assert not bigger.fits  # the largest size that fits
    hopeless = fit(text, style(project, "en", 9, 5), 60, 20)
    assert not hopeless.fits and hopeless.size == 5 and hopeless.overflow > 0


def test_missing_glyph_names_the_key(project):
    with pytest.raises(GlyphError) as exc:
        layout("Hastati \U000F0000 line", style(project, "en"), 100, 100, where="locales/en.yaml:12:5 card.x.name")
    assert "card.x.name" in str(exc.value) and "U+F0000" in str(exc.value)


def test_symbols_fall_back_to_the_next_font(project):
    lay = layout("ハスタティ ♚", style(project, "ja"), 200, 50)
    fonts = [font for font, _ in lay.lines[0].runs]
    assert fonts[0].startswith("NotoSansJP") and fonts[-1] == "DejaVuSans"


def test_bold_markup_uses_the_bold_chain(project):
    lay = layout("**On Deploy:** draw 1 card.", style(project, "en"), 300, 50)
    runs = lay.lines[0].runs
    assert (runs[0][0], runs[0][1].strip()) == ("NotoSans_700Bold", "On Deploy:") and runs[-1][0] == "NotoSans_400Regular"
    with pytest.raises(MarkupError):
        layout("**unbalanced", style(project, "en"), 100, 50)


def test_xml_characters_print_as_themselves(project):
    from pypdf import PdfReader
    from reportlab.pdfgen.canvas import Canvas

    st = style(project, "en")
    buf = io.BytesIO()
    c = Canvas(buf, initialFontName=st.regular.primary, invariant=1)
    draw(c, layout("Draw <font name=x> & 1 card", st, 300, 40), 20, 700)
    c.save()
    assert "Draw <font name=x> & 1 card" in PdfReader(buf).pages[0].extract_text()


def test_control_and_bidi_characters_are_dropped(project):
    lay = layout("A\u200fB\u0007C\u202eD", style(project, "en"), 300, 40)
    assert lay.text == "ABCD"


def test_missing_glyph_is_found_when_regular_and_bold_share_one_chain(project):
    """One-line sheet texts use the same chain for both: the check must still look at every span."""
    chain = project.fonts.chain("zh", "body")
    with pytest.raises(GlyphError, match="U\\+13000"):
        layout("打印 \U00013000", Style(chain, chain, 8), 300, 40, where="sheet.print-note")
    with pytest.raises(GlyphError, match="U\\+13000"):
        layout("**打印 \U00013000**", Style(chain, chain, 8), 300, 40)
