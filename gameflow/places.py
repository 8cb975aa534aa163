"""Where a game is played, and whose memory it teaches.

In a server, the server's memory: whether the server added the bot, or members use it
through their own install (a user-installed app) in a server that has not. Outside any
server (a DM with the bot, a group DM, a DM between two people) each player teaches their
own bot: its memory, games, stats and curve are kept under the player's own place, the
negative of their user ID. No server's ID is negative, and 0 is the terminal's.
"""

from __future__ import annotations


def own_bot(user_id: int) -> int:
    """The place of a player's own bot."""
    return -user_id


def is_own_bot(place: int) -> bool:
    return place < 0


def place_of(guild_id: int | None, user_id: int) -> int:
    """Whose memory a request in ``guild_id`` (``None``: outside any server) by
    ``user_id`` is about."""
    return guild_id if guild_id else own_bot(user_id)
