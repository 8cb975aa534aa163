"""Puzzles in Discord: ``/connect4 puzzle`` (private), its column buttons, Show me and Next
puzzle, the daily post of a server that asked for one, and the puzzle records in stats
and on the leaderboard. Thin: parse, call the game flow (:mod:`gameflow.puzzles`), draw
(:mod:`cogs.puzzles.render`).

Every button names its puzzle (see :data:`cogs.puzzles.render.PUZZLE_CLICK`), so a puzzle,
its solution and a daily post go on working after a restart. The daily post is claimed in
the store before it is posted, so a restart (or another process) never posts it twice.
"""

from __future__ import annotations

import asyncio
import logging
import re

import discord
from discord.ext import commands, tasks

from cogs.puzzles.followups import follow_embed, follow_view
from cogs.puzzles.render import (
    PUZZLE_CLICK,
    answer_embed,
    answer_view,
    columns_view,
    daily_embed,
    puzzle_embed,
    puzzle_leaderboard_embed,
    solution_embed,
    solution_view,
    too_few_text,
)
from cogs.utils.items import bound
from cogs.utils.places import place, place_name
from cogs.utils.posting import PostingLimit, may_post
from cogs.utils.replies import answer, in_time, private, public, refuse, update
from cogs.utils.ticks import Ticks
from data.puzzles import DAY
from gameflow import GameError, GameService
from gameflow.errors import StoreUnavailableError
from gameflow.places import is_own_bot
from gameflow.puzzle_followups import plays_on
from gameflow.puzzles import CLASSIC, TooFewPuzzles, check_board
from i18n import N_, language

log = logging.getLogger(__name__)

DAILY_SECONDS = 60.0  # how often the servers whose daily puzzle is due are looked for
COUNT_EDIT_SECONDS = 2.0  # answers to a daily post within this long make one edit of it
DAILY_LOOK_BACK = 50  # a daily post cut short is looked for among this many last messages

NOT_A_BUTTON = N_("That button is not one of mine. `/connect4 puzzle` gives you a puzzle.")
OUTSIDE_SERVERS = N_(
    "The leaderboard ranks a server's members. Outside a server you solve your own bot's "
    "puzzles: `/connect4 stats` shows your record."
)


