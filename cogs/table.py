"""The ``TicTacToe`` cog: what every game's commands share (each game's commands are
declared in :mod:`cogs.faces`): posting a board, the clicks on any board and Rematch,
challenges, the sweep of idle games and expired invitations, the server listeners.
Thin: parse, call the game flow, render the reply.
"""

from __future__ import annotations

import asyncio
import io
import logging
import math
import re
from dataclasses import replace

import discord
from discord import app_commands
from discord.ext import commands, tasks

from gameflow import COMMANDS, GameError, GameService, Turn, parse_moves
from gameflow.brain import EXAMPLES
from gameflow.places import is_own_bot
from gameflow.puzzles import PUZZLE_GAMES
from gameflow.service import no_game_here
from i18n import N_, Language, Msg, language

from .boards import look_of
from .challenges import ChallengeButton, ChallengeDesk
from .chart import FILE_NAME as CHART_FILE
from .chart import curve_png
from .faces import FACES
from .game_commands import game_group
from .pictures import Pictures
from .places import bot_is_here, place, place_name
from .posting import PostingLimit
from .questions import AnswerButton, Questions
from .render import (
    WELCOME,
    WELCOME_PUZZLES,
    board_embed,
    board_view,
    brain_embed,
    cell_click,
    duration_text,
    leaderboard_embed,
    stats_embed,
)
from .render.review import add_review, add_rules_only
from .replays import DYNAMIC_ITEMS as REPLAY_ITEMS
from .replies import (
    ON_POST,
    answer,
    defer,
    in_time,
    private,
    public,
    refuse,
    server_language,
    show,
    update,
)
from .ticks import Ticks
from .ttt import forget_answered

log = logging.getLogger(__name__)

TICTACTOE = "tictactoe"


def now() -> float:
    return discord.utils.utcnow().timestamp()  # discord.py's clock, which tests can move


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


