"""Running the `ppgen` command in tests, and the one assertion every bad-input test makes.

A clean error: the expected exit code, a message (with `file:line:col` when the
problem is in a file), and never a Python traceback or an "internal error".
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

TIMEOUT = 300  # seconds: a guard against a hang, never a speed assertion
ROOT = Path(__file__).resolve().parent.parent
GAME_FOLDERS = ("locales", "templates", "decks")


def copy_game(dest: Path, source: Path = ROOT, folders: tuple[str, ...] = GAME_FOLDERS) -> Path:
    """A writable copy of a game directory at `dest`: cards.yaml, ppgen.yaml and `folders` copied
    (those it has), the shipped fonts linked, not copied."""
    import shutil

    dest.mkdir(parents=True)
    for name in ("cards.yaml", "ppgen.yaml"):
        shutil.copy(source / name, dest / name)
    for folder in folders:
        if (source / folder).is_dir():
            shutil.copytree(source / folder, dest / folder)
    (dest / "fonts").symlink_to(ROOT / "fonts")
    return dest


def run_ppgen(*args, root: Path | str | None = None, cwd: Path | str | None = None, timeout: float = TIMEOUT,
              **popen) -> subprocess.CompletedProcess:
    """`python -m ppgen [--root ROOT] ARGS...` with output captured as text."""
    argv = [sys.executable, "-m", "ppgen"] + (["--root", str(root)] if root is not None else []) + [str(a) for a in args]
    return subprocess.run(argv, capture_output=True, text=True, cwd=cwd, timeout=timeout, **popen)


def call_ppgen(*args, root: Path | str | None = None, cwd: Path | str | None = None) -> subprocess.CompletedProcess:
    """`ppgen [--root ROOT] ARGS...` run in this process: `ppgen.cli.main(ARGS)`, what `python -m
    ppgen` calls, with the same parsing, messages and exit code, its output captured as a pipe
    would (UTF-8 text, not a terminal), without starting an interpreter and loading ppgen, its
    libraries and fonts again (0.2–0.5 s a command). For what a command says and writes; what
    only a process shows (signals, the environment, a terminal, the interpreter's exit) is
    `run_ppgen`'s, and test_cli_in_process.py checks the two agree."""
    import contextlib
    import io
    import traceback

    from ppgen.cli import main

    argv = (["--root", str(root)] if root is not None else []) + [str(a) for a in args]
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict", newline="\n")
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace", newline="\n")
    stdin = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")  # nothing to read, as from /dev/null
    code = 0
    here = os.getcwd()
    old_stdin = sys.stdin
    try:
        if cwd is not None:
            os.chdir(cwd)
        sys.stdin = stdin
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(argv)
            except SystemExit as exc:  # main always ends so
                code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
                if not isinstance(exc.code, (int, type(None))):
                    print(exc.code, file=sys.stderr)
            except BaseException:  # as the interpreter shows an uncaught exception, exit 1
                traceback.print_exc()
                code = 1
    finally:
        sys.stdin = old_stdin
        os.chdir(here)

    def text(stream) -> str:
        stream.flush()
        return stream.buffer.getvalue().decode("utf-8", errors="replace")

    return subprocess.CompletedProcess(["ppgen", *argv], code, text(out), text(err))


def start_ppgen(*args, root: Path | str | None = None, **popen) -> subprocess.Popen:
    """`ppgen ARGS...` started in its own process group (so a test can signal it and its workers)."""
    argv = [sys.executable, "-m", "ppgen"] + (["--root", str(root)] if root is not None else []) + [str(a) for a in args]
    with ctrl_c_reaches_children():
        return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, **popen)


@contextmanager
def ctrl_c_reaches_children():
    """Children started in this block get SIGINT as a terminal's foreground program does, also
    when this test run ignores it: a script's `pytest &` runs as a background job, which the
    shell makes ignore SIGINT, and a child inherits an ignored signal (Python then installs no
    KeyboardInterrupt handler, and Ctrl-C tests would see a ppgen Ctrl-C cannot stop)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) != signal.SIG_IGN:
        yield
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)  # a handler, not ignored: reset to the default in a child
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def assert_no_crash(result: subprocess.CompletedProcess) -> None:
    out = result.stdout + result.stderr
    assert "Traceback" not in out, out
    assert "internal error" not in out, out


def assert_clean_error(result: subprocess.CompletedProcess, *needles: str, code: int = 2,
                       where: str | None = None) -> str:
    """The command failed with exit `code`, said each needle, and named `where` (a regex such
    as r"templates/card\\.yaml:\\d+:\\d+"); returns what it printed. (Errors go to stderr;
    `validate` prints its report, problems included, on stdout.)"""
    assert_no_crash(result)
    out = result.stderr + result.stdout
    assert result.returncode == code, (result.returncode, out)
    for needle in needles:
        assert needle in out, (needle, out)
    if where is not None:
        assert re.search(where, out), (where, out)
    return out


def located(file: str) -> str:
    """A regex for `file:LINE:COL` (the file as ppgen shows it, relative to the game directory)."""
    return re.escape(file) + r":\d+:\d+"


@dataclass(frozen=True)
class Break:
    """A file broken the way a person would break it, and the problem ppgen must report:
    `old` replaced by `new` (its first occurrence after `after`); the problem `[code] message`
    on the line where `needle` starts (its first after `needle_after`, by default `after`, in
    the broken file), at the column where `at` starts on that line."""

    after: str
    old: str
    new: str
    code: str
    message: str
    needle: str
    at: str
    needle_after: str | None = None

    def apply(self, path: Path, shown: str) -> str:
        """Break the file at `path`; return the problem as ppgen prints it, the file `shown` so."""
        text = path.read_text(encoding="utf-8")
        start = text.index(self.old, text.index(self.after))
        broken = text[:start] + self.new + text[start + len(self.old):]
        path.write_text(broken, encoding="utf-8")
        line, col = self.position(broken)
        return f"{shown}:{line}:{col}: error[{self.code}] {self.message}"

    def position(self, broken: str) -> tuple[int, int]:
        """(line, col) of the problem in the broken text."""
        after = self.after if self.needle_after is None else self.needle_after
        start = broken.index(self.needle, broken.index(after))
        line_start = broken.rfind("\n", 0, start) + 1
        line_end = broken.find("\n", start)
        return broken.count("\n", 0, start) + 1, broken[line_start:line_end if line_end >= 0 else None].index(self.at) + 1


def leftovers(folder: Path) -> list[Path]:
    """Temporary files an interrupted write would leave behind (files.atomic_output names them `.NAME.*.part`),
    in the output folder and in its build records' folder (.ppgen-cache/)."""
    return sorted(p for p in Path(folder).rglob("*") if p.is_file() and (p.name.endswith(".part") or p.name.startswith(".")))


def pdf_files(folder: Path) -> list[Path]:
    return sorted(Path(folder).rglob("*.pdf"))


def process_group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - a process we cannot signal is still alive
        return True
    return True
