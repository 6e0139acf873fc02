"""`ppgen errata`: what changed since an earlier version, per language, and the cards to reprint.

The real test is the seeds' own edition change: a game directory holding the older
(English) edition — its stats, copies and English effects, from seed_cards.json — must
give exactly the stat and copy changes of seed_diff.md (a), in every language, and in
English an effect change for exactly the cards whose English text differs.
"""
from __future__ import annotations

import json
import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest

import clitools
import ppgen
from clitools import assert_clean_error, assert_no_crash, call_ppgen
from conftest import DATA, ROOT
from pdftools import fonts, placements, reader
from ppgen.errata.compare import errata_since, inline, marked, text_diff
from ppgen.read.locale import load_locale

LANGS = ("en", "ja", "ko", "zh")
NUMBERS = ("level", "atk", "def", "energy", "copies")

# seed_diff.md (a): the 8 stat and copy values on 6 cards, older English edition → newer edition.
EDITION_CHANGES = {
    ("numidian-cavalry", "level"): (3, 4),
    ("numidian-cavalry", "def"): (1, 3),
    ("comati-raiders", "atk"): (2, 3),
    ("sarmatian-allies", "def"): (3, 4),
    ("sarmatian-allies", "energy"): (3, 4),
    ("egyptian-chariot-corps", "atk"): (4, 5),
    ("royal-messenger", "copies"): (2, 1),
    ("scythed-chariot", "copies"): (2, 3),
}


def copy_game(dest: Path, source: Path = ROOT) -> Path:
    """A game directory to edit: its files copied (no decks), fonts linked."""
    return clitools.copy_game(dest, source, folders=("locales", "templates"))


def set_value(path: Path, doc_path: tuple, value: int) -> None:
    set_values(path, {doc_path: value})


def set_values(path: Path, values: dict[tuple, int]) -> None:
    """Replace numbers in a YAML file where ppgen's reader says they are (comments and order kept)."""
    from ppgen.read.yamlio import load_yaml

    doc = load_yaml(path)
    lines = path.read_text(encoding="utf-8").split("\n")
    for doc_path, value in values.items():
        line, col = doc.mark(doc_path)
        text = lines[line - 1]
        number = re.match(r"\d+", text[col - 1:])
        assert number and text[col - 1 + number.end():].strip()[:1] in ("", "#"), (doc_path, text)  # one number a line
        lines[line - 1] = text[: col - 1] + str(value) + text[col - 1 + number.end():]
    path.write_text("\n".join(lines), encoding="utf-8")


def set_text(path: Path, key: str, text: str) -> None:
    """Replace one single-line `key: text` entry of a source locale file."""
    source = path.read_text(encoding="utf-8")
    new, n = re.subn(rf"^{re.escape(key)}: .*$", lambda _: f"{key}: {json.dumps(text, ensure_ascii=False)}", source, flags=re.M)
    assert n == 1, key
    path.write_text(new, encoding="utf-8")


def card_path(project, card_id: str) -> tuple:
    card = project.game.card(card_id)
    fi = list(project.game.factions).index(card.faction)
    ci = [c.id for c in project.game.cards_of(card.faction)].index(card_id)
    return ("factions", fi, "cards", ci)


@pytest.fixture(scope="session")
def older_edition(tmp_path_factory, project):
    """The game as the older English edition had it: stats, copies and English effects from
    seed_cards.json; everything else (translations, templates, rules) as now."""
    game = copy_game(tmp_path_factory.mktemp("editions") / "older-edition")
    seeds = json.loads((DATA / "seed_cards.json").read_text(encoding="utf-8"))
    values = {}
    for seed in seeds:
        card_id, en = seed["id"].split("/")[1], seed["langs"]["en"]
        where = card_path(project, card_id)
        for field, key in (("level", "lvl"), ("atk", "atk"), ("def", "def"), ("energy", "energy"), ("copies", "copies")):
            if en[key] is not None:
                values[where + (field,)] = en[key]
        set_text(game / "locales" / "en.yaml", f"card.{card_id}.effect", en["effect"])
    set_values(game / "cards.yaml", values)
    return game


