"""A server's memory of a game: its facts and their version, and the learning curve's
points (:class:`Snapshot`). Other transactions borrow its statements: a game's or a
training's facts (``_add_facts``) and a curve point (``_snapshot``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .migrations import Rows
from .shards import _ID, _INT, _TEXT, TICTACTOE, Query


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What the bot knows at one moment: a point of the learning curve."""

    lessons: int
    beat_x: int | None  # ways to beat it playing X (None: not counted, see engine.Game)
    beat_o: int | None


def _bump(guild_id: int, game: str) -> tuple:
    """The statement that bumps a server's memory version, returning the new one."""
    return (
        "INSERT INTO memory_versions (guild_id, game, version) VALUES (?, ?, 1)"
        " ON CONFLICT (guild_id, game)"
        " DO UPDATE SET version = memory_versions.version + 1 RETURNING version",
        (guild_id, game),
    )


def _snapshot(guild_id: int, game: str, snapshot: Snapshot, *, training: bool = False) -> tuple:
    return (
        "INSERT INTO curve (guild_id, game, games, lessons, beat_x, beat_o, training)"
        f" SELECT {_ID}, {_TEXT}, COALESCE((SELECT games + member_games FROM server_counts"
        " WHERE guild_id = ? AND game = ?), 0),"
        f" {_INT}, {_INT}, {_INT}, {_INT}",
        (
            guild_id,
            game,
            guild_id,
            game,
            snapshot.lessons,
            snapshot.beat_x,
            snapshot.beat_o,
            int(training),
        ),
    )


def _add_facts(
    guild_id: int,
    game: str,
    facts: Iterable[tuple[str, str] | tuple[str, str, int | None]],
    *,
    now: float,
    game_id: int | None = None,
) -> tuple:
    """The statement that stores facts of a server's ``game``, each ``(position, outcome)``
    or on the classic board ``(position, outcome, plies or None)``. A position already
    known keeps its fact, and gains the distance it lacked; ``game_id``: the game they were
    learned from, credited for them."""
    return (
        "INSERT INTO facts (guild_id, game, position, outcome, learned_at, game_id, plies)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, position)"
        " DO UPDATE SET plies = excluded.plies"
        " WHERE facts.plies IS NULL AND excluded.plies IS NOT NULL",
        Rows(
            (guild_id, game, position, outcome, now, game_id, plies[0] if plies else None)
            for position, outcome, *plies in facts
        ),
    )


def _forget_facts(guild_id: int, game: str) -> tuple:
    return ("DELETE FROM facts WHERE guild_id = ? AND game = ?", (guild_id, game))


class MemoryQueries:
    """A server's facts of a game, read, added, replaced or forgotten."""

    _fetch: Query
    _write: Query

    async def memory_version(self, guild_id: int, game: str = TICTACTOE) -> int:
        """How many times the server's facts were changed other than by its games."""
        rows = await self._fetch(
            "SELECT version FROM memory_versions WHERE guild_id = ? AND game = ?",
            (guild_id, game),
        )
        return rows[0][0] if rows else 0

    async def load_memory(
        self, guild_id: int, game: str = TICTACTOE
    ) -> tuple[list[tuple[str, str]], int]:
        """The server's facts and their version. The version is read first: if a reset
        lands in between, the memory looks older than it is and is read again, never
        the other way round."""
        version = await self.memory_version(guild_id, game)
        return await self.load_facts(guild_id, game), version

    async def count_facts(self, guild_id: int, game: str = TICTACTOE) -> int:
        ((count,),) = await self._fetch(
            "SELECT COUNT(*) FROM facts WHERE guild_id = ? AND game = ?", (guild_id, game)
        )
        return count

    async def load_facts(self, guild_id: int, game: str = TICTACTOE) -> list[tuple]:
        """The server's facts of ``game``: ``(position, outcome)``, or with a distance
        ``(position, outcome, plies)`` (the classic board's, as ``engine.Memory.stored``
        reads them)."""
        rows = await self._fetch(
            "SELECT position, outcome, plies FROM facts WHERE guild_id = ? AND game = ?"
            " ORDER BY position",
            (guild_id, game),
        )
        return [(row[0], row[1]) if row[2] is None else tuple(row) for row in rows]

    async def add_facts(
        self,
        guild_id: int,
        facts: Iterable[tuple[str, str]],
        *,
        game: str = TICTACTOE,
        replace: bool = False,
        now: float,
        snapshot: Snapshot | None = None,
    ) -> int:
        """Store facts from outside a game (an import), in one transaction; return the
        memory's new version.

        With ``replace``, the server's facts are exactly ``facts`` afterwards; otherwise
        they are added to the known ones, and a position already known keeps its fact.
        """
        statements = [_forget_facts(guild_id, game)] if replace else []
        statements.append(_add_facts(guild_id, game, facts, now=now))
        if snapshot is not None:
            statements.append(_snapshot(guild_id, game, snapshot))
        statements.append(_bump(guild_id, game))
        ((version,),) = await self._write(statements, rows_of=len(statements) - 1)
        return version

    async def reset_memory(
        self, guild_id: int, *, game: str = TICTACTOE, snapshot: Snapshot | None = None
    ) -> tuple[int, int]:
        """Forget this server's facts of ``game``; its game history stays. ``snapshot``:
        the learning curve's point for the empty memory. Returns the facts forgotten and
        the memory's new version."""
        ((count,),) = await self._fetch(
            "SELECT COUNT(*) FROM facts WHERE guild_id = ? AND game = ?", (guild_id, game)
        )
        statements = [_forget_facts(guild_id, game)]
        if snapshot is not None:
            statements.append(_snapshot(guild_id, game, snapshot))
        statements.append(_bump(guild_id, game))
        ((version,),) = await self._write(statements, rows_of=len(statements) - 1)
        return count, version
