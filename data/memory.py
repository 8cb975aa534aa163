"""A server's memory of a game: its facts and their version, and the learning curve's
points (:class:`Snapshot`). Other transactions borrow its statements: a game's or a
training's facts (``_add_facts``) and a curve point (``_snapshot``).

The classic board's facts (Connect Four 7x6, about 44,000 a server after 600 games against
a club player) are kept compactly, in ``classic_facts``: one row per batch of facts
learned together (a game's end, its post-mortem, an import), its facts packed in one blob
of 8-byte entries (``engine.tables``' layout: the position's canonical 49-bit code, the
outcome and the plies), so about 9 bytes a fact on disk, indexes included. The batch names
the game that taught it, which keeps every fact credited to its game (the leaderboard's
lessons, a replay's lessons, forget-me) without an index entry per fact. The game flow
packs the blobs and the engine unpacks a whole memory (:class:`ClassicFacts`,
:class:`ClassicRuns`); the store itself reads one only for a game's few dozen lessons and
for tools (:func:`classic_entries`). Every other board keeps a row per fact.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .migrations import Rows
from .shards import _ID, _INT, _TEXT, CLASSIC, TICTACTOE, Query


@dataclass(frozen=True, slots=True)
class ClassicFacts:
    """Facts of the classic board to store, packed (``engine.tables.stored_entries``):
    ``taught``, new to the memory (credited to their game); ``upgrades``, the plies of
    facts known before without them."""

    taught: bytes
    upgrades: bytes = b""

    def __bool__(self) -> bool:
        return bool(self.taught or self.upgrades)


@dataclass(frozen=True, slots=True)
class ClassicRuns:
    """A classic board's memory as stored: its batches' packed entries (a fact may be in
    more than one: see ``engine.tables.DistanceTable.from_stored``), and how many facts
    they taught in all (more than the memory holds only if two processes once taught the
    same fact at the same moment)."""

    runs: list[bytes]
    taught: int

    def __len__(self) -> int:
        return self.taught


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
    facts: Iterable[tuple[str, str] | tuple[str, str, int | None]] | ClassicFacts,
    *,
    now: float,
    game_id: int | None = None,
) -> tuple:
    """The statement that stores facts of a server's ``game``, each ``(position, outcome)``
    (or :class:`ClassicFacts` on the classic board). A position already known keeps its
    fact; ``game_id``: the game they were learned from, credited for them."""
    if game == CLASSIC:
        if not isinstance(facts, ClassicFacts):
            raise TypeError("the classic board's facts are stored packed (ClassicFacts)")
        return (
            "INSERT INTO classic_facts (guild_id, game, game_id, learned_at, taught, facts)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (guild_id, game, game_id, now, len(facts.taught) // 8, facts.taught + facts.upgrades),
        )
    return (
        "INSERT INTO facts (guild_id, game, position, outcome, learned_at, game_id)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, position) DO NOTHING",
        Rows((guild_id, game, position, outcome, now, game_id) for position, outcome, *_ in facts),
    )


def _forget_facts(guild_id: int, game: str) -> tuple:
    table = "classic_facts" if game == CLASSIC else "facts"
    return (f"DELETE FROM {table} WHERE guild_id = ? AND game = ?", (guild_id, game))


def _counted(guild_id: int, game: str) -> tuple:
    """The statement that counts a server's facts of ``game``: one indexed read (on the
    classic board, the batches' counts, off an index that holds them)."""
    if game == CLASSIC:
        return (
            "SELECT COALESCE(SUM(taught), 0) FROM classic_facts WHERE guild_id = ? AND game = ?",
            (guild_id, game),
        )
    return ("SELECT COUNT(*) FROM facts WHERE guild_id = ? AND game = ?", (guild_id, game))


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
    ) -> tuple[list[tuple[str, str]] | ClassicRuns, int]:
        """The server's facts, as stored, and their version: ``(position, outcome)`` rows,
        in no particular order, or on the classic board its :class:`ClassicRuns`; for
        ``engine.Memory.stored`` and ``engine.Memory.from_stored``, which a caller runs
        in a thread for a big memory (nothing here is made a row at a time on the loop).
        The version is read first: if a reset lands in between, the memory looks older
        than it is and is read again, never the other way round."""
        version = await self.memory_version(guild_id, game)
        if game == CLASSIC:
            rows = await self._fetch(
                "SELECT taught, facts FROM classic_facts WHERE guild_id = ? AND game = ?",
                (guild_id, game),
            )
            return ClassicRuns([bytes(blob) for _, blob in rows], sum(n for n, _ in rows)), version
        rows = await self._fetch(
            "SELECT position, outcome FROM facts WHERE guild_id = ? AND game = ?", (guild_id, game)
        )
        return rows, version

    async def count_facts(self, guild_id: int, game: str = TICTACTOE) -> int:
        ((count,),) = await self._fetch(*_counted(guild_id, game))
        return int(count)

    async def load_facts(self, guild_id: int, game: str = TICTACTOE) -> list[tuple]:
        """The server's facts of ``game`` one by one, for tools and checks: ``(position,
        outcome)``, in position order; on the classic board ``(key, outcome, plies or
        None)`` (the canonical position's code), in key order, as the memory holds them."""
        if game == CLASSIC:
            stored, _ = await self.load_memory(guild_id, game)
            facts: dict[int, tuple[str, int | None]] = {}
            for run in stored.runs:
                for key, outcome, plies in classic_entries(run, len(run) // 8):
                    if plies is not None or key not in facts:  # the plies, if proven
                        facts[key] = (outcome, plies)
            return [(key, *facts[key]) for key in sorted(facts)]
        rows = await self._fetch(
            "SELECT position, outcome FROM facts WHERE guild_id = ? AND game = ? ORDER BY position",
            (guild_id, game),
        )
        return [tuple(row) for row in rows]

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
        count = await self.count_facts(guild_id, game)
        statements = [_forget_facts(guild_id, game)]
        if snapshot is not None:
            statements.append(_snapshot(guild_id, game, snapshot))
        statements.append(_bump(guild_id, game))
        ((version,),) = await self._write(statements, rows_of=len(statements) - 1)
        return count, version


def classic_entries(blob: bytes, count: int) -> list[tuple[int, str, int | None]]:
    """The first ``count`` facts of a packed blob of the classic board, as ``(key,
    outcome, plies or None)``: for tools, checks and a replay's few dozen (the bot reads
    a whole memory through ``engine.Memory.from_stored``)."""
    facts = []
    for at in range(0, 8 * count, 8):
        entry = int.from_bytes(blob[at : at + 8], "big")
        plies = entry & 63
        outcome = "loss" if entry >> 6 & 1 else "win"
        facts.append((entry >> 7, outcome, None if plies == 63 else plies))
    return facts
