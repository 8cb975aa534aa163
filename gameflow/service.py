"""The game flow: a person's move, the bot's reply, learning, storing. No Discord here.

The cogs call these methods and render what comes back; tests and the bot benchmark
call them directly. Every change is committed before a method returns, so nothing the
bot announces can be lost. Bad requests raise :class:`GameError` with a message meant
for the person, and change nothing.
"""

from __future__ import annotations

import random
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field, replace

import engine
from data import (
    ChannelBusyError,
    CurvePoint,
    GameRecord,
    MemberRecord,
    Record,
    Shards,
    StaleGameError,
    Standing,
    Store,
    StoreUnavailableError,
)
from data.stats import LEADERBOARD_ORDERS
from engine import Board, Lesson, Mark, Memory
from i18n import N_, Msg

from .brain import Brain, BrainFigures
from .challenges import Challenges
from .errors import ANOTHER_PLACES_CHANNEL, GameError, busy_means_unchanged
from .game import Game, Turn
from .memories import MEMORIES_KEPT, MEMORY_BYTES_KEPT, TICTACTOE, ServerMemories
from .settings import ServerSettings
from .training import Trainer

Clock = Callable[[], float]


class _StaleMemory(Exception):
    """The cached memory of a server is older than the store's (another process)."""


# How often the bot plays a random legal move instead of its choice, by level: at medium
# and easy a server whose bot is unbeatable can still win now and then. It learns from
# every finished game all the same: what it proves is true whatever chose the moves.
LEVELS = {"learning": 0.0, "medium": 0.2, "easy": 0.5}

# A server's data is deleted this long after the bot is removed from it, unless it is added
# back meanwhile (a public bot keeps no data it no longer needs).
KEEP_AFTER_LEAVING_SECONDS = 30 * 24 * 3600

# games played to the end: learned from (not a resignation or an abandoned game)
PLAYED_OUT = ("player_won", "bot_won", "opponent_won", "draw")


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


def cell_list(cells) -> str:
    return ", ".join(str(c + 1) for c in cells)


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


