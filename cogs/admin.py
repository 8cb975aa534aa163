"""``/ttt-admin``: server managers only, checked by Discord and again by the bot."""

from __future__ import annotations

import contextlib

import discord
from discord import app_commands
from discord.ext import commands

from gameflow import GameService

from .ttt import refuse

NEEDS_MANAGE_SERVER = "You need the **Manage Server** permission to do that."


class ConfirmReset(discord.ui.View):
    """Two buttons under the reset question; only the admin who asked may press them."""

    def __init__(self, service: GameService, guild_id: int, admin_id: int) -> None:
        super().__init__(timeout=60)
        self.service, self.guild_id, self.admin_id = service, guild_id, admin_id
        self.question: discord.Interaction | None = None

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id != self.admin_id:
            await refuse(interaction, "Only the admin who asked can answer this.")
            return False
        if not interaction.permissions.manage_guild:  # it may have been taken away since
            await refuse(interaction, NEEDS_MANAGE_SERVER)
            return False
        return True

    @discord.ui.button(label="Forget everything", style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: discord.Interaction, _button: discord.ui.Button) -> None:
        self.stop()
        forgotten = await self.service.reset_memory(self.guild_id)
        await interaction.response.edit_message(
            content=f"🧹 Done: I forgot all {forgotten} lesson{'s' * (forgotten != 1)} learned "
            "in this server. Game history and running games are kept.",
            view=None,
        )

    @discord.ui.button(label="Cancel", style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: discord.Interaction, _button: discord.ui.Button) -> None:
        self.stop()
        await interaction.response.edit_message(content="Cancelled: I forgot nothing.", view=None)

    async def on_timeout(self) -> None:
        if self.question is not None:
            with contextlib.suppress(discord.HTTPException):  # the question is gone: fine
                await self.question.edit_original_response(
                    content="No answer in time: I forgot nothing.", view=None
                )


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class Admin(
    commands.GroupCog,
    group_name="ttt-admin",
    group_description="Manage the tic-tac-toe bot in this server",
):
    def __init__(self, service: GameService) -> None:
        self.service = service
        super().__init__()

    @app_commands.command(description="Forget everything I learned in this server")
    async def reset(self, interaction: discord.Interaction) -> None:
        # Default member permissions only hide the command: server owners can re-grant it
        # to anyone under Integrations, so check the permission for real here.
        if not interaction.permissions.manage_guild:
            await refuse(interaction, NEEDS_MANAGE_SERVER)
            return
        memory = await self.service.memory(interaction.guild_id)
        view = ConfirmReset(self.service, interaction.guild_id, interaction.user.id)
        await interaction.response.send_message(
            f"Forget all {len(memory)} lesson{'s' * (len(memory) != 1)} I learned in this "
            "server? I will play naively again. This cannot be undone.",
            view=view,
            ephemeral=True,
        )
        view.question = interaction
