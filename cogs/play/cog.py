"""The game in a channel: starting one, a move (a command, or a click on the board), resign,
the board again, Rematch, and the sweep of idle games and expired invitations. A game's
one live board is :mod:`cogs.play.posts`, invitations :mod:`cogs.play.challenges`.
Thin: parse, call the game flow, render the reply.
"""

from __future__ import annotations

import logging
import re

import discord
from discord import app_commands
from discord.ext import commands, tasks

from cogs.play.challenges import ChallengeDesk
from cogs.play.posts import BoardPosts
from cogs.play.render import board_view, cell_click
from cogs.utils.boards import look_of
from cogs.utils.items import bound
from cogs.utils.places import bot_is_here, place
from cogs.utils.posting import PostingLimit, may_post
from cogs.utils.render import duration_text
from cogs.utils.replies import in_time, private, public, server_language, show, update
from cogs.utils.ticks import Ticks
from gameflow import GameError, GameService, Turn
from gameflow.running import no_game_here
from i18n import N_

log = logging.getLogger(__name__)


class RematchButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"ttt-rematch:(?P<game>[0-9]+)"
):
    """A finished board's Rematch (see :func:`cogs.play.render.board_view`): it names its game,
    so it works after a restart."""

    play: Play  # bound by the cog (cogs.utils.items.bound)

    def __init__(self, game_id: int) -> None:
        # the label is only what discord.py needs to route a click: boards draw their own
        super().__init__(discord.ui.Button(custom_id=f"ttt-rematch:{game_id}", label="Rematch"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> RematchButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await self.play.on_rematch(interaction, self.game_id)


class Play(commands.Cog):
    """Every game's play, whatever the board: the game flow's moves, a channel's live board
    (:class:`BoardPosts`, which the admin's end-game redraws too), the invitations
    (:class:`ChallengeDesk`) and the sweep."""

    def __init__(
        self,
        bot: commands.Bot,
        service: GameService,
        posting: PostingLimit,
        boards: BoardPosts,
        sweep_seconds: float,
    ) -> None:
        self.bot = bot
        self.service = service
        self.posting = posting
        self.boards = boards
        self.challenges = ChallengeDesk(bot, service)
        self.sweep.change_interval(seconds=sweep_seconds)
        self._sweeps = Ticks(name="the timeout sweep")  # in the log only
        self.items = (bound(RematchButton, play=self), self.challenges.button)
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*self.items)
        self.sweep.start()
        for game_id in self.service.reviews.recovered:  # post-mortems a restart picked up
            self.boards.later(self.boards.show_recovered_review(game_id))

    async def cog_unload(self) -> None:
        self.sweep.cancel()
        self.challenges.close()
        self.bot.remove_dynamic_items(*self.items)
        self.boards.close()

    # --- the commands ------------------------------------------------------------------
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.abc.User | None,
        first: str,
        game: str,
    ) -> None:
        if await may_post(self.posting, interaction):
            await self.challenges.issue(interaction, opponent, first, game)

    async def start_game(
        self, interaction: discord.Interaction, first: str, game: str, level: str = "learning"
    ) -> None:
        """A new game's board. Not counted in the posting limit: a channel holds one game
        at a time, so a new one posts only once the last is over (while one runs, the game
        flow refuses it), and a game is the bot's very purpose."""
        turn = await in_time(
            interaction,
            self.service.play(
                place(interaction),
                interaction.channel_id,
                interaction.user.id,
                first,
                game=game,
                level=level,
            ),
        )
        if turn is None:
            return
        await show(interaction, lambda: self.boards.post(interaction, turn))
        if interaction.guild_id is not None and not bot_is_here(interaction):
            try:  # its data stays 30 days after its last game
                await self.service.servers.played_without_me(interaction.guild_id)
            except Exception:  # the game is saved; the server's next game notes it again
                log.warning("could not note a game in server %s", interaction.guild_id)

    async def play_move(self, interaction: discord.Interaction, number: int, command: str) -> None:
        turn = await in_time(
            interaction,
            self.service.move(interaction.channel_id, interaction.user.id, number, command=command),
        )
        if turn is not None:
            await show(interaction, lambda: self.boards.post(interaction, turn))

    def legal_choices(
        self, interaction: discord.Interaction, current: str | int, command: str
    ) -> list[app_commands.Choice[int]]:
        """Autocomplete: the moves the member may play now in the channel's game."""
        game = self.service.running.running_game(interaction.channel_id)
        if (
            game is None
            or game.command != command
            or game.mark_of(interaction.user.id) is not game.board.turn
        ):
            return []
        look = look_of(game.kind)
        lang = private(interaction)
        typed = str(current).strip()  # Discord sends what is typed in a number option as a number
        return [
            # "the centre (5)", "column 1": each names its number once
            app_commands.Choice(name=lang.say(look.where(c)), value=c + 1)
            for c in sorted(game.board.legal_moves)  # 1 to 7, though 7x6 lists them centre out
            if str(c + 1).startswith(typed)
        ]

    async def resign_game(self, interaction: discord.Interaction, command: str) -> None:
        turn = await in_time(
            interaction, self.service.resign(interaction.channel_id, interaction.user.id, command)
        )
        if turn is not None:
            await show(interaction, lambda: self.boards.post(interaction, turn))

    async def show_board(self, interaction: discord.Interaction, command: str) -> None:
        if not await may_post(self.posting, interaction):
            return
        turn = await in_time(interaction, self._channel_board(interaction.channel_id, command))
        if turn is not None:
            await self.boards.post(interaction, turn)

    async def _channel_board(self, channel_id: int, command: str) -> Turn:
        """The channel's game as its board shows it: read from the store if this process
        does not keep it, and its memory's size, which may be read too."""
        game = await self.service.running.find_game(channel_id)
        if game is None:
            raise GameError(no_game_here(command))
        memory = await self.service.memory(game.guild_id, game.kind)
        return Turn(game, memory_size=len(memory))

    # --- buttons and the clock -------------------------------------------------------
    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Route a click on a board's cell (see :class:`~cogs.utils.boards.BoardView`)."""
        if interaction.type is discord.InteractionType.component:
            clicked = cell_click((interaction.data or {}).get("custom_id", ""))
            if clicked is not None:
                await self.on_cell_click(interaction, *clicked)

    async def on_cell_click(
        self, interaction: discord.Interaction, game_id: int, ply: int, cell: int
    ) -> None:
        turn = await in_time(interaction, self._clicked_move(interaction, game_id, ply, cell))
        if turn is not None:
            await show(interaction, lambda: self._update_board(interaction, turn))

    async def _clicked_move(
        self, interaction: discord.Interaction, game_id: int, ply: int, cell: int
    ) -> Turn:
        """The click's move, if its board shows the channel's game. Looked up inside the
        request: a board whose game is not kept here (an old one, or after a restart) is
        looked up in the store, which may be slow or unreachable."""
        game = await self.service.running.find_game(interaction.channel_id)
        if game is None or game.id != game_id:
            raise GameError(
                N_("That game is over. Start a new one with `/ttt play` or `/connect4 play`.")
            )
        return await self.service.move(
            interaction.channel_id, interaction.user.id, cell, expected_ply=ply
        )

    async def on_rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """A finished board's Rematch: the same game again in this channel, the sides
        swapped; between members, an invitation to the same member."""
        asked = await in_time(
            interaction,
            self.service.rematch(game_id, interaction.channel_id, interaction.user.id),
        )
        if asked is None:
            return
        game, next_first = asked
        if game.vs_bot:
            first = "bot" if next_first else "me"
            await self.start_game(interaction, first, game.kind, game.level)
            return
        other = game.opponent_id if interaction.user.id == game.player_id else game.player_id
        # not counted, as a new game is not: one game (or invitation) per channel limits it
        await self.challenges.issue(
            interaction, discord.Object(other), next_first, game.kind, known_member=True
        )

    async def _update_board(self, interaction: discord.Interaction, turn: Turn) -> None:
        """Redraw the clicked board in place."""
        lang = public(interaction)
        await update(
            interaction, embed=self.boards.embed(turn, lang), view=board_view(turn.game, lang=lang)
        )
        if turn.reviewing and interaction.message is not None:
            self.boards.await_lesson(turn, lang, interaction, interaction.message.id)

    @tasks.loop(seconds=30)
    async def sweep(self) -> None:
        """End games left without a move for their server's timeout, and tell the channels;
        show any invitation whose timer was lost as expired. A round that fails (the
        database unreachable) is skipped: the next tick tries again."""
        with self._sweeps.round():
            await self._sweep()

    async def _sweep(self) -> None:
        await self.challenges.expire()
        await self.service.reviews.catch_up(self.service.shards)  # 7x6 post-mortems owed
        await self.service.servers.erase_departed(
            still_in=lambda g: self.bot.get_guild(g) is not None
        )
        for turn in await self.service.expire_idle():
            lang = server_language(self.bot, turn.game.guild_id)
            idle = duration_text(self.service.settings.timeout_seconds(turn.game.guild_id), lang)
            await self.boards.retire(
                turn,
                N_(
                    "⌛ {player}'s game was abandoned after {time} without a move. Nothing was "
                    "learned from it. `{command} play` starts a new one.",
                    player=f"<@{turn.game.player_id}>",
                    time=idle,
                    command=turn.game.command,
                ),
            )

    @sweep.before_loop
    async def _wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()
        self.challenges.start_timers()  # for invitations left by the last process
