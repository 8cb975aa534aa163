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
import sqlite3
import sys
from collections.abc import Mapping
from pathlib import Path

import aiohttp
import discord
from discord.ext import commands
from dotenv import load_dotenv

from cogs.admin.cog import Admin
from cogs.brain.cog import Brain
from cogs.commands import Features, game_groups
from cogs.pictures.process import Pictures
from cogs.play.cog import Play
from cogs.play.posts import BoardPosts
from cogs.play.render import CELL_CLICK
from cogs.puzzles.cog import PuzzleDesk
from cogs.replays.cog import Replays
from cogs.scores.cog import Scores
from cogs.servers.cog import Servers
from cogs.utils.items import Claims
from cogs.utils.posting import PostingLimit
from cogs.utils.replies import NOTHING_CHANGED, Refusal, past_deadline, refuse
from cogs.utils.translator import CatalogTranslator
from data import SchemaTooNewError, Store, StoreOpenError
from gameflow import GameService
from gameflow.config import ConfigError, Settings

log = logging.getLogger("ttt")

# The bot's home, the folder of this file, wherever it is started from: .env and a relative
# DATABASE_PATH resolve here (the terminal's are the project's: gameflow.config.HOME)
HOME = Path(__file__).resolve().parent


class StartupError(RuntimeError):
    """The bot cannot start as configured; the message says what to do."""


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


def virtual_aware_now() -> float:
    # discord.utils.utcnow is the clock discord.py itself uses, and the one tests can move
    return discord.utils.utcnow().timestamp()


class ApologeticTree(discord.app_commands.CommandTree):
    async def on_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        """Something we did not foresee: log it, and tell the person privately. Commands that
        change something answer their own failures truthfully (``cogs.utils.replies``), so what
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


class LearningBot(commands.AutoShardedBot):
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
        # the ids the bot answers: any other under its prefixes is refused privately
        self.claims = Claims()
        self.claims.add(CELL_CLICK)  # a board's cells, routed by the play feature itself

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
        # what features share, given to each that needs it: the posting limit and a
        # game's live board
        posting = PostingLimit(self.settings.public_posts_per_minute)
        boards = BoardPosts(self, self.service)
        features = Features(
            play=Play(self, self.service, posting, boards, self.settings.sweep_seconds),
            brain=Brain(self.service),
            scores=Scores(self.service, posting, self.pictures),
            replays=Replays(self, self.service, posting, self.pictures),
            puzzles=PuzzleDesk(self, self.service, posting),
            servers=Servers(self, self.service),
        )
        for feature in vars(features).values():
            await self.add_cog(feature)
        # the order Discord lists them in, and the sync digest hashes: /ttt, /connect4, then
        # /ttt-admin (a group cog's commands join the tree as it is added)
        for group in game_groups(features):
            self.tree.add_command(group)
        await self.add_cog(Admin(self, self.service, boards))
        await self.tree.set_translator(CatalogTranslator())
        await self.sync_commands()

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem]) -> None:
        super().add_dynamic_items(*items)
        self.claims.add(*(item.__discord_ui_compiled_template__ for item in items))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await self.claims.answer_unclaimed(interaction)

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


def create_bot(*, force_sync: bool = False, env: Mapping[str, str] | None = None) -> LearningBot:
    """The configured bot, built from the environment (and ``.env``), not yet connected.

    Only the ``.env`` in the bot's home is read, never one found by searching upwards, and
    the environment wins over it.
    """
    load_dotenv(HOME / ".env")
    return LearningBot(Settings.from_env(env, home=HOME), force_sync=force_sync)


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
