"""The text engine alone, on small strings: breaking, kinsoku, fitting, glyphs, markup."""
from __future__ import annotations

import io

import pytest

from ppgen.typeset.text import NO_LINE_END, NO_LINE_START, GlyphError, MarkupError, Style, draw, fit, layout


def style(project, lang, size=9.0, min_size=None, **kw):
    fonts = project.fonts
    mode = project.config.languages[lang].line_break
    kw.setdefault("phrases", project.phrases(lang))  # the glossary's unbreakable phrases
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


# ── rules on top of the break opportunities (phrases, breaking, justify) ──
def draw_to_pdf(lay, x=20.0, y=400.0):
    from reportlab.pdfgen.canvas import Canvas

    buf = io.BytesIO()
    c = Canvas(buf, initialFontName=lay.style.regular.primary, invariant=1)
    draw(c, lay, x, y)
    c.save()
    return buf.getvalue()


# Marks whose empty half a line pushed in lets run past the margin (JLREQ's books: 1/2 → 0 at a line's end)
LINE_END_MARKS = frozenset("、。，．」』）】〉》〕］｝”’：；")


def printed_lines(lay, x=20.0):
    """The layout drawn into a PDF and read back by PDFium: its lines, top to bottom."""
    from pdftools import glyphs, text_lines

    return text_lines(glyphs(draw_to_pdf(lay, x))[0])


def em_of(project, lang, text, size=9.0):
    return project.fonts.chain(lang, "body").width(text, size)


@pytest.mark.parametrize("lang,text,phrase", [
    ("en", "Special Deploy 1 Level < 5 Infantry from your Graveyard in Defense.", "Level < 5"),
    ("ja", "配備時：墓地からレベル5未満の歩兵ユニット1体を守備表示で蘇生する。地形軍略1枚を守る。1ターンに1度：手札を1枚捨てる。", "1ターンに1度："),
    ("zh", "部署时：从墓地以防御表示复活 1 个等级 < 5 的步兵。每回合一次：丢弃 1 张卡。", "每回合一次："),
    ("ko", "배치 시: 묘지에서 레벨 5 미만 보병/기병 1장을 수비 표시로 특수 배치합니다. 상대 DEF −1", "DEF −1"),
    # a number with its counter or unit, a range with its unit (the rulebook broke "1 / つ", "6 / 試合", "5–6 / 级单位")
    ("ja", "ローマとスパルタは最初から使え、ほかの勢力は対戦を重ねると解放されます（ペルシアは6試合）。", "6試合"),
    ("ja", "セットのすべてのパーツが順番どおりに1つのファイルに入っています。", "1つ"),
    ("zh", "攻击花费该单位的能量；部署 5–6 级单位花费其能量；发动军略或战术花费 1；盖放免费。", "5–6 级"),
    ("en", "Card sheets: 280 cards and 2 quick-reference cards, 64 pages, on card stock (160–250 g/m²).", "160–250 g/m²"),
])
def test_an_unbreakable_phrase_is_never_split(project, lang, text, phrase):
    """At every width from 9 to 30 ems (the phrase fits a line) it lands on one line."""
    st = style(project, lang)
    joiner = "" if lang in ("ja", "zh") else " "
    for ems in range(9, 31):
        lines = layout(text, st, ems * 9.0, 999).text.split("\n")
        assert any(phrase in line for line in lines), (ems, lines)
        assert phrase in joiner.join(lines)


def test_phrases_that_overlap_are_kept_as_one():
    """Two phrases that share a character are one span: "5–6" (a range) and "6 级" (a number and its
    counter) keep "5–6 级" whole. Found as one alternation, the first hid the second ("5–6 / 级")."""
    from ppgen.typeset.phrases import Phrases

    text = "部署 5–6 级单位，1 ATK < 5"
    spans = Phrases(keep=("{n}–{n}", "{n} 级", "{n} ATK", "ATK < {n}")).spans(text, "cjk")
    assert [text[a:b] for a, b in spans] == ["5–6 级", "1 ATK < 5"]


