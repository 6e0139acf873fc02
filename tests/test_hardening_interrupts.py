"""Interrupted builds, failing writes and concurrent builds never leave a half-written file.

Every file ppgen writes goes through files.atomic_output (a temporary `.NAME.*.part`
beside the target, renamed over it when complete), and languages drawn in worker
processes are written by the parent only; these tests check what that promises.
"""
from __future__ import annotations

import errno
import os
import signal
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

import ppgen
from clitools import assert_no_crash, leftovers, pdf_files, process_group_alive, run_ppgen, start_ppgen
from ppgen.errors import UsageError
from ppgen.write.build import BuildOptions, build

LAYOUT_LINE = "cards per"  # printed just before the drawing starts ("9 poker (63 × 88 mm) cards per A4 page ...")


def read_pdf(path: Path) -> int:
    """The page count of a complete PDF (pypdf in strict mode refuses a truncated one)."""
    import pypdf

    data = path.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF"), path
    return len(pypdf.PdfReader(path, strict=True).pages)


@pytest.fixture(scope="module")
def small_pdf(tmp_path_factory, project):
    """A complete PDF standing in for a previous build's files."""
    out = tmp_path_factory.mktemp("small")
    build(project, BuildOptions.resolve(project, lang="en", out=out, parts="score-sheet", jobs=1))
    return (out / "en" / "score-sheet-en.pdf").read_bytes()


SET_NAMES = ("ancient-duel-{}.pdf", "rulebook-{}.pdf", "mats-{}.pdf", "score-sheet-{}.pdf", "cards-{}.pdf")


def previous_build(out: Path, data: bytes, names=SET_NAMES) -> dict[Path, bytes]:
    """Put a complete PDF under every name a build of every language writes."""
    files = {}
    for lang in ("en", "ja", "ko", "zh"):
        for name in names:
            path = out / lang / name.format(lang)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            files[path] = data
    return files


def wait_for(proc, needle: str, timeout: float = 120) -> str:
    """Read the process's stderr until a line contains `needle`."""
    seen = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        line = proc.stderr.readline()
        if not line:
            break
        seen.append(line)
        if needle in line:
            return "".join(seen)
    raise AssertionError(f"never printed {needle!r}: {''.join(seen)}")


