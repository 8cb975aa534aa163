"""The server listeners of the ``TicTacToe`` cog (:class:`cogs.table.Table`): the bot
added to a server (a hello), removed from one (its data goes in 30 days), and the servers
it left while it was not running."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from gameflow import GameService
from i18n import language

from .render import WELCOME, WELCOME_PUZZLES
from .render.common import sentences

log = logging.getLogger(__name__)


class ServerEvents:
    """Part of :class:`cogs.table.Table`: what it needs of the cog is declared below."""

    bot: commands.Bot
    service: GameService
    _departures_noted: bool

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once, at start: servers removed while the bot was not running start their 30
        days (no event told it of them)."""
        if self._departures_noted:
            return
        self._departures_noted = True
        try:
            await self.service.note_departures({g.id for g in self.bot.guilds})
        except Exception:  # the next start looks again
            log.exception("could not look for the servers the bot left while it was down")

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server: its data is deleted in 30 days, unless the bot is added
        back (the sweep does it)."""
        try:
            await self.service.left_server(guild.id)
        except Exception:  # it stays; docs/data.md says how to delete it by hand
            log.exception("could not note that the bot left server %s", guild.id)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Say hello once, where the bot may post: the server's system channel, or else the
        first text channel it can write in. Back in a server it left, nothing of it is to
        be deleted."""
        try:
            await self.service.joined_server(guild.id)
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