def test_without_the_glossary_the_same_phrase_breaks(project):
    """The rule is the data's: with no phrases, "Level < 5" breaks where UAX #14 allows."""
    text = "Special Deploy 1 Level < 5 Infantry"
    widths = range(40, 160)
    with_data = [layout(text, style(project, "en"), w, 999).text for w in widths]
    without = [layout(text, style(project, "en", phrases=None), w, 999).text for w in widths]
    assert not any("Level\n" in t or "<\n" in t for t in with_data)
    assert any("Level\n" in t or "<\n" in t for t in without)


def test_a_bold_span_is_kept_whole_unless_wider_than_the_line(project):
    st = style(project, "ja")
    text = "このカードのATKが上がる。**1ターンに1度：**手札を1枚捨てる。"
    for ems in range(8, 20):
        assert "1ターンに1度：" in layout(text, st, ems * 9.0, 999).text
    narrow = layout("**とても長い太字の一続きの文章はこうなる**", st, 5 * 9.0, 999)  # wider than a line: breaks
    assert len(narrow.lines) > 1 and narrow.width <= 5 * 9.0 + 1e-6


@pytest.mark.parametrize("lang,text", [
    ("ja", "通常配備時：このターン、自分フィールドの歩兵ユニット1体のATKが1上がる。"),
    ("zh", "相手ユニットの攻撃を無効にして、その後で手札を1枚捨てる。"),
    ("en", "Once per turn: target 1 face-up unit you control; it gains 1 ATK in combat this turn."),
    ("ko", "배치 시: 상대의 앞면 표시 유닛 1장을 수비 표시로 변경합니다. 자신의 보병은 공격력이 1 올라갑니다."),
])
def test_no_paragraph_ends_with_a_runt_line(project, lang, text):
    """At every width where the text takes two lines or more, the last line holds at least 3
    characters (ja/zh) or two words (en/ko); the text engine re-breaks to get there."""
    st = style(project, lang)
    seen_rebreaks = 0
    for w in range(60, 400, 3):
        lay = layout(text, st, w, 999)
        lines = lay.text.split("\n")
        if len(lines) > 1:
            last = lines[-1]
            assert (len(last.replace(" ", "")) >= 3) if lang in ("ja", "zh") else len(last.split()) >= 2, (w, lines)
            assert lay.orphans == 0 and lay.width <= w + 1e-6
        plain_fill = layout(text, style(project, lang, orphans=False), w, 999).text.split("\n")
        seen_rebreaks += plain_fill != lines
    assert seen_rebreaks > 0  # the rule did something


def test_a_runt_no_break_avoids_is_counted(project):
    st = style(project, "ja")
    one = em_of(project, "ja", "あ")
    lay = layout("あいうえおかきくけこさ", st, one * 10 + 0.01, 999)  # 11 characters, 10 a line: 1 left over
    assert lay.text.split("\n") == ["あいうえおかきく", "けこさ"] and lay.orphans == 0  # re-broken: the line before gives 2
    hopeless = layout("**あいう**え", st, one * 3 + 0.01, 999)  # a bold span fills the line: え stays alone
    assert hopeless.text.split("\n") == ["あいう", "え"] and hopeless.orphans == 1


def test_names_break_after_the_comma_and_leave_no_short_word_alone(project):
    st = style(project, "en", 11.0, 7.0, balance=True, bold_all=True)
    for name, first in [("Decebalus, King of Dacia", "Decebalus,"), ("Hannibal Barca, Master of Envelopment", "Hannibal Barca,"),
                        ("Alexander, King of Macedon", "Alexander,")]:
        lay = fit(name, st, em_of(project, "en", name, 11.0) * 0.75, 30)
        assert lay.text.split("\n")[0] == first, lay.text
    ko = style(project, "ko", 11.0, 7.0, balance=True)
    lay = fit("알렉산드로스, 마케도니아의 왕", ko, em_of(project, "ko", "알렉산드로스, 마케도니아의 왕", 11.0) * 0.7, 30)
    assert lay.text.split("\n") == ["알렉산드로스,", "마케도니아의 왕"]
    lay = fit("Sacred Band of Carthage", st, em_of(project, "en", "Sacred Band of Carthage", 11.0) * 0.7, 30)
    assert lay.text.split("\n") == ["Sacred Band", "of Carthage"]  # balanced, no comma


