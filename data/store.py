"""The only place that speaks SQL: per-server memory, game history, running games.

One aiosqlite connection in WAL mode. Every method that changes something commits
before it returns, so whatever the bot announces afterwards is already on disk.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from .migrations import migrate, run, run_in_transaction

RUNNING = "running"
# How a game ended, from the bot's side of the board
RESULTS = ("player_won", "bot_won", "draw", "resigned", "abandoned")


class ChannelBusyError(Exception):
    """A game is already running in the channel."""

    def __init__(self, game: GameRecord) -> None:
        super().__init__(f"a game is already running in channel {game.channel_id}")
        self.game = game


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: int
    guild_id: int
    channel_id: int
    player_id: int
    bot_mark: str  # "X" or "O"
    moves: tuple[int, ...]  # cells 0..8 in play order
    result: str  # RUNNING or one of RESULTS
    message_id: int | None
    started_at: float
    updated_at: float


@dataclass(frozen=True, slots=True)
class Record:
    """Games against the bot, counted from the bot's side."""

    games: int = 0
    bot_wins: int = 0
    bot_losses: int = 0
    draws: int = 0
    unfinished: int = 0  # resigned games count as bot wins; abandoned ones only here


_GAME_COLUMNS = (
    "id, guild_id, channel_id, player_id, bot_mark, moves, result, message_id, "
    "started_at, updated_at"
)


def _game(row: Sequence) -> GameRecord:
    return GameRecord(
        row[0],
        row[1],
        row[2],
        row[3],
        row[4],
        tuple(int(c) for c in row[5]),
        row[6],
        row[7],
        row[8],
        row[9],
    )


def _moves_text(moves: Iterable[int]) -> str:
    return "".join(str(c) for c in moves)


class Store:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self._write_lock = asyncio.Lock()  # one connection: transactions must not interleave

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(path, isolation_level=None)  # we issue BEGIN ourselves
        try:
            for pragma in (
                "journal_mode=WAL",
                "synchronous=NORMAL",  # with WAL, a crash loses no committed transaction
                "busy_timeout=5000",
                "foreign_keys=ON",
            ):
                await run(db, f"PRAGMA {pragma}")
            await migrate(db)
        except BaseException:
            await db.close()
            raise
        return cls(db)

    async def close(self) -> None:
        await self._db.close()

    async def _write(self, statements: Iterable[tuple[str, Sequence]]) -> None:
        """Run statements in one transaction: all of them land, or none."""
        async with self._write_lock:
            await run_in_transaction(self._db, statements)

    # --- memory -------------------------------------------------------------------
    async def load_facts(self, guild_id: int) -> list[tuple[str, str]]:
        rows = await run(
            self._db,
            "SELECT position, outcome FROM facts WHERE guild_id = ? ORDER BY position",
            (guild_id,),
        )
        return [(row[0], row[1]) for row in rows]

    async def reset_memory(self, guild_id: int) -> int:
        """Forget this server's facts; its game history stays."""
        ((count,),) = await run(
            self._db, "SELECT COUNT(*) FROM facts WHERE guild_id = ?", (guild_id,)
        )
        await self._write([("DELETE FROM facts WHERE guild_id = ?", (guild_id,))])
        return count

    # --- games --------------------------------------------------------------------
    async def start_game(
        self,
        guild_id: int,
        channel_id: int,
        player_id: int,
        bot_mark: str,
        moves: Sequence[int],
        *,
        now: float,
    ) -> GameRecord:
        try:
            await self._write(
                [
                    (
                        "INSERT INTO games (guild_id, channel_id, player_id, bot_mark, moves,"
                        " result, started_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            guild_id,
                            channel_id,
                            player_id,
                            bot_mark,
                            _moves_text(moves),
                            RUNNING,
                            now,
                            now,
                        ),
                    )
                ]
            )
        except aiosqlite.IntegrityError:
            running = await self.running_game(channel_id)
            if running is None:  # it ended in between; let the caller try again
                raise
            raise ChannelBusyError(running) from None
        game = await self.running_game(channel_id)
        assert game is not None
        return game

    async def record_moves(self, game_id: int, moves: Sequence[int], *, now: float) -> None:
        await self._write(
            [
                (
                    "UPDATE games SET moves = ?, updated_at = ? WHERE id = ? AND result = ?",
                    (_moves_text(moves), now, game_id, RUNNING),
                )
            ]
        )

    async def set_message(self, game_id: int, message_id: int) -> None:
        await self._write(
            [
                ("UPDATE games SET message_id = ? WHERE id = ?", (message_id, game_id)),
            ]
        )

    async def finish_game(
        self,
        game_id: int,
        guild_id: int,
        moves: Sequence[int],
        result: str,
        facts: Iterable[tuple[str, str]] = (),
        *,
        now: float,
    ) -> None:
        """Store a game's end and what was learned from it, in one transaction."""
        if result not in RESULTS:
            raise ValueError(f"unknown result {result!r}")
        statements = [
            (
                "UPDATE games SET moves = ?, result = ?, updated_at = ?, ended_at = ? WHERE id = ?",
                (_moves_text(moves), result, now, now, game_id),
            )
        ]
        statements += [
            (
                "INSERT INTO facts (guild_id, position, outcome, learned_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, position) DO NOTHING",
                (guild_id, position, outcome, now),
            )
            for position, outcome in facts
        ]
        await self._write(statements)

    async def running_game(self, channel_id: int) -> GameRecord | None:
        rows = await run(
            self._db,
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND result = ?",
            (channel_id, RUNNING),
        )
        return _game(rows[0]) if rows else None

    async def running_games(self) -> list[GameRecord]:
        rows = await run(
            self._db, f"SELECT {_GAME_COLUMNS} FROM games WHERE result = ? ORDER BY id", (RUNNING,)
        )
        return [_game(row) for row in rows]

    # --- stats --------------------------------------------------------------------
    async def record(self, guild_id: int, player_id: int | None = None) -> Record:
        sql = "SELECT result, COUNT(*) FROM games WHERE guild_id = ? AND result != ?"
        params: tuple = (guild_id, RUNNING)
        if player_id is not None:
            sql += " AND player_id = ?"
            params += (player_id,)
        counts = dict(await run(self._db, sql + " GROUP BY result", params))
        return Record(
            games=sum(counts.values()),
            bot_wins=counts.get("bot_won", 0) + counts.get("resigned", 0),
            bot_losses=counts.get("player_won", 0),
            draws=counts.get("draw", 0),
            unfinished=counts.get("abandoned", 0),
        )

    # --- settings -----------------------------------------------------------------
    async def get_meta(self, key: str) -> str | None:
        rows = await run(self._db, "SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        await self._write(
            [
                (
                    "INSERT INTO meta (key, value) VALUES (?, ?)"
                    " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    (key, value),
                )
            ]
        )