class Table(commands.Cog, name="TicTacToe"):
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

    async def _post_board(self, interaction: discord.Interaction, turn: Turn) -> None:
        """Answer with the game's board at the bottom of the chat, and delete the board
        it replaces: one live board per game, and never an old one showing a stale game.

        A slash command must be answered anyway, so answering with the board costs one
        call (the message id comes back with it); the deletion is the second and last.
        """
        lang = public(interaction)
        message_id = await answer(
            interaction, embed=self._board(turn, lang), view=board_view(turn.game, lang=lang)
        )
        if turn.reviewing and message_id is not None:
            self._later(self._show_review(turn, lang, interaction, message_id))
        old_message_id = turn.game.message_id
        if turn.game.running and message_id is not None:  # later moves update this message
            try:
                old_message_id = await self.service.attach_message(turn.game, message_id)
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
    def _board(self, turn: Turn, lang: Language) -> discord.Embed:
        """A board; a final classic one says it is looking back (or that it cannot)."""
        embed = board_embed(turn, lang)
        if turn.reviewing:
            add_review(embed, turn.game, None, done=False, lang=lang)
        elif not turn.game.running and self.service.reviews.rules_only(turn.game):
            add_rules_only(embed, lang)
        return embed

    def _later(self, work) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._reviews.add(task)
        task.add_done_callback(self._reviews.discard)

    async def _show_review(
        self,
        turn: Turn,
        lang: Language,
        interaction: discord.Interaction | None,
        message_id: int,
    ) -> None:
        """Edit a final board with its post-mortem's lesson, once: through the interaction
        if the bot is not in the channel (its token lasts 15 minutes), else the message."""
        try:
            if interaction is not None and bot_is_here(interaction):
                try:  # for a restart to find it; the lesson is shown all the same
                    await self.service.reviews.note_board(turn.game, message_id)
                except Exception as error:
                    log.warning("could not note game %s's board: %s", turn.game.id, error)
            outcome = await self.service.review(turn.game.id)
            new = outcome.new_facts if outcome else 0
            embed = board_embed(replace(turn, memory_size=turn.memory_size + new), lang)
            add_review(embed, turn.game, outcome, done=True, lang=lang)
            view = board_view(turn.game, lang=lang)
            if interaction is not None and not bot_is_here(interaction):
                await interaction.edit_original_response(embed=embed, view=view)
                return
            channel = self.bot.get_partial_messageable(turn.game.channel_id)
            await channel.get_partial_message(message_id).edit(embed=embed, view=view)
        except discord.HTTPException as error:  # deleted, or no access: the lesson is stored
            log.warning("could not show the post-mortem of game %s: %s", turn.game.id, error)
        except Exception:
            log.exception("could not show the post-mortem of game %s", turn.game.id)

    async def _show_recovered_review(self, game_id: int) -> None:
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

    # --- what every game's commands do --------------------------------------------------
    async def may_post(self, interaction: discord.Interaction) -> bool:
        """A public post (a challenge, a board, stats, a leaderboard) within the member's
        rate in this channel; past it, a private answer saying when to try again (a Discord
        timestamp, which each reader's app shows as "in 47 seconds"). Moves, clicks, new
        games and Rematch are never limited: see :meth:`start_game`."""
        channel_id, member_id = interaction.channel_id, interaction.user.id
        at = now()
        wait = self.posting.wait(channel_id, member_id, at)
        if not wait:  # its place is held, and counted only if something is posted
            interaction.extras[ON_POST] = lambda posted: self.posting.settle(
                channel_id, member_id, now(), posted=posted
            )
        if wait:
            await refuse(
                interaction,
                N_(
                    "You're posting a lot in this channel: try again {when}. Moves, new games "
                    "and the board's buttons are never limited.",
                    when=f"<t:{math.ceil(at + wait)}:R>",
                ),
            )
        return not wait

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
        await show(interaction, lambda: self._post_board(interaction, turn))
        if interaction.guild_id is not None and not bot_is_here(interaction):
            try:  # its data stays 30 days after its last game
                await self.service.played_without_me(interaction.guild_id)
            except Exception:  # the game is saved; the server's next game notes it again
                log.warning("could not note a game in server %s", interaction.guild_id)

    async def play_move(self, interaction: discord.Interaction, number: int, command: str) -> None:
        turn = await in_time(
            interaction,
            self.service.move(interaction.channel_id, interaction.user.id, number, command=command),
        )
        if turn is not None:
            await show(interaction, lambda: self._post_board(interaction, turn))

    def legal_choices(
        self, interaction: discord.Interaction, current: str | int, command: str
    ) -> list[app_commands.Choice[int]]:
        """Autocomplete: the moves the member may play now in the channel's game."""
        game = self.service.running_game(interaction.channel_id)
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
            await show(interaction, lambda: self._post_board(interaction, turn))

    async def show_board(self, interaction: discord.Interaction, command: str) -> None:
        if not await self.may_post(interaction):
            return
        game = await self.service.find_game(interaction.channel_id)
        if game is None:
            await refuse(interaction, no_game_here(command))
            return
        memory = await self.service.memory(game.guild_id, game.kind)
        await self._post_board(interaction, Turn(game, memory_size=len(memory)))

    async def show_brain(
        self, interaction: discord.Interaction, moves: str | None, game_name: str
    ) -> None:
        command = COMMANDS[game_name]
        lang = private(interaction)
        try:
            if moves is None:
                game = self.service.running_game(interaction.channel_id)
                if game is None or game.command != command:
                    raise GameError(
                        N_(
                            "No game is running in this channel. Give the moves to look at, "
                            "such as `{command} brain moves: {example}`.",
                            command=command,
                            example=EXAMPLES[game_name],
                        )
                    )
                game_name = game.kind
                played, title = game.moves, lang.t("🧠 What I know about this channel's game")
            else:
                played = parse_moves(moves, game_name)
                title = (
                    lang.t(
                        "🧠 What I know after {moves}", moves=" ".join(str(c + 1) for c in played)
                    )
                    if played
                    else lang.t("🧠 What I know before the first move")
                )
        except GameError as error:
            await refuse(interaction, error.message)
            return
        view = await self.service.brain.view(place(interaction), played, game_name)
        await interaction.response.send_message(
            embed=brain_embed(view, title, lang), ephemeral=True
        )

    async def show_leaderboard(self, interaction: discord.Interaction, by: str, game: str) -> None:
        if interaction.guild_id is None:
            await refuse(
                interaction,
                N_(
                    "The leaderboard ranks a server's members. Outside a server you teach your "
                    "own bot: `{command} stats` shows how far it has come.",
                    command=COMMANDS[game],
                ),
            )
            return
        if not await self.may_post(interaction):
            return
        # every read of the store goes through the deadline guard: a slow database must
        # not leave Discord's 3 seconds unanswered
        standings = await in_time(
            interaction,
            self.service.leaderboard(interaction.guild_id, interaction.user.id, by, game),
        )
        if standings is None:
            return
        top, own = standings
        levels = {}
        if by == "wins":  # wins at easier levels are not ranked: the asker sees theirs
            levels = await in_time(
                interaction,
                self.service.wins_by_level(interaction.guild_id, interaction.user.id, game),
            )
            if levels is None:
                return
        lang = public(interaction)
        await answer(
            interaction,
            embed=leaderboard_embed(
                top, own, by, place_name(interaction, lang), interaction.user.id, game, lang, levels
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def show_stats(
        self,
        interaction: discord.Interaction,
        game: str,
        member: discord.User | discord.Member | None = None,
    ) -> None:
        """This server's figures, and the asker's (or ``member``'s) record."""
        if not await self.may_post(interaction):
            return
        # two reads and a drawing, each of which may be slow: one deferral now, not one
        # per step (the second came past Discord's deadline, and a second first response
        # followed it)
        await defer(interaction)
        guild_id = place(interaction)
        player = member or interaction.user
        stats = await in_time(interaction, self.service.stats(guild_id, player.id, game))
        if stats is None:
            return
        lang = public(interaction)
        # outside a server, the player's own bot (None: see stats_embed)
        server = None if is_own_bot(guild_id) else place_name(interaction, lang)
        embed = stats_embed(stats, player, server, game, asker_id=interaction.user.id, lang=lang)
        puzzles = self.bot.get_cog("Puzzles")
        if puzzles is not None and game in PUZZLE_GAMES:  # the puzzle records, beside
            field = await in_time(interaction, puzzles.records(guild_id, player.id, lang))
            if field is None:
                return
            embed.add_field(name=field[0], value=field[1], inline=False)
        png = await in_time(interaction, self._curve_png(guild_id, server, game, lang))
        if png is None:  # no game has taught anything yet (or the drawing failed: logged)
            await answer(interaction, embed=embed)
            return
        embed.set_image(url=f"attachment://{CHART_FILE}")
        await answer(interaction, embed=embed, file=discord.File(io.BytesIO(png), CHART_FILE))

    async def _curve_png(
        self, guild_id: int, guild_name: str | None, game: str, lang: Language
    ) -> bytes | None:
        """The learning curve's picture; the figures are shown even if drawing fails."""
        try:
            points = await self.service.curve(guild_id, game)
            title = (
                lang.t("How your own bot learned")
                if guild_name is None
                else lang.t("How I learned in {server}", server=guild_name)
                if game == TICTACTOE
                else lang.t(
                    "How I learned in {server} ({game})",
                    server=guild_name,
                    game=look_of(game).title,
                )
            )
            losses = None  # the classic board's losses per 50 games: no ways to count there
            if look_of(game).game.classic:
                losses = await self.service.losses_by_block(guild_id, game)
            discs = game != TICTACTOE  # Connect Four: red and yellow, not X and O
            return await curve_png(
                self.pictures, guild_id, points, title, lang, losses, discs=discs
            )
        except Exception:
            log.exception("could not draw the learning curve of server %s", guild_id)
            return None

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once, at start: servers removed while the bot was not running start their 30
        days (no event told it of them)."""
        if self._departures_noted:
            return
        self._departures_noted = True
        try:
            await self.service.note_departures({g.id for g in self.bot.guilds})
        except Exception:  # the next start looks again
            log.exception("could not look for the servers the bot left while it was down")

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server: its data is deleted in 30 days, unless the bot is added
        back (the sweep does it)."""
        try:
            await self.service.left_server(guild.id)
        except Exception:  # it stays; the README says how to delete it by hand
            log.exception("could not note that the bot left server %s", guild.id)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Say hello once, where the bot may post: the server's system channel, or else the
        first text channel it can write in. Back in a server it left, nothing of it is to
        be deleted."""
        try:
            await self.service.joined_server(guild.id)
        except Exception:  # the sweep checks again before it deletes anything
            log.exception("could not note that the bot joined server %s", guild.id)
        me = guild.me
        channels = [guild.system_channel, *guild.text_channels]
        hello_in = next(
            (c for c in channels if c is not None and c.permissions_for(me).send_messages), None
        )
        if hello_in is None:
            return
        try:
            lang = language(guild.preferred_locale)
            await hello_in.send(
                f"{lang.say(WELCOME)} {lang.say(WELCOME_PUZZLES)}",
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as error:  # no access after all: nobody is the worse
            log.warning("could not welcome server %s: %s", guild.id, error)

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
        game = await self.service.find_game(interaction.channel_id)
        if game is None or game.id != game_id:
            await refuse(
                interaction,
                N_("That game is over. Start a new one with `/ttt play` or `/connect4 play`."),
            )
            return
        turn = await in_time(
            interaction,
            self.service.move(interaction.channel_id, interaction.user.id, cell, expected_ply=ply),
        )
        if turn is not None:
            await show(interaction, lambda: self._update_board(interaction, turn))

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
            self._later(self._show_review(turn, lang, interaction, interaction.message.id))

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
        await self.service.erase_departed(still_in=lambda g: self.bot.get_guild(g) is not None)
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

    @sweep.before_loop
    async def _wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()
        self.challenges.start_timers()  # for invitations left by the last process
