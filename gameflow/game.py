"""What a game is: its players, its moves, how it ended, and what one request did to it."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import engine
from data import GameRecord
from engine import Board, Lesson, Mark
from i18n import N_

# The slash command group each game is played with (every Connect Four board: /connect4).
COMMANDS = {
    "tictactoe": "/ttt",
    "connect4": "/connect4",
    "connect4-5x4": "/connect4",
    "connect4-7x6": "/connect4",
}
# each game's name as people read it, in their language; a board's size in brackets, as
# names that end in a digit need it ("Puissance 4 (7×6)", never "Puissance 4 7×6")
TITLES = {
    "tictactoe": N_("Tic-tac-toe"),
    "connect4": N_("Connect Four (4×4)"),
    "connect4-5x4": N_("Connect Four (5×4)"),
    "connect4-7x6": N_("Connect Four (7×6)"),
}


@dataclass(frozen=True, slots=True)
class Game:
    id: int
    guild_id: int
    channel_id: int
    player_id: int
    bot_mark: Mark  # the mark of the player's opponent: the bot, or opponent_id
    moves: tuple[int, ...]
    result: str  # "running" or one of data.RESULTS
    message_id: int | None
    updated_at: float
    ended_by: int | None = None  # the moderator who ended it by hand, or who resigned
    opponent_id: int | None = None  # a member; None: the bot is the opponent
    kind: str = "tictactoe"  # which game: a name of engine.GAMES
    level: str = "learning"  # how hard the bot plays it (gameflow.service.LEVELS)
    # on 7x6, the bot's moves whose column its board model chose, as (ply, Suggestion):
    # kept while this process holds the game (not stored: a restart forgets them)
    suggested: tuple[tuple[int, engine.Suggestion], ...] = ()

    def suggestion_at(self, ply: int) -> engine.Suggestion | None:
        """Where the bot's move at ``ply`` (0-based) was the column its board model ranked
        first among those its facts and rules left open ("I had never been here; my
        lessons suggested column 3"): the model's ranking, else ``None``."""
        return next((found for at, found in self.suggested if at == ply), None)

    @property
    def rules(self) -> engine.Game:
        return engine.get_game(self.kind)

    @property
    def command(self) -> str:
        """The slash command group it is played with: ``/ttt``, ``/connect4``."""
        return COMMANDS[self.kind]

    @property
    def title(self):
        """The game's name, to be said in the reader's language."""
        return TITLES[self.kind]

    @property
    def board(self) -> Board:
        return Board.from_moves(self.moves, game=self.kind)

    @property
    def code(self) -> int:
        """The position's code, as :attr:`board` has it (without building a board)."""
        return _code(self.kind, self.moves)

    @property
    def player_mark(self) -> Mark:
        return self.bot_mark.other

    @property
    def running(self) -> bool:
        return self.result == "running"

    @property
    def ply(self) -> int:
        return len(self.moves)

    @property
    def vs_bot(self) -> bool:
        return self.opponent_id is None

    @property
    def members(self) -> tuple[int, ...]:
        """The people playing: one against the bot, two between members."""
        return (self.player_id,) if self.vs_bot else (self.player_id, self.opponent_id)

    def member_playing(self, mark: Mark) -> int | None:
        """Who plays ``mark``: a member's id, or ``None`` for the bot."""
        return self.player_id if mark is self.player_mark else self.opponent_id

    def mark_of(self, member_id: int) -> Mark | None:
        if member_id == self.player_id:
            return self.player_mark
        if member_id == self.opponent_id:
            return self.bot_mark
        return None

    @property
    def winner_id(self) -> int | None:
        """The member who won (``None``: the bot won, a draw, or not over)."""
        if self.result == "player_won":
            return self.player_id
        if self.result == "opponent_won":
            return self.opponent_id
        if self.result == "resigned" and not self.vs_bot:
            return self.opponent_id if self.ended_by == self.player_id else self.player_id
        return None

    @classmethod
    def from_record(cls, record: GameRecord) -> Game:
        return cls(
            record.id,
            record.guild_id,
            record.channel_id,
            record.player_id,
            Mark[record.bot_mark],
            record.moves,
            record.result,
            record.message_id,
            record.updated_at,
            record.ended_by,
            record.opponent_id,
            record.game,
            record.level,
        )


@functools.lru_cache(maxsize=4096)  # a board is drawn on every move, twice a render
def _code(kind: str, moves: tuple[int, ...]) -> int:
    return Board.from_moves(moves, game=kind).code


@dataclass(frozen=True, slots=True)
class Turn:
    """What one request did: the game as it now stands and what the bot did and learned."""

    game: Game
    bot_cell: int | None = None  # the bot's reply: a cell 0..8, or a column 0..W-1
    lessons: tuple[Lesson, ...] = ()
    memory_size: int = 0
    reviewing: bool = False  # a post-mortem runs: GameService.review(game id) gives its lesson
