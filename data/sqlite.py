"""The SQLite driver: an aiosqlite connection in WAL mode for the writes, another for the
reads, and the schema's migrations.

Every write is one transaction on the writing connection, in turn (those asked for
together share one trip to its thread and one commit, each in a savepoint); a write that
another program's lock holds past ``BUSY_TIMEOUT_MS`` fails fast with
:class:`StoreBusyError`. Reads go to a connection of their own (in WAL mode readers never
wait for the writer, and each read sees every commit before it): a member's stats, a
history or a memory read back never make a move's write wait in the writer's queue.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path

import aiosqlite

from .errors import SchemaTooNewError, StoreBusyError, StoreOpenError, UniqueViolation
from .migrations import migrate, run, run_transactions

SYNCHRONOUS = "NORMAL"

# How long a write waits for another connection's lock. One connection serves every
# server, so a long wait here stalls them all; failing one request fast and truthfully
# is better. It also leaves room inside Discord's 3-second deadline.
BUSY_TIMEOUT_MS = 2000


class SQLiteDriver:
    def __init__(
        self, db: aiosqlite.Connection, reader: aiosqlite.Connection | None = None
    ) -> None:
        self._db = db
        self._reader = reader or db  # an in-memory database has one connection only
        self._queued: list = []  # transactions asked for while the last batch ran
        self._flusher: asyncio.Task | None = None

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = SYNCHRONOUS) -> SQLiteDriver:
        if str(path) != ":memory:":
            path = Path(path).absolute()
            _check_path(path)
        try:
            db = await aiosqlite.connect(path, isolation_level=None)  # we issue BEGIN ourselves
        except sqlite3.Error as error:
            raise StoreOpenError(_open_failure(path, error)) from None
        try:
            for pragma in (
                "journal_mode=WAL",
                # With WAL, NORMAL keeps every commit through a crash of the process; FULL
                # also through a power loss or OS crash, at one fsync per commit. The bot
                # benchmark measures both; docs/data.md says which is promised and why.
                f"synchronous={synchronous}",
                f"busy_timeout={BUSY_TIMEOUT_MS}",
                "foreign_keys=ON",
            ):
                await run(db, f"PRAGMA {pragma}")
            await migrate(db)
            # a write that changes nothing: a database the bot may read but not write (a
            # read-only file or filesystem) is named now, in one line, not at the first
            # write of a running bot (issue 16, item 11)
            await run(db, "UPDATE meta SET value = value WHERE 0")
        except SchemaTooNewError:
            await db.close()
            raise
        except sqlite3.Error as error:
            await db.close()
            raise StoreOpenError(_open_failure(path, error)) from None
        except BaseException:
            await db.close()
            raise
        if str(path) == ":memory:":
            return cls(db)
        try:
            reader = await aiosqlite.connect(path, isolation_level=None)
            for pragma in (f"busy_timeout={BUSY_TIMEOUT_MS}", "query_only=ON"):
                await run(reader, f"PRAGMA {pragma}")
        except BaseException:
            await db.close()
            raise
        return cls(db, reader)

    async def close(self) -> None:
        if self._reader is not self._db:
            await self._reader.close()
        await self._db.close()

    @staticmethod
    def after_copy(tables: list[str]) -> list[tuple[str, Sequence]]:
        """Statements to run after rows with ids were copied in: none (SQLite keeps
        counting from the highest id itself)."""
        return []

    async def fetch(self, sql: str, params: Sequence = ()) -> list:
        return await run(self._reader, sql, params)

    async def write(
        self, statements: Iterable[tuple[str, Sequence]], *, guarded: int, rows_of: int
    ) -> list:
        """Run one transaction. Those asked for while others run go to the connection's
        thread together, in one trip, each still whole or not at all, in the order asked:
        a busy bot pays one thread trip per batch, not per move (11% less CPU per move,
        ``python -m bench.lean``). They cannot interleave: the thread runs one at a time.
        """
        done = asyncio.get_running_loop().create_future()
        self._queued.append((list(statements), guarded, rows_of, done))
        if self._flusher is None:
            self._flusher = asyncio.ensure_future(self._flush())
        try:
            return await done
        except sqlite3.IntegrityError as error:
            if "UNIQUE" not in str(error):
                raise
            raise UniqueViolation(str(error)) from None
        except sqlite3.OperationalError as error:
            if _is_busy(error):
                raise StoreBusyError(
                    "the database is busy (another program holds it); nothing was written"
                ) from None
            raise

    async def _flush(self) -> None:
        """Send the queued transactions to the thread, batch after batch, until none is
        left; each one's outcome goes to whoever asked for it."""
        try:
            while self._queued:
                batch, self._queued = self._queued, []
                try:
                    outcomes = await run_transactions(self._db, [asked[:3] for asked in batch])
                except asyncio.CancelledError:
                    for *_, done in batch:
                        done.cancel()
                    raise
                except Exception as error:  # the connection itself failed: each is told
                    outcomes = [(False, error)] * len(batch)
                for (*_, done), (ok, value) in zip(batch, outcomes, strict=True):
                    if done.done():  # its asker was cancelled; the transaction ran all the same
                        continue
                    if ok:
                        done.set_result(value)
                    else:
                        done.set_exception(value)
        finally:
            self._flusher = None


def _is_busy(error: sqlite3.OperationalError) -> bool:
    text = str(error)
    return "locked" in text or "busy" in text


def _check_path(path: Path) -> None:
    """Say plainly what is wrong with a database path before SQLite says it obscurely."""
    if path.is_dir():
        raise StoreOpenError(
            f"DATABASE_PATH {path} is a folder; give the path of a file in it, "
            f"such as {path / 'ttt.sqlite3'}"
        )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StoreOpenError(
            f"cannot create the folder {path.parent} for the database "
            f"({error.strerror or type(error).__name__}); create it, or point DATABASE_PATH "
            "at a folder the bot may write to"
        ) from None
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise StoreOpenError(
            f"the bot may not write in {path.parent}; give it write access, or point "
            "DATABASE_PATH at a folder it may write to"
        )


def _open_failure(path: Path | str, error: sqlite3.Error) -> str:
    text = str(error)
    if "not a database" in text:
        return (
            f"{path} is not a SQLite database (or it is damaged); point DATABASE_PATH at "
            "the bot's own database, or at a new file"
        )
    if "readonly" in text or "read-only" in text:
        return (
            f"{path} is read-only (the file or its filesystem); give the bot write access, "
            "or point DATABASE_PATH elsewhere"
        )
    if _is_busy(error):
        return f"{path} is locked by another program; stop it, or point DATABASE_PATH elsewhere"
    return f"cannot open {path} ({text}); check DATABASE_PATH"
