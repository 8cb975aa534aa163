"""Async SQLite storage (aiosqlite): the only package that speaks SQL."""

from .migrations import SCHEMA_VERSION, SchemaTooNewError
from .store import RESULTS, RUNNING, ChannelBusyError, GameRecord, Record, Store

__all__ = [
    "RESULTS",
    "RUNNING",
    "SCHEMA_VERSION",
    "ChannelBusyError",
    "GameRecord",
    "Record",
    "SchemaTooNewError",
    "Store",
]
