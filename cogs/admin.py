"""``/ttt-admin``: server managers only, checked by Discord and again by the bot."""

from __future__ import annotations

import io
import json
import logging
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from gameflow import GameService, ImportPlan
from gameflow.brain import MAX_IMPORT_BYTES

from .questions import NEEDS_MANAGE_SERVER, AnswerButton, Questions
from .render import brain_change_text, memory_file_name, plural, settings_embed
from .replies import answer, in_time, refuse, update
from .ttt import TicTacToe

log = logging.getLogger(__name__)


async def manager(interaction: discord.Interaction) -> bool:
    """Whether the caller may manage the server; refuses them privately if not.

    Default member permissions only hide the commands: server owners can re-grant them to
    anyone under Integrations, so every command checks the permission for real.
    """
    if interaction.permissions.manage_guild:
        return True
    await refuse(interaction, NEEDS_MANAGE_SERVER)
    return False


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
        self.questions = Questions()
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(AnswerButton)

    async def cog_unload(self) -> None:
        self.questions.close()
        self.bot.remove_dynamic_items(AnswerButton)

    # --- commands -----------------------------------------------------------------
    @app_commands.command(description="Forget everything I learned in this server")
    async def reset(self, interaction: discord.Interaction) -> None:
        if not await manager(interaction):
            return
        memory = await self.service.memory(interaction.guild_id)
        await self.questions.ask(
            interaction,
            "reset",
            f"Forget all {plural(len(memory), 'lesson')} I learned in this server? I will play "
            "naively again. This cannot be undone.",
        )

    @app_commands.command(description="Download this server's memory as a file, privately")
    async def export(self, interaction: discord.Interaction) -> None:
        if not await manager(interaction):
            return
        document = await self.service.brain.export(interaction.guild_id)
        name = memory_file_name(interaction.guild.name, discord.utils.utcnow().date())
        data = json.dumps(document, indent=1).encode()
        await answer(
            interaction,
            private=True,
            content=f"🧠 This server's memory: {plural(len(document['facts']), 'lesson')}. "
            "`/ttt-admin import` loads it into another server.",
            file=discord.File(io.BytesIO(data), filename=name),
        )

    @app_commands.command(name="import", description="Load a memory file made by export")
    @app_commands.describe(
        file="A memory file made by /ttt-admin export",
        mode="merge (the default) adds its lessons to mine; replace takes its memory instead",
    )
    async def import_(
        self,
        interaction: discord.Interaction,
        file: discord.Attachment,
        mode: Literal["merge", "replace"] = "merge",
    ) -> None:
        if not await manager(interaction):
            return
        if file.size > MAX_IMPORT_BYTES:
            await refuse(
                interaction,
                f"That file is {file.size / 1024:,.0f} KiB; a memory file may be at most "
                "1 MiB. Nothing was changed.",
            )
            return
        try:
            data = await file.read()
        except discord.HTTPException:
            await refuse(interaction, "I couldn't download that file. Please try again.")
            return
        plan = await in_time(
            interaction,
            self.service.brain.plan_import(interaction.guild_id, data, mode),
            private=True,
        )
        if plan is None:
            return
        what = (
            f"add **{plural(plan.new, 'new lesson')}** to mine "
            f"({plural(plan.known, 'lesson')} in the file I know already)"
            if mode == "merge"
            else f"replace my {plural(plan.before.lessons, 'lesson')} with its "
            f"**{plural(len(plan.document), 'lesson')}**"
        )
        await self.questions.ask(
            interaction,
            "import",
            f"Import **{file.filename}**? It would {what}. Every lesson in it is proven.\n"
            f"{brain_change_text(plan.before, plan.after)}",
            keep=plan,
        )

    @app_commands.command(description="See or change how I play in this server")
    @app_commands.describe(
        timeout="Minutes a game may sit without a move before it is abandoned (1 to 1440)",
        allow_channel="Let games start in this channel; once one is allowed, only those may",
        disallow_channel="Stop new games from starting in this channel",
        every_channel="True lets games start in every channel again",
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        timeout: app_commands.Range[int, 1, 1440] | None = None,
        allow_channel: discord.TextChannel | discord.Thread | None = None,
        disallow_channel: discord.TextChannel | discord.Thread | None = None,
        every_channel: bool = False,
    ) -> None:
        if not await manager(interaction):
            return
        settings = await in_time(
            interaction,
            self.service.settings.change(
                interaction.guild_id,
                timeout_minutes=timeout,
                allow_channel=allow_channel.id if allow_channel else None,
                disallow_channel=disallow_channel.id if disallow_channel else None,
                every_channel=every_channel,
            ),
            private=True,
        )
        if settings is not None:
            changed = timeout is not None or allow_channel or disallow_channel or every_channel
            await answer(
                interaction,
                private=True,
                content="✅ Saved." if changed else None,
                embed=settings_embed(
                    settings,
                    self.service.settings.timeout_seconds(interaction.guild_id),
                    interaction.guild.name,
                ),
            )

    @app_commands.command(name="end-game", description="End a stuck game; nothing is learned")
    @app_commands.describe(channel="The game's channel (this one if left out)")
    async def end_game(
        self,
        interaction: discord.Interaction,
        channel: discord.TextChannel | discord.Thread | None = None,
    ) -> None:
        if not await manager(interaction):
            return
        channel_id = channel.id if channel else interaction.channel_id
        turn = await in_time(
            interaction, self.service.end_game(channel_id, interaction.user.id), private=True
        )
        if turn is None:
            return
        await answer(
            interaction,
            private=True,
            content=f"🛑 Ended <@{turn.game.player_id}>'s game in <#{channel_id}>.",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        games: TicTacToe = self.bot.get_cog("TicTacToe")
        await games.retire(
            turn,
            f"🛑 <@{interaction.user.id}> ended <@{turn.game.player_id}>'s game. Nothing was "
            "learned from it. `/ttt play` starts a new one.",
        )

    # --- answers ------------------------------------------------------------------
    async def on_answer(self, interaction: discord.Interaction, button: AnswerButton) -> None:
        go, plan = await self.questions.settle(interaction, button)
        if not go:
            return
        if button.kind == "reset":
            await self._reset(interaction)
        elif plan is None:
            await update(
                interaction,
                content="This import is no longer waiting (I restarted since you asked), so "
                "nothing was imported. Run `/ttt-admin import` again.",
                view=None,
            )
        else:
            await self._import(interaction, plan)

    async def _reset(self, interaction: discord.Interaction) -> None:
        forgotten = await in_time(interaction, self.service.reset_memory(interaction.guild_id))
        if forgotten is not None:
            await self._done(
                interaction,
                f"🧹 Done: I forgot all {plural(forgotten, 'lesson')} learned in this server. "
                "Game history and running games are kept.",
            )

    async def _import(self, interaction: discord.Interaction, plan: ImportPlan) -> None:
        change = await in_time(interaction, self.service.brain.apply_import(plan))
        if change is not None:
            unbeatable = not (change.after.ways_to_beat_as_x or change.after.ways_to_beat_as_o)
            await self._done(
                interaction,
                f"📥 Imported ({plan.mode}).\n{brain_change_text(change.before, change.after)}"
                + ("\nNobody can beat me here now." if unbeatable else ""),
            )

    @staticmethod
    async def _done(interaction: discord.Interaction, text: str) -> None:
        try:
            await update(interaction, content=text, view=None)
        except discord.HTTPException:  # the change is done; only this message is stale
            log.warning("a change was made, but its question could not be updated", exc_info=True)
