"""A game's one live board: posted at the bottom of the chat in place of the last one,
redrawn when the game ends without a request in its channel, and on the classic board
edited with its post-mortem's lesson."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace

import discord
from discord.ext import commands

from cogs.play.render import board_embed, board_view
from cogs.play.review import add_review, add_rules_only, review_view
from cogs.utils.places import bot_is_here
from cogs.utils.replies import answer, public, server_language
from gameflow import GameService, Turn
from gameflow.reviews import ReviewOutcome
from i18n import Language, Msg, language

log = logging.getLogger(__name__)


class BoardPosts:
    """A game's one live board in its channel: posted, redrawn, retired, and edited with its
    post-mortem's lesson. Given to every feature that shows or ends a game (play, admin's
    end-game)."""

    def __init__(self, bot: commands.Bot, service: GameService) -> None:
        self.bot = bot
        self.service = service
        self._reviews: set[asyncio.Task] = set()  # final boards waiting for their lesson

    def close(self) -> None:
        for task in self._reviews:
            task.cancel()

    async def post(self, interaction: discord.Interaction, turn: Turn) -> None:
        """Answer with the game's board at the bottom of the chat, and delete the board
        it replaces: one live board per game, and never an old one showing a stale game.

        A slash command must be answered anyway, so answering with the board costs one
        call (the message id comes back with it); the deletion is the second and last.
        """
        lang = public(interaction)
        message_id = await answer(
            interaction, embed=self.embed(turn, lang), view=board_view(turn.game, lang=lang)
        )
        if turn.reviewing and message_id is not None:
            self.await_lesson(turn, lang, interaction, message_id)
        old_message_id = turn.game.message_id
        if turn.game.running and message_id is not None:  # later moves update this message
            try:
                old_message_id = await self.service.running.attach_message(turn.game, message_id)
            except Exception:  # the board is shown; only the later deletion of it is lost
                log.warning("could not remember board message %s", message_id, exc_info=True)
        if not bot_is_here(interaction):  # only the interaction's own answers reach here
            return
        if old_message_id is not None and old_message_id != message_id:
            channel = self.bot.get_partial_messageable(turn.game.channel_id)
            try:
                await channel.get_partial_message(old_message_id).delete()
            except discord.HTTPException as error:  # gone already, or no access: fine
                log.warning("could not delete old board message %s: %s", old_message_id, error)

    # --- the classic board's post-mortem on its final board ------------------------------
    def embed(self, turn: Turn, lang: Language) -> discord.Embed:
        """A board; a final classic one says it is looking back (or that it cannot)."""
        embed = board_embed(turn, lang)
        if turn.reviewing:
            add_review(embed, turn.game, None, done=False, lang=lang)
        elif not turn.game.running and self.service.reviews.rules_only(turn.game):
            add_rules_only(embed, lang)
        return embed

    def later(self, work) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._reviews.add(task)
        task.add_done_callback(self._reviews.discard)

    def await_lesson(
        self, turn: Turn, lang: Language, interaction: discord.Interaction, message_id: int
    ) -> None:
        """Have a final board edited with its post-mortem's lesson once it is done: no task
        waits meanwhile (a burst of 500 losses queues 500 reviews), and the interaction is
        kept only if its token is the way to the board (the bot is not in the channel)."""
        if bot_is_here(interaction):
            self.later(self._note_board(turn, message_id))
            interaction = None
        self.service.reviews.when_done(
            turn.game.id,
            lambda outcome: self.later(
                self._show_lesson(turn, lang, interaction, message_id, outcome)
            ),
        )

    async def _note_board(self, turn: Turn, message_id: int) -> None:
        try:  # for a restart to find it; the lesson is shown all the same
            await self.service.reviews.note_board(turn.game, message_id)
        except Exception as error:
            log.warning("could not note game %s's board: %s", turn.game.id, error)

    async def _show_review(
        self,
        turn: Turn,
        lang: Language,
        interaction: discord.Interaction | None,
        message_id: int,
    ) -> None:
        """Edit a final board with its post-mortem's lesson once it is done."""
        outcome = await self.service.review(turn.game.id)
        await self._show_lesson(turn, lang, interaction, message_id, outcome)

    async def _show_lesson(
        self,
        turn: Turn,
        lang: Language,
        interaction: discord.Interaction | None,
        message_id: int,
        outcome: ReviewOutcome | None,
    ) -> None:
        """Edit a final board with its post-mortem's lesson (``outcome``; ``None``: it
        could not finish now), once: through ``interaction`` if given (the bot is not in
        the channel; its token lasts 15 minutes), else the message."""
        try:
            new = outcome.new_facts if outcome else 0
            embed = board_embed(replace(turn, memory_size=turn.memory_size + new), lang)
            add_review(embed, turn.game, outcome, done=True, lang=lang)
            view = review_view(turn.game, outcome, lang)  # Replay opens at its lesson
            if interaction is not None:
                await interaction.edit_original_response(embed=embed, view=view)
                return
            channel = self.bot.get_partial_messageable(turn.game.channel_id)
            await channel.get_partial_message(message_id).edit(embed=embed, view=view)
        except discord.HTTPException as error:  # deleted, or no access: the lesson is stored
            log.warning("could not show the post-mortem of game %s: %s", turn.game.id, error)
        except Exception:
            log.exception("could not show the post-mortem of game %s", turn.game.id)

    async def show_recovered_review(self, game_id: int) -> None:
        """A post-mortem a restart ran again: its board edited, if the bot can reach it."""
        outcome = await self.service.review(game_id)
        await self.bot.wait_until_ready()
        if outcome is None or outcome.game.message_id is None:
            return
        game = outcome.game
        if self.bot.get_channel(game.channel_id) is None:  # not in that channel (any more)
            return
        lang = server_language(self.bot, game.guild_id)
        try:
            memory = await self.service.memory(game.guild_id, game.kind)
        except Exception as error:  # the database is away: the lesson is stored all the same
            log.warning("could not redraw game %s's board: %s", game_id, error)
            return
        # the outcome's facts are in the memory already: the board's count is the memory's
        turn = Turn(game, memory_size=len(memory) - outcome.new_facts, reviewing=True)
        await self._show_review(turn, lang, None, game.message_id)

    async def _redraw(self, turn: Turn, lang: Language) -> None:
        """Redraw a game's live board as the game now stands (it ended without a request
        in its channel: a timeout, or a moderator)."""
        if turn.game.message_id is None:
            return
        channel = self.bot.get_partial_messageable(turn.game.channel_id)
        try:
            await channel.get_partial_message(turn.game.message_id).edit(
                embed=board_embed(turn, lang), view=board_view(turn.game, lang=lang)
            )
        except discord.HTTPException as error:  # deleted, or no access: the game is over
            log.warning("could not update board message %s: %s", turn.game.message_id, error)

    async def retire(self, turn: Turn, notice: Msg) -> None:
        """Redraw the board of a game that ended outside its channel's requests, and say so
        in the channel, in the server's language (without pinging anyone)."""
        game = turn.game
        guild = self.bot.get_guild(game.guild_id)
        if guild is None:  # not a server that added the bot: it may neither edit nor post
            return  # there; a click on the old board says the game is over
        lang = language(guild.preferred_locale)
        await self._redraw(turn, lang)
        channel = self.bot.get_partial_messageable(game.channel_id)
        text = lang.say(notice)
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as error:
            log.warning("could not announce the end of game %s: %s", game.id, error)
