"""Async SQLite storage (aiosqlite): the only package that speaks SQL."""

from .errors import (
    SchemaTooNewError,
    StaleGameError,
    StoreBusyError,
    StoreError,
    StoreOpenError,
)
from .migrations import SCHEMA_VERSION
from .store import (
    RESULTS,
    RUNNING,
    ChannelBusyError,
    GameRecord,
    GuildSettings,
    Record,
    Store,
    TrainingRecord,
)

__all__ = [
    "RESULTS",
    "RUNNING",
    "SCHEMA_VERSION",
    "ChannelBusyError",
    "GameRecord",
    "GuildSettings",
    "Record",
    "SchemaTooNewError",
    "StaleGameError",
    "Store",
    "StoreBusyError",
    "StoreError",
    "StoreOpenError",
    "TrainingRecord",
]
