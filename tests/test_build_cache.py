"""A second build with nothing changed keeps the files it finds; any change draws afresh (write/cache.py)."""
from __future__ import annotations

import json
import re
import shutil

import pytest

import ppgen
from clitools import ROOT, call_ppgen, run_ppgen
from pdftools import texts
from ppgen.write import build as build_module
from ppgen.write.build import BuildOptions, build

PARTS = "score-sheet"  # the quickest part to draw: what is kept or drawn is the same for every part


def run(game, out, lang="en", parts=PARTS, reuse=True, **options):
    project = ppgen.load(game)  # loaded afresh, as each command does
    return build(project, BuildOptions.resolve(project, lang=lang, out=out, parts=parts, jobs=1, **options), reuse=reuse)


def stamps(result):
    return {f.path: f.path.stat().st_mtime_ns for f in result.files}


def no_drawing(monkeypatch):
    """From now on, fail the test if anything is drawn."""
    def refuse(*args, **kwargs):
        raise AssertionError("drawn although nothing changed")

    monkeypatch.setattr(build_module, "draw_part", refuse)


def test_nothing_changed_keeps_every_file_as_it_was(game_copy, tmp_path, monkeypatch):
    first = run(game_copy, tmp_path / "out", lang="en,ja", parts="mats,score-sheet")
    assert not any(f.kept for f in first.files) and len(first.files) == 6  # the set and two parts, two languages
    before = stamps(first)
    no_drawing(monkeypatch)
    again = run(game_copy, tmp_path / "out", lang="en,ja", parts="mats,score-sheet")
    assert all(f.kept and f.written for f in again.files)
    assert stamps(again) == before  # not rewritten
    assert [(f.path, f.pages, f.bytes, f.part) for f in again.files] == [(f.path, f.pages, f.bytes, f.part) for f in first.files]


def test_a_file_another_build_replaced_before_the_record_was_written_is_drawn_again(game_copy, tmp_path, monkeypatch):
    """Two builds into one folder at once, with other options (here the score sheet on Letter
    and on A4): the other build replaces a file after this one wrote it and before this one
    records what it wrote. The record named the other build's file as this build's, and the
    next build with this build's options said "up to date" over it (`ppgen build --back light`
    and `--back dark` at once left the light backs on disk, kept as the dark ones). The
    record holds each file as this build wrote it: the next build draws it again."""
    from ppgen.write import cache

    out = tmp_path / "out"
    other = run(game_copy, tmp_path / "other", paper="letter")  # what the other build writes
    remember = cache.remember

    def raced(inputs, lang, files, warnings):
        for f in files:  # the other build's file lands under each name (renamed over it, as ppgen writes)
            theirs = tmp_path / "other" / f.path.relative_to(out)
            shutil.copyfile(theirs, f.path.with_name(f.path.name + ".theirs"))
            f.path.with_name(f.path.name + ".theirs").replace(f.path)
        remember(inputs, lang, files, warnings)

    monkeypatch.setattr(cache, "remember", raced)
    first = run(game_copy, out, paper="a4")
    monkeypatch.setattr(cache, "remember", remember)
    theirs = {f.path: f.path.read_bytes() for f in first.files}
    assert all(data == (tmp_path / "other" / path.relative_to(out)).read_bytes() for path, data in theirs.items())
    again = run(game_copy, out, paper="a4")
    assert not any(f.kept for f in again.files), "the other build's files were taken for this one's"
    assert all(f.path.read_bytes() != theirs[f.path] for f in again.files)
    assert other.files and all(not f.kept for f in other.files)


def test_an_edit_to_one_locale_redraws_that_language_only(game_copy, tmp_path):
    run(game_copy, tmp_path / "out", lang="en,ja")
    ja = game_copy / "locales" / "ja.yaml"
    ja.write_text(ja.read_text(encoding="utf-8").replace("text: スコアシート", "text: 得点表"), encoding="utf-8")
    again = run(game_copy, tmp_path / "out", lang="en,ja")
    assert {f.lang: f.kept for f in again.files} == {"en": True, "ja": False}
    assert "得点表" in texts(next(f.path for f in again.files if f.lang == "ja"))[0]


def _edit_template(game, out):
    path = game / "templates" / "mat-style.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n# a designer's note\n", encoding="utf-8")


