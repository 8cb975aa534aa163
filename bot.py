"""The wiring: configuration from the environment and ``.env``, then the bot.

python bot.py           run the bot (DISCORD_TOKEN in .env or the environment)
python bot.py --sync    also push the slash commands to Discord now
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import logging
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass

import aiohttp
import discord
from discord.ext import commands
from dotenv import find_dotenv, load_dotenv

from cogs import Admin, TicTacToe
from cogs.ttt import refuse
from data import SchemaTooNewError, Store
from gameflow import GameService

log = logging.getLogger("ttt")


class ConfigError(ValueError):
    """A setting that is missing or malformed; the message says how to fix it."""


DEFAULT_DATABASE_PATH = "data/ttt.sqlite3"
DEFAULT_TIMEOUT_MINUTES = 10.0


@dataclass(frozen=True, slots=True)
class Settings:
    token: str | None
    database_path: str = DEFAULT_DATABASE_PATH
    dev_guild_id: int | None = None
    game_timeout_minutes: float = DEFAULT_TIMEOUT_MINUTES
    log_level: str = "INFO"
    sweep_seconds: float = 30.0  # how often idle games are looked for

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env

        def number(name: str, default: float, kind: type = float) -> float:
            raw = env.get(name, "").strip()
            if not raw:
                return default
            try:
                value = kind(raw)
            except ValueError:
                raise ConfigError(f"{name} must be a number, got {raw!r}") from None
            if value <= 0:
                raise ConfigError(f"{name} must be greater than 0, got {raw!r}")
            return value

        level = env.get("LOG_LEVEL", "").strip().upper() or "INFO"
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, got {level!r}")
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip() or None,
            database_path=env.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH,
            dev_guild_id=number("DEV_GUILD_ID", 0, int) or None,
            game_timeout_minutes=number("GAME_TIMEOUT_MINUTES", DEFAULT_TIMEOUT_MINUTES),
            log_level=level,
        )


def virtual_aware_now() -> float:
    # discord.utils.utcnow is the clock discord.py itself uses, and the one tests can move
    return discord.utils.utcnow().timestamp()


class ApologeticTree(discord.app_commands.CommandTree):
    async def on_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        """Something we did not foresee: log it, and tell the person privately. The game flow
        commits before it answers, so a failure part-way means nothing was changed."""
        log.error(
            "command /%s failed",
            getattr(interaction.command, "qualified_name", "?"),
            exc_info=error,
        )
        with contextlib.suppress(discord.HTTPException):  # expired: the log has the details
            await refuse(
                interaction,
                "Something went wrong on my side, and nothing was changed. Please try again.",
            )


class TicTacToeBot(commands.Bot):
    def __init__(self, settings: Settings, *, force_sync: bool = False) -> None:
        # Slash commands and buttons need no privileged intents, and no message content.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            tree_cls=ApologeticTree,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False),
        )
        self.settings = settings
        self.force_sync = force_sync
        self.store: Store | None = None
        self.service: GameService | None = None

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.settings.database_path)
        self.service = GameService(
            self.store,
            timeout_seconds=self.settings.game_timeout_minutes * 60,
            clock=virtual_aware_now,
        )
        resumed = await self.service.load()
        log.info("resuming %d running game(s)", len(resumed))
        await self.add_cog(TicTacToe(self, self.service, self.settings.sweep_seconds))
        await self.add_cog(Admin(self.service))
        await self.sync_commands()

    async def sync_commands(self) -> bool:
        """Push the command definitions to Discord only if they changed since the last push,
        because Discord rate-limits syncing. Returns whether it synced."""
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = [c.to_dict(self.tree) for c in self.tree.get_commands(guild=guild)]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        key = f"commands_synced:{guild.id if guild else 'global'}"
        if not self.force_sync and await self.store.get_meta(key) == digest:
            log.info("slash commands unchanged since the last sync; not syncing")
            return False
        await self.tree.sync(guild=guild)
        await self.store.set_meta(key, digest)
        log.info(
            "synced %d slash command group(s) %s",
            len(payload),
            f"to server {guild.id}" if guild else "globally (may take up to an hour)",
        )
        return True

    async def close(self) -> None:
        await super().close()
        if self.store is not None:
            await self.store.close()
            self.store = None


def create_bot(*, force_sync: bool = False, env: Mapping[str, str] | None = None) -> TicTacToeBot:
    """The configured bot, built from the environment (and ``.env``), not yet connected."""
    load_dotenv(find_dotenv(usecwd=True))  # the .env of the folder the bot is started in
    return TicTacToeBot(Settings.from_env(env), force_sync=force_sync)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the tic-tac-toe bot.")
    parser.add_argument(
        "--sync", action="store_true", help="push the slash commands to Discord now"
    )
    args = parser.parse_args(argv)
    try:
        bot = create_bot(force_sync=args.sync)
    except ConfigError as error:
        print(f"Configuration error: {error}. See .env.example.", file=sys.stderr)
        return 2
    if not bot.settings.token:
        print(
            "DISCORD_TOKEN is not set: copy .env.example to .env and paste your bot's token "
            "from the Discord developer portal (Bot > Reset Token).",
            file=sys.stderr,
        )
        return 2
    discord.utils.setup_logging(level=getattr(logging, bot.settings.log_level))
    try:
        bot.run(bot.settings.token, log_handler=None)
    except discord.LoginFailure:
        print(
            "Discord rejected DISCORD_TOKEN: reset the token in the developer portal "
            "(Bot > Reset Token) and put the new one in .env.",
            file=sys.stderr,
        )
        return 2
    except discord.PrivilegedIntentsRequired:
        print(
            "Discord refused the connection over intents; this bot needs none, "
            "so check that you run this project's bot.py.",
            file=sys.stderr,
        )
        return 2
    except (aiohttp.ClientError, OSError) as error:
        print(
            f"Could not reach Discord ({type(error).__name__}): check this machine's internet "
            "connection and try again.",
            file=sys.stderr,
        )
        return 1
    except SchemaTooNewError as error:
        print(f"Database error: {error}.", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
