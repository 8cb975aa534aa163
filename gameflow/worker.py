"""A worker process of the bot's own, for work that would hold the GIL in a thread (the
7×6 solver, the pictures): a pool of one process, started by spawn (a fork would copy the
bot's threads and their locks), that stops itself once the bot is gone; or a process for
one piece of work, whose reports :func:`reporting` reads."""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing import get_context
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

ORPHAN_CHECK_SECONDS = 1.0
# how long a process asked to end (SIGTERM) may take before it is killed, and a killed
# one before it is given up (it cannot outlive SIGKILL: this only bounds the wait)
END_SECONDS = 5.0


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


@contextlib.asynccontextmanager
async def reporting(
    process: BaseProcess, reports: Connection, sender: Connection
) -> AsyncIterator[Callable[[], Awaitable[Any]]]:
    """Start ``process``, which sends its reports on ``sender``, the other end of the pipe
    ``reports``; give a function that awaits its next report, ``None`` once the process
    has gone (its end of the pipe closed, however it ended).

    A thread of its own reads the pipe, so the loop never waits on it, a report of any
    size arrives whole, and a process that dies in the middle of one ends the read (the
    process holds the only sending end). On leaving, whether the work was done, failed or
    cancelled, the process is ended and joined and the pipe closed: nothing is left
    waiting on it."""
    loop = asyncio.get_running_loop()
    arrived: asyncio.Queue = asyncio.Queue()
    process.start()
    sender.close()
    reader = threading.Thread(
        target=_read, args=(reports, loop, arrived), name=f"{process.name} reports", daemon=True
    )
    reader.start()

    async def next_report() -> Any:
        report = await arrived.get()
        if isinstance(report, _Unreadable):
            raise report.error
        return report

    try:
        yield next_report
    finally:
        # in a thread, bounded: a cancelled task's cleanup runs to its end all the same
        await asyncio.to_thread(_end, process, reader, reports)


class _Unreadable:
    def __init__(self, error: Exception) -> None:
        self.error = error


def _read(reports: Connection, loop: asyncio.AbstractEventLoop, arrived: asyncio.Queue) -> None:
    """The reading thread of :func:`reporting`: every report, then ``None``."""
    while True:
        try:
            report = reports.recv()
        except (EOFError, OSError):  # the process has gone, in the middle of a report or not
            report = None
        except Exception as error:  # a report that cannot be read back
            report = _Unreadable(error)
        try:
            loop.call_soon_threadsafe(arrived.put_nowait, report)
        except RuntimeError:  # the loop has closed: nobody is listening
            return
        if report is None or isinstance(report, _Unreadable):
            return


def _end(process: BaseProcess, reader: threading.Thread, reports: Connection) -> None:
    """End ``process`` (its work done or given up), then its reading thread, then the pipe."""
    end(process)
    reader.join(END_SECONDS)  # the pipe's end follows the process's
    if not reader.is_alive():
        reports.close()


def end(process: BaseProcess) -> None:
    """Terminate ``process`` and join it; kill it if it does not end within
    :data:`END_SECONDS`. Blocks for as long: call it in a thread from the loop."""
    if process.pid is None:  # never started
        return
    if process.is_alive():
        process.terminate()
    process.join(END_SECONDS)
    if process.is_alive():
        process.kill()
        process.join(END_SECONDS)