@pytest.fixture(scope="session")
def edition_json(older_edition):
    """`ppgen errata --since <older edition> --lang all --format json`, run as a user would."""
    result = call_ppgen("errata", "--since", older_edition, "--lang", "all", "--format", "json", root=ROOT)
    assert_no_crash(result)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def english_effects(game: Path) -> dict[str, str]:
    loc = load_locale(game / "locales" / "en.yaml", "en", game)
    return {key.split(".")[1]: e.text for key, e in loc.entries.items() if key.endswith(".effect")}


# ── the seeds' edition change ─────────────────────────────────────────────
@pytest.mark.parametrize("lang", LANGS)
def test_the_seed_edition_change_gives_exactly_the_stat_and_copy_changes(edition_json, lang):
    changes = next(entry for entry in edition_json["languages"] if entry["lang"] == lang)
    numbers = {(card["id"], f["field"]): (f["old"], f["new"])
               for card in changes["cards"] for f in card["fields"] if f["field"] in NUMBERS}
    assert numbers == EDITION_CHANGES
    assert all(card["status"] == "changed" for card in changes["cards"])
    assert changes["rules"] == [] and changes["rule_constants"] == [] and changes["stale"] == []


def test_the_seed_edition_change_gives_an_english_effect_change_for_exactly_the_cards_whose_text_differs(
        edition_json, older_edition):
    before, now = english_effects(older_edition), english_effects(ROOT)
    differs = {card for card in now if before[card] != now[card]}
    assert len(differs) >= 19  # seed_diff (b): 19 meaning changes, plus the English rewrite of decisions.md §2
    en = next(entry for entry in edition_json["languages"] if entry["lang"] == "en")
    effects = {card["id"]: f for card in en["cards"] for f in card["fields"] if f["field"] == "effect"}
    assert set(effects) == differs
    for card, f in effects.items():
        assert (f["old"], f["new"]) == (before[card], now[card])
    others = {f["field"] for card in en["cards"] for f in card["fields"]} - set(NUMBERS) - {"effect"}
    assert others == set()


@pytest.mark.parametrize("lang", ["ja", "ko", "zh"])
def test_the_translations_print_no_effect_change_for_the_seed_edition(edition_json, lang):
    changes = next(entry for entry in edition_json["languages"] if entry["lang"] == lang)
    assert {card["id"] for card in changes["cards"]} == {card for card, _ in EDITION_CHANGES}
    assert {f["field"] for card in changes["cards"] for f in card["fields"]} == {"level", "atk", "def", "energy", "copies"}


def test_what_the_sheets_reprint_for_the_seed_edition(edition_json):
    printed = {(entry["lang"], card["id"]): card["printed"] for entry in edition_json["languages"] for card in entry["cards"]}
    for lang in LANGS:
        assert printed[(lang, "numidian-cavalry")] == 3  # its face changed: the starter deck's copies
        assert printed[(lang, "royal-messenger")] == 0  # the same face, one copy fewer: nothing to print
    assert printed[("ja", "scythed-chariot")] == 1  # the same face in ja, one copy more: the extra copy
    assert printed[("en", "scythed-chariot")] == 3  # its English effect changed too: all three copies


@pytest.fixture(scope="session")
def edition_pdfs(older_edition, tmp_path_factory):
    out = tmp_path_factory.mktemp("errata-out")
    result = call_ppgen("errata", "--since", older_edition, "--lang", "en,ja", "--out", out, root=ROOT)
    assert_no_crash(result)
    assert result.returncode == 0, result.stderr
    return out, result