class GameService:
    def __init__(
        self,
        store: Store,
        *,
        timeout_seconds: float,
        clock: Clock = time.time,
        memories_kept: int = MEMORIES_KEPT,
        memory_bytes_kept: int = MEMORY_BYTES_KEPT,
        shards: Shards | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.shards = shards  # in a cluster: the servers this process runs; None: all
        self.settings = ServerSettings(store, default_timeout_seconds=timeout_seconds)
        self._games: dict[int, Game] = {}  # running games by channel, mirrored from the store
        self._busy: set[int] = set()  # channels with a request in progress
        self.memories = ServerMemories(store, kept=memories_kept, bytes_kept=memory_bytes_kept)
        self.brain = Brain(store, self.memories, clock)
        self.trainer = Trainer(store, self.memories, clock, shards=shards)
        self.challenges = Challenges(self)
        self.dice = random.Random()  # the levels' random moves

    @property
    def timeout_seconds(self) -> float:
        """The idle timeout of a server that has not set its own."""
        return self.settings.default_timeout_seconds

    async def load(self) -> list[Game]:
        """Pick up every running game and the servers' settings (at start-up and after a
        restart)."""
        await self.settings.load()
        await self.challenges.load()
        self._games = {
            r.channel_id: Game.from_record(r) for r in await self.store.running_games(self.shards)
        }
        return list(self._games.values())

    # --- memory -------------------------------------------------------------------
    async def memory(self, guild_id: int, game: str = TICTACTOE) -> Memory:
        """This server's memory of ``game``, read from the store once and then kept."""
        return await self.memories.get(guild_id, game)

    def cached_memory(self, guild_id: int, game: str = TICTACTOE) -> Memory | None:
        """The memory held for a server, if it has been read (for checks and tests)."""
        return self.memories.cached(guild_id, game)

    async def reset_memory(self, guild_id: int, game: str = TICTACTOE) -> int:
        async with self.memories.changing(guild_id, game):
            empty = Memory(game=game)
            with busy_means_unchanged():
                forgotten, version = await self.store.reset_memory(
                    guild_id, game=game, snapshot=BrainFigures.of(empty).snapshot()
                )
            self.memories.replace(guild_id, empty, version)
        return forgotten

    # --- one request at a time per channel ------------------------------------------
    @contextmanager
    def _one_request(self, channel_id: int) -> Iterator[None]:
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

    async def _still_running(self, channel_id: int) -> Game | None:
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

    def _own_game(self, channel_id: int, member_id: int, command: str | None = None) -> Game:
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
        game = self._games[record.channel_id] = Game.from_record(record)
        return game

    # --- the flow -----------------------------------------------------------------
    async def start(
        self,
        guild_id: int,
        channel_id: int,
        player_id: int,
        *,
        bot_first: bool,
        game: str = TICTACTOE,
        level: str = "learning",
    ) -> Turn:
        """Start a game of ``game`` against the bot, at ``level`` (one game per channel,
        whatever the game)."""
        if level not in LEVELS:
            raise GameError(
                N_(
                    "The level is one of {choices}, not `{level}`.",
                    choices=", ".join(LEVELS),
                    level=str(level),
                )
            )
        if channel_id in self._games and (running := await self._still_running(channel_id)):
            raise GameError(self.busy_channel_text(running, player_id))
        self.challenges.check_no_invitation(channel_id)
        self.settings.check_channel(guild_id, channel_id)
        with self._one_request(channel_id):
            memory = await self.memory(guild_id, game)
            bot_mark = Mark.X if bot_first else Mark.O
            moves = (self._bot_move(memory, Board(game=game), level),) if bot_first else ()
            try:
                async with self._storing(channel_id):
                    record = await self.store.start_game(
                        guild_id,
                        channel_id,
                        player_id,
                        bot_mark.name,
                        moves,
                        now=self.clock(),
                        game=game,
                        level=level,
                    )
            except ChannelBusyError as busy:  # another process or an old row got there first
                self._games[channel_id] = Game.from_record(busy.game)
                raise GameError(
                    self.busy_channel_text(self._games[channel_id], player_id)
                ) from None
            game = self._games[channel_id] = Game.from_record(record)
            return Turn(game, moves[0] if moves else None, (), len(memory))

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

    async def move(
        self,
        channel_id: int,
        player_id: int,
        cell: int,
        *,
        expected_ply: int | None = None,
        command: str | None = None,
    ) -> Turn:
        """A member plays ``cell`` (as people number them: a cell 1..9, a column 1..W); the
        bot replies (in a game against it); a finished game is learned from, whoever
        played it.

        ``expected_ply`` is the move count of the board the person was looking at (the
        buttons carry it), so a click on an out-of-date board is refused, not misapplied.
        ``command``: the slash command group the move came from, to refuse a move of
        another game.
        """
        await self.find_game(channel_id)
        self._own_game(channel_id, player_id, command)  # "no game" outranks "busy"
        with self._one_request(channel_id):
            # it may have ended while we waited
            game = self._own_game(channel_id, player_id, command)
            if expected_ply is not None and expected_ply != game.ply:
                raise GameError(
                    N_(
                        "That board is out of date: a move was played since. "
                        "Use the newest board, or `{command} board` to see it.",
                        command=game.command,
                    )
                )
            board = game.board
            if board.turn is not game.mark_of(player_id):
                if game.vs_bot:
                    raise GameError(N_("It's not your turn yet: wait for my move."))
                raise GameError(
                    N_(
                        "It's {player}'s turn: wait for their move.",
                        player=f"<@{game.member_playing(board.turn)}>",
                    )
                )
            rules = board.game
            cells = rules.move_word == "cell"
            free = cell_list(board.legal_moves)
            if not isinstance(cell, int) or not 1 <= cell <= rules.move_count:
                raise GameError(
                    N_(
                        "There is no cell {cell}. Pick a free cell from 1 to {last}: {free}.",
                        cell=str(cell),
                        last=rules.move_count,
                        free=free,
                    )
                    if cells
                    else N_(
                        "There is no column {cell}. Pick a free column from 1 to {last}: {free}.",
                        cell=str(cell),
                        last=rules.move_count,
                        free=free,
                    )
                )
            if cell - 1 not in board.legal_moves:
                raise GameError(
                    N_("Cell {cell} is taken. Free cells: {free}.", cell=cell, free=free)
                    if cells
                    else N_("Column {cell} is full. Free columns: {free}.", cell=cell, free=free)
                )
            board.push(cell - 1)
            bot_cell = None
            memory = await self.memory(game.guild_id, game.kind)
            if game.vs_bot and not board.is_game_over():
                bot_cell = self._bot_move(memory, board, game.level)
                board.push(bot_cell)
            if not board.is_game_over():
                moves, now = board.moves, self.clock()
                async with self._storing(channel_id):
                    await self.store.record_moves(game.id, game.moves, moves, now=now)
                # from the game as it is now: a board message may have been attached meanwhile
                played = replace(self._games.get(channel_id, game), moves=moves, updated_at=now)
                self._games[channel_id] = played
                return Turn(played, bot_cell, (), len(memory))
            return await self._finish(game, board.moves, self._result_of(game, board), bot_cell)

    async def rematch(
        self, game_id: int, channel_id: int, member_id: int
    ) -> tuple[Game, bool | str]:
        """What a finished game's Rematch asks for, the sides swapped: against the bot,
        whether the bot moves first in the next game; between members, who moves first
        in the invitation the asker sends the other (``"me"`` or ``"them"``). Raises
        :class:`GameError` if that game cannot be played again from this board."""
        record = await self.store.game(game_id)
        if record is None or record.channel_id != channel_id or record.result == "running":
            raise GameError(N_("That board has no game to play again. Start one with `/ttt play`."))
        game = Game.from_record(record)
        if member_id not in game.members:
            raise GameError(
                N_(
                    "Only the players of that game can ask for a rematch. Start your own with "
                    "`{command} play` or `{command} challenge`.",
                    command=game.command,
                )
            )
        if self.clock() - game.updated_at > self.settings.timeout_seconds(game.guild_id):
            raise GameError(
                N_(
                    "That board is too old for a rematch: start a new game with `{command} play`.",
                    command=game.command,
                )
            )
        if game.vs_bot:
            return game, game.bot_mark is Mark.O  # the bot moved second: now it goes first
        moved_first = game.member_playing(Mark.X) == member_id
        return game, "them" if moved_first else "me"

    async def resign(self, channel_id: int, member_id: int, command: str | None = None) -> Turn:
        """A player gives up: the other side wins. In a game between members, who
        resigned is kept, to know who won."""
        await self.find_game(channel_id)
        self._own_game(channel_id, member_id, command)
        with self._one_request(channel_id):
            game = self._own_game(channel_id, member_id, command)
            return await self._finish(
                game, game.moves, "resigned", ended_by=None if game.vs_bot else member_id
            )

    async def end_game(self, channel_id: int, moderator_id: int, *, guild_id: int) -> Turn:
        """A moderator of ``guild_id`` ends a stuck game there: abandoned, nothing learned,
        their name on it. A channel elsewhere (a DM's, another server's) is refused: a
        forged request can name any."""
        await self.find_game(channel_id)
        known = self._games.get(channel_id)
        if known is not None and known.guild_id != guild_id:
            raise GameError(ANOTHER_PLACES_CHANNEL)
        if channel_id not in self._games:
            raise GameError(
                N_(
                    "No game is running in {channel}, so there is nothing to end.",
                    channel=f"<#{channel_id}>",
                )
            )
        with self._one_request(channel_id):
            game = self._games.get(channel_id)
            if game is None:
                raise GameError(
                    N_(
                        "That game in {channel} has just ended by itself.",
                        channel=f"<#{channel_id}>",
                    )
                )
            return await self._finish(game, game.moves, "abandoned", ended_by=moderator_id)

    # --- a server's data ---------------------------------------------------------------
    async def left_server(self, guild_id: int) -> None:
        """The bot was removed from a server: its data goes in 30 days, unless it returns."""
        await self.store.left_server(guild_id, now=self.clock())

    async def joined_server(self, guild_id: int) -> None:
        await self.store.joined_server(guild_id)

    async def played_without_me(self, guild_id: int) -> None:
        """A game in a server the bot is not in (members use it through their own
        install): the server's data stays 30 days after its last game there, then goes
        as a departed server's does (unless the server adds the bot)."""
        await self.store.left_server(guild_id, now=self.clock())

    async def note_departures(self, present: set[int]) -> list[int]:
        """At start: the servers (of this process's shards) the bot keeps data about but is
        no longer in (removed while it was not running, so no event told it) start their
        30 days now. Returns them."""
        departed = set(await self.store.departed_before(float("inf"), self.shards))
        gone = [
            guild_id
            for guild_id in await self.store.servers_with_data(self.shards)
            if guild_id not in present and guild_id not in departed
        ]
        for guild_id in gone:
            await self.store.left_server(guild_id, now=self.clock())
        return gone

    async def erase_server(self, guild_id: int) -> int:
        """Delete everything about a server now (a training of it stops; nothing is kept).
        Returns the server's ID, once done."""
        run = self.trainer.running(guild_id)
        if run is not None:
            run.stop()
        with busy_means_unchanged():
            await self.store.erase_server(guild_id)
        for channel_id in [c for c, g in self._games.items() if g.guild_id == guild_id]:
            del self._games[channel_id]
        self.challenges.forget_server(guild_id)
        self.memories.forget_server(guild_id)
        self.settings.forget(guild_id)
        return guild_id

    async def erase_departed(self, still_in: Callable[[int], bool] = lambda _: False) -> list[int]:
        """Delete the data of the servers (of this process's shards) the bot left more than
        30 days ago and did not come back to; return them. ``still_in``: whether the bot is
        in a server now (added back while it was not running to hear it)."""
        cutoff = self.clock() - KEEP_AFTER_LEAVING_SECONDS
        erased = []
        for guild_id in await self.store.departed_before(cutoff, self.shards):
            if still_in(guild_id):
                await self.store.joined_server(guild_id)
                continue
            try:
                await self.erase_server(guild_id)
            except GameError:  # the database is busy: the next sweep
                continue
            erased.append(guild_id)
        return erased

    async def forget_player(self, guild_id: int, player_id: int) -> tuple[Record, MemberRecord]:
        """Delete a player's games against the bot and records in this server, and take
        them out of their games with other members; the lessons stay, unnamed."""
        running = [
            g for g in self._games.values() if g.guild_id == guild_id and player_id in g.members
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

    async def expire_idle(self) -> list[Turn]:
        """End as abandoned every game left without a move for its server's timeout.
        Nothing is learned."""
        now = self.clock()
        expired = []
        for channel_id, game in list(self._games.items()):
            deadline = now - self.settings.timeout_seconds(game.guild_id)
            if game.updated_at > deadline or channel_id in self._busy:
                continue  # a busy channel is being played in right now: not idle
            with self._one_request(channel_id):
                if self._games.get(channel_id) is not game:
                    continue
                try:
                    expired.append(await self._finish(game, game.moves, "abandoned"))
                except GameError:  # busy, or moved on elsewhere: look again next sweep
                    continue
        return expired

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
        if by not in LEADERBOARD_ORDERS:
            raise GameError(
                N_(
                    "Rank by {choices}, not `{by}`.",
                    choices=", ".join(LEADERBOARD_ORDERS),
                    by=str(by),
                )
            )
        return await self.store.leaderboard(guild_id, by, player_id=player_id, game=game)

    async def curve(self, guild_id: int, game: str = TICTACTOE) -> list[CurvePoint]:
        """The server's learning curve: at most about 500 points, however long its history."""
        return await self.store.curve(guild_id, game=game)

    async def stats(self, guild_id: int, player_id: int, game: str = TICTACTOE) -> Stats:
        memory = await self.memories.current(guild_id, game)
        figures = self._figures(guild_id, memory)
        if figures.ways_to_beat_as_x is None:  # not kept up to date for this game
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
        )

    # --- internals ----------------------------------------------------------------
    def _bot_move(self, memory: Memory, board: Board, level: str) -> int:
        """The bot's move: its choice, or at an easier level now and then a random one."""
        if self.dice.random() < LEVELS[level]:
            return self.dice.choice(board.legal_moves)
        return engine.choose_move(memory, board)

    def _figures(
        self, guild_id: int, memory: Memory, lessons: tuple[Lesson, ...] = ()
    ) -> BrainFigures:
        """Lessons and the ways to beat the bot (``lessons``: just learned into ``memory``)."""
        as_x, as_o = self.memories.ways_to_beat(
            guild_id, memory, [lesson.after for lesson in lessons]
        )
        return BrainFigures(len(memory), as_x, as_o)

    @asynccontextmanager
    async def _storing(self, channel_id: int) -> AsyncIterator[None]:
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
        # A reset or an import must not interleave with learning and storing; the memory
        # is the current one, after any of them. If storing fails, the cache is dropped.
        async with self.memories.changing(game.guild_id, game.kind) as memory:
            version = self.memories.version(game.guild_id, game.kind)
            if learning:
                lessons = tuple(memory.learn(moves))
            facts = [
                (engine.canonical(lesson.after, game.kind), lesson.outcome.value)
                for lesson in lessons
            ]
            # what the bot knows now: the learning curve's next point, if it changed
            snapshot = self._figures(game.guild_id, memory, lessons).snapshot() if lessons else None
            now = self.clock()
            async with self._storing(game.channel_id):
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
                    )
                except StaleGameError:
                    stale = learning and retry
                    if (
                        stale
                        and await self.store.memory_version(game.guild_id, game.kind) != version
                    ):
                        raise _StaleMemory from None
                    raise
        game = self._games.pop(game.channel_id, game)  # as it is now: its board message too
        return Turn(
            replace(game, moves=moves, result=result, updated_at=now, ended_by=ended_by),
            bot_cell,
            lessons,
            len(memory),
        )
