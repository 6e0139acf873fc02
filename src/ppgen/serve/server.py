"""The web server of `ppgen serve`: its pages, the JSON API, the pictures, the event stream.

    server = LiveServer(workbench, "127.0.0.1", 8000)   # UsageError when the port is taken
    server.start()                                       # the painter, the watcher, the server's thread
    server.url                                           # http://127.0.0.1:8000/
    server.stop()                                        # streams ended, connections closed, port freed

The server is the standard library's ThreadingHTTPServer, a thread per connection. That is
enough here, and no framework is: the server has one user on one machine with a few tabs, its
work is drawing (ReportLab and PDFium, one at a time under the session's lock, whatever the
server), and its long-lived responses are a handful of event streams (a thread each, at most
MAX_CONNECTIONS connections in all). What a framework would add, this module does in a few
lines each: an idle timeout (a silent connection is closed), a cap on connections (503
beyond), Host checking (a page elsewhere that points a DNS name at 127.0.0.1 is refused), a
strict path check (`..`, `.`, backslashes and NUL refused, encoded or not, before any route is
looked at), only GET and HEAD, and a clean stop that ends every stream and closes every
connection. http.server parses requests and refuses malformed ones (400) itself.

Served: the page (/, /static/app.js, /static/app.css), /api/…, the pictures drawn by the
session (/pictures/…) and the card pictures the art preflight found (/art/LANG/CARD). Nothing
else of the disk can be reached: no route maps a path to a file.
"""
from __future__ import annotations

import errno
import json
import re
import socket
import threading
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

from .. import __version__
from ..errors import DataError, UsageError
from ..write.raster import PICTURE_TYPES

MAX_CONNECTIONS = 128  # open connections at once (tabs × 6, event streams included)
IDLE_SECONDS = 30  # a connection that sends nothing (or reads nothing) for this long is closed
HEARTBEAT_SECONDS = 15  # an event stream says something this often, so a closed tab is noticed
STATIC = {"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8"}
ART_TYPES = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp", "TIFF": "image/tiff", "SVG": "image/svg+xml"}
PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
               "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
LOOPBACK = ("127.0.0.1", "localhost", "::1")
WILDCARDS = {"0.0.0.0": "127.0.0.1", "::": "::1"}  # every interface: this computer's own address for it
NAME = r"[A-Za-z0-9][A-Za-z0-9_-]{0,99}"  # a card id, language code or part name in a URL


class Refused(Exception):
    """A request answered with an error status and a message."""

    def __init__(self, status: HTTPStatus, message: str, headers: dict | None = None):
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers or {}


@dataclass
class Response:
    status: HTTPStatus
    body: bytes
    type: str
    headers: dict = field(default_factory=dict)


def request_path(target: str) -> tuple[str, dict]:
    """The path and query of a request target, checked: Refused (400) for anything but an
    absolute path, and for `.` or `..` segments, backslashes, NUL or control characters,
    whether written plainly or percent-encoded."""
    if not target.startswith("/") or target.startswith("//"):
        raise Refused(HTTPStatus.BAD_REQUEST, "the request must name a path on this server")
    parts = urlsplit(target)
    try:
        path = unquote(parts.path, errors="strict") if "%" in parts.path else parts.path
    except UnicodeDecodeError:
        raise Refused(HTTPStatus.BAD_REQUEST, "the path is not UTF-8 once decoded") from None
    if any(segment in (".", "..") for segment in path.split("/")) or re.search(r"[\\\x00-\x1f\x7f]", path) or "//" in path:
        raise Refused(HTTPStatus.BAD_REQUEST, "refused: the path leaves the workbench ('..', '.', '//' or '\\')")
    try:
        return path, parse_qs(parts.query, keep_blank_values=True, max_num_fields=20)
    except ValueError:
        raise Refused(HTTPStatus.BAD_REQUEST, "too many query fields") from None