def sheet_contents(pdf) -> tuple[list[int], Counter, int]:
    """(pages before the first card sheet, fronts by card id, backs) of an errata PDF; every
    front page is a page a sheet of paper starts with (odd, counting from 1), its back next."""
    fronts, backs, before = Counter(), 0, []
    for n, page in enumerate(pdf.pages):
        placed = placements(page)
        forms = {p.form for p in placed}
        if forms == {"back-dark"}:  # the default back (issue 14: backs are variants)
            backs += len(placed)
        elif any(f.startswith("front-") for f in forms):
            assert n % 2 == 0 and {p.form for p in placements(pdf.pages[n + 1])} == {"back-dark"}, n
            fronts.update(re.sub(r"^front-[a-z]+-", "", p.form) for p in placed)
        elif not fronts:
            before.append(n)
    return before, fronts, backs


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_errata_pdf_holds_a_changelog_then_only_the_cards_to_reprint(edition_pdfs, edition_json, lang):
    out, _ = edition_pdfs
    path = out / lang / f"errata-{lang}.pdf"
    pdf = reader(path)
    changelog, fronts, backs = sheet_contents(pdf)
    entry = next(e for e in edition_json["languages"] if e["lang"] == lang)
    assert fronts == Counter({card["id"]: card["printed"] for card in entry["cards"] if card["printed"]})
    assert backs == sum(fronts.values())
    assert changelog and changelog[0] == 0
    first = pdf.pages[0].extract_text()
    project = ppgen.load(ROOT)
    loc = project.locale(lang)
    assert loc.get("errata.changed.heading") in first
    assert project.card_name(project.game.card("numidian-cavalry"), lang) in first
    assert all(round(float(p.mediabox.width)) == 595 for p in pdf.pages)
    assert all(fonts(path).values())
    titles = [item.title for item in pdf.outline if not isinstance(item, list)]
    assert titles[:2] == [loc.get("errata.title"), loc.get("part.cards")]


def test_the_errata_summary_and_rebuilding_gives_identical_bytes(edition_pdfs, edition_json, older_edition, tmp_path):
    out, result = edition_pdfs
    # every card changed in English or Japanese (the older English also has straight apostrophes: they print otherwise)
    changed = {card["id"] for entry in edition_json["languages"] if entry["lang"] in ("en", "ja") for card in entry["cards"]}
    assert re.search(rf"since .*older-edition: {len(changed)} cards changed; wrote 2 errata PDFs", result.stderr), result.stderr
    again = call_ppgen("errata", "--since", older_edition, "--lang", "ja", "--out", tmp_path, "--quiet", root=ROOT)
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "ja" / "errata-ja.pdf").read_bytes() == (out / "ja" / "errata-ja.pdf").read_bytes()


def test_text_format_is_a_changelog_in_each_language(older_edition):
    result = call_ppgen("errata", "--since", older_edition, "--lang", "en,ja", "--format", "text", root=ROOT)
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "Ancient Duel — Errata (English)" in text and "Ancient Duel — エラッタ（日本語）" in text
    assert "- CAR-" in text and "  Lv: 3 → 4" not in text
    assert "  Level: 3 → 4" in text and "  レベル：3 → 4" in text
    assert "  Copies: 2 → 1" in text and "  Not reprinted: the card itself has not changed." in text
    assert re.search(r"  Effect: .*\[-.+-\].*\{\+.+\+\}", text)  # wdiff marks in the English effects


# ── a git revision ────────────────────────────────────────────────────────
def git(repo: Path, *args: str) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "HOME": str(repo), "PATH": "/usr/bin:/bin:/usr/local/bin"}
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env).stdout


@pytest.fixture
def repo(tmp_path, project):
    """A git repository whose game directory is `game/` (fonts linked from outside the repo):
    committed, then a stat, a translation and a template colour changed and committed."""
    top = tmp_path / "repo"
    game = copy_game(top / "game")
    git(top, "init", "-q")
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "first edition")
    set_value(game / "cards.yaml", card_path(project, "hastati-line") + ("atk",), 4)
    ja = game / "locales" / "ja.yaml"
    ja.write_text(ja.read_text(encoding="utf-8").replace("text: プリンキペス戦列", "text: プリンキペス隊列", 1), encoding="utf-8")
    card = game / "templates" / "card.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace('energy: "#C7901F"', 'energy: "#D9A030"', 1), encoding="utf-8")
    git(top, "commit", "-q", "-am", "second edition")
    return top, game


