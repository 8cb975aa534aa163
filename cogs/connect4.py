"""``/connect4``: play Connect Four against the bot, on a 4×4 board (the default) or 5×4.

Thin: each command names its options and calls what every game's commands share, in the
``/ttt`` cog (:class:`cogs.ttt.TicTacToe`): the same game flow, boards, clicks,
challenges and sweep. One game per channel, whatever the game.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from .table import LEVEL_HELP, Level, TicTacToe

BOARDS = {"4x4": "connect4", "5x4": "connect4-5x4"}
Size = Literal["4x4", "5x4"]
COMMAND = "/connect4"


@app_commands.allowed_installs(guilds=True, users=True)  # as /ttt: see cogs.places
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class ConnectFour(
    commands.GroupCog,
    group_name="connect4",
    group_description="Play Connect Four against a bot that learns from its losses",
):
    def __init__(self, bot: commands.Bot, table: TicTacToe) -> None:
        self.bot = bot
        self.table = table  # the /ttt cog: what every game's commands share
        super().__init__()

    @app_commands.command(description="Challenge me to a game of Connect Four in this channel")
    @app_commands.describe(
        first="Who moves first: you (the default) or me",
        board="4x4 (the default) or 5x4: a wider board, much longer to master",
        level=LEVEL_HELP,
    )
    async def play(
        self,
        interaction: discord.Interaction,
        first: Literal["me", "bot"] = "me",
        board: Size = "4x4",
        level: Level = "learning",
    ) -> None:
        await self.table.start_game(interaction, first, BOARDS[board], level)

    @app_commands.command(
        description="Challenge a member (or anyone) to a game I watch and learn from"
    )
    @app_commands.describe(
        opponent="The member to challenge (leave it out: anyone here may accept)",
        first="Who moves first: you, them, or drawn at random (the default)",
        board="4x4 (the default) or 5x4",
    )
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.User | None = None,  # a Member when in this server
        first: Literal["me", "them", "random"] = "random",
        board: Size = "4x4",
    ) -> None:
        if await self.table.may_post(interaction):
            await self.table.challenges.issue(interaction, opponent, first, BOARDS[board])

    @app_commands.command(description="Drop a stone in a column: 1 is the leftmost")
    @app_commands.describe(column="The column, from 1 (left) to 4, or 5 on the 5x4 board")
    async def move(self, interaction: discord.Interaction, column: int) -> None:
        await self.table.play_move(interaction, column, COMMAND)

    @move.autocomplete("column")
    async def open_columns(
        self, interaction: discord.Interaction, current: str | int
    ) -> list[app_commands.Choice[int]]:
        return self.table.legal_choices(interaction, current, COMMAND)

    @app_commands.command(description="Give up the game you are playing in this channel")
    async def resign(self, interaction: discord.Interaction) -> None:
        await self.table.resign_game(interaction, COMMAND)

    @app_commands.command(description="Show this channel's game again, at the bottom of the chat")
    async def board(self, interaction: discord.Interaction) -> None:
        await self.table.show_board(interaction, COMMAND)

    @app_commands.command(description="See, privately, what I know about a position")
    @app_commands.describe(
        moves="Columns in play order, such as 2 3 3 (the channel's game if left out)",
        board="4x4 (the default) or 5x4, for moves",
    )
    async def brain(
        self, interaction: discord.Interaction, moves: str | None = None, board: Size = "4x4"
    ) -> None:
        await self.table.show_brain(interaction, moves, BOARDS[board])

    @app_commands.command(description="Who taught me most Connect Four here, or beat me most")
    @app_commands.describe(
        by="lessons taught (the default), wins against me, or games played",
        board="4x4 (the default) or 5x4",
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        by: Literal["lessons", "wins", "games"] = "lessons",
        board: Size = "4x4",
    ) -> None:
        await self.table.show_leaderboard(interaction, by, BOARDS[board])

    @app_commands.command(description="This server's Connect Four record against me, and yours")
    @app_commands.describe(
        board="4x4 (the default) or 5x4",
        member="Whose record to show beside the server's (yours if left out)",
    )
    async def stats(
        self,
        interaction: discord.Interaction,
        board: Size = "4x4",
        member: discord.User | None = None,
    ) -> None:
        await self.table.show_stats(interaction, BOARDS[board], member)
