"""Async SQLite storage (aiosqlite): the only package that speaks SQL."""

from .errors import (
    SchemaTooNewError,
    StaleGameError,
    StoreBusyError,
    StoreError,
    StoreOpenError,
    StoreUnavailableError,
    UniqueViolation,
)
from .migrations import SCHEMA_VERSION
from .store import (
    RESULTS,
    RUNNING,
    ChallengeRecord,
    ChannelBusyError,
    CurvePoint,
    GameRecord,
    GuildSettings,
    MemberRecord,
    Record,
    Shards,
    Snapshot,
    Standing,
    Store,
    TrainingRecord,
)

__all__ = [
    "RESULTS",
    "RUNNING",
    "SCHEMA_VERSION",
    "ChallengeRecord",
    "ChannelBusyError",
    "CurvePoint",
    "GameRecord",
    "GuildSettings",
    "MemberRecord",
    "Record",
    "SchemaTooNewError",
    "Shards",
    "Snapshot",
    "StaleGameError",
    "Standing",
    "Store",
    "StoreBusyError",
    "StoreError",
    "StoreOpenError",
    "StoreUnavailableError",
    "TrainingRecord",
    "UniqueViolation",
]
