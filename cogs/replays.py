"""Replays and histories in Discord: the Replay button of every finished board, the
replay's ⏮ ◀ ▶ ⏭, ``history`` and its menu. Only the asker sees any of it. Thin: parse,
call the game flow (:mod:`gameflow.replays`), draw (:mod:`cogs.render.replay`).

Each button and the menu carry what they need in their custom id (the game and the step),
so they work after a restart, on a replay opened before it too.
"""

from __future__ import annotations

import re

import discord

from gameflow import GameService
from i18n import N_, Msg

from .places import place
from .render.replay import (
    HISTORY_MENU,
    REPLAY_CLICK,
    history_embed,
    history_view,
    replay_embed,
    replay_view,
)
from .replies import answer, in_time, private, refuse, update

OUTSIDE_SERVERS = N_(
    "Outside a server you play your own bot, so the history shows your own games: leave "
    "out the member."
)
NO_SUCH_GAME = N_("That menu names no game I know. Open the history again.")


def _service(interaction: discord.Interaction) -> GameService:
    return interaction.client.get_cog("TicTacToe").service


async def show_replay(
    service: GameService, interaction: discord.Interaction, game_id: int, step: int, how: str
) -> None:
    """A replay at ``step``: opened as a new private message (``how`` is ``open``), or
    stepped in place (the replay's own buttons)."""
    opening = how == "open"
    shown = await in_time(
        interaction,
        service.replays.step(game_id, step, place(interaction), interaction.channel_id),
        private=opening,
    )
    if shown is None:
        return
    lang = private(interaction)
    embed, view = replay_embed(shown, lang), replay_view(shown, lang)
    if opening:
        await answer(interaction, private=True, embed=embed, view=view)
    else:
        await update(interaction, embed=embed, view=view)


async def show_history(
    service: GameService,
    interaction: discord.Interaction,
    member: discord.User | discord.Member | None,
    games: tuple[str, ...],
    title: Msg,
) -> None:
    """``history``: a member's last finished games here (the asker's if ``member`` is
    left out), newest first, with a menu to watch one again; only the asker sees it."""
    member_id = (member or interaction.user).id
    if interaction.guild_id is None and member_id != interaction.user.id:
        await refuse(interaction, OUTSIDE_SERVERS)
        return
    pasts = await in_time(
        interaction, service.replays.history(place(interaction), member_id, games), private=True
    )
    if pasts is None:
        return
    lang = private(interaction)
    await answer(
        interaction,
        private=True,
        embed=history_embed(pasts, member_id, lang.say(title), lang),
        view=history_view(pasts, member_id, lang),
    )


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button], template=REPLAY_CLICK.pattern):
    """A finished board's Replay, or a replay's ⏮ ◀ ▶ ⏭ (see :mod:`cogs.render.replay`)."""

    def __init__(self, game_id: int, step: int, how: str) -> None:
        # the label is only what discord.py needs to route a click: replays draw their own
        custom_id = f"ttt-replay:{game_id}:{step}:{how}"
        super().__init__(discord.ui.Button(custom_id=custom_id, label="Replay"))
        self.game_id, self.step, self.how = game_id, step, how

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ReplayButton:
        return cls(int(match["game"]), int(match["step"]), match["how"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await show_replay(_service(interaction), interaction, self.game_id, self.step, self.how)


class HistoryMenu(discord.ui.DynamicItem[discord.ui.Select], template=re.escape(HISTORY_MENU)):
    """The history's menu: the game chosen opens its replay."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Select(custom_id=HISTORY_MENU, options=[]))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> HistoryMenu:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        if len(values) != 1 or not str(values[0]).isdigit():
            await refuse(interaction, NO_SUCH_GAME)
            return
        await show_replay(_service(interaction), interaction, int(values[0]), 0, "open")


DYNAMIC_ITEMS = (ReplayButton, HistoryMenu)