def test_a_cjk_label_breaks_at_its_compound_seam(project):
    from ppgen.draw.style import fit_label

    st = style(project, "ja", 9.0, 5.0)
    w = em_of(project, "ja", "スタンバイフェイズ") * 0.7  # one line would need 70 %
    lay = fit_label("スタンバイフェイズ", st, w, 30)
    assert lay.text.split("\n") == ["スタンバイ", "フェイズ"] and lay.size == 9.0
    plain_st = style(project, "ja", 9.0, 5.0, phrases=None)  # no compound seams: no good break in the word
    no_seam = fit_label("スタンバイフェイズ", plain_st, em_of(project, "ja", "スタンバイフェイズ") * 0.8, 30)
    assert "\n" not in no_seam.text and no_seam.size < 9.0  # shrunk, not broken inside the word


def test_consecutive_punctuation_closes_up(project):
    st = style(project, "ja")
    one = em_of(project, "ja", "あ")
    lay = layout("「あ。」（い）、う", st, 999, 50)
    # 9 full-width characters; 。」 closes 0.5 em, 」（ 0.5, ）、 0.5: 7.5 ems
    assert lay.lines[0].width == pytest.approx(7.5 * one, abs=0.01)
    lines = printed_lines(lay)
    xs = {g.ch: g.x0 for g in lines[0].glyphs}
    assert xs["」"] - xs["。"] == pytest.approx(0.5 * one, abs=0.05)


@pytest.mark.parametrize("lang", ["ja", "zh"])
def test_justified_cjk_lines_end_at_the_margin_and_the_last_line_is_left(project, lang):
    text = {"ja": "オンラインでもテーブルでも、ルールはまったく同じです。オンラインではゲームがすべての数値を管理してくれます。"
                  "テーブルでは戦場の状況を自分で管理します（1から6）。数値はATK 5やDEF 2のように小さく、複雑な計算に悩むことはありません。",
            "zh": "无论线上还是桌面游玩，规则完全相同：线上由游戏替你记录每一个数字；桌面上则由你自己记录战场状态。"
                  "所有数字都很小（1 到 6），例如 ATK 5 或 DEF 2，无需担心复杂的计算。"}[lang]
    for ems in (17.3, 23.6, 31.1, 40.7):
        w = ems * 9.0
        lay = layout(text, style(project, lang, align="justify"), w, 999)
        lines = printed_lines(lay)
        assert len(lines) == len(lay.lines) >= 2
        for line in lines[:-1]:  # at the margin, or its last mark's empty half past it (a line pushed in)
            past = 9.0 * 0.5 if line.text.rstrip()[-1] in LINE_END_MARKS else 0.0
            assert -0.5 <= line.right - (20 + w) <= past + 0.5, (ems, line.text)
        assert lines[-1].right < 20 + w - 9.0 * 0.5  # the last line is set left, not spread
        for line in lines:  # the Latin runs keep their own spacing: ATK, DEF and their digits are not spread
            for word in ("ATK", "DEF"):
                at = line.text.find(word)
                if at >= 0:
                    g = [x for x in line.glyphs if not x.ch.isspace()]
                    k = [x.ch for x in g].index(word[0])
                    assert g[k + 1].x0 == pytest.approx(g[k].x1, abs=0.01) and g[k + 2].x0 == pytest.approx(g[k + 1].x1, abs=0.01)


def test_justification_changes_nothing_in_words_languages_unless_asked(project):
    text = "Once per turn: target 1 face-up unit you control; it gains 1 ATK in combat this turn."
    left = printed_lines(layout(text, style(project, "en"), 150, 999))
    assert len({round(line.right, 1) for line in left}) > 1  # ragged right
    justified = printed_lines(layout(text, style(project, "en", align="justify"), 150, 999))
    assert all(line.right == pytest.approx(170, abs=0.5) for line in justified[:-1])  # word spaces widened


