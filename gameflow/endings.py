"""How a game ends, for the game flow (:class:`gameflow.service.GameService`): what is
learned from it, stored with it in one transaction, and the classic board's post-mortem
started. No Discord here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import engine
from data import StaleGameError, Store
from engine import Board, Lesson

from .game import Game, Turn
from .memories import ServerMemories, store_form
from .ratings import game_update
from .reviews import Reviews
from .running import RunningGames
from .scores import Scoreboard


class _StaleMemory(Exception):
    """The cached memory of a server is older than the store's (another process)."""


# games played to the end: learned from (not a resignation or an abandoned game)
PLAYED_OUT = ("player_won", "bot_won", "opponent_won", "draw")


class GameEndings:
    """Part of :class:`gameflow.service.GameService`: what it needs of the service is
    declared below."""

    store: Store
    clock: Callable[[], float]
    memories: ServerMemories
    running: RunningGames
    scoreboard: Scoreboard
    reviews: Reviews

    @staticmethod
    def _result_of(game: Game, board: Board) -> str:
        if board.winner is None:
            return "draw"
        if board.winner is game.player_mark:
            return "player_won"
        return "bot_won" if game.vs_bot else "opponent_won"

    async def _finish(
        self,
        game: Game,
        moves: tuple[int, ...],
        result: str,
        bot_cell: int | None = None,
        *,
        ended_by: int | None = None,
    ) -> Turn:
        try:
            return await self._finish_once(game, moves, result, bot_cell, ended_by=ended_by)
        except _StaleMemory:
            # Another process reset or imported into this server's memory since this one
            # read it; the cache was dropped, so this time it learns into the memory as
            # the store has it.
            return await self._finish_once(
                game, moves, result, bot_cell, ended_by=ended_by, retry=False
            )

    async def _finish_once(
        self,
        game: Game,
        moves: tuple[int, ...],
        result: str,
        bot_cell: int | None,
        *,
        ended_by: int | None,
        retry: bool = True,
    ) -> Turn:
        lessons: tuple[Lesson, ...] = ()
        learning = result in PLAYED_OUT
        reviewing = self.reviews.needed(game, result)
        # A reset or an import must not interleave with learning and storing; the memory
        # is the current one, after any of them. If storing fails, the cache is dropped.
        async with self.memories.changing(game.guild_id, game.kind) as memory:
            version = self.memories.version(game.guild_id, game.kind)
            if learning:
                lessons = tuple(memory.learn(moves))
            facts = store_form(  # on the classic board, packed
                game.kind,
                [
                    (engine.canonical(lesson.after, game.kind), lesson.outcome.value)
                    for lesson in lessons
                ],
            )
            # what the bot knows now: the learning curve's next point, if it changed
            snapshot = (
                self.scoreboard.figures(game.guild_id, memory, lessons).snapshot()
                if lessons
                else None
            )
            now = self.clock()
            # the ratings it moves, stored with it (read under the server's lock: no other
            # game's end of this board interleaves in this process)
            rated, rating_writes = await game_update(
                self.store,
                game.guild_id,
                game.kind,
                game.player_id,
                game.opponent_id,
                game.level,
                result,
                len(moves),
                ended_by,
                now=now,
            )
            async with self.running.storing(game.channel_id):
                try:
                    await self.store.finish_game(
                        game.id,
                        game.guild_id,
                        game.moves,
                        moves,
                        result,
                        facts,
                        now=now,
                        ended_by=ended_by,
                        snapshot=snapshot,
                        memory_version=version if learning else None,
                        game=game.kind,
                        review=reviewing,
                        ratings=rating_writes,
                    )
                except StaleGameError:
                    stale = learning and retry
                    if (
                        stale
                        and await self.store.memory_version(game.guild_id, game.kind) != version
                    ):
                        raise _StaleMemory from None
                    raise
            if lessons and memory.game.classic and not reviewing:
                # the board model learns them now (a post-mortem's refit takes them then)
                rules = memory.game
                taught = [rules.key(rules.parse(lesson.after, checked=False)) for lesson in lessons]
                await self.memories.refit(game.guild_id, memory, taught)
        game = replace(
            self.running.ended(game),  # as it is now: its board message too
            moves=moves,
            result=result,
            updated_at=now,
            ended_by=ended_by,
            suggested=game.suggested,  # with the bot's last move's, if its model chose it
        )
        if reviewing:
            self.reviews.start(game)
        return Turn(game, bot_cell, lessons, len(memory), reviewing, rated)
