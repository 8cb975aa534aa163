"""The slash commands in each language with a catalog: their descriptions, their options'
descriptions and their choices, as Discord shows them to a member whose Discord speaks it.

Names (``/ttt play``, ``cell``, ``first``) stay as they are in every language: every
message, the help and the README name the commands, and a command a friend names in chat
must be the one a member finds, whatever language their Discord speaks.
"""

from __future__ import annotations

import discord
from discord import app_commands

from i18n import ENGLISH, language

Where = app_commands.TranslationContextLocation
NAMES = {Where.command_name, Where.group_name, Where.parameter_name}


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if context.location in NAMES:
            return None
        lang = language(locale)
        if lang is ENGLISH or not lang.knows(string.message):
            return None  # Discord shows the English text
        return lang.translate(string.message)
