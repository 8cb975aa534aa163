"""Who and where ``/ttt-admin`` may act: a server manager, in a server that added the bot,
on that server's own channels (a forged request can name any other)."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.utils.places import bot_is_here
from cogs.utils.questions import NEEDS_MANAGE_SERVER
from cogs.utils.replies import Refusal, refuse
from gameflow.errors import ANOTHER_PLACES_CHANNEL
from i18n import N_


class PlaceToPlay(app_commands.Transformer):
    """A text channel or thread of this server, taken by its id as Discord resolved it: the
    bot's cache may not hold it (a thread it has not seen, a channel it cannot view), and
    discord.py's own channel option would fail there."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.channel

    @property
    def channel_types(self) -> list[discord.ChannelType]:
        return [
            discord.ChannelType.text,
            discord.ChannelType.news,
            discord.ChannelType.public_thread,
            discord.ChannelType.private_thread,
            discord.ChannelType.news_thread,
        ]

    async def transform(self, interaction: discord.Interaction, value: object, /) -> int:
        # options are read before the command runs: who and where first, so that a forged
        # option from elsewhere, or from a member, asks Discord nothing
        if interaction.guild_id is None or not bot_is_here(interaction):
            raise Refusal(SERVER_TOOLS_ONLY)
        if not interaction.permissions.manage_guild:
            raise Refusal(NEEDS_MANAGE_SERVER)
        channel_id = getattr(value, "id", None)
        if not isinstance(channel_id, int) or not await _of(interaction.guild, value):
            raise Refusal(ANOTHER_PLACES_CHANNEL)  # a forged option: a DM's, another place's
        return channel_id


async def _of(guild: discord.Guild, channel: object) -> bool:
    """Whether a channel option names one of this server's channels or threads, which a
    forged request may not. The bot holds the server's channels and active threads; a
    thread it has not seen (archived, or private) counts by its parent channel, and a
    channel it does not hold is asked of Discord (an admin's rare request)."""
    if guild.get_channel_or_thread(channel.id) is not None:
        return True
    if isinstance(channel, app_commands.AppCommandThread):
        return guild.get_channel(channel.parent_id) is not None
    if not isinstance(channel, app_commands.AppCommandChannel) or channel.type not in (
        discord.ChannelType.text,
        discord.ChannelType.news,
    ):
        return False  # a DM, a group DM, or a channel Discord did not resolve
    try:
        await guild.fetch_channel(channel.id)  # refused, or another server's: not here
    except (discord.HTTPException, discord.InvalidData):
        return False
    return True


ChannelId = app_commands.Transform[int, PlaceToPlay]


async def manager(interaction: discord.Interaction) -> bool:
    """Whether the caller may manage the server; refuses them privately if not.

    Default member permissions only hide the commands: server owners can re-grant them to
    anyone under Integrations, so every command checks the permission for real. They are
    a server's own tools: Discord offers them only where the server added the bot, and a
    forged request from anywhere else (a DM, a server with only members' installs) is
    refused too.
    """
    if interaction.guild_id is None or not bot_is_here(interaction):
        await refuse(interaction, SERVER_TOOLS_ONLY)
        return False
    if interaction.permissions.manage_guild:
        return True
    await refuse(interaction, NEEDS_MANAGE_SERVER)
    return False


SERVER_TOOLS_ONLY = N_(
    "`/ttt-admin` works only in a server that has added me, so nothing was changed. A server "
    "manager can add me from my profile."
)
