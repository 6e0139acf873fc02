"""`ppgen build` and `ppgen calibrate` end to end: the PDFs read back, options, errors, --strict."""
from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import pytest

import ppgen
from clitools import call_ppgen, run_ppgen
from pdftools import MM, fonts, placements, reader, texts
from ppgen.errors import DataError, UsageError
from ppgen.write.build import BuildOptions, build

LANGS = ["en", "ja", "ko", "zh"]


@pytest.fixture(scope="session")
def built(full_set):
    """The card sheets of the default build of every language (the session's full set: a build
    of the cards alone writes the same bytes, test_rebuilding_gives_identical_bytes), and the
    whole build's report."""
    from ppgen.write.build import BuildResult

    result, _ = full_set
    return BuildResult([f for f in result.files if f.part == "cards"], result.report)


# ── the default build ────────────────────────────────────────────────────────
def test_default_build_writes_one_pdf_per_language(built):
    assert [f.lang for f in built.files] == LANGS
    for f in built.files:
        assert f.path.name == f"cards-{f.lang}.pdf" and f.path.parent.name == f.lang and f.path.is_file()
        # 141 fronts + 1 back + 35 backgrounds and 35 frames (7 factions × unit, commander, doctrine, terrain, tactic)
        # + 7 art windows (one per faction) + 61 illustrations (the distinct faction × kind × motif)
        # + the quick-reference card's two sides
        assert (f.cards, f.pages, f.faces) == (280, 64, 282)
        assert f.bytes == f.path.stat().st_size
        assert not list(f.path.parent.glob("*.part"))
    assert len(built.report) == 0


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_is_printed_as_often_as_its_copies(built, project, lang):
    pdf = reader(next(f.path for f in built.files if f.lang == lang))
    fronts, backs, references = Counter(), Counter(), []
    for n, page in enumerate(pdf.pages):
        placed = placements(page)
        if n % 2 == 0:  # a front page, followed by its back page
            cards = [p for p in placed if p.form.startswith(f"front-{lang}-")]
            fronts.update(p.form.removeprefix(f"front-{lang}-") for p in cards)
            assert len(placed) == (9 if n < 62 else 280 - 31 * 9 + 2)  # after the cards, a quick-reference card per player
            assert len(placements(pdf.pages[n + 1])) == len(placed)
            references += [p.form for p in placed if p not in cards]
        else:
            backs.update(p.form for p in placed)
    assert fronts == {card.id: card.copies for card in project.game.cards}
    assert references == [f"reference-{lang}-front"] * 2
    assert backs == {"back-dark": 280, f"reference-{lang}-back": 2}


@pytest.mark.parametrize("lang", LANGS)
def test_every_font_is_embedded(built, lang):
    found = fonts(next(f.path for f in built.files if f.lang == lang))
    assert found and all(found.values()), found
    assert not any(name.lstrip("/").split("+")[-1].startswith(("Helvetica", "Times", "Courier")) for name in found)


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_says_print_at_actual_size(built, project, lang):
    note = " ".join(project.locale(lang).get("sheet.print-note").split())
    path = next(f.path for f in built.files if f.lang == lang)
    for n, text in enumerate(texts(path), 1):
        assert note in text and f"{n}/64" in text, (lang, n, text[-200:])
    for page in reader(path).pages:
        assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, 210 * MM, 297 * MM], abs=0.01)


def test_rebuilding_gives_identical_bytes(built, project, tmp_path):
    again = build(project, BuildOptions.resolve(project, lang="ja", out=tmp_path, parts="cards"))
    first = next(f.path for f in built.files if f.lang == "ja")
    assert again.files[0].path.read_bytes() == first.read_bytes()


def test_one_faction_and_a_decklist(project, tmp_path):
    rome = build(project, BuildOptions.resolve(project, lang="en", out=tmp_path, factions=["rome"]))
    (f,) = rome.files
    assert f.path.name == "cards-en-rome.pdf" and (f.cards, f.pages) == (40, 10)
    hastati = project.game.card("hastati-line")
    deck = build(project, BuildOptions.resolve(project, lang="en", out=tmp_path, layout="fronts-only", cards_only=True),
                 cards=[(hastati, 3)], name="my-deck")
    (f,) = deck.files
    assert f.path.name == "my-deck-en.pdf" and (f.cards, f.pages, f.faces) == (3, 1, 5)  # one front, its background, window, illustration, frame
    assert [p.form for p in placements(reader(f.path).pages[0])] == ["front-en-hastati-line"] * 3


