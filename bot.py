"""The wiring: configuration from the environment and ``.env``, then the bot.

python bot.py           run the bot (DISCORD_TOKEN in .env or the environment)
python bot.py --sync    also push the slash commands to Discord now

Where the data lives does not depend on the folder the bot is started from: ``.env`` is
read from the folder this file is in (the bot's home), and a relative ``DATABASE_PATH``
is resolved against it too.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import hashlib
import json
import logging
import math
import os
import re
import sqlite3
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import discord
from discord.ext import commands
from dotenv import load_dotenv

from cogs import Admin, Table
from cogs.pictures import Pictures
from cogs.puzzles import PuzzleDesk
from cogs.replies import NOTHING_CHANGED, Refusal, past_deadline, refuse
from cogs.translator import CatalogTranslator
from data import SchemaTooNewError, Shards, Store, StoreOpenError
from gameflow import GameService
from gameflow.memories import MEMORIES_KEPT, MEMORY_BYTES_KEPT

log = logging.getLogger("ttt")


class ConfigError(ValueError):
    """A setting that is missing or malformed; the message says how to fix it."""


class StartupError(RuntimeError):
    """The bot cannot start as configured; the message says what to do."""


HOME = Path(__file__).resolve().parent  # .env and a relative DATABASE_PATH resolve here
DEFAULT_DATABASE_PATH = "data/ttt.sqlite3"
DEFAULT_POSTS_PER_MINUTE = 6  # public posts a member may make in a channel in a minute
DEFAULT_TIMEOUT_MINUTES = 10.0
LOG_LEVELS = {"DEBUG": "DEBUG", "INFO": "INFO", "WARNING": "WARNING", "WARN": "WARNING",
              "ERROR": "ERROR", "CRITICAL": "CRITICAL"}  # fmt: skip
# Everything the bot does outside an interaction response: it edits its own board
# messages and announces abandoned games, in text channels and in threads. One place,
# so the invite URL (README, docs/setup.md, ready line) and the code cannot drift apart.
INVITE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    embed_links=True,
    read_message_history=True,
)
INVITE_SCOPES = ("bot", "applications.commands")


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


def virtual_aware_now() -> float:
    # discord.utils.utcnow is the clock discord.py itself uses, and the one tests can move
    return discord.utils.utcnow().timestamp()


class ApologeticTree(discord.app_commands.CommandTree):
    async def on_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        """Something we did not foresee: log it, and tell the person privately. Commands that
        change something answer their own failures truthfully (``cogs.replies``), so what
        reaches here changed nothing."""
        name = getattr(interaction.command, "qualified_name", "?")
        cause = getattr(error, "original", error)  # raised by the command itself, or not
        if isinstance(cause, Refusal):  # foreseen: said to the person, not logged
            with contextlib.suppress(discord.HTTPException):
                await refuse(interaction, cause.message)
            return
        if past_deadline(cause):
            # Discord's deadline passed (a stall, or the network): no response of any kind
            # can reach the person now, so none is tried again
            log.warning("command /%s came past Discord's deadline", name)
            return
        log.error("command /%s failed", name, exc_info=error)
        with contextlib.suppress(discord.HTTPException):  # expired: the log has the details
            await refuse(interaction, NOTHING_CHANGED)


class TicTacToeBot(commands.AutoShardedBot):
    """Sharded, as Discord requires past 2,500 servers: one process runs the shards
    Discord recommends, or (with SHARD_COUNT and SHARD_IDS) its part of a cluster."""

    def __init__(self, settings: Settings, *, force_sync: bool = False) -> None:
        shards = settings.shards
        # Slash commands and buttons reach every bot whatever its intents. It asks only for
        # its servers (their names, channels and roles): the default intents would also send
        # it every message, reaction and typing in every channel of every server, and keep
        # messages in a cache it never reads.
        super().__init__(
            shard_count=shards.count if shards else None,
            shard_ids=list(shards.ids) if shards else None,
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),
            max_messages=None,
            help_command=None,
            tree_cls=ApologeticTree,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False),
        )
        self.settings = settings
        self.force_sync = force_sync
        self.store: Store | None = None
        self.service: GameService | None = None
        self.resumed = 0  # running games picked up at start
        self.pictures = Pictures(available=settings.pictures)  # the process that draws them

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        # The database first: a bad DATABASE_PATH is reported before, and without, Discord.
        await self.open_store()
        await super().start(token, reconnect=reconnect)

    async def open_store(self) -> Store:
        if self.store is None:
            self.store = await Store.connect(
                self.settings.postgres_url or self.settings.database_path
            )
            log.debug("database: %s", self.settings.database_label)
        return self.store

    async def setup_hook(self) -> None:
        self.pictures.start()  # its imports run beside the bot's own start
        await self.open_store()
        self.service = GameService(
            self.store,
            timeout_seconds=self.settings.game_timeout_minutes * 60,
            clock=virtual_aware_now,
            memories_kept=self.settings.memory_cache_servers,
            memory_bytes_kept=self.settings.memory_cache_megabytes << 20,
            shards=self.settings.shards,
        )
        self.resumed = len(await self.service.load())
        table = Table(  # every game's commands, from cogs.faces
            self,
            self.service,
            self.settings.sweep_seconds,
            posts_per_minute=self.settings.public_posts_per_minute,
            pictures=self.pictures,
        )
        await self.add_cog(table)
        await self.add_cog(Admin(self, self.service))
        await self.add_cog(PuzzleDesk(self, self.service))
        await self.tree.set_translator(CatalogTranslator())
        await self.sync_commands()

    async def on_ready(self) -> None:
        log.info(
            "ready: %s in %d server(s), %d running game(s) resumed; database %s; invite %s",
            self.user,
            len(self.guilds),
            self.resumed,
            self.settings.database_label,
            self.invite_url(),
        )

    def invite_url(self) -> str:
        return discord.utils.oauth_url(
            self.application_id, permissions=INVITE_PERMISSIONS, scopes=INVITE_SCOPES
        )

    async def sync_commands(self) -> bool:
        """Push the command definitions to Discord only if they changed since the last push,
        because Discord rate-limits syncing. Returns whether it synced.

        The record of the last push names the application: the same database under a new
        bot token (a new application) has nothing synced yet.
        """
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        # with their translations: a catalog's change is a change to sync
        translator = self.tree.translator
        payload = [
            await c.get_translated_payload(self.tree, translator)
            if translator
            else c.to_dict(self.tree)
            for c in self.tree.get_commands(guild=guild)
        ]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        key = f"commands_synced:{self.application_id}:{guild.id if guild else 'global'}"
        if not self.force_sync and await self.store.get_meta(key) == digest:
            log.debug("slash commands unchanged since the last sync; not syncing")
            return False
        try:
            await self.tree.sync(guild=guild)
        except discord.Forbidden:
            if guild is None:
                raise
            raise StartupError(
                f"DEV_GUILD_ID {guild.id} names a server the bot is not in (or it was invited "
                "without the applications.commands scope): invite it there with the README's "
                "URL, or clear DEV_GUILD_ID in .env"
            ) from None
        await self.store.set_meta(key, digest)
        log.info(
            "synced %d slash command group(s) %s",
            len(payload),
            f"to server {guild.id}" if guild else "globally (may take up to an hour)",
        )
        return True

    async def close(self) -> None:
        await super().close()
        self.pictures.close()
        if self.service is not None:
            await self.service.close()  # the post-mortems' worker process
        if self.store is not None:
            await self.store.close()
            self.store = None


def create_bot(*, force_sync: bool = False, env: Mapping[str, str] | None = None) -> TicTacToeBot:
    """The configured bot, built from the environment (and ``.env``), not yet connected.

    Only the ``.env`` in the bot's home is read, never one found by searching upwards, and
    the environment wins over it.
    """
    load_dotenv(HOME / ".env")
    return TicTacToeBot(Settings.from_env(env), force_sync=force_sync)


def freeze_start_up_objects() -> None:
    """Move everything alive after start-up (modules, discord.py, the engine's tables, the
    servers' caches) out of the garbage collector's sight: a full collection then skips
    what lives as long as the process (``python -m bench.scale`` measures it)."""
    gc.collect()
    gc.freeze()
    # Every interaction leaves cyclic garbage (discord.py's objects refer to each other),
    # and what a hundred requests in flight hold outlives the young collections. With
    # Python's thresholds (700, 10, 10) that piles up to ~20,000 objects between full
    # collections, each a ~20 ms stall; full collections as soon as Python allows, with
    # fewer young ones, keep every stall near 10 ms at the same CPU (python -m bench.lean
    # --verbose). The second collection restarts Python's count of long-lived objects,
    # which still held those just frozen.
    gc.set_threshold(2000, 10, 1)
    gc.collect()


def freeze_when_ready(bot: commands.Bot) -> None:
    """Freeze once, when every shard's servers are loaded (on a large bot, most objects)."""

    async def on_ready() -> None:
        bot.remove_listener(on_ready)
        freeze_start_up_objects()

    bot.add_listener(on_ready)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the tic-tac-toe bot.")
    parser.add_argument(
        "--sync", action="store_true", help="push the slash commands to Discord now"
    )
    args = parser.parse_args(argv)
    try:
        bot = create_bot(force_sync=args.sync)
    except ConfigError as error:
        return fail(f"Configuration error: {error}. See .env.example.")
    if not bot.settings.token:
        return fail(
            f"DISCORD_TOKEN is not set: copy .env.example to .env in {HOME} and paste your "
            "bot's token from the Discord developer portal (Bot > Reset Token)."
        )
    level = getattr(logging, bot.settings.log_level)
    discord.utils.setup_logging(level=level)
    if level > logging.DEBUG:  # a start that fails prints one line, ours: not "logging in"
        logging.getLogger("discord.client").setLevel(logging.WARNING)
    freeze_when_ready(bot)
    try:
        bot.run(bot.settings.token, log_handler=None)
    except discord.LoginFailure:
        return fail(
            "Discord rejected DISCORD_TOKEN: reset the token in the developer portal "
            "(Bot > Reset Token) and put the new one in .env."
        )
    except discord.PrivilegedIntentsRequired:
        return fail(
            "Discord refused the connection over intents; this bot needs none, "
            "so check that you run this project's bot.py."
        )
    except (StoreOpenError, SchemaTooNewError) as error:
        return fail(f"Database error: {error}.")
    except sqlite3.Error as error:  # a write at start-up failed: a full disk, most likely
        return fail(
            f"Database error: {error} ({bot.settings.database_path}); free some space or "
            "give the bot write access, then start it again."
        )
    except StartupError as error:
        return fail(f"Cannot start: {error}.")
    except (aiohttp.ClientError, OSError) as error:  # the store's own OSErrors are named above
        return fail(
            f"Could not reach Discord ({type(error).__name__}): check this machine's internet "
            "connection and try again.",
            status=1,
        )
    except KeyboardInterrupt:
        pass
    return 0


def fail(text: str, *, status: int = 2) -> int:
    """End with one line on stderr, never a traceback."""
    print(text, file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
