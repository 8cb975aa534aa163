"""Every picture the bot sends (the learning curve, and anything matplotlib or Pillow
draws) is drawn in a process of its own, started with the bot. In a thread, drawing held
the GIL for most of its ~200 ms and every game in the bot waited (issue 28); here the
event loop only sends the arguments and reads the PNG back.

One process, at a lower priority than the bot, so that on a machine of two cores a
picture never takes a move's time. It imports matplotlib and Pillow when it starts, not
at the first picture. A picture that fails, or is not ready in :data:`DRAW_SECONDS`, is
left out (``None``, logged): the answer goes without it. So is one asked for while the
process is still starting (a second or two after the bot's start): the answer does not
wait for matplotlib's import. A process that died, or is stuck, is replaced for the next
picture, whether it was drawing or still starting. Not :attr:`Pictures.available`
(``TTT_PICTURES=off``): no process, and no picture.
"""

from __future__ import annotations

import asyncio
import importlib
import io
import logging
import signal
import weakref
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool

from gameflow import worker

log = logging.getLogger(__name__)

NICENESS = 5  # below the bot, as the 7×6 solver: a person waits for both
# a picture takes ~0.2 s (more on a busy machine); past this, the process cuts it short
# and it is left out
DRAW_SECONDS = 10.0
# a drawing that cannot be cut short (stuck in C code) is given up this much later, and
# its process replaced
STUCK_SECONDS = 5.0
# a start takes a second or two (its imports), more on a busy machine; past this the
# process is taken to be stuck, and replaced
START_SECONDS = 60.0
# the modules whose functions are drawn: imported at the start, not at the first picture
DRAWING_MODULES = ("cogs.pictures.chart", "cogs.pictures.game_picture")


class TooSlow(Exception):
    """A drawing past its time limit, cut short in the process."""


def _too_slow(signum, frame) -> None:
    raise TooSlow


def _start(modules: tuple[str, ...]) -> None:
    """In the process, once: the drawing libraries imported, and one small picture drawn,
    which loads the fonts and the PNG writer."""
    signal.signal(signal.SIGALRM, _too_slow)
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    from PIL import Image, ImageDraw, ImageFont  # noqa: F401 (imported now, not at a picture)

    for name in modules:
        importlib.import_module(name)
    figure = Figure(figsize=(1, 1), dpi=10)
    figure.text(0.5, 0.5, "0")
    figure.savefig(io.BytesIO(), format="png")


def _timed(seconds: float, function: Callable[..., bytes], *args: object) -> bytes:
    """In the process: ``function(*args)``, cut short after ``seconds`` (on the real clock,
    whatever the bot's loop keeps)."""
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return function(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


class Pictures:
    """The process that draws the bot's pictures: :meth:`start` with the bot,
    :meth:`draw` any picture, :meth:`close` with the bot."""

    def __init__(
        self,
        *,
        available: bool = True,
        seconds: float = DRAW_SECONDS,
        modules: tuple[str, ...] = DRAWING_MODULES,
    ) -> None:
        self.available = available
        self.seconds = seconds
        self.modules = modules
        self._pool = None
        self._ready: Future | None = None  # done when the process has started
        self._closed = False
        self._stop_with_me: weakref.finalize | None = None
        # one picture at a time, so that each one's time limit counts its own drawing,
        # not the queue before it
        self._turn = asyncio.Lock()

    def start(self) -> None:
        """Start the process, if it does not run (the bot's start, or a replacement)."""
        if self._pool is not None or self._closed or not self.available:
            return
        self._pool = pool = worker.pool_of_one(_start, self.modules)
        self._ready = worker.start_now(pool, NICENESS)
        # a bot dropped without closing (tests) does not leave its process behind
        self._stop_with_me = weakref.finalize(self, worker.stop, pool)

    async def draw(
        self, function: Callable[..., bytes], *args: object, timeout: float | None = None
    ) -> bytes | None:
        """``function(*args)`` in the process: a top-level function, with arguments that
        pickle. ``None`` if it failed, took over ``timeout`` seconds (:attr:`seconds` if
        not given), or the process is gone; each is logged."""
        seconds = self.seconds if timeout is None else timeout
        name = getattr(function, "__qualname__", repr(function))
        async with self._turn:
            self.start()
            pool = self._pool
            if pool is None:  # closed with the bot, or switched off
                return None
            if not self._ready.done():
                log.info("the pictures' process is starting: the picture %s is left out", name)
                return None
            try:
                running = asyncio.get_running_loop().run_in_executor(
                    pool, _timed, seconds, function, *args
                )
                return await asyncio.wait_for(running, seconds + STUCK_SECONDS)
            except TooSlow:  # cut short: the process is free again (each picture's figure is
                # its own: nothing half-drawn is kept)
                log.warning("the picture %s took over %g s: left out", name, seconds)
                return None
            except TimeoutError:
                log.warning("the picture %s is stuck: left out", name)
            except BrokenProcessPool:
                log.warning("the pictures' process is gone: the picture %s is left out", name)
            except Exception:
                log.exception("the picture %s failed", name)
                return None  # the process is well: it stays
            self._replace(pool)
            return None

    async def started(self) -> None:
        """Until the process has started (a Share waits for it, and tests that need a
        picture). One that died while starting, or is stuck past :data:`START_SECONDS`,
        is replaced: the picture asked now is left out, as while any process starts."""
        self.start()
        pool, ready = self._pool, self._ready
        if ready is None:
            return
        try:
            await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(ready)), START_SECONDS)
            return
        except TimeoutError:
            log.warning("the pictures' process is stuck starting: another is started")
        except Exception as error:  # BrokenProcessPool: killed, out of memory, a bad import
            log.warning("the pictures' process died starting (%r): another is started", error)
        self._replace(pool)

    def process_id(self) -> int | None:
        """The process's id, if it runs (for tests that kill it)."""
        return worker.process_id(self._pool)

    def close(self) -> None:
        """Stop the process (the bot is closing): no picture is drawn after this."""
        self._closed = True
        if self._pool is not None:
            self._stop()

    def _replace(self, pool) -> None:
        """A new process for the next picture, started now: the next one need not wait
        for its start as well as its drawing."""
        if self._pool is pool:
            self._stop()
            self.start()

    def _stop(self) -> None:
        self._pool = None
        if self._stop_with_me is not None:
            self._stop_with_me()  # worker.stop, once