def test_a_layout_is_made_once_and_the_memo_stays_bounded(project, monkeypatch):
    """The same text, style and box give the layout already made (the rulebook measures a
    paragraph before placing it); another box or size lays it out again; the memo forgets its
    oldest layouts beyond its limit (a workbench runs for hours)."""
    from ppgen.typeset import text as engine
    from ppgen.typeset.memo import Memo

    monkeypatch.setattr(engine, "LAYOUTS", Memo(3))
    st = style(project, "en")
    first = layout("Draw two cards, then discard one.", st, 80, 200)
    assert layout("Draw two cards, then discard one.", st, 80, 200) is first
    wider = layout("Draw two cards, then discard one.", st, 400, 200)
    assert wider is not first and len(wider.lines) < len(first.lines)
    assert fit("Draw two cards.", st, 80, 200) is fit("Draw two cards.", st, 80, 200)
    for n in range(5):
        layout(f"Card {n}", st, 80, 200)
    assert len(engine.LAYOUTS) == 3
    assert layout("Draw two cards, then discard one.", st, 80, 200) is not first  # forgotten, made again
    assert layout("Draw two cards, then discard one.", st, 80, 200).text == first.text


def test_pieces_are_joined_exactly_where_a_cut_falls_inside_a_span():
    """text._joined walks the (sorted, merged) spans beside the cuts: the same pieces as asking,
    for every cut, whether any span holds it strictly inside — spans unsorted, overlapping,
    touching or empty included."""
    import random

    from ppgen.typeset.text import _joined

    def joined(cuts, spans):
        out = []
        for a, b in zip(cuts, cuts[1:]):
            if out and any(s < a < e for s, e in spans):
                out[-1][1].append(b)
            else:
                out.append((a, [a, b]))
        return [a for a, _ in out] + [cuts[-1]], {a: inner for a, inner in out if len(inner) > 2}

    rng = random.Random(14)
    for _ in range(3000):
        n = rng.randint(0, 30)
        cuts = sorted({0, n, *(rng.randint(0, n) for _ in range(rng.randint(0, 12)))})
        spans = [(a, rng.randint(a, n)) for a in (rng.randint(0, n) for _ in range(rng.randint(0, 5)))]
        assert _joined(cuts, spans) == joined(cuts, spans), (cuts, spans)


def test_units_are_measured_and_marked_as_their_definition_says(project):
    """text._segment looks a piece's measure up by the piece alone in a paragraph all bold or all
    not, and tells a good break and the closing up of two marks from each character's script and
    compressibility: every unit the same as measuring it from its own characters and flags
    (`_measured`), asking the katakana and han patterns and justify.pair at every boundary — on
    random ja and zh paragraphs of kana, kanji, punctuation, Latin and bold spans."""
    import random
    import re

    from ppgen.typeset import text as engine
    from ppgen.typeset.justify import pair

    katakana = re.compile(r"[\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9f]")
    han = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
    alphabet = "自分の場ユニットを選ぶ攻撃力上げる、。「」（）・：；！？ATK 2ー々っ"
    rng = random.Random(22)
    for lang in ("ja", "zh"):
        st = style(project, lang)
        for n in range(400):
            chars = [rng.choice(alphabet) for _ in range(rng.randint(1, 30))]
            if n % 3 == 0 and len(chars) > 4:  # a bold span inside, or the whole paragraph bold
                a = rng.randrange(len(chars) - 2) if n % 2 else 0
                b = rng.randint(a + 1, len(chars) - 1) if n % 2 else len(chars) - 1
                chars[a:b + 1] = ["**", *chars[a:b + 1], "**"]
            text = "".join(chars)
            if "****" in text or text.startswith("**") and text.count("**") != 2:
                continue
            engine._segment.cache_clear()
            engine._MEASURED.clear()
            units = engine._segment(text, st.regular, st.bold, st.line_break, False, st.phrases)
            flat = engine.plain(text)
            bold = []
            for piece, is_bold in engine.parse_markup(text):
                bold += [is_bold] * len(piece)
            at = 0
            for k, u in enumerate(units):
                start = at
                end = start + len("".join(run for _, run in u.runs))
                while end < len(flat) and flat[end] == " ":
                    end += 1
                measured = engine._measured(flat[start:end], tuple(bold[start:end]), st.regular, st.bold, st.line_break)
                assert (u.width, u.space, u.chars, u.last, u.head, u.tail, u.squeeze) == (
                    measured[1], measured[2], measured[3], measured[5], measured[6], measured[7], measured[8]), (text, k)
                if not u.space:
                    after = flat[end:end + 1]
                    expected = (end in st.phrases.seams(flat) or u.last in engine._GOOD_AFTER
                                or bool(katakana.match(u.last) and han.match(after)) or bool(han.match(u.last) and katakana.match(after)))
                    assert u.good == expected, (text, k)
                    if k + 1 < len(units) and u.runs and units[k + 1].runs:
                        a = (u.runs[-1][0], u.runs[-1][1][-1])
                        b = (units[k + 1].runs[0][0], units[k + 1].runs[0][1][0])
                        assert units[k + 1].kern == -pair(a, b), (text, k)
                at = end


