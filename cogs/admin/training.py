"""``/ttt-admin train``'s side of the Discord face: a training started from its command,
its live progress message (kept up to date twice a second, in the server's language), its
Cancel button, and the trainings a restart interrupted, marked as such."""

from __future__ import annotations

import logging
import re

import discord
from discord.ext import commands, tasks

from cogs.admin.render import interrupted_training_embed, training_embed
from cogs.utils.items import bound
from cogs.utils.replies import acknowledge, answer, in_time, public, refuse, server_language
from cogs.utils.server_tools import manager
from cogs.utils.ticks import Ticks
from gameflow import GameService, TrainingRun
from i18n import N_, Language

log = logging.getLogger(__name__)


class CancelTrainingButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"ttt-train:cancel:(?P<run>[0-9]+)"
):
    """Stops a training; any admin may press it, also after a restart (it then says the
    run is no longer going)."""

    trainings: Trainings  # bound by the trainings (cogs.utils.items.bound)

    def __init__(self, run_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=f"ttt-train:cancel:{run_id}",
                label="Cancel training",  # said in the channel's language by cancel_view
                style=discord.ButtonStyle.secondary,
            )
        )
        self.run_id = run_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> CancelTrainingButton:
        return cls(int(match["run"]))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await manager(interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        await self.trainings.cancel(interaction, self.run_id)


def cancel_view(run_id: int, button: type[CancelTrainingButton], lang: Language) -> discord.ui.View:
    """A training's Cancel; ``button``: its trainings' own (:attr:`Trainings.button`)."""
    view = discord.ui.View(timeout=None)
    button = button(run_id)
    button.item.label = lang.t("Cancel training")
    view.add_item(button)
    return view


class Trainings:
    """The trainings whose progress messages this process keeps up to date."""

    def __init__(self, bot: commands.Bot, service: GameService) -> None:
        self.bot = bot
        self.service = service
        # run -> its progress message, and the language it speaks (the server's)
        self._shown: dict[TrainingRun, tuple[discord.PartialMessage, Language]] = {}
        self._showing = Ticks(name="showing trainings")  # in the log only
        self.button = bound(CancelTrainingButton, trainings=self)

    async def load(self) -> None:
        await self._report_interrupted()
        self.show.start()

    def close(self) -> None:
        self.show.cancel()
        self.service.trainer.stop_all()  # marked interrupted at the next start-up

    async def start(
        self, interaction: discord.Interaction, opponent: str, games: int, game: str
    ) -> None:
        """A training asked for by an admin: its progress message, then the run."""
        run = await in_time(
            interaction,
            self.service.trainer.start(
                interaction.guild_id,
                interaction.channel_id,
                interaction.user.id,
                opponent,
                games,
                game,
            ),
        )
        if run is None:
            return
        lang = public(interaction)
        try:
            message_id = await answer(
                interaction,
                embed=training_embed(run.progress(), lang),
                view=cancel_view(run.run_id, self.button, lang),
            )
            await self.service.trainer.attach_message(run, message_id)
            run.start()
        except BaseException:
            run.stop()
            raise
        # The interaction's token lasts 15 minutes; the channel message can be edited for longer.
        channel = self.bot.get_partial_messageable(interaction.channel_id)
        self._shown[run] = channel.get_partial_message(message_id), lang

    @tasks.loop(seconds=0.5)
    async def show(self) -> None:
        """Save and show what each training reported since the last look. A round that
        fails (the database unreachable) is skipped: the next tick tries again."""
        with self._showing.round():
            await self._show()

    async def _show(self) -> None:
        for run, (message, lang) in list(self._shown.items()):
            progress = await run.poll()
            if progress is None:
                continue
            running = progress.state == "running"
            if not running:
                del self._shown[run]
            try:
                await message.edit(
                    embed=training_embed(progress, lang),
                    view=cancel_view(run.run_id, self.button, lang) if running else None,
                )
            except discord.HTTPException as error:  # deleted, or no access: it trains on
                log.warning("could not show training %s: %s", run.run_id, error)

    async def cancel(self, interaction: discord.Interaction, run_id: int) -> None:
        run = self.service.trainer.running(interaction.guild_id)
        if run is None or run.run_id != run_id:
            await refuse(interaction, N_("That training is no longer running."))
        elif not run.cancel(interaction.user.id):
            await refuse(interaction, N_("That training is already stopping."))
        else:  # the progress message shows the end
            await acknowledge(interaction)

    async def _report_interrupted(self) -> None:
        for record in await self.service.trainer.recover():
            if record.message_id is None:
                continue
            channel = self.bot.get_partial_messageable(record.channel_id)
            try:
                lang = server_language(self.bot, record.guild_id)
                await channel.get_partial_message(record.message_id).edit(
                    embed=interrupted_training_embed(record, lang), view=None
                )
            except discord.HTTPException as error:
                log.warning("could not mark training %s as interrupted: %s", record.id, error)
