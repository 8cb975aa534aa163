"""Buttons and menus that outlive the process: discord.py's dynamic items, found again by
their custom id after a restart. Each is bound to what answers its clicks, instead of
looking a cog up by name."""

from __future__ import annotations

import re
from typing import TypeVar

import discord

from cogs.utils.replies import refuse
from i18n import N_

Item = TypeVar("Item", bound=type[discord.ui.DynamicItem])


def bound(item: Item, **given: object) -> Item:
    """A subclass of ``item`` whose clicks reach ``given`` (as class attributes): one per
    bot, so that two bots in one process (a cluster's test) never share one. Its custom
    ids are ``item``'s."""
    return type(item.__name__, (item,), given, template=item.__discord_ui_compiled_template__)


# the custom ids under the bot's prefixes: "ttt:…", "ttt-<kind>:…", "ttt-history"
OURS = re.compile(r"ttt(?:-[a-z]+)?(?::|$)")
NOT_ONE_OF_MINE = N_(
    "That button or menu is not one of mine, so nothing was changed. The command that made "
    "it gives you a new one."
)


class Claims:
    """The custom ids the bot answers (its dynamic items' templates and the patterns it
    routes itself), so that any other id under its prefixes (a modified client's) gets a
    private answer instead of Discord's "This interaction failed"."""

    def __init__(self) -> None:
        self.patterns: list[re.Pattern[str]] = []

    def add(self, *patterns: re.Pattern[str] | str) -> None:
        self.patterns += [re.compile(p) if isinstance(p, str) else p for p in patterns]

    def claimed(self, custom_id: str) -> bool:
        return any(pattern.fullmatch(custom_id) for pattern in self.patterns)

    async def answer_unclaimed(self, interaction: discord.Interaction) -> None:
        """Refuse, privately, a click or a choice whose id is under the bot's prefixes but
        is none the bot answers."""
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if OURS.match(custom_id) and not self.claimed(custom_id):
            await refuse(interaction, NOT_ONE_OF_MINE)


LARGEST = 2**63 - 1  # the largest id a row can have (SQLite INTEGER, PostgreSQL BIGINT)


def menu_number(value: object, *, held: bool = False) -> int | None:
    """A menu's value as a number (ASCII digits only: a modified client may send "²",
    which ``str.isdigit`` takes and ``int`` does not), else ``None``. Past the largest a
    row can have (five thousand nines, say), ``None``, or that largest if ``held`` (a
    step, held to the end as a button's is)."""
    text = str(value)
    if not re.fullmatch(r"[0-9]+", text):
        return None
    if len(text) > 19 or int(text) > LARGEST:
        return LARGEST if held else None
    return int(text)
