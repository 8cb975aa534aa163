"""The running games, one per channel, as this process holds them, and one request at a
time per channel. The cache mirrors the store; a refusal that rests on it is checked
against the store first, since another process may have moved the game on.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import replace

from data import GameRecord, Shards, StaleGameError, Store, StoreUnavailableError
from i18n import N_, Msg

from .errors import GameError, busy_means_unchanged
from .game import Game


def game_moved_on(command: str) -> Msg:
    return N_(
        "That game changed while I was handling your request (another copy of me got there "
        "first), so nothing was played. `{command} board` shows the game as it is now.",
        command=command,
    )


def no_game_here(command: str) -> Msg:
    return N_(
        "No game is running in this channel. Start one with `{command} play`.", command=command
    )


class RunningGames:
    """The running games by channel, mirrored from the store, and the channels with a
    request in progress."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._games: dict[int, Game] = {}  # running games by channel, mirrored from the store
        self._busy: set[int] = set()  # channels with a request in progress

    async def load(self, shards: Shards | None) -> list[Game]:
        """Hold every running game of ``shards`` (``None``: all), as the store has them."""
        self._games = {
            r.channel_id: Game.from_record(r) for r in await self.store.running_games(shards)
        }
        return list(self._games.values())

    def all(self) -> list[Game]:
        return list(self._games.values())

    def keep(self, game: Game) -> Game:
        """Hold ``game`` as its channel's running game, as it is now."""
        self._games[game.channel_id] = game
        return game

    def ended(self, game: Game) -> Game:
        """Let go of ``game``, which has ended; returns it as it was held (with the board
        message attached meanwhile, if any)."""
        return self._games.pop(game.channel_id, game)

    def forget_server(self, guild_id: int) -> None:
        """Let go of a server's games (its data was erased)."""
        for channel_id in [c for c, g in self._games.items() if g.guild_id == guild_id]:
            del self._games[channel_id]

    def is_busy(self, channel_id: int) -> bool:
        return channel_id in self._busy

    # --- one request at a time per channel ------------------------------------------
    @contextmanager
    def one_request(self, channel_id: int) -> Iterator[None]:
        """Hold the channel for one request; a second one meanwhile is refused."""
        if channel_id in self._busy:
            raise GameError(
                N_(
                    "Not so fast: the last move here is still being played. "
                    "Wait for my reply, then make your move."
                )
            )
        self._busy.add(channel_id)
        try:
            yield
        finally:
            self._busy.discard(channel_id)

    def running_game(self, channel_id: int) -> Game | None:
        """The channel's running game as this process holds it (see :meth:`find_game`)."""
        return self._games.get(channel_id)

    async def still_running(self, channel_id: int) -> Game | None:
        """The channel's game as the store has it, before a refusal rests on the cached one:
        another process may have ended it."""
        record = await self.store.running_game(channel_id)
        if record is None:
            self._games.pop(channel_id, None)
            return None
        game = self._games.get(channel_id)
        if game is None or game.id != record.id or game.moves != record.moves:
            game = self._games[channel_id] = Game.from_record(record)
        return game

    async def find_game(self, channel_id: int) -> Game | None:
        """The channel's running game; on a miss, as the store has it. Another process
        on the same server (an overlapping deploy, a re-shard) may have started it, and
        "no game here" must be true before it is said."""
        game = self._games.get(channel_id)
        if game is None:
            record = await self.store.running_game(channel_id)
            game = self._games.get(channel_id)  # it may have come meanwhile
            if game is None and record is not None:
                game = self._games[channel_id] = Game.from_record(record)
        return game

    def own_game(self, channel_id: int, member_id: int, command: str | None = None) -> Game:
        """The channel's game, if ``member_id`` plays in it (and, with ``command``, if it is
        played with that slash command group, such as ``/connect4``)."""
        game = self._games.get(channel_id)
        if game is None:
            raise GameError(no_game_here(command or "/ttt"))
        if member_id not in game.members:
            mine = command or game.command
            raise GameError(
                N_(
                    "This is {player}'s game. Wait for it to end, then start your own with "
                    "`{command} play` or `{command} challenge`.",
                    player=f"<@{game.player_id}>",
                    command=mine,
                )
                if game.vs_bot
                else N_(
                    "This game is between {player} and {opponent}. Wait for it to end, then "
                    "start your own with `{command} play` or `{command} challenge`.",
                    player=f"<@{game.player_id}>",
                    opponent=f"<@{game.opponent_id}>",
                    command=mine,
                )
            )
        if command is not None and command != game.command:
            raise GameError(
                N_(
                    "The game in this channel is {title}: play it with `{command} move` or "
                    "its board's buttons.",
                    title=game.title,
                    command=game.command,
                )
            )
        return game

    def adopt(self, record: GameRecord) -> Game:
        """Take over a game started elsewhere in the flow (an accepted challenge)."""
        return self.keep(Game.from_record(record))

    @staticmethod
    def busy_channel_text(game: Game, member_id: int) -> Msg:
        if member_id in game.members:
            return N_(
                "You already have a game of {title} running in this channel. "
                "`{command} board` shows it; `{command} resign` gives it up so you can start "
                "another.",
                title=game.title,
                command=game.command,
            )
        if game.vs_bot:
            return N_(
                "{player} is already playing in this channel. Wait for that game to end, "
                "or start yours in another channel.",
                player=f"<@{game.player_id}>",
            )
        return N_(
            "{player} and {opponent} are already playing in this channel. Wait for that game "
            "to end, or start yours in another channel.",
            player=f"<@{game.player_id}>",
            opponent=f"<@{game.opponent_id}>",
        )

    async def attach_message(self, game: Game, message_id: int) -> int | None:
        """Remember which message now shows the game's board, to update it later.

        Returns the message that showed it until now (``None``: none), to delete. It is
        swapped before anything is awaited, so boards answered in quick succession (a move
        made before the last board's attachment was saved) are attached in the order they
        were posted, and each one replaces the one before.
        """
        current = self._games.get(game.channel_id)
        previous = game.message_id
        if current is not None and current.id == game.id:
            previous = current.message_id
            self._games[game.channel_id] = replace(current, message_id=message_id)
        await self.store.set_message(game.id, message_id)
        return previous

    @asynccontextmanager
    async def storing(self, channel_id: int) -> AsyncIterator[None]:
        """Turn a write that changed nothing into a true answer for the person.

        A lost race (another process wrote the game first) also refreshes this channel's
        game from the store, so the next request sees the game as it really stands.
        """
        try:
            with busy_means_unchanged():
                try:
                    yield
                except StoreUnavailableError as lost:
                    if lost.maybe_written:  # read the game afresh next time: it may have moved
                        self._games.pop(channel_id, None)
                    raise
        except StaleGameError:
            known = self._games.get(channel_id)
            record = await self.store.running_game(channel_id)
            if record is None:
                self._games.pop(channel_id, None)
            else:
                known = self._games[channel_id] = Game.from_record(record)
            raise GameError(game_moved_on(known.command if known else "/ttt")) from None
