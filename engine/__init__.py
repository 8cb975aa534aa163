"""A brain that learns board games only from finished games: tic-tac-toe and Connect Four.

Pure, synchronous Python: no Discord, no database. A game is named (``"tictactoe"``, the
default; ``"connect4"``, 4×4; ``"connect4-5x4"``) and its rules live in one module
(:mod:`engine.tictactoe`, :mod:`engine.connect4`); everything else here serves every game.
Moves are 0-based: cells 0..8 row-major, columns 0..W-1 from the left.

>>> import engine
>>> memory = engine.Memory()
>>> engine.choose_move(memory, ".........")
0
>>> engine.learn(memory, [0, 4, 1, 2, 3, 6])   # O wins on the 2-4-6 diagonal
2
>>> four = engine.Memory(game="connect4")
>>> engine.choose_move(four, "................")
0
"""

from __future__ import annotations

from collections.abc import Iterable

from .analysis import LiveAnalysis, Vulnerability, analyse, count_losing_lines, winning_replies
from .board import Board, IllegalMoveError
from .games import GAMES, Game, Mark, get_game
from .memory import LOSS, WIN, Fact, Lesson, Memory, Outcome
from .policy import choose_move, outlook
from .training import TrainingReport, train
from .transport import MemoryFormatError, document_game, export_memory, import_memory


def learn(memory: Memory, moves: Iterable[int]) -> int:
    """Learn from one finished game; return the number of new facts."""
    return len(memory.learn(moves))


def canonical(position: str, game: str | Game = "tictactoe") -> str:
    """The orientation of ``position`` that stands for all its symmetries (what a memory
    stores)."""
    rules = get_game(game)
    return rules.spell(rules.canonical(rules.parse(position)))


__all__ = [
    "GAMES",
    "LOSS",
    "WIN",
    "Board",
    "Fact",
    "Game",
    "IllegalMoveError",
    "Lesson",
    "LiveAnalysis",
    "Mark",
    "Memory",
    "MemoryFormatError",
    "Outcome",
    "TrainingReport",
    "Vulnerability",
    "analyse",
    "canonical",
    "choose_move",
    "count_losing_lines",
    "document_game",
    "export_memory",
    "get_game",
    "import_memory",
    "learn",
    "outlook",
    "train",
    "winning_replies",
]