def _add_art(game, out):
    (game / "art").mkdir(exist_ok=True)
    shutil.copy(game / "templates" / "icc" / "README.md", game / "art" / "notes.md")


def _delete_output(game, out):
    (out / "en" / "score-sheet-en.pdf").unlink()


def _touch_output(game, out):
    path = out / "en" / "score-sheet-en.pdf"
    path.write_bytes(path.read_bytes())  # same bytes, written again: not the file the record describes


def _garble_record(game, out):
    for record in (out / ".ppgen-cache").glob("*.json"):
        record.write_text("{ not json", encoding="utf-8")


def _another_record_version(game, out):
    for record in (out / ".ppgen-cache").glob("*.json"):
        data = json.loads(record.read_text(encoding="utf-8"))
        record.write_text(json.dumps({**data, "version": 0}), encoding="utf-8")


def _edit_cards(game, out):
    path = game / "cards.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n# reordered nothing\n", encoding="utf-8")


@pytest.mark.parametrize("change", [_edit_template, _add_art, _delete_output, _touch_output, _garble_record,
                                    _another_record_version, _edit_cards], ids=lambda f: f.__name__.strip("_"))
def test_any_change_to_inputs_outputs_or_record_draws_afresh(game_copy, tmp_path, change):
    out = tmp_path / "out"
    run(game_copy, out)
    change(game_copy, out)
    again = run(game_copy, out)
    assert not any(f.kept for f in again.files)
    assert all(f.path.is_file() and f.path.stat().st_size == f.bytes for f in again.files)
    assert run(game_copy, out).files[0].kept  # and the record made then is trusted next time


def test_other_options_or_another_ppgen_draw_afresh(game_copy, tmp_path, monkeypatch):
    out = tmp_path / "out"
    run(game_copy, out)
    assert not run(game_copy, out, paper="letter").files[0].kept  # same files, other options
    assert run(game_copy, out, paper="letter").files[0].kept
    from ppgen.write import cache

    monkeypatch.setattr(cache, "code_digest", lambda: "another version of ppgen")
    assert not run(game_copy, out, paper="letter").files[0].kept


def test_a_faction_build_and_a_full_build_keep_records_of_their_own(game_copy, tmp_path, monkeypatch):
    out = tmp_path / "out"
    run(game_copy, out, parts="cards", factions=["rome"])
    run(game_copy, out)
    records = sorted(p.name for p in (out / ".ppgen-cache").glob("*.json"))
    assert len(records) == 2 and all(re.fullmatch(r"en-[0-9a-f]{12}\.json", r) for r in records)
    layouts = sorted(p.name for p in (out / ".ppgen-cache").glob("*.bin"))
    assert layouts == ["layouts-en-cards-rome.bin", "layouts-en-score-sheet.bin"]  # the layouts each part used
    no_drawing(monkeypatch)
    assert run(game_copy, out, parts="cards", factions=["rome"]).files[0].kept
    assert run(game_copy, out).files[0].kept


def test_reuse_false_draws_again(game_copy, tmp_path):
    run(game_copy, tmp_path)
    assert not run(game_copy, tmp_path, reuse=False).files[0].kept


def test_the_command_says_up_to_date_and_no_cache_draws_again(game_copy, tmp_path):
    def said(*extra):
        done = call_ppgen("build", "--parts", PARTS, "--out", tmp_path, "--lang", "en,ja", *extra, root=game_copy)
        assert done.returncode == 0, done.stderr
        return done.stdout + done.stderr

    assert "ok: wrote 2 PDFs" in said()
    assert re.search(r"ok: up to date: 2 PDFs in .*; nothing changed since the last build \(--no-cache draws it again\)", said())
    ja = game_copy / "locales" / "ja.yaml"
    ja.write_text(ja.read_text(encoding="utf-8").replace("text: スコアシート", "text: 得点表"), encoding="utf-8")
    mixed = said()  # only ja was written: the line names ja's file, not "2 PDFs"
    assert re.search(r"ok: wrote \S*/ja/score-sheet-ja\.pdf: 1 page; en unchanged, kept", mixed), mixed
    forced = said("--no-cache")
    assert "ok: wrote 2 PDFs" in forced and "unchanged" not in forced, forced
    assert "--no-cache" in call_ppgen("build", "--help").stdout