def test_a_git_revision_is_compared_without_checking_anything_out(repo, project, tmp_path):
    top, game = repo
    before = git(top, "status", "--porcelain")
    result = call_ppgen("errata", "--since", "HEAD~1", "--lang", "en,ja", "--format", "json", root=game)
    assert result.returncode == 0, result.stderr
    assert git(top, "status", "--porcelain") == before == ""
    data = json.loads(result.stdout)
    by_lang = {entry["lang"]: {card["id"]: card for card in entry["cards"]} for entry in data["languages"]}
    units = {card.id for card in project.game.cards if card.is_unit}
    principes = "principes-line"
    for lang, cards in by_lang.items():
        assert set(cards) == units | ({principes} if lang == "ja" else set())
        for card_id in units:  # the Energy badge's colour: a template input of every unit, of no other card
            design = [f for f in cards[card_id]["fields"] if f["field"] == "design"]
            assert [(f["path"], f["old"], f["new"]) for f in design] == [("template.energy.colour", "#C7901F", "#D9A030")]
        atk = [f for f in cards["hastati-line"]["fields"] if f["field"] == "atk"]
        assert [(f["old"], f["new"]) for f in atk] == [(project.game.card("hastati-line").atk, 4)]
    named = [(f["field"], f["old"], f["new"]) for f in by_lang["ja"][principes]["fields"] if f["field"] != "design"]
    assert named == [("name", "プリンキペス戦列", "プリンキペス隊列")]
    assert data["since"] == "HEAD~1" and data["warnings"] == []


def test_a_revision_s_bad_file_is_named_with_the_revision(repo):
    top, game = repo
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("  hand_limit: 5", "  hand_limit: lots"), encoding="utf-8")
    git(top, "commit", "-q", "-am", "broken")
    (game / "cards.yaml").write_text(git(top, "show", "HEAD~1:game/cards.yaml"), encoding="utf-8")
    result = call_ppgen("errata", "--since", "HEAD", root=game)  # the broken commit; the work tree is fine
    assert_clean_error(result, "hand_limit", where=r"HEAD:cards\.yaml:\d+:\d+")


@pytest.mark.parametrize("ref, needle", [
    ("no-such-rev", "'no-such-rev' is neither a game directory nor a revision"),
    ("HEAD~5", "neither a game directory nor a revision"),
])
def test_an_unknown_revision_is_a_clean_error(repo, ref, needle):
    _, game = repo
    assert_clean_error(call_ppgen("errata", "--since", ref, root=game), needle)


def test_a_problem_in_the_other_folder_is_named_by_its_own_path(tmp_path, game_copy):
    """`errata --since ../v1` with a broken cards.yaml there said `cards.yaml:84:16`, which reads
    as this game's file; the other game's files are named by their whole path (as a revision's
    are by `HEAD~1:`)."""
    import shutil

    old = tmp_path / "v1"
    shutil.copytree(game_copy, old, symlinks=True)
    text = (old / "cards.yaml").read_text(encoding="utf-8")
    (old / "cards.yaml").write_text(text.replace("level: 2", "level: two", 1), encoding="utf-8")
    result = call_ppgen("errata", "--since", old, root=game_copy)
    assert result.returncode == 2 and f"{old / 'cards.yaml'}:" in result.stderr and "'level' must be a whole number" in result.stderr, result.stderr


def test_a_folder_that_is_not_a_game_and_no_repository(tmp_path, game_copy):
    (tmp_path / "empty").mkdir()
    assert_clean_error(call_ppgen("errata", "--since", tmp_path / "empty", root=game_copy), "not a game directory")
    assert_clean_error(call_ppgen("errata", "--since", "HEAD", root=game_copy), "is not in a git repository")


def test_nothing_changed_says_so_and_writes_nothing(repo, tmp_path):
    _, game = repo
    result = call_ppgen("errata", "--since", "HEAD", "--lang", "all", "--out", tmp_path / "out", root=game)
    assert result.returncode == 0, result.stderr
    assert "nothing changed since HEAD" in result.stderr
    assert not (tmp_path / "out").exists()
    text = call_ppgen("errata", "--since", "HEAD", "--lang", "ja", "--format", "text", root=game)
    assert "HEADからの変更はありません。" in text.stdout


def test_a_revision_reads_the_tree_and_follows_links_out_of_the_repository(repo):
    from ppgen.read.gamedir import GameDir
    from ppgen.read.revision import RevisionDir, open_reference

    top, game = repo
    rev = open_reference(GameDir(game.resolve()), "HEAD~1")
    assert isinstance(rev, RevisionDir) and rev.show(rev.cards) == "HEAD~1:cards.yaml"
    assert "energy: \"#C7901F\"" in rev.read_text(rev.template("card"))
    assert rev.available_languages() == ["en", "ja", "ko", "zh"]
    font = rev.fonts / "NotoSans_400Regular.ttf"  # fonts/ is a link to a folder outside the repository
    assert rev.is_file(font) and rev.digest(font) == GameDir(game).digest(game / "fonts" / "NotoSans_400Regular.ttf")
    assert not rev.is_file(rev.root / "nothing.yaml")
    other = open_reference(GameDir(game.resolve()), str(game))
    assert not isinstance(other, RevisionDir) and other.root == game.resolve()  # a folder: read from the disk
    assert other.show(other.cards) == str(game.resolve() / "cards.yaml")  # named by its whole path, not as this game's


