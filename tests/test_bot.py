"""The wiring: settings, create_bot() and the command line."""

import gc
import subprocess
import sys
from pathlib import Path

import discord
import pytest
from discord.ext import commands

from bot import create_bot, freeze_when_ready
from gameflow.config import HOME, ConfigError, Settings

ROOT = Path(__file__).resolve().parent.parent


def test_defaults_and_overrides():
    assert Settings.from_env({}) == Settings(token=None)
    assert Settings.from_env({}).database_path == str(HOME / "data" / "ttt.sqlite3")
    s = Settings.from_env({"DISCORD_TOKEN": " t ", "DATABASE_PATH": "x.db", "DEV_GUILD_ID": "42",
                           "GAME_TIMEOUT_MINUTES": "2.5", "LOG_LEVEL": "debug"})  # fmt: skip
    assert (s.token, s.database_path, s.dev_guild_id, s.game_timeout_minutes, s.log_level) == (
        "t", str(HOME / "x.db"), 42, 2.5, "DEBUG",
    )  # fmt: skip
    # a relative path is the bot's home's, whatever folder it starts in; absolute stays
    assert Settings.from_env({"DATABASE_PATH": "/srv/ttt.db"}).database_path == "/srv/ttt.db"
    assert Settings.from_env({"LOG_LEVEL": "warn"}).log_level == "WARNING"
    assert Settings.from_env({"LOG_LEVEL": "critical"}).log_level == "CRITICAL"


def test_pictures_are_drawn_unless_switched_off():
    """TTT_PICTURES=off: no learning-curve picture, and no process started to draw it."""
    assert Settings.from_env({}).pictures and Settings.from_env({"TTT_PICTURES": "on"}).pictures
    bot = create_bot(env={"DATABASE_PATH": "unused.sqlite3", "TTT_PICTURES": " OFF "})
    assert not bot.pictures.available
    bot.pictures.start()
    assert bot.pictures.process_id() is None


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"GAME_TIMEOUT_MINUTES": "soon"}, "GAME_TIMEOUT_MINUTES must be a number"),
        ({"GAME_TIMEOUT_MINUTES": "0"}, "greater than 0"),
        ({"GAME_TIMEOUT_MINUTES": "nan"}, "finite number, got 'nan'"),
        ({"GAME_TIMEOUT_MINUTES": "inf"}, "finite number, got 'inf'"),
        ({"GAME_TIMEOUT_MINUTES": "-inf"}, "finite number"),
        # issue 17, item 4: both were accepted ("1,000,000,000 minutes", "after 0 seconds")
        ({"GAME_TIMEOUT_MINUTES": "1e9"}, r"must be 1 to 1,440 \(a day\), got '1e9'"),
        ({"GAME_TIMEOUT_MINUTES": "0.0001"}, "must be 1 to 1,440"),
        ({"PUBLIC_POSTS_PER_MINUTE": "lots"}, "PUBLIC_POSTS_PER_MINUTE must be 0"),
        ({"MEMORY_CACHE_MB": "0"}, "MEMORY_CACHE_MB must be greater than 0"),
        ({"DEV_GUILD_ID": "my-server"}, "DEV_GUILD_ID must be a whole number"),
        ({"MEMORY_CACHE_SERVERS": "1.5"}, "MEMORY_CACHE_SERVERS must be a whole number"),
        ({"MEMORY_CACHE_SERVERS": "0"}, "MEMORY_CACHE_SERVERS must be greater than 0"),
        ({"LOG_LEVEL": "LOUD"}, "DEBUG, INFO, WARNING, WARN, ERROR, CRITICAL, got 'LOUD'"),
    ],
)
def test_bad_settings_are_named(env, message):
    with pytest.raises(ConfigError, match=message):
        Settings.from_env(env)


def test_create_bot_builds_without_connecting_and_asks_only_for_its_servers(monkeypatch):
    """No privileged intent, and no stream of every message and reaction in every channel
    (slash commands and clicks reach a bot whatever its intents); no message cache."""
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    bot = create_bot(env={"DATABASE_PATH": "unused.sqlite3"})
    assert isinstance(bot, commands.AutoShardedBot) and not bot.is_ready() and bot.store is None
    assert bot.intents == discord.Intents(guilds=True)
    assert bot._connection.max_messages is None


async def test_once_ready_the_bot_freezes_what_lives_as_long_as_it_does(monkeypatch):
    """At the first ready (every shard's servers loaded), and only then, the objects alive
    leave the collector's sight, and full collections come often, each one small."""
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    bot = create_bot(env={"DATABASE_PATH": "unused.sqlite3"})
    thresholds = gc.get_threshold()
    freeze_when_ready(bot)
    try:
        assert gc.get_freeze_count() == 0
        (on_ready,) = bot.extra_events["on_ready"]
        await on_ready()  # as discord.py runs it when every shard is ready
        assert gc.get_freeze_count() > 1000 and gc.get_threshold() == (2000, 10, 1)
        assert not bot.extra_events.get("on_ready")  # not again at a reconnection
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


