"""`ppgen i18n sync`, `export` and `import`: they change exactly what they say, and nothing else, byte for byte."""
from __future__ import annotations

import difflib
import re
import subprocess

import pytest

import ppgen
from clitools import call_ppgen
from ppgen.i18n.edit import LocaleText
from ppgen.read.locale import source_hash


def changes(before: str, after: str) -> list[tuple[list[str], list[str]]]:
    """The changed line runs between two texts: (old lines, new lines) per change."""
    a, b = before.splitlines(keepends=True), after.splitlines(keepends=True)
    ops = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    return [(a[i1:i2], b[j1:j2]) for tag, i1, i2, j1, j2 in ops if tag != "equal"]


def english_keys(root) -> int:
    """How many entries the game's English has (every translated language has them all)."""
    return len(ppgen.load(root).locale("en").entries)


def replace(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


# ── edit: the text surgery under sync and import ─────────────────────────

HAND_WRITTEN = """\
# head

# Sec A
a.one:
  text: uno   # inline
  src: 1e000001
a.two: {text: 'dos', src: "00000002"}
a.three:
    text: >-
      long folded
      text here
    src: 00000003
    status: needs-review  # reviewer: Ken

# Sec B
b.one:
  text: "quoted: yes"
  src: 00000004
  # trailing comment in b.one
b.two:
  text: plain
    continued line
  src: 00000005
b.three: just a string
"""


def test_edits_touch_only_their_lines_in_any_yaml_style():
    t = LocaleText(HAND_WRITTEN, "t.yaml")
    t.set_field("a.one", "status", "needs-review")
    t.set_field("a.two", "status", "needs-review")
    t.set_field("a.two", "text", "tres, cuatro")
    t.remove_field("a.three", "status")
    t.set_field("a.three", "src", "abcdef12")
    t.set_field("b.one", "text", 'new: text "x"')
    t.set_field("b.three", "src", "12345678")
    t.insert_entry("a.one", "a.new", {"text": "Hello: world", "src": "deadbeef", "status": "needs-translation"})
    t.insert_entry("a.one", "a.new2", {"text": "Second", "src": "deadbee0", "status": "needs-translation"})
    t.insert_entry(None, "a.zero", {"text": "Zero", "src": "deadbee1"})
    t.delete_entry("b.two")
    assert t.result() == """\
# head

# Sec A
a.zero:
  text: Zero
  src: deadbee1
a.one:
  text: uno   # inline
  src: 1e000001
  status: needs-review
a.new:
  text: "Hello: world"
  src: deadbeef
  status: needs-translation
a.new2:
  text: Second
  src: deadbee0
  status: needs-translation
a.two: {text: 'tres, cuatro', src: "00000002", status: needs-review}
a.three:
    text: >-
      long folded
      text here
    src: abcdef12
    # reviewer: Ken

# Sec B
b.one:
  text: "new: text \\"x\\""
  src: 00000004
  # trailing comment in b.one
b.three:
  text: just a string
  src: 12345678
"""


def test_no_edit_means_the_same_text():
    t = LocaleText(HAND_WRITTEN, "t.yaml")
    assert not t.changed and t.result() == HAND_WRITTEN


@pytest.mark.parametrize("value", ["plain", "a: colon", "#hash", "yes", "4e545960", " padded ", "line\nbreak", "{amount} {stat}", "引用「x」: y", "'quotes' \"both\""])
def test_any_text_survives_the_round_trip(value):
    t = LocaleText(HAND_WRITTEN, "t.yaml")
    t.set_field("a.one", "text", value)
    t.set_field("a.two", "text", value)
    t.insert_entry("b.three", "c.new", {"text": value, "src": "00000009"})
    data = ppgen.read.yamlio.parse_yaml(t.result(), "t.yaml", plain_strings=True).data
    assert data["a.one"]["text"] == data["a.two"]["text"] == data["c.new"]["text"] == value


BLOCKS = """\
# blocks, as a translator may write multi-line texts
a.literal:
  text: |   # two lines
    first line
    second line

  src: 00000001
a.strip:
    text: |-
      no break at the end
    src: 00000002
a.folded:
  text: >
    folded
    into one line
  src: 00000003
a.bare: |
  a bare entry
  of two lines

b.after: kept
"""


@pytest.mark.parametrize("value", ["one line", "new first\nnew second\n", "ends without a break\nhere", "blank\n\nline inside\n",
                                   "", "two breaks at the end\n\n", "  starts with spaces\n", "引用「x」: y #not a comment\n"])
def test_a_block_scalar_text_takes_any_new_value_and_stays_a_block(value):
    """`i18n import` / `sync` set the text of an entry a translator wrote as a YAML block (| or >,
    the natural way to write a text of several lines): the new text reads back exactly, still a
    block of the same kind at the same indentation where a block can hold it (else quoted on the
    line), the header's comment, the blank line after the block and every other line untouched."""
    t = LocaleText(BLOCKS, "t.yaml")
    for key in ("a.literal", "a.strip", "a.folded", "a.bare"):
        t.set_field(key, "text", value)
    t.set_field("a.literal", "src", "abcdef12")
    out = t.result()
    data = ppgen.read.yamlio.parse_yaml(out, "t.yaml", plain_strings=True).data
    assert {k: data[k]["text"] for k in ("a.literal", "a.strip", "a.folded", "a.bare")} == dict.fromkeys(
        ("a.literal", "a.strip", "a.folded", "a.bare"), value)
    assert data["a.literal"]["src"] == "abcdef12" and data["b.after"] == "kept"
    lines = out.split("\n")
    assert lines[0] == "# blocks, as a translator may write multi-line texts" and out.endswith("\nb.after: kept\n")
    assert "  src: abcdef12" in lines and lines[lines.index("  src: abcdef12") - 1] == ""  # the blank line after the block
    def stays_a_block(key):  # quoted instead: a first line of spaces; two breaks at the end with a blank line after
        return not value.startswith(" ") and not (key == "a.literal" and value.endswith("\n\n"))

    for key, style, pad in (("a.literal", "|", 4), ("a.strip", "|", 6), ("a.folded", ">", 4), ("a.bare", "|", 4)):
        at = next(i for i, line in enumerate(lines) if line.lstrip().startswith("text:") and lines[i - 1].startswith(key))
        written = lines[at].split("text:")[1].lstrip()
        assert written.startswith(style) == stays_a_block(key), (key, written)
        assert written.startswith('"') == (not stays_a_block(key)), (key, written)
        if stays_a_block(key) and value.strip():
            first = lines[at + 1]
            assert first.startswith(" " * pad) and not first.startswith(" " * (pad + 1)), (key, first)
    if stays_a_block("a.literal"):
        assert re.search(r"text: \|[-+]?   # two lines$", out, re.M)  # its comment, as it was written


# ── sync ─────────────────────────────────────────────────────────────────

def test_sync_adds_marks_and_keeps_everything_else_byte_identical(game_copy):
    en, ja = game_copy / "locales" / "en.yaml", game_copy / "locales" / "ja.yaml"
    replace(en, "card.hastati-line.name: Hastati Line\n", "card.hastati-line.name: Hastati Battle Line\n")
    replace(en, "label.bonus: Bonus\n", "label.bonus: Bonus\nlabel.reserve: Reserve\n")
    replace(ja, "label.bonus:\n  text: ボーナス\n  src: d587622d\n", "label.bonus:\n  text: ボーナス\n  src: d587622d\nlabel.gone:  # kept: sync never deletes silently\n  text: 古い\n  src: 00000000\n")
    before = ja.read_text(encoding="utf-8")
    result = call_ppgen("--root", str(game_copy), "i18n", "sync", "--lang", "ja")
    assert result.returncode == 0, result.stderr
    assert "1 added, 1 marked needs-review" in result.stderr
    assert re.search(r"locales/ja\.yaml:\d+:1: orphan 'label\.gone' \(not in English\) kept", result.stderr)
    after = ja.read_text(encoding="utf-8")
    assert changes(before, after) == [
        ([], ["label.reserve:\n", "  text: Reserve\n", f"  src: {source_hash('Reserve')}\n", "  status: needs-translation\n"]),
        (["  src: 0e0ca2fa\n"], [f"  src: {source_hash('Hastati Battle Line')}\n", "  status: needs-review\n"]),
    ]
    assert after.index("label.reserve:") < after.index("label.gone:"), "new keys go right after the preceding English key"
    again = call_ppgen("--root", str(game_copy), "i18n", "sync", "--lang", "ja")
    assert "0 added, 0 marked needs-review (up to date)" in again.stderr
    assert ja.read_text(encoding="utf-8") == after
    check = call_ppgen("--root", str(game_copy), "i18n", "check", "--lang", "ja")
    assert sorted(re.findall(r"error\[(\w+)\]", check.stdout)) == ["missing", "orphan", "stale"]


def test_sync_prune_names_what_it_removes_and_dry_run_writes_nothing(game_copy):
    ja = game_copy / "locales" / "ja.yaml"
    replace(ja, "# Print sheets\n", "label.gone:\n  text: 古い\n  src: 00000000\n\n# Print sheets\n")
    before = ja.read_bytes()
    dry = call_ppgen("--root", str(game_copy), "i18n", "sync", "--lang", "ja", "--prune", "--dry-run")
    assert "orphan 'label.gone' (not in English) would remove" in dry.stderr
    assert ja.read_bytes() == before
    run = call_ppgen("--root", str(game_copy), "i18n", "sync", "--lang", "ja", "--prune")
    assert "orphan 'label.gone' (not in English) removed" in run.stderr
    assert changes(before.decode(), ja.read_text(encoding="utf-8")) == [(["label.gone:\n", "  text: 古い\n", "  src: 00000000\n"], [])]


def test_sync_keeps_crlf_and_bom(game_copy):
    ja = game_copy / "locales" / "ja.yaml"
    ja.write_bytes(b"\xef\xbb\xbf" + ja.read_bytes().replace(b"\n", b"\r\n"))
    replace(game_copy / "locales" / "en.yaml", "faction.rome: Rome\n", "faction.rome: Roma\n")
    before = ja.read_bytes()
    assert call_ppgen("--root", str(game_copy), "i18n", "sync", "--lang", "ja").returncode == 0
    after = ja.read_bytes()
    assert after.startswith(b"\xef\xbb\xbf") and b"\n" not in after.replace(b"\r\n", b"")
    assert changes(before.decode("utf-8-sig"), after.decode("utf-8-sig")) == [
        (["  src: d0d22019\r\n"], [f"  src: {source_hash('Roma')}\r\n", "  status: needs-review\r\n"])]


def test_a_failed_sync_leaves_the_file_untouched(game_copy):
    ja = game_copy / "locales" / "ja.yaml"
    replace(ja, "faction.dacia:\n", "faction.carthage:\n")  # a duplicate key
    replace(game_copy / "locales" / "en.yaml", "faction.rome: Rome\n", "faction.rome: Roma\n")
    before = ja.read_bytes()
    result = call_ppgen("--root", str(game_copy), "i18n", "sync", "--lang", "ja")
    assert result.returncode == 2
    assert re.search(r"locales/ja\.yaml:\d+:1: error\[duplicate\] duplicate key ‘faction.carthage’", result.stderr)
    assert "Traceback" not in result.stderr
    assert ja.read_bytes() == before
    assert [p.name for p in ja.parent.iterdir() if p.name.startswith(".")] == [], "no temporary file left behind"


def test_sync_refuses_the_source_language(game_copy):
    result = call_ppgen("--root", str(game_copy), "i18n", "sync", "--lang", "en")
    assert result.returncode == 2 and "source language" in result.stderr


# ── PO round trip ────────────────────────────────────────────────────────

@pytest.mark.parametrize("lang", ["ja", "ko", "zh"])
def test_export_then_import_changes_nothing(game_copy, tmp_path, lang):
    loc = game_copy / "locales" / f"{lang}.yaml"
    before = loc.read_bytes()
    po = tmp_path / f"{lang}.po"
    assert call_ppgen("--root", str(game_copy), "i18n", "export", "--lang", lang, "-o", str(po)).returncode == 0
    result = call_ppgen("--root", str(game_copy), "i18n", "import", str(po))
    assert result.returncode == 0, result.stderr
    assert f"0 updated, 0 added, {english_keys(game_copy)} unchanged" in result.stderr
    assert loc.read_bytes() == before


def test_an_import_checks_what_it_changed_and_says_so(game_copy, tmp_path):
    """A PO entry that lost a {placeholder} (or changed a number) is imported — the translator's work
    is written, not dropped — and then checked as `i18n check` does: its errors listed at their
    locales/ja.yaml:LINE:COL, exit status 1. (It said "ok" and the error waited for the next check.)"""
    import polib

    po = tmp_path / "ja.po"
    assert call_ppgen("--root", str(game_copy), "i18n", "export", "--lang", "ja", "-o", str(po)).returncode == 0
    catalog = polib.pofile(str(po))
    entry = catalog.find("rules.goal.1", by="msgctxt")
    assert "{starting_life}" in entry.msgstr
    entry.msgstr = entry.msgstr.replace("{starting_life}", "20")
    catalog.save(str(po))
    result = call_ppgen("--root", str(game_copy), "i18n", "import", str(po))
    assert result.returncode == 1, result.stderr
    ja = game_copy / "locales" / "ja.yaml"
    assert "各プレイヤーは20ライフポイント" in ja.read_text(encoding="utf-8")  # written
    assert re.search(r"^locales/ja\.yaml:\d+:\d+: error\[markup\] 'rules\.goal\.1': .*lacks \{starting_life\}", result.stdout, re.M)
    assert "1 updated" in result.stderr and "2 errors in them" in result.stderr
    again = call_ppgen("--root", str(game_copy), "i18n", "check", "--lang", "ja")
    assert again.returncode == 1 and "error[markup] 'rules.goal.1'" in again.stdout  # the same finding check gives


def test_an_import_keeps_a_fix_made_in_the_yaml_since_the_export(game_copy, tmp_path):
    """The PO is out for review; meanwhile the translator fixes a text in the YAML. Importing the
    PO back keeps that fix (it was undone without a word): quietly where the PO left the entry as
    exported, with a warning naming both texts where the reviewer changed it too. A PO that does
    not say what it exported (an older one, its comments stripped) imports as before."""
    import polib

    ja = game_copy / "locales" / "ja.yaml"
    po = tmp_path / "ja.po"
    assert call_ppgen("--root", str(game_copy), "i18n", "export", "--lang", "ja", "-o", str(po)).returncode == 0
    replace(ja, "  text: エジプト\n", "  text: エジプト王国\n")
    replace(ja, "  text: ローマ\n", "  text: ローマ帝国\n")
    catalog = polib.pofile(str(po))
    catalog.find("faction.rome", by="msgctxt").msgstr = "ローマ共和国"  # the reviewer changed it too
    catalog.find("faction.sparta", by="msgctxt").msgstr = "スパルタ王国"  # and one the file did not touch
    catalog.save(str(po))
    result = call_ppgen("--root", str(game_copy), "i18n", "import", str(po))
    assert result.returncode == 0, result.stderr
    text = ja.read_text(encoding="utf-8")
    assert "エジプト王国" in text and "ローマ帝国" in text and "ローマ共和国" not in text and "スパルタ王国" in text
    assert "1 updated" in result.stderr and "2 kept as the file has them" in result.stderr
    assert re.search(r"ja\.po:\d+:1: 'faction\.rome' was changed in locales/ja\.yaml since the export and in this PO file: "
                     r'kept the file\'s "ローマ帝国"; the PO\'s is "ローマ共和国"', result.stderr), result.stderr
    assert "faction.egypt" not in result.stderr  # the PO left it as exported: nothing to say
    for entry in catalog:  # the same PO without what ppgen wrote in its comments: the PO's texts win, as before
        entry.comment = "\n".join(line for line in entry.comment.split("\n") if not line.startswith("exported:"))
    catalog.save(str(po))
    assert call_ppgen("--root", str(game_copy), "i18n", "import", str(po)).returncode == 0
    assert "ローマ共和国" in ja.read_text(encoding="utf-8")


def test_a_dry_run_names_each_key_it_would_change(game_copy, tmp_path):
    """`sync --dry-run` and `import --dry-run` list the keys they would change, one per line (they
    gave counts only), and write nothing."""
    import polib

    en, ja = game_copy / "locales" / "en.yaml", game_copy / "locales" / "ja.yaml"
    before = ja.read_bytes()
    text = en.read_text(encoding="utf-8")
    old = next(line for line in text.split("\n") if line.startswith("card.hastati-line.effect:"))
    en.write_text(text.replace(old, old.replace("1 ATK", "2 ATK")), encoding="utf-8")
    sync = call_ppgen("--root", str(game_copy), "i18n", "sync", "--lang", "ja", "--dry-run")
    assert "locales/ja.yaml: would mark needs-review 'card.hastati-line.effect'" in sync.stderr
    en.write_text(text, encoding="utf-8")
    po = tmp_path / "ja.po"
    call_ppgen("--root", str(game_copy), "i18n", "export", "--lang", "ja", "-o", str(po))
    catalog = polib.pofile(str(po))
    catalog.find("faction.rome", by="msgctxt").msgstr = "ローマ帝国"
    catalog.save(str(po))
    result = call_ppgen("--root", str(game_copy), "i18n", "import", str(po), "--dry-run")
    assert "locales/ja.yaml: would update 'faction.rome'" in result.stderr and "1 updated" in result.stderr
    assert ja.read_bytes() == before


def test_export_is_deterministic_and_well_formed(game_copy, tmp_path):
    a, b = tmp_path / "a.po", tmp_path / "b.po"
    for out in (a, b):
        call_ppgen("--root", str(game_copy), "i18n", "export", "--lang", "ko", "-o", str(out))
    assert a.read_bytes() == b.read_bytes()
    import polib

    po = polib.pofile(str(a))
    assert po.metadata["Language"] == "ko" and len(po) == english_keys(game_copy)
    entry = po.find("card.hastati-line.name", by="msgctxt")
    assert (entry.msgid, entry.msgstr) == ("Hastati Line", "하스타티 전열")
    assert "python-brace-format" in po.find("bonus.part", by="msgctxt").flags
    assert not any(e.fuzzy for e in po)


def export_with_testudo_as(game_copy, tmp_path, msgstr: str):
    """The ja export with Testudo's name translated as `msgstr`: (ja.yaml, its text, the PO file)."""
    ja = game_copy / "locales" / "ja.yaml"
    before = ja.read_text(encoding="utf-8")
    po = tmp_path / "ja.po"
    call_ppgen("--root", str(game_copy), "i18n", "export", "--lang", "ja", "-o", str(po))
    text = po.read_text(encoding="utf-8")
    old = 'msgctxt "card.testudo.name"\nmsgid "Testudo"\nmsgstr "テストゥド"\n'
    assert old in text
    po.write_text(text.replace(old, old.replace('msgstr "テストゥド"', f'msgstr "{msgstr}"')), encoding="utf-8")
    return ja, before, po


def test_round_trip_with_one_edit_changes_exactly_that_entry(game_copy, tmp_path):
    ja, before, po = export_with_testudo_as(game_copy, tmp_path, "亀甲隊形")
    result = call_ppgen("--root", str(game_copy), "i18n", "import", str(po))
    assert f"1 updated, 0 added, {english_keys(game_copy) - 1} unchanged" in result.stderr
    assert changes(before, ja.read_text(encoding="utf-8")) == [(["  text: テストゥド\n"], ["  text: 亀甲隊形\n"])]


def test_stale_entries_export_fuzzy_and_a_reviewed_import_clears_them(game_copy, tmp_path):
    en, ja = game_copy / "locales" / "en.yaml", game_copy / "locales" / "ja.yaml"
    replace(en, "card.testudo.name: Testudo\n", "card.testudo.name: Testudo Formation\n")
    replace(en, "label.bonus: Bonus\n", "label.bonus: Bonus\nlabel.reserve: Reserve\n")
    call_ppgen("--root", str(game_copy), "i18n", "sync", "--lang", "ja")
    synced = ja.read_text(encoding="utf-8")
    po = tmp_path / "ja.po"
    call_ppgen("--root", str(game_copy), "i18n", "export", "--lang", "ja", "-o", str(po))
    import polib

    catalog = polib.pofile(str(po))
    testudo = catalog.find("card.testudo.name", by="msgctxt")
    assert testudo.fuzzy and testudo.msgid == "Testudo Formation" and testudo.previous_msgid is None
    assert catalog.find("label.reserve", by="msgctxt").msgstr == ""
    # unedited: nothing changes, not even for the fuzzy and the untranslated entry
    call_ppgen("--root", str(game_copy), "i18n", "import", str(po))
    assert ja.read_text(encoding="utf-8") == synced
    # the translator reviews Testudo (unfuzzy, same text) and translates the new key
    testudo.flags.remove("fuzzy")
    catalog.find("label.reserve", by="msgctxt").msgstr = "予備"
    catalog.save(str(po))
    result = call_ppgen("--root", str(game_copy), "i18n", "import", str(po))
    assert "2 updated, 0 added" in result.stderr
    assert changes(synced, ja.read_text(encoding="utf-8")) == [
        (["  text: Reserve\n"], ["  text: 予備\n"]),
        (["  status: needs-translation\n"], []),
        (["  status: needs-review\n"], []),
    ]
    check = call_ppgen("--root", str(game_copy), "i18n", "check", "--lang", "ja")
    assert check.returncode == 0, check.stdout


def test_import_adds_a_missing_key_in_english_order_and_warns_about_unknown_ones(game_copy, tmp_path):
    ja = game_copy / "locales" / "ja.yaml"
    po = tmp_path / "ja.po"
    call_ppgen("--root", str(game_copy), "i18n", "export", "--lang", "ja", "-o", str(po))
    replace(ja, "label.copies:\n  text: 枚数\n  src: c95a7105\n", "")
    before = ja.read_text(encoding="utf-8")
    with po.open("a", encoding="utf-8") as fh:
        fh.write('\nmsgctxt "label.nonsense"\nmsgid "Nonsense"\nmsgstr "無意味"\n')
    result = call_ppgen("--root", str(game_copy), "i18n", "import", str(po))
    assert result.returncode == 0
    assert "'label.nonsense' is not an English key; skipped" in result.stderr
    assert "0 updated, 1 added" in result.stderr
    after = ja.read_text(encoding="utf-8")
    assert changes(before, after) == [([], ["label.copies:\n", "  text: 枚数\n", "  src: c95a7105\n"])]
    assert after.index("label.energy:") < after.index("label.copies:") < after.index("label.type:")


def test_a_broken_po_file_is_reported_with_its_line_and_nothing_is_written(game_copy, tmp_path):
    ja = game_copy / "locales" / "ja.yaml"
    before = ja.read_bytes()
    po = tmp_path / "bad.po"
    po.write_text('msgid ""\nmsgstr "Language: ja\\n"\n\nmsgctxt "faction.rome"\nmsgid "Rome"\nmsgstr "ローマ\n', encoding="utf-8")
    result = call_ppgen("--root", str(game_copy), "i18n", "import", str(po))
    assert result.returncode == 2
    assert "bad.po:6:1: error[po] not a PO line" in result.stderr and "Traceback" not in result.stderr
    assert ja.read_bytes() == before


# ── what other tools make of the PO files (issue 13, item 11) ────────────
PO_LANGUAGES = {"ja": ("ja", "nplurals=1; plural=0;"), "ko": ("ko", "nplurals=1; plural=0;"),
                "zh": ("zh_CN", "nplurals=1; plural=0;")}
GETTEXT = "msgfmt (GNU gettext) is not installed: apt-get install gettext (Debian/Ubuntu) or brew install gettext (macOS)"


def gettext_tool(name: str) -> str:
    import shutil

    path = shutil.which(name)
    if path is None:
        pytest.skip(GETTEXT.replace("msgfmt", name, 1))
    return path


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    from conftest import ROOT

    folder = tmp_path_factory.mktemp("po")
    for lang in PO_LANGUAGES:
        result = call_ppgen("--root", str(ROOT), "i18n", "export", "--lang", lang, "-o", str(folder / f"{lang}.po"))
        assert result.returncode == 0, result.stderr
    return folder


@pytest.mark.parametrize("lang", PO_LANGUAGES)
def test_po_header_has_what_poedit_and_weblate_expect(exported, project, lang):
    import polib

    meta = polib.pofile(str(exported / f"{lang}.po")).metadata
    code, plural_forms = PO_LANGUAGES[lang]
    assert meta["Language"] == code
    assert meta["Plural-Forms"] == plural_forms
    assert meta["Language-Team"] == project.language(lang).name
    for field in ("PO-Revision-Date", "Last-Translator", "Project-Id-Version", "MIME-Version", "Content-Type",
                  "Content-Transfer-Encoding"):
        assert field in meta, field


@pytest.mark.parametrize("lang", PO_LANGUAGES)
def test_msgfmt_check_passes_without_a_warning(exported, lang):
    msgfmt = gettext_tool("msgfmt")
    result = subprocess.run([msgfmt, "--check", "-o", "/dev/null", str(exported / f"{lang}.po")],
                            capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout + result.stderr == "", result.stderr


@pytest.mark.parametrize("lang", PO_LANGUAGES)
def test_a_po_file_rewritten_by_msgcat_imports_as_no_change(game_copy, tmp_path, lang):
    msgcat = gettext_tool("msgcat")
    po, cat = tmp_path / f"{lang}.po", tmp_path / f"{lang}-msgcat.po"
    assert call_ppgen("--root", str(game_copy), "i18n", "export", "--lang", lang, "-o", str(po)).returncode == 0
    subprocess.run([msgcat, "-o", str(cat), str(po)], check=True)
    assert po.read_text(encoding="utf-8") != cat.read_text(encoding="utf-8")  # msgcat wraps lines its own way
    loc = game_copy / "locales" / f"{lang}.yaml"
    before = loc.read_bytes()
    result = call_ppgen("--root", str(game_copy), "i18n", "import", str(cat))
    assert result.returncode == 0, result.stderr
    assert f"0 updated, 0 added, {english_keys(game_copy)} unchanged" in result.stderr
    assert loc.read_bytes() == before


@pytest.mark.parametrize("header, lang", [("zh_Hans", "zh"), ("zh-CN", "zh"), ("ja_JP", "ja"), ("ko_KR.UTF-8", "ko")])
def test_import_knows_the_language_as_cat_tools_write_it(game_copy, tmp_path, header, lang):
    po = tmp_path / "x.po"
    po.write_text(f'msgid ""\nmsgstr "Language: {header}\\n"\n\nmsgctxt "faction.rome"\nmsgid "Rome"\nmsgstr "X"\n', encoding="utf-8")
    result = call_ppgen("--root", str(game_copy), "i18n", "import", "--dry-run", str(po))
    assert result.returncode == 0, result.stderr
    assert f"locales/{lang}.yaml" in result.stderr


@pytest.mark.parametrize("lang, text", [("ja", '""'), ("ja", ""), ("ja", '"   "'), ("en", '""')])
def test_an_empty_text_is_an_error_at_its_line_not_a_card_without_a_name(game_copy, tmp_path, lang, text):
    """A translator's `text: ""` (or nothing, or spaces) printed a card with no name and passed
    `i18n check` and `build --strict`. It is refused where it stands: file:line:col, exit 2 for
    the build with nothing written, an error for the check."""
    path = game_copy / "locales" / f"{lang}.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    at = lines.index("card.hastati-line.name:" if lang != "en" else next(l for l in lines if l.startswith("card.hastati-line.name:")))
    if lang == "en":
        lines[at] = f"card.hastati-line.name: {text}"
        line, col = at + 1, len("card.hastati-line.name: ") + 1
    else:
        lines[at + 1] = f"  text: {text}".rstrip() if text else "  text:"
        line, col = at + 2, len("  text:") + (2 if text else 1)
    path.write_text("\n".join(lines), encoding="utf-8")
    where = f"locales/{lang}.yaml:{line}:{col}"
    build = call_ppgen("--root", str(game_copy), "build", "--lang", lang, "-f", "rome", "--out", str(tmp_path / "out"))
    assert build.returncode == 2 and f"{where}: error[empty] 'card.hastati-line.name' has an empty text" in build.stderr, build.stderr
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").rglob("*.pdf"))
    check = call_ppgen("--root", str(game_copy), "i18n", "check", "--lang", lang)
    assert check.returncode == 2 and f"{where}: error[empty]" in check.stdout, check.stdout + check.stderr  # bad data: 2, as for build


def test_a_po_entry_of_spaces_imports_as_untranslated(game_copy, tmp_path):
    """An msgstr of spaces is as empty as an empty one (not written: an empty text is refused)."""
    ja, before, po = export_with_testudo_as(game_copy, tmp_path, "   ")
    result = call_ppgen("--root", str(game_copy), "i18n", "import", str(po))
    assert result.returncode == 0, result.stderr
    assert ja.read_text(encoding="utf-8") == before


def test_a_po_file_of_another_language_is_refused_by_lang(game_copy, tmp_path):
    """`i18n import --lang ko` of a Japanese PO file wrote Japanese into every entry of ko.yaml
    ("815 updated"). A --lang that contradicts the file's Language header is refused, nothing
    written; one that agrees with it (as CAT tools spell it) is taken."""
    po = tmp_path / "ja.po"
    call_ppgen("--root", str(game_copy), "i18n", "export", "--lang", "ja", "-o", str(po))
    ko = game_copy / "locales" / "ko.yaml"
    before = ko.read_bytes()
    result = call_ppgen("--root", str(game_copy), "i18n", "import", "--lang", "ko", str(po))
    assert result.returncode == 2 and "is a translation into 'ja' (its Language header), not 'ko'" in result.stderr, result.stderr
    assert ko.read_bytes() == before
    same = call_ppgen("--root", str(game_copy), "i18n", "import", "--lang", "ja", "--dry-run", str(po))
    assert same.returncode == 0, same.stderr
    spelt = call_ppgen("--root", str(game_copy), "i18n", "import", "--lang", "ja_JP", "--dry-run", str(po))  # the same language, as a locale
    assert "is a translation into" not in spelt.stderr and "did you mean 'ja'" in spelt.stderr, spelt.stderr


def test_no_output_is_written_over_the_games_own_files(game_copy, tmp_path):
    """`--report-json cards.yaml` replaced the card database with JSON and said "ok"; `i18n export
    -o locales/en.yaml` replaced the English with a PO file; the report over a PDF the build had
    just written turned it into JSON. Each is refused, exit 2, the file left as it was; a new
    file beside the game's (a PO export in locales/) is fine."""
    cards, english = game_copy / "cards.yaml", game_copy / "locales" / "en.yaml"
    before = {cards: cards.read_bytes(), english: english.read_bytes()}
    out = tmp_path / "out"
    refused = [
        ("build", "-f", "rome", "--out", str(out), "--report-json", str(cards)),
        ("i18n", "export", "--lang", "ja", "-o", str(english)),
        ("build", "-f", "rome", "--out", str(out), "--report-json", str(out / "en" / "cards-en-rome.pdf")),
    ]
    for args in refused:
        result = call_ppgen("--root", str(game_copy), *args)
        assert result.returncode == 2 and "choose another path" in result.stderr, (args, result.stderr)
    assert {path: path.read_bytes() for path in before} == before
    assert (out / "en" / "cards-en-rome.pdf").read_bytes().startswith(b"%PDF")
    for _ in range(2):  # (written there again: it is the export's own file, not the game's)
        beside = call_ppgen("--root", str(game_copy), "i18n", "export", "--lang", "ja", "-o", str(game_copy / "locales" / "ja.po"))
        assert beside.returncode == 0 and (game_copy / "locales" / "ja.po").read_text(encoding="utf-8").startswith("#"), beside.stderr
    art = call_ppgen("--root", str(game_copy), "preview", "ROM-02", "--dpi", "40", "-o", str(game_copy / "art" / "hastati-line.png"))
    assert art.returncode == 2 and "would be read as one" in art.stderr, art.stderr  # a new art/<card>.png is that card's picture
    assert not (game_copy / "art" / "hastati-line.png").exists()


def test_sync_starts_a_language_from_nothing_with_every_key_in_english_order(game_copy):
    """`i18n sync --lang ko` with no locales/ko.yaml (how the README starts a language): every key
    of English, in its order, its English text waiting for a translation. (It took 11 s of CPU for
    831 keys: the keys being inserted were gathered again for every one of them.)"""
    import yaml

    ko = game_copy / "locales" / "ko.yaml"
    ko.unlink()
    result = call_ppgen("--root", str(game_copy), "i18n", "sync", "--lang", "ko")
    assert result.returncode == 0 and "locales/ko.yaml" in result.stderr, result.stderr
    written = yaml.safe_load(ko.read_text(encoding="utf-8"))
    english = yaml.safe_load((game_copy / "locales" / "en.yaml").read_text(encoding="utf-8"))
    assert list(written) == list(english) and len(written) > 800
    text = {key: value["text"] if isinstance(value, dict) else value for key, value in english.items()}
    assert all(entry["status"] == "needs-translation" and entry["text"] == text[key] for key, entry in written.items())
    assert call_ppgen("--root", str(game_copy), "i18n", "sync", "--lang", "ko", "--dry-run").stderr.count("would change") == 0


def test_a_missing_locale_file_of_a_language_set_up_is_an_error_not_a_language_less(game_copy, tmp_path):
    """locales/ja.yaml deleted (or not checked out) while ppgen.yaml still sets up ja: `i18n check`
    said "checked 3 languages: 0 errors" and `build --lang all` quietly made three; `--lang ja`
    said "unknown language". The check now fails on it, and asking for ja says what is wrong and
    how to start the file again."""
    (game_copy / "locales" / "ja.yaml").unlink()
    check = call_ppgen("--root", str(game_copy), "i18n", "check")
    assert check.returncode == 2 and "locales/ja.yaml: error[missing] 'ja' is set up in ppgen.yaml but locales/ja.yaml is missing" in check.stdout
    for args in (("build", "--lang", "ja", "-f", "rome", "--out", str(tmp_path / "out")),
                 ("build", "--lang", "all", "--parts", "score-sheet", "--out", str(tmp_path / "out")), ("i18n", "status")):
        result = call_ppgen("--root", str(game_copy), *args)
        assert result.returncode == 2 and "start it with `ppgen i18n sync --lang ja`" in result.stderr, (args, result.stderr)
    assert not (tmp_path / "out").exists()