def test_strict_fails_on_the_warnings_of_a_kept_language_again(game_copy, tmp_path):
    ja = game_copy / "locales" / "ja.yaml"
    text = ja.read_text(encoding="utf-8")
    ja.write_text(re.sub(r"sheet\.title:\n  text: スコアシート\n  src: \w+\n", "", text), encoding="utf-8")  # untranslated: a warning
    args = ("build", "--parts", PARTS, "--out", tmp_path, "--lang", "ja")
    first = call_ppgen(*args, root=game_copy)
    assert first.returncode == 0 and "fallback" in first.stdout + first.stderr
    strict = call_ppgen(*args, "--strict", root=game_copy)
    assert strict.returncode == 1, strict.stdout + strict.stderr
    assert "up to date" not in strict.stdout + strict.stderr and "was not written" in strict.stdout + strict.stderr
    assert "fallback" in strict.stdout + strict.stderr  # the kept language's warnings are shown again


def test_after_one_cards_text_changed_only_its_texts_are_laid_out_again(game_copy, tmp_path):
    """The layouts a part used are kept beside the records: the next build lays out only the
    texts that changed (here one card's effect: its front) and takes every other from there —
    and writes the same bytes as a build that lays everything out afresh."""
    from ppgen.typeset.text import LAYOUTS

    def counted(out, reuse=True):
        LAYOUTS.clear()  # a new process: nothing laid out yet
        result = run(game_copy, out, lang="ja", parts="cards", factions=["carthage"], reuse=reuse)
        return result, dict(LAYOUTS.counts)

    _, first = counted(tmp_path / "out")
    assert first["made"] > 50 and first["recalled"] == 0
    ja = game_copy / "locales" / "ja.yaml"
    old = "text: 攻撃した後、このカードを守備表示にする。"  # card.numidian-cavalry.effect
    assert old in ja.read_text(encoding="utf-8")
    ja.write_text(ja.read_text(encoding="utf-8").replace(old, "text: 攻撃した後、このカードを守備表示にし、カードを1枚引く。"),
                  encoding="utf-8")
    again, counts = counted(tmp_path / "out")
    assert not again.files[0].kept
    assert 1 <= counts["made"] <= 3 and counts["recalled"] == first["made"] - counts["made"], counts
    fresh, afresh = counted(tmp_path / "fresh", reuse=False)
    assert afresh == {"made": first["made"], "recalled": 0}
    assert again.files[0].path.read_bytes() == fresh.files[0].path.read_bytes()
    assert "カードを1枚引く" in "".join(texts(again.files[0].path))


