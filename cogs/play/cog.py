"""The ``TicTacToe`` cog: what every game's commands share (each game's commands are
declared in :mod:`cogs.faces`). Here: its set-up, the clicks on any board and Rematch,
the sweep of idle games and expired invitations. It is built from parts of its own, one
concern each: :mod:`cogs.game_requests` (what the commands do), :mod:`cogs.board_posts`
(a game's one live board) and :mod:`cogs.server_events` (the server listeners).
Thin: parse, call the game flow, render the reply.
"""

from __future__ import annotations

import asyncio
import logging
import re

import discord
from discord.ext import commands, tasks

from gameflow import GameError, GameService, Turn
from i18n import N_

from .board_posts import BoardPosts
from .challenges import ChallengeButton, ChallengeDesk
from .faces import FACES
from .game_commands import game_group
from .game_requests import GameRequests
from .pictures import Pictures
from .posting import PostingLimit
from .questions import AnswerButton, Questions
from .render import board_view, cell_click, duration_text
from .replays import DYNAMIC_ITEMS as REPLAY_ITEMS
from .replies import in_time, public, server_language, show, update
from .server_events import ServerEvents
from .ticks import Ticks
from .ttt import forget_answered

log = logging.getLogger(__name__)


class RematchButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"ttt-rematch:(?P<game>[0-9]+)"
):
    """A finished board's Rematch (see :func:`cogs.render.play.board_view`): it names its game,
    so it works after a restart."""

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
        await interaction.client.get_cog("TicTacToe").on_rematch(interaction, self.game_id)


class Table(GameRequests, BoardPosts, ServerEvents, commands.Cog, name="TicTacToe"):
    """What every game's commands share: the game flow, posting and redrawing boards, the
    clicks on any board, challenges, questions, the sweep of idle games and expired
    invitations, and the server listeners. Each game's slash commands are added from its
    face (:data:`cogs.faces.FACES`). Named ``TicTacToe`` as it always was: buttons and
    questions find it by that name (``get_cog``)."""

    def __init__(
        self,
        bot: commands.Bot,
        service: GameService,
        sweep_seconds: float,
        *,
        posts_per_minute: int = 0,
        pictures: Pictures,
    ) -> None:
        self.bot = bot
        self.service = service
        self.pictures = pictures
        self.posting = PostingLimit(posts_per_minute)
        self._departures_noted = False
        self.sweep.change_interval(seconds=sweep_seconds)
        self._sweeps = Ticks(name="the timeout sweep")  # in the log only
        self.questions = Questions()
        self.challenges = ChallengeDesk(bot, service)
        self.groups = [game_group(face, self) for face in FACES]
        self._reviews: set[asyncio.Task] = set()  # final boards waiting for their lesson
        super().__init__()

    async def cog_load(self) -> None:
        for group in self.groups:  # in FACES' order: the order Discord lists them in
            self.bot.tree.add_command(group)
        self.bot.add_dynamic_items(AnswerButton, ChallengeButton, RematchButton, *REPLAY_ITEMS)
        self.sweep.start()
        for game_id in self.service.reviews.recovered:  # post-mortems a restart picked up
            self._later(self._show_recovered_review(game_id))

    async def cog_unload(self) -> None:
        for group in self.groups:
            self.bot.tree.remove_command(group.name)
        self.sweep.cancel()
        self.challenges.close()
        self.questions.close()
        self.bot.remove_dynamic_items(AnswerButton, ChallengeButton, RematchButton, *REPLAY_ITEMS)
        for task in self._reviews:
            task.cancel()

    async def on_answer(self, interaction: discord.Interaction, button: AnswerButton) -> None:
        """The answer to forget-me's question (the only question of this cog's)."""
        await forget_answered(self, interaction, button)

    # --- buttons and the clock -------------------------------------------------------
    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Route a click on a board's cell (see :class:`~cogs.render.play.BoardView`)."""
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
            interaction, embed=self._board(turn, lang), view=board_view(turn.game, lang=lang)
        )
        if turn.reviewing and interaction.message is not None:
            self._await_lesson(turn, lang, interaction, interaction.message.id)

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
            await self.retire(
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
