"""Async SQLite storage (aiosqlite): the only package that speaks SQL."""

from .errors import (
    SchemaTooNewError,
    StaleGameError,
    StoreBusyError,
    StoreError,
    StoreOpenError,
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
    "Snapshot",
    "StaleGameError",
    "Standing",
    "Store",
    "StoreBusyError",
    "StoreError",
    "StoreOpenError",
    "TrainingRecord",
    "UniqueViolation",
]
