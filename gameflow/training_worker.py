"""The training loop in a worker process, so the bot's event loop never waits for it.

It imports only the engine. It trains a copy of the server's memory and sends, every
``report_seconds``, the games played so far, the facts it learned since its
last report and its own running time. Anything sent on its cancel pipe stops it at the
next check; what it learned is sent. It also stops if the bot's process is gone.
"""

from __future__ import annotations

import contextlib
import os
import time
from multiprocessing.connection import Connection

import engine
from engine import Memory

NICENESS = 10
CHECK_EVERY_GAMES = 500  # how often the loop looks at the clock and the cancel pipe


class _Cancelled(Exception):
    pass


def run(
    game: str,
    facts: list[tuple],  # as the store keeps them (Fact.row)
    opponent: str,
    games: int,
    seed: int | None,
    report_seconds: float,
    reports: Connection,  # the sending end of a pipe
    cancel: Connection,  # the receiving end of another: anything sent on it stops the run
    parent_pid: int,
) -> None:
    """Train, sending ``("progress" | "done" | "cancelled", played, new facts, seconds)``,
    or ``("failed", 0, message, seconds)``. If the bot's process is gone (killed), it
    stops and exits quietly: nobody is left to tell."""
    started = time.perf_counter()
    try:
        os.nice(NICENESS)  # background work: the bot's own process goes first for the CPU
        memory = Memory.stored(facts, game=game)  # the server's, as its cache holds it
        reported = {key for key, _ in memory.items()}
        last = [started, 0]  # when it last reported, games played

        def new_facts() -> list[tuple]:
            fresh = [(key, value) for key, value in memory.items() if key not in reported]
            reported.update(key for key, _ in fresh)
            return [memory.fact(key, value).row for key, value in fresh]

        def progress(done: int, total: int) -> None:
            now = time.perf_counter()
            last[1] = done
            if os.getppid() != parent_pid or cancel.poll():  # orphaned, or asked to stop
                raise _Cancelled
            if now - last[0] >= report_seconds and done < total:
                last[0] = now
                reports.send(("progress", done, new_facts(), now - started))

        try:
            engine.train(
                memory,
                games,
                opponent=opponent,
                seed=seed,
                progress=progress,
                progress_every=CHECK_EVERY_GAMES,
            )
        except _Cancelled:
            reports.send(("cancelled", last[1], new_facts(), time.perf_counter() - started))
            return
        reports.send(("done", games, new_facts(), time.perf_counter() - started))
    except _BOT_GONE:
        pass  # the bot's end of the pipes is gone: nobody to tell
    except Exception as error:  # reported, so the bot can say so instead of waiting forever
        with contextlib.suppress(*_BOT_GONE):
            reports.send(("failed", 0, f"{type(error).__name__}: {error}", 0.0))
    finally:
        reports.close()
        cancel.close()


# what sending to, or reading from, a bot process that is gone raises
_BOT_GONE = (BrokenPipeError, ConnectionResetError, EOFError)
