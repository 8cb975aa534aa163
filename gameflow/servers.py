"""A server's data over time: kept 30 days after the bot leaves a server (or after the
last game played there without it), then erased; and a member's own data, erased on
request.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from data import MemberRecord, Record, Shards, Store
from i18n import N_

from .challenges import Challenges
from .errors import GameError, busy_means_unchanged
from .memories import ServerMemories
from .running import RunningGames
from .settings import ServerSettings
from .training import Trainer

# A server's data is deleted this long after the bot is removed from it, unless it is added
# back meanwhile (a public bot keeps no data it no longer needs).
KEEP_AFTER_LEAVING_SECONDS = 30 * 24 * 3600


class Flow(Protocol):
    """What a server's data needs of the game flow (:class:`gameflow.GameService` is one):
    described here, so that this module imports nothing of the service's. The clock and the
    shards are read when used: a test or a re-shard may replace them."""

    store: Store
    clock: Callable[[], float]
    shards: Shards | None
    running: RunningGames
    trainer: Trainer
    challenges: Challenges
    memories: ServerMemories
    settings: ServerSettings


class ServerData:
    """A server's data over time, and a member's in it."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow
        self.store = flow.store

    async def left_server(self, guild_id: int) -> None:
        """The bot was removed from a server: its data goes in 30 days, unless it returns."""
        await self.store.left_server(guild_id, now=self.flow.clock())

    async def joined_server(self, guild_id: int) -> None:
        await self.store.joined_server(guild_id)

    async def played_without_me(self, guild_id: int) -> None:
        """A game in a server the bot is not in (members use it through their own
        install): the server's data stays 30 days after its last game there, then goes
        as a departed server's does (unless the server adds the bot)."""
        await self.store.left_server(guild_id, now=self.flow.clock())

    async def note_departures(self, present: set[int]) -> list[int]:
        """At start: the servers (of this process's shards) the bot keeps data about but is
        no longer in (removed while it was not running, so no event told it) start their
        30 days now. Returns them."""
        departed = set(await self.store.departed_before(float("inf"), self.flow.shards))
        gone = [
            guild_id
            for guild_id in await self.store.servers_with_data(self.flow.shards)
            if guild_id not in present and guild_id not in departed
        ]
        for guild_id in gone:
            await self.store.left_server(guild_id, now=self.flow.clock())
        return gone

    async def erase_server(self, guild_id: int) -> int:
        """Delete everything about a server now (a training of it stops; nothing is kept).
        Returns the server's ID, once done."""
        run = self.flow.trainer.running(guild_id)
        if run is not None:
            run.stop()
        with busy_means_unchanged():
            await self.store.erase_server(guild_id)
        self.flow.running.forget_server(guild_id)
        self.flow.challenges.forget_server(guild_id)
        self.flow.memories.forget_server(guild_id)
        self.flow.settings.forget(guild_id)
        return guild_id

    async def erase_departed(self, still_in: Callable[[int], bool] = lambda _: False) -> list[int]:
        """Delete the data of the servers (of this process's shards) the bot left more than
        30 days ago and did not come back to; return them. ``still_in``: whether the bot is
        in a server now (added back while it was not running to hear it)."""
        cutoff = self.flow.clock() - KEEP_AFTER_LEAVING_SECONDS
        erased = []
        for guild_id in await self.store.departed_before(cutoff, self.flow.shards):
            if still_in(guild_id):
                await self.store.joined_server(guild_id)
                continue
            try:
                await self.erase_server(guild_id)
            except GameError:  # the database is busy: the next sweep
                continue
            erased.append(guild_id)
        return erased

    async def player_totals(self, guild_id: int, player_id: int) -> tuple[Record, MemberRecord]:
        """What :meth:`forget_player` would delete: the player's finished games of every
        game and board in this place (their own bot's, outside servers)."""
        return await self.store.player_totals(guild_id, player_id)

    async def forget_player(self, guild_id: int, player_id: int) -> tuple[Record, MemberRecord]:
        """Delete a player's games against the bot and records in this server, and take
        them out of their games with other members; the lessons stay, unnamed."""
        running = [
            g for g in self.flow.running.all() if g.guild_id == guild_id and player_id in g.members
        ]
        if running:
            raise GameError(
                N_(
                    "You have a game running in {channel}. Finish it or `{command} resign` "
                    "first, then ask again. Nothing was deleted.",
                    channel=f"<#{running[0].channel_id}>",
                    command=running[0].command,
                )
            )
        with busy_means_unchanged():
            return await self.store.forget_player(guild_id, player_id)
