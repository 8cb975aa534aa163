"""The game flow: a move, the bot's reply, learning and storing, in one place, without Discord."""

from .brain import Brain, BrainChange, BrainFigures, ImportPlan
from .errors import GameError
from .service import Game, GameService, Stats, Turn, cell_list

__all__ = [
    "Brain",
    "BrainChange",
    "BrainFigures",
    "Game",
    "GameError",
    "GameService",
    "ImportPlan",
    "Stats",
    "Turn",
    "cell_list",
]
