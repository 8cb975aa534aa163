"""What the counters say: a server's or a player's record against the bot and between
members, the records by level, the leaderboards and the learning curve.
"""

from __future__ import annotations

from dataclasses import dataclass

from .classic_schema import PLAYED
from .games import RUNNING
from .shards import TICTACTOE, Query


@dataclass(frozen=True, slots=True)
class CurvePoint:
    games: int  # the server's finished games at that moment
    lessons: int
    beat_x: int | None  # None: not counted after that game (see Snapshot)
    beat_o: int | None
    training: bool  # after a training rather than a game


_COUNT_COLUMNS = "games, bot_wins, bot_losses, draws, unfinished"


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's line on a server's leaderboard."""

    player_id: int
    lessons: int  # facts first learned from their games
    wins: int  # games they won against the bot
    games: int  # against the bot or between members
    place: int


# what each leaderboard ranks by, and when that figure last grew (earlier ranks first)
LEADERBOARD_ORDERS = {
    "lessons": ("lessons", "lessons_at"),
    "wins": ("learning_wins", "wins_at"),  # against the bot at full strength only
    "games": ("games + member_games", "games_at"),
}


@dataclass(frozen=True, slots=True)
class Record:
    """Games against the bot, counted from the bot's side."""

    games: int = 0
    bot_wins: int = 0
    bot_losses: int = 0
    draws: int = 0
    unfinished: int = 0  # resigned games count as bot wins; abandoned ones only here


@dataclass(frozen=True, slots=True)
class MemberRecord:
    """Games between members. For a whole server, ``won`` and ``lost`` both count the
    games someone won (on the board or by the other's resignation)."""

    games: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0
    unfinished: int = 0  # abandoned


