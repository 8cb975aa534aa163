"""Games between members: an invitation, its answer, and the game it starts.

An invitation waits in the store (one per channel) until it is accepted, declined,
withdrawn or expires, so it survives a restart. Accepting turns it into a running game
in one transaction: two members clicking Accept at once start one game, not two. Once
started, a game between members is played, learned from and stored by the same
:class:`GameService` code as a game against the bot.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from data import ChallengeRecord, Shards, StaleGameError, Store
from engine import Memory
from i18n import N_, Msg

from .errors import GameError, busy_means_unchanged
from .game import BOARDS, Turn
from .running import RunningGames
from .settings import ServerSettings


class Games(Protocol):
    """What invitations need of the running games (:class:`gameflow.GameService` is one):
    described here, so that this module imports nothing of the service's and the service
    imports this one, one way."""

    store: Store
    clock: Callable[[], float]
    shards: Shards | None
    settings: ServerSettings

    running: RunningGames

    async def memory(self, guild_id: int, game: str = ...) -> Memory: ...


CHALLENGE_SECONDS = 60
# an invitation still without its message this long after it was stored was never posted
UNPOSTED_SECONDS = 10
FIRST_CHOICES = ("me", "them", "random")  # who moves first, from the challenger's side


def check_first(first: str, choices: tuple[str, ...]) -> None:
    """Who moves first must be one of the command's choices: a forged request can send any
    text (Discord's client offers only the choices)."""
    if first not in choices:
        raise GameError(
            N_(
                "`first` must be one of {choices}, not `{first}`.",
                choices=", ".join(choices),
                first=str(first),
            )
        )


def open_to_all(challenger_id: int) -> Msg:
    return N_(
        "Anyone may accept this open challenge, but only {challenger} can withdraw it.",
        challenger=f"<@{challenger_id}>",
    )


def no_longer_open(command: str | None) -> Msg:
    """``command``: the invitation's game's, if known (an invitation gone is not)."""
    if command is None:
        return N_(
            "That challenge is no longer open: it was answered, withdrawn or has expired. "
            "`/ttt challenge` or `/connect4 challenge` starts a new one."
        )
    return N_(
        "That challenge is no longer open: it was answered, withdrawn or has expired. "
        "`{command} challenge` starts a new one.",
        command=command,
    )


class Challenges:
    """The invitations waiting in each channel, mirrored from the store."""

    def __init__(self, games: Games, *, coin: random.Random | None = None) -> None:
        self.games = games
        self.store = games.store
        self.coin = coin or random.Random()  # who moves first, for first=random
        self._waiting: dict[int, ChallengeRecord] = {}  # by channel
        self._closing: set[int] = set()  # invitations being expired right now

    async def load(self) -> None:
        """Pick up the waiting invitations. One that never got its message (the process
        stopped between storing it and posting it) is withdrawn: nobody can see it."""
        self._waiting = {
            c.channel_id: c for c in await self.store.pending_challenges(self.games.shards)
        }
        posted_by = self.games.clock() + CHALLENGE_SECONDS - UNPOSTED_SECONDS
        for challenge in list(self._waiting.values()):
            if challenge.message_id is None and challenge.expires_at < posted_by:
                try:
                    await self._close(challenge)
                except GameError:  # the database is busy: it expires in its time
                    continue

    def all(self) -> list[ChallengeRecord]:
        return list(self._waiting.values())

    def waiting(self, channel_id: int) -> ChallengeRecord | None:
        return self._waiting.get(channel_id)

    def find(self, challenge_id: int) -> ChallengeRecord | None:
        return next((c for c in self._waiting.values() if c.id == challenge_id), None)

    def check_no_invitation(self, channel_id: int) -> None:
        """Refuse a new game or invitation where one is waiting for an answer."""
        waiting = self._waiting.get(channel_id)
        if waiting is not None and waiting.expires_at > self.games.clock():
            raise GameError(
                N_(
                    "{challenger}'s challenge is waiting for an answer in this channel. "
                    "Answer it, wait for it to expire (within a minute), or play in another "
                    "channel.",
                    challenger=f"<@{waiting.challenger_id}>",
                )
            )

    async def issue(
        self,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        opponent_id: int | None,
        first: str = "random",
        *,
        opponent_is_bot: bool = False,
        opponent_is_me: bool = False,
        game: str = "tictactoe",
    ) -> ChallengeRecord:
        """Invite ``opponent_id`` (or, with ``None``, anyone) to a game of ``game`` in this
        channel."""
        command = BOARDS[game].command
        if opponent_id == challenger_id:
            raise GameError(
                N_(
                    "You can't challenge yourself. Name another member, or leave `opponent` "
                    "empty for an open challenge anyone may accept."
                )
            )
        if opponent_is_me:
            raise GameError(
                N_(
                    "To play me, use `{command} play`. `{command} challenge` is for members.",
                    command=command,
                )
            )
        if opponent_is_bot:
            raise GameError(
                N_(
                    "{opponent} is a bot and can't play. Challenge a member, or play me with "
                    "`{command} play`.",
                    opponent=f"<@{opponent_id}>",
                    command=command,
                )
            )
        check_first(first, FIRST_CHOICES)
        if (running := self.games.running.running_game(channel_id)) is not None:
            raise GameError(self.games.running.busy_channel_text(running, challenger_id))
        self.check_no_invitation(channel_id)
        self.games.settings.check_channel(guild_id, channel_id)
        now = self.games.clock()
        with busy_means_unchanged():
            challenge = await self.store.open_challenge(
                guild_id,
                channel_id,
                challenger_id,
                opponent_id,
                first,
                now=now,
                expires_at=now + CHALLENGE_SECONDS,
                game=game,
            )
        if challenge is None:  # another process got there first
            raise GameError(
                N_(
                    "A game or a challenge has just started in this channel. "
                    "`{command} board` shows a game; otherwise try again in a minute.",
                    command=command,
                )
            )
        self._waiting[channel_id] = challenge
        return challenge

    def forget_server(self, guild_id: int) -> None:
        """Drop a server's invitations (its data was deleted)."""
        for channel_id in [c for c, w in self._waiting.items() if w.guild_id == guild_id]:
            del self._waiting[channel_id]

    async def withdraw_unshown(self, challenge: ChallengeRecord) -> None:
        """Take back an invitation whose message could not be posted: nobody could see or
        answer it, and it would hold its channel until it expired."""
        await self._close(challenge)

    async def attach_message(self, challenge: ChallengeRecord, message_id: int) -> None:
        """Remember the invitation's message, to show it as expired later."""
        await self.store.set_challenge_message(challenge.id, message_id)
        if self._waiting.get(challenge.channel_id) == challenge:
            self._waiting[challenge.channel_id] = replace(challenge, message_id=message_id)

    def _live(self, challenge_id: int, channel_id: int | None) -> ChallengeRecord:
        """The invitation, if it is still open, and (given ``channel_id``) in that channel:
        a button is answered where its invitation was posted, never from a forged copy
        elsewhere (another channel, another server)."""
        challenge = self.find(challenge_id)
        if challenge is not None and channel_id is not None and channel_id != challenge.channel_id:
            raise GameError(
                N_(
                    "That invitation is not in this channel, so nothing was answered. Answer "
                    "it where it was posted, or start your own with `/ttt challenge`."
                )
            )
        if challenge is None:
            raise GameError(no_longer_open(None))
        if challenge.expires_at <= self.games.clock():
            raise GameError(
                N_(
                    "That challenge has expired. `{command} challenge` starts a new one.",
                    command=BOARDS[challenge.game].command,
                )
            )
        return challenge

    async def accept(
        self, challenge_id: int, member_id: int, channel_id: int | None = None
    ) -> Turn:
        """Start the game: the challenger is the player, ``member_id`` their opponent.
        ``channel_id``: where the button was clicked (see :meth:`_live`)."""
        challenge = self._live(challenge_id, channel_id)
        if member_id == challenge.challenger_id:
            raise GameError(
                N_(
                    "You can't accept your own challenge. Wait for someone to accept it, "
                    "or withdraw it."
                )
            )
        if challenge.opponent_id is not None and member_id != challenge.opponent_id:
            raise GameError(
                N_(
                    "This challenge is for {opponent}. Start your own with `{command} challenge`.",
                    opponent=f"<@{challenge.opponent_id}>",
                    command=BOARDS[challenge.game].command,
                )
            )
        first = challenge.first if challenge.first != "random" else self.coin.choice(("me", "them"))
        # the opponent (the member accepting) plays O when the challenger moves first
        opponent_mark = "O" if first == "me" else "X"
        try:
            with busy_means_unchanged():
                record = await self.store.accept_challenge(
                    challenge.id,
                    challenge.challenger_id,
                    member_id,
                    opponent_mark,
                    now=self.games.clock(),
                )
        except StaleGameError:
            self._forget(challenge)
            raise GameError(no_longer_open(BOARDS[challenge.game].command)) from None
        self._forget(challenge)
        game = self.games.running.adopt(record)
        memory = await self.games.memory(game.guild_id, game.kind)
        return Turn(game, memory_size=len(memory))

    async def withdraw(
        self, challenge_id: int, member_id: int, channel_id: int | None = None
    ) -> tuple[ChallengeRecord, str]:
        """The challenger takes the invitation back. Returns it and ``"withdrawn"``."""
        challenge = self._live(challenge_id, channel_id)
        if member_id != challenge.challenger_id and challenge.opponent_id is None:
            raise GameError(open_to_all(challenge.challenger_id))
        if member_id != challenge.challenger_id:
            challenger = f"<@{challenge.challenger_id}>"
            raise GameError(
                N_(
                    "This challenge is {challenger}'s: only they can withdraw it (you may "
                    "decline it).",
                    challenger=challenger,
                )
                if member_id == challenge.opponent_id
                else N_(
                    "This challenge is {challenger}'s: only they can withdraw it.",
                    challenger=challenger,
                )
            )
        return await self.decline(challenge_id, member_id, channel_id)

    async def decline(
        self, challenge_id: int, member_id: int, channel_id: int | None = None
    ) -> tuple[ChallengeRecord, str]:
        """The challenged member declines, or the challenger withdraws. Returns the
        invitation and ``"declined"`` or ``"withdrawn"``."""
        challenge = self._live(challenge_id, channel_id)
        if member_id == challenge.challenger_id:
            how = "withdrawn"
        elif member_id == challenge.opponent_id:
            how = "declined"
        elif challenge.opponent_id is not None:
            raise GameError(
                N_(
                    "This challenge is for {opponent}: only they can decline it.",
                    opponent=f"<@{challenge.opponent_id}>",
                )
            )
        else:
            raise GameError(open_to_all(challenge.challenger_id))
        if not await self._close(challenge):  # answered meanwhile, by another process
            raise GameError(no_longer_open(BOARDS[challenge.game].command))
        return challenge, how

    async def expire_due(self) -> list[ChallengeRecord]:
        """Close every invitation whose time is up; return them, to show them expired.

        Each is returned once, by the one call (of one process) that closed it while it
        was still open: calls that overlap skip the ones another is closing, and one that
        another process accepted or answered meanwhile is not expired (its message is a
        board or an answer by now)."""
        now = self.games.clock()
        due = [
            c for c in self._waiting.values() if c.expires_at <= now and c.id not in self._closing
        ]
        expired = []
        for challenge in due:
            self._closing.add(challenge.id)
            try:
                if await self._close(challenge):
                    expired.append(challenge)
            except GameError:  # the database is busy: next sweep
                continue
            finally:
                self._closing.discard(challenge.id)
        return expired

    async def _close(self, challenge: ChallengeRecord) -> bool:
        """Take an invitation away; whether it was still open in the store."""
        with busy_means_unchanged():
            closed = await self.store.close_challenge(challenge.id)
        self._forget(challenge)
        return closed

    def _forget(self, challenge: ChallengeRecord) -> None:
        if (waiting := self._waiting.get(challenge.channel_id)) and waiting.id == challenge.id:
            del self._waiting[challenge.channel_id]
