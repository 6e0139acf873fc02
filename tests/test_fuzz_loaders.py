"""Fuzzing the loaders of ppgen.yaml, the templates and the glossary, and `i18n import` of
PO files: any input gives a result or a clean error (a PpgenError), never another exception.

"Wrong types everywhere a value is read": a value of the real file is replaced by one of
another type or an odd number, and when the file still loads, what it drives is drawn
(a card template that loads but cannot be drawn is a bug too: `.inf` once was one).
Bounded and derandomized (see fuzzing.py).
"""
from __future__ import annotations

import io
import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ppgen
from fuzzing import clean, fuzz, nasty, nasty_text
from ppgen.write.build import BuildOptions
from ppgen.write.report import BuildReport

ODD_VALUES = ["", "~", "[]", "{}", "-1", "0", "-0.5", "0.001", "0.3", "99", "199", "1.0e9", "1e9", ".inf", "-.inf", ".nan",
              "yes", "'x'", '"#12"', '"#GGGGGG"', "[1, 2]", "{a: 1}", "'<b>&amp;</b>'", '"\\e[31m"', "\"\U0001F984\"",
              "mix(a, b, 2)", "'{n} {n}'", "'{'", "'**'", "[[[]]]"]


LINE = re.compile(r"^(?P<indent>\s*)(?P<dash>- )?(?:(?P<key>[^:#\s\"'\[{][^:#]*?|\"[^\"]*\"):(?:\s+|$))?(?P<value>[^#]*?)(?P<comment>\s+#.*)?$")


def value_lines(text: str) -> list[int]:
    """Lines holding a value: `key: value` or `- item` (not comments, not block headers)."""
    out = []
    for i, line in enumerate(text.split("\n")):
        m = LINE.match(line)
        if line.strip() and not line.lstrip().startswith("#") and m and m["value"].strip():
            out.append(i)
    return out


def sometimes(p: float):
    """True with probability about `p` (hypothesis favours the first choice when it shrinks: False)."""
    n = round(1 / p)
    return st.sampled_from([False] * (n - 1) + [True])


def yaml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML double-quoted string


@st.composite
def new_value(draw, old: str) -> str:
    """Mostly a plausible change (a number scaled, a text with odd characters inside), sometimes
    a value of another type or an odd number altogether."""
    if draw(sometimes(0.3)):
        return draw(st.sampled_from(ODD_VALUES))
    try:
        number = float(old)
    except ValueError:
        number = None
    if number is not None:
        factor = draw(st.sampled_from([0, 0.01, 0.3, 0.5, 0.9, 1.1, 1.5, 2, 5, 100]))
        return repr(round(number * factor + draw(st.sampled_from([0, 0, 0.25, -0.25, 1])), 3))
    text = old.strip("\"'")
    at = draw(st.integers(0, len(text)))
    return yaml_string(text[:at] + draw(nasty_text) + text[at:])


def flow(value) -> str:
    """A value in YAML flow style (JSON is YAML)."""
    return json.dumps(value, ensure_ascii=False)


@st.composite
def new_flow_value(draw, old: str) -> str:
    """Change one item of a flow mapping `{en: Rome, ja: ローマ}` or list `[a, b]`."""
    import yaml

    try:
        data = yaml.safe_load(old)
    except yaml.YAMLError:
        data = None
    if isinstance(data, dict) and data and not draw(sometimes(0.2)):
        key = draw(st.sampled_from(sorted(data, key=str)))
        item = data[key]
        changed = draw(new_flow_value(flow(item)) if isinstance(item, (list, dict)) else new_value(str(item)))
        return "{" + ", ".join(f"{flow(str(k))}: {changed if k == key else flow(v)}" for k, v in data.items()) + "}"
    if isinstance(data, list) and data and not draw(sometimes(0.2)):
        i = draw(st.integers(0, len(data) - 1))
        changed = draw(new_value(str(data[i])))
        return "[" + ", ".join(changed if j == i else flow(v) for j, v in enumerate(data)) + "]"
    return draw(new_value(old))