class StatsQueries:
    """Figures read from the counters, the games and the curve."""

    _fetch: Query
    _write: Query

    async def record(
        self, guild_id: int, player_id: int | None = None, *, game: str = TICTACTOE
    ) -> Record:
        """Finished games of ``game`` against the bot, from its counters: the cost does not
        grow with the history."""
        if player_id is None:
            rows = await self._fetch(
                f"SELECT {_COUNT_COLUMNS} FROM server_counts WHERE guild_id = ? AND game = ?",
                (guild_id, game),
            )
        else:
            rows = await self._fetch(
                f"SELECT {_COUNT_COLUMNS} FROM player_counts"
                " WHERE guild_id = ? AND game = ? AND player_id = ?",
                (guild_id, game, player_id),
            )
        return Record(*rows[0]) if rows else Record()

    async def level_records(
        self, guild_id: int, player_id: int, *, game: str = TICTACTOE
    ) -> dict[str, Record]:
        """A player's finished games against the bot by level (levels they played)."""
        rows = await self._fetch(
            "SELECT level, COUNT(*), SUM(CASE WHEN result IN ('bot_won', 'resigned')"
            " THEN 1 ELSE 0 END), SUM(CASE WHEN result = 'player_won' THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN result = 'draw' THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN result = 'abandoned' THEN 1 ELSE 0 END) FROM games"
            " WHERE guild_id = ? AND game = ? AND player_id = ? AND opponent_id IS NULL"
            " AND result != ? GROUP BY level",
            (guild_id, game, player_id, RUNNING),
        )
        return {level: Record(*(int(n) for n in counts)) for level, *counts in rows}

    async def member_record(
        self, guild_id: int, player_id: int | None = None, *, game: str = TICTACTOE
    ) -> MemberRecord:
        """Finished games of ``game`` between members, from the counters."""
        if player_id is None:
            rows = await self._fetch(
                "SELECT member_games, member_decided, member_decided, member_draws,"
                " member_unfinished FROM server_counts WHERE guild_id = ? AND game = ?",
                (guild_id, game),
            )
        else:
            rows = await self._fetch(
                "SELECT member_games, member_wins, member_losses, member_draws,"
                " member_games - member_wins - member_losses - member_draws"
                " FROM player_counts WHERE guild_id = ? AND game = ? AND player_id = ?",
                (guild_id, game, player_id),
            )
        return MemberRecord(*rows[0]) if rows else MemberRecord()

    async def leaderboard(
        self,
        guild_id: int,
        by: str,
        *,
        top: int = 10,
        player_id: int | None = None,
        game: str = TICTACTOE,
    ) -> tuple[list[Standing], Standing | None]:
        """The ``top`` players of a server's ``game`` by ``by`` (lessons, wins or games;
        ties go to who got there first), and ``player_id``'s own standing, if they have
        any."""
        figure, reached = LEADERBOARD_ORDERS[by]
        ranked = (
            "SELECT player_id, lessons, learning_wins, games + member_games, RANK() OVER (ORDER BY"
            f" {figure} DESC, {reached}, player_id) AS place FROM player_counts"
            f" WHERE guild_id = ? AND game = ? AND {figure} > 0"
        )
        rows = await self._fetch(
            f"SELECT * FROM ({ranked}) AS ranked WHERE place <= ? ORDER BY place",
            (guild_id, game, top),
        )
        standings = [Standing(*row) for row in rows]
        own = None
        if player_id is not None:
            mine = await self._fetch(
                f"SELECT * FROM ({ranked}) AS ranked WHERE player_id = ?",
                (guild_id, game, player_id),
            )
            own = Standing(*mine[0]) if mine else None
        return standings, own

    async def curve_stamp(self, guild_id: int, game: str = TICTACTOE) -> tuple:
        """What changes whenever a server's curve or its losses per 50 games do (its last
        point, its games so far): one read of two index entries, for a cache."""
        ((last_point, games),) = await self._fetch(
            "SELECT (SELECT MAX(id) FROM curve WHERE guild_id = ? AND game = ?),"
            " (SELECT games + member_games FROM server_counts WHERE guild_id = ? AND game = ?)",
            (guild_id, game, guild_id, game),
        )
        return last_point, games

    async def curve(
        self, guild_id: int, *, points: int = 500, game: str = TICTACTOE
    ) -> list[CurvePoint]:
        """The learning curve of ``game``, at most about ``points`` long however long the
        history: every point while there are no more; past that, points evenly spaced in
        games (for each of ``points`` steps, the first point at or after it), always with
        the first and the last, each found off an index (``curve_by_games``): a server
        whose every game taught reads a few hundred rows, never its history. And a point
        for the present (the last point's figures at the current game) when games were
        played since."""
        where = "guild_id = ? AND game = ?"
        ((count, first, last, now),) = await self._fetch(  # one trip, each off an index
            f"SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM curve WHERE {where} LIMIT ?) AS few),"
            f" (SELECT MIN(games) FROM curve WHERE {where}),"
            f" (SELECT MAX(games) FROM curve WHERE {where}),"
            f" (SELECT games + member_games FROM server_counts WHERE {where})",
            (guild_id, game, points + 1, *(guild_id, game) * 3),
        )
        columns = "games, lessons, beat_x, beat_o, training"
        if count <= points:
            rows = await self._fetch(
                f"SELECT {columns} FROM curve WHERE {where} ORDER BY id", (guild_id, game)
            )
        else:
            steps = sorted({first + (last - first) * n // points for n in range(points)})
            targets = ", ".join(f"({int(step)})" for step in steps)
            rows = await self._fetch(
                f"WITH steps (at_games) AS (VALUES {targets})"
                f" SELECT {columns} FROM curve WHERE id IN (SELECT (SELECT id FROM curve"
                f" WHERE {where} AND games >= steps.at_games ORDER BY games, id LIMIT 1)"
                f" FROM steps) OR id = (SELECT MAX(id) FROM curve WHERE {where}) ORDER BY id",
                (guild_id, game, guild_id, game),
            )
        curve = [CurvePoint(g, lessons, x, o, bool(t)) for g, lessons, x, o, t in rows]
        # and the present: games that taught nothing since the last point still count, so
        # that the picture runs to the current game (the same count the points are taken of)
        if curve and now is not None and now > curve[-1].games:
            end = curve[-1]
            curve.append(CurvePoint(now, end.lessons, end.beat_x, end.beat_o, False))
        return curve

    async def losses_by_block(
        self, guild_id: int, *, game: str = TICTACTOE
    ) -> list[tuple[int, int]]:
        """How often the bot lost on the classic board, block by block of 50 games against
        it played to the end, or resigned (``classic_schema.LOSS_BLOCK``), oldest first:
        ``(games by the block's end, losses in it)``; the last block may be shorter. Its
        curve, where no count of the ways to beat the bot exists: counted as the games end
        (a game deleted later, by forget-me, stays counted in its block), so reading it
        costs a row per block, never the history."""
        rows = await self._fetch(
            "SELECT games, losses FROM loss_blocks WHERE guild_id = ? AND game = ? ORDER BY block",
            (guild_id, game),
        )
        blocks, played = [], 0
        for games, losses in rows:
            played += games
            blocks.append((played, int(losses)))
        return blocks

    async def recent_losses(
        self, guild_id: int, *, last: int = 50, game: str = TICTACTOE
    ) -> tuple[int, int]:
        """The bot's losses in the ``last`` games against it played to the end (or
        resigned), and how many games that is (fewer at first)."""
        # straight off games_played_against_the_bot, newest first: no sort of the history
        ((count, lost),) = await self._fetch(
            "SELECT COUNT(*), SUM(CASE WHEN result = 'player_won' THEN 1 ELSE 0 END) FROM"
            " (SELECT result FROM games WHERE guild_id = ? AND game = ? AND opponent_id IS NULL"
            f" AND result IN {PLAYED} ORDER BY id DESC LIMIT ?) AS recent",
            (guild_id, game, int(last)),
        )
        return int(lost or 0), int(count)