def test_back_offset_moves_back_pages_only(project, tmp_path):
    def pages(offset):
        result = build(project, BuildOptions.resolve(project, lang="en", out=tmp_path / str(offset), factions=["sparta"], back_offset=offset))
        return [placements(p) for p in reader(result.files[0].path).pages]

    plain, moved = pages("0,0"), pages("-1.5,2")
    for n, (a, b) in enumerate(zip(plain, moved)):
        for p, q in zip(a, b):
            shift = (q.x - p.x, q.y - p.y)
            assert shift == pytest.approx((0, 0) if n % 2 == 0 else (-1.5 * MM, 2 * MM), abs=0.01)


def test_foldover_and_letter(project, tmp_path):
    result = build(project, BuildOptions.resolve(project, lang="en", out=tmp_path, paper="letter", layout="foldover", factions=["egypt"]))
    pdf = reader(result.files[0].path)
    assert len(pdf.pages) == 10  # 40 cards, 4 per page (sideways, in a column each side of the fold)
    W = 215.9 * MM
    for page in pdf.pages:
        assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, W, 279.4 * MM], abs=0.01)
        fronts = [p for p in placements(page) if p.form != "back-dark"]
        backs = [p for p in placements(page) if p.form == "back-dark"]
        assert len(fronts) == len(backs) == 4
        for f, b in zip(fronts, backs):  # mirrored across the vertical middle line, turned the other way
            assert (f.rotation, b.rotation) == (90, 270)
            assert b.x + 88 * MM / 2 == pytest.approx(W - (f.x + 88 * MM / 2), abs=0.01) and b.y == pytest.approx(f.y, abs=0.01)
    assert "Fold along the dashed line" in texts(result.files[0].path)[0]


# ── options: ppgen.yaml defaults, command line over them, checked once ───────
def test_ppgen_yaml_build_section_sets_the_defaults(game_copy, tmp_path):
    conf = game_copy / "ppgen.yaml"
    text = conf.read_text(encoding="utf-8")
    conf.write_text(text.replace("  paper: a4 ", "  paper: letter ").replace("  layout: duplex", "  layout: fronts-only"), encoding="utf-8")
    project = ppgen.load(game_copy)
    options = BuildOptions.resolve(project, factions=["rome"])
    assert options.paper.key == "letter" and options.layout == "fronts-only" and options.langs == ("en",)
    assert options.out == game_copy / "out"  # relative to the game directory
    assert BuildOptions.resolve(project, paper="a4").paper.key == "a4"  # the command line wins
    result = build(project, options)
    pdf = reader(result.files[0].path)
    assert len(pdf.pages) == 5 and all(len(placements(p)) and "back-dark" not in {x.form for x in placements(p)} for p in pdf.pages)


def test_a_bad_build_value_in_ppgen_yaml_is_pointed_at(game_copy):
    conf = game_copy / "ppgen.yaml"
    conf.write_text(conf.read_text(encoding="utf-8").replace("card_size: poker", "card_size: huge"), encoding="utf-8")
    line = next(i for i, t in enumerate(conf.read_text(encoding="utf-8").splitlines(), 1) if "card_size: huge" in t)
    with pytest.raises(DataError) as exc:
        ppgen.load(game_copy)
    (problem,) = exc.value.problems
    assert problem.line == line and "unknown card size 'huge'" in problem.message


@pytest.mark.parametrize("given,needle", [
    ({"bleed": "-1"}, "--bleed: bleed must be between 0 and 10 mm"),
    ({"back_offset": "1"}, "--back-offset: back offset must be two numbers"),
    ({"card_size": "63"}, "--card-size: unknown card size '63'"),
    ({"lang": "fr"}, "unknown language 'fr' (available: en, ja, ko, zh)"),
    ({"factions": ["spartta"]}, "unknown faction 'spartta'; did you mean 'sparta'"),
])
def test_bad_options_are_refused_with_the_option_named(project, given, needle):
    with pytest.raises(UsageError) as exc:
        BuildOptions.resolve(project, **given)
    assert needle in str(exc.value)


