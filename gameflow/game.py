"""What a game is: its players, its moves, how it ended, and what one request did to it."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import engine
from data import GameRecord
from engine import Board, Lesson, Mark
from i18n import N_, Msg


@dataclass(frozen=True, slots=True)
class BoardRecord:
    """One board as the game flow and both faces know it. A new board is its rules module,
    an entry in :data:`engine.GAMES`, one record here and one look in the Discord face's
    :data:`cogs.utils.boards.LOOKS` (``tests/test_project.py`` checks they name the same
    boards)."""

    game: str  # its name in engine.GAMES
    size: str  # as members type it (`/connect4 play board: 7x6`) and the terminal's --board
    command: str  # the slash command group it is played with
    # its name as people read it, in their language; a board's size in brackets, as names
    # that end in a digit need it ("Puissance 4 (7×6)", never "Puissance 4 7×6")
    title: Msg
    example: str  # moves in play order, as a refusal's example
    import_bytes: int  # the largest memory file an import reads
    import_facts: int  # and the most facts it takes from one
    puzzles: bool = False  # its post-mortems' lessons become puzzles (gameflow.puzzles)


# Every board, in the order Discord lists them: /ttt's, then /connect4's (its first is the
# default). Import limits: a complete tic-tac-toe memory is about 30 KiB, with fewer than
# 1,000 facts. 4x4 has 80,540 positions a lesson can be about (a complete memory: 4.4 MB
# in version 1). A 5x4 memory of 285,000 lessons (250,000 games of self-play) exports to
# 0.9 MB in version 2 (19.5 MB in version 1, which files made before still hold, so they
# are read up to 32 MiB; about 9 s to check either, in a thread: python -m bench.loop);
# 2,000,000 facts, far more than training makes, are at most 14 MB in version 2 even
# written one a line. The classic board: a widened memory after 2,000 club games has
# 120-130k facts, about 106 bytes each as people read them (version 1), 11 compact
# (version 2, which export writes past Discord's file limit). Each is re-proven by the
# solver, in a worker process: 44,743 widened facts of 400 games took 42 s of CPU (0.93 ms
# a fact: the columns of a position share one solver call), so 300,000 take about
# 5 minutes, within an interaction's 15.
BOARDS: dict[str, BoardRecord] = {
    record.game: record
    for record in (
        BoardRecord("tictactoe", "3x3", "/ttt", N_("Tic-tac-toe"), "5 1 9", 1 << 20, 10_000),
        BoardRecord(
            "connect4-7x6", "7x6", "/connect4", N_("Connect Four (7×6)"), "4 4 3",
            16 << 20, 300_000, puzzles=True,
        ),
        BoardRecord(
            "connect4", "4x4", "/connect4", N_("Connect Four (4×4)"), "2 3 3", 8 << 20, 80_540
        ),
        BoardRecord(
            "connect4-5x4", "5x4", "/connect4", N_("Connect Four (5×4)"), "3 3 4",
            32 << 20, 2_000_000,
        ),
    )
}  # fmt: skip
TICTACTOE = "tictactoe"  # the default game of an old record, a test or a command


def boards_of(command: str) -> dict[str, str]:
    """The boards of a slash command group, by size as members type them: their games."""
    return {r.size: r.game for r in BOARDS.values() if r.command == command}


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
        return BOARDS[self.kind].command

    @property
    def title(self):
        """The game's name, to be said in the reader's language."""
        return BOARDS[self.kind].title

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
    ratings: tuple = ()  # the game's rating changes (gameflow.ratings.RatingChange)