def test_a_characters_script_is_told_as_the_katakana_and_han_patterns_tell_it():
    """text._script (a good break falls between katakana and kanji; a phrase ends after hiragana
    before a word) by code point ranges: the same as the three patterns it stands for, on every
    character of the Basic Multilingual Plane and beyond it, and on no character."""
    import re

    from ppgen.typeset.text import _script

    katakana = re.compile(r"[\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9f]")
    han = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
    hiragana = re.compile(r"[\u3041-\u309f]")
    for code in [*range(0x10000), 0x20000, 0x2A700, 0x1F600]:
        ch = chr(code)
        want = "k" if katakana.match(ch) else "h" if han.match(ch) else "j" if hiragana.match(ch) else ""
        assert _script(ch) == want, hex(code)
    assert _script("") == ""


@pytest.mark.parametrize("lang, text, whole", [
    ("ja", "100%（実際のサイズ）で印刷し、「ページに合わせる」は使わないでください。カードはちょうど63 × 88 mmになります。", "63 × 88 mm"),
    ("ja", "カード280枚とクイックリファレンスカード2枚、64ページ", "64ページ"),
    ("zh", "以 100%（实际尺寸）打印，不要“适合页面”：卡牌必须正好是 63 × 88 mm。", "63 × 88 mm"),
    ("zh", "280 张卡牌和 2 张速查卡，共 64 页", "64 页"),
    ("en", "Print at 100 % (actual size), without “fit to page”: the cards come out exactly 63 × 88 mm.", "63 × 88 mm"),
])
def test_a_measure_keeps_its_unit_and_a_count_its_pages(project, lang, text, whole):
    """The glossary keeps a number with its unit (63 × 88 mm) and a page count with its word
    (64ページ, 64 页): the ja rulebook broke "63 × 88 / mm" and "64 / ページ". At every width
    from a few characters to the whole text, no line break falls inside."""
    st = style(project, lang)
    solid, kept = text.replace(" ", ""), whole.replace(" ", "")  # compared without spaces (a break may take one)
    start = solid.index(kept)
    for width in range(70, 420, 6):  # (narrower than the phrase itself, it must break)
        lines = ["".join(run for _, run in line.runs).replace(" ", "") for line in layout(text, st, width, 1000).lines]
        assert "".join(lines) == solid
        ends = [sum(map(len, lines[:k + 1])) for k in range(len(lines) - 1)]
        assert not any(start < end < start + len(kept) for end in ends), (width, lines)


