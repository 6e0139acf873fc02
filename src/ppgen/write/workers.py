"""Work shared out to worker processes, each call given the loaded project: a build's parts of
each language (write/build.py) and a print shop's decks (press/order.py).

    for key, result in in_workers(project, jobs, {key: (function, args), …}, order):
        …  # function(project, *args), run in a worker; results in `order`, as each is needed

Workers are forked where the system can (the project, its fonts and locales already loaded and
shared with them), else started afresh and load the project from its folder. They ignore
Ctrl-C, which a terminal sends to every process of the group: the process that started them
stops them at once and re-raises, and results not yet taken are dropped (write/signals.py).
A worker never writes a file: whoever takes the results writes them, atomically.
"""
from __future__ import annotations

from typing import Callable, Hashable, Iterator, Sequence

from .signals import signals_blocked, worker_ignores_sigint

Calls = dict  # key → (function, args): function(project, *args), a module-level function (pickled by name)


def in_workers(project, jobs: int, calls: Calls, order: Sequence[Hashable] | None = None) -> Iterator[tuple[Hashable, object]]:
    """Run every call in one of `jobs` worker processes, started in the dict's order (the longest
    first, so the short ones fill in at the end); yield (key, result) in `order` (default: the
    dict's). With `jobs` ≤ 1 each call runs here, in `order`, as it is asked for."""
    order = list(calls) if order is None else list(order)
    if jobs <= 1:
        for key in order:
            function, args = calls[key]
            yield key, function(project, *args)
        return
    yield from _pooled(project, jobs, calls, order)


def _pooled(project, jobs: int, calls: Calls, order: list) -> Iterator[tuple[Hashable, object]]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    global _FORKED_PROJECT
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    _FORKED_PROJECT = project if method == "fork" else None  # forked workers inherit it, loaded
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context(method), initializer=worker_ignores_sigint)
    try:
        with signals_blocked():  # no Ctrl-C or kill handled while the workers are forked (see write/signals.py)
            futures = {key: pool.submit(_call, str(project.dir.root), function, args) for key, (function, args) in calls.items()}
        for key in order:
            yield key, futures[key].result()
    except BaseException:  # Ctrl-C, an error, or the caller closing the generator: the workers end now
        workers = list((getattr(pool, "_processes", None) or {}).values())
        for process in workers:
            process.terminate()
        for process in workers:  # never wait for ever: a signal may have caught a lock half-taken
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    finally:
        _FORKED_PROJECT = None
    pool.shutdown(wait=True)


_FORKED_PROJECT = None


def _call(root: str, function: Callable, args: tuple):
    """One call in a worker: the project inherited from the fork, or loaded afresh."""
    from ..project import load

    return function(_FORKED_PROJECT or load(root), *args)