@pytest.mark.parametrize("written, meant", [
    ("jp", "ja"), ("kr", "ko"), ("cn", "zh"), ("japanese", "ja"), ("日本語", "ja"), ("Korean", "ko"), ("中文", "zh"),
    ("zh_Hans", "zh"), ("ja-JP", "ja"), ("english", "en"),
])
def test_another_name_of_a_language_gets_its_code_suggested(project, written, meant):
    """Issue 13, item 5: `--lang jp` had no suggestion. The names are data (ppgen.yaml `aliases`)."""
    with pytest.raises(UsageError) as exc:
        BuildOptions.resolve(project, lang=written)
    name = project.language(meant).name
    assert f"unknown language '{written}'; did you mean '{meant}' ({name})?" in str(exc.value)


def test_a_name_stands_for_one_language(game_copy):
    """`jp` among both ja's and ko's aliases made `--lang jp` suggest whichever came last; ppgen.yaml
    now says so where the second one stands."""
    config = game_copy / "ppgen.yaml"
    text = config.read_text(encoding="utf-8")
    assert "    aliases: [kr, " in text
    config.write_text(text.replace("    aliases: [kr, ", "    aliases: [jp, kr, ", 1), encoding="utf-8")
    line = next(i for i, l in enumerate(config.read_text(encoding="utf-8").split("\n"), 1) if l.startswith("    aliases: [jp, kr, "))
    result = call_ppgen("--root", str(game_copy), "cards")
    assert result.returncode == 2, result.stderr
    assert f"ppgen.yaml:{line}:14: error[alias] 'jp' names language 'ja' already: a name stands for one language" in result.stderr


@pytest.mark.parametrize("written", ["rome", "ROM", "Rome", "ローマ", "로마", "罗马", "ＲＯＭＥ"])
def test_a_faction_is_named_by_id_code_or_name_in_any_language(project, written):
    """Issue 13, item 5: decklists accepted ローマ, --faction did not; one name index for both."""
    assert BuildOptions.resolve(project, factions=[written]).factions == ("rome",)
    assert project.check_faction(written) == "rome"
    assert {r["faction"] for r in project.card_rows("en", written)} == {"rome"}


def test_faction_names_everywhere_on_the_command_line(game_copy):
    cards = call_ppgen("--root", str(game_copy), "cards", "--lang", "ja", "--faction", "ローマ", "--format", "json")
    assert cards.returncode == 0, cards.stderr
    assert {row["faction"] for row in json.loads(cards.stdout)} == {"rome"} and "ローマ" in cards.stderr
    built = call_ppgen("--root", str(game_copy), "build", "--lang", "ko", "--faction", "스파르타", "--faction", "SPA")
    assert built.returncode == 0, built.stderr
    assert (game_copy / "out" / "ko" / "cards-ko-sparta.pdf").is_file()
    wrong = call_ppgen("--root", str(game_copy), "cards", "--faction", "ローマx")
    assert wrong.returncode == 2 and "unknown faction 'ローマx'; did you mean 'ローマ' (rome)?" in wrong.stderr, wrong.stderr
    for command in (["cards"], ["validate", "decks/starter-rome.txt"], ["build", "--parts", "mats"], ["calibrate"]):
        run = call_ppgen("--root", str(game_copy), *command, "--lang", "jp")
        assert run.returncode == 2 and "did you mean 'ja' (日本語)?" in run.stderr, (command, run.stderr)


# ── the command line ─────────────────────────────────────────────────────────
def test_cli_build_writes_into_the_game_directory(game_copy):
    """The `ppgen` program itself (the other tests run its commands in-process: clitools.call_ppgen)."""
    result = run_ppgen("--root", str(game_copy), "build", "--lang", "ja", "--faction", "rome")
    assert result.returncode == 0, result.stderr
    assert (game_copy / "out" / "ja" / "cards-ja-rome.pdf").is_file()
    assert "wrote out/ja/cards-ja-rome.pdf: 10 pages, 40 cards" in result.stderr.splitlines()[-1]


