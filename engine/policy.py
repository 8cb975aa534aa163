"""How the bot picks its move: from memory only, never by looking ahead.

1. a move known to win, the first in cell order;
2. otherwise the first cell (1..9 as people count) whose move is not a known loss,
   which is the seeds' "naive first available";
3. otherwise, every move being a known loss, the first free cell.

Deterministic, so people can watch the bot change its mind after a loss.
"""

from __future__ import annotations

from .board import Board
from .memory import LOSS, WIN, Memory, Outcome
from .rules import CANON, EMPTIES, MOVES, POW3, is_over, string_to_code


def choose_code(facts: dict[int, Outcome], code: int) -> int:
    """The policy on raw codes: the hot path of training and analysis."""
    return choose_child(facts, code)[0]


def choose_child(facts: dict[int, Outcome], code: int) -> tuple[int, int, int]:
    """The policy's move as ``(cell, child code, canonical child code)``."""
    first_safe = None
    get = facts.get
    for move in MOVES[code]:
        known = get(move[2])
        if known is WIN:
            return move
        if first_safe is None and known is not LOSS:
            first_safe = move
    return first_safe if first_safe is not None else MOVES[code][0]


def choose_move(memory: Memory, position: str | Board) -> int:
    """The bot's move (0..8) in ``position``; the mover is whoever's turn it is.

    Raises ``ValueError`` for an illegal or finished position.
    """
    code = position.code if isinstance(position, Board) else string_to_code(position)
    if is_over(code):
        raise ValueError("the game is over; there is no move to choose")
    return choose_code(memory._facts, code)


def outlook(memory: Memory, position: str | Board) -> dict[int, Outcome | None]:
    """What the memory knows of each free cell (0..8) for the player to move: a proven
    WIN, a proven LOSS, or ``None``. Raises ``ValueError`` for a finished position."""
    code = position.code if isinstance(position, Board) else string_to_code(position)
    if is_over(code):
        raise ValueError("the game is over; there is no move to look at")
    mark = 1 if len(EMPTIES[code]) % 2 else 2
    facts = memory._facts
    return {cell: facts.get(CANON[code + mark * POW3[cell]]) for cell in EMPTIES[code]}
