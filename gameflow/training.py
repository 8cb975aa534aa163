"""Training a server's brain in a worker process, with progress saved as it goes.

A run trains a copy of the server's memory in :mod:`gameflow.training_worker`. With
each of its reports, about every :data:`UPDATE_SECONDS`, its new facts are merged into
the server's memory under the server's lock and committed with the run's progress in
one transaction, and only then reported: what a progress message shows is already
stored, so a restart loses nothing that was announced. Games go on meanwhile and keep
learning; both sides only add proven facts, so the merge never conflicts.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import select
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Literal

from data import Shards, Store, StoreBusyError, StoreUnavailableError, TrainingRecord
from i18n import N_

from . import training_worker, worker
from .brain import BrainFigures
from .errors import GameError, busy_means_unchanged
from .memories import TICTACTOE, ServerMemories, store_form

Opponent = Literal["random", "self", "teacher"]
OPPONENTS: tuple[Opponent, ...] = ("random", "self", "teacher")
MAX_GAMES = 1_000_000
UPDATE_SECONDS = 2.0  # how often a run's progress is saved and shown
POLL_SECONDS = 0.1  # how often the pipe from the worker is looked at
MAX_RUNNING = max(1, (os.cpu_count() or 2) - 1)  # leave a core for the bot itself

State = Literal["running", "done", "cancelled", "failed"]


@dataclass(frozen=True, slots=True)
class TrainingProgress:
    run_id: int
    guild_id: int
    opponent: Opponent
    games: int  # asked for
    played: int  # saved so far
    learned: int  # new lessons saved so far
    seconds: float
    state: State
    before: BrainFigures
    after: BrainFigures | None = None  # once it has ended
    ended_by: int | None = None  # the admin who cancelled it
    error: str | None = None
    game: str = TICTACTOE  # which game's memory it trains

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0

    @property
    def seconds_left(self) -> float | None:
        rate = self.games_per_second
        return (self.games - self.played) / rate if rate > 0 else None


class TrainingRun:
    def __init__(
        self,
        trainer: Trainer,
        run_id: int,
        guild_id: int,
        opponent: Opponent,
        games: int,
        before: BrainFigures,
        game: str = TICTACTOE,
    ) -> None:
        self.trainer, self.run_id, self.guild_id = trainer, run_id, guild_id
        self.opponent, self.games, self.before = opponent, games, before
        self.game = game
        memory = trainer.memories.cached(guild_id, game)
        self.cancelled_by: int | None = None
        context = multiprocessing.get_context("spawn")  # no fork of a process with threads
        self._reports, sender = context.Pipe(duplex=False)
        # a pipe, not an Event: an Event is a semaphore, which the resource tracker reports
        # as leaked when the bot's process is killed
        cancels, self._cancel = context.Pipe(duplex=False)
        self._cancelled = False
        self._process = context.Process(
            target=training_worker.run,
            args=(
                game,
                [fact.row for fact in memory or ()],
                opponent,
                games,
                None,
                trainer.update_seconds,
                sender,
                cancels,
                os.getpid(),
            ),
            daemon=True,
            name=f"ttt-training-{run_id}",
        )
        self._sender, self._cancels = sender, cancels
        self._state: State = "running"
        self._played, self._learned, self._seconds = 0, 0, 0.0
        self._pending: list[tuple] = []  # facts as the store keeps them (Fact.row)
        self._unsaved = False
        self._error: str | None = None

    def cancel(self, admin_id: int) -> bool:
        """Ask the worker to stop; its lessons so far are saved. False if already asked."""
        if self._cancelled:
            return False
        self.cancelled_by = admin_id
        self._ask_to_stop()
        return True

    def _ask_to_stop(self) -> None:
        self._cancelled = True
        with contextlib.suppress(OSError, ValueError):  # the worker has gone already
            self._cancel.send(True)

    def stop(self) -> None:
        """End the worker at once (the run ended, or the bot is closing); a run stopped
        before it ended is marked interrupted at the next start-up."""
        if not self._cancelled:
            self._ask_to_stop()
        if self._process.is_alive():
            self._process.kill()
        for pipe in (self._reports, self._cancel):
            if not pipe.closed:
                pipe.close()
        if self.trainer._runs.get(self.guild_id) is self:
            del self.trainer._runs[self.guild_id]

    def start(self) -> None:
        """Start the worker (once)."""
        if not self._process.is_alive() and self._process.exitcode is None:
            self._process.start()
            self._sender.close()  # the worker's end: EOF on the pipe once the worker is gone
            self._cancels.close()

    async def updates(self) -> AsyncIterator[TrainingProgress]:
        """Progress, saved before it is yielded, until the run has ended."""
        self.start()
        try:
            while True:
                progress = await self.poll()
                if progress is None:
                    await asyncio.sleep(POLL_SECONDS)
                    continue
                yield progress
                if progress.state != "running":
                    return
        finally:
            self.stop()
            await asyncio.to_thread(worker.end, self._process)  # nothing left running

    async def poll(self) -> TrainingProgress | None:
        """Read what the worker reported since the last call, save it, and return the
        progress; ``None`` if there is nothing new (or the database is busy: it is saved
        at a later call). Never waits for the worker."""
        arrived = False
        for kind, count, payload, at in self._reports_ready():
            arrived = True
            if kind == "failed":
                self._state, self._error = "failed", payload
            elif kind == "gone":
                if self._state == "running":
                    self._state, self._error = "failed", "the training process stopped"
            else:
                self._played, self._seconds = count, at  # the worker's own clock
                self._pending.extend(payload)
                if kind != "progress":
                    self._state = kind
        if not (arrived or self._unsaved):
            return None
        try:
            after = await self._save()
        except (StoreBusyError, StoreUnavailableError):
            self._unsaved = True  # kept: saved at a later call, once the database answers
            return None
        if self._state != "running":
            self.stop()
        return self.progress(after)

    def progress(self, after: BrainFigures | None = None) -> TrainingProgress:
        """The run as last saved (``after``: the figures at its end)."""
        return TrainingProgress(
            self.run_id,
            self.guild_id,
            self.opponent,
            self.games,
            self._played,
            self._learned,
            self._seconds,
            self._state,
            self.before,
            after,
            self.cancelled_by,
            self._error,
            self.game,
        )

    def _reports_ready(self) -> list[tuple]:
        """The reports waiting on the pipe, without blocking (``select`` with no timeout:
        ``Connection.poll`` would consult ``time.monotonic``, which tests may freeze)."""
        reports = []
        while not self._reports.closed:
            readable, _, _ = select.select([self._reports], [], [], 0)
            if not readable:
                break
            try:
                reports.append(self._reports.recv())
            except (EOFError, OSError):
                self._reports.close()
                reports.append(("gone", 0, None, 0.0))
        return reports

    async def _save(self) -> BrainFigures | None:
        """Merge the pending facts and commit them with the progress; return the figures
        if the run has ended."""
        async with self.trainer.memories.changing(self.guild_id, self.game) as memory:
            pending = {row[0]: row for row in self._pending}.values()
            new = [row for row in pending if memory.outcome(row[0]) is None]
            for row in new:  # if the commit fails, `changing` drops the cache
                memory.add(*row)
            if new and memory.game.classic:  # its board model learns them too
                rules = memory.game
                keys = [rules.key(rules.parse(row[0], checked=False)) for row in new]
                await self.trainer.memories.refit(self.guild_id, memory, keys)
            # the end: the learning curve gets a point, marked training
            after = await BrainFigures.counted(memory) if self._state != "running" else None
            await self.trainer.store.save_training(
                self.run_id,
                self.guild_id,
                store_form(self.game, new),
                played=self._played,
                learned=self._learned + len(new),
                status=self._state,
                now=self.trainer.clock(),
                ended_by=self.cancelled_by,
                snapshot=after.snapshot() if after else None,
                game=self.game,
            )
        self._learned += len(new)
        self._pending, self._unsaved = [], False
        return after


class Trainer:
    """At most one training per server, and at most :data:`MAX_RUNNING` at once."""

    def __init__(
        self,
        store: Store,
        memories: ServerMemories,
        clock,
        *,
        update_seconds: float = UPDATE_SECONDS,
        shards: Shards | None = None,
    ) -> None:
        self.store, self.memories, self.clock = store, memories, clock
        self.shards = shards  # in a cluster: the servers this process runs
        self.update_seconds = update_seconds  # how often progress is saved and shown
        self._runs: dict[int, TrainingRun] = {}

    def running(self, guild_id: int) -> TrainingRun | None:
        return self._runs.get(guild_id)

    async def start(
        self,
        guild_id: int,
        channel_id: int,
        admin_id: int,
        opponent: str,
        games: int,
        game: str = TICTACTOE,
    ) -> TrainingRun:
        """Prepare a run of ``game``'s memory (``updates()`` starts it); refuse a bad or a
        second request: one training per server, whatever the game."""
        if opponent not in OPPONENTS:
            raise GameError(
                N_(
                    "The opponent must be one of {choices}, not `{opponent}`.",
                    choices=", ".join(OPPONENTS),
                    opponent=str(opponent),
                )
            )
        if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
            raise GameError(
                N_(
                    "Train for 1 to {most} games, not {games}. Nothing was started.",
                    most=MAX_GAMES,
                    games=games if isinstance(games, int) else repr(games),
                )
            )
        if guild_id in self._runs:
            raise GameError(
                N_(
                    "I'm already training in this server. Wait for it to finish, or cancel it "
                    "with the button on its progress message."
                )
            )
        if len(self._runs) >= MAX_RUNNING:
            raise GameError(
                N_(
                    "I'm training for other servers right now and have no core to spare. "
                    "Try again in a minute."
                )
            )
        before = await BrainFigures.counted(await self.memories.get(guild_id, game))
        with busy_means_unchanged():
            run_id = await self.store.start_training(
                guild_id, channel_id, admin_id, opponent, games, now=self.clock(), game=game
            )
        self._runs[guild_id] = TrainingRun(self, run_id, guild_id, opponent, games, before, game)
        return self._runs[guild_id]

    async def attach_message(self, run: TrainingRun, message_id: int) -> None:
        """Remember the progress message, to say after a restart that the run was cut short."""
        await self.store.set_training_message(run.run_id, message_id)

    async def recover(self) -> list[TrainingRecord]:
        """At start-up: the runs a stopped process left running, now marked interrupted."""
        return await self.store.interrupt_trainings(now=self.clock(), shards=self.shards)

    def stop_all(self) -> None:
        for run in list(self._runs.values()):
            run.stop()
        self._runs.clear()
