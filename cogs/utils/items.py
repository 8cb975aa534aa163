"""Buttons and menus that outlive the process: discord.py's dynamic items, found again by
their custom id after a restart. Each is bound to what answers its clicks, instead of
looking a cog up by name."""

from __future__ import annotations

from typing import TypeVar

import discord

Item = TypeVar("Item", bound=type[discord.ui.DynamicItem])


def bound(item: Item, **given: object) -> Item:
    """A subclass of ``item`` whose clicks reach ``given`` (as class attributes): one per
    bot, so that two bots in one process (a cluster's test) never share one. Its custom
    ids are ``item``'s."""
    return type(item.__name__, (item,), given, template=item.__discord_ui_compiled_template__)