@contextmanager
def group_killed_if_left(proc):
    """The process's whole group killed if the test leaves the block while it runs (a failure)."""
    try:
        yield
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def group_ended(pgid: int, seconds: float = 30) -> bool:
    """Whether every process of group `pgid` (ppgen and its workers) is gone within `seconds`."""
    deadline = time.monotonic() + seconds
    while process_group_alive(pgid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not process_group_alive(pgid)


# ── SIGINT ─────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_after_the_work_is_done_ends_ppgen_without_a_traceback(signum):
    """`kill` (or Ctrl-C) arriving as ppgen exits — its summary printed, the interpreter shutting
    down — ends it the system's way (killed by the signal), not with "Exception ignored …
    Traceback … KeyboardInterrupt" from ppgen's own handler. The signal is sent from an exit
    handler, so it always lands at that moment."""
    import subprocess
    import sys

    code = ("import atexit, os, sys; from ppgen.cli import main; "
            f"atexit.register(lambda: os.kill(os.getpid(), {int(signum)})); sys.argv = ['ppgen', '--version']; main()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "ppgen" in done.stdout  # the command ran to its end
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr, done.stderr
    assert done.returncode == -signum, (done.returncode, done.stderr)


def replaced(path: Path, inode: int) -> bool:
    """`path` is no longer the file `inode` (a build renamed a new one over it)."""
    try:
        return path.stat().st_ino != inode
    except OSError:
        return False


# When the signal comes: (what the build is doing, the language whose assembled set must have been
# written first, seconds to wait after that). The set is the first file of a language written.
MOMENTS = [
    ("before the drawing", None, 0.0),
    ("in the drawing, nothing written yet", None, 0.3),
    ("writing the first language's files", "en", 0.0),
    ("near the end: three languages written, the fourth still to come", "ko", 0.0),
]
# Parts of every language drawn in worker processes and assembled, four files a language: the
# mats, the score sheet and the card sheets of one faction's starter deck, and their set (the
# whole set's card sheets and the rulebook would only make each language take longer).
BUILD = ("build", "--lang", "all", "--faction", "rome", "--parts", "mats,score-sheet,cards", "--jobs", "2")
BUILT = ("ancient-duel-{}-rome.pdf", "mats-{}.pdf", "score-sheet-{}.pdf", "cards-{}-rome.pdf")


@pytest.mark.parametrize("target", ["group", "parent", "terminate"])
def test_ctrl_c_during_a_build_leaves_only_complete_pdfs(tmp_path, small_pdf, target):
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it; or to ppgen alone;
    or SIGTERM, as `kill` sends it) at
    several moments of a four-language build in worker processes: exit 130, "interrupted", every
    PDF in out/ complete (the previous one or one written before the signal: nothing is written
    after it), no temporary file, no worker process left. The moments are events of the build
    (files it has written), not delays, so a faster machine meets them too."""
    interrupted = 0
    for n, (moment, after, delay) in enumerate(MOMENTS):
        out = tmp_path / f"out-{n}"
        before = previous_build(out, small_pdf, BUILT)
        watched = out / after / BUILT[0].format(after) if after else None
        inode = watched.stat().st_ino if watched else 0
        proc = start_ppgen(*BUILD, "--out", out)
        with group_killed_if_left(proc):
            head = wait_for(proc, LAYOUT_LINE)
            deadline = time.monotonic() + 120
            while watched and not replaced(watched, inode) and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.005)
            time.sleep(delay)
            signalled = time.time()
            if proc.poll() is None:
                if target == "group":
                    os.killpg(proc.pid, signal.SIGINT)
                elif target == "parent":
                    proc.send_signal(signal.SIGINT)
                else:  # `kill PID`, a CI timeout: the same as Ctrl-C
                    proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=120)
        err = head + err
        assert "Traceback" not in err and "internal error" not in err, (moment, err)
        if proc.returncode == 0 or "ok: wrote" in err:
            # this machine finished the build before the signal came (a signal after the summary
            # may end the exiting interpreter with -15): every file was complete; nothing to check
            assert all(read_pdf(pdf) > 0 for pdf in pdf_files(out)) and leftovers(out) == []
            continue
        assert proc.returncode == 130, (moment, err)
        assert "interrupted" in err
        interrupted += 1
        assert group_ended(proc.pid), "a worker process outlived the interrupted build"
        assert leftovers(out) == []
        pdfs = pdf_files(out)
        assert set(before) <= set(pdfs)
        for pdf in pdfs:
            assert read_pdf(pdf) > 0
            if pdf.read_bytes() != small_pdf:  # new: then written before the signal, never after
                assert pdf.stat().st_mtime <= signalled, f"{pdf.name} was written after the interrupt"
    assert interrupted >= 3, "the builds finished before the signal: no interruption was tested"


def test_ctrl_c_while_a_class_is_made_is_an_interruption_not_an_internal_error(tmp_path, monkeypatch):
    """Ctrl-C as a module being imported makes a dataclass (a signal to ppgen alone "before the
    drawing", on a busy machine): Python 3.11 reports the KeyboardInterrupt raised inside the
    class's making as "RuntimeError: Error calling __set_name__", and ppgen said "internal error
    … please report it", exit 3. It is an interruption: exit 130, nothing written."""
    from clitools import call_ppgen
    from ppgen.write import build as build_module

    class Signalled:
        def __set_name__(self, owner, name):
            raise KeyboardInterrupt

    def build_interrupted(*args, **kwargs):
        try:
            type("ArtRow", (), {"problems": Signalled()})  # as a dataclass's Field is named when its class is made
        except KeyboardInterrupt:  # Python 3.12 and later raise it as it is: wrapped, as 3.11 does
            raise RuntimeError("Error calling __set_name__ on 'Signalled' instance 'problems' in 'ArtRow'") from KeyboardInterrupt()

    monkeypatch.setattr(build_module, "build", build_interrupted)
    out = tmp_path / "out"
    result = call_ppgen("build", "--lang", "en", "--parts", "score-sheet", "--out", out)
    assert result.returncode == 130, result.stderr
    assert "interrupted; no output was left half-written" in result.stderr
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr, result.stderr
    assert pdf_files(out) == [] and leftovers(out) == []


def test_ctrl_c_while_a_print_shops_decks_are_drawn_in_workers(tmp_path):
    """`build --for` draws the decks in worker processes (write/workers.py, as a build's parts):
    Ctrl-C once the first deck is written ends it with "interrupted", exit 130, no worker left,
    no temporary file, and every PDF written complete (the workers never write one)."""
    out = tmp_path / "out"
    proc = start_ppgen("build", "--for", "drivethrucards", "--lang", "all", "--jobs", "2", "--out", out)
    with group_killed_if_left(proc):
        head = wait_for(proc, "DriveThruCards")  # the order described: drawing starts
        deadline = time.monotonic() + 120
        while not list(out.rglob("*.pdf")) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        assert proc.poll() is None, "the order finished before the signal: nothing was interrupted"
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    err = head + err
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err, err
    assert group_ended(proc.pid), "a worker process outlived the interrupted order"
    assert leftovers(out) == []
    pdfs = pdf_files(out)
    assert 1 <= len(pdfs) < 28, pdfs  # some written, not all seven decks of the four languages
    assert all(read_pdf(pdf) > 0 for pdf in pdfs)


def test_ctrl_c_while_writing_leaves_the_previous_file(tmp_path, project, small_pdf, monkeypatch):
    """KeyboardInterrupt inside the write itself (after the data went into the temporary file)."""
    out = tmp_path / "out"
    target = out / "en" / "score-sheet-en.pdf"
    target.parent.mkdir(parents=True)
    target.write_bytes(b"%PDF-1.4 previous")

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build(project, BuildOptions.resolve(project, lang="en", out=out, parts="score-sheet", jobs=1))
    assert target.read_bytes() == b"%PDF-1.4 previous"
    assert leftovers(out) == []


def test_ctrl_c_as_the_temporary_file_is_created_leaves_nothing(tmp_path, monkeypatch):
    """A signal handled the moment the temporary file exists (right after its open(), before
    the write has a name for it) left it behind: the four-language Ctrl-C test caught
    `.mats-ko.pdf.….part` in out/."""
    from ppgen.write.atomic import write_atomic

    target = tmp_path / "out" / "en" / "score-sheet-en.pdf"
    target.parent.mkdir(parents=True)
    target.write_bytes(b"%PDF-1.4 previous")
    real = os.open

    def open_then_interrupted(path, *args, **kwargs):
        fd = real(path, *args, **kwargs)
        if str(path).endswith(".part"):
            os.close(fd)
            raise KeyboardInterrupt  # as Python's SIGINT handler raises it after the system call
        return fd

    monkeypatch.setattr(os, "open", open_then_interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, b"%PDF-1.4 new")
    assert target.read_bytes() == b"%PDF-1.4 previous"
    assert leftovers(tmp_path / "out") == []


def test_ctrl_c_as_the_write_begins_leaves_nothing(tmp_path):
    """A signal handled the instant atomic_output has opened its temporary file and handed it
    over, before the `with` block that writes it began (contextlib's __enter__ returning): no
    `finally` of the write runs, only its generator's finalisation would remove the file, and the
    interrupted `ppgen` program leaves at once. The four-language Ctrl-C test caught
    `.mats-en.pdf.….part` in out/. Exit 130, and no temporary file left."""
    import subprocess
    import sys

    from clitools import ROOT

    out = tmp_path / "out"
    script = ("import contextlib\nreal = contextlib._GeneratorContextManager.__enter__\n"
              "def enter(self):\n    value = real(self)\n"
              "    if self.gen.__name__ == 'atomic_output':\n        raise KeyboardInterrupt\n    return value\n"
              "contextlib._GeneratorContextManager.__enter__ = enter\n"
              f"import sys; sys.argv = ['ppgen', '--root', {str(ROOT)!r}, 'build', '--lang', 'en', '--parts', 'score-sheet', "
              f"'--out', {str(out)!r}, '--no-cache', '--jobs', '1']\n"
              "from ppgen.cli import main\nmain()\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 130, proc.stderr
    assert "interrupted" in proc.stderr and "Traceback" not in proc.stderr
    assert leftovers(out) == [] and pdf_files(out) == []


# ── failing writes ─────────────────────────────────────────────────────────
def disk_full(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_failing_write_keeps_the_previous_pdf(tmp_path, project, small_pdf, monkeypatch):
    out = tmp_path / "out"
    previous = previous_build(out, small_pdf)
    monkeypatch.setattr(os, "replace", disk_full)
    with pytest.raises(UsageError) as exc:
        build(project, BuildOptions.resolve(project, lang="en", out=out, parts="rulebook,score-sheet", jobs=1))
    assert "No space left on device" in str(exc.value) and "ancient-duel-en-rulebook-score-sheet.pdf" in str(exc.value)  # (the set of those parts)
    for path, data in previous.items():
        assert path.read_bytes() == data
    assert leftovers(out) == []


def test_a_failing_write_in_a_parallel_build_keeps_the_previous_pdfs(tmp_path, project, small_pdf, monkeypatch):
    """Languages drawn in worker processes are written by this process: the same guarantee."""
    out = tmp_path / "out"
    previous = previous_build(out, small_pdf)
    monkeypatch.setattr(os, "replace", disk_full)
    with pytest.raises(UsageError):
        build(project, BuildOptions.resolve(project, lang="en,ja", out=out, parts="score-sheet", jobs=2))
    for path, data in previous.items():
        assert path.read_bytes() == data
    assert leftovers(out) == []


def test_a_folder_in_place_of_the_pdf_is_a_clear_error(tmp_path, game_copy):
    out = tmp_path / "out"
    (out / "en" / "score-sheet-en.pdf").mkdir(parents=True)
    result = run_ppgen("build", "--lang", "en", "--parts", "score-sheet", "--out", out, root=game_copy)
    assert_no_crash(result)
    assert result.returncode == 2 and "a folder of that name is in the way" in result.stderr, result.stderr
    assert leftovers(out) == []


def make_writes_fail(monkeypatch, failure: str) -> type:
    """Make the next atomic write fail: "disk full" when the file is renamed into place, or
    "interrupt" (Ctrl-C) while it is flushed. Returns the exception the command should raise."""
    if failure == "disk full":
        monkeypatch.setattr(os, "replace", disk_full)
        return UsageError
    monkeypatch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(KeyboardInterrupt()))
    return KeyboardInterrupt


@pytest.mark.parametrize("failure", ["disk full", "interrupt"])
def test_a_failing_sync_write_leaves_the_locale_untouched(game_copy, monkeypatch, failure):
    from ppgen.i18n.sync import sync_language

    en = game_copy / "locales" / "en.yaml"
    en.write_text(en.read_text(encoding="utf-8").replace("faction.rome: Rome\n", "faction.rome: Roma\n"), encoding="utf-8")
    ja = game_copy / "locales" / "ja.yaml"
    before = ja.read_bytes()
    project = ppgen.load(game_copy)
    expected = make_writes_fail(monkeypatch, failure)
    with pytest.raises(expected):
        sync_language(project, "ja")
    assert ja.read_bytes() == before
    assert leftovers(ja.parent) == []


@pytest.mark.parametrize("failure", ["disk full", "interrupt"])
def test_a_failing_import_write_leaves_the_locale_untouched(game_copy, tmp_path, monkeypatch, failure):
    from ppgen.i18n.po import export_po, import_po

    project = ppgen.load(game_copy)
    text, _ = export_po(project, "ko")
    po = tmp_path / "ko.po"
    po.write_text(text.replace('msgstr "로마"', 'msgstr "로마 제국"', 1), encoding="utf-8")
    ko = game_copy / "locales" / "ko.yaml"
    before = ko.read_bytes()
    expected = make_writes_fail(monkeypatch, failure)
    with pytest.raises(expected):
        import_po(project, po, "ko")
    assert ko.read_bytes() == before
    assert leftovers(ko.parent) == []
    monkeypatch.undo()
    assert import_po(project, po, "ko").updated == ["faction.rome"]  # the same import, once the disk has room


# ── two builds at once ─────────────────────────────────────────────────────
def test_two_builds_into_the_same_folder_do_not_corrupt_each_other(tmp_path, game_copy):
    """Two builds (A4 and Letter: different bytes under the same names) into one out/ at once:
    both succeed, and every file is, byte for byte, the one build's or the other's. (The
    rulebook, mats and score sheet, and the set of them: four files written by both; the card
    sheets would only make each build longer.)"""
    parts = "rulebook,mats,score-sheet"
    reference = {}
    project = ppgen.load(game_copy)
    for paper in ("a4", "letter"):  # what each build writes when it is alone (drawn here, in this process)
        ref = tmp_path / f"ref-{paper}"
        build(project, BuildOptions.resolve(project, lang="en", paper=paper, parts=parts, out=ref, jobs=1))
        reference[paper] = {p.relative_to(ref): p.read_bytes() for p in pdf_files(ref)}
    assert reference["a4"].keys() == reference["letter"].keys() and len(reference["a4"]) == 4
    assert all(reference["a4"][rel] != reference["letter"][rel] for rel in reference["a4"])
    shared = tmp_path / "shared"
    for attempt in range(2):
        procs = [start_ppgen("build", "--lang", "en", "--jobs", "1", "--paper", paper, "--parts", parts, "--out", shared, root=game_copy)
                 for paper in reference]
        for proc in procs:
            _, err = proc.communicate(timeout=300)
            assert proc.returncode == 0, err
            assert "Traceback" not in err
        assert leftovers(shared) == []
        got = {p.relative_to(shared): p.read_bytes() for p in pdf_files(shared)}
        assert got.keys() == reference["a4"].keys()
        for rel, data in got.items():
            assert data in (reference["a4"][rel], reference["letter"][rel]), rel
            read_pdf(shared / rel)


@pytest.mark.parametrize("name", ["SIGTERM", "SIGINT"])
def test_a_signal_that_comes_as_the_workers_are_forked_still_interrupts(tmp_path, name):
    """A `kill` or a Ctrl-C that arrives while a worker is being forked (here sent from the fork's
    own hook, the worst moment): handled there, its KeyboardInterrupt was printed as "Exception
    ignored" and dropped, and the build went on to the end. It now waits for the forks and
    interrupts the build: exit 130, nothing written, no worker left."""
    import subprocess
    import sys

    from clitools import ROOT

    out = tmp_path / "out"
    script = (f"import os, signal, sys; sent = []\n"
              f"def before():\n    if not sent:\n        sent.append(1); os.kill(os.getpid(), signal.{name})\n"
              f"os.register_at_fork(before=before)\n"
              f"sys.argv = ['ppgen', '--root', {str(ROOT)!r}, 'build', '--lang', 'en', '--parts', 'score-sheet,mats', "
              f"'--out', {str(out)!r}, '--no-cache', '--jobs', '2']\n"
              "from ppgen.cli import main\nmain()\n")
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    with group_killed_if_left(proc):
        _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err and "Exception ignored" not in err
    assert pdf_files(out) == [] and leftovers(out) == []
    assert group_ended(proc.pid, 10)  # no worker left


def test_a_rewritten_file_keeps_its_permissions_and_its_link(tmp_path):
    """Rewriting a file (a translator's locale after `i18n sync`, a PDF built again) kept neither
    its permissions (every file came back 644) nor a symbolic link (replaced by a plain file, and
    the file it pointed to never got the change). Now: the permissions stay, a link is written
    through, a new file is 644, and a file nobody may write is refused and left as it was."""
    import stat

    from ppgen.write.atomic import write_atomic

    private = tmp_path / "ko.yaml"
    private.write_text("old\n", encoding="utf-8")
    private.chmod(0o600)
    write_atomic(private, "new\n")
    assert private.read_text(encoding="utf-8") == "new\n" and stat.S_IMODE(private.stat().st_mode) == 0o600

    real = tmp_path / "shared" / "ja.yaml"
    real.parent.mkdir()
    real.write_text("old\n", encoding="utf-8")
    link = tmp_path / "ja.yaml"
    link.symlink_to(real)
    write_atomic(link, "new\n")
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "new\n"

    fresh = tmp_path / "new.pdf"
    write_atomic(fresh, b"%PDF")
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o644

    pipe = tmp_path / "pipe"  # a device or a pipe (-o /dev/null, /dev/stdout): refused, never replaced by a file
    os.mkfifo(pipe)
    with pytest.raises(UsageError, match="not a plain file"):
        write_atomic(pipe, "new\n")
    assert stat.S_ISFIFO(pipe.lstat().st_mode)
    pipe.unlink()

    locked = tmp_path / "zh.yaml"
    locked.write_text("old\n", encoding="utf-8")
    locked.chmod(0o444)
    with pytest.raises(UsageError, match="read-only"):
        write_atomic(locked, "new\n")
    assert locked.read_text(encoding="utf-8") == "old\n" and leftovers(tmp_path) == []


def test_a_file_that_cannot_be_written_stops_the_build_before_any_is(game_copy):
    """One of a language's files read-only: the build stops before it draws anything, and every
    file is as it was — it was refused after the drawing, when the set and the parts before it had
    been replaced already (the set with the new text beside the old card sheet)."""
    import os

    from clitools import call_ppgen

    args = ("build", "--lang", "en", "--parts", "mats,score-sheet", "--no-cache")
    assert call_ppgen(*args, cwd=game_copy).returncode == 0
    folder = game_copy / "out" / "en"
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir()}
    assert set(before) == {"ancient-duel-en-mats-score-sheet.pdf", "mats-en.pdf", "score-sheet-en.pdf"}
    (folder / "score-sheet-en.pdf").chmod(0o444)
    en = game_copy / "locales" / "en.yaml"
    text = en.read_text(encoding="utf-8")
    assert "\nmat.title: Player mat\n" in text
    en.write_text(text.replace("\nmat.title: Player mat\n", "\nmat.title: Player board\n", 1), encoding="utf-8")
    result = call_ppgen(*args, cwd=game_copy)
    assert result.returncode == 2
    assert "cannot write" in result.stderr and "score-sheet-en.pdf: it is read-only" in result.stderr, result.stderr
    assert {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir()} == before
    os.chmod(folder / "score-sheet-en.pdf", 0o644)
