"""The game flow: a person's move, the bot's reply, learning, storing. No Discord here.

The cogs call these methods and render what comes back; tests and the bot benchmark
call them directly. Every change is committed before a method returns, so nothing the
bot announces can be lost. Bad requests raise :class:`GameError` with a message meant
for the person, and change nothing.

The service builds the collaborators the flow uses and keeps the rest apart: the running
games (``running``), a server's data over time (``servers``), records and stats
(``scoreboard``), invitations, training, the brain and the settings. None of them imports
this module; one that needs the service says what of it in a ``Protocol``. The service
itself holds the flow of a game; how a game ends (learning and storing) is
:mod:`gameflow.endings`. Callers name the collaborator that does the work
(``service.running.find_game``, ``service.scoreboard.stats``, ``service.servers.forget_player``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import replace

import engine
from data import ChannelBusyError, Shards, Store
from engine import Board, BoardModel, Mark, Memory
from i18n import N_

from .brain import Brain, BrainFigures
from .challenges import Challenges, check_first
from .endings import GameEndings
from .errors import ANOTHER_PLACES_CHANNEL, GameError, busy_means_unchanged
from .game import Game, Turn
from .memories import MEMORIES_KEPT, MEMORY_BYTES_KEPT, TICTACTOE, ServerMemories
from .postmortem import PostMortemWorker
from .puzzles import Puzzles
from .ratings import reset_bot
from .replays import Replays
from .reviews import ReviewOutcome, Reviews
from .running import RunningGames
from .scores import Scoreboard
from .servers import ServerData
from .settings import ServerSettings
from .training import Trainer

Clock = Callable[[], float]

# How often the bot plays a random legal move instead of its choice, by level: at medium
# and easy a server whose bot is unbeatable can still win now and then. It learns from
# every finished game all the same: what it proves is true whatever chose the moves.
LEVELS = {"learning": 0.0, "medium": 0.2, "easy": 0.5}
PLAY_FIRST = ("me", "bot")  # who moves first in a game against the bot, as members choose


def cell_list(cells) -> str:
    """Moves in reading order (the classic board lists its legal ones centre out)."""
    return ", ".join(str(c + 1) for c in sorted(cells))


class GameService(GameEndings):
    def __init__(
        self,
        store: Store,
        *,
        timeout_seconds: float,
        clock: Clock = time.time,
        memories_kept: int = MEMORIES_KEPT,
        memory_bytes_kept: int = MEMORY_BYTES_KEPT,
        shards: Shards | None = None,
        post_mortems: PostMortemWorker | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.shards = shards  # in a cluster: the servers this process runs; None: all
        self.settings = ServerSettings(store, default_timeout_seconds=timeout_seconds)
        self.running = RunningGames(store)
        self.memories = ServerMemories(store, kept=memories_kept, bytes_kept=memory_bytes_kept)
        self.brain = Brain(store, self.memories, clock)
        self.trainer = Trainer(store, self.memories, clock, shards=shards)
        self.challenges = Challenges(self)
        self.servers = ServerData(self)
        self.scoreboard = Scoreboard(store, self.memories)
        # the classic board's post-mortems; post_mortems: the solver's worker (tests pass
        # one without the solver)
        self.reviews = Reviews(store, self.memories, clock, post_mortems or PostMortemWorker())
        self.dice = random.Random()  # the levels' random moves
        self.replays = Replays(store, self.memories)  # finished games watched again, and histories
        # puzzles, cut from each post-mortem from now on
        self.puzzles = Puzzles(store, self.memories, self.reviews.worker, clock)
        self.reviews.reviewed.append(self.puzzles.cut)

    @property
    def timeout_seconds(self) -> float:
        """The idle timeout of a server that has not set its own."""
        return self.settings.default_timeout_seconds

    async def load(self) -> list[Game]:
        """Pick up every running game and the servers' settings (at start-up and after a
        restart)."""
        await self.settings.load()
        await self.challenges.load()
        running = await self.running.load(self.shards)
        await self.reviews.resume(self.shards)  # post-mortems a kill interrupted
        return running

    async def review(self, game_id: int) -> ReviewOutcome | None:
        """The lesson of a game's post-mortem (a Turn said ``reviewing``, or one resumed
        at start: ``reviews.recovered``), once it is stored; ``None`` if it could not
        run now (it stays pending for the next start)."""
        return await self.reviews.outcome(game_id)

    async def close(self) -> None:
        """Stop the post-mortems' worker (the bot is closing)."""
        await self.reviews.close()

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
            with busy_means_unchanged():
                await reset_bot(self.store, guild_id, game, self.clock())
        return forgotten

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
                    "The level must be one of {choices}, not `{level}`.",
                    choices=", ".join(LEVELS),
                    level=str(level),
                )
            )
        if self.running.running_game(channel_id) is not None and (
            running := await self.running.still_running(channel_id)
        ):
            raise GameError(self.running.busy_channel_text(running, player_id))
        self.challenges.check_no_invitation(channel_id)
        self.settings.check_channel(guild_id, channel_id)
        with self.running.one_request(channel_id):
            memory = await self.memory(guild_id, game)
            bot_mark = Mark.X if bot_first else Mark.O
            moves, suggestion = (), None
            if bot_first:
                model = await self._model(guild_id, game, level)
                memory = await self.memory(guild_id, game)  # as it is now
                bot_cell, suggestion = self._bot_move(memory, Board(game=game), level, model)
                moves = (bot_cell,)
            try:
                async with self.running.storing(channel_id):
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
                raise GameError(
                    self.running.busy_channel_text(self.running.adopt(busy.game), player_id)
                ) from None
            game = self.running.adopt(record)
            if suggestion is not None:
                game = self.running.keep(replace(game, suggested=((0, suggestion),)))
            return Turn(game, moves[0] if moves else None, (), len(memory))

    async def play(
        self,
        guild_id: int,
        channel_id: int,
        player_id: int,
        first: str,
        *,
        game: str = TICTACTOE,
        level: str = "learning",
    ) -> Turn:
        """A member's ``play``: :meth:`start`, with who moves first as they chose it
        (one of :data:`PLAY_FIRST`), checked like the level."""
        check_first(first, PLAY_FIRST)
        return await self.start(
            guild_id, channel_id, player_id, bot_first=first == "bot", game=game, level=level
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
        await self.running.find_game(channel_id)
        self.running.own_game(channel_id, player_id, command)  # "no game" outranks "busy"
        with self.running.one_request(channel_id):
            # it may have ended while we waited
            game = self.running.own_game(channel_id, player_id, command)
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
            legal = board.legal_moves
            # the free moves are said only to refuse a move: not listed for every move played
            free = "" if isinstance(cell, int) and cell - 1 in legal else cell_list(legal)
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
            if cell - 1 not in legal:
                raise GameError(
                    N_("Cell {cell} is taken. Free cells: {free}.", cell=cell, free=free)
                    if cells
                    else N_("Column {cell} is full. Free columns: {free}.", cell=cell, free=free)
                )
            board.push(cell - 1)
            bot_cell = None
            memory = await self.memory(game.guild_id, game.kind)
            suggested = game.suggested
            if game.vs_bot and not board.is_game_over():
                model = await self._model(game.guild_id, game.kind, game.level)
                memory = await self.memory(game.guild_id, game.kind)  # as it is now
                bot_cell, suggestion = self._bot_move(memory, board, game.level, model)
                if suggestion is not None:
                    suggested = (*suggested, (len(board.moves), suggestion))
                board.push(bot_cell)
            if suggested is not game.suggested:
                game = replace(game, suggested=suggested)
            if not board.is_game_over():
                moves, now = board.moves, self.clock()
                async with self.running.storing(channel_id):
                    await self.store.record_moves(game.id, game.moves, moves, now=now)
                # from the game as it is now: a board message may have been attached meanwhile
                played = self.running.keep(
                    replace(
                        self.running.running_game(channel_id) or game,
                        moves=moves,
                        updated_at=now,
                        suggested=game.suggested,
                    )
                )
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
        await self.running.find_game(channel_id)
        self.running.own_game(channel_id, member_id, command)
        with self.running.one_request(channel_id):
            game = self.running.own_game(channel_id, member_id, command)
            return await self._finish(
                game, game.moves, "resigned", ended_by=None if game.vs_bot else member_id
            )

    async def end_game(self, channel_id: int, moderator_id: int, *, guild_id: int) -> Turn:
        """A moderator of ``guild_id`` ends a stuck game there: abandoned, nothing learned,
        their name on it. A channel elsewhere (a DM's, another server's) is refused: a
        forged request can name any."""
        known = await self.running.find_game(channel_id)
        if known is not None and known.guild_id != guild_id:
            raise GameError(ANOTHER_PLACES_CHANNEL)
        if known is None:
            raise GameError(
                N_(
                    "No game is running in {channel}, so there is nothing to end.",
                    channel=f"<#{channel_id}>",
                )
            )
        with self.running.one_request(channel_id):
            game = self.running.running_game(channel_id)
            if game is None:
                raise GameError(
                    N_(
                        "That game in {channel} has just ended by itself.",
                        channel=f"<#{channel_id}>",
                    )
                )
            return await self._finish(game, game.moves, "abandoned", ended_by=moderator_id)

    async def expire_idle(self) -> list[Turn]:
        """End as abandoned every game left without a move for its server's timeout.
        Nothing is learned."""
        now = self.clock()
        expired = []
        for game in self.running.all():
            channel_id = game.channel_id
            deadline = now - self.settings.timeout_seconds(game.guild_id)
            if game.updated_at > deadline or self.running.is_busy(channel_id):
                continue  # a busy channel is being played in right now: not idle
            with self.running.one_request(channel_id):
                if self.running.running_game(channel_id) is not game:
                    continue
                try:
                    expired.append(await self._finish(game, game.moves, "abandoned"))
                except GameError:  # busy, or moved on elsewhere: look again next sweep
                    continue
        return expired

    # --- internals ----------------------------------------------------------------
    async def _model(self, guild_id: int, game: str, level: str) -> BoardModel | None:
        """The board model that orders the bot's open columns: on the classic board, at
        the learning level only (the easier levels play as before)."""
        if level != "learning":
            return None
        return await self.memories.model(guild_id, game)

    def _bot_move(
        self, memory: Memory, board: Board, level: str, model: BoardModel | None = None
    ) -> tuple[int, engine.Suggestion | None]:
        """The bot's move: its choice, or at an easier level now and then a random one;
        with where its board model chose it (``model``: the learning level's, on 7x6)."""
        if self.dice.random() < LEVELS[level]:
            return self.dice.choice(board.legal_moves), None
        suggestion = engine.suggestion(memory, board, model)
        if suggestion is not None:  # the model ranked the open columns: its first
            return suggestion.column, suggestion
        return engine.choose_move(memory, board), None
