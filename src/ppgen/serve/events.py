"""Events for the open pages: each page subscribes (server-sent events, http.py) and every
change is published to all of them.

    broker = Broker()
    sub = broker.subscribe()            # None when MAX_SUBSCRIBERS are listening already
    broker.publish("faces", {...})      # to every subscriber, as one SSE message
    sub.next(timeout=15)                # the message's bytes, None on timeout, CLOSED when the broker closed
    broker.unsubscribe(sub)
    broker.close()                      # every subscriber gets CLOSED (the server is stopping)

A subscriber that does not read (a tab asleep, a dead connection) is dropped when its queue
is full, instead of holding every other page back or growing without end.
"""
from __future__ import annotations

import itertools
import json
import queue
import threading

MAX_SUBSCRIBERS = 64
QUEUE_SIZE = 256  # messages a subscriber may fall behind before it is dropped
CLOSED = b""


class Subscription:
    def __init__(self):
        self._queue: queue.Queue = queue.Queue(QUEUE_SIZE)

    def next(self, timeout: float | None = None) -> bytes | None:
        """The next message, None when none came within `timeout` seconds, CLOSED at the end."""
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def _offer(self, message: bytes) -> bool:
        try:
            self._queue.put_nowait(message)
            return True
        except queue.Full:
            return False

    def _close(self) -> None:
        while not self._offer(CLOSED):  # make room for the end: what it missed no longer matters
            try:
                self._queue.get_nowait()
            except queue.Empty:
                pass


class Broker:
    def __init__(self, limit: int = MAX_SUBSCRIBERS):
        self.limit = limit
        self._subscribers: set[Subscription] = set()
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self.closed = False

    def subscribe(self) -> Subscription | None:
        with self._lock:
            if self.closed or len(self._subscribers) >= self.limit:
                return None
            sub = Subscription()
            self._subscribers.add(sub)
            return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            self._subscribers.discard(sub)

    @property
    def count(self) -> int:
        return len(self._subscribers)

    def publish(self, event: str, data: dict) -> None:
        """Send `data` as JSON under the name `event` to every subscriber."""
        with self._lock:
            message = format_event(event, data, next(self._ids))
            for sub in list(self._subscribers):
                if not sub._offer(message):
                    self._subscribers.discard(sub)
                    sub._close()

    def close(self) -> None:
        with self._lock:
            self.closed = True
            for sub in self._subscribers:
                sub._close()
            self._subscribers.clear()


def format_event(event: str, data: dict, number: int | None = None) -> bytes:
    """One server-sent event: `id`, `event` and one `data` line of JSON (JSON has no newline)."""
    head = f"id: {number}\n" if number is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, ensure_ascii=False, separators=(',', ':'))}\n\n".encode()
