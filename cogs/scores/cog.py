"""A server's scores: ``stats`` with the learning curve, and the ``leaderboard`` (by
puzzles: :mod:`cogs.puzzles`). Thin: parse, call the game flow, render the reply."""

from __future__ import annotations

import io
import logging

import discord
from discord.ext import commands

from cogs.pictures.chart import FILE_NAME as CHART_FILE
from cogs.pictures.chart import curve_png
from cogs.pictures.process import Pictures
from cogs.puzzles.render import records_field
from cogs.scores.render import leaderboard_embed, stats_embed
from cogs.utils.boards import look_of
from cogs.utils.places import place, place_name
from cogs.utils.posting import PostingLimit, may_post
from cogs.utils.ratings import (
    bot_rating_text,
    member_ratings_text,
    provisional_note,
    rating_leaderboard_embed,
)
from cogs.utils.replies import answer, defer, in_time, public, refuse
from gameflow import BOARDS, GameService
from gameflow.game import TICTACTOE
from gameflow.places import is_own_bot
from gameflow.puzzles import PUZZLE_GAMES
from i18n import N_, Language

log = logging.getLogger(__name__)


class Scores(commands.Cog):
    """Stats and the leaderboard, for every game's commands."""

    def __init__(self, service: GameService, posting: PostingLimit, pictures: Pictures) -> None:
        self.service = service
        self.posting = posting
        self.pictures = pictures
        super().__init__()

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
        if not await may_post(self.posting, interaction):
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
        if by == "rating":  # established ratings: their own embed
            lang = public(interaction)
            server = place_name(interaction, lang)
            await answer(
                interaction,
                embed=rating_leaderboard_embed(top, own, server, interaction.user.id, game, lang),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
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
        if not await may_post(self.posting, interaction):
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
        rated = await in_time(
            interaction,
            self.service.scoreboard.ratings(guild_id, player.id, game, self.service.clock()),
        )
        if rated is None:
            return
        members, bot = rated
        lines = [bot_rating_text(bot, lang), member_ratings_text(members, lang)]
        if bot.rating.provisional or any(r.provisional for r in members.values()):
            lines.append(provisional_note(lang))
        embed.add_field(
            name=lang.t("Ratings"), value="\n".join(x for x in lines if x), inline=False
        )
        if game in PUZZLE_GAMES:  # the puzzle records, beside
            standings = await in_time(
                interaction, self.service.puzzles.standings(guild_id, player.id)
            )
            if standings is None:
                return
            member, server_record, count, rating = standings
            today = self.service.puzzles.today()
            name, value = records_field(
                player.id, member, server_record, count, today, lang, rating
            )
            embed.add_field(name=name, value=value, inline=False)
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
            ratings = await self.service.scoreboard.bot_ratings(guild_id, game)
            return await curve_png(
                self.pictures, guild_id, points, title, lang, losses, discs=discs, ratings=ratings
            )
        except Exception:
            log.exception("could not draw the learning curve of server %s", guild_id)
            return None
