"""A server's data over time: which servers the bot keeps anything about, their departures
and the purge 30 days after, erasing a whole server, and forgetting one player.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import astuple

from .games import RUNNING
from .puzzles import PUZZLE_TABLES, forget_puzzler
from .ratings import RATING_TABLES, forget_rated
from .shards import Query, Shards, _owned
from .stats import MemberRecord, Record

# every table that holds a server's data, in an order that keeps its triggers quiet (games
# after lessons: their credit trigger is on lessons; counters after the games they count)
SERVER_TABLES = (
    "facts",
    "classic_facts",
    "games",
    "loss_blocks",
    "server_counts",
    "player_counts",
    "curve",
    "memory_versions",
    "guild_settings",
    "challenges",
    "trainings",
    "departures",
    *PUZZLE_TABLES,
    *RATING_TABLES,
)


def _sum(kind: type, records: list) -> object:
    """Records added up field by field (a member's figures over every game)."""
    return (
        kind(*(sum(values) for values in zip(*map(astuple, records), strict=True)))
        if records
        else kind()
    )


class ServerQueries:
    """A server's or a player's data, kept, forgotten or erased."""

    _fetch: Query
    _write: Query
    # and of the stats, mixed into the same Store: what a forgotten player's games counted
    record: Callable[..., Awaitable[Record]]
    member_record: Callable[..., Awaitable[MemberRecord]]

    async def player_totals(self, guild_id: int, player_id: int) -> tuple[Record, MemberRecord]:
        """A player's finished games in a server, every game and board added up: against
        the bot, and with members (what forget-me deletes)."""
        rows = await self._fetch(
            "SELECT game FROM player_counts WHERE guild_id = ? AND player_id = ?",
            (guild_id, player_id),
        )
        games = [game for (game,) in rows]
        return (
            _sum(Record, [await self.record(guild_id, player_id, game=g) for g in games]),
            _sum(
                MemberRecord, [await self.member_record(guild_id, player_id, game=g) for g in games]
            ),
        )

    async def forget_player(self, guild_id: int, player_id: int) -> tuple[Record, MemberRecord]:
        """Delete a player's finished games against the bot in a server, take them out of
        their finished games with other members (which stay the other member's: the
        player becomes member 0, nobody), and remove their name wherever else it stands
        there (as the moderator who ended a game, or who started or cancelled a training).
        Return what their games counted for."""
        forgotten = await self.player_totals(guild_id, player_id)
        where = (guild_id, player_id)
        await self._write(
            [
                *(
                    (
                        f"UPDATE {table} SET game_id = NULL WHERE guild_id = ? AND game_id IN"
                        " (SELECT id FROM games WHERE guild_id = ? AND player_id = ?"
                        " AND opponent_id IS NULL)",
                        (guild_id, *where),
                    )
                    for table in ("facts", "classic_facts")
                ),
                (  # a trigger takes each game off the counters
                    "DELETE FROM games WHERE guild_id = ? AND player_id = ? AND result != ?"
                    " AND opponent_id IS NULL",
                    (*where, RUNNING),
                ),
                (
                    "UPDATE games SET player_id = 0 WHERE guild_id = ? AND player_id = ?"
                    " AND result != ?",
                    (*where, RUNNING),
                ),
                (
                    "UPDATE games SET opponent_id = 0 WHERE guild_id = ? AND opponent_id = ?"
                    " AND result != ?",
                    (*where, RUNNING),
                ),
                ("DELETE FROM player_counts WHERE guild_id = ? AND player_id = ?", where),
                ("UPDATE games SET ended_by = NULL WHERE guild_id = ? AND ended_by = ?", where),
                (
                    "UPDATE trainings SET started_by = 0 WHERE guild_id = ? AND started_by = ?",
                    where,
                ),
                ("UPDATE trainings SET ended_by = NULL WHERE guild_id = ? AND ended_by = ?", where),
                *forget_puzzler(guild_id, player_id),
                *forget_rated(guild_id, player_id),
            ]
        )
        return forgotten

    async def left_server(self, guild_id: int, *, now: float) -> None:
        """The bot was removed from a server: its data goes in 30 days, unless it returns."""
        await self._write(
            [
                (
                    "INSERT INTO departures (guild_id, left_at) VALUES (?, ?)"
                    " ON CONFLICT (guild_id) DO UPDATE SET left_at = excluded.left_at",
                    (guild_id, now),
                )
            ]
        )

    async def joined_server(self, guild_id: int) -> None:
        """The bot is in the server (again): nothing of it is to be deleted."""
        await self._write([("DELETE FROM departures WHERE guild_id = ?", (guild_id,))])

    async def servers_with_data(self, shards: Shards | None = None) -> list[int]:
        """The Discord servers (of ``shards``) the bot keeps anything about: lessons, games
        or settings. Server 0 is the terminal's own, and a negative id a player's own bot
        (gameflow.places): neither is a Discord server's."""
        owned, params = _owned(shards)
        parts = [
            f"SELECT guild_id FROM {table} WHERE guild_id > 0{owned}"
            for table in ("facts", "classic_facts", "games", "guild_settings")
        ]
        rows = await self._fetch(" UNION ".join(parts) + " ORDER BY guild_id", params * 4)
        return [guild_id for (guild_id,) in rows]

    async def departed_before(self, cutoff: float, shards: Shards | None = None) -> list[int]:
        owned, params = _owned(shards)
        rows = await self._fetch(
            f"SELECT guild_id FROM departures WHERE left_at <= ?{owned} ORDER BY guild_id",
            (cutoff, *params),
        )
        return [guild_id for (guild_id,) in rows]

    async def erase_server(self, guild_id: int) -> None:
        """Delete everything about a server, in one transaction: lessons, games (between
        members too), counters, the curve, memory versions, settings, invitations and
        trainings."""
        where = (guild_id,)
        await self._write(
            [
                ("INSERT INTO erasing (guild_id) VALUES (?) ON CONFLICT DO NOTHING", where),
                *((f"DELETE FROM {table} WHERE guild_id = ?", where) for table in SERVER_TABLES),
                ("DELETE FROM erasing WHERE guild_id = ?", where),
            ]
        )
