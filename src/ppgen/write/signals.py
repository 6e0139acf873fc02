"""Signals around worker processes: the pool of a build's parts and a print shop's decks
(write/workers.py) and the pool that turns pages into pictures (write/raster.py) fork their workers with Ctrl-C
and `kill` held back, and each worker leaves Ctrl-C to the process that started it.
"""
from __future__ import annotations


class signals_blocked:
    """SIGINT and SIGTERM blocked in this thread for the `with` block (POSIX; a no-op elsewhere),
    around the forks of the workers. A signal handled in the middle of a fork runs its handler
    inside the interpreter's fork hooks, where the KeyboardInterrupt it raises is printed as
    "Exception ignored" and dropped: the Ctrl-C or `kill` was lost and the build went on. Blocked,
    the signal waits until the block ends and interrupts the build then; the pool's threads,
    started in the block, keep these signals blocked (they belong to the main thread), and the
    workers start with them blocked until they set their own handling (worker_ignores_sigint)."""

    def __enter__(self):
        import signal

        self.old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM}) if hasattr(signal, "pthread_sigmask") else None

    def __exit__(self, *exc):
        import signal

        if self.old is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self.old)  # a signal that arrived meanwhile is delivered now


def worker_ignores_sigint() -> None:
    """A worker's first act: Ctrl-C (which a terminal sends to every process of the group) is
    for the process that started it; SIGTERM, with which that process stops it, ends it at once."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the parent stops a worker with SIGTERM: at once
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
