"""Where ppgen reads and writes: --out in odd places, a game directory missing a folder,
fonts that cannot be used. Each is a clean error naming the path, or works."""
from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest

from clitools import assert_clean_error, assert_no_crash, call_ppgen, leftovers, pdf_files
from ppgen.errors import UsageError
from ppgen.write.build import BuildOptions, build

FIXTURES = Path(__file__).parent / "fixtures"
SCORE_SHEET = ("build", "--lang", "en", "--parts", "score-sheet")


# ── --out ──────────────────────────────────────────────────────────────────
def test_out_folder_that_does_not_exist_is_created(game_copy, tmp_path):
    out = tmp_path / "not" / "yet" / "there"
    result = call_ppgen(*SCORE_SHEET, "--out", out, root=game_copy)
    assert result.returncode == 0, result.stderr
    assert [p.relative_to(out) for p in pdf_files(out)] == [Path("en/score-sheet-en.pdf")]


def test_out_is_a_file(game_copy, tmp_path):
    out = tmp_path / "out"
    out.write_text("my notes", encoding="utf-8")
    result = call_ppgen(*SCORE_SHEET, "--out", out, root=game_copy)
    assert_clean_error(result, "is a file", code=2)
    assert out.read_text(encoding="utf-8") == "my notes"


def test_out_under_a_file_cannot_be_created(game_copy, tmp_path):
    blocker = tmp_path / "notes.txt"
    blocker.write_text("my notes", encoding="utf-8")
    result = call_ppgen(*SCORE_SHEET, "--out", blocker / "out", root=game_copy)
    assert_clean_error(result, "cannot create folder", str(blocker), code=2)
    assert blocker.read_text(encoding="utf-8") == "my notes"


def test_a_file_where_the_language_folder_goes(game_copy, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "en").write_text("not a folder", encoding="utf-8")
    result = call_ppgen(*SCORE_SHEET, "--out", out, root=game_copy)
    assert_clean_error(result, "exists and is a file, not a folder", code=2)


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="running as root: file permissions are not enforced (see the test below for the same path)")
def test_read_only_out_folder(game_copy, tmp_path):
    out = tmp_path / "out"
    (out / "en").mkdir(parents=True)
    (out / "en").chmod(0o555)
    try:
        result = call_ppgen(*SCORE_SHEET, "--out", out, root=game_copy)
    finally:
        (out / "en").chmod(0o755)
    assert_clean_error(result, "permission denied", code=2)
    assert pdf_files(out) == []


def test_permission_denied_on_write_is_a_clear_error(project, tmp_path, monkeypatch):
    """What a read-only folder does, also when the tests run as root: the temporary file
    cannot be created."""
    real = os.open

    def denied(path, *args, **kwargs):
        if str(path).endswith(".part"):  # the temporary file beside the target (write/atomic.py)
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", denied)
    out = tmp_path / "out"
    with pytest.raises(UsageError) as exc:
        build(project, BuildOptions.resolve(project, lang="en", out=out, parts="score-sheet", jobs=1))
    assert str(exc.value) == f"cannot write into {out / 'en'}: Permission denied"