@st.composite
def mutated(draw, original: str):
    """The file with one value (sometimes two or three) changed; rarely a key renamed."""
    lines = original.split("\n")
    candidates = value_lines(original)
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, 3]))):
        i = draw(st.sampled_from(candidates))
        m = LINE.match(lines[i])
        if m is None:
            continue
        key = m["key"]
        if key and draw(sometimes(0.05)):
            key = key + draw(st.sampled_from(["x", "_", "s"]))
        prefix = m["indent"] + (m["dash"] or "") + (f"{key}: " if key else "")
        lines[i] = prefix + draw(new_flow_value(m["value"].strip()))
    return "\n".join(lines)


@pytest.fixture
def game(game_copy):
    return game_copy


def options(project):
    return BuildOptions.resolve(project, lang="en", parts="rulebook,mats,score-sheet", jobs=1)


def draw_part(project, part: str, lang: str = "en") -> None:
    from ppgen.write.parts import PARTS

    opts = clean(options, project)
    if opts is not None:
        clean(PARTS[part], project, opts, lang, [], BuildReport())


# ── ppgen.yaml ─────────────────────────────────────────────────────────────
def test_fuzz_config_values(game):
    path = game / "ppgen.yaml"
    original = path.read_text(encoding="utf-8")

    @fuzz(60)
    @given(text=mutated(original))
    def run(text):
        path.write_text(text, encoding="utf-8")
        project = clean(ppgen.load, game)
        if project is not None:
            for lang in project.languages:
                clean(project.language, lang)
            draw_part(project, "score-sheet", "ja" if "ja" in project.config.languages else "en")

    run()


# ── templates ──────────────────────────────────────────────────────────────
def afresh(project):
    """`project` as the next `ppgen build` sees it after a template changed: its game,
    configuration and locales (no file fuzzed here changes them), every template read again
    (a Project reads a template once: fuzzing one project would draw its first template always)."""
    return ppgen.Project(project.dir, project.game, project.config, _locales=project._locales)


class Drawn:
    """A spy on the functions the drawing code reads a template with: `check` proves each
    example drew the template its own file holds, `distinct` counts the templates drawn."""

    def __init__(self, monkeypatch, *targets: str):
        self.seen: list = []
        self.distinct: set[str] = set()  # by repr: a NaN read from a file is not equal to itself
        for target in targets:  # the name the drawing module calls, e.g. "ppgen.draw.mat.mat_style"
            monkeypatch.setattr(target, self._spy(_resolve(target)))

    def _spy(self, read):
        def spy(*args, **kwargs):
            value = read(*args, **kwargs)
            self.seen.append(value)
            return value
        return spy

    def check(self, expected) -> None:
        """What was drawn since the last check was `expected`, the template the file holds now."""
        assert self.seen, "the drawing code did not read the template"
        for value in self.seen:
            assert repr(value) == repr(expected), "drew another template than the file's"
        self.distinct.add(repr(expected))
        self.seen.clear()


def _resolve(target: str):
    import importlib

    module, name = target.rsplit(".", 1)
    return getattr(importlib.import_module(module), name)


def test_fuzz_card_template(game, monkeypatch):
    from reportlab.pdfgen.canvas import Canvas

    from ppgen.draw.faces import CardGeometry, back_face, front_face
    from ppgen.read.templates import load_card_template

    path = game / "templates" / "card.yaml"
    original = path.read_text(encoding="utf-8")
    base = ppgen.load(game)
    cards = [base.game.card(i) for i in ("hastati-line", "fortified-camp", "testudo")] + [next(c for c in base.game.cards if c.commander)]
    geometry = {"poker": CardGeometry.named("poker"), "mini": CardGeometry.named("mini")}
    drawn = Drawn(monkeypatch, "ppgen.draw.card_front.load_card_template", "ppgen.draw.card_back.load_card_template")

    @fuzz(150)
    @given(text=mutated(original), size=st.sampled_from(sorted(geometry)), lang=st.sampled_from(["en", "ja"]))
    def run(text, size, lang):
        path.write_text(text, encoding="utf-8")
        project = afresh(base)
        template = clean(load_card_template, project)
        if template is None:
            return
        canvas = Canvas(io.BytesIO())
        for card in cards:
            face = clean(front_face, project, card, lang, geometry[size], BuildReport())
            if face is not None:
                face.draw_flat(canvas)  # in place: no Document defines its backdrop form
        back = clean(back_face, project, geometry[size])
        if back is not None:
            back.draw(canvas)
        canvas.save()
        drawn.check(template)

    run()
    assert len(drawn.distinct) > 1  # with a template read once per project: 1


