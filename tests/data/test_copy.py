"""Moving a bot's SQLite database into PostgreSQL with ``python -m data.copy``."""

import asyncio
import sys

from data import Store
from data.copy import TABLES
from gameflow import GameService
from tests.conftest import postgres_schema

GUILD, ALICE, BOB = 1, 100, 200


async def a_lived_in_database(path) -> None:
    """Games against the bot and between members, lessons, a running game, an
    invitation, a training, a reset and settings: every table has rows."""
    store = await Store.open(path)
    service = GameService(store, timeout_seconds=600, clock=lambda: 1_000_000.0)
    await service.load()
    for cells in ([1, 4, 7], [1, 4, 7]):
        await service.start(GUILD, 10, ALICE, bot_first=False)
        for cell in cells:
            turn = await service.move(10, ALICE, cell)
            if not turn.game.running:
                break
        if turn.game.running:
            await service.resign(10, ALICE)
    challenge = await service.challenges.issue(GUILD, 11, ALICE, BOB, "me")
    await service.challenges.accept(challenge.id, BOB)
    for n, cell in enumerate([1, 4, 2, 5, 3]):
        await service.move(11, (ALICE, BOB)[n % 2], cell)
    await service.start(GUILD, 12, BOB, bot_first=True)  # left running
    await service.challenges.issue(GUILD, 13, BOB, None, "random")  # left waiting
    run = await store.start_training(GUILD, 10, ALICE, "random", 10, now=1.0)
    await store.save_training(run, GUILD, [], played=10, learned=0, status="done", now=2.0)
    await store.set_meta("commands", "synced")
    await store.close()


async def figures(store: Store) -> tuple:
    return (
        await store.load_facts(GUILD),
        await store.record(GUILD),
        await store.member_record(GUILD, ALICE),
        await store.leaderboard(GUILD, "lessons", player_id=BOB),
        await store.curve(GUILD),
        [g.moves for g in await store.running_games()],
        [c.channel_id for c in await store.pending_challenges()],
        await store.memory_version(GUILD),
    )


async def copy_command(source, target) -> tuple[int, str, str]:
    """``python -m data.copy SOURCE TARGET``, as a person runs it."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "data.copy", str(source), str(target),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await process.communicate()
    return process.returncode, out.decode(), err.decode()


async def test_a_sqlite_database_moves_into_postgresql_whole_and_goes_on(tmp_path):
    path = tmp_path / "ttt.sqlite3"
    await a_lived_in_database(path)
    async with postgres_schema() as (url, schema):
        target = f"{url}?search_path={schema}"
        status, out, _ = await copy_command(path, target)
        assert status == 0 and "Copied 4 games" in out
        source, copied = await Store.open(path), await Store.connect(target)
        try:
            assert await figures(copied) == await figures(source)
            for table in TABLES:
                count = f"SELECT COUNT(*) FROM {table}"
                assert await copied._fetch(count) == await source._fetch(count), table
            # it goes on: new rows get new ids, the running game can be played
            service = GameService(copied, timeout_seconds=600, clock=lambda: 2_000_000.0)
            await service.load()
            await service.move(12, BOB, 5)
            fresh = await service.start(GUILD, 14, ALICE, bot_first=False)
            assert fresh.game.id > max(g.id for g in await source.running_games())
            status, _, err = await copy_command(path, target)  # never into a database in use
            assert status == 2 and "already holds rows (" in err and "games: 5" in err
        finally:
            await source.close()
            await copied.close()


async def test_a_bad_source_is_one_line(tmp_path):
    (tmp_path / "folder").mkdir()
    status, _, err = await copy_command(tmp_path / "folder", tmp_path / "new.sqlite3")
    assert status == 2 and err.startswith("Cannot copy:") and err.count("\n") == 1
    assert "is a folder" in err


async def test_a_missing_source_is_refused_and_not_created(tmp_path):
    """Issue 16, item 6: it used to "succeed" with 0 rows, creating the file and its folder."""
    missing = tmp_path / "no" / "such.sqlite3"
    status, _, err = await copy_command(missing, tmp_path / "new.sqlite3")
    assert status == 2 and err.count("\n") == 1 and "there is no database at" in err
    assert not missing.parent.exists() and not (tmp_path / "new.sqlite3").exists()


async def test_a_target_with_any_row_is_refused_naming_the_tables(tmp_path):
    """Issue 16, item 6: a target with only a meta row and a training used to end in a raw
    constraint error; every table is checked first."""
    source = tmp_path / "ttt.sqlite3"
    await a_lived_in_database(source)
    async with postgres_schema() as (url, schema):
        target = f"{url}?search_path={schema}"
        store = await Store.connect(target)
        await store.set_meta("commands", "synced")
        await store.start_training(GUILD, 10, ALICE, "random", 10, now=1.0)
        await store.close()
        status, _, err = await copy_command(source, target)
        assert status == 2 and err.count("\n") == 1 and "DETAIL" not in err
        assert "already holds rows (meta: 1, trainings: 1)" in err


async def test_every_table_and_column_of_the_schema_is_copied(tmp_path):
    """A column added by a migration and forgotten here would be lost in the move (a 7×6
    game's owed post-mortem, a fact's distance): the copy names every one."""
    store = await Store.open(tmp_path / "ttt.sqlite3")
    try:
        tables = {
            name
            for (name,) in await store._fetch(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        }
        # erasing: a server being erased, marked inside that transaction only (empty after)
        assert tables - {"erasing"} == set(TABLES)
        for table, columns in TABLES.items():
            schema = {row[1] for row in await store._fetch(f"PRAGMA table_info({table})")}
            assert {c.strip() for c in columns.split(",")} == schema, table
    finally:
        await store.close()
