"""The `ppgen` command line: a thin click shell over the library API.

Each command lives in its own module and declares only its options; the work
is done by library functions. Heavy libraries (reportlab, pillow, pypdf) are
imported inside commands that need them, never at start-up, so `ppgen --help`
and `ppgen validate` stay fast.
"""
from __future__ import annotations

import sys

import click

from .. import __version__
from ..errors import DataError, PpgenError, UsageError
from .ui import UI, plural

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class PpgenGroup(click.Group):
    """Lists commands in the order they were added (the order a user meets them)."""

    def list_commands(self, ctx):
        return list(self.commands)


@click.group(cls=PpgenGroup, context_settings=CONTEXT)
@click.version_option(__version__, "-V", "--version", prog_name="ppgen")
@click.option("--root", type=click.Path(file_okay=False), envvar="PPGEN_ROOT", help="Game directory (default: found upward from the current folder).")
@click.option("-q", "--quiet", is_flag=True, help="Print only errors and the final summary.")
@click.option("--debug", is_flag=True, hidden=True, help="Show tracebacks of internal errors.")
@click.pass_context
def main_group(ctx, root, quiet, debug):
    """ppgen — print-and-play PDFs for Ancient Duel: cards, rulebook and mats, in four languages.

    \b
    Examples:
      ppgen build --lang ja              cards, rulebook and mats in Japanese, in out/ja/
      ppgen build --lang all --paper letter
      ppgen validate my-deck.txt         check a decklist before printing it
      ppgen cards --lang ko --faction rome
      ppgen i18n check --lang zh         what translators must fix, as file:line:col
      ppgen errata --since v1.0          reprint only the cards that changed since v1.0
    """
    ctx.obj = UI(root=root, quiet=quiet, debug=debug)


def main(argv=None) -> None:
    """Entry point: run the CLI; turn ppgen errors into messages and exit codes. The `ppgen`
    program (`argv` None) ends as soon as its work is done (`_leave`)."""
    try:
        _run(argv)
    except SystemExit as exc:
        if argv is None:
            _leave(exc.code)
        raise


def _run(argv) -> None:
    _register()
    previous = _terminate_like_ctrl_c()
    try:
        try:
            code = main_group.main(args=argv, prog_name="ppgen", standalone_mode=False)
        finally:
            _work_done(previous, program=argv is None)
    except (click.exceptions.Abort, KeyboardInterrupt):  # click turns Ctrl-C into Abort
        _interrupted(argv)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        _negative_number_explained(exc)
        exc.show()
        sys.exit(exc.exit_code)
    except DataError as exc:
        ui = UI()
        for problem in exc.problems:
            ui.problem(problem)
        n = len(exc.problems)
        ui.error(f"{plural(n, 'problem')} found; nothing was written")
        sys.exit(exc.exit_code)
    except PpgenError as exc:
        UI().error(str(exc))
        sys.exit(exc.exit_code)
    except BrokenPipeError:
        sys.exit(0)
    except Exception as exc:  # a bug in ppgen: say so, plainly
        if _from_ctrl_c(exc):
            _interrupted(argv)
        if "--debug" in (argv or sys.argv):
            raise
        UI().error(f"internal error: {type(exc).__name__}: {exc} (`{_with_debug(argv)}` shows the details; please report it)")
        sys.exit(3)
    sys.exit(code if isinstance(code, int) else 0)


def _interrupted(argv) -> None:
    """Ctrl-C or `kill`: exit 130, saying that nothing was left half-written."""
    from ..read.files import remove_unfinished

    remove_unfinished()  # a temporary file the signal caught as its write began (see there)
    click.echo("interrupted; no output was left half-written", err=True)
    if argv is None:  # the `ppgen` program: every `finally` has run (temporary files are gone),
        _exit_now(130)  # so leave without joining threads a signal may have left waiting
    sys.exit(130)


def _from_ctrl_c(exc: BaseException) -> bool:
    """Was `exc` raised by a Ctrl-C it wraps? Python 3.11 turns an exception inside a class's
    creation (`__set_name__`: a dataclass defined by a module imported as the signal came) into
    "RuntimeError: Error calling __set_name__", the KeyboardInterrupt its cause."""
    seen = 0
    while exc is not None and seen < 16:
        if isinstance(exc, KeyboardInterrupt):
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


def _with_debug(argv) -> str:
    """The command as it was run, with --debug where it is read: before the command's name
    (`ppgen build --debug` is refused: the option is ppgen's, not the command's)."""
    import shlex

    args = [a for a in (sys.argv[1:] if argv is None else list(argv)) if a != "--debug"]
    return shlex.join(["ppgen", "--debug", *args])