def test_cli_refuses_cards_that_do_not_fit(game_copy):
    result = call_ppgen("--root", str(game_copy), "build", "--paper", "letter", "--card-size", "200x270", "--bleed", "3")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "do not fit on Letter" in result.stderr and "short by" in result.stderr
    assert not (game_copy / "out" / "en").exists()


def test_cli_says_when_the_grid_gave_way_to_room_for_crop_marks(game_copy):
    result = call_ppgen("--root", str(game_copy), "build", "-q", "--paper", "letter", "--card-size", "bridge", "-f", "rome")
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[-1].startswith(
        "ok: wrote out/en/cards-en-rome.pdf: 10 pages, 40 cards; 8 cards per page: 9 would fit, but would leave no room "
        "for crop marks outside the 5 mm border a printer cannot print")


def test_a_build_of_some_parts_or_a_deck_never_replaces_the_whole_set(game_copy):
    """`--parts rulebook,mats` and `--deck … --parts cards,boxes` into the folder of a full build:
    each writes a set named by what it holds; ancient-duel-en.pdf, the file a player prints, stays
    the whole set (it was replaced by the 26-page or 12-page fragment, and the summary said so as
    if nothing were amiss)."""
    out = game_copy / "out"
    full = call_ppgen("build", "--lang", "en", "--parts", "mats,score-sheet,cards", "--faction", "rome", cwd=game_copy)
    assert full.returncode == 0, full.stderr
    whole = call_ppgen("build", "--lang", "en", cwd=game_copy)
    assert whole.returncode == 0, whole.stderr
    kept = (out / "en" / "ancient-duel-en.pdf").read_bytes()
    for args, name in ((["--parts", "rulebook,mats"], "ancient-duel-en-rulebook-mats.pdf"),
                       (["--deck", "decks/starter-rome.txt", "--parts", "cards,boxes"], "starter-rome-set-en.pdf")):
        result = call_ppgen("build", "--lang", "en", *args, cwd=game_copy)
        assert result.returncode == 0, result.stderr
        assert f"wrote {out.name}/en/{name}" in result.stderr or f"/en/{name}" in result.stderr, result.stderr
        assert (out / "en" / name).is_file()
    assert (out / "en" / "ancient-duel-en.pdf").read_bytes() == kept
    assert (out / "en" / "ancient-duel-en-rome.pdf").is_file()  # a faction's set is named by its faction, as before


def test_the_whole_set_is_the_one_ppgen_yaml_names_and_a_deck_s_set_is_named_as_the_deck(game_copy):
    """ppgen.yaml `build.parts` without the mats is the game's whole set: its set is ancient-duel-en.pdf,
    the file its rulebook tells the player to print (it was named by its parts, and the rulebook named a
    file never written). A decklist called rome.txt writes rome-set-en.pdf, not the Rome faction's set."""
    from pdftools import page_texts

    config = game_copy / "ppgen.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("\nbuild:\n", "\nbuild:\n  parts: [rulebook, score-sheet, cards]\n", 1),
                      encoding="utf-8")
    result = call_ppgen("build", "--lang", "en", cwd=game_copy)
    assert result.returncode == 0, result.stderr
    folder = game_copy / "out" / "en"
    assert (folder / "ancient-duel-en.pdf").is_file() and not list(folder.glob("ancient-duel-en-*.pdf"))
    assert "ancient-duel-en.pdf" in " ".join(page_texts(folder / "rulebook-en.pdf"))
    (game_copy / "rome.txt").write_text((game_copy / "decks" / "starter-rome.txt").read_text(encoding="utf-8"), encoding="utf-8")
    for args in (["-f", "rome"], ["--deck", "rome.txt"]):
        assert call_ppgen("build", "--lang", "en", "--parts", "score-sheet,cards", *args, cwd=game_copy).returncode == 0
    assert (folder / "ancient-duel-en-rome.pdf").is_file() and (folder / "rome-set-en.pdf").is_file()


