"""`ppgen serve`: the workbench in the browser — every card as a picture, each card's page,
the other parts as pages, every problem, live while the game's files are edited.

    from ppgen.serve import LiveServer, Workbench
    bench = Workbench(gamedir, langs="en,ja")       # the session (write/session.py) and what the pages show
    with LiveServer(bench, "127.0.0.1", 0) as server:
        print(server.url)                            # the page; the JSON API under /api/

    workbench.py  what the pages show, and the painter that keeps it drawn
    server.py     the web server: routes, the JSON API, pictures, the event stream, a clean stop
    events.py     the events the open pages hear
    watch.py      watching the game directory (watchfiles)
    static/       the page: index.html, app.js, app.css
"""
from .server import LiveServer
from .workbench import Workbench

__all__ = ["LiveServer", "Workbench"]
