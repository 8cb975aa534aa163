"""The game flow: a move, the bot's reply, learning and storing, in one place, without Discord."""

from data import ChallengeRecord, CurvePoint, MemberRecord, Record, Standing, TrainingRecord

from .brain import Brain, BrainChange, BrainFigures, BrainView, ImportPlan, parse_moves
from .challenges import CHALLENGE_SECONDS, FIRST_CHOICES, Challenges
from .endings import PLAYED_OUT
from .errors import GameError
from .game import BOARDS, Game, Turn
from .scores import Stats
from .service import LEVELS, GameService, cell_list
from .settings import GuildSettings, ServerSettings, channel_list
from .training import Trainer, TrainingProgress, TrainingRun

__all__ = [
    "BOARDS",
    "CHALLENGE_SECONDS",
    "FIRST_CHOICES",
    "LEVELS",
    "PLAYED_OUT",
    "Brain",
    "BrainChange",
    "BrainFigures",
    "BrainView",
    "ChallengeRecord",
    "Challenges",
    "CurvePoint",
    "Game",
    "GameError",
    "GameService",
    "GuildSettings",
    "ImportPlan",
    "MemberRecord",
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
