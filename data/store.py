"""The store: one object for every query the bot makes, on one database.

:class:`Store` is built from one mixin per family of queries, each in its own module with
its records: ``memory``, ``games``, ``stats``, ``servers``, ``challenges``, ``trainings``
and ``settings``. The queries are written once; a driver runs them (``data/sqlite.py``:
one aiosqlite connection in WAL mode; ``data/postgres.py``: a pool). Every method that
changes something commits before it returns, so whatever the bot announces afterwards is
already on disk. Every write to a running game is conditional on the state it was computed
from, so two processes on one database (an overlapping deploy) cannot overwrite each
other's moves.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .challenges import ChallengeQueries
from .daily_puzzles import DailyPuzzleQueries
from .games import GameQueries
from .memory import MemoryQueries
from .puzzles import PuzzleQueries
from .ratings import RatingQueries
from .servers import ServerQueries
from .settings import SettingsQueries
from .sqlite import SYNCHRONOUS, SQLiteDriver
from .stats import StatsQueries
from .trainings import TrainingQueries

if TYPE_CHECKING:
    from .postgres import PostgresDriver


class Store(
    MemoryQueries,
    GameQueries,
    StatsQueries,
    ServerQueries,
    ChallengeQueries,
    TrainingQueries,
    SettingsQueries,
    PuzzleQueries,
    DailyPuzzleQueries,
    RatingQueries,
):
    """Every query the bot makes, on a driver that speaks to one database: SQLite
    (:class:`SQLiteDriver`, the embedded default). The SQL is written once, with ``?``
    placeholders."""

    def __init__(self, driver: SQLiteDriver | PostgresDriver) -> None:
        self._driver = driver

    @classmethod
    async def connect(cls, url: str | Path, *, schema: str | None = None) -> Store:
        """Open the database ``url`` names: ``postgresql://…`` (or ``postgres://…``) on
        PostgreSQL; ``sqlite:///path``, or a bare path, on SQLite (the default)."""
        text = str(url)
        if text.startswith(("postgresql://", "postgres://")):
            from .postgres import PostgresDriver

            return cls(await PostgresDriver.open(text, schema=schema))
        if text.startswith("sqlite://"):  # sqlite:///relative/path, sqlite:////absolute/path
            text = text.removeprefix("sqlite://").removeprefix("/") or ":memory:"
        return await cls.open(text)

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = SYNCHRONOUS) -> Store:
        """Open (or create) a SQLite database and bring its schema up to date.

        Raises :class:`StoreOpenError` saying what is wrong with ``path`` and how to fix it,
        or :class:`SchemaTooNewError` for a database written by a newer bot.
        """
        return cls(await SQLiteDriver.open(path, synchronous=synchronous))

    async def close(self) -> None:
        await self._driver.close()

    async def _fetch(self, sql: str, params: Sequence = ()) -> list:
        return await self._driver.fetch(sql, params)

    async def _write(
        self,
        statements: Iterable[tuple[str, Sequence]],
        *,
        guarded: int = False,
        rows_of: int = 0,
    ) -> list:
        """Run statements in one transaction: all of them land, or none.

        With ``guarded``, the first statement is an ``UPDATE … RETURNING`` conditional on
        the state a game was read in (a number: the first ``guarded`` statements are,
        each on what it read); if one changes no row the game has moved on, nothing is
        written and :class:`StaleGameError` is raised.
        """
        return await self._driver.write(statements, guarded=guarded, rows_of=rows_of)