# ── versions on the card ──────────────────────────────────────────────────
def test_revised_prints_in_the_small_print_and_an_unbumped_one_is_warned(game_copy, project, tmp_path):
    cards = game_copy / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    text = text.replace("rules:\n", "version: 1\nrules:\n", 1)
    text = text.replace("- id: principes-line\n", "- id: principes-line\n        revised: 1\n", 1)
    cards.write_text(text, encoding="utf-8")
    first = ppgen.load(game_copy)
    principes = first.game.card("principes-line")
    assert first.small_print(principes, "en") == f"{principes.code} · v1"
    assert first.small_print(principes, "ja") == f"{principes.code}・v1"
    from ppgen.draw.faces import CardGeometry, front_face

    face = front_face(first, principes, "ja", CardGeometry.named("poker"))
    assert face.texts["code"].layout.text == f"{principes.code}・v1"  # on the card, in its small print
    # the second edition: two cards changed, neither revised: bumped
    second = copy_game(tmp_path / "second", source=game_copy)
    cards = second / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("version: 1\n", "version: 2\n", 1), encoding="utf-8")
    set_value(cards, card_path(first, "principes-line") + ("atk",), 5)
    set_value(cards, card_path(first, "hastati-line") + ("def",), 4)
    errata = errata_since(ppgen.load(second), str(game_copy), ("en",))
    warned = {w.subject: w.message for w in errata.report.warnings if w.code == "revised"}
    assert set(warned) == {"hastati-line", "principes-line"}
    assert re.match(rf"{principes.code} changed since .*, but its revised: was not bumped \(still 1\): "
                    r"set revised: 2 \(cards\.yaml:\d+:\d+\) so that a reprint can be told from the old card", warned["principes-line"]), warned
    assert "(it has none): set revised: 2 (cards.yaml:" in warned["hastati-line"]
    # bumped: no warning, and the small print is one of the changes
    cards.write_text(cards.read_text(encoding="utf-8").replace("revised: 1", "revised: 2"), encoding="utf-8")
    errata = errata_since(ppgen.load(second), str(game_copy), ("en",))
    assert {w.subject for w in errata.report.warnings if w.code == "revised"} == {"hastati-line"}
    fields = [c for c in errata.language("en").cards if c.id == "principes-line"][0].fields
    assert ("small-print", f"{principes.code} · v1", f"{principes.code} · v2") in [(f.field, f.old, f.new) for f in fields]
    assert errata.versions == ("1", "2")


def test_a_game_without_versions_gets_no_revised_warning(game_copy, project):
    set_value(game_copy / "cards.yaml", card_path(project, "hastati-line") + ("def",), 4)
    errata = errata_since(ppgen.load(game_copy), str(ROOT), ("en",))
    assert [c.id for c in errata.language("en").cards] == ["hastati-line"] and len(errata.report) == 0


def test_a_bad_revised_value_is_pointed_at(game_copy):
    cards = game_copy / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("- id: hastati-line\n", "- id: hastati-line\n        revised: [2]\n", 1),
                     encoding="utf-8")
    assert_clean_error(call_ppgen("cards", root=game_copy), "'revised' must be text or a whole number", where=r"cards\.yaml:\d+:\d+")


# ── stale translations, new and removed cards, rules ──────────────────────
def test_a_translation_whose_english_changed_is_named_stale(game_copy, project):
    set_text(game_copy / "locales" / "en.yaml", "card.hastati-line.effect", "On Deploy: draw 1 card.")
    errata = errata_since(ppgen.load(game_copy), str(ROOT), ("en", "ja"))
    assert [c.id for c in errata.language("en").cards] == ["hastati-line"]
    ja = errata.language("ja")
    assert ja.cards == [] and [(s.key, s.card) for s in ja.stale] == [("card.hastati-line.effect", "hastati-line")]
    assert [(w.lang, w.code, w.subject) for w in errata.report.warnings] == [("ja", "stale", "card.hastati-line.effect")]
    from ppgen.errata.report import text_report

    text = text_report(ppgen.load(game_copy), errata)
    assert "英語のテキストが変更されましたが、この翻訳はまだ更新されていません。" in text


