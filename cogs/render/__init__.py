"""How a game looks in Discord: the embed around the board, the board's buttons, stats,
trainings and the leaderboard. What differs by game (the board itself, a cell or a column)
is in each game's look (:mod:`cogs.boards`).

One module per thing drawn; here, only the names the rest of the bot imports."""

from .admin import (
    brain_change_text,
    interrupted_training_embed,
    memory_file_name,
    settings_embed,
    training_embed,
)
from .common import COLOURS, NEUTRAL, duration_text
from .help import WELCOME, WELCOME_PUZZLES, help_embed
from .play import board_embed, board_view, brain_embed, cell_click
from .scores import forgotten_lines, leaderboard_embed, stats_embed

__all__ = [
    "COLOURS",
    "NEUTRAL",
    "WELCOME",
    "WELCOME_PUZZLES",
    "board_embed",
    "board_view",
    "brain_change_text",
    "brain_embed",
    "cell_click",
    "duration_text",
    "forgotten_lines",
    "help_embed",
    "interrupted_training_embed",
    "leaderboard_embed",
    "memory_file_name",
    "settings_embed",
    "stats_embed",
    "training_embed",
]
