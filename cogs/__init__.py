"""The Discord face: slash commands, buttons and rendering. Game logic lives in gameflow."""

from .admin import Admin
from .faces import FACES
from .game_commands import game_group
from .table import Table

__all__ = ["FACES", "Admin", "Table", "game_group"]
