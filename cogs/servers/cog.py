"""The bot and a server: added to one (a hello), removed from one (its data goes in 30
days), the servers it left while it was not running; and what a member asks of the bot as
a whole: ``/ttt help`` and ``/ttt forget-me``."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from cogs.scores.render import forgotten_lines
from cogs.servers.render import WELCOME, WELCOME_PUZZLES, help_embed
from cogs.utils.places import bot_is_here, place
from cogs.utils.questions import AnswerButton, Question, Questions
from cogs.utils.replies import in_time, private, refuse, update
from gameflow import GameService
from gameflow.places import is_own_bot
from gameflow.words import sentences
from i18n import N_, language

log = logging.getLogger(__name__)

# forget-me's question (its buttons: cogs.utils.questions)
QUESTIONS = {
    "forget": Question(
        N_("Delete my games"),
        N_("Cancelled: nothing was deleted."),
        N_("No answer in time: nothing was deleted."),
        for_managers=False,
    ),
}


class Servers(commands.Cog):
    """The server listeners, help and forget-me."""

    def __init__(self, bot: commands.Bot, service: GameService) -> None:
        self.bot = bot
        self.service = service
        self.questions = Questions(QUESTIONS, self.on_answer)
        self._departures_noted = False
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(self.questions.button)

    async def cog_unload(self) -> None:
        self.questions.close()
        self.bot.remove_dynamic_items(self.questions.button)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once, at start: servers removed while the bot was not running start their 30
        days (no event told it of them)."""
        if self._departures_noted:
            return
        self._departures_noted = True
        try:
            await self.service.servers.note_departures({g.id for g in self.bot.guilds})
        except Exception:  # the next start looks again
            log.exception("could not look for the servers the bot left while it was down")

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server: its data is deleted in 30 days, unless the bot is added
        back (the sweep does it)."""
        try:
            await self.service.servers.left_server(guild.id)
        except Exception:  # it stays: `/ttt-admin delete-server-data` deletes it (docs/data.md)
            log.exception("could not note that the bot left server %s", guild.id)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Say hello once, where the bot may post: the server's system channel, or else the
        first text channel it can write in. Back in a server it left, nothing of it is to
        be deleted."""
        try:
            await self.service.servers.joined_server(guild.id)
        except Exception:  # the sweep checks again before it deletes anything
            log.exception("could not note that the bot joined server %s", guild.id)
        me = guild.me
        channels = [guild.system_channel, *guild.text_channels]
        hello_in = next(
            (c for c in channels if c is not None and c.permissions_for(me).send_messages), None
        )
        if hello_in is None:
            return
        try:
            lang = language(guild.preferred_locale)
            await hello_in.send(
                sentences([lang.say(WELCOME), lang.say(WELCOME_PUZZLES)], lang),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as error:  # no access after all: nobody is the worse
            log.warning("could not welcome server %s: %s", guild.id, error)

    async def show_help(self, interaction: discord.Interaction) -> None:
        admin = bool(  # where /ttt-admin is offered: a server that added the bot
            bot_is_here(interaction)
            and interaction.guild_id
            and interaction.permissions
            and interaction.permissions.manage_guild
        )
        await interaction.response.send_message(
            embed=help_embed(admin=admin, lang=private(interaction)), ephemeral=True
        )

    async def ask_to_forget(self, interaction: discord.Interaction) -> None:
        here = place(interaction)
        # every game and board: a member who played only Connect Four has games to delete too
        totals = await in_time(
            interaction, self._what_goes(here, interaction.user.id), private=True
        )
        if totals is None:
            return
        record, with_members, puzzled = totals
        lang = private(interaction)
        if is_own_bot(here):
            if not record.games:
                await refuse(
                    interaction, N_("Your own bot has nothing of yours yet: nothing to delete.")
                )
                return
            await self.questions.ask(
                interaction,
                "forget",
                lang.t(
                    "Delete your own bot: everything it learned from you outside servers, "
                    "with your games and records there? It starts again as if new. This "
                    "cannot be undone."
                ),
            )
            return
        if not record.games and not with_members.games and not puzzled:
            await refuse(
                interaction,
                N_("I hold no finished games of yours in this server: nothing to delete."),
            )
            return
        # a title, what goes (a bullet each), what stays, and one closing line
        question = [
            f"**{lang.t('Delete your games and records in this server?')}**",
            *forgotten_lines(record, with_members, lang, puzzles=puzzled),
            lang.t("What I learned from those games stays, but no longer names you."),
            lang.t("This cannot be undone."),
        ]
        await self.questions.ask(interaction, "forget", "\n".join(question))

    async def _what_goes(self, here: int, member_id: int) -> tuple:
        """What forget-me deletes: the member's games (:meth:`player_totals`), and whether
        they have a puzzle record or a puzzle rating here (deleted, games or not)."""
        puzzled = await self._puzzled(here, member_id)
        return (*await self.service.servers.player_totals(here, member_id), puzzled)

    async def _forget(self, here: int, member_id: int) -> tuple:
        """Forget-me: what it deleted, as :meth:`_what_goes` says it."""
        puzzled = await self._puzzled(here, member_id)
        return (*await self.service.servers.forget_player(here, member_id), puzzled)

    async def _puzzled(self, here: int, member_id: int) -> bool:
        member, _, _, rating = await self.service.puzzles.standings(here, member_id)
        return bool(member.tried) or rating is not None

    async def on_answer(self, interaction: discord.Interaction, button: AnswerButton) -> None:
        go, _ = await self.questions.settle(interaction, button)
        if not go:
            return
        here = place(interaction)
        if is_own_bot(here):
            erased = await in_time(interaction, self.service.servers.erase_server(here))
            if erased is not None:
                await update(
                    interaction,
                    content=private(interaction).t(
                        "🗑️ Deleted your own bot, with your games and records. It starts "
                        "again as if new."
                    ),
                    view=None,
                )
            return
        forgotten = await in_time(interaction, self._forget(here, interaction.user.id))
        if forgotten is not None:
            record, with_members, puzzled = forgotten
            lang = private(interaction)
            await update(
                interaction,
                content="\n".join(
                    [
                        lang.t("🗑️ Deleted, with your records:"),
                        *forgotten_lines(record, with_members, lang, puzzles=puzzled),
                        lang.t("What I learned from those games stays, but no longer names you."),
                    ]
                ),
                view=None,
            )