@pytest.mark.parametrize("spoil", ["truncated", "garbage", "another ppgen"])
def test_kept_layouts_of_another_ppgen_or_a_damaged_file_are_not_used(game_copy, tmp_path, monkeypatch, spoil):
    from ppgen.typeset.text import LAYOUTS
    from ppgen.write import cache as build_cache

    out = tmp_path / "out"
    first = run(game_copy, out, lang="ja")
    kept = out / build_cache.FOLDER / "layouts-ja-score-sheet.bin"
    data = kept.read_bytes()
    if spoil == "truncated":
        kept.write_bytes(data[: len(data) // 2])
    elif spoil == "garbage":
        kept.write_bytes(b"not a file of ppgen's")
    else:
        monkeypatch.setattr(build_cache, "code_digest", lambda: "another version")
    before = first.files[0].path.read_bytes()
    first.files[0].path.unlink()  # the record no longer holds: the language is drawn again
    LAYOUTS.clear()
    again = run(game_copy, out, lang="ja")
    assert LAYOUTS.counts["recalled"] == 0 and LAYOUTS.counts["made"] > 0
    assert again.files[0].path.read_bytes() == before


def test_fonts_parsed_once_per_machine_draw_the_same_bytes(tmp_path):
    """A font's parse is kept in the user's cache folder (typeset/fontcache.py): the next process
    rebuilds it from there (the entries are read, not written again) and draws the same bytes; a
    damaged entry is parsed again and replaced."""
    import os

    env = {**os.environ, "PPGEN_CACHE_DIR": str(tmp_path / "cache")}

    def build_into(out):
        result = run_ppgen("build", "--lang", "ja", "--parts", "score-sheet", "--out", out, "--no-cache", env=env)
        assert result.returncode == 0, result.stderr
        return (out / "ja" / "score-sheet-ja.pdf").read_bytes()

    first = build_into(tmp_path / "one")
    entries = sorted((tmp_path / "cache").glob("font-*.bin"))
    fonts = {f for chain in ppgen.load(ROOT).config.languages["ja"].fonts.values() for f in chain}
    assert len(entries) >= len(fonts)  # one per font file the build registers (its language's, and the titles')
    written = {e: e.stat().st_mtime_ns for e in entries}
    assert build_into(tmp_path / "two") == first
    assert {e: e.stat().st_mtime_ns for e in entries} == written  # read, not parsed and written again
    for entry in entries:
        entry.write_bytes(entry.read_bytes()[:100])
    assert build_into(tmp_path / "three") == first
    assert all(e.stat().st_size > 1000 for e in entries)  # parsed again and kept again


def test_yaml_files_parsed_once_per_machine_give_the_same_data_and_positions(tmp_path, monkeypatch):
    """A YAML text's parse is kept in the user's cache folder (read/yamlio.py): another process
    reads it back — the same data and the same file:line:col of every key and value — and an
    edited text, a damaged entry or another version of ppgen's code is parsed afresh."""
    import marshal

    from ppgen.read import cache, yamlio

    monkeypatch.setenv("PPGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(yamlio, "_PARSED", type(yamlio._PARSED)())  # as a new process: nothing in memory
    text = (ROOT / "locales" / "ja.yaml").read_text(encoding="utf-8")
    first = yamlio.parse_yaml(text, "locales/ja.yaml", plain_strings=True)
    (entry,) = (tmp_path / "cache").glob("yaml-*.bin")
    parses = []
    real = yamlio._parse_yaml
    monkeypatch.setattr(yamlio, "_parse_yaml", lambda *a: parses.append(a[1]) or real(*a))

    def parsed(text):
        yamlio._PARSED.clear()
        return yamlio.parse_yaml(text, "locales/ja.yaml", plain_strings=True)

    again = parsed(text)
    assert parses == [] and (again.data, again.value_marks, again.key_marks) == (first.data, first.value_marks, first.key_marks)
    assert again.mark(("card.legionary-cohort.name", "text")) == first.mark(("card.legionary-cohort.name", "text")) != (1, 1)
    edited = parsed(text.replace("ハスタティ", "ハスタティ改", 1))
    assert parses == ["locales/ja.yaml"] and "ハスタティ改" in marshal.dumps(edited.data).decode("utf-8", "ignore")
    entry.write_bytes(entry.read_bytes()[:40])  # damaged
    assert parsed(text).data == first.data and len(parses) == 2
    assert parsed(text).data == first.data and len(parses) == 2  # kept again, read back
    monkeypatch.setattr(cache, "code_digest", lambda: "another ppgen")
    assert parsed(text).data == first.data and len(parses) == 3


def test_a_command_whose_files_are_kept_parsed_never_loads_pyyaml(tmp_path):
    """PyYAML (0.02 s to import) is loaded to parse a text the cache folder does not hold; a
    command whose every file is kept parsed needs none of it, and the kept entries it finds are
    the ones a process that loaded PyYAML names (read/yamlio.py `_loader_name`)."""
    import subprocess
    import sys

    script = (f"import sys; sys.path.insert(0, {str(ROOT / 'src')!r}); import ppgen; from ppgen.read import yamlio; "
              f"p = ppgen.load({str(ROOT)!r}); p.locale('ja'); p.locale('ko'); name = yamlio._loader_name(); "
              "loaded = 'yaml' in sys.modules; from ppgen.read import yamlparse; "
              "print(loaded, name == yamlparse.loader_class().__name__)")
    env = {"PPGEN_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True).stdout.split()
            for _ in range(2)]
    assert runs == [["True", "True"], ["False", "True"]]  # the first run parses (and keeps); the second reads the kept parses
    pure = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                          env=dict(env, PPGEN_PURE_YAML="1")).stdout.split()
    assert pure == ["True", "True"]  # the pure-Python loader's parses are kept apart


def test_a_kept_font_has_every_table_of_a_fresh_parse(tmp_path, monkeypatch):
    """A font rebuilt from its kept parse holds what ReportLab's own parse holds, attribute by
    attribute — the tables kept for later (fontcache.LAZY: HarfBuzz shaping's) included, read
    back when first asked for."""
    import copy

    from reportlab.pdfbase.ttfonts import TTFont, TTFontFace

    from ppgen.typeset import fontcache

    monkeypatch.setenv("PPGEN_CACHE_DIR", str(tmp_path))
    path = ROOT / "fonts" / "NotoSansJP_700Bold.ttf"
    fresh = TTFont("Fresh", str(path))
    fontcache.parsed_font("Kept", path)  # parsed, and kept
    kept = fontcache.parsed_font("Kept", path)  # rebuilt from the cache folder
    assert isinstance(kept.face, TTFontFace) and type(kept.face) is not TTFontFace
    assert set(fontcache.LAZY) & set(vars(kept.face)) == set()  # not read yet
    twin = copy.copy(kept.face)
    for name in fontcache.LAZY:
        assert getattr(kept.face, name) == getattr(fresh.face, name) and len(getattr(fresh.face, name)) > 10000
        assert getattr(twin, name) == getattr(fresh.face, name)  # a copy made before reads it too
    same = {k: v for k, v in vars(fresh.face).items() if k != "_pdfScale"}
    assert {k: v for k, v in vars(kept.face).items() if k not in ("_pdfScale", "_lazy")} == same
    with pytest.raises(AttributeError):
        kept.face.no_such_table  # noqa: B018


def test_a_fonts_entry_from_another_ppgen_is_replaced_not_kept_beside(tmp_path, monkeypatch):
    """Every ppgen version (its code digest) parses a font again: its entry replaces the one the
    other version left, so the cache folder does not grow with every upgrade."""
    from ppgen.read import cache
    from ppgen.typeset import fontcache

    monkeypatch.setenv("PPGEN_CACHE_DIR", str(tmp_path))
    small = min((p for p in (ROOT / "fonts").rglob("*.ttf")), key=lambda p: p.stat().st_size)
    fontcache.parsed_font("Test-Small", small)
    (first,) = tmp_path.glob("font-*.bin")
    monkeypatch.setattr(cache, "code_digest", lambda: "another ppgen")
    fontcache.parsed_font("Test-Small", small)
    (second,) = tmp_path.glob("font-*.bin")
    assert second != first
    other = min((p for p in (ROOT / "fonts").rglob("*.ttf") if p != small), key=lambda p: p.stat().st_size)
    fontcache.parsed_font("Test-Other", other)
    assert len(list(tmp_path.glob("font-*.bin"))) == 2  # another font file's entry stays beside it


def test_a_cache_entry_is_private_replaces_what_stands_at_its_name_and_never_fails(tmp_path, monkeypatch):
    """The user's cache folder is ppgen's own (read/cache.py store), not an output: an entry is
    0o600, replaces a read-only entry or a link at its name (an output refuses the one and
    writes through the other), leaves no temporary file, and one that cannot be written is
    passed over in silence, the entry before it kept (it is made again next time)."""
    import errno
    import os
    import stat

    from ppgen.read import cache

    folder = tmp_path / "cache"
    monkeypatch.setenv("PPGEN_CACHE_DIR", str(folder))
    cache.store("kind-a.bin", b"first")
    entry = folder / "kind-a.bin"
    assert entry.read_bytes() == b"first" and stat.S_IMODE(entry.stat().st_mode) == 0o600
    entry.chmod(0o400)
    cache.store("kind-a.bin", b"second")
    assert entry.read_bytes() == b"second"
    theirs = tmp_path / "theirs.bin"
    theirs.write_bytes(b"theirs")
    (folder / "kind-b.bin").symlink_to(theirs)
    cache.store("kind-b.bin", b"mine")
    assert theirs.read_bytes() == b"theirs" and not (folder / "kind-b.bin").is_symlink()
    assert (folder / "kind-b.bin").read_bytes() == b"mine"

    def disk_full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "replace", disk_full)
    cache.store("kind-a.bin", b"third")  # no error
    assert entry.read_bytes() == b"second"
    assert sorted(p.name for p in folder.iterdir()) == ["kind-a.bin", "kind-b.bin"]  # no temporary file
