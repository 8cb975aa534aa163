"""A tic-tac-toe brain that learns only from finished games.

Pure, synchronous Python: no Discord, no database. Cells are 0..8, row-major.

>>> import engine
>>> memory = engine.Memory()
>>> engine.choose_move(memory, ".........")
0
>>> engine.learn(memory, [0, 4, 1, 2, 3, 6])   # O wins on the 2-4-6 diagonal
2
"""

from __future__ import annotations

from collections.abc import Iterable

from .analysis import LiveAnalysis, Vulnerability, analyse, count_losing_lines, winning_replies
from .board import Board, IllegalMoveError
from .memory import LOSS, WIN, Fact, Lesson, Memory, Outcome
from .policy import choose_move, outlook
from .rules import Mark, canonical
from .training import TrainingReport, train
from .transport import MemoryFormatError, export_memory, import_memory


def learn(memory: Memory, moves: Iterable[int]) -> int:
    """Learn from one finished game; return the number of new facts."""
    return len(memory.learn(moves))


__all__ = [
    "LOSS",
    "WIN",
    "Board",
    "Fact",
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
    "export_memory",
    "import_memory",
    "learn",
    "outlook",
    "train",
    "winning_replies",
]
