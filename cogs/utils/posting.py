"""How often a member may post in a channel: the limit on public posts (challenges,
boards, stats, leaderboards; new games are limited by one game per channel instead).
:class:`PostingLimit` is pure: it is given the time; :func:`may_post` asks it for an
interaction, and answers one past the limit."""

from __future__ import annotations

import collections
import math

import discord

from cogs.utils.replies import ON_POST, now, refuse
from i18n import N_

HELD_SECONDS = 60.0  # a request still being answered holds its place at most this long


class PostingLimit:
    """At most ``per_minute`` public posts per member and channel in any 60 seconds (0: no
    limit). Only members who posted in the last minute are kept.

    A request that may post holds a place until it is answered (:meth:`settle`): requests
    sent at once cannot all pass before any is counted, and one refused afterwards (no
    game to show, say) gives its place back, having posted nothing.
    """

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._posts: dict[tuple[int, int], collections.deque[float]] = {}
        self._held: dict[tuple[int, int], collections.deque[float]] = {}

    def wait(self, channel_id: int, member_id: int, at: float) -> float:
        """Seconds to wait before the next post; 0 if it may, and then a place is held for
        it until :meth:`settle`."""
        if not self.per_minute:
            return 0.0
        key = (channel_id, member_id)
        recent = [t for t in self._posts.get(key, ()) if t > at - 60]
        held = self._held.setdefault(key, collections.deque())
        while held and held[0] <= at - HELD_SECONDS:
            held.popleft()
        if len(recent) + len(held) >= self.per_minute:
            # the oldest post leaves the minute then; a held place, once its request ends
            return max(1.0, recent[0] + 60 - at) if len(recent) >= self.per_minute else 1.0
        held.append(at)
        return 0.0

    def settle(self, channel_id: int, member_id: int, at: float, *, posted: bool) -> None:
        """A request that held a place was answered: publicly (a post to count), or not."""
        if not self.per_minute:
            return
        key = (channel_id, member_id)
        if held := self._held.get(key):
            held.popleft()
            if not held:
                del self._held[key]
        if not posted:
            return
        if len(self._posts) > 10_000:  # forget who has not posted for a minute
            self._posts = {k: v for k, v in self._posts.items() if v[-1] > at - 60}
        posts = self._posts.setdefault(key, collections.deque())
        while posts and posts[0] <= at - 60:
            posts.popleft()
        posts.append(at)


async def may_post(limit: PostingLimit, interaction: discord.Interaction) -> bool:
    """A public post (a challenge, a board, stats, a leaderboard) within the member's rate
    in this channel; past it, a private answer saying when to try again (a Discord
    timestamp, which each reader's app shows as "in 47 seconds"). Moves, clicks, new games
    and Rematch are never limited."""
    channel_id, member_id = interaction.channel_id, interaction.user.id
    at = now()
    wait = limit.wait(channel_id, member_id, at)
    if not wait:  # its place is held, and counted only if something is posted
        interaction.extras[ON_POST] = lambda posted: limit.settle(
            channel_id, member_id, now(), posted=posted
        )
        return True
    await refuse(
        interaction,
        N_(
            "You're posting a lot in this channel: try again {when}. Moves, new games "
            "and the board's buttons are never limited.",
            when=f"<t:{math.ceil(at + wait)}:R>",
        ),
    )
    return False