# ── routes: (pattern, method name of Handler) ─────────────────────────────────
ROUTES = [(re.compile(pattern), name) for pattern, name in (
    (r"/", "page"),
    (r"/static/(?P<name>[a-z]+\.(?:js|css))", "static"),
    (r"/favicon\.ico", "no_icon"),
    (r"/api", "api_index"),
    (r"/api/state", "api_state"),
    (r"/api/cards", "api_cards"),
    (rf"/api/cards/(?P<card>{NAME})", "api_card"),
    (r"/api/problems", "api_problems"),
    (r"/api/parts", "api_parts"),
    (rf"/api/parts/(?P<lang>{NAME})/(?P<part>{NAME})", "api_part"),
    (r"/api/events", "events"),
    (rf"/pictures/cards/(?P<lang>{NAME})/(?P<card>{NAME})/(?P<size>thumb\.jpg|print\.png|zoom\.png)", "card_picture"),
    (rf"/pictures/parts/(?P<lang>{NAME})/(?P<part>{NAME})/(?P<page>[1-9][0-9]{{0,3}})\.png", "part_picture"),
    (rf"/art/(?P<lang>{NAME})/(?P<card>{NAME})", "art"),
)]
API = {
    "/api/state": "the game, its languages, factions and kinds, progress, and the data error if any",
    "/api/cards": "every card: per language its picture URLs (thumb, print, zoom), warnings and state",
    "/api/cards/CARD": "a card's page (CARD: its id or collector code): its data, per language its texts (key, file:line, English), warnings, art preflight, changes",
    "/api/problems": "i18n check, build warnings and data errors, each with a link to its card or part",
    "/api/parts": "the rulebook, mats and score sheet of every language: page picture URLs and warnings",
    "/api/parts/LANG/PART": "one part in one language",
    "/api/events": "server-sent events: state, faces, cards, problems, parts",
}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = f"ppgen/{__version__}"
    timeout = IDLE_SECONDS
    error_message_format = "%(code)d %(message)s: %(explain)s\n"  # what http.server answers a request it cannot parse
    error_content_type = "text/plain; charset=utf-8"

    def version_string(self) -> str:  # not the Python version: nothing to tell a stranger
        return self.server_version

    def setup(self):
        super().setup()
        try:  # each answer goes out at once: its headers and its body are two writes, and with Nagle's
            # algorithm the body waited for the browser's delayed ACK of the headers (40 ms an answer)
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass

    # ── dispatch ─────────────────────────────────────────────────────────
    def do_GET(self):
        self._serve(head=False)

    def do_HEAD(self):
        self._serve(head=True)

    def _not_allowed(self):
        self._send(self._error(Refused(HTTPStatus.METHOD_NOT_ALLOWED, "only GET and HEAD", {"Allow": "GET, HEAD"})), head=False)

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _not_allowed

    def _serve(self, head: bool) -> None:
        try:
            self._check_host()
            path, query = request_path(self.path)
            for pattern, name in ROUTES:
                match = pattern.fullmatch(path)
                if match:
                    response = getattr(self, name)(query=query, **match.groupdict())
                    break
            else:
                raise Refused(HTTPStatus.NOT_FOUND, f"nothing at {path}")
        except Refused as exc:
            response = self._error(exc)
        except (TimeoutError, BrokenPipeError, ConnectionResetError):
            self.close_connection = True
            return
        except DataError as exc:  # the game cannot be read right now: the page shows why
            response = self._error(Refused(HTTPStatus.SERVICE_UNAVAILABLE, f"the game cannot be read: {exc}"))
        except Exception:  # a bug in ppgen: answer, and say it on the terminal
            import traceback

            self.server.log(f"internal error answering {self.path}:\n{traceback.format_exc()}")
            response = self._error(Refused(HTTPStatus.INTERNAL_SERVER_ERROR, "internal error in ppgen (the terminal shows it; please report it)"))
        if response is not None:  # None: a stream, already answered
            self._send(response, head)

    def _check_host(self) -> None:
        allowed = self.server.hosts
        host = self.headers.get("Host")
        if host is None:
            if self.request_version == "HTTP/1.1":
                raise Refused(HTTPStatus.BAD_REQUEST, "an HTTP/1.1 request needs a Host header")
            return
        if allowed is None:
            return
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        if name.strip("[]").lower() not in allowed:
            raise Refused(HTTPStatus.FORBIDDEN, f"this server answers to {', '.join(sorted(allowed))} only, not {host!r} "
                                                "(start it with --host to serve another name)")

    def _error(self, exc: Refused) -> Response:
        if self.path.startswith("/api"):
            body, kind = json.dumps({"error": exc.message, "status": int(exc.status)}).encode(), "application/json"
        else:
            body, kind = f"{int(exc.status)} {exc.status.phrase}: {exc.message}\n".encode(), "text/plain; charset=utf-8"
        return Response(exc.status, body, kind, exc.headers)

    def _send(self, response: Response, head: bool) -> None:
        try:
            self.send_response(response.status)
            self.send_header("Content-Type", response.type)
            self.send_header("Content-Length", str(len(response.body)))
            self._safety_headers(response.type)
            headers = {"Cache-Control": "no-store", **response.headers}
            for name, value in headers.items():
                self.send_header(name, value)
            if response.status >= 400 and response.status != HTTPStatus.NOT_FOUND:
                self.close_connection = True
                self.send_header("Connection", "close")
            self.end_headers()
            if not head:
                self.wfile.write(response.body)
        except (TimeoutError, BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def _safety_headers(self, kind: str) -> None:
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        if kind.startswith("text/html"):
            self.send_header("Content-Security-Policy", PAGE_POLICY)

    def log_message(self, format, *args):  # http.server's signature
        self.server.log(f"{self.address_string()} {format % args}")

    def log_request(self, code="-", size="-"):
        if isinstance(code, HTTPStatus):
            code = code.value
        if str(code).startswith("5"):  # what went wrong here; the rest is noise on a terminal
            super().log_request(code, size)

    # ── pages ────────────────────────────────────────────────────────────
    def page(self, query):
        return Response(HTTPStatus.OK, static_file("index.html"), "text/html; charset=utf-8", {"Cache-Control": "no-cache"})

    def static(self, query, name):
        if name not in STATIC:
            raise Refused(HTTPStatus.NOT_FOUND, f"no file {name}")
        return Response(HTTPStatus.OK, static_file(name), STATIC[name], {"Cache-Control": "no-cache"})

    def no_icon(self, query):
        return Response(HTTPStatus.NO_CONTENT, b"", "image/x-icon", {"Cache-Control": "max-age=86400"})

    # ── the API ──────────────────────────────────────────────────────────
    def _json(self, data) -> Response:
        if data is None:
            raise Refused(HTTPStatus.NOT_FOUND, "no such card")
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        return Response(HTTPStatus.OK, body, "application/json; charset=utf-8")

    def api_index(self, query):
        return self._json({"api": API, "version": __version__})

    def api_state(self, query):
        return self._json(self.server.workbench.state())

    def api_cards(self, query):
        return self._json(self.server.workbench.cards())

    def api_card(self, query, card):
        page = self.server.workbench.card(card)
        if page is None:
            from ..read.schema import did_you_mean

            view = self.server.workbench.session.loaded
            known = [name for c in view.project.game.cards for name in (c.id, c.code)] if view is not None else []
            raise Refused(HTTPStatus.NOT_FOUND, f"no such card '{card}'{did_you_mean(card, known)}")
        return self._json(page)

    def api_problems(self, query):
        return self._json(self.server.workbench.problems())

    def api_parts(self, query):
        return self._json(self.server.workbench.parts())

    def api_part(self, query, lang, part):
        found = self.server.workbench.parts(lang, part)
        if not found["parts"] and found["error"] is None:
            raise Refused(HTTPStatus.NOT_FOUND, f"no part {part} in {lang}")
        return self._json(found)

    # ── pictures ─────────────────────────────────────────────────────────
    def _picture(self, picture, query) -> Response:
        if picture is None:
            raise Refused(HTTPStatus.NOT_FOUND, "no such picture (it could not be drawn: see /api/problems)")
        etag = f'"{picture.fingerprint}"'
        asked = query.get("v", [None])[0]
        cache = "public, max-age=31536000, immutable" if asked == picture.fingerprint else "no-cache"
        kind = PICTURE_TYPES[picture.kind]
        if self.headers.get("If-None-Match") == etag:
            return Response(HTTPStatus.NOT_MODIFIED, b"", kind, {"ETag": etag, "Cache-Control": cache})
        return Response(HTTPStatus.OK, picture.data, kind, {"ETag": etag, "Cache-Control": cache})

    def card_picture(self, query, lang, card, size):
        try:
            return self._picture(self.server.workbench.front_picture(lang, card, size.split(".")[0]), query)
        except KeyError:
            raise Refused(HTTPStatus.NOT_FOUND, f"no card {card} in {lang}") from None

    def part_picture(self, query, lang, part, page):
        try:
            return self._picture(self.server.workbench.part_picture(lang, part, int(page) - 1), query)
        except KeyError:
            raise Refused(HTTPStatus.NOT_FOUND, f"no part {part} in {lang}") from None

    def art(self, query, lang, card):
        found = self.server.workbench.art_file(lang, card)
        if found is None:
            raise Refused(HTTPStatus.NOT_FOUND, f"no picture for {card} in {lang}")
        path, kind = found
        try:
            data = path.read_bytes()
        except OSError:
            raise Refused(HTTPStatus.NOT_FOUND, "the picture is gone") from None
        headers = {"Cache-Control": "no-cache", "Content-Security-Policy": "sandbox; default-src 'none'; style-src 'unsafe-inline'"}
        return Response(HTTPStatus.OK, data, ART_TYPES.get(kind, "application/octet-stream"), headers)

    # ── the event stream ─────────────────────────────────────────────────
    def events(self, query):
        from .events import CLOSED, format_event

        broker = self.server.workbench.events
        sub = broker.subscribe()
        if sub is None:
            raise Refused(HTTPStatus.SERVICE_UNAVAILABLE, "too many pages are listening; close some tabs", {"Retry-After": "5"})
        self.close_connection = True
        try:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Connection", "close")
            self._safety_headers("text/event-stream")
            self.end_headers()
            self.wfile.write(b"retry: 1000\n\n" + format_event("hello", {"generation": self.server.workbench.session.generation}))
            self.wfile.flush()
            while True:
                message = sub.next(timeout=HEARTBEAT_SECONDS)
                if message == CLOSED:
                    break
                self.wfile.write(message if message is not None else b": still here\n\n")
                self.wfile.flush()
        except OSError:
            pass  # the page was closed (or the server is stopping)
        finally:
            broker.unsubscribe(sub)


def static_file(name: str) -> bytes:
    """A file of the page (ppgen/serve/static/), read once."""
    found = _STATIC_CACHE.get(name)
    if found is None:
        from importlib.resources import files

        found = _STATIC_CACHE[name] = files(__package__).joinpath("static", name).read_bytes()
    return found


_STATIC_CACHE: dict[str, bytes] = {}


class WorkbenchServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True  # a restarted server can bind the port a stopped one just left
    request_queue_size = 64

    def __init__(self, address, workbench, hosts, log=None):
        host = address[0]
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.workbench, self.hosts = workbench, hosts
        self.log = log or (lambda message: None)
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self._open: set = set()
        self._open_lock = threading.Lock()
        super().__init__(address, Handler)

    def process_request(self, request, client_address):
        if not self._slots.acquire(blocking=False):
            try:
                request.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\nRetry-After: 5\r\n\r\n")
            except OSError:
                pass
            self.shutdown_request(request)
            return
        with self._open_lock:
            self._open.add(request)
        try:
            super().process_request(request, client_address)
        except Exception:
            self._forget(request)
            raise

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._forget(request)

    def _forget(self, request) -> None:
        with self._open_lock:
            if request in self._open:
                self._open.discard(request)
                self._slots.release()

    def close_connections(self) -> None:
        """End every open connection (the threads serving them see the end and return)."""
        with self._open_lock:
            requests = list(self._open)
        for request in requests:
            try:
                request.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def handle_error(self, request, client_address):
        import sys

        kind = sys.exc_info()[0]
        if kind is not None and issubclass(kind, (ConnectionError, TimeoutError)):
            return  # a browser that went away mid-answer
        super().handle_error(request, client_address)


def check_port(host: str, port: int) -> None:
    """A UsageError now when `host`:`port` cannot be served on (in use, no such address), before the
    workbench loads the game and forks its workers; the server binds it for real just after."""
    if port == 0:
        return
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds (allow_reuse_address)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise _cannot_serve(host, port, exc) from None


def _cannot_serve(host: str, port: int, exc: OSError) -> UsageError:
    if exc.errno == errno.EADDRINUSE:
        return UsageError(f"port {port} on {host} is in use (another ppgen serve?); choose another with --port, "
                          "or --port 0 for any free port")
    return UsageError(f"cannot serve on {host}:{port}: {exc.strerror or exc}")


class LiveServer:
    """The workbench, its watcher and its web server, started and stopped together."""

    def __init__(self, workbench, host: str = "127.0.0.1", port: int = 8000, log=None):
        from .watch import Watcher

        self.workbench = workbench
        hosts = None if host not in LOOPBACK else set(LOOPBACK)
        try:
            self.httpd = WorkbenchServer((host, port), workbench, hosts, log)
        except OSError as exc:
            raise _cannot_serve(host, port, exc) from None
        self.watcher = Watcher(workbench.session.dir, workbench.apply)
        self._thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.2},
                                        name="ppgen-http", daemon=True)

    @property
    def port(self) -> int:
        return self.httpd.server_address[1]

    @property
    def url(self) -> str:
        """The page's address; on every interface (0.0.0.0, ::), the one of this computer (loopback)."""
        host = WILDCARDS.get(self.httpd.server_address[0], self.httpd.server_address[0])
        return f"http://[{host}]:{self.port}/" if ":" in host else f"http://{host}:{self.port}/"

    def start(self) -> None:
        self.workbench.start()
        self.watcher.start()
        self._thread.start()

    def stop(self) -> None:
        """End the event streams, stop watching and serving, close every connection, free the port."""
        self.workbench.stop()
        self.watcher.stop()
        if self._thread.is_alive():
            self.httpd.shutdown()
        self.httpd.close_connections()
        self.httpd.server_close()
        if self._thread.is_alive():
            self._thread.join(5)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
