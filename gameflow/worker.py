"""A worker process of the bot's own, for work that would hold the GIL in a thread (the
7×6 solver, the pictures): a pool of one process, started by spawn (a fork would copy the
bot's threads and their locks), that stops itself once the bot is gone."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing import get_context

ORPHAN_CHECK_SECONDS = 1.0


def pool_of_one(initializer: Callable[..., None], *initargs: object) -> ProcessPoolExecutor:
    """A pool of one worker, which runs ``initializer(*initargs)`` when it starts (a
    top-level function: it is sent to the new process by name)."""
    return ProcessPoolExecutor(
        max_workers=1,
        mp_context=get_context("spawn"),
        initializer=_begin,
        initargs=(os.getpid(), initializer, initargs),
    )


def _begin(parent_pid: int, initializer: Callable[..., None], initargs: tuple) -> None:
    # a bot killed outright (SIGKILL, out of memory) cannot stop its worker: the worker
    # stops itself once its parent is gone, or it would hold the bot's output pipes open
    threading.Thread(target=_orphaned, args=(parent_pid,), daemon=True).start()
    initializer(*initargs)


def _orphaned(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(ORPHAN_CHECK_SECONDS)
    os._exit(0)


def start_now(pool: ProcessPoolExecutor, niceness: int) -> Future:
    """Start the pool's process now, not at its first task, ``niceness`` below the bot
    from (nearly) its first instruction: its imports, which come before its initializer
    runs, yield to the bot too. Done when the process has started."""
    ready = pool.submit(_nothing)
    pid = process_id(pool)
    if pid is not None:
        os.setpriority(os.PRIO_PROCESS, pid, os.getpriority(os.PRIO_PROCESS, 0) + niceness)
    return ready


def _nothing() -> None:
    pass


def process_id(pool: ProcessPoolExecutor | None) -> int | None:
    """The pool's worker process id, if it runs (for tests that kill it)."""
    processes = getattr(pool, "_processes", None) or {}
    return next(iter(processes), None)


def stop(pool: ProcessPoolExecutor) -> None:
    """End the pool's worker now, whatever it is doing: nothing of its work is kept."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
