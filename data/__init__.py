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
from .games import (
    HISTORY_LENGTH,
    RESULTS,
    RUNNING,
    ChannelBusyError,
    FinishedGame,
    GameRecord,
    PastGame,
)
from .memory import ClassicFacts, ClassicRuns, Snapshot
from .migrations import SCHEMA_VERSION
from .settings import GuildSettings
from .shards import Shards
from .stats import CurvePoint, MemberRecord, Record, Standing
from .store import Store
from .trainings import TrainingRecord

__all__ = [
    "HISTORY_LENGTH",
    "RESULTS",
    "RUNNING",
    "SCHEMA_VERSION",
    "ChallengeRecord",
    "ChannelBusyError",
    "ClassicFacts",
    "ClassicRuns",
    "CurvePoint",
    "FinishedGame",
    "GameRecord",
    "GuildSettings",
    "MemberRecord",
    "PastGame",
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