@pytest.mark.parametrize("name, parts, examples, readers", [
    ("rulebook", ["rulebook"], 30, ["ppgen.draw.rulebook.load_structure"]),
    ("rulebook-style", ["rulebook"], 30, ["ppgen.draw.rulebook.rulebook_style"]),
    ("mat-style", ["mats", "score-sheet"], 80, ["ppgen.draw.mat.mat_style", "ppgen.draw.score_sheet.mat_style"]),
], ids=["rulebook", "rulebook-style", "mat-style"])
def test_fuzz_drawing_templates(game, monkeypatch, name, parts, examples, readers):
    path = game / "templates" / f"{name}.yaml"
    original = path.read_text(encoding="utf-8")
    base = ppgen.load(game)
    read = _resolve(readers[0])
    drawn = Drawn(monkeypatch, *readers)

    @fuzz(examples)
    @given(text=mutated(original))
    def run(text):
        path.write_text(text, encoding="utf-8")
        project = afresh(base)
        expected = clean(read, project)
        if expected is not None:
            for part in parts:
                draw_part(project, part)
            drawn.check(expected)

    run()
    assert len(drawn.distinct) > 1  # with a template read once per project: 1


# ── the glossary ───────────────────────────────────────────────────────────
TEXTS = {
    "en": ["Once per turn: draw 1 card for each Missile Infantry you control.", "Deal 2 ATK and 2 DEF {n} to {faction}.",
           "two players, one d20 and two d6 per deck"],
    "ja": ["1ターンに1度：自分の射撃歩兵1体につき、カードを1枚引く。", "ATKとDEFが2上がる。", "プレイヤー2人、20面ダイス1個"],
}


def exercise(glossary) -> None:
    for en, ja in zip(TEXTS["en"], TEXTS["ja"]):
        for items in (glossary.terms, glossary.idioms):
            glossary.find(en, items)
            glossary.find_translated(ja, "ja", items)
        glossary.skips_terms("card.x.name")


def test_fuzz_glossary_values(game):
    from ppgen.read.glossary import load_glossary

    path = game / "locales" / "glossary.yaml"
    original = path.read_text(encoding="utf-8")

    @fuzz(150)
    @given(text=mutated(original))
    def run(text):
        path.write_text(text, encoding="utf-8")
        glossary = clean(load_glossary, path, game, ["en", "ja", "ko", "zh"])
        if glossary is not None:
            exercise(glossary)

    run()


form = st.one_of(nasty(12), st.sampled_from(["{n}", "{n} ATK", "ATK {n}", "{n}{n}", "", " ", "(", "\\", "*", "{x}", "1枚", "{n}体"]))
forms = st.one_of(form, st.lists(form, max_size=3), st.integers(), st.none(), st.dictionaries(nasty_text, form, max_size=2))
entry = st.fixed_dictionaries({"en": forms}, optional={"ja": forms, "ko": forms, "zh": forms, "keys": forms,
                                                         "exclude_keys": forms, "note": forms, "extra": forms})


def test_fuzz_glossary_entries(game):
    """Generated terms and idioms: regex characters, number slots, empty and odd forms."""
    import yaml

    from ppgen.read.glossary import load_glossary

    path = game / "locales" / "glossary.yaml"

    @fuzz(200)
    @given(data=st.fixed_dictionaries({}, optional={"terms": st.one_of(st.lists(entry, max_size=4), forms),
                                                    "idioms": st.one_of(st.lists(entry, max_size=4), forms),
                                                    "same_as_source": forms, "terms_skip": forms}))
    def run(data):
        path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
        glossary = clean(load_glossary, path, game, ["en", "ja", "ko", "zh"])
        if glossary is not None:
            exercise(glossary)

    run()


