"""How the `ppgen` program ends: cli._leave skips the interpreter's teardown once the work is
done, and must lose nothing on the way — exit handlers, buffered output, exit codes, a thread
another caller left running."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SRC = str(Path(__file__).resolve().parent.parent / "src")


TORN_DOWN = """
import sys
class Witness:
    def __del__(self):
        print("torn down", file=sys.stderr, flush=True)
witness = Witness()
"""


def program(body: str, *argv: str, tmp_path: Path) -> subprocess.CompletedProcess:
    """A Python process that runs `body`, then the `ppgen` program (`main()`, argv None) with
    `argv`; an object it holds says "torn down" when the interpreter's teardown frees it."""
    script = TORN_DOWN + textwrap.dedent(body) + textwrap.dedent(f"""
        import sys
        sys.argv = ["ppgen", *{list(argv)!r}]
        from ppgen.cli import main
        main()
        """)
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path, timeout=60,
                          env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})


def test_exit_handlers_run_and_piped_output_is_complete(tmp_path):
    done = program("""
        import atexit, sys
        atexit.register(lambda: print("exit handler ran", file=sys.stderr, flush=True))
        sys.stdout = open(sys.stdout.fileno(), "w", buffering=1 << 20, closefd=False)  # nothing written before the flush
        """, "--help", tmp_path=tmp_path)
    assert done.returncode == 0
    assert "Examples:" in done.stdout and "ppgen validate my-deck.txt" in done.stdout  # the buffer was flushed
    assert "exit handler ran" in done.stderr
    assert "torn down" not in done.stderr  # the process ended without freeing its objects one by one


@pytest.mark.parametrize("argv, code, says", [
    (("no-such-command",), 2, "No such command"),
    (("--root", "missing-dir", "cards"), 2, "game directory missing-dir does not exist"),
    (("--version",), 0, ""),  # click.exceptions.Exit
])
def test_exit_codes_are_the_commands(tmp_path, argv, code, says):
    done = program("", *argv, tmp_path=tmp_path)
    assert done.returncode == code, done.stderr
    assert says in done.stderr
    assert "Traceback" not in done.stderr


def test_a_message_to_sys_exit_is_printed_with_status_1(tmp_path):
    done = program("""
        import ppgen.cli
        def fails(argv):
            raise SystemExit("stopped: a message")
        ppgen.cli._run = fails
        """, tmp_path=tmp_path)
    assert done.returncode == 1
    assert done.stderr.strip() == "stopped: a message"


def test_a_running_thread_is_waited_for(tmp_path):
    """A caller's non-daemon thread still working when the command ends: the normal exit, which
    waits for it (its file is written), not the quick one."""
    done = program(f"""
        import threading, time
        def work():
            time.sleep(0.3)
            open({str(tmp_path / "written")!r}, "w").write("done")
        threading.Thread(target=work).start()
        """, "--help", tmp_path=tmp_path)
    assert done.returncode == 0
    assert (tmp_path / "written").read_text() == "done"
    assert "torn down" in done.stderr
