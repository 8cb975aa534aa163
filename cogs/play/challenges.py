"""``/ttt challenge`` and ``/connect4 challenge``: the invitation to a game between
members, in Discord.

The invitation's buttons carry the challenge's id, so they still answer after a restart.
Accepting turns the invitation message itself into the game's board (one message, one
Discord call); declining, withdrawing and expiring leave it saying what happened.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re

import discord

from cogs.play.render import board_embed, board_view
from cogs.utils.boards import look_of
from cogs.utils.items import bound
from cogs.utils.places import bot_is_here
from cogs.utils.render import NEUTRAL
from cogs.utils.replies import answer, in_time, public, refuse, server_language, show, update
from engine import Mark
from gameflow import BOARDS, CHALLENGE_SECONDS, ChallengeRecord, GameService
from gameflow.errors import StoreBusyError, StoreUnavailableError
from i18n import ENGLISH, N_, Language

log = logging.getLogger(__name__)

CLOSED_COLOUR = 0x99AAB5
NOT_POSTED = N_(
    "I couldn't post your challenge, so I withdrew it: nothing is waiting in this channel. "
    "Please try again."
)


def invitation_embed(challenge: ChallengeRecord, lang: Language = ENGLISH) -> discord.Embed:
    challenger = f"<@{challenge.challenger_id}>"
    look = look_of(challenge.game)
    first = look.mark(Mark.X)
    if challenge.opponent_id is not None:
        opponent = f"<@{challenge.opponent_id}>"
        who = lang.t(
            "{challenger} challenges {opponent} to a game!",
            challenger=challenger,
            opponent=opponent,
        )
    else:
        who = lang.t(
            "{challenger} challenges anyone in this channel to a game!", challenger=challenger
        )
    if challenge.first == "me":
        order = lang.t("{player} moves first ({mark}).", player=challenger, mark=first)
    elif challenge.first == "random":
        order = lang.t("Who moves first ({mark}) is drawn at random.", mark=first)
    elif challenge.opponent_id is not None:
        order = lang.t("{player} moves first ({mark}).", player=opponent, mark=first)
    else:
        order = lang.t("Whoever accepts moves first ({mark}).", mark=first)
    expires = lang.t(
        "Expires {when}. I'll watch, and learn from the game.",
        when=f"<t:{int(challenge.expires_at)}:R>",
    )
    return discord.Embed(
        title=lang.t("⚔️ {game} challenge", game=look.title),
        description=f"{who}\n{order}\n\n{expires}",
        colour=NEUTRAL,
    )


def closed_embed(challenge: ChallengeRecord, how: str, lang: Language = ENGLISH) -> discord.Embed:
    """An invitation that was declined, withdrawn or expired: no buttons, just what happened."""
    challenger = f"<@{challenge.challenger_id}>"
    if how == "declined":
        text = lang.t(
            "🚫 {opponent} declined {challenger}'s challenge.",
            opponent=f"<@{challenge.opponent_id}>",
            challenger=challenger,
        )
    elif how == "withdrawn":
        text = lang.t("↩️ {challenger} withdrew the challenge.", challenger=challenger)
    else:
        text = lang.tn(
            "⌛ Expired: nobody accepted {challenger}'s challenge within {count} second.",
            "⌛ Expired: nobody accepted {challenger}'s challenge within {count} seconds.",
            CHALLENGE_SECONDS,
            challenger=challenger,
        )
    again = lang.t(
        "`{command} challenge` starts a new one.", command=BOARDS[challenge.game].command
    )
    return discord.Embed(
        title=lang.t("⚔️ {game} challenge", game=look_of(challenge.game).title),
        description=f"{text}\n{again}",
        colour=CLOSED_COLOUR,
    )


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"ttt-challenge:(?P<id>[0-9]+):(?P<answer>accept|decline|withdraw)",
):
    """Accept (anyone it is for), Decline (the challenged member) or Withdraw (the
    challenger). Invitations posted before Withdraw had a button of its own keep working:
    the challenger's "decline" withdraws."""

    desk: ChallengeDesk  # bound by the desk (cogs.utils.items.bound)

    def __init__(self, challenge_id: int, answer: str) -> None:
        accept = answer == "accept"
        super().__init__(
            discord.ui.Button(
                custom_id=f"ttt-challenge:{challenge_id}:{answer}",
                label=str(LABELS[answer]),  # said in the channel's language by invitation_view
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.secondary,
            )
        )
        self.challenge_id, self.answer = challenge_id, answer

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ChallengeButton:
        return cls(int(match["id"]), match["answer"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await self.desk.on_answer(interaction, self)


LABELS = {"accept": N_("Accept"), "decline": N_("Decline"), "withdraw": N_("Withdraw")}


def invitation_view(
    challenge: ChallengeRecord, button: type[ChallengeButton], lang: Language = ENGLISH
) -> discord.ui.View:
    """Accept and Withdraw on every invitation; Decline too on one for a named member;
    ``button``: the desk's own (:attr:`ChallengeDesk.button`)."""
    view = discord.ui.View(timeout=None)
    answers = ("accept", "withdraw") if challenge.opponent_id is None else tuple(LABELS)
    for reply in answers:
        item = button(challenge.id, reply)
        item.item.label = lang.say(LABELS[reply])
        view.add_item(item)
    return view


class ChallengeDesk:
    """The Discord side of challenges, for every game's commands."""

    def __init__(self, bot: discord.Client, service: GameService) -> None:
        self.bot = bot
        self.service = service
        self._timers: dict[int, asyncio.Task] = {}  # by challenge id: its expiry, on time
        self.button = bound(ChallengeButton, desk=self)

    def start_timers(self) -> None:
        for challenge in self.service.challenges.all():
            self._time(challenge)

    def close(self) -> None:
        # the bot is closing: an expiry edit would find the HTTP session gone
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    def _time(self, challenge: ChallengeRecord) -> None:
        if challenge.id not in self._timers:
            self._timers[challenge.id] = asyncio.create_task(self._expire_on_time(challenge))

    def _stop_timer(self, challenge_id: int) -> None:
        if (timer := self._timers.pop(challenge_id, None)) is not None:
            timer.cancel()

    async def _expire_on_time(self, challenge: ChallengeRecord) -> None:
        # one sleep per invitation: the clock of SimCord's tests and the real one alike
        await asyncio.sleep(max(0.0, challenge.expires_at - self.service.clock()))
        self._timers.pop(challenge.id, None)
        # in an outage (logged once already), the sweep shows it expired once it is back
        with contextlib.suppress(StoreBusyError, StoreUnavailableError):
            await self.expire()

    async def issue(
        self,
        interaction: discord.Interaction,
        opponent: discord.User | discord.Member | discord.Object | None,
        first: str,
        game: str,
        *,
        known_member: bool = False,
    ) -> None:
        """Invite ``opponent`` (``None``: anyone). ``known_member``: the opponent is known
        to be a member (they played here: a rematch), so no member object is needed."""
        command = BOARDS[game].command
        if interaction.guild_id is None:
            await refuse(
                interaction,
                N_(
                    "Challenges between members need a server: here you play me, and each "
                    "player teaches their own bot. `{command} play` starts a game.",
                    command=command,
                ),
            )
            return
        if not bot_is_here(interaction):  # it could not show the invitation's end
            await refuse(
                interaction,
                N_(
                    "Challenges between members need me in this server, where I am only "
                    "through your own install. A server manager can add me; meanwhile "
                    "`{command} play` plays me here.",
                    command=command,
                ),
            )
            return
        is_me = opponent is not None and opponent.id == self.bot.user.id
        is_bot = getattr(opponent, "bot", False)
        if (
            opponent is not None
            and not known_member
            and not is_bot
            and not isinstance(opponent, discord.Member)
        ):
            await refuse(
                interaction,
                N_(
                    "{opponent} is not a member of this server. Challenge a member, or leave "
                    "`opponent` empty for an open challenge.",
                    opponent=f"<@{opponent.id}>",
                ),
            )
            return
        challenge = await in_time(
            interaction,
            self.service.challenges.issue(
                interaction.guild_id,
                interaction.channel_id,
                interaction.user.id,
                opponent.id if opponent is not None else None,
                first,
                opponent_is_bot=is_bot,
                opponent_is_me=is_me,
                game=game,
            ),
        )
        if challenge is None:
            return

        lang = public(interaction)

        async def post() -> None:
            # the challenged member is pinged, so they see it; nobody else is
            try:
                message_id = await answer(
                    interaction,
                    content=f"<@{opponent.id}>" if opponent is not None else None,
                    embed=invitation_embed(challenge, lang),
                    view=invitation_view(challenge, self.button, lang),
                    allowed_mentions=discord.AllowedMentions(
                        everyone=False, roles=False, users=[opponent] if opponent else False
                    ),
                )
            except discord.HTTPException:
                # nobody can see or answer it: it must not hold the channel until it expires
                log.warning("could not post challenge %s; withdrawn", challenge.id, exc_info=True)
                await self.service.challenges.withdraw_unshown(challenge)
                await refuse(interaction, NOT_POSTED)
                return
            if message_id is not None:
                await self.service.challenges.attach_message(challenge, message_id)
            self._time(challenge)

        await show(interaction, post)

    async def on_answer(self, interaction: discord.Interaction, button: ChallengeButton) -> None:
        challenges, member_id = self.service.challenges, interaction.user.id
        if button.answer == "accept":
            turn = await in_time(
                interaction,
                challenges.accept(button.challenge_id, member_id, interaction.channel_id),
            )
            if turn is None:
                return
            self._stop_timer(button.challenge_id)

            async def start() -> None:
                # the invitation becomes the board: one edit, through the interaction
                lang = public(interaction)
                await update(
                    interaction,
                    content=None,
                    embed=board_embed(turn, lang),
                    view=board_view(turn.game, lang=lang),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
                try:
                    await self.service.running.attach_message(turn.game, interaction.message.id)
                except Exception:  # the board is shown; only the later deletion of it is lost
                    log.warning("could not remember board %s", turn.game.id, exc_info=True)

            await show(interaction, start)
            return
        answer = challenges.withdraw if button.answer == "withdraw" else challenges.decline
        closed = await in_time(
            interaction, answer(button.challenge_id, member_id, interaction.channel_id)
        )
        if closed is not None:
            challenge, how = closed
            self._stop_timer(challenge.id)
            await show(
                interaction,
                lambda: update(
                    interaction,
                    content=None,
                    embed=closed_embed(challenge, how, public(interaction)),
                    view=None,
                ),
            )

    async def expire(self) -> None:
        """Show each invitation whose time is up as expired."""
        for challenge in await self.service.challenges.expire_due():
            if challenge.message_id is None or self.bot.get_guild(challenge.guild_id) is None:
                continue  # removed from that server since: it may not edit there (Discord
                # counts each refusal toward banning the bot)
            channel = self.bot.get_partial_messageable(challenge.channel_id)
            try:
                lang = server_language(self.bot, challenge.guild_id)
                await channel.get_partial_message(challenge.message_id).edit(
                    content=None, embed=closed_embed(challenge, "expired", lang), view=None
                )
            except discord.HTTPException as error:  # deleted, or no access
                log.warning("could not show challenge %s as expired: %s", challenge.id, error)
