"""Replays and histories in Discord: the Replay button of every finished board, the
replay's ⏮ ◀ ▶ ⏭, ``history`` and its menu, which only the asker sees; and the replay's
Share, which posts the game's picture for the channel. Thin: parse, call the game flow
(:mod:`gameflow.replays`), draw (:mod:`cogs.replays.render`, :mod:`cogs.pictures.game_picture`).

Each button and the menu carry what they need in their custom id (the game and the step),
so they work after a restart, on a replay opened before it too.
"""

from __future__ import annotations

import io
import re

import discord
from discord.ext import commands

import engine
from cogs.pictures.game_picture import FILE_NAME, draw_game
from cogs.pictures.process import Pictures
from cogs.replays.render import (
    HISTORY_MENU,
    LESSONS_PICK,
    REPLAY_CLICK,
    history_embed,
    history_view,
    replay_embed,
    replay_view,
    result_text,
)
from cogs.utils.items import bound, menu_number
from cogs.utils.places import place
from cogs.utils.posting import PostingLimit, may_post
from cogs.utils.replies import answer, in_time, post, private, public, refuse, update
from gameflow import GameService
from gameflow.replays import ReplayStep
from i18n import N_, Language, Msg

OUTSIDE_SERVERS = N_(
    "Outside a server you play your own bot, so the history shows your own games: leave "
    "out the member."
)
NO_SUCH_GAME = N_("That menu names no game I know. Open the history again.")
NO_SUCH_MOVE = N_("That menu names no move of this game. Open the replay again.")
NOT_DRAWN = N_(
    "I couldn't draw this game's picture just now, so nothing was posted. Try Share again "
    "in a minute."
)


async def show_replay(
    service: GameService, interaction: discord.Interaction, game_id: int, step: int, how: str
) -> None:
    """A replay at ``step``: opened as a new private message (``how`` is ``open``), or
    stepped in place (the replay's own buttons and menu). A step asked from a message
    that is not a private replay (a modified client's click on a public board) opens a
    replay of its own: a public message is never edited into one."""
    message = interaction.message
    private_replay = message is not None and message.flags.ephemeral
    opening = how == "open" or not private_replay
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


async def share_replay(replays: Replays, interaction: discord.Interaction, game_id: int) -> None:
    """A replay's Share: the game's picture posted for the channel (within the member's
    posting limit), in the server's language, with the players' display names. Anything
    refused or failed is said privately, and nothing is posted."""
    if not await may_post(replays.posting, interaction):
        return
    lang = public(interaction)

    async def drawn() -> bytes:
        shown = await replays.service.replays.step(
            game_id, 0, place(interaction), interaction.channel_id
        )
        return await _picture(replays.pictures, interaction, shown, lang) or b""

    png = await in_time(interaction, drawn())
    if png is None:  # told why already
        return
    if not png:
        await refuse(interaction, NOT_DRAWN)
        return
    await post(
        interaction,
        content=lang.t("{member} shares this game.", member=interaction.user.mention),
        file=discord.File(io.BytesIO(png), FILE_NAME),
        allowed_mentions=discord.AllowedMentions.none(),
    )


async def _picture(
    pictures: Pictures, interaction: discord.Interaction, shown: ReplayStep, lang: Language
) -> bytes | None:
    """The game's picture, drawn in the pictures' process (a tenth of a second or so);
    ``None`` if it could not be drawn. Share was asked for: it waits for a process still
    starting, where a stats picture would be left out."""
    game = shown.game
    names: dict[int | None, str] = {}
    for member_id in (game.player_id, game.opponent_id):
        names[member_id] = await _display_name(interaction, member_id, lang)
    x, o = (names[game.member_playing(mark)] for mark in (engine.Mark.X, engine.Mark.O))
    # a member game's resigner who was forgotten since is named by no id
    result = result_text(
        game, lang, lambda member_id: names.get(member_id) or lang.t("a former member")
    )
    await pictures.started()
    return await pictures.draw(
        draw_game, game.kind, game.moves, x, o, result, shown.marked, lang.code
    )


async def _display_name(
    interaction: discord.Interaction, member_id: int | None, lang: Language
) -> str:
    """How a player is named on a picture: the bot's name, a member's display name (from
    the cache, else asked of Discord), or one who asked to be forgotten."""
    if member_id is None:
        return interaction.client.user.display_name
    if not member_id:
        return lang.t("a former member")
    guild = interaction.guild
    member = guild.get_member(member_id) if guild is not None else None
    if member is None and interaction.user.id == member_id:
        member = interaction.user
    if member is None:
        try:
            member = await interaction.client.fetch_user(member_id)
        except discord.HTTPException:  # gone from Discord: the picture still says who won
            return "?"
    return member.display_name


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
    """A finished board's Replay, or a replay's ⏮ ◀ ▶ ⏭ (see :mod:`cogs.replays.render`)."""

    replays: Replays  # bound by the cog (cogs.utils.items.bound)

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
        if self.how == "share":
            await share_replay(self.replays, interaction, self.game_id)
            return
        await show_replay(self.replays.service, interaction, self.game_id, self.step, self.how)


class HistoryMenu(discord.ui.DynamicItem[discord.ui.Select], template=re.escape(HISTORY_MENU)):
    """The history's menu: the game chosen opens its replay."""

    replays: Replays  # bound by the cog (cogs.utils.items.bound)

    def __init__(self) -> None:
        super().__init__(discord.ui.Select(custom_id=HISTORY_MENU, options=[]))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> HistoryMenu:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        game_id = menu_number(values[0]) if len(values) == 1 else None
        if game_id is None:
            await refuse(interaction, NO_SUCH_GAME)
            return
        await show_replay(self.replays.service, interaction, game_id, 0, "open")


class LessonsMenu(discord.ui.DynamicItem[discord.ui.Select], template=LESSONS_PICK.pattern):
    """A replay's menu of the moves that taught the bot: the move chosen is shown in place."""

    replays: Replays  # bound by the cog (cogs.utils.items.bound)

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Select(custom_id=f"ttt-lessons:{game_id}", options=[]))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> LessonsMenu:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        step = menu_number(values[0], held=True) if len(values) == 1 else None
        if step is None:
            await refuse(interaction, NO_SUCH_MOVE)
            return
        # a step past the game's end is held to it, as a button's is
        await show_replay(self.replays.service, interaction, self.game_id, step, "pick")


ITEMS = (ReplayButton, HistoryMenu, LessonsMenu)


class Replays(commands.Cog):
    """Replays, histories and Share: what their buttons and menus need."""

    def __init__(
        self, bot: commands.Bot, service: GameService, posting: PostingLimit, pictures: Pictures
    ) -> None:
        self.bot = bot
        self.service = service
        self.posting = posting
        self.pictures = pictures
        self.items = tuple(bound(item, replays=self) for item in ITEMS)
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*self.items)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*self.items)