class PuzzleButton(discord.ui.DynamicItem[discord.ui.Button], template=PUZZLE_CLICK.pattern):
    """A puzzle's column, Show me's steps, Next puzzle (see :mod:`cogs.puzzles.render`)."""

    desk: PuzzleDesk  # bound by the desk (cogs.utils.items.bound)

    def __init__(self, custom_id: str, puzzle_id: int, what: str, number: str) -> None:
        # the label is only what discord.py needs to route a click: puzzles draw their own
        super().__init__(discord.ui.Button(custom_id=custom_id, label="Puzzle"))
        self.puzzle_id, self.what, self.number = puzzle_id, what, number

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> PuzzleButton:
        return cls(item.custom_id, int(match["puzzle"]), match["what"], match["number"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await self.desk.on_click(interaction, self.puzzle_id, self.what, self.number)


class PuzzleDesk(commands.Cog):
    """Posing, answering and showing puzzles; the daily post; the records."""

    def __init__(
        self,
        bot: commands.Bot,
        service: GameService,
        posting: PostingLimit,
        *,
        daily_seconds: float = DAILY_SECONDS,
    ) -> None:
        self.bot = bot
        self.service = service
        self.posting = posting  # the daily post counts as the bot's own
        self.button = bound(PuzzleButton, desk=self)
        self.puzzles = service.puzzles
        self.daily.change_interval(seconds=daily_seconds)
        self._dailies = Ticks(name="the daily puzzle")  # in the log only
        self._recount: dict[int, asyncio.Task] = {}  # daily posts waiting for their edit
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(self.button)
        self.daily.start()

    async def cog_unload(self) -> None:
        self.daily.cancel()
        for task in self._recount.values():
            task.cancel()
        self.bot.remove_dynamic_items(self.button)

    # --- /connect4 puzzle ---------------------------------------------------------
    async def pose(self, interaction: discord.Interaction, game: str) -> None:
        """A private puzzle for the asker (outside servers, from their own bot)."""
        try:
            check_board(game)
        except GameError as error:
            await refuse(interaction, error.message)
            return
        here = place(interaction)
        posed = await in_time(interaction, self._posed(here, interaction.user.id), private=True)
        if posed is None:
            return
        lang = private(interaction)
        if isinstance(posed, TooFewPuzzles):
            await answer(
                interaction,
                private=True,
                content=too_few_text(posed.have, posed.games, is_own_bot(here), lang),
            )
            return
        await answer(
            interaction,
            private=True,
            embed=puzzle_embed(posed, lang, own_bot=is_own_bot(here)),
            view=columns_view(posed, "c", lang),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def _posed(self, here: int, member_id: int):
        try:
            return await self.puzzles.pose(here, member_id, CLASSIC)
        except TooFewPuzzles as few:  # said in full, not as a refusal
            return few

    async def _followed(self, here: int, member_id: int, puzzle_id: int):
        try:
            return await self.puzzles.follow(here, member_id, puzzle_id)
        except TooFewPuzzles as few:
            return few

    # --- buttons --------------------------------------------------------------------
    async def on_click(
        self, interaction: discord.Interaction, puzzle_id: int, what: str, number: str
    ) -> None:
        """A puzzle's button. A private puzzle's own buttons (its columns, Show me, Next
        puzzle) only ever edit a private message: on a public one (a modified client's
        click) they are no button of mine, and a public message is never edited."""
        message = interaction.message
        own = what in "dh" or (message is not None and message.flags.ephemeral)
        if not own:
            await refuse(interaction, NOT_A_BUTTON)
        elif what in "cd" and number.isdigit() and int(number) >= 1:
            await self._answer(interaction, puzzle_id, int(number) - 1, daily=what == "d")
        elif what == "s" and number.isdigit():
            await self._show(interaction, puzzle_id, int(number))
        elif what == "w" and len(number) >= 2 and number[0] != "0":  # column, then step
            await self._show(interaction, puzzle_id, int(number[1:]), int(number[0]) - 1)
        elif what == "n" and not number:
            await self._next(interaction, puzzle_id)
        elif what == "r" and not number:
            await self._retry(interaction, puzzle_id)
        elif what == "h" and not number:
            await self._hint(interaction, puzzle_id)
        elif what == "f":  # a short win played on: the member's columns after the answer
            await self._play_on(interaction, puzzle_id, tuple(int(c) - 1 for c in number))
        else:  # a forged id: no such button
            await refuse(interaction, NOT_A_BUTTON)

    async def _answer(
        self, interaction: discord.Interaction, puzzle_id: int, column: int, *, daily: bool
    ) -> None:
        """A column given: on a private puzzle, its message becomes the answer; on the
        daily post, the answer is a private message of its own, and the post's count is
        brought up to date."""
        answered = await in_time(
            interaction,
            self.puzzles.answer(place(interaction), interaction.user.id, puzzle_id, column),
            private=daily,
        )
        if answered is None:
            return
        lang = private(interaction)
        shown = {
            "embed": answer_embed(answered, lang, solver=self.puzzles.solver),
            "view": answer_view(
                puzzle_id,
                self.puzzles.solver,
                lang,
                answered.posed.puzzle,
                right=answered.right,
                wrong=column,
                play_on=self.puzzles.solver and plays_on(answered.posed),
            ),
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        if daily:
            await answer(interaction, private=True, **shown)
            if answered.first and interaction.message is not None:
                self._recount_later(interaction.guild_id, interaction.message)
        else:
            await update(interaction, **shown)

    async def _show(
        self,
        interaction: discord.Interaction,
        puzzle_id: int,
        step: int,
        column: int | None = None,
    ) -> None:
        """Show me, and its ⏮ ◀ ▶ ⏭: the solution at a step (worked out in the solver's
        worker the first time)."""
        shown = await in_time(
            interaction,
            self.puzzles.solution(place(interaction), interaction.user.id, puzzle_id, step, column),
        )
        if shown is not None:
            lang = private(interaction)
            await update(
                interaction, embed=solution_embed(shown, lang), view=solution_view(shown, lang)
            )

    async def _play_on(
        self, interaction: discord.Interaction, puzzle_id: int, columns: tuple[int, ...]
    ) -> None:
        """A step of a short win played on to its end (worked out in the solver's worker;
        no record changes): the private message shows it."""
        shown = await in_time(
            interaction,
            self.puzzles.play_on(place(interaction), interaction.user.id, puzzle_id, columns),
        )
        if shown is not None:
            lang = private(interaction)
            await update(
                interaction,
                embed=follow_embed(shown, lang),
                view=follow_view(shown, self.puzzles.solver, lang),
                allowed_mentions=discord.AllowedMentions.none(),
            )

    async def _next(self, interaction: discord.Interaction, puzzle_id: int) -> None:
        """Next puzzle: the message becomes another puzzle (asked from a puzzle posed to
        the member, or posted for everyone)."""
        here = place(interaction)
        posed = await in_time(interaction, self._followed(here, interaction.user.id, puzzle_id))
        if posed is None:
            return
        lang = private(interaction)
        if isinstance(posed, TooFewPuzzles):
            await refuse(interaction, too_few_text(posed.have, posed.games, is_own_bot(here), lang))
            return
        await update(
            interaction,
            embed=puzzle_embed(posed, lang, own_bot=is_own_bot(here)),
            view=columns_view(posed, "c", lang),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def _hint(self, interaction: discord.Interaction, puzzle_id: int) -> None:
        """The puzzle's one hint (it counts as not solved): on a private puzzle, in place;
        on the daily post, the puzzle with its hint in a private message of its own."""
        message = interaction.message
        in_place = message is not None and message.flags.ephemeral
        here = place(interaction)
        posed = await in_time(
            interaction,
            self.puzzles.hint(here, interaction.user.id, puzzle_id),
            private=not in_place,
        )
        if posed is None:
            return
        lang = private(interaction)
        shown = {
            "embed": puzzle_embed(posed, lang, own_bot=is_own_bot(here), hinted=True),
            "view": columns_view(posed, "c", lang, hint=False),
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        if in_place:
            await update(interaction, **shown)
        else:
            await answer(interaction, private=True, **shown)
            if message is not None:  # a hint counts as tried: the daily post's count
                self._recount_later(interaction.guild_id, message)

    async def _retry(self, interaction: discord.Interaction, puzzle_id: int) -> None:
        """Try again: the answer becomes the puzzle again (only the first answer counts)."""
        here = place(interaction)
        posed = await in_time(interaction, self.puzzles.retry(here, interaction.user.id, puzzle_id))
        if posed is None:
            return
        lang = private(interaction)
        await update(
            interaction,
            embed=puzzle_embed(posed, lang, own_bot=is_own_bot(here), retry=True),
            view=columns_view(posed, "c", lang),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # --- the daily puzzle -----------------------------------------------------------
    @tasks.loop(seconds=DAILY_SECONDS)
    async def daily(self) -> None:
        """Post the daily puzzle of every server (of this process) whose day has come. A
        round that fails (the database unreachable) is skipped: the next tick tries again."""
        with self._dailies.round():
            await self._post_dailies()

    @daily.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

    async def _post_dailies(self) -> None:
        today, cut_short = await self.puzzles.dailies_cut_short(self.service.shards)
        today, due_now = await self.puzzles.dailies_due(self.service.shards)
        for due, post in [(d, self._resume_daily) for d in cut_short] + [
            (d, self._post_daily) for d in due_now
        ]:
            try:
                await post(due, today)
            except StoreUnavailableError:
                raise  # the whole round waits for the database (the ticks log it once)
            except Exception:  # one server's fault never holds up the servers after it
                log.exception("could not post the daily puzzle of server %s", due.guild_id)

    async def _post_daily(self, due, today: int) -> None:
        guild = self.bot.get_guild(due.guild_id)
        if guild is None:  # not in that server (now): it may not post there
            return
        posed = await self.puzzles.daily_pick(due.guild_id)
        if posed is None:  # too few puzzles yet: looked for again at the next tick
            return
        me = self.bot.user.id
        at = discord.utils.utcnow().timestamp()
        if self.posting.wait(due.channel_id, me, at):  # never more than the limit
            return
        if not await self.puzzles.claim_daily(due.guild_id, today, posed):
            self.posting.settle(due.channel_id, me, at, posted=False)
            return  # another process (or an earlier round) posted it
        message = await self._send_daily(due, posed, guild, at)
        if message is not None:
            await self.puzzles.daily_posted(due.guild_id, today, message.id)

    async def _send_daily(self, due, posed, guild: discord.Guild, at: float, counts=(0, 0)):
        """Post a day's puzzle (already claimed, and counted against the posting limit at
        ``at``); ``None`` if it could not be posted (a claim without its message is
        resumed later: see :meth:`_resume_daily`)."""
        lang = language(guild.preferred_locale)
        channel = self.bot.get_partial_messageable(due.channel_id, guild_id=due.guild_id)
        me = self.bot.user.id
        try:
            message = await channel.send(
                embed=daily_embed(posed, *counts, lang),
                view=columns_view(posed, "d", lang),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as error:  # deleted, no access, Discord down: later
            self.posting.settle(due.channel_id, me, at, posted=False)
            log.warning("could not post the daily puzzle of server %s: %s", guild.id, error)
            return None
        self.posting.settle(due.channel_id, me, at, posted=True)
        return message

    async def _resume_daily(self, due, today: int) -> None:
        """A day's post claimed but cut short (the process killed before, during or after
        the send, before its message was saved; or the send failed): the bot's post of
        that day is looked for in the channel's recent messages (its buttons name the
        puzzle) and adopted, with its count brought up to date; it is posted if it is not
        there. If the channel's messages cannot be read, nothing is posted: never twice."""
        guild = self.bot.get_guild(due.guild_id)
        if guild is None or not await self.puzzles.resume_daily(due.guild_id, today):
            return
        posed = await self.puzzles.posed(due.guild_id, due.puzzle_id)
        channel = self.bot.get_partial_messageable(due.channel_id, guild_id=due.guild_id)
        try:
            found = await self._find_daily(channel, due.puzzle_id, today)
        except discord.HTTPException as error:
            log.warning("could not look for the daily post of server %s: %s", guild.id, error)
            return
        if found is None:
            me, at = self.bot.user.id, discord.utils.utcnow().timestamp()
            if self.posting.wait(due.channel_id, me, at):
                return  # the claim stays cut short: resumed again later
            found = await self._send_daily(due, posed, guild, at, (due.solved, due.tried))
            if found is None:
                return
        await self.puzzles.daily_posted(due.guild_id, today, found.id)
        self._recount_later(due.guild_id, found)  # the answers given meanwhile

    async def _find_daily(self, channel, puzzle_id: int, today: int) -> discord.Message | None:
        """The bot's post of ``today`` in ``channel``'s recent messages: its buttons name
        the puzzle (``ttt-puzzle:<puzzle>:d…``)."""
        marker = f"ttt-puzzle:{puzzle_id}:d"
        async for message in channel.history(limit=DAILY_LOOK_BACK):
            if message.author.id != self.bot.user.id:
                continue
            if int(message.created_at.timestamp() // DAY) != today:
                continue
            ids = [
                getattr(child, "custom_id", None) or ""
                for row in message.components
                for child in getattr(row, "children", ())
            ]
            if any(custom_id.startswith(marker) for custom_id in ids):
                return message
        return None

    def _recount_later(self, guild_id: int, message: discord.Message) -> None:
        """Bring a daily post's count up to date soon: answers that come together make one
        edit."""
        if message.id in self._recount:
            return
        task = asyncio.get_running_loop().create_task(self._recount_post(guild_id, message))
        self._recount[message.id] = task
        task.add_done_callback(lambda _: self._recount.pop(message.id, None))

    async def _recount_post(self, guild_id: int, message: discord.Message) -> None:
        await asyncio.sleep(COUNT_EDIT_SECONDS)
        try:
            daily = await self.puzzles.daily(guild_id)
            if daily is None or daily.message_id != message.id or daily.puzzle_id is None:
                return  # an older day's post: its count stays as it was that day
            posed = await self.puzzles.posed(guild_id, daily.puzzle_id)
            guild = self.bot.get_guild(guild_id)
            lang = language(guild.preferred_locale if guild is not None else None)
            await message.edit(
                embed=daily_embed(posed, daily.solved, daily.tried, lang),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except Exception:  # the answers are counted; only the post's figure lags
            log.warning("could not update the daily puzzle of server %s", guild_id, exc_info=True)

    # --- records ------------------------------------------------------------------
    async def show_leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        """``/connect4 leaderboard by:puzzles``: the server's top solvers, for the channel."""
        if interaction.guild_id is None:
            await refuse(interaction, OUTSIDE_SERVERS)
            return
        try:
            check_board(game)
        except GameError as error:
            await refuse(interaction, error.message)
            return
        if not await may_post(self.posting, interaction):
            return
        ranked = await in_time(
            interaction, self.puzzles.leaderboard(interaction.guild_id, interaction.user.id, game)
        )
        if ranked is None:
            return
        lang = public(interaction)
        top, own = ranked
        await answer(
            interaction,
            embed=puzzle_leaderboard_embed(
                top, own, interaction.user.id, place_name(interaction, lang), lang
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )
