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


def test_a_thread_exit_hook_that_fails_as_the_program_ends_changes_nothing(tmp_path):
    """A thread's exit hook failing in `threading._shutdown` (a process pool broken by the error the
    command reports: its wake-up writes to a closed pipe) printed three chained tracebacks after the
    command's own message and turned its exit code 2 into 1, now and then."""
    done = program("""
        import threading
        real = threading._shutdown
        def failing():
            real()
            raise OSError(9, "Bad file descriptor")
        threading._shutdown = failing
        """, "--root", "missing-dir", "cards", tmp_path=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "game directory missing-dir does not exist" in done.stderr
    assert "Traceback" not in done.stderr and "Bad file descriptor" not in done.stderr


@pytest.mark.parametrize("argv, code, says", [
    (("no-such-command",), 2, "No such command"),
    (("--root", "missing-dir", "cards"), 2, "game directory missing-dir does not exist"),
    (("--version",), 0, ""),  # click.exceptions.Exit
    # an option whose value may be left out (--bleed alone is 1/8 in) leaves "-1" to click as an option
    (("export", "png", "--bleed", "-1"), 2, "-1 is a negative number, and none of these options takes one"),
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
    """A caller's non-daemon thread still working when the command ends is waited for, as by
    the interpreter's own exit: its file is written."""
    done = program(f"""
        import threading, time
        def work():
            time.sleep(0.3)
            open({str(tmp_path / "written")!r}, "w").write("done")
        threading.Thread(target=work).start()
        """, "--help", tmp_path=tmp_path)
    assert done.returncode == 0
    assert (tmp_path / "written").read_text() == "done"


def test_executors_left_open_finish_their_work_and_let_the_program_end(tmp_path):
    """Executors nobody shut down: their queued work is done (threading's exit hooks run, as at
    the interpreter's exit) and a process pool started from a daemon thread does not keep the
    program waiting for ever."""
    done = program(f"""
        import concurrent.futures, multiprocessing, threading, time
        def late(path):
            time.sleep(0.3)
            open(path, "w").write("done")
        kept = []
        def start():  # from a daemon thread: the executors' own threads are daemon threads too
            threads = concurrent.futures.ThreadPoolExecutor(1)
            threads.submit(late, {str(tmp_path / "queued")!r})
            pool = concurrent.futures.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"))
            pool.submit(abs, -1).result()
            kept.extend([threads, pool])
        starter = threading.Thread(target=start, daemon=True)
        starter.start()
        starter.join()
        """, "--help", tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "queued").read_text() == "done"


def test_a_profiler_around_the_program_still_writes_its_profile(tmp_path):
    """`python -m cProfile -o FILE -m ppgen …`: the profiler writes its file at the end, so the
    program ends the interpreter's usual way when something profiles or traces it."""
    profile = tmp_path / "ppgen.prof"
    done = subprocess.run([sys.executable, "-m", "cProfile", "-o", str(profile), "-m", "ppgen", "--version"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60, env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0 and "ppgen" in done.stdout
    import pstats

    assert pstats.Stats(str(profile)).total_calls > 1000


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_output_that_cannot_be_written_at_the_end_is_an_error(tmp_path):
    """Output still buffered at the end that the system refuses (a full disk): said, status 120,
    as Python's own exit says it — never a silent success; a command's own failure keeps its status."""
    for status, expected in ((0, 120), (2, 2)):
        script = ("import sys; sys.stdout = open('/dev/full', 'w', buffering=1 << 20); print('a table'); "
                  f"from ppgen.cli import _exit_now; _exit_now({status})")
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                              env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"})
        assert done.returncode == expected
        assert "the output could not be written" in done.stderr and "Traceback" not in done.stderr
