"""Ratings (``engine.ratings`` computes them): each member's and each server's learning
bot's, per board, as ``(mu, sigma)`` in hundredths of a point; and the learning bot's
history (after each game, and its resets and imports), for its change over 30 days, its
line on the learning curve and a rebuild from the stored games.

A game's rating update is written by :meth:`data.games.GameQueries.finish_game`, in the
game's own transaction (:func:`rating_statements` builds it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .games import RUNNING
from .shards import Query

# A board as a small number in ``ratings`` (its rows are the ones that number in the tens
# of thousands per server: a byte there instead of a name keeps a row and its index entry
# within 64 bytes)
BOARDS = {"tictactoe": 0, "connect4": 1, "connect4-5x4": 2, "connect4-7x6": 3}
BOARD_NAMES = {number: name for name, number in BOARDS.items()}
# established below this uncertainty (engine.ratings.PROVISIONAL_SIGMA, in hundredths): the
# index that ranks by rating holds only those
ESTABLISHED = 11000
BOT_EVENTS = ("game", "reset", "import")
RATING_TABLES = ("ratings", "bot_ratings")


@dataclass(frozen=True, slots=True)
class BotPoint:
    """The learning bot's rating at a moment: after a game, or a reset or an import."""

    at: float
    mu: int
    sigma: int
    event: str  # one of BOT_EVENTS
    games: int = 0  # the server's games of the board by then (the curve's x), 0 unknown


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A finished game as a rebuild replays it."""

    id: int
    ended_at: float
    player_id: int
    opponent_id: int | None
    result: str
    moves: int
    ended_by: int | None
    level: str


def _upsert(guild_id: int, game: str, player_id: int, rating: tuple[int, int]) -> tuple:
    return (
        "INSERT INTO ratings (guild_id, board, player_id, mu, sigma) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, board, player_id) DO UPDATE SET mu = excluded.mu,"
        " sigma = excluded.sigma",
        (guild_id, BOARDS[game], player_id, *rating),
    )


def _bot_point(guild_id: int, game: str, point: BotPoint) -> tuple:
    return (
        "INSERT INTO bot_ratings (guild_id, game, at, mu, sigma, event, games) VALUES"
        " (?, ?, ?, ?, ?, ?, (SELECT COALESCE((SELECT games + member_games FROM server_counts"
        " WHERE guild_id = ? AND game = ?), 0)))",
        (guild_id, game, point.at, point.mu, point.sigma, point.event, guild_id, game),
    )


def rating_statements(
    guild_id: int,
    game: str,
    ratings: dict[int, tuple[int, int]],
    bot: int | None = None,
    *,
    now: float,
) -> list[tuple]:
    """The statements that store a game's new ratings (``{player: (mu, sigma)}``); with
    ``bot``, the id standing for the learning bot among them, its history's next point
    (after the game's counters: the point carries the games so far)."""
    statements = [_upsert(guild_id, game, player, rating) for player, rating in ratings.items()]
    if bot is not None and bot in ratings:
        statements.append(_bot_point(guild_id, game, BotPoint(now, *ratings[bot], "game")))
    return statements


class RatingQueries:
    _fetch: Query
    _write: Query

    async def ratings(
        self, guild_id: int, game: str, players: Sequence[int]
    ) -> dict[int, tuple[int, int]]:
        """The ratings of ``players`` on a board (those never rated are left out)."""
        if not players:
            return {}
        marks = ", ".join("?" * len(players))
        rows = await self._fetch(
            "SELECT player_id, mu, sigma FROM ratings WHERE guild_id = ? AND board = ?"
            f" AND player_id IN ({marks})",
            (guild_id, BOARDS[game], *players),
        )
        return {player: (mu, sigma) for player, mu, sigma in rows}

    async def member_ratings(self, guild_id: int, player_id: int) -> dict[str, tuple[int, int]]:
        """A member's rating on each board they played in a place."""
        rows = await self._fetch(
            "SELECT board, mu, sigma FROM ratings WHERE guild_id = ? AND player_id = ?"
            " AND board IN (0, 1, 2, 3) ORDER BY board",
            (guild_id, player_id),
        )
        return {BOARD_NAMES[board]: (mu, sigma) for board, mu, sigma in rows}

    async def rating_leaderboard(
        self, guild_id: int, game: str, *, top: int = 10, player_id: int | None = None
    ) -> tuple[list[tuple[int, int, int, int]], tuple[int, int, int, int] | None]:
        """The ``top`` established members by rating, as ``(place, member, mu, sigma)``
        (off the index of established ratings: a server of 10,000 reads ``top`` entries),
        and ``player_id``'s own standing if rated, established or not (its place then
        counts the established members above it)."""
        board = BOARDS[game]
        # the established condition written out: a partial index serves a literal only
        # (and the bot, -1, is left out by a test no index takes up)
        rows = await self._fetch(
            "SELECT player_id, mu, sigma FROM ratings WHERE guild_id = ? AND board = ?"
            f" AND sigma < {ESTABLISHED} AND player_id + 0 > 0 ORDER BY mu DESC, player_id"
            " LIMIT ?",
            (guild_id, board, top),
        )
        standings = [(place, *row) for place, row in enumerate(rows, 1)]
        own = None
        if player_id is not None and player_id > 0:
            mine = await self._fetch(
                "SELECT mu, sigma, (SELECT COUNT(*) FROM ratings AS r WHERE r.guild_id = ?"
                f" AND r.board = ? AND r.sigma < {ESTABLISHED} AND r.player_id + 0 > 0"
                " AND r.mu > ratings.mu)"
                " FROM ratings WHERE guild_id = ? AND board = ? AND player_id = ?",
                (guild_id, board, guild_id, board, player_id),
            )
            if mine:
                mu, sigma, above = mine[0]
                own = (above + 1, player_id, mu, sigma)
        return standings, own

    async def bot_history(self, guild_id: int, game: str) -> list[BotPoint]:
        """The learning bot's rating over time on a board, oldest first."""
        rows = await self._fetch(
            "SELECT at, mu, sigma, event, games FROM bot_ratings WHERE guild_id = ? AND game = ?"
            " ORDER BY at, id",
            (guild_id, game),
        )
        return [BotPoint(*row) for row in rows]

    async def bot_rating_since(self, guild_id: int, game: str, since: float) -> tuple[int, int]:
        """The learning bot's rating as it stood at ``since`` (its last point at or
        before; the starting rating if it had none then), for its change since."""
        rows = await self._fetch(
            "SELECT mu, sigma FROM bot_ratings WHERE guild_id = ? AND game = ? AND at <= ?"
            " ORDER BY at DESC, id DESC LIMIT 1",
            (guild_id, game, since),
        )
        return tuple(rows[0]) if rows else ()

    async def set_bot_rating(
        self, guild_id: int, game: str, bot: int, rating: tuple[int, int], *, event: str, now: float
    ) -> None:
        """A reset (the starting rating) or an import (provisional again) of the bot's."""
        if event not in BOT_EVENTS:
            raise ValueError(f"unknown event {event!r}")
        await self._write(
            [
                _upsert(guild_id, game, bot, rating),
                _bot_point(guild_id, game, BotPoint(now, *rating, event)),
            ]
        )

    async def rated_games(self, guild_id: int, game: str) -> list[RatedGame]:
        """A server's finished games of a board, in the order they ended (a rebuild)."""
        rows = await self._fetch(
            "SELECT id, COALESCE(ended_at, updated_at) AS ended, player_id, opponent_id,"
            " result, LENGTH(moves), ended_by, level FROM games"
            " WHERE guild_id = ? AND game = ? AND result != ? ORDER BY ended, id",
            (guild_id, game, RUNNING),
        )
        return [RatedGame(*row) for row in rows]

    async def rated_places(self) -> list[tuple[int, str]]:
        """Every place and board with finished games (a rebuild goes through them)."""
        rows = await self._fetch(
            "SELECT DISTINCT guild_id, game FROM games WHERE result != ? ORDER BY guild_id, game",
            (RUNNING,),
        )
        return [tuple(row) for row in rows]

    async def replace_ratings(
        self,
        guild_id: int,
        game: str,
        ratings: dict[int, tuple[int, int]],
        points: Iterable[BotPoint],
    ) -> None:
        """Replace a server's ratings of a board (a rebuild's outcome), in one transaction:
        the members' and the bot's, and the bot's history."""
        statements = [
            ("DELETE FROM ratings WHERE guild_id = ? AND board = ?", (guild_id, BOARDS[game])),
            ("DELETE FROM bot_ratings WHERE guild_id = ? AND game = ?", (guild_id, game)),
            *(_upsert(guild_id, game, player, rating) for player, rating in ratings.items()),
            *(
                (
                    "INSERT INTO bot_ratings (guild_id, game, at, mu, sigma, event, games)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (guild_id, game, p.at, p.mu, p.sigma, p.event, p.games),
                )
                for p in points
            ),
        ]
        await self._write(statements)


def forget_rated(guild_id: int, player_id: int) -> list[tuple]:
    """The statements that delete a member's ratings on every board of a place."""
    return [("DELETE FROM ratings WHERE guild_id = ? AND player_id = ?", (guild_id, player_id))]
