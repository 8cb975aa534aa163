"""``/ttt-admin``: server managers only, checked by Discord and again by the bot."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re

import discord
from discord import app_commands
from discord.ext import commands

from gameflow import GameService

from .render import plural
from .replies import refuse

log = logging.getLogger(__name__)

NEEDS_MANAGE_SERVER = "You need the **Manage Server** permission to do that."
QUESTION_SECONDS = 60
NO_ANSWER = "No answer in time: I forgot nothing."


def now() -> float:
    return discord.utils.utcnow().timestamp()  # the clock discord.py (and tests) use


class ResetButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"ttt-reset:(?P<answer>yes|no):(?P<admin>[0-9]+):(?P<until>[0-9]+):(?P<q>[0-9]+)",
):
    """An answer to the reset question. Everything it needs is in its custom id (who may
    answer, until when, which question), so it still answers after a restart."""

    def __init__(self, answer: str, admin_id: int, until: int, question_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=f"ttt-reset:{answer}:{admin_id}:{until}:{question_id}",
                label="Forget everything" if answer == "yes" else "Cancel",
                style=discord.ButtonStyle.danger
                if answer == "yes"
                else discord.ButtonStyle.secondary,
            )
        )
        self.answer, self.admin_id, self.until, self.question_id = (
            answer,
            admin_id,
            until,
            question_id,
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ResetButton:
        return cls(match["answer"], int(match["admin"]), int(match["until"]), int(match["q"]))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id != self.admin_id:
            await refuse(interaction, "Only the admin who asked can answer this.")
            return False
        if not interaction.permissions.manage_guild:  # it may have been taken away since
            await refuse(interaction, NEEDS_MANAGE_SERVER)
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        admin: Admin = interaction.client.get_cog("Admin")
        await admin.answer_reset(interaction, self)


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class Admin(
    commands.GroupCog,
    group_name="ttt-admin",
    group_description="Manage the tic-tac-toe bot in this server",
):
    def __init__(self, bot: commands.Bot, service: GameService) -> None:
        self.bot = bot
        self.service = service
        self._expiries: dict[int, asyncio.Task] = {}  # open questions, by question id
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ResetButton)

    async def cog_unload(self) -> None:
        # The bot is closing: pending expiry edits would find the HTTP session gone.
        for task in self._expiries.values():
            task.cancel()
        self._expiries.clear()
        self.bot.remove_dynamic_items(ResetButton)

    @app_commands.command(description="Forget everything I learned in this server")
    async def reset(self, interaction: discord.Interaction) -> None:
        # Default member permissions only hide the command: server owners can re-grant it
        # to anyone under Integrations, so check the permission for real here.
        if not interaction.permissions.manage_guild:
            await refuse(interaction, NEEDS_MANAGE_SERVER)
            return
        memory = await self.service.memory(interaction.guild_id)
        until = int(now()) + QUESTION_SECONDS
        view = discord.ui.View(timeout=None)
        for answer in ("yes", "no"):
            view.add_item(ResetButton(answer, interaction.user.id, until, interaction.id))
        await interaction.response.send_message(
            f"Forget all {plural(len(memory), 'lesson')} I learned in this server? I will play "
            "naively again. This cannot be undone.",
            view=view,
            ephemeral=True,
        )
        self._expiries[interaction.id] = asyncio.create_task(self._expire(interaction))

    async def _expire(self, question: discord.Interaction) -> None:
        """Show the question as expired when its time is up (while this process lives;
        after a restart, a late click is told instead)."""
        await asyncio.sleep(QUESTION_SECONDS)
        self._expiries.pop(question.id, None)
        with contextlib.suppress(discord.HTTPException):  # dismissed by the admin: fine
            await question.edit_original_response(content=NO_ANSWER, view=None)

    async def answer_reset(self, interaction: discord.Interaction, button: ResetButton) -> None:
        expiry = self._expiries.pop(button.question_id, None)
        if expiry is not None:
            expiry.cancel()
        if now() > button.until:
            await interaction.response.edit_message(content=NO_ANSWER, view=None)
            return
        if button.answer == "no":
            await interaction.response.edit_message(
                content="Cancelled: I forgot nothing.", view=None
            )
            return
        forgotten = await self.service.reset_memory(interaction.guild_id)
        try:
            await interaction.response.edit_message(
                content=f"🧹 Done: I forgot all {plural(forgotten, 'lesson')} learned in this "
                "server. Game history and running games are kept.",
                view=None,
            )
        except discord.HTTPException:  # the reset is done; only this message is stale
            log.warning("reset done, but its question could not be updated", exc_info=True)
