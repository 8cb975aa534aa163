"""``/connect4``: play Connect Four against the bot, on the classic 7×6 board (the default)
or on a mini, 4×4 or 5×4.

A declaration only: the commands are every game's (:func:`cogs.game_commands.game_group`),
over what every game shares (:class:`cogs.table.Table`): the same game flow, boards, clicks,
challenges and sweep. One game per channel, whatever the game. A board is one entry of
``BOARDS``, named in the texts that list the boards (written out, for the translators and
for ``python -m i18n.extract``, which reads them without importing this module; a test
checks that they name every board and its width).
"""

from __future__ import annotations

import discord
from discord import app_commands

from gameflow.puzzles import PUZZLE_GAMES
from i18n import N_

from .game_commands import GameFace, Host

# each board as members type it, and its game; the first is the default
BOARDS = {"7x6": "connect4-7x6", "4x4": "connect4", "5x4": "connect4-5x4"}
# the boards with puzzles (the classic board's: see gameflow.puzzles)
PUZZLE_BOARDS = [
    app_commands.Choice(name=size, value=size)
    for size, game in BOARDS.items()
    if game in PUZZLE_GAMES
]


def extras(table: Host) -> list[app_commands.Command]:
    @app_commands.command(
        name="puzzle",
        description="A puzzle from this server's games: find the only winning column "
        "(only you see it)",
    )
    @app_commands.describe(board="The board: 7x6, the classic board (the minis have none)")
    @app_commands.choices(board=PUZZLE_BOARDS)
    async def puzzle(interaction: discord.Interaction, board: str = PUZZLE_BOARDS[0].value) -> None:
        desk = interaction.client.get_cog("Puzzles")
        await desk.pose(interaction, BOARDS.get(board, board))

    return [puzzle]


CONNECT4 = GameFace(
    group="connect4",
    about="Play Connect Four against a bot that learns from its losses",
    boards=BOARDS,
    move="column",
    texts={
        "play": "Challenge me to a game of Connect Four in this channel",
        "play.board": "7x6 (the default, the classic board), or a mini: 4x4 or 5x4",
        "board": "7x6 (the default, the classic board), or a mini: 4x4 or 5x4",
        "move": "Drop a stone in a column: 1 is the leftmost",
        "move.number": "The column, from 1 (left) to 7 on 7x6, 4 on 4x4, 5 on 5x4",
        "brain.moves": "Columns in play order, such as 4 4 3 (the channel's game if left out)",
        "brain.board": "7x6 (the default, the classic board), or a mini: 4x4 or 5x4, for moves",
        "leaderboard": "Who taught me most Connect Four here, or beat me most",
        "stats": "This server's Connect Four record against me, and yours",
        "history.board": "Which board's games (every board if left out)",
    },
    title=N_("Connect Four, every board"),
    extras=extras,
)
