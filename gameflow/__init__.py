"""The game flow: a move, the bot's reply, learning and storing, in one place, without Discord."""

from .service import Game, GameError, GameService, Stats, Turn, cell_list

__all__ = ["Game", "GameError", "GameService", "Stats", "Turn", "cell_list"]
