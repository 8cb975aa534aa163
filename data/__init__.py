"""Storage on SQLite (aiosqlite) or PostgreSQL (asyncpg): the only package that speaks SQL."""

from .challenges import ChallengeRecord
from .errors import (
    SchemaTooNewError,
    StaleGameError,
    StoreBusyError,
    StoreError,
    StoreOpenError,
    StoreUnavailableError,
    UniqueViolation,
)
from .games import RESULTS, RUNNING, ChannelBusyError, GameRecord
from .memory import Snapshot
from .migrations import SCHEMA_VERSION
from .settings import GuildSettings
from .shards import Shards
from .stats import CurvePoint, MemberRecord, Record, Standing
from .store import Store
from .trainings import TrainingRecord

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