def _negative_number_explained(exc) -> None:
    """`--bleed -1`: an option whose value is optional (`--bleed` alone means 1/8 in) leaves "-1" to be
    read as an option of its own, and click says "No such option '-1'". Say what happened."""
    import re

    name = getattr(exc, "option_name", "") if isinstance(exc, click.NoSuchOption) else ""
    if re.fullmatch(r"-\d+(?:[.,]\d+)?", name or ""):
        exc.message = f"{name} is a negative number, and none of these options takes one (a size, an offset in mm: ≥ 0)"


def _terminate_like_ctrl_c():
    """SIGTERM (`kill`, a CI timeout) stops ppgen the way Ctrl-C does: temporary files are
    removed and nothing is left half-written (Python's default would end at once)."""
    import signal

    def stop(signum, frame):
        raise KeyboardInterrupt

    if hasattr(signal, "SIGTERM"):
        try:
            return signal.signal(signal.SIGTERM, stop)
        except ValueError:  # not the main thread (ppgen called from a thread): leave it as it is
            pass
    return None


def _work_done(previous, program: bool) -> None:
    """The command's work is done (its files written or removed): from here a signal to the
    `ppgen` program ends it at once, the system's way, instead of raising KeyboardInterrupt in
    the middle of the interpreter's exit (which printed "Exception ignored … Traceback").
    Called from Python (`main(argv)`), the caller's SIGTERM handler is put back."""
    import signal

    if previous is None:
        return
    try:
        signal.signal(signal.SIGTERM, signal.SIG_DFL if program else previous)
        if program:
            signal.signal(signal.SIGINT, signal.SIG_DFL)
    except ValueError:
        pass


def _leave(code) -> None:
    """End the `ppgen` program, its work done (every file written, every `finally` run), as the
    interpreter itself would — threads waited for and their exit hooks run (`threading._shutdown`:
    executors finish their queued work), then the exit handlers, then the output flushed — but
    without then freeing, one by one, every object the command made (the fonts' tables, the
    layouts, the drawn parts: 45–55 ms of a one-second build, nothing a file or a user sees).
    Returns (the caller raises SystemExit as usual) where that teardown may matter to someone:
    under a profiler or a tracer (`python -m cProfile -m ppgen`, a debugger, coverage), with
    `python -i`, or on a Python without `threading._shutdown`."""
    import atexit
    import threading

    shutdown = getattr(threading, "_shutdown", None)
    if shutdown is None or sys.getprofile() is not None or sys.gettrace() is not None or sys.flags.inspect:
        return
    if code is None:
        code = 0
    elif not isinstance(code, int):  # sys.exit("message"): printed, status 1, as Python does
        print(code, file=sys.stderr)
        code = 1
    try:
        shutdown()
    except Exception:  # a thread's exit hook that failed as the process ends (a worker pool broken by the
        pass  # error being reported: "OSError: Bad file descriptor" in its wake-up): nothing of the work; Python says no more
    atexit._run_exitfuncs()
    _exit_now(code)


def _exit_now(code: int) -> None:
    import os

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (BrokenPipeError, ValueError):  # a reader that went away (`| head`), a closed stream: nothing more to say
            pass
        except OSError as exc:  # the output could not be written (a full disk): say so, and fail, as Python does (120)
            try:
                sys.stderr.write(f"error: the output could not be written: {exc}\n")
                sys.stderr.flush()
            except (OSError, ValueError):
                pass
            code = code or 120
    os._exit(code)


_registered = False


def _register() -> None:
    global _registered
    if _registered:
        return
    _registered = True
    from . import commands  # noqa: F401  (registers the commands on main_group)

    for command in main_group.commands.values():
        _add_common_options(command)


def _set_quiet(ctx, _param, value):
    if value:
        ctx.find_object(UI).quiet = True


def _set_root(ctx, _param, value):
    if value:
        ctx.find_object(UI).root = value


def _add_common_options(command: click.Command) -> None:
    """`--quiet` and `--root` work after the command name too (`ppgen build --quiet`)."""
    command.params.append(click.Option(["-q", "--quiet"], is_flag=True, expose_value=False, callback=_set_quiet,
                                       help="Print only errors and the final summary."))
    command.params.append(click.Option(["--root"], type=click.Path(file_okay=False), expose_value=False,
                                       callback=_set_root, help="Game directory (default: found upward from the current folder)."))
    for sub in getattr(command, "commands", {}).values():
        _add_common_options(sub)


__all__ = ["main", "main_group", "UsageError"]
