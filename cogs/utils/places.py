"""Where an interaction happens, as the Discord side sees it: whose memory it is about
(:mod:`gameflow.places`), and whether the bot itself is there.

``/ttt`` and ``/connect4`` can be installed to a member's own account (a user-installed
app) as well as to a server: then they are used in DMs, in group DMs and in servers that
have not added the bot. There the bot is not a member, so it answers only through the
interaction's own responses: it cannot post, edit or delete anything else in the channel.
"""

from __future__ import annotations

import discord

from gameflow.places import place_of
from i18n import Language


def place(interaction: discord.Interaction) -> int:
    """The server's ID, or outside any server the player's own bot."""
    return place_of(interaction.guild_id, interaction.user.id)


def bot_is_here(interaction: discord.Interaction) -> bool:
    """Whether the bot is in the channel, so it may post and delete its own messages
    there: a server that added it, or a DM with it (not a group DM, nor a DM between
    two people, nor a server that has only members' installs)."""
    if interaction.guild_id is None:
        return bool(interaction.context.dm_channel)
    return interaction.client.get_guild(interaction.guild_id) is not None


def place_name(interaction: discord.Interaction, lang: Language) -> str:
    """The server's name (Discord does not send it where the bot is not a member)."""
    guild = interaction.guild
    return guild.name if guild is not None and guild.name else lang.t("this server")
