"""How the bot picks its move: from memory only, never by looking ahead.

1. a move known to win, the first in cell order;
2. otherwise the first cell (1..9 as people count) whose move is not a known loss,
   which is the seeds' "naive first available";
3. otherwise, every move being a known loss, the first free cell.

Deterministic, so people can watch the bot change its mind after a loss.
"""

from __future__ import annotations

from .board import Board
from .memory import LOST, OUTCOMES, WON, Memory, Outcome, read
from .rules import MOVES, is_over, string_to_code


def choose_code(table: bytearray, code: int) -> int:
    """The policy on raw codes and a memory's table: the hot path of training."""
    return choose_child(table, code)[0]


def choose_child(table: bytearray, code: int) -> tuple[int, int, int, int]:
    """The policy's move, as its entry in ``rules.MOVES``: ``(cell, child, …)``."""
    first_safe = None
    moves = MOVES[code]
    for move in moves:
        known = table[move[2]] >> move[3] & 3
        if known == WON:
            return move
        if first_safe is None and known != LOST:
            first_safe = move
    return first_safe if first_safe is not None else moves[0]


def choose_move(memory: Memory, position: str | Board) -> int:
    """The bot's move (0..8) in ``position``; the mover is whoever's turn it is.

    Raises ``ValueError`` for an illegal or finished position.
    """
    code = position.code if isinstance(position, Board) else string_to_code(position)
    if is_over(code):
        raise ValueError("the game is over; there is no move to choose")
    return choose_code(memory._table, code)


def outlook(memory: Memory, position: str | Board) -> dict[int, Outcome | None]:
    """What the memory knows of each free cell (0..8) for the player to move: a proven
    WIN, a proven LOSS, or ``None``. Raises ``ValueError`` for a finished position."""
    code = position.code if isinstance(position, Board) else string_to_code(position)
    if is_over(code):
        raise ValueError("the game is over; there is no move to look at")
    table = memory._table
    return {cell: OUTCOMES[read(table, child)] for cell, child, _, _ in MOVES[code]}
