"""The classic board's post-mortems, from a finished game to its lesson on the board.

After a 7×6 game that the bot did not win (or one between members that it watched), the
game is stored with its review pending; the solver then values its positions in the
worker process (:mod:`gameflow.postmortem`), and the new facts go into the server's
memory and the store with the review done, in one transaction. A review left pending
(the bot killed, the worker gone) runs again at the next start: :meth:`Reviews.resume`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import engine
from data import Snapshot, StaleGameError, Store
from engine import Mark, Verdict

from .game import Game
from .memories import ServerMemories
from .postmortem import PostMortemWorker, WorkerGone

log = logging.getLogger(__name__)

KEPT_SECONDS = 900  # how long a review's outcome stays at hand for its board
RETRY_SECONDS = 120  # a review that failed is tried again by the sweep after this long


@dataclass(frozen=True, slots=True)
class ReviewOutcome:
    """What a post-mortem taught: its lesson for the bot's side (``None``: it played every
    position as well as it could, or the game was between members) and how many facts
    were new to the server's memory."""

    game: Game
    verdict: Verdict | None
    new_facts: int


class Reviews:
    """The post-mortems under way, by game id, each an awaitable task."""

    def __init__(
        self,
        store: Store,
        memories: ServerMemories,
        clock: Callable[[], float],
        worker: PostMortemWorker,
    ) -> None:
        self.store = store
        self.memories = memories
        self.clock = clock
        self.worker = worker
        self._tasks: dict[int, asyncio.Task[ReviewOutcome]] = {}
        # called with each game and its post-mortem's facts once they are stored (the
        # puzzles are cut from them: gameflow.puzzles)
        self.reviewed: list[Callable[[Game, list], Awaitable[object]]] = []
        self.recovered: list[int] = []  # games whose review was picked up again at start

    def needed(self, game: Game, result: str) -> bool:
        """Whether a game ending with ``result`` gets a post-mortem: a classic board's
        game played out, that the bot did not win, with the solver at hand."""
        return self.worker.available and _reviewable(game, result)

    def rules_only(self, game: Game) -> bool:
        """Whether a finished game would have had a post-mortem, but no solver is at hand
        (its board says it learned by the rules alone)."""
        return not self.worker.available and _reviewable(game, game.result)

    async def note_board(self, game: Game, message_id: int) -> None:
        """The final board of a game under review, to edit with its lesson (after a
        restart too)."""
        await self.store.set_message(game.id, message_id)

    def start(self, game: Game) -> None:
        """Run a finished game's post-mortem (stored as pending) in the background."""
        if game.id not in self._tasks:
            task = asyncio.get_running_loop().create_task(self._run(game))
            task.add_done_callback(_logged)
            self._tasks[game.id] = task

    async def outcome(self, game_id: int) -> ReviewOutcome | None:
        """The outcome of a game's post-mortem once it is done; ``None`` if none was
        started here, or if it could not finish (it stays pending, for the next start)."""
        task = self._tasks.get(game_id)
        if task is None:
            return None
        try:
            return await asyncio.shield(task)
        except Exception:  # logged by the task itself; the board says it could not finish
            return None

    async def resume(self, shards=None) -> list[int]:
        """Start again every review left pending in this process's servers; return their
        game ids (the boards to redraw once each is done)."""
        records = await self.store.pending_reviews(shards)
        for record in records:
            self.start(Game.from_record(record))
        self.recovered = [record.id for record in records]
        return self.recovered

    async def catch_up(self, shards=None) -> None:
        """Start the reviews still owed here that no task runs: one a database blip
        stopped, or a game whose end was stored while the answer about it was lost. A
        review that failed is tried again :data:`RETRY_SECONDS` after, not sooner."""
        if not self.worker.available:
            return
        for record in await self.store.pending_reviews(shards):
            self.start(Game.from_record(record))

    async def close(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        self.worker.close()

    async def _run(self, game: Game) -> ReviewOutcome:
        # a finished task's result stays a while for outcome(); a failed one gives its
        # place up sooner, for the sweep to try it again (catch_up)
        later = asyncio.get_running_loop().call_later
        try:
            try:
                outcome = await self._review(game)
            except WorkerGone:  # the worker died under it: the next one takes it again, once
                outcome = await self._review(game)
        except BaseException:
            later(RETRY_SECONDS, self._tasks.pop, game.id, None)
            raise
        later(KEPT_SECONDS, self._tasks.pop, game.id, None)
        return outcome

    async def _review(self, game: Game) -> ReviewOutcome:
        bot = None if not game.vs_bot else int(game.bot_mark)
        facts = await self.worker.post_mortem(game.kind, game.moves, bot)
        new, stored = 0, False
        # Nothing is written if another process stored it first (the same facts, proven
        # the same) or if the game is gone (its server's data, or its player, deleted
        # meanwhile); the error leaves `changing`, which then drops what the cache took.
        with contextlib.suppress(StaleGameError):
            async with self.memories.changing(game.guild_id, game.kind) as memory:
                added = engine.apply_post_mortem(memory, [fact[:3] for fact in facts])
                await self.store.finish_review(
                    game.id,
                    game.guild_id,
                    [(position, outcome, plies) for _key, outcome, plies, position in facts],
                    now=self.clock(),
                    game=game.kind,
                    # the curve's point at this game: no ways to count on this board
                    snapshot=Snapshot(len(memory), None, None) if added else None,
                )
                new, stored = added, True
        for listener in self.reviewed if stored else ():
            try:
                await listener(game, facts)
            except Exception:  # the lesson is stored; only what is made of it is missed
                log.warning("could not use the post-mortem of game %s", game.id, exc_info=True)
        verdict = (
            engine.describe_post_mortem(
                game.kind, list(game.moves), [fact[:3] for fact in facts], Mark(bot)
            )
            if bot is not None
            else None
        )
        return ReviewOutcome(game, verdict, new)


def _reviewable(game: Game, result: str) -> bool:
    if not game.rules.classic:
        return False
    if game.vs_bot:
        return result in ("player_won", "draw")
    return result in ("player_won", "opponent_won", "draw")


def _logged(task: asyncio.Task) -> None:
    """Say why a review could not finish (it stays pending, for the next start)."""
    if not task.cancelled() and task.exception() is not None:
        log.warning("a post-mortem could not finish: %r", task.exception())
