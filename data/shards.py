"""What the families of queries share: the game a row is of by default, what each needs of
the Store it is mixed into, the casts a parameter needs in a SELECT list, and the shards a
process owns with the condition that picks their servers.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

# Each server has a memory, counters, a curve, games, invitations and trainings per game;
# rows from before there were games are tic-tac-toe's.
TICTACTOE = "tictactoe"
# The classic board (Connect Four 7x6) keeps its facts compactly, in classic_facts
CLASSIC = "connect4-7x6"

# What each family of queries needs of the Store it is mixed into (data/store.py): its
# _fetch and its _write, each run on the Store's driver and returning rows
Query = Callable[..., Awaitable[list]]

# Parameters in a SELECT list have no column to take their type from; PostgreSQL needs it
# said (SQLite takes these casts as plain affinities)
_ID, _INT, _TEXT, _TIME = (
    f"CAST(? AS {kind})" for kind in ("BIGINT", "INTEGER", "TEXT", "DOUBLE PRECISION")
)


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards one process of a cluster runs: it owns the servers on them, and only
    picks up their running games, invitations and trainings."""

    count: int
    ids: tuple[int, ...]

    def owns(self, guild_id: int) -> bool:
        # Discord's rule for a server's shard; a player's own bot (a negative id: see
        # gameflow.places) is played in DMs, which Discord sends to shard 0
        return (0 if guild_id < 0 else (guild_id >> 22) % self.count) in self.ids


def _owned(shards: Shards | None) -> tuple[str, tuple]:
    """A WHERE condition (with its parameters) for the servers of ``shards``, or all: its
    ids as ranges, so that thousands of shards take a few parameters, not thousands."""
    if shards is None or len(shards.ids) == shards.count:
        return "", ()
    ranges: list[list[int]] = []
    for shard in sorted(shards.ids):
        if ranges and shard == ranges[-1][1] + 1:
            ranges[-1][1] = shard
        else:
            ranges.append([shard, shard])
    shard_of = "(CASE WHEN guild_id < 0 THEN 0 ELSE (guild_id >> 22) % ? END)"  # see owns
    condition = " OR ".join(f"{shard_of} BETWEEN ? AND ?" for _ in ranges)
    return f" AND ({condition})", tuple(
        v for low, high in ranges for v in (shards.count, low, high)
    )
