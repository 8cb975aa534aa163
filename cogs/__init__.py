"""The Discord face: slash commands, buttons and rendering. Game logic lives in gameflow."""

from .admin import Admin
from .ttt import TicTacToe

__all__ = ["Admin", "TicTacToe"]
