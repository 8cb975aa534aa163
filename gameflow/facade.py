"""The game flow's collaborators' methods under the service's own names, for today's
callers (the cogs, the terminal, tests and benchmarks): each is one line into its
collaborator, and can go once its callers name the collaborator."""

from __future__ import annotations

from collections.abc import Callable

from data import CurvePoint, GameRecord, MemberRecord, Record, Standing

from .game import Game
from .memories import TICTACTOE
from .running import RunningGames
from .scores import Scoreboard, Stats
from .servers import ServerData


class ServiceFacade:
    """Part of :class:`gameflow.service.GameService`: what it needs of the service is
    declared below."""

    running: RunningGames
    servers: ServerData
    scoreboard: Scoreboard

    @property
    def _games(self) -> dict[int, Game]:
        """A copy of the running games by channel (tests read it under this name)."""
        return {game.channel_id: game for game in self.running.all()}

    def running_game(self, channel_id: int) -> Game | None:
        return self.running.running_game(channel_id)

    async def find_game(self, channel_id: int) -> Game | None:
        return await self.running.find_game(channel_id)

    def adopt(self, record: GameRecord) -> Game:
        return self.running.adopt(record)

    busy_channel_text = staticmethod(RunningGames.busy_channel_text)

    async def attach_message(self, game: Game, message_id: int) -> int | None:
        return await self.running.attach_message(game, message_id)

    async def left_server(self, guild_id: int) -> None:
        await self.servers.left_server(guild_id)

    async def joined_server(self, guild_id: int) -> None:
        await self.servers.joined_server(guild_id)

    async def played_without_me(self, guild_id: int) -> None:
        await self.servers.played_without_me(guild_id)

    async def note_departures(self, present: set[int]) -> list[int]:
        return await self.servers.note_departures(present)

    async def erase_server(self, guild_id: int) -> int:
        return await self.servers.erase_server(guild_id)

    async def erase_departed(self, still_in: Callable[[int], bool] = lambda _: False) -> list[int]:
        return await self.servers.erase_departed(still_in)

    async def forget_player(self, guild_id: int, player_id: int) -> tuple[Record, MemberRecord]:
        return await self.servers.forget_player(guild_id, player_id)

    async def player_totals(self, guild_id: int, player_id: int) -> tuple[Record, MemberRecord]:
        return await self.servers.player_totals(guild_id, player_id)

    async def record(
        self, guild_id: int, player_id: int | None = None, game: str = TICTACTOE
    ) -> Record:
        return await self.scoreboard.record(guild_id, player_id, game)

    async def records(
        self, guild_id: int, player_id: int, game: str = TICTACTOE
    ) -> tuple[Record, MemberRecord]:
        return await self.scoreboard.records(guild_id, player_id, game)

    async def leaderboard(
        self, guild_id: int, player_id: int, by: str = "lessons", game: str = TICTACTOE
    ) -> tuple[list[Standing], Standing | None]:
        return await self.scoreboard.leaderboard(guild_id, player_id, by, game)

    async def wins_by_level(
        self, guild_id: int, player_id: int, game: str = TICTACTOE
    ) -> dict[str, int]:
        return await self.scoreboard.wins_by_level(guild_id, player_id, game)

    async def curve(self, guild_id: int, game: str = TICTACTOE) -> list[CurvePoint]:
        return await self.scoreboard.curve(guild_id, game)

    async def losses_by_block(self, guild_id: int, game: str) -> list[tuple[int, int]]:
        return await self.scoreboard.losses_by_block(guild_id, game)

    async def stats(self, guild_id: int, player_id: int, game: str = TICTACTOE) -> Stats:
        return await self.scoreboard.stats(guild_id, player_id, game)