@pytest.mark.parametrize("args, written", [
    (SCORE_SHEET + ("--out", "{tmp}/out", "--report-json", "{tmp}/reports/"), "{tmp}/reports/report.json"),
    (("i18n", "export", "--lang", "ja", "-o", "{tmp}/po/"), "{tmp}/po/ja.po"),
], ids=["report-json", "i18n-export"])
def test_a_file_option_ending_in_a_slash_names_a_folder_and_is_refused(game_copy, tmp_path, args, written):
    """`-o out/po/` wrote a file named `po` (the slash dropped); now a usage error, nothing written."""
    result = call_ppgen(*(a.format(tmp=tmp_path) for a in args), root=game_copy)
    assert_clean_error(result, "ends in '/': it names a folder; name the file to write, e.g. " + written.format(tmp=tmp_path), code=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game"]


def test_report_json_into_a_folder_that_cannot_be_created(game_copy, tmp_path):
    blocker = tmp_path / "notes.txt"
    blocker.write_text("x", encoding="utf-8")
    result = call_ppgen(*SCORE_SHEET, "--out", tmp_path / "out", "--report-json", blocker / "report.json", root=game_copy)
    assert_clean_error(result, f"{blocker} exists and is a file, not a folder", code=2)


# ── a game directory missing something ─────────────────────────────────────
def test_game_directory_without_fonts(game_copy, tmp_path):
    (game_copy / "fonts").unlink()
    result = call_ppgen(*SCORE_SHEET, "--out", tmp_path / "out", root=game_copy)
    assert_clean_error(result, "the game directory has no fonts/ folder", code=2)
    assert call_ppgen("cards", root=game_copy).returncode == 0  # listing cards needs no fonts


@pytest.mark.parametrize("parts, missing", [("cards", "templates/card.yaml"), ("rulebook", "templates/rulebook.yaml"),
                                            ("mats", "templates/mat-style.yaml")])
def test_game_directory_without_templates(game_copy, tmp_path, parts, missing):
    shutil.rmtree(game_copy / "templates")
    result = call_ppgen("build", "--lang", "en", "--parts", parts, "--out", tmp_path / "out", root=game_copy)
    assert_clean_error(result, f"{missing}: error[io] file not found: there is no folder templates", code=2)


def test_game_directory_without_locales(game_copy):
    shutil.rmtree(game_copy / "locales")
    result = call_ppgen("cards", root=game_copy)
    assert_clean_error(result, "locales/en.yaml", "locale file is missing", code=2)


def test_game_directory_that_is_not_one(tmp_path):
    result = call_ppgen("cards", root=tmp_path)
    assert_clean_error(result, "is not a game directory: it has no cards.yaml", code=2)
    result = call_ppgen("cards", root=tmp_path / "nowhere")
    assert_clean_error(result, "does not exist", code=2)


# ── fonts that cannot be used ──────────────────────────────────────────────
def use_font(game: Path, file: str, data: bytes) -> None:
    """Replace the linked fonts/ by a copy holding `file`, and make it English's body font."""
    fonts = game / "fonts"
    target = fonts.resolve()
    fonts.unlink()
    shutil.copytree(target, fonts)
    (fonts / file).write_bytes(data)
    config = game / "ppgen.yaml"
    text = config.read_text(encoding="utf-8")
    old = "body: [NotoSans_400Regular.ttf, DejaVuSans.ttf]"
    assert old in text
    config.write_text(text.replace(old, f"body: [{file}, DejaVuSans.ttf]", 1), encoding="utf-8")


@pytest.mark.parametrize("what", ["garbage", "truncated", "empty"])
def test_corrupt_font_is_a_clear_error(game_copy, tmp_path, what):
    real = (game_copy / "fonts" / "NotoSans_400Regular.ttf").read_bytes()
    data = {"garbage": os.urandom(4096), "truncated": real[:2000], "empty": b""}[what]
    use_font(game_copy, "Broken.ttf", data)
    out = tmp_path / "out"
    result = call_ppgen(*SCORE_SHEET, "--out", out, root=game_copy)
    text = (game_copy / "ppgen.yaml").read_text(encoding="utf-8")
    line = text[: text.index("body: [Broken.ttf,")].count("\n") + 1
    col = len(text[: text.index("Broken.ttf,")].rsplit("\n", 1)[-1]) + 1
    # where it is named (it was "cannot use font Broken.ttf", with no line to go to)
    assert_clean_error(result, f"ppgen.yaml:{line}:{col}: error[font] languages.en.fonts.body: cannot use font Broken.ttf", code=2)
    assert pdf_files(out) == [] and leftovers(tmp_path) == []


def test_cff_font_is_refused_with_the_reason(game_copy, tmp_path):
    """tests/fixtures/cff-outlines.otf: a real OpenType font with CFF outlines (two box glyphs,
    made with fontTools' FontBuilder), which ReportLab cannot embed."""
    use_font(game_copy, "Boxes-Regular.otf", (FIXTURES / "cff-outlines.otf").read_bytes())
    result = call_ppgen(*SCORE_SHEET, "--out", tmp_path / "out", root=game_copy)
    assert_clean_error(result, "cannot use font Boxes-Regular.otf: it has CFF (PostScript) outlines; "
                               "use a static TrueType (glyf) version of the font", code=2)


def test_font_named_in_ppgen_yaml_but_absent(game_copy, tmp_path):
    config = game_copy / "ppgen.yaml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("body: [NotoSans_400Regular.ttf,", "body: [NotoSans_400Regulr.ttf,", 1), encoding="utf-8")
    result = call_ppgen(*SCORE_SHEET, "--out", tmp_path / "out", root=game_copy)
    line = text[: text.index("body: [NotoSans_400Regular.ttf,")].count("\n") + 1
    col = len(text[: text.index("NotoSans_400Regular.ttf,")].rsplit("\n", 1)[-1]) + 1
    assert_clean_error(result, f"ppgen.yaml:{line}:{col}: error[font] languages.en.fonts.body names 'NotoSans_400Regulr.ttf', "
                               "which is not in fonts/; did you mean 'NotoSans_400Regular.ttf'", code=2)  # where it is written, and what is there


def test_every_chain_that_names_a_missing_font_is_pointed_at(game_copy, tmp_path):
    """A font file gone that two chains name (ja's bold and title): both are said, each at its line
    (only the first chain asked for was, and without a line: build named bold, i18n check title)."""
    config = game_copy / "ppgen.yaml"
    text = config.read_text(encoding="utf-8")
    lines = text.split("\n")
    named = [i + 1 for i, l in enumerate(lines) if "NotoSansJP_700Bold.ttf" in l and ("bold:" in l or "title:" in l)]
    assert len(named) == 2
    fonts = game_copy / "fonts"  # (a link to the shipped fonts: a folder of links to each, but that one, instead)
    shipped = fonts.resolve()
    fonts.unlink()
    fonts.mkdir()
    for font in shipped.iterdir():
        if font.name != "NotoSansJP_700Bold.ttf":
            (fonts / font.name).symlink_to(font)
    for command in (("build", "--lang", "ja", "--parts", "score-sheet", "--out", tmp_path / "out"), ("i18n", "check", "--lang", "ja")):
        result = call_ppgen(*command, root=game_copy)
        assert result.returncode == 2, result.stderr
        found = [int(l.split(":")[1]) for l in result.stderr.splitlines() if l.startswith("ppgen.yaml:") and "NotoSansJP_700Bold.ttf" in l]
        assert found == named, (command, result.stderr)


def test_a_folder_named_like_a_font(game_copy, tmp_path):
    use_font(game_copy, "placeholder.ttf", b"")
    (game_copy / "fonts" / "placeholder.ttf").unlink()
    (game_copy / "fonts" / "placeholder.ttf").mkdir()
    result = call_ppgen(*SCORE_SHEET, "--out", tmp_path / "out", root=game_copy)
    assert_clean_error(result, "placeholder.ttf", code=2)
    assert_no_crash(result)


@pytest.mark.parametrize("command", [SCORE_SHEET, ("calibrate",), ("export", "contact", "-f", "rome")])
def test_out_named_like_a_pdf_is_refused_and_nothing_is_made(game_copy, tmp_path, command):
    """Issue 13, item 6: --out names a folder; `--out my.pdf` made a folder called my.pdf."""
    out = tmp_path / "my.pdf"
    result = call_ppgen(*command, "--out", out, root=game_copy)
    assert_clean_error(result, "--out names a folder", "my.pdf", code=2)
    assert not out.exists()
