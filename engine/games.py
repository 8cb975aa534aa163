"""The games the engine knows by name: :data:`GAMES` and :func:`get_game`.

What a game is lives in :mod:`engine.rules` (``Game``, ``Mark``, ``Move``, re-exported
here for callers); the game modules import that, never this registry, so this module
imports them at the top without a circle.
"""

from __future__ import annotations

from collections.abc import Callable

from .connect4 import ConnectFour
from .rules import Game, Mark, Move
from .tictactoe import TICTACTOE


def get_game(game: str | Game) -> Game:
    """A game by name (``"tictactoe"``, ``"connect4"``, ``"connect4-5x4"``,
    ``"connect4-7x6"``) or itself."""
    if isinstance(game, Game):
        return game
    found = GAMES.get(game) if isinstance(game, str) else None
    if found is None:
        raise ValueError(f"unknown game {game!r}; choose one of {', '.join(GAMES)}")
    return found()


def _connect4(width: int, height: int) -> Callable[[], Game]:
    made: list[Game] = []

    def make() -> Game:  # built on first use: its tables cost a little
        if not made:
            made.append(ConnectFour(width, height))
        return made[0]

    return make


GAMES: dict[str, Callable[[], Game]] = {
    "tictactoe": lambda: TICTACTOE,
    "connect4": _connect4(4, 4),
    "connect4-5x4": _connect4(5, 4),
    # the classic board: 49-bit codes, mirror symmetry, the centre-out policy
    "connect4-7x6": _connect4(7, 6),
}

__all__ = ["GAMES", "Game", "Mark", "Move", "get_game"]
