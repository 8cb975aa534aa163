"""Running SQLite's schema versions (``data/sqlite_steps.py``), tracked with ``PRAGMA
user_version``, and the statements and transactions every SQLite call goes through."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence

import aiosqlite

from .errors import SchemaTooNewError, StaleGameError
from .sqlite_steps import MIGRATIONS

SCHEMA_VERSION = len(MIGRATIONS)


class _PackedEntries:
    """SQLite's aggregate of packed classic entries: a big-endian blob, in key order
    (PostgreSQL has ``string_agg(int8send(…))``)."""

    def __init__(self) -> None:
        self.entries: list[int] = []

    def step(self, entry: int) -> None:
        self.entries.append(entry)

    def finalize(self) -> bytes:
        return b"".join(entry.to_bytes(8, "big") for entry in sorted(self.entries))


def register_functions(conn: sqlite3.Connection) -> None:
    """What the migrations call besides SQLite's own functions (on every connection that
    may run them)."""
    conn.create_aggregate("pack_entries", 1, _PackedEntries)


async def migrate(db: aiosqlite.Connection) -> int:
    """Bring the schema up to date; return the version it was at before."""
    await db._execute(register_functions, db._conn)
    ((version,),) = await db.execute_fetchall("PRAGMA user_version")
    if version > SCHEMA_VERSION:
        raise SchemaTooNewError(
            f"the database is at schema version {version}, newer than this bot's "
            f"{SCHEMA_VERSION}; upgrade the bot or point DATABASE_PATH at another file"
        )
    for target in range(version + 1, SCHEMA_VERSION + 1):
        # the version bump commits with the schema change, so a crash leaves either or neither
        await run_in_transaction(
            db,
            [
                *((sql, ()) for sql in MIGRATIONS[target - 1]),
                (f"PRAGMA user_version = {target}", ()),
            ],
        )
    return version


class Rows(list):
    """Parameters for one statement run once per row (``executemany``): one thread trip."""


async def run(db: aiosqlite.Connection, sql: str, params: Sequence = ()) -> list:
    """Execute to completion in the connection's thread and return the rows.

    No cursor outlives the call: a half-read one keeps its statement busy and makes the
    next COMMIT fail with "SQL statements in progress".
    """
    if isinstance(params, Rows):
        await (await db.executemany(sql, params)).close()
        return []
    return list(await db.execute_fetchall(sql, params))


async def run_in_transaction(
    db: aiosqlite.Connection,
    statements: Iterable[tuple[str, Sequence]],
    *,
    require_row: int = False,
    rows_of: int = 0,
) -> list:
    """All of the statements land, or none. Returns the rows of the first one (or of
    the one at index ``rows_of``).

    With ``require_row``, the first statement must return a row (a guarded
    ``UPDATE … RETURNING``), or the first ``require_row`` of them if it is a number; if
    one returns none, everything is rolled back and ``StaleGameError`` is raised.

    The whole transaction runs in the connection's thread in one trip: each trip costs
    about 60 µs of CPU, and a game's end is several statements. Being one call there, it
    also lands whole even if the request that asked for it is cancelled meanwhile.
    """
    # aiosqlite has no public call for "run this in the connection's thread"; _execute is
    # what each of its own methods uses (pinned in pyproject.toml, checked by the tests)
    return await db._execute(_transaction, db._conn, list(statements), require_row, rows_of)


def _transaction(
    conn: sqlite3.Connection,
    statements: list[tuple[str, Sequence]],
    require_row: int,
    rows_of: int,
) -> list:
    own = len(statements) == 1 and not isinstance(statements[0][1], Rows)
    if not own:  # one plain statement is its own transaction
        conn.execute("BEGIN IMMEDIATE")
    try:
        wanted = _statements(conn, statements, require_row, rows_of)
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    if not own:
        conn.execute("COMMIT")
    return wanted


def _statements(
    conn: sqlite3.Connection,
    statements: list[tuple[str, Sequence]],
    require_row: int,
    rows_of: int,
) -> list:
    wanted: list = []
    for index, (sql, params) in enumerate(statements):
        if isinstance(params, Rows):
            conn.executemany(sql, params).close()
            rows = []
        else:
            cursor = conn.execute(sql, params)
            rows = cursor.fetchall()
            cursor.close()  # a half-read cursor would keep the COMMIT from running
        if index < require_row and not rows:
            raise StaleGameError("the game changed since it was read; nothing was written")
        if index == rows_of:
            wanted = rows
    return wanted


async def run_transactions(db: aiosqlite.Connection, batch: list[tuple]) -> list:
    """Several transactions, each ``(statements, require_row, rows_of)`` as for
    :func:`run_in_transaction`, in one trip to the connection's thread and one commit.
    Each is whole or not at all (a savepoint of its own); gives each one's
    ``(True, rows)`` or ``(False, error)``."""
    return await db._execute(_transactions, db._conn, batch)


def _transactions(conn: sqlite3.Connection, batch: list[tuple]) -> list[tuple[bool, object]]:
    if len(batch) == 1:
        try:
            return [(True, _transaction(conn, *batch[0]))]
        except Exception as error:
            return [(False, error)]
    try:
        conn.execute("BEGIN IMMEDIATE")
    except Exception as error:  # busy: none of them can run
        return [(False, error)] * len(batch)
    outcomes: list[tuple[bool, object]] = []
    try:
        for statements, require_row, rows_of in batch:
            conn.execute("SAVEPOINT asked")
            try:
                outcomes.append((True, _statements(conn, statements, require_row, rows_of)))
            except Exception as error:
                if not conn.in_transaction:  # SQLite undid the whole batch: tell them all
                    raise
                conn.execute("ROLLBACK TO asked")
                outcomes.append((False, error))
            conn.execute("RELEASE asked")
        conn.execute("COMMIT")
    except Exception as error:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        return [(False, error)] * len(batch)
    return outcomes
