"""The PostgreSQL driver: an asyncpg connection pool, for large bots and cluster mode.

It runs the same queries as the SQLite driver (their ``?`` placeholders become ``$1``,
``$2``, …) on a schema with the same tables, counters and triggers, written for
PostgreSQL. Several processes may share one database: every write is one transaction,
game writes are conditional on the state they were computed from (as on SQLite), and
migrations take an advisory lock so that two processes starting at once migrate once.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import AsyncIterator, Iterable, Sequence

import asyncpg

from .errors import (
    SchemaTooNewError,
    StaleGameError,
    StoreBusyError,
    StoreOpenError,
    StoreUnavailableError,
    UniqueViolation,
)
from .migrations import Rows
from .postgres_steps import MIGRATIONS, SCHEMA_VERSION

log = logging.getLogger(__name__)

# what a lost or refused connection raises: PostgreSQL down, restarting, or out of reach
UNREACHABLE = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
    # a connection whose server went away while it sat idle in the pool: asyncpg's
    # protocol then refuses the next operation ("cannot switch to state …")
    asyncpg.InternalClientError,
)
# of those, what a connection that was working says once its server process is gone (a
# failover, a pooler restart, pg_terminate_backend): the pool's other idle connections
# are likely gone too, and a fresh one may well work
LOST = (
    asyncpg.ConnectionDoesNotExistError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    asyncpg.AdminShutdownError,
    ConnectionResetError,
)

LOCK_WAIT_MS = 2000  # as SQLite's busy timeout: fail one request fast and truthfully
MIGRATION_LOCK = 0x7474_7400  # an advisory lock id of our own ("ttt")

_PLACEHOLDER = re.compile(r"\?")


_CONVERTED: dict[str, str] = {}


def dialect(sql: str) -> str:
    """The query with PostgreSQL's numbered placeholders (converted once per query)."""
    converted = _CONVERTED.get(sql)
    if converted is None:
        counter = iter(range(1, 10_000))
        converted = _CONVERTED[sql] = _PLACEHOLDER.sub(lambda _: f"${next(counter)}", sql)
    return converted


class PostgresDriver:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool
        self._down = False  # in an outage: logged once when it starts, once when it ends

    def _unreachable(
        self, error: BaseException, *, maybe_written: bool = False
    ) -> StoreUnavailableError:
        if not self._down:
            self._down = True
            log.warning("cannot reach PostgreSQL (%s); requests are refused until it is back",
                        error or type(error).__name__)  # fmt: skip
        return StoreUnavailableError(
            f"the database cannot be reached ({type(error).__name__})", maybe_written=maybe_written
        )

    def _reached(self) -> None:
        if self._down:
            self._down = False
            log.warning("PostgreSQL is reachable again")

    @classmethod
    async def open(cls, url: str, *, schema: str | None = None) -> PostgresDriver:
        """Connect, and bring the schema up to date. ``schema``: a PostgreSQL schema to
        work in (tests use one each); by default the database's own search path."""
        settings = {"lock_timeout": str(LOCK_WAIT_MS)}
        if schema is not None:
            settings["search_path"] = schema
        pool = None
        try:
            # no floor of idle connections: in an outage the pool would try to restore it
            # and log each try; connections it has are kept for reuse all the same
            pool = await asyncpg.create_pool(url, min_size=0, max_size=10, server_settings=settings)
            async with pool.acquire():  # the first connection: refused now, or never
                pass
        except (OSError, asyncpg.PostgresError, ValueError) as error:
            if pool is not None:
                await pool.close()
            raise StoreOpenError(
                f"cannot connect to PostgreSQL ({error}); check DATABASE_URL and that the "
                "server is running"
            ) from None
        driver = cls(pool)
        try:
            await driver._migrate()
        except BaseException:
            await pool.close()
            raise
        return driver

    async def close(self) -> None:
        await self._pool.close()

    async def _migrate(self) -> None:
        async with self._pool.acquire() as db, db.transaction():
            await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER)")
            version = await db.fetchval("SELECT version FROM schema_version") or 0
            if version > SCHEMA_VERSION:
                raise SchemaTooNewError(
                    f"the database is at schema version {version}, newer than this bot's "
                    f"{SCHEMA_VERSION}; upgrade the bot or point DATABASE_URL elsewhere"
                )
            for step in MIGRATIONS[version:]:
                for sql in step:
                    await db.execute(sql)
            if version == 0:
                await db.execute("INSERT INTO schema_version VALUES ($1)", SCHEMA_VERSION)
            else:
                await db.execute("UPDATE schema_version SET version = $1", SCHEMA_VERSION)

    @staticmethod
    def after_copy(tables: list[str]) -> list[tuple[str, Sequence]]:
        """After rows with ids were copied in: new rows get ids above the copied ones."""
        return [
            (
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                f" COALESCE(MAX(id), 0) + 1, false) FROM {table}",
                (),
            )
            for table in tables
        ]

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        """A pooled connection. Handing it back may fail once its server is gone (the
        pool resets it first); the pool then drops it, and what was done on it stands."""
        db = await self._pool.acquire()
        try:
            yield db
        finally:
            try:
                await self._pool.release(db)
            except Exception as error:  # the pool has dropped it already
                log.debug("a connection was dropped on release (%s)", type(error).__name__)

    async def fetch(self, sql: str, params: Sequence = ()) -> list:
        for attempt in (1, 2):
            try:
                async with self._connection() as db:
                    rows = [tuple(row) for row in await db.fetch(dialect(sql), *params)]
                break
            except asyncpg.LockNotAvailableError:
                raise StoreBusyError(_BUSY) from None
            except UNREACHABLE as error:
                if attempt == 1 and isinstance(error, LOST):
                    await self._pool.expire_connections()  # a read is safe to ask again, anew
                    continue
                raise self._unreachable(error) from None
        self._reached()
        return rows

    async def write(
        self, statements: Iterable[tuple[str, Sequence]], *, guarded: int, rows_of: int
    ) -> list:
        statements = list(statements)  # asked again if the first connection was lost
        for attempt in (1, 2):
            wanted: list = []
            committing = False
            try:
                async with self._connection() as db, db.transaction():
                    for index, (sql, params) in enumerate(statements):
                        if isinstance(params, Rows):
                            if params:
                                await db.executemany(dialect(sql), params)
                            rows = []
                        else:
                            rows = [tuple(row) for row in await db.fetch(dialect(sql), *params)]
                        if index < guarded and not rows:
                            raise StaleGameError(
                                "the game changed since it was read; nothing was written"
                            )
                        if index == rows_of:
                            wanted = rows
                    committing = True  # a connection lost from here on may have committed
                break
            except asyncpg.UniqueViolationError as error:
                raise UniqueViolation(str(error)) from None
            except asyncpg.LockNotAvailableError:
                raise StoreBusyError(_BUSY) from None
            except UNREACHABLE as error:
                # lost before its COMMIT was sent, the transaction was rolled back with
                # its connection: nothing was written, and it can be tried once anew
                if attempt == 1 and not committing and isinstance(error, LOST):
                    await self._pool.expire_connections()
                    continue
                raise self._unreachable(error, maybe_written=committing) from None
        self._reached()
        return wanted


_BUSY = "the database is busy (another transaction holds the rows); nothing was written"
