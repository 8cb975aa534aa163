"""``/ttt-admin``: server managers only, checked by Discord and again by the bot."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import re
from dataclasses import dataclass
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from gameflow import GameService, ImportPlan
from gameflow.brain import MAX_IMPORT_BYTES

from .render import brain_change_text, memory_file_name, plural
from .replies import answer, in_time, refuse, update

log = logging.getLogger(__name__)

NEEDS_MANAGE_SERVER = "You need the **Manage Server** permission to do that."
QUESTION_SECONDS = 60


def now() -> float:
    return discord.utils.utcnow().timestamp()  # the clock discord.py (and tests) use


@dataclass(frozen=True)
class Question:
    """A yes-or-no question to an admin before something that cannot be undone."""

    yes_label: str
    cancelled: str
    expired: str


QUESTIONS = {
    "reset": Question(
        "Forget everything", "Cancelled: I forgot nothing.", "No answer in time: I forgot nothing."
    ),
    "import": Question(
        "Import", "Cancelled: nothing was imported.", "No answer in time: nothing was imported."
    ),
}


class AnswerButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"ttt-(?P<kind>reset|import):(?P<answer>yes|no):(?P<admin>[0-9]+)"
    r":(?P<until>[0-9]+):(?P<q>[0-9]+)",
):
    """An answer to an admin's question. Everything it needs is in its custom id (which
    question, who may answer, until when), so it still answers after a restart."""

    def __init__(self, kind: str, answer: str, admin_id: int, until: int, question_id: int) -> None:
        yes = answer == "yes"
        super().__init__(
            discord.ui.Button(
                custom_id=f"ttt-{kind}:{answer}:{admin_id}:{until}:{question_id}",
                label=QUESTIONS[kind].yes_label if yes else "Cancel",
                style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
            )
        )
        self.kind, self.answer, self.admin_id = kind, answer, admin_id
        self.until, self.question_id = until, question_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> AnswerButton:
        return cls(
            match["kind"],
            match["answer"],
            int(match["admin"]),
            int(match["until"]),
            int(match["q"]),
        )

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
        await admin.on_answer(interaction, self)


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
        self._expiries: dict[int, asyncio.Task] = {}  # open questions, by question id
        self._imports: dict[int, ImportPlan] = {}  # imports waiting for their answer
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(AnswerButton)

    async def cog_unload(self) -> None:
        # The bot is closing: pending expiry edits would find the HTTP session gone.
        for task in self._expiries.values():
            task.cancel()
        self._expiries.clear()
        self.bot.remove_dynamic_items(AnswerButton)

    # --- commands -----------------------------------------------------------------
    @app_commands.command(description="Forget everything I learned in this server")
    async def reset(self, interaction: discord.Interaction) -> None:
        if not await manager(interaction):
            return
        memory = await self.service.memory(interaction.guild_id)
        await self._ask(
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
        self._imports[interaction.id] = plan
        await self._ask(
            interaction,
            "import",
            f"Import **{file.filename}**? It would {what}. Every lesson in it is proven.\n"
            f"{brain_change_text(plan.before, plan.after)}",
        )

    # --- questions ------------------------------------------------------------------
    async def _ask(self, interaction: discord.Interaction, kind: str, text: str) -> None:
        until = int(now()) + QUESTION_SECONDS
        view = discord.ui.View(timeout=None)
        for reply in ("yes", "no"):
            view.add_item(AnswerButton(kind, reply, interaction.user.id, until, interaction.id))
        await answer(interaction, private=True, content=text, view=view)
        self._expiries[interaction.id] = asyncio.create_task(self._expire(interaction, kind))

    async def _expire(self, question: discord.Interaction, kind: str) -> None:
        """Show the question as expired when its time is up (while this process lives;
        after a restart, a late click is told instead)."""
        await asyncio.sleep(QUESTION_SECONDS)
        self._expiries.pop(question.id, None)
        self._imports.pop(question.id, None)
        with contextlib.suppress(discord.HTTPException):  # dismissed by the admin: fine
            await question.edit_original_response(content=QUESTIONS[kind].expired, view=None)

    async def on_answer(self, interaction: discord.Interaction, button: AnswerButton) -> None:
        expiry = self._expiries.pop(button.question_id, None)
        if expiry is not None:
            expiry.cancel()
        plan = self._imports.pop(button.question_id, None)
        question = QUESTIONS[button.kind]
        if now() > button.until:
            await update(interaction, content=question.expired, view=None)
        elif button.answer == "no":
            await update(interaction, content=question.cancelled, view=None)
        elif button.kind == "reset":
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