def test_a_part_of_another_kind_in_ppgen_yaml_is_a_clear_error(game_copy):
    config = game_copy / "ppgen.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("\nbuild:\n", "\nbuild:\n  parts: [rulebook, 5]\n", 1), encoding="utf-8")
    result = call_ppgen("build", "--lang", "en", cwd=game_copy)
    assert result.returncode == 2 and "build.parts: unknown part '5'" in result.stderr and "internal error" not in result.stderr, result.stderr


@pytest.mark.parametrize("written, says", [
    ("parts: [rulebok, mats]", "build.parts: unknown part 'rulebok'; did you mean 'rulebook'?"),
    ("back: drak", "build.back: unknown card back 'drak'; did you mean 'dark'?"),
])
def test_a_build_value_of_ppgen_yaml_is_pointed_at_where_it_is_written(game_copy, written, says):
    """`parts: [rulebok]` in ppgen.yaml was blamed on --parts, an option never typed; `back: drak` was
    named without its line. Both are errors at their place in the file, as its other values are."""
    config = game_copy / "ppgen.yaml"
    text = config.read_text(encoding="utf-8")
    assert "\nbuild:\n" in text
    key = written.split(":")[0]
    text = "\n".join(line for line in text.split("\n") if not line.startswith(f"  {key}:"))
    text = text.replace("\nbuild:\n", f"\nbuild:\n  {written}\n", 1)
    config.write_text(text, encoding="utf-8")
    line = text.split("\n").index(f"  {written}") + 1
    result = call_ppgen("build", "--lang", "en", cwd=game_copy)
    assert result.returncode == 2
    col = len(f"  {key}: ") + 1
    assert f"ppgen.yaml:{line}:{col}: error[value] {says}" in result.stderr, result.stderr


def test_cli_back_printable_margin_and_rulebook_options(game_copy):
    bad = call_ppgen("--root", str(game_copy), "build", "--back", "lite", "-f", "rome")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert "--back: unknown card back 'lite'; did you mean 'light'? (templates/card.yaml backs: dark, light)" in bad.stderr
    margin = call_ppgen("--root", str(game_copy), "build", "--printable-margin", "40", "-f", "rome")
    assert margin.returncode == 2 and "--printable-margin: the printable margin must be between 0 and 15 mm, not 40" in margin.stderr
    conf = game_copy / "ppgen.yaml"
    conf.write_text(conf.read_text(encoding="utf-8").replace("  back: dark ", "  back: light "), encoding="utf-8")
    good = call_ppgen("--root", str(game_copy), "build", "--rulebook", "booklet", "--parts", "rulebook,cards", "-f", "rome")
    assert good.returncode == 0, good.stderr
    assert "9 poker (63 × 88 mm) cards per A4 page (3 × 3), duplex, flip on long edge; light card backs" in good.stderr
    assert "rulebook: a booklet, A5 pages two to a landscape A4 sheet, in rulebook-booklet-LANG.pdf (not in the set)" in good.stderr
    assert sorted(p.name for p in (game_copy / "out" / "en").iterdir()) == ["cards-en-rome.pdf", "rulebook-booklet-en.pdf"]
    assert {pl.form for pl in placements(reader(game_copy / "out" / "en" / "cards-en-rome.pdf").pages[1])} == {"back-light"}


def test_strict_refuses_a_build_with_warnings_and_the_report_lists_them(game_copy, tmp_path):
    ja = game_copy / "locales" / "ja.yaml"
    lines = ja.read_text(encoding="utf-8").splitlines(keepends=True)
    start = lines.index("card.hastati-line.name:\n")
    ja.write_text("".join(lines[:start] + lines[start + 3:]), encoding="utf-8")  # the name is no longer translated
    report = tmp_path / "report.json"
    pdf = game_copy / "out" / "ja" / "cards-ja-rome.pdf"
    strict = call_ppgen("--root", str(game_copy), "build", "--lang", "ja", "-f", "rome", "--strict", "--report-json", str(report))
    assert strict.returncode == 1, strict.stderr
    assert not pdf.exists() and "not written" in strict.stderr
    assert "failed: no file written" in strict.stderr, strict.stderr  # (it said "no card sheets written", of any build)
    data = json.loads(report.read_text(encoding="utf-8"))
    assert {"lang": "ja", "code": "fallback", "subject": "card.hastati-line.name",
            "message": "not translated; printed in English", "strict": True} in data["warnings"]
    assert data["files"][0]["written"] is False
    relaxed = call_ppgen("--root", str(game_copy), "build", "--lang", "ja", "-f", "rome")
    assert relaxed.returncode == 0 and pdf.is_file()
    assert "card.hastati-line.name" in relaxed.stderr and "1 warning" in relaxed.stderr