def run_cli(tmp_path, env_text: str, *args: str) -> subprocess.CompletedProcess:
    """Run ``python bot.py`` from a scratch home (bot.py copied there, beside its .env)
    with a clean environment."""
    (tmp_path / ".env").write_text(env_text)
    (tmp_path / "bot.py").write_bytes((ROOT / "bot.py").read_bytes())
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path)}
    return subprocess.run([sys.executable, str(tmp_path / "bot.py"), *args], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=60)  # fmt: skip


def test_a_missing_token_ends_with_one_clear_line(tmp_path):
    done = run_cli(tmp_path, "")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN is not set" in lines[0] and ".env" in lines[0]
    assert "Traceback" not in done.stderr


def test_a_bad_setting_ends_with_one_clear_line(tmp_path):
    done = run_cli(tmp_path, "DISCORD_TOKEN=abc\nGAME_TIMEOUT_MINUTES=ten\n")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "Configuration error: GAME_TIMEOUT_MINUTES must be a number, got 'ten'. See .env.example."
    ]


def test_env_example_lists_every_setting_with_a_comment():
    text = (ROOT / ".env.example").read_text()
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "GAME_TIMEOUT_MINUTES",
                 "LOG_LEVEL", "PUBLIC_POSTS_PER_MINUTE", "MEMORY_CACHE_MB"):  # fmt: skip
        line_no = next(i for i, line in enumerate(text.splitlines()) if line.startswith(name + "="))
        assert text.splitlines()[line_no - 1].startswith("#"), name


def test_an_unreachable_discord_ends_with_one_line_and_never_shows_the_token(tmp_path):
    # this machine has no route to Discord, as CI has none
    done = run_cli(tmp_path, "DISCORD_TOKEN=secret.token.value\nDATABASE_PATH=db.sqlite3\n")
    assert done.returncode == 1
    # one line, not a traceback, and not a wrong diagnosis
    assert len(done.stderr.strip().splitlines()) == 1
    assert done.stderr.strip().startswith("Could not reach Discord")
    assert "Traceback" not in done.stderr
    assert "secret.token.value" not in done.stderr + done.stdout


def test_database_url_chooses_postgresql_or_a_sqlite_file(tmp_path):
    pg = Settings.from_env({"DATABASE_URL": "postgresql://bot:secret@db:5432/ttt"}, home=tmp_path)
    assert pg.postgres_url == "postgresql://bot:secret@db:5432/ttt"
    assert "secret" not in pg.database_label and "db:5432/ttt" in pg.database_label
    relative = Settings.from_env({"DATABASE_URL": "sqlite:///data/x.db"}, home=tmp_path)
    assert (relative.postgres_url, relative.database_path) == (None, str(tmp_path / "data/x.db"))
    bare = Settings.from_env({"DATABASE_URL": "x.db", "DATABASE_PATH": "y.db"}, home=tmp_path)
    assert bare.database_path == str(tmp_path / "x.db")  # DATABASE_URL wins
    with pytest.raises(ConfigError, match="postgresql:// or sqlite:///"):
        Settings.from_env({"DATABASE_URL": "mysql://db/ttt"})


def test_a_cluster_process_runs_the_shards_it_is_given():
    settings = Settings.from_env({"SHARD_COUNT": "4", "SHARD_IDS": "0-1,3"})
    bot = create_bot(env={"SHARD_COUNT": "4", "SHARD_IDS": "0-1,3"})
    assert (bot.shard_count, bot.shard_ids) == (4, [0, 1, 3])
    owned = [g for g in range(0, 16 << 22, 1 << 22) if settings.shards.owns(g)]
    assert [(g >> 22) % 4 for g in owned] == [0, 1, 3] * 4


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"SHARD_IDS": "1"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "must be below SHARD_COUNT"),
        ({"SHARD_COUNT": "zero"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "a"}, "ids and ranges"),
        # issue 17, item 3: a traceback ("too many SQL variables"), and all four shards
        ({"SHARD_COUNT": "1000000"}, "SHARD_COUNT must be at most 65,536"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, "from low to high"),
    ],
)
def test_bad_shard_settings_are_named(env, message):
    with pytest.raises(ConfigError, match=message):
        Settings.from_env(env)


def test_the_memory_cache_bound_in_bytes_is_a_setting():
    assert Settings.from_env({"MEMORY_CACHE_MB": "3"}).memory_cache_megabytes == 3
    assert Settings.from_env({}).memory_cache_megabytes == 128
