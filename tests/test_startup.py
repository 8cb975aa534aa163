"""Starting ``python bot.py`` as a real process, against the fake Discord on loopback."""

import asyncio
import sqlite3

import pytest

from bot import INVITE_PERMISSIONS
from tests.fakediscord import FakeDiscord, launch_bot


async def finished(process, timeout=30) -> tuple[int, list[str]]:
    """Wait for the bot to exit; its exit code and stderr lines."""
    _out, err = await asyncio.wait_for(process.communicate(), timeout)
    return process.returncode, err.decode().strip().splitlines()


async def ready_line(process, timeout=30) -> str:
    """Read the bot's log until its ready line."""

    async def read():
        while line := await process.stderr.readline():
            if "ready:" in line.decode():
                return line.decode()
        raise AssertionError("the bot exited before it was ready")

    return await asyncio.wait_for(read(), timeout)


async def stop(process) -> None:
    if process.returncode is None:
        process.terminate()
        await process.wait()


async def test_a_rejected_token_prints_one_line(tmp_path):
    fake = await FakeDiscord(reject_token=True).start()
    try:
        code, lines = await finished(await launch_bot(fake, tmp_path))
    finally:
        await fake.stop()
    assert code == 2
    assert len(lines) == 1 and lines[0].startswith("Discord rejected DISCORD_TOKEN"), lines
    assert "fake.token.value" not in lines[0]


async def test_a_dev_guild_the_bot_is_not_in_is_named_in_one_line(fake, tmp_path):
    process = await launch_bot(fake, tmp_path, env={"DEV_GUILD_ID": "12345"})
    code, lines = await finished(process)
    assert code == 2
    assert len(lines) == 1, lines
    assert "DEV_GUILD_ID 12345" in lines[0] and "invite it there" in lines[0]


@pytest.mark.parametrize(
    ("database", "says"),
    [
        ("a-folder", "is a folder"),
        ("junk.sqlite3", "is not a SQLite database"),
        ("a-file/ttt.sqlite3", "cannot create the folder"),
    ],
)
async def test_an_unusable_database_path_is_named_in_one_line(fake, tmp_path, database, says):
    (tmp_path / "a-folder").mkdir()
    (tmp_path / "junk.sqlite3").write_bytes(b"not a database" * 100)
    (tmp_path / "a-file").write_text("a file, not a folder")
    process = await launch_bot(fake, tmp_path, env={"DATABASE_PATH": database})
    code, lines = await finished(process)
    assert code == 2
    assert len(lines) == 1 and lines[0].startswith("Database error:") and says in lines[0], lines
    assert str(tmp_path) in lines[0]  # the absolute path, wherever the bot was started


async def test_a_good_start_logs_one_ready_line_and_data_lives_beside_bot_py(fake, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    # a .env in the bot's home; the process below is started from another folder
    (home / ".env").write_text("DATABASE_PATH=brain.sqlite3\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / ".env").write_text("DATABASE_PATH=wrong.sqlite3\n")
    process = await launch_bot(fake, home, cwd=elsewhere)
    try:
        line = await ready_line(process)
    finally:
        await stop(process)
    assert "tic-tac-toe" in line and "in 1 server(s)" in line
    assert f"database {home / 'brain.sqlite3'}" in line
    assert f"permissions={INVITE_PERMISSIONS.value}" in line and f"client_id={fake.app_id}" in line
    assert (home / "brain.sqlite3").exists() and not (elsewhere / "wrong.sqlite3").exists()


async def test_the_invite_allows_every_message_the_bot_sends_outside_a_response():
    # edits of its own boards and the abandon notice, in channels and in threads
    p = INVITE_PERMISSIONS
    assert p.view_channel and p.read_message_history and p.embed_links
    assert p.send_messages and p.send_messages_in_threads


async def test_a_new_application_on_an_old_database_gets_its_commands(fake, tmp_path):
    process = await launch_bot(fake, tmp_path)
    await ready_line(process)
    await stop(process)
    first_app = fake.app_id
    assert fake.requests.count(("PUT", f"/applications/{first_app}/commands")) == 1

    again = await launch_bot(fake, tmp_path)  # the same bot: nothing to sync
    await ready_line(again)
    await stop(again)
    assert fake.requests.count(("PUT", f"/applications/{first_app}/commands")) == 1

    fake.app_id += 1  # a new bot token, a new application, the same database
    fake.commands.clear()
    newer = await launch_bot(fake, tmp_path)
    await ready_line(newer)
    await stop(newer)
    assert ("PUT", f"/applications/{fake.app_id}/commands") in fake.requests
    assert "ttt" in fake.commands
    with sqlite3.connect(tmp_path / "data" / "ttt.sqlite3") as db:
        keys = [k for (k,) in db.execute("SELECT key FROM meta")]
    assert f"commands_synced:{first_app}:global" in keys
    assert f"commands_synced:{fake.app_id}:global" in keys


async def test_a_read_only_database_file_is_one_line(fake, tmp_path):
    """Issue 16, item 11: a database the bot may read but not write (mode 444 for a bot
    that is not root) was a 62-line traceback from its first write. Root may write any
    file it can read, so as root the file is made immutable instead (chattr +i)."""
    import os
    import subprocess

    from data import Store

    database = tmp_path / "data" / "ttt.sqlite3"
    store = await Store.open(database)
    await store.close()
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(database)], check=True)
    else:
        database.chmod(0o444)
    try:
        code, lines = await finished(await launch_bot(fake, tmp_path))
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(database)], check=True)
    assert code == 2 and len(lines) == 1, lines
    assert lines[0].startswith("Database error:") and "read-only" in lines[0], lines