def test_strict_build_and_calibration_of_every_language_have_no_warnings(game_copy):
    result = call_ppgen("--root", str(game_copy), "build", "--lang", "all", "--strict", "-f", "dacia")
    assert result.returncode == 0, result.stderr
    result = call_ppgen("--root", str(game_copy), "calibrate", "--lang", "all", "--strict")
    assert result.returncode == 0, result.stderr
    for lang in LANGS:
        assert (game_copy / "out" / lang / f"calibrate-{lang}-a4-long.pdf").is_file()


def test_calibrate_explains_itself_in_the_chosen_language(game_copy):
    result = call_ppgen("--root", str(game_copy), "calibrate", "--lang", "ja", "--paper", "letter", "--duplex", "short", "--back-offset", "-1.5,2")
    assert result.returncode == 0, result.stderr
    path = game_copy / "out" / "ja" / "calibrate-ja-letter-short.pdf"
    pdf = reader(path)
    assert len(pdf.pages) == 2
    for page in pdf.pages:
        assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, 215.9 * MM, 279.4 * MM], abs=0.01)
    front, back = texts(path)
    assert "両面印刷の位置合わせテスト" in front and "短辺綴じ" in front and "-1.5,2 mm" in front
    assert "裏面" in back
    found = fonts(path)
    assert found and all(found.values())