# ── PO files for `i18n import` ─────────────────────────────────────────────
@pytest.fixture(scope="module")
def english(project):
    return project.locale("en")


def po_text(entries, header: bool, language: str) -> str:
    import polib

    po = polib.POFile(wrapwidth=78)
    if header:
        po.metadata = {"Language": language, "Content-Type": "text/plain; charset=UTF-8"}
    for e in entries:
        po.append(e)
    return str(po)


@st.composite
def po_files(draw, english):
    import polib

    keys = list(english.entries)
    entries = []
    for _ in range(draw(st.integers(0, 6))):
        key = draw(st.one_of(st.sampled_from(keys), nasty_text, st.none()))
        msgid = draw(st.one_of(st.sampled_from([english.entries[k].text for k in keys[:50]]), nasty(20),
                               st.just(english.entries[key].text) if key in english.entries else nasty(5)))
        msgstr = draw(st.one_of(nasty(40), st.text(max_size=40), st.sampled_from(["", "{faction}", "**x**", "{", "a: b", "#", "- x",
                                                                                 "'", '"', "\\", "\n\n", "|", ">", "&a", "*a"])))
        entry = polib.POEntry(msgctxt=key, msgid=msgid or "x", msgstr=msgstr)
        if draw(st.booleans()):
            entry.flags.append("fuzzy")
        if draw(st.integers(0, 5)) == 0:
            entry.msgid_plural = "xs"
            entry.msgstr_plural = {0: msgstr, 1: msgstr}
        if draw(st.integers(0, 5)) == 0:
            entry.obsolete = True
        entries.append(entry)
    text = po_text(entries, draw(st.booleans()), draw(st.sampled_from(["ja", "ko", "en", "xx", ""])))
    if draw(st.integers(0, 3)) == 0:  # break a line of the file itself
        lines = text.split("\n")
        i = draw(st.integers(0, max(0, len(lines) - 1)))
        lines.insert(i, draw(st.one_of(nasty(20), st.sampled_from(['msgstr "', '"', 'msgid', '#~ msgid "x"', 'msgstr[0] "x"']))))
        text = "\n".join(lines)
    return text


def test_fuzz_po_import(game, english):
    from ppgen.i18n.po import import_po

    project = ppgen.load(game)
    po = game / "fuzz.po"
    ja = game / "locales" / "ja.yaml"
    before = ja.read_bytes()

    @fuzz(40)
    @given(text=po_files(english), lang=st.sampled_from(["ja", None]))
    def run(text, lang):
        po.write_text(text, encoding="utf-8")
        clean(import_po, project, po, lang, dry_run=True)

    run()
    assert ja.read_bytes() == before  # dry runs write nothing


def test_fuzz_po_import_writes(game, english):
    """Imports that write: the locale file they leave always loads, and holds the texts imported."""
    import polib

    from ppgen.i18n.po import import_po
    from ppgen.read.locale import load_locale

    po = game / "fuzz.po"
    keys = [k for k in english.entries if k.startswith(("faction.", "label.", "rules.goal"))]
    project = ppgen.load(game)  # import_po reads the locale file afresh every time

    @fuzz(20)
    @given(items=st.lists(st.tuples(st.sampled_from(keys), st.one_of(nasty(30), st.text(min_size=1, max_size=30))),
                          min_size=1, max_size=4, unique_by=lambda kv: kv[0]))
    def run(items):
        entries = [polib.POEntry(msgctxt=k, msgid=english.entries[k].text, msgstr=v) for k, v in items]
        text = po_text(entries, True, "ko")
        po.write_text(text, encoding="utf-8")
        result = clean(import_po, project, po, "ko")
        locale = load_locale(game / "locales" / "ko.yaml", "ko", game, project.locale("en"))
        if result is not None:
            read = {e.msgctxt: e.msgstr for e in polib.pofile(text)}  # as a PO reader sees them
            for k, _ in items:
                if read[k]:
                    assert locale.entries[k].text == read[k]

    run()
