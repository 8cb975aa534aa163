"""The game flow: a move, the bot's reply, learning and storing, in one place, without Discord."""

from data import Record, Standing, TrainingRecord

from .brain import Brain, BrainChange, BrainFigures, BrainView, ImportPlan, parse_moves
from .errors import GameError
from .service import Game, GameService, Stats, Turn, cell_list
from .settings import GuildSettings, ServerSettings, channel_list
from .training import Trainer, TrainingProgress, TrainingRun

__all__ = [
    "Brain",
    "BrainChange",
    "BrainFigures",
    "BrainView",
    "Game",
    "GameError",
    "GameService",
    "GuildSettings",
    "ImportPlan",
    "Record",
    "ServerSettings",
    "Standing",
    "Stats",
    "Trainer",
    "TrainingProgress",
    "TrainingRecord",
    "TrainingRun",
    "Turn",
    "cell_list",
    "channel_list",
    "parse_moves",
]
