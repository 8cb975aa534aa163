"""A minimax oracle written independently of the engine's tables, to judge its facts."""

from __future__ import annotations

from functools import cache

_LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def winner(position: str) -> str | None:
    for a, b, c in _LINES:
        if position[a] != "." and position[a] == position[b] == position[c]:
            return position[a]
    return None


@cache
def value(position: str) -> int:
    """+1, 0 or -1 for the player to move in ``position``, under perfect play."""
    to_move = "X" if position.count("X") == position.count("O") else "O"
    if winner(position):
        return -1  # the player who just moved has won
    free = [i for i, ch in enumerate(position) if ch == "."]
    if not free:
        return 0
    return max(-value(position[:i] + to_move + position[i + 1 :]) for i in free)


def true_outcome(position: str) -> str | None:
    """'win', 'loss' or None (a draw) for the move that produced ``position``."""
    v = value(position)
    return {-1: "win", 1: "loss", 0: None}[v]