def test_new_and_removed_cards_and_english_fallback(game_copy, project):
    """The Legionary Cohort (3 copies) leaves Rome; a new card with 3 copies takes its place, in English only."""
    cards = game_copy / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    text = text.replace("- id: legionary-cohort\n        code: ROM-04\n", "- id: cohors-nova\n        code: ROM-99\n", 1)
    cards.write_text(text, encoding="utf-8")
    en = game_copy / "locales" / "en.yaml"
    en.write_text(en.read_text(encoding="utf-8").replace("card.legionary-cohort.", "card.cohors-nova."), encoding="utf-8")
    for lang in ("ja", "ko", "zh"):
        loc = game_copy / "locales" / f"{lang}.yaml"
        loc.write_text(re.sub(r"^card\.legionary-cohort\.[a-z]+:\n(  .*\n)+", "", loc.read_text(encoding="utf-8"), flags=re.M),
                       encoding="utf-8")
    errata = errata_since(ppgen.load(game_copy), str(ROOT), ("en", "ja"), copies=1)
    for lang in ("en", "ja"):
        got = {c.id: c for c in errata.language(lang).cards}
        assert set(got) == {"cohors-nova", "legionary-cohort"}
        assert got["cohors-nova"].status == "added" and got["cohors-nova"].printed == 1  # --copies 1
        assert got["legionary-cohort"].status == "removed" and got["legionary-cohort"].printed == 0
        assert got["legionary-cohort"].name == project.card_name(project.game.card("legionary-cohort"), lang)
        new = {f.field: f for f in got["cohors-nova"].fields}
        assert new["copies"].new == 3 and new["name"].old is None and new["atk"].new == project.game.card("legionary-cohort").atk
        assert new["name"].new == project.card_name(project.game.card("legionary-cohort"), "en")  # ja prints English
    assert "renamed" not in {w.code for w in errata.report.warnings}  # another code too: another card


def test_a_card_whose_id_changed_and_code_did_not_is_said_to_be_renamed(game_copy):
    """numidian-cavalry renamed numidian-horse, CAR-02 still: listed as removed and as new (the
    errata matches cards by id), with a warning saying so, naming both ids."""
    cards = game_copy / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("- id: legionary-cohort\n", "- id: cohors-nova\n", 1), encoding="utf-8")
    for lang in ("en", "ja", "ko", "zh"):
        loc = game_copy / "locales" / f"{lang}.yaml"
        loc.write_text(loc.read_text(encoding="utf-8").replace("card.legionary-cohort.", "card.cohors-nova."), encoding="utf-8")
    errata = errata_since(ppgen.load(game_copy), str(ROOT), ("en",))
    assert {c.id: c.status for c in errata.language("en").cards} == {"cohors-nova": "added", "legionary-cohort": "removed"}
    (warning,) = [w for w in errata.report.warnings if w.code == "renamed"]
    assert warning.subject == "cohors-nova" and warning.message.startswith(
        "ROM-04: its id changed from 'legionary-cohort' to 'cohors-nova', so the errata lists it as removed and as new")


def test_rule_changes_are_listed_by_section_with_the_numbers_filled_in(game_copy, project):
    set_value(game_copy / "cards.yaml", ("rules", "starting_life"), 25)
    set_text(game_copy / "locales" / "en.yaml", "rules.kamikaze.1", "Kamikaze is gone.")
    errata = errata_since(ppgen.load(game_copy), str(ROOT), ("en", "ja"))
    en, ja = errata.language("en"), errata.language("ja")
    assert [(c.name, c.old, c.new) for c in en.constants] == [("starting_life", 20, 25)]
    sections = {r.section: r for r in en.rules}
    assert "kamikaze" in sections and "goal" in sections
    goal = [t for t in sections["goal"].texts if t.key == "rules.goal.1"][0]
    assert "20" in goal.old and "25" in goal.new
    assert "kamikaze" not in {r.section for r in ja.rules}  # ja still prints its own (now stale) text
    assert "rules.kamikaze.1" in {s.key for s in ja.stale}
    assert {r.section for r in ja.rules} >= {"goal"}  # the number changed in ja too


