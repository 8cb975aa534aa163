"""A brain that learns board games only from finished games: tic-tac-toe and Connect Four.

Pure, synchronous Python: no Discord, no database. A game is named (``"tictactoe"``, the
default; ``"connect4"``, 4×4; ``"connect4-5x4"``; ``"connect4-7x6"``, the classic board)
and its rules live in one module (:mod:`engine.tictactoe`, :mod:`engine.connect4`);
everything else here serves every game. Moves are 0-based: cells 0..8 row-major, columns
0..W-1 from the left. The classic board also learns from an exact solver's post-mortem
(:mod:`engine.postmortem`, :mod:`engine.solver`), when the solver is installed.

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
from .ordering import BoardModel
from .policy import Suggestion, choose_move, outlook, outlook_plies, suggestion
from .postmortem import Verdict, apply_post_mortem, describe_post_mortem, post_mortem
from .rules import Move
from .solver import SolverUnavailable, solver_available
from .training import TrainingReport, train
from .transport import (
    MemoryFormatError,
    WrongGameError,
    document_game,
    export_memory,
    import_memory,
)


def learn(
    memory: Memory, moves: Iterable[int], *, bot: Mark | int | None = None, widen: bool = True
) -> int:
    """Learn from one finished game; return the number of new facts.

    On the classic board (7×6), with the solver installed, the game's post-mortem runs
    here too, synchronously: for every position of the game (both sides', as for a game
    between members), or with ``bot`` (its mark) only where the bot was to move and only
    if it did not win; widened (the default, ``widen=False`` for comparison) to every
    position one other reply of the opponent would have made (see
    :func:`engine.postmortem.post_mortem`). Elsewhere ``bot`` and ``widen`` change
    nothing: the rules see the whole game.
    """
    moves = list(moves)
    new = len(memory.learn(moves))
    if memory.game.classic and solver_available():
        new += memory.add_proven(post_mortem(memory.game, moves, bot, widen=widen))
    return new


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
    "BoardModel",
    "Fact",
    "Game",
    "IllegalMoveError",
    "Lesson",
    "LiveAnalysis",
    "Mark",
    "Memory",
    "MemoryFormatError",
    "Move",
    "Outcome",
    "SolverUnavailable",
    "Suggestion",
    "TrainingReport",
    "Verdict",
    "Vulnerability",
    "WrongGameError",
    "analyse",
    "apply_post_mortem",
    "canonical",
    "choose_move",
    "count_losing_lines",
    "describe_post_mortem",
    "document_game",
    "export_memory",
    "get_game",
    "import_memory",
    "learn",
    "outlook",
    "outlook_plies",
    "post_mortem",
    "solver_available",
    "suggestion",
    "train",
    "winning_replies",
]