def test_build_help_has_examples_and_imports_no_pdf_library():
    code = (
        "import sys\nfrom ppgen.cli import main\n"
        "for cmd in ('build', 'calibrate'):\n"
        "    try:\n        main([cmd, '--help'])\n    except SystemExit:\n        pass\n"
        "print('HEAVY', [m for m in ('reportlab', 'PIL', 'pypdf', 'pypdfium2') if m in sys.modules])\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "HEAVY []" in result.stdout, result.stdout + result.stderr
    assert result.stdout.count("Examples:") == 2 and "--back-offset" in result.stdout


def test_calibration_pages_for_other_paper_or_edge_do_not_overwrite_each_other(game_copy):
    """Issue 13, item 13: the file name says the paper and the duplex edge."""
    out = game_copy / "out" / "en"
    first = call_ppgen("--root", str(game_copy), "calibrate")
    assert first.returncode == 0, first.stderr
    second = call_ppgen("--root", str(game_copy), "calibrate", "--paper", "letter", "--duplex", "short")
    assert second.returncode == 0, second.stderr
    a4_long, letter_short = out / "calibrate-en-a4-long.pdf", out / "calibrate-en-letter-short.pdf"
    assert sorted(p.name for p in out.glob("calibrate*.pdf")) == [a4_long.name, letter_short.name]
    assert "out/en/calibrate-en-letter-short.pdf" in second.stderr
    sizes = {p.name: [round(float(v) / MM, 1) for v in reader(p).pages[0].mediabox[2:]] for p in (a4_long, letter_short)}
    assert sizes == {a4_long.name: [210.0, 297.0], letter_short.name: [215.9, 279.4]}
    assert "長辺" not in texts(a4_long)[0] and "flip on long edge" in texts(a4_long)[0]
    assert "flip on short edge" in texts(letter_short)[0]


def test_parts_drawn_in_worker_processes_give_the_same_files_and_warnings(game_copy, tmp_path):
    """--jobs 2 draws a language's rulebook beside its card sheets, in two processes: the files
    and the warnings (here: an untranslated text on the score sheet and in the set) are those of
    a build in one process."""
    import re

    ja = game_copy / "locales" / "ja.yaml"
    ja.write_text(re.sub(r"sheet\.title:\n  text: .*\n  src: \w+\n", "", ja.read_text(encoding="utf-8")), encoding="utf-8")
    project = ppgen.load(game_copy)
    results = {jobs: build(project, BuildOptions.resolve(project, lang="ja", out=tmp_path / str(jobs), jobs=jobs), reuse=False)
               for jobs in (1, 2)}
    one, two = results[1], results[2]
    assert [f.path.name for f in one.files] == [f.path.name for f in two.files] and len(one.files) == 5
    assert all(a.path.read_bytes() == b.path.read_bytes() for a, b in zip(one.files, two.files))
    assert one.report.warnings == two.report.warnings
    assert ("fallback", "sheet.title") in {(w.code, w.subject) for w in two.report.warnings}


def test_a_parallel_build_ends_its_worker_processes_cleanly(project, tmp_path, monkeypatch):
    """When every part is drawn the workers' pool is shut down, not its workers killed: killing
    them printed "Exception ignored … OSError: Bad file descriptor" at exit, now and then."""
    import multiprocessing.process

    killed = []
    real = multiprocessing.process.BaseProcess.terminate
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "terminate", lambda self: killed.append(self.pid) or real(self))
    result = build(project, BuildOptions.resolve(project, lang="ja,en", out=tmp_path, parts="score-sheet", jobs=2), reuse=False)
    assert [f.lang for f in result.files] == ["ja", "en"] and all(f.path.is_file() for f in result.files)
    assert killed == []


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_collector_as_the_drawing_set_it_is_given_back_after_the_build(project, tmp_path, jobs):
    """write/build.py freezes what exists before the drawing and collects the youngest objects less
    often (gc.freeze, gc.set_threshold: a tenth of a build's CPU
    was the collector walking the loaded project and fonts again and again); a program calling
    build() gets its collector back as it was, whether the build ends or fails."""
    import gc

    before, thresholds = gc.get_freeze_count(), gc.get_threshold()
    build(project, BuildOptions.resolve(project, lang="en", out=tmp_path / "ok", parts="score-sheet", jobs=jobs), reuse=False)
    assert (gc.get_freeze_count(), gc.get_threshold()) == (before, thresholds)
    options = BuildOptions.resolve(project, lang="en", out=tmp_path / "broken", parts="mats,score-sheet", jobs=jobs)
    from ppgen.write import parts

    real = parts.PARTS["mats"]
    try:
        parts.PARTS["mats"] = lambda *a, **k: (_ for _ in ()).throw(RuntimeError("a part that fails"))
        with pytest.raises(RuntimeError, match="a part that fails"):
            build(project, options, reuse=False)
    finally:
        parts.PARTS["mats"] = real
    assert (gc.get_freeze_count(), gc.get_threshold()) == (before, thresholds)


@pytest.mark.parametrize("args, says", [
    (("build", "--cut-file", "dxf"), "--cut-file shapes the cut files of a cutting machine: add --cutter (silhouette"),
    (("build", "--corner-radius", "5"), "--corner-radius shapes the cut files of a cutting machine: add --cutter"),
    (("build", "--force"), "--force prints a decklist that breaks the rules: it goes with --deck"),
    (("export", "png", "--force"), "--force prints a decklist that breaks the rules: it goes with --deck"),
    (("export", "tts", "--force"), "--force prints a decklist that breaks the rules: it goes with --deck"),
    (("build", "--card-thickness", "0.5"), "--card-thickness sizes the tuck boxes: add boxes to --parts"),  # (and it forced a fresh build)
], ids=["cut-file", "corner-radius", "force", "export-png-force", "export-tts-force", "card-thickness"])
def test_an_option_that_would_do_nothing_is_refused(tmp_path, args, says):
    """`--cut-file dxf` or `--corner-radius 5` without `--cutter`, `--force` without `--deck` (in
    `build` and in `export png` and `tts`), were silently ignored (exit 0, no DXF): a user believes
    they took effect. Refused, exit 2, nothing written (as `--layout print-and-cut` without
    `--cutter` already was)."""
    result = call_ppgen(*args[:2 if args[0] == "export" else 1], "-f", "rome", "--out", str(tmp_path / "out"), *args[2 if args[0] == "export" else 1:])
    assert result.returncode == 2 and says in result.stderr, result.stderr
    assert not (tmp_path / "out").exists()
