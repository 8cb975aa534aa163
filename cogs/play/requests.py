"""What every game's commands do, for the ``TicTacToe`` cog (:class:`cogs.table.Table`):
start a game, a move, resign, show the board, the brain, the leaderboard and the stats,
within the posting limit. Thin: parse, call the game flow, render the reply."""

from __future__ import annotations

import io
import logging
import math
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands

from gameflow import BOARDS, GameError, GameService, Turn, parse_moves
from gameflow.places import is_own_bot
from gameflow.puzzles import PUZZLE_GAMES
from gameflow.running import no_game_here
from i18n import N_, Language

from .boards import look_of
from .chart import FILE_NAME as CHART_FILE
from .chart import curve_png
from .pictures import Pictures
from .places import bot_is_here, place, place_name
from .posting import PostingLimit
from .render import brain_embed, leaderboard_embed, stats_embed
from .replies import ON_POST, answer, defer, in_time, private, public, refuse, show

log = logging.getLogger(__name__)

TICTACTOE = "tictactoe"


def now() -> float:
    return discord.utils.utcnow().timestamp()  # discord.py's clock, which tests can move


class GameRequests:
    """Part of :class:`cogs.table.Table`: what it needs of the cog is declared below."""

    service: GameService
    pictures: Pictures
    posting: PostingLimit
    _post_board: Callable[[discord.Interaction, Turn], Awaitable[None]]

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
                await self.service.servers.played_without_me(interaction.guild_id)
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
            await show(interaction, lambda: self._post_board(interaction, turn))

    async def show_board(self, interaction: discord.Interaction, command: str) -> None:
        if not await self.may_post(interaction):
            return
        turn = await in_time(interaction, self._channel_board(interaction.channel_id, command))
        if turn is not None:
            await self._post_board(interaction, turn)

    async def _channel_board(self, channel_id: int, command: str) -> Turn:
        """The channel's game as its board shows it: read from the store if this process
        does not keep it, and its memory's size, which may be read too."""
        game = await self.service.running.find_game(channel_id)
        if game is None:
            raise GameError(no_game_here(command))
        memory = await self.service.memory(game.guild_id, game.kind)
        return Turn(game, memory_size=len(memory))

    async def show_brain(
        self, interaction: discord.Interaction, moves: str | None, game_name: str
    ) -> None:
        command = BOARDS[game_name].command
        lang = private(interaction)
        try:
            if moves is None:
                game = self.service.running.running_game(interaction.channel_id)
                if game is None or game.command != command:
                    raise GameError(
                        N_(
                            "No game is running in this channel. Give the moves to look at, "
                            "such as `{command} brain moves: {example}`.",
                            command=command,
                            example=BOARDS[game_name].example,
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
        here = place(interaction)
        view = await in_time(
            interaction, self.service.brain.view(here, played, game_name), private=True
        )
        if view is not None:
            await answer(interaction, private=True, embed=brain_embed(view, title, lang))

    async def show_leaderboard(self, interaction: discord.Interaction, by: str, game: str) -> None:
        if interaction.guild_id is None:
            await refuse(
                interaction,
                N_(
                    "The leaderboard ranks a server's members. Outside a server you teach your "
                    "own bot: `{command} stats` shows how far it has come.",
                    command=BOARDS[game].command,
                ),
            )
            return
        if not await self.may_post(interaction):
            return
        # every read of the store goes through the deadline guard: a slow database must
        # not leave Discord's 3 seconds unanswered
        standings = await in_time(
            interaction,
            self.service.scoreboard.leaderboard(
                interaction.guild_id, interaction.user.id, by, game
            ),
        )
        if standings is None:
            return
        top, own = standings
        levels = {}
        if by == "wins":  # wins at easier levels are not ranked: the asker sees theirs
            levels = await in_time(
                interaction,
                self.service.scoreboard.wins_by_level(
                    interaction.guild_id, interaction.user.id, game
                ),
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
        stats = await in_time(interaction, self.service.scoreboard.stats(guild_id, player.id, game))
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
            points = await self.service.scoreboard.curve(guild_id, game)
            title = (
                lang.t("How your own bot learned")
                if guild_name is None
                else lang.t("How I learned in {server}", server=guild_name)
                if game == TICTACTOE
                else lang.t(
                    "{game}: how I learned in {server}",
                    server=guild_name,
                    game=look_of(game).title,
                )
            )
            losses = None  # the classic board's losses per 50 games: no ways to count there
            if look_of(game).game.classic:
                losses = await self.service.scoreboard.losses_by_block(guild_id, game)
            discs = game != TICTACTOE  # Connect Four: red and yellow, not X and O
            return await curve_png(
                self.pictures, guild_id, points, title, lang, losses, discs=discs
            )
        except Exception:
            log.exception("could not draw the learning curve of server %s", guild_id)
            return None
