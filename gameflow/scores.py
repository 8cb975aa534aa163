"""What people see of how the games went: records, the leaderboard, the learning curve
and the stats of a server and of a player, read from the store and the memory cache.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

import engine
from data import CurvePoint, MemberRecord, Record, Standing, Store
from data.stats import LEADERBOARD_ORDERS
from engine import Lesson, Mark, Memory
from engine.ratings import Rating
from i18n import N_

from .brain import BrainFigures
from .errors import GameError
from .memories import TICTACTOE, ServerMemories
from .ratings import BotRating, bot_rating


@dataclass(frozen=True, slots=True)
class Stats:
    server: Record
    player: Record
    facts: int
    beatable_as_x: engine.Vulnerability
    beatable_as_o: engine.Vulnerability
    between_members: MemberRecord  # the server's games between members
    player_with_members: MemberRecord  # the player's own
    player_levels: dict[str, Record] = field(default_factory=dict)  # by level played
    # the classic board, which has no count of the ways to beat the bot (``None`` elsewhere)
    classic: ClassicFigures | None = None


RECENT = 50  # the classic board's losses are told per this many recent games
FIGURES_KEPT = 64  # servers whose curve (and classic figures) are kept until they change


@dataclass(frozen=True, slots=True)
class ClassicFigures:
    """What is true and moving on the classic board: where its lessons came from, and how
    often it lost lately."""

    by_post_mortem: int  # facts the solver proved, with their plies to the end
    by_rules: int  # facts the three rules proved alone
    recent_losses: int  # in the last ``recent_games`` games against the bot
    recent_games: int


class Scoreboard:
    """Records, standings, the learning curve and the stats, by server and game."""

    def __init__(self, store: Store, memories: ServerMemories) -> None:
        self.store = store
        self.memories = memories
        # the last curves and losses per block asked for, each with its stamp; and the
        # last classic memories' counts of facts with plies
        self._figures: OrderedDict[tuple, tuple[tuple, list]] = OrderedDict()
        self._plied: OrderedDict[int, tuple[Memory, int, int]] = OrderedDict()

    async def record(
        self, guild_id: int, player_id: int | None = None, game: str = TICTACTOE
    ) -> Record:
        """How this server's (or one player's) finished games against the bot went."""
        return await self.store.record(guild_id, player_id, game=game)

    async def records(
        self, guild_id: int, player_id: int, game: str = TICTACTOE
    ) -> tuple[Record, MemberRecord]:
        """A player's finished games in this server: against the bot, and with members."""
        return (
            await self.store.record(guild_id, player_id, game=game),
            await self.store.member_record(guild_id, player_id, game=game),
        )

    async def leaderboard(
        self, guild_id: int, player_id: int, by: str = "lessons", game: str = TICTACTOE
    ) -> tuple[list[Standing], Standing | None]:
        """The top 10 by ``by`` and the caller's own standing (``None`` if not ranked)."""
        if by not in (*LEADERBOARD_ORDERS, "rating"):
            raise GameError(
                N_(
                    "Rank by {choices}, not `{by}`.",
                    choices=", ".join((*LEADERBOARD_ORDERS, "rating")),
                    by=str(by),
                )
            )
        if by == "rating":
            return await self.store.rating_leaderboard(guild_id, game, player_id=player_id)
        return await self.store.leaderboard(guild_id, by, player_id=player_id, game=game)

    async def bot_ratings(self, guild_id: int, game: str) -> list[tuple[int, int]]:
        """The learning bot's rating after each of its games (and at each reset and
        import), as ``(the server's games by then, rating)``: the learning curve's line."""
        history = await self.store.bot_history(guild_id, game)
        step = max(1, len(history) // 500)  # a few hundred points, however long its history
        kept = [*history[:-1:step], *history[-1:]]
        return [(point.games, round(point.mu / 100)) for point in kept]

    async def ratings(
        self, guild_id: int, player_id: int, game: str, now: float
    ) -> tuple[dict[str, Rating], BotRating]:
        """A member's rating on each board played here, and the learning bot's on
        ``game`` with its change over 30 days."""
        member = {
            board: Rating(*rated)
            for board, rated in (await self.store.member_ratings(guild_id, player_id)).items()
        }
        return member, await bot_rating(self.store, guild_id, game, now)

    async def wins_by_level(
        self, guild_id: int, player_id: int, game: str = TICTACTOE
    ) -> dict[str, int]:
        """A player's wins against the bot at each level they played (the leaderboard
        ranks wins at full strength only)."""
        records = await self.store.level_records(guild_id, player_id, game=game)
        return {level: record.bot_losses for level, record in records.items()}

    async def curve(self, guild_id: int, game: str = TICTACTOE) -> list[CurvePoint]:
        """The server's learning curve: at most about 500 points, however long its history
        (kept until it changes: stats asked again and again read one index entry)."""
        return await self._kept("curve", guild_id, game, self.store.curve)

    async def losses_by_block(self, guild_id: int, game: str) -> list[tuple[int, int]]:
        """The classic board's curve of losses: ``(games by then, losses)`` per 50 games
        against the bot (``data.classic_schema.LOSS_BLOCK``), kept as the curve is."""
        return await self._kept("losses", guild_id, game, self.store.losses_by_block)

    async def _kept(self, kind: str, guild_id: int, game: str, read) -> list:
        stamp = await self.store.curve_stamp(guild_id, game)
        key = (kind, guild_id, game)
        kept = self._figures.get(key)
        if kept is not None and kept[0] == stamp:
            self._figures.move_to_end(key)
            return kept[1]
        figures = await read(guild_id, game=game)
        self._figures[key] = (stamp, figures)
        self._figures.move_to_end(key)
        if len(self._figures) > FIGURES_KEPT:
            self._figures.popitem(last=False)
        return figures

    def _with_plies(self, memory: Memory) -> int:
        """How many of a classic memory's facts carry their plies, counted again only once
        it has learned (counting 200,000 facts takes half a millisecond of the loop)."""
        kept = self._plied.get(id(memory))
        if kept is not None and kept[0] is memory and kept[1] == memory.changes:
            return kept[2]
        count = memory.distance_count()
        # the memory itself is kept with its count, so that its id is not reused meanwhile
        self._plied[id(memory)] = (memory, memory.changes, count)
        if len(self._plied) > FIGURES_KEPT:
            self._plied.popitem(last=False)
        return count

    async def classic_figures(self, guild_id: int, memory: Memory) -> ClassicFigures:
        game = memory.game.name
        # the post-mortem's facts carry their distance; a fact the rules proved has none
        # unless a post-mortem proved it again (counted in C: well under a millisecond
        # for 200,000 facts, where a loop over them took 8 ms of the event loop's time)
        by_post_mortem = self._with_plies(memory)
        lost, games = await self.store.recent_losses(guild_id, last=RECENT, game=game)
        return ClassicFigures(by_post_mortem, len(memory) - by_post_mortem, lost, games)

    async def stats(self, guild_id: int, player_id: int, game: str = TICTACTOE) -> Stats:
        memory = await self.memories.current(guild_id, game)
        figures = self.figures(guild_id, memory)
        classic = None
        if memory.game.classic:  # nothing to count: its own figures instead
            classic = await self.classic_figures(guild_id, memory)
        elif figures.ways_to_beat_as_x is None:  # not kept up to date for this game
            figures = await BrainFigures.counted(memory)
        return Stats(
            await self.store.record(guild_id, game=game),
            await self.store.record(guild_id, player_id, game=game),
            figures.lessons,
            engine.Vulnerability(Mark.X, figures.ways_to_beat_as_x),
            engine.Vulnerability(Mark.O, figures.ways_to_beat_as_o),
            await self.store.member_record(guild_id, game=game),
            await self.store.member_record(guild_id, player_id, game=game),
            await self.store.level_records(guild_id, player_id, game=game),
            classic,
        )

    def figures(
        self, guild_id: int, memory: Memory, lessons: tuple[Lesson, ...] = ()
    ) -> BrainFigures:
        """Lessons and the ways to beat the bot (``lessons``: just learned into ``memory``);
        after a game, the learning curve's next point."""
        as_x, as_o = self.memories.ways_to_beat(
            guild_id, memory, [lesson.after for lesson in lessons]
        )
        return BrainFigures(len(memory), as_x, as_o)
