"""The Discord face: slash commands, buttons and rendering. Game logic lives in gameflow."""

from .admin import Admin
from .connect4 import ConnectFour
from .table import TicTacToe

__all__ = ["Admin", "ConnectFour", "TicTacToe"]