def test_the_quick_reference_is_a_rule_section_and_its_changed_cards_are_reprinted(game_copy, tmp_path):
    """hand_limit 5 → 6: the rulebook's quick reference ("End Phase — discard down to 6 cards") is listed
    among the rules that changed, and the errata's sheets reprint the two quick-reference cards, which
    print the same line; both were missed (the quick reference is a picture, its words no section's)."""
    from pypdf import PdfReader

    set_value(game_copy / "cards.yaml", ("rules", "hand_limit"), 6)
    errata = errata_since(ppgen.load(game_copy), str(ROOT), ("en",))
    en = errata.language("en")
    quick = next(r for r in en.rules if r.section == "quick")
    assert [(t.key, t.old, t.new) for t in quick.texts] == [("rules.quick.phase.6", "End Phase — discard down to 5 cards.",
                                                             "End Phase — discard down to 6 cards.")]
    assert en.references and not en.cards
    result = call_ppgen("errata", "--since", ROOT, "--lang", "en", "--out", tmp_path, root=game_copy)
    assert result.returncode == 0, result.stderr
    assert "2 cards to reprint" in result.stderr, result.stderr
    pages = [" ".join(page.extract_text().split()) for page in PdfReader(tmp_path / "en" / "errata-en.pdf").pages]
    assert sum(text.count("End Phase — discard down to 6 cards.") for text in pages[1:]) == 2  # the two cards' fronts
    unchanged = errata_since(ppgen.load(ROOT), str(ROOT), ("en",)).language("en")
    assert not unchanged.references


# ── the pieces ────────────────────────────────────────────────────────────
def test_text_diff_marks_words_and_cjk_characters():
    pieces = text_diff("When this card attacks, it switches to Defense.", "After this card attacks, it switches to Attack Position.")
    assert inline(pieces) == "[-When-]{+After+} this card attacks, it switches to [-Defense-]{+Attack Position+}."
    assert marked(pieces, "-") == "**When** this card attacks, it switches to **Defense**."
    assert marked(pieces, "+") == "**After** this card attacks, it switches to **Attack Position**."
    cjk = text_diff("攻撃した後、守備表示にする。", "攻撃する前、攻撃表示にする。", "cjk")
    assert inline(cjk) == "攻撃[-した後-]{+する前+}、[-守備-]{+攻撃+}表示にする。"
    assert inline(text_diff("gains 1 ATK", "gains 1 ATK")) == "gains 1 ATK"
    assert inline(text_diff("a b c", "x b y")) == "[-a-]{+x+} b [-c-]{+y+}"
    assert inline(text_diff("**On Deploy:** a", "**On Deploy:** b")) == "On Deploy: [-a-]{+b+}"  # markup is not text


def test_face_inputs_are_what_the_front_is_drawn_from(game_copy, project):
    from ppgen.draw.face_inputs import art_inputs, fingerprint, front_inputs

    hastati, doctrine = project.game.card("hastati-line"), next(c for c in project.game.cards if c.kind == "doctrine")
    inputs = front_inputs(project, hastati, "ja")
    assert inputs["number.atk"] == hastati.atk and inputs["text.name"] == project.card_name(hastati, "ja")
    assert inputs["template.atk.colour"] == "#A8322B" and inputs["font.body"].startswith("NotoSansJP_400Regular.ttf (")
    assert art_inputs(project, hastati, "ja") == {}  # the seam for card art (issue 15)
    assert fingerprint(inputs) == fingerprint(dict(front_inputs(project, hastati, "ja")))
    card = game_copy / "templates" / "card.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace('atk: "#A8322B"', 'atk: "#B0342D"'), encoding="utf-8")
    edited = ppgen.load(game_copy)
    assert fingerprint(front_inputs(edited, hastati, "ja")) != fingerprint(inputs)
    assert fingerprint(front_inputs(edited, doctrine, "ja")) == fingerprint(front_inputs(project, doctrine, "ja"))
    assert fingerprint(front_inputs(project, hastati, "ko")) != fingerprint(inputs)


