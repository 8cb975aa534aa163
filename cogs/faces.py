"""Every game's slash commands, declared once each (:class:`cogs.game_commands.GameFace`),
in the order Discord lists them: ``/ttt``, then ``/connect4``. A third game is one more
declaration here; a board, one more entry in its game's ``boards``."""

from __future__ import annotations

from .connect4 import CONNECT4
from .ttt import TTT

FACES = (TTT, CONNECT4)
# every game the bot plays, by its name: tictactoe, connect4-7x6, connect4, connect4-5x4
GAME_NAMES = tuple(game for face in FACES for game in face.boards.values())
