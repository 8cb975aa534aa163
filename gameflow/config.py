"""The bot's configuration from the environment (and ``.env``), which the bot and the terminal
both read: where the data lives, the timeouts, the caches, the posting limit, the shards.
Every malformed value is a :class:`ConfigError` whose message says how to fix it.

Where the data lives does not depend on the folder the bot is started from: ``.env`` is
read from the project's folder (the bot's home), and a relative ``DATABASE_PATH`` is
resolved against it too.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from data import Shards

from .memories import MEMORIES_KEPT, MEMORY_BYTES_KEPT


class ConfigError(ValueError):
    """A setting that is missing or malformed; the message says how to fix it."""


HOME = Path(__file__).resolve().parent.parent  # .env and a relative DATABASE_PATH resolve here
DEFAULT_DATABASE_PATH = "data/ttt.sqlite3"
DEFAULT_POSTS_PER_MINUTE = 6  # public posts a member may make in a channel in a minute
DEFAULT_TIMEOUT_MINUTES = 10.0
LOG_LEVELS = {"DEBUG": "DEBUG", "INFO": "INFO", "WARNING": "WARNING", "WARN": "WARNING",
              "ERROR": "ERROR", "CRITICAL": "CRITICAL"}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Settings:
    token: str | None
    database_path: str = str(HOME / DEFAULT_DATABASE_PATH)  # always absolute
    postgres_url: str | None = None  # DATABASE_URL=postgresql://…: PostgreSQL instead
    dev_guild_id: int | None = None
    game_timeout_minutes: float = DEFAULT_TIMEOUT_MINUTES
    log_level: str = "INFO"
    sweep_seconds: float = 30.0  # how often idle games are looked for
    memory_cache_servers: int = MEMORIES_KEPT  # servers whose memory is kept in RAM
    memory_cache_megabytes: int = MEMORY_BYTES_KEPT >> 20  # and at most this much of it
    # public posts (challenge, board, stats, leaderboard: not play) a member may make in a
    # channel in any minute; 0: no limit
    public_posts_per_minute: int = DEFAULT_POSTS_PER_MINUTE
    shards: Shards | None = None  # SHARD_COUNT and SHARD_IDS: this process's part of a cluster
    pictures: bool = True  # TTT_PICTURES=off: no learning-curve picture, no process drawing it

    @property
    def database_label(self) -> str:
        """Where the data lives, for the log: the file, or the PostgreSQL server and
        database (never the password)."""
        if self.postgres_url is None:
            return self.database_path
        return "PostgreSQL " + re.sub(r"//([^:@/]*):[^@/]*@", r"//\1:***@", self.postgres_url)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, *, home: Path = HOME) -> Settings:
        env = os.environ if env is None else env

        def number(name: str, default: float, kind: type = float) -> float:
            raw = env.get(name, "").strip()
            if not raw:
                return default
            try:
                value = kind(raw)
            except ValueError:
                whole = "a whole number" if kind is int else "a number"
                raise ConfigError(f"{name} must be {whole}, got {raw!r}") from None
            if not math.isfinite(value):
                raise ConfigError(f"{name} must be a finite number, got {raw!r}")
            if value <= 0:
                raise ConfigError(f"{name} must be greater than 0, got {raw!r}")
            return value

        level = env.get("LOG_LEVEL", "").strip().upper() or "INFO"
        if level not in LOG_LEVELS:
            raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, got {level!r}")
        url = env.get("DATABASE_URL", "").strip()
        postgres_url = url if url.startswith(("postgresql://", "postgres://")) else None
        if url.startswith("sqlite://"):  # sqlite:///relative/path or sqlite:////absolute/path
            url = url.removeprefix("sqlite://").removeprefix("/")
            if not url:
                raise ConfigError("DATABASE_URL sqlite:/// needs a file path after it")
        elif "://" in url and postgres_url is None:
            raise ConfigError(
                f"DATABASE_URL must start with postgresql:// or sqlite:///, or be a file "
                f"path, got {url.split('://')[0]}://…"
            )
        timeout = number("GAME_TIMEOUT_MINUTES", DEFAULT_TIMEOUT_MINUTES)
        if not 1 <= timeout <= MAX_TIMEOUT_MINUTES:  # as /ttt-admin settings timeout takes
            raise ConfigError(
                f"GAME_TIMEOUT_MINUTES must be 1 to {MAX_TIMEOUT_MINUTES:,} (a day), got "
                f"{env.get('GAME_TIMEOUT_MINUTES', '').strip()!r}"
            )
        given = (url if postgres_url is None else "") or env.get("DATABASE_PATH", "").strip()
        database = Path(given or DEFAULT_DATABASE_PATH)
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip() or None,
            database_path=str(database if database.is_absolute() else home / database),
            postgres_url=postgres_url,
            dev_guild_id=number("DEV_GUILD_ID", 0, int) or None,
            game_timeout_minutes=timeout,
            log_level=LOG_LEVELS[level],
            memory_cache_servers=number("MEMORY_CACHE_SERVERS", MEMORIES_KEPT, int),
            memory_cache_megabytes=number("MEMORY_CACHE_MB", MEMORY_BYTES_KEPT >> 20, int),
            public_posts_per_minute=posts_per_minute(env),
            shards=shards_from(env),
            pictures=env.get("TTT_PICTURES", "").strip().lower() != "off",
        )


def posts_per_minute(env: Mapping[str, str]) -> int:
    text = env.get("PUBLIC_POSTS_PER_MINUTE", "").strip()
    if not text:
        return DEFAULT_POSTS_PER_MINUTE
    if not text.isdigit() or int(text) > 60:
        raise ConfigError(f"PUBLIC_POSTS_PER_MINUTE must be 0 (no limit) to 60, got {text!r}")
    return int(text)


MAX_SHARDS = 65_536
MAX_TIMEOUT_MINUTES = 1440


def shards_from(env: Mapping[str, str]) -> Shards | None:
    """SHARD_COUNT (the cluster's shards in all) and SHARD_IDS (this process's: "0,1" or
    "0-3"; all of them if empty). Neither: one process, shards chosen by Discord."""
    count_text = env.get("SHARD_COUNT", "").strip()
    ids_text = env.get("SHARD_IDS", "").strip()
    if not count_text:
        if ids_text:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT, the number of shards in all")
        return None
    if not count_text.isdigit() or int(count_text) < 1:
        raise ConfigError(f"SHARD_COUNT must be a whole number of at least 1, got {count_text!r}")
    count = int(count_text)
    if count > MAX_SHARDS:  # Discord's largest bots run thousands; a million is a typo
        raise ConfigError(f"SHARD_COUNT must be at most {MAX_SHARDS:,}, got {count:,}")
    ids: set[int] = set()
    for part in filter(None, (p.strip() for p in ids_text.split(","))):
        first, _, last = part.partition("-")
        if not first.isdigit() or (last and not last.isdigit()):
            raise ConfigError(f"SHARD_IDS takes ids and ranges such as 0,2 or 0-3, got {part!r}")
        if last and int(last) < int(first):
            raise ConfigError(f"SHARD_IDS ranges go from low to high, such as 1-3, got {part!r}")
        ids.update(range(int(first), int(last or first) + 1))
    if any(i >= count for i in ids):
        raise ConfigError(f"SHARD_IDS must be below SHARD_COUNT ({count}), got {ids_text!r}")
    return Shards(count, tuple(sorted(ids)) if ids else tuple(range(count)))
