"""`ppgen serve`: the workbench in the browser, live while the game's files are edited."""
from __future__ import annotations

import click

from . import main_group
from .ui import plural

RASTER_WORKERS = 2  # processes rasterising pictures while the server lays out the next ones


@main_group.command("serve")
@click.option("--lang", "-l", help="Languages to show, separated by commas, or 'all' (default: all).")
@click.option("--port", "-p", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to serve on; 0 picks a free one (the address is printed).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to serve on: 127.0.0.1 is this computer only; 0.0.0.0 lets anyone on your network see the game.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in your web browser.")
@click.option("--since", metavar="REF",
              help="Mark the cards that changed since REF — a git revision (HEAD~1, v1.0) or another game directory — "
                   "as `ppgen errata` compares them.")
@click.pass_obj
def serve_command(ui, lang, port, host, open_browser, since):
    """A local web page with every card as a picture, live while you edit.

    The gallery shows every card in every language, with filters (faction, kind,
    language, warnings, untranslated, stale, overflow, low-resolution art,
    changed since --since) and a search by name in any language or by code. A
    card's page shows it in every language side by side at print size (and
    zoomed), its data, each text's key with its locales/LANG.yaml:line and the
    English, its warnings and its art preflight. The rulebook, mats and score
    sheet are shown as pages; Problems lists what `ppgen i18n check`, the build's
    warnings and the data errors report, each linking to its card or page.

    Save cards.yaml, a locale, a template or a picture and the open pages update
    by themselves: only the faces that changed are drawn again. A file that
    cannot be read is shown with its file:line:col until it is fixed. The JSON
    API under /api/ serves scripts (see the README). Ctrl-C stops the server.

    \b
    Examples:
      ppgen serve                       every language, at http://127.0.0.1:8000/
      ppgen serve --lang ja --open      a translator's view, opened in the browser
      ppgen serve --lang en,ja --since v1.0   mark what changed since the tag v1.0
      ppgen serve --port 0              any free port (the address is printed)
      curl -s localhost:8000/api/problems | jq '.problems[] | .where + " " + .message'
    """
    import os
    import threading

    from ..read.gamedir import find_game_dir
    from ..serve import LiveServer, Workbench
    from ..serve.server import check_port

    gamedir = find_game_dir(ui.root)
    check_port(host, port)  # a port in use is said at once, not after the game is loaded
    bench = Workbench(gamedir, lang, since, workers=min(RASTER_WORKERS, os.cpu_count() or 1))
    bench.on_update = lambda update, changed: _tell(ui, gamedir, update, changed)
    try:
        server = LiveServer(bench, host, port, log=ui.info)
    except BaseException:  # taken meanwhile: the workers it forked end now, not in the interpreter's exit
        bench.stop()
        raise
    game = bench.session.project.config.game if bench.session.project else gamedir.root.name
    languages = ", ".join(bench.session.langs) or "?"
    try:  # a Ctrl-C from here on stops the server as it should, also one before the wait (a page may be open already)
        server.start()
        click.echo(server.url)
        ui.info(f"serving {game} ({languages}) at {server.url} — edits show live; Ctrl-C to stop")
        if host not in ("127.0.0.1", "localhost", "::1"):
            ui.warn(f"serving on {host}: anyone who can reach this computer can see the game")
        if bench.session.error is not None:
            _tell_problems(ui, bench.session.error)
        if open_browser:
            import webbrowser

            threading.Thread(target=webbrowser.open, args=(server.url,), daemon=True).start()
        _wait_for_ctrl_c()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    ui.summary(f"stopped serving {game}; port {server.port} is free")


WAKE_SECONDS = 0.25  # how often the main thread looks whether Ctrl-C (or `kill`) came


def _wait_for_ctrl_c() -> None:
    """Sleep until Ctrl-C or SIGTERM (KeyboardInterrupt), waking now and then. Python runs a
    signal's handler in the main thread when that thread next runs: a signal the system gave
    another thread (the server's, the watch's), or one that came just before the main thread
    went to sleep, was noticed only when it woke — and waiting without end it never woke, so
    `ppgen serve` ran on after Ctrl-C (about once in a hundred on a busy machine)."""
    import time

    while True:
        time.sleep(WAKE_SECONDS)


def _tell(ui, gamedir, update, changed) -> None:
    """One line on the terminal per edit: what was read again and what it changes."""
    files = ", ".join(sorted(gamedir.show(p) for p in changed)) or "?"
    if update.error is not None:
        _tell_problems(ui, update.error)
        return
    what = []
    if update.fronts:
        what.append(f"{plural(len(update.fronts), 'face')} to draw again")
    if update.removed:
        what.append(f"{plural(len(update.removed), 'face')} gone")
    if update.parts:
        languages = sorted({lang for _, lang in update.parts})
        what.append(f"the parts of {', '.join(languages)}")
    fixed = "fixed; " if update.recovered else ""
    ui.info(f"{files}: {fixed}{'; '.join(what) or 'nothing printed changed'} ({update.seconds * 1000:.0f} ms)")


def _tell_problems(ui, error) -> None:
    for problem in error.problems:
        ui.problem(problem)
    ui.warn(f"the game cannot be read ({plural(len(error.problems), 'problem')}); the page shows {'it' if len(error.problems) == 1 else 'them'} until fixed")
