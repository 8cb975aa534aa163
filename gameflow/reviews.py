"""The classic board's post-mortems, from a finished game to its lesson on the board.

After a 7×6 game that the bot did not win (or one between members that it watched), the
game is stored with its review pending; the solver then values its positions in the
worker process (:mod:`gameflow.postmortem`), and the new facts go into the server's
memory and the store with the review done, in one transaction. A review left pending
(the bot killed, the worker gone) runs again at the next start: :meth:`Reviews.resume`.

The reviews wait in one queue, which one task works through while it is not empty (the
solver's worker takes one at a time anyway): a burst of 500 losses is 500 entries of a
queue, not 500 tasks. A finished review is kept a while as a plain record for whoever asks
for its lesson, and the old ones are dropped as new ones finish (no timer each).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import astuple, dataclass

import engine
from data import Snapshot, StaleGameError, Store
from engine import Mark, Verdict

from .game import Game
from .memories import ServerMemories, classic_facts
from .postmortem import PostMortemWorker, WorkerGone

log = logging.getLogger(__name__)

KEPT_SECONDS = 900  # how long a review's outcome stays at hand for its board
KEPT_AT_MOST = 10_000  # and how many at most
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
    """The post-mortems owed in this process: a queue, worked through by one task."""

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
        self._queue: deque[Game] = deque()
        # the games queued or under review, each with the future of whoever awaits its
        # outcome (made only when someone does)
        self._owed: dict[int, asyncio.Future | None] = {}
        # finished: game id -> (when, the game, new facts, the verdict as a tuple or None),
        # oldest first; and when each failed one failed (the loop's clock)
        self._done: OrderedDict[int, tuple[float, Game, int, tuple | None]] = OrderedDict()
        self._failed: dict[int, float] = {}
        # what to call with an owed review's outcome once it is done (see when_done)
        self._then: dict[int, list[Callable[[ReviewOutcome | None], object]]] = {}
        self._consumer: asyncio.Task | None = None
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
        """Queue a finished game's post-mortem (stored as pending), unless it is queued,
        under review, done lately, or failed less than :data:`RETRY_SECONDS` ago."""
        if game.id in self._owed or game.id in self._done:
            return
        loop = asyncio.get_running_loop()
        failed = self._failed.get(game.id)
        if failed is not None:
            if loop.time() - failed < RETRY_SECONDS:
                return
            del self._failed[game.id]
        self._owed[game.id] = None
        self._queue.append(game)
        if self._consumer is None:
            self._consumer = loop.create_task(self._consume())

    @property
    def queued(self) -> int:
        """How many reviews are queued or under way."""
        return len(self._owed)

    async def outcome(self, game_id: int) -> ReviewOutcome | None:
        """The outcome of a game's post-mortem once it is done; ``None`` if none was
        started here, or if it could not finish (it stays pending, for the next start)."""
        if game_id in self._owed:
            waiter = self._owed[game_id]
            if waiter is None:
                waiter = self._owed[game_id] = asyncio.get_running_loop().create_future()
            await asyncio.shield(waiter)  # one asker cancelled cancels nobody else's wait
        return self._finished(game_id)

    def when_done(self, game_id: int, then: Callable[[ReviewOutcome | None], object]) -> None:
        """Call ``then`` with a game's :meth:`outcome` once its post-mortem is done (now,
        if it is not owed here): a final board waits for its lesson without a task of its
        own, holding only what ``then`` holds."""
        if game_id in self._owed:
            self._then.setdefault(game_id, []).append(then)
        else:
            then(self._finished(game_id))

    def _finished(self, game_id: int) -> ReviewOutcome | None:
        done = self._done.get(game_id)
        if done is None:
            return None
        _, game, new, verdict = done
        return ReviewOutcome(game, None if verdict is None else Verdict(*verdict), new)

    async def resume(self, shards=None) -> list[int]:
        """Start again every review left pending in this process's servers; return their
        game ids (the boards to redraw once each is done)."""
        records = await self.store.pending_reviews(shards)
        for record in records:
            self.start(Game.from_record(record))
        self.recovered = [record.id for record in records]
        return self.recovered

    async def catch_up(self, shards=None) -> None:
        """Start the reviews still owed here that are not queued: one a database blip
        stopped, or a game whose end was stored while the answer about it was lost. A
        review that failed is tried again :data:`RETRY_SECONDS` after, not sooner."""
        if not self.worker.available:
            return
        for record in await self.store.pending_reviews(shards):
            self.start(Game.from_record(record))

    async def close(self) -> None:
        self._queue.clear()
        if self._consumer is not None:
            self._consumer.cancel()
            await asyncio.gather(self._consumer, return_exceptions=True)
        for waiter in self._owed.values():
            if waiter is not None and not waiter.done():
                waiter.set_result(None)
        self._owed.clear()
        self._then.clear()  # the bot is closing: no board is edited any more
        self.worker.close()

    async def _consume(self) -> None:
        """Review the queued games one after the other, until none is left."""
        loop = asyncio.get_running_loop()
        try:
            while self._queue:
                game = self._queue.popleft()
                try:
                    try:
                        outcome = await self._review(game)
                    except WorkerGone:  # the worker died under it: the next one takes it, once
                        outcome = await self._review(game)
                except Exception as error:  # it stays pending, for the sweep to try again
                    log.warning("a post-mortem could not finish: %r", error)
                    self._failed[game.id] = loop.time()
                else:
                    verdict = None if outcome.verdict is None else astuple(outcome.verdict)
                    self._done[game.id] = (loop.time(), game, outcome.new_facts, verdict)
                    self._purge(loop.time())
                waiter = self._owed.pop(game.id, None)
                if waiter is not None and not waiter.done():
                    waiter.set_result(None)
                for then in self._then.pop(game.id, ()):
                    try:
                        then(self._finished(game.id))
                    except Exception:
                        log.exception("could not pass on game %s's post-mortem", game.id)
        finally:
            self._consumer = None

    def _purge(self, now: float) -> None:
        """Drop the finished reviews kept long enough (oldest first)."""
        done = self._done
        while done and (
            len(done) > KEPT_AT_MOST or now - next(iter(done.values()))[0] > KEPT_SECONDS
        ):
            done.popitem(last=False)

    async def _review(self, game: Game) -> ReviewOutcome:
        bot = None if not game.vs_bot else int(game.bot_mark)
        facts = await self.worker.post_mortem(game.kind, game.moves, bot)
        new, stored = 0, False
        # Nothing is written if another process stored it first (the same facts, proven
        # the same) or if the game is gone (its server's data, or its player, deleted
        # meanwhile); the error leaves `changing`, which then drops what the cache took.
        with contextlib.suppress(StaleGameError):
            async with self.memories.changing(game.guild_id, game.kind) as memory:
                known, plies = memory.known, memory.plies
                taught = [fact for fact in facts if not known(fact[0])]
                upgrades = [f for f in facts if known(f[0]) and plies(f[0]) is None]
                added = engine.apply_post_mortem(memory, facts)
                # the board model learns the new facts and those of the game's own
                # positions (what the rules taught at its end), with older ones
                rules = game.rules
                played = {rules.key(code) for code in rules.replay(list(game.moves))}
                model_taught = [fact[0] for fact in taught] + [
                    key for key in sorted(played) if memory.known(key)
                ]
                await self.store.finish_review(
                    game.id,
                    game.guild_id,
                    classic_facts(game.kind, taught, upgrades),
                    now=self.clock(),
                    game=game.kind,
                    # the curve's point at this game: no ways to count on this board
                    snapshot=Snapshot(len(memory), None, None) if added else None,
                )
                new, stored = added, True
                await self.memories.refit(game.guild_id, memory, model_taught)
        for listener in self.reviewed if stored else ():
            try:
                await listener(game, facts)
            except Exception:  # the lesson is stored; only what is made of it is missed
                log.warning("could not use the post-mortem of game %s", game.id, exc_info=True)
        verdict = (
            engine.describe_post_mortem(game.kind, list(game.moves), facts, Mark(bot))
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