def test_errata_help_has_examples_and_imports_no_pdf_library():
    code = (
        "import sys\nfrom ppgen.cli import main\n"
        "try:\n    main(['errata', '--help'])\nexcept SystemExit:\n    pass\n"
        "print('HEAVY', [m for m in ('reportlab', 'PIL', 'pypdf', 'pypdfium2') if m in sys.modules])\n"
    )
    import sys

    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "HEAVY []" in result.stdout, result.stdout + result.stderr
    assert "Examples:" in result.stdout and "--since HEAD~1" in result.stdout and "--copies" in result.stdout


def test_strict_fails_on_a_stale_translation_and_writes_nothing(game_copy, tmp_path):
    set_text(game_copy / "locales" / "en.yaml", "card.hastati-line.effect", "On Deploy: draw 1 card.")
    result = call_ppgen("errata", "--since", ROOT, "--lang", "en,ja", "--strict", "--out", tmp_path, root=game_copy)
    assert_no_crash(result)
    assert result.returncode == 1, result.stderr
    assert "--strict: ja has 1 warning" in result.stderr and "stale" in result.stderr
    assert (tmp_path / "en" / "errata-en.pdf").is_file() and not (tmp_path / "ja").exists()


def test_a_language_the_earlier_version_did_not_have(tmp_path, project):
    older = copy_game(tmp_path / "older")
    (older / "locales" / "zh.yaml").unlink()
    errata = errata_since(project, str(older), ("en", "zh"))
    assert errata.language("zh").new_language and errata.language("en").empty and not errata.nothing_changed
    from ppgen.errata.report import text_report

    assert project.locale("zh").format("errata.new-language", since=str(older)) in text_report(project, errata)


def test_print_and_cut_errata_writes_the_cut_files_of_its_sheets(older_edition, tmp_path):
    result = call_ppgen("errata", "--since", older_edition, "--lang", "ja", "--cutter", "silhouette", "--out", tmp_path, root=ROOT)
    assert result.returncode == 0, result.stderr
    written = {p.name for p in (tmp_path / "ja").iterdir()}
    cut = written - {"errata-ja.pdf"}
    assert "errata-ja.pdf" in written and cut and all(re.fullmatch(r"errata-ja-sheet-\d\d-(front|back)\.svg", n) for n in cut), written
    assert "cut file" in result.stderr


def _png(path: Path, colour: tuple[int, int, int]) -> None:
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (660, 370), colour).save(path)


def test_a_card_s_art_counts_added_repainted_and_per_language(repo):
    """A picture added, a picture repainted under the same name, and a language's own picture: each
    changes the cards that print it (read from the revision's own files, not the work tree's)."""
    top, game = repo
    _png(game / "art" / "hastati-line.png", (200, 40, 40))
    _png(game / "art" / "testudo.png", (40, 40, 200))
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "art")
    _png(game / "art" / "testudo.png", (40, 200, 40))  # repainted, same name
    _png(game / "art" / "ja" / "decisive-order.png", (90, 90, 90))  # Japanese only
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "more art")

    def art_changes(since: str) -> dict[str, dict[str, tuple]]:
        result = call_ppgen("errata", "--since", since, "--lang", "en,ja", "--format", "json", root=game)
        assert result.returncode == 0, result.stderr
        out = {}
        for entry in json.loads(result.stdout)["languages"]:
            for card in entry["cards"]:
                for f in card["fields"]:
                    if f["field"] == "art":
                        out.setdefault(entry["lang"], {})[card["id"]] = (f["old"], f["new"])
        return out

    first = art_changes("HEAD~2")  # before any picture: two added in both languages, one more in ja
    assert set(first["en"]) == {"hastati-line", "testudo"}
    assert set(first["ja"]) == {"hastati-line", "testudo", "decisive-order"}
    assert first["en"]["hastati-line"][0] is None and first["en"]["hastati-line"][1].startswith("art/hastati-line.png (")
    last = art_changes("HEAD~1")  # the repainted picture (same file name, other content) and the Japanese one
    assert set(last["en"]) == {"testudo"} and set(last["ja"]) == {"testudo", "decisive-order"}
    old, new = last["en"]["testudo"]
    assert old.startswith("art/testudo.png (") and new.startswith("art/testudo.png (") and old != new