# ── generated paragraphs: justified ja/zh text of the game's own pieces ─────
PIECES = {"ja": ["レベル5未満", "1ターンに1度：", "ユニット", "自分フィールドの", "手札を", "1枚", "捨て、", "ATK", "DEF", "が",
                 "1上がる。", "「森の小道」", "（最大3）", "を", "破壊する。", "2体", "デッキから", "。", "、", "ー", "ッ", "戦闘中、",
                 "\n", "**配備時：**"],
          "zh": ["等级 < 5", "每回合一次：", "单位", "你的", "1 个", "1 张", "获得", "1 ATK", "和", "2 DEF。", "“林间小径”", "，", "。",
                 "；", "从手牌", "以防御表示", "特殊部署", "本回合", "抽 1 张牌", "\n", "**部署时：**"]}


@pytest.mark.parametrize("lang", ["ja", "zh"])
def test_fuzz_justified_paragraphs_keep_every_character_and_never_letter_space(project, lang):
    """Paragraphs pieced together from the game's phrases, key words and punctuation, fitted to boxes
    from a column of a few characters to a wide one: every character is set once, in order, and no
    line but one set left (a paragraph's last, or one too short to spread) widens a gap by more
    than justify.MAX_SPREAD of an em."""
    from hypothesis import given
    from hypothesis import strategies as st

    from fuzzing import fuzz
    from ppgen.errors import PpgenError
    from ppgen.typeset.justify import MAX_SPREAD, set_line
    from ppgen.typeset.text import _width, clean, plain

    justified = style(project, lang, align="justify", min_size=6.0)

    @fuzz(60)
    @given(pieces=st.lists(st.sampled_from(PIECES[lang]), min_size=1, max_size=30),
           width=st.floats(40, 300), height=st.floats(20, 200))
    def run(pieces, width, height):
        text = "".join(pieces).strip("\n")
        if not text:
            return
        try:
            lay = fit(text, justified, width, height)
        except PpgenError:  # markup the pieces cannot close (a bold span cut by a line break)
            return
        assert "".join(t for line in lay.lines for _, t in line.runs).replace(" ", "") == \
            plain(clean(text)).replace("\n", "").replace(" ", "")
        for line in lay.lines:
            if line.last:
                continue
            chars = [(font, ch) for font, run in line.runs for ch in run]
            segments, _ = set_line(chars, [_width(ch, font) for font, ch in chars], lay.size, width, True)
            assert max(s.char_space for s in segments) <= MAX_SPREAD * lay.size + 1e-6, (text, width)

    run()


@pytest.mark.parametrize("lang, text", [
    ("ja", "装備ユニットのATKとDEFが1上がる。かわりに1枚捨てる。"),  # ROM-12 took two lines: "…DEFが1上 / がる。"
    ("zh", "若你控制正面朝上的军略，获得 1 DEF。此卡获得 1 ATK。"),
])
def test_a_line_pushed_in_gives_up_the_blank_after_its_last_mark_first(project, lang, text):
    """JLREQ's books set a line-end 、。」 half-width when a line is pushed in: a measure half an em
    short of the first sentence still holds it whole, the full stop's ink inside the measure and only
    its empty half past it, and no mark inside the line is closed up for it."""
    st = style(project, lang, align="justify")
    first = text[: text.index("。") + 1]
    natural = layout(first, st, 999, 999).lines[0].width  # one line, set at its natural width
    width = natural - 0.5 * 9.0 + 0.01
    lay = layout(text, st, width, 999)
    assert "".join(t for _, t in lay.lines[0].runs) == first
    (line, *_) = printed_lines(lay)
    stop = [g for g in line.glyphs if g.ch == "。"][-1]
    assert stop.x0 + 0.5 * 9.0 <= 20 + width + 0.01 < stop.x1  # its ink in, its empty half out
    assert line.glyphs[0].x0 == pytest.approx(20, abs=0.01)
    inner = [b.x0 - a.x1 for a, b in zip(line.glyphs, line.glyphs[1:]) if not a.ch.isspace() and not b.ch.isspace()]
    assert min(inner) > -0.01  # nothing closed up inside the line: the full stop's blank was enough
