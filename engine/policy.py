"""How the bot picks its move: from memory only, never by looking ahead.

1. a move known to win, the first in the game's naive order;
2. otherwise the first move that is not a known loss: the first free cell (1..9 as people
   count) in tic-tac-toe, the leftmost column in Connect Four, the seeds' "naive first
   available";
3. otherwise, every move being a known loss, the first legal move.

Deterministic, so people can watch the bot change its mind after a loss.
"""

from __future__ import annotations

from collections.abc import Callable

from .board import Board
from .games import Game, Move
from .memory import LOST, OUTCOMES, WON, Memory, Outcome


def choose_child(game: Game, known: Callable[[int], int], code: int) -> Move:
    """The policy's move in an unfinished position, as ``(move, child, key)``; ``known``
    gives a key's value (see :func:`engine.memory.prove`). The hot path of training."""
    first_safe = None
    moves = game.moves(code)
    for move in moves:
        value = known(move[2])
        if value == WON:
            return move
        if first_safe is None and value != LOST:
            first_safe = move
    return first_safe if first_safe is not None else moves[0]


def choose_code(memory: Memory, code: int) -> int:
    """The policy's move in the position ``code`` of ``memory``'s game."""
    return choose_child(memory.game, memory.known, code)[0]


def _code(memory: Memory, position: str | Board) -> int:
    if isinstance(position, Board):
        if position.game is not memory.game:
            raise ValueError(f"a {position.game.title} board for a {memory.game.title} memory")
        return position.code
    return memory.game.parse(position)


def choose_move(memory: Memory, position: str | Board) -> int:
    """The bot's move in ``position`` (a cell 0..8, or a column 0..W-1); the mover is
    whoever's turn it is.

    Raises ``ValueError`` for an illegal or finished position.
    """
    code = _code(memory, position)
    if memory.game.moves(code) is None:
        raise ValueError("the game is over; there is no move to choose")
    return choose_child(memory.game, memory.known, code)[0]


def outlook(memory: Memory, position: str | Board) -> dict[int, Outcome | None]:
    """What the memory knows of each legal move for the player to move: a proven WIN, a
    proven LOSS, or ``None``. Raises ``ValueError`` for a finished position."""
    code = _code(memory, position)
    moves = memory.game.moves(code)
    if moves is None:
        raise ValueError("the game is over; there is no move to look at")
    known = memory.known
    return {move: OUTCOMES[known(key)] for move, _child, key in moves}
