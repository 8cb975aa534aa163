"""The classic board's solver in a worker process of its own, so the bot's event loop never
waits for it: bitbully holds the GIL while it searches, so a thread would stall the bot
all the same.

One process, started on the first post-mortem (not at the bot's start, which most servers
never need), and reused: the solver's book loads there once. If it dies, the next
post-mortem starts another. Without bitbully, or with ``TTT_SOLVER=off`` in the
environment (to run the bot as a machine without it would), :attr:`PostMortemWorker.
available` is false and the classic board learns by the three rules alone.
"""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import engine
from engine import solver

from . import worker

NICENESS = 5  # background work, but a person waits for its lesson on the board
# a game's post-mortem, widened to the opponent's other replies, takes a few seconds at
# most (p99 1.2 s, at most 2.5 s in bench.learning; a new worker loads its book in about
# 1 s): past this, the solver is taken to be stuck, and its worker is replaced
REVIEW_SECONDS = 60.0
SOLVER_SWITCH = "TTT_SOLVER"  # "off": as if bitbully were not installed

# a post-mortem's fact: (canonical key, "win" or "loss" for the mover, plies): the store
# keeps the key itself, so nothing is spelled out (42 characters a fact, to pickle)
ReviewedFact = tuple[int, str, int]


class WorkerGone(RuntimeError):
    """The worker process died during a post-mortem (killed, out of memory)."""


def _start() -> None:
    os.nice(NICENESS)
    solver.load()  # the book, once per process


def _post_mortem(game: str, moves: list[int], bot: int | None) -> list[ReviewedFact]:
    """In the worker: the game's post-mortem."""
    return engine.post_mortem(game, moves, bot)


def _forced_line(game: str, moves: list[int], answer: int) -> list[int]:
    """In the worker: a puzzle's solution played out (:func:`engine.puzzles.forced_line`)."""
    from engine.puzzles import forced_line

    return forced_line(game, moves, answer)


def _played_on(game: str, moves: list[int], columns: list[int]) -> list:
    """In the worker: a win puzzle played on (:func:`engine.puzzles.played_on`)."""
    from engine.puzzles import played_on

    return played_on(game, moves, columns)


def solver_switched_on() -> bool:
    """Whether this bot may use the solver: bitbully importable, and not switched off."""
    return os.environ.get(SOLVER_SWITCH, "").lower() != "off" and solver.solver_available()


class PostMortemWorker:
    """The one process that runs the solver, started when first needed."""

    def __init__(self, *, available: bool | None = None, seconds: float = REVIEW_SECONDS) -> None:
        self.available = solver_switched_on() if available is None else available
        self.seconds = seconds
        self._pool: ProcessPoolExecutor | None = None
        # one post-mortem at a time, so that each one's time limit counts its own work,
        # not the queue before it
        self._turn = asyncio.Lock()

    @property
    def started(self) -> bool:
        return self._pool is not None

    async def post_mortem(
        self, game: str, moves: tuple[int, ...], bot: int | None
    ) -> list[ReviewedFact]:
        """The proven facts of a finished game's post-mortem (``bot``: its mark, or
        ``None`` for a game between members, both sides). Raises :class:`WorkerGone` if
        the process died meanwhile: the next call starts another."""
        return await self._run(_post_mortem, game, list(moves), bot)

    async def forced_line(self, game: str, moves: tuple[int, ...], answer: int) -> list[int]:
        """A puzzle's solution: its ``answer`` after ``moves``, then perfect play to the
        end, in the worker (under the same time limit as a post-mortem). Raises
        :class:`WorkerGone` if the process died meanwhile."""
        return await self._run(_forced_line, game, list(moves), answer)

    async def played_on(self, game: str, moves: tuple[int, ...], columns: list[int]) -> list:
        """A win puzzle after ``moves`` played on with the member's ``columns``: each
        position's values and the slowest defences (:func:`engine.puzzles.played_on`),
        in the worker. Raises :class:`WorkerGone` if the process died meanwhile."""
        return await self._run(_played_on, game, list(moves), list(columns))

    async def _run(self, work, *args):
        """``work(*args)`` in the worker process, one at a time, within :attr:`seconds`."""
        if not self.available:
            raise solver.SolverUnavailable("the solver is not available to this bot")
        async with self._turn:
            if self._pool is None:
                self._pool = worker.pool_of_one(_start)
            pool = self._pool
            try:
                # a pool that saw its process die while idle refuses work at once: gone too
                running = asyncio.get_running_loop().run_in_executor(pool, work, *args)
                return await asyncio.wait_for(running, self.seconds)
            except TimeoutError:
                self._stop(pool)
                raise WorkerGone(f"the solver took over {self.seconds:g} s") from None
            except BrokenProcessPool as error:
                self._stop(pool)
                raise WorkerGone(str(error)) from None

    def pid(self) -> int | None:
        """The worker's process id, if it runs (for tests that kill it)."""
        return worker.process_id(self._pool)

    def close(self) -> None:
        """Stop the worker (the bot is closing): a post-mortem under way stays pending in
        the store and runs again at the next start."""
        if self._pool is not None:
            self._stop(self._pool)

    def _stop(self, pool: ProcessPoolExecutor) -> None:
        """End a worker: the next post-mortem starts another."""
        if self._pool is pool:
            self._pool = None
        worker.stop(pool)  # a search can take a while; nothing of it is kept
