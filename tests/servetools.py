"""Helpers for the `ppgen serve` tests: a game copy, HTTP by hand, the event stream read in a thread."""
from __future__ import annotations

import http.client
import json
import queue
import socket
import threading
import time
from pathlib import Path

from clitools import ROOT, copy_game  # noqa: F401  (copy_game: the serve tests' game copies)


def get(port: int, path: str, headers: dict | None = None, method: str = "GET") -> tuple[int, dict, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request(method, path, headers=headers or {})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def get_json(port: int, path: str) -> dict:
    status, _, body = get(port, path)
    assert status == 200, (path, status, body[:300])
    return json.loads(body)


def raw(port: int, data: bytes, read: bool = True) -> bytes:
    """Send bytes as they are (no HTTP library to tidy them) and read the answer until the server closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(data)
        if not read:
            return b""
        chunks = []
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)


def status_of(answer: bytes) -> int:
    """The status of an answer: `HTTP/1.x NNN …`, or `NNN …` alone (an answer to an HTTP/0.9 request)."""
    words = answer.split(b" ", 2)
    return int(words[0] if words[0].isdigit() else words[1])


class EventReader:
    """The server's event stream, read in a thread: `wait_for(event, predicate)` returns the data."""

    def __init__(self, port: int):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        self.events: queue.Queue = queue.Queue()
        self.head = b""
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        buffer = b""
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    break
                buffer += chunk
                if not self.head and b"\r\n\r\n" in buffer:
                    self.head, buffer = buffer.split(b"\r\n\r\n", 1)
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    fields = dict(line.split(": ", 1) for line in block.decode().splitlines() if ": " in line and not line.startswith(":"))
                    if "event" in fields:
                        self.events.put((fields["event"], json.loads(fields["data"])))
        except OSError:
            pass
        self.events.put(("closed", None))

    def wait_for(self, event: str, predicate=lambda data: True, timeout: float = 30.0):
        deadline = time.monotonic() + timeout
        seen = []
        while time.monotonic() < deadline:
            try:
                name, data = self.events.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            seen.append(name)
            if name == event and predicate(data):
                return data
            if name == "closed":
                break
        raise AssertionError(f"no {event!r} event in {timeout} s (saw {seen})")

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


def edit_text(path: Path, key: str, new_text: str) -> str:
    """Replace the `text:` of `key` in a translated locale file (as a translator's editor saves it:
    a temporary file renamed over the old one); the file's old content."""
    old = path.read_text(encoding="utf-8")
    start = old.index(f"\n{key}:\n") + 1
    line_start = old.index("  text: ", start)
    line_end = old.index("\n", line_start)
    new = old[:line_start] + f"  text: {new_text}" + old[line_end:]
    save(path, new)
    return old


def save(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp-test")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
