"""For every test folder: a PostgreSQL schema of its own, for the tests that run on both
storage backends; the real bot process against the fake Discord."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from tests import WORK_SECONDS
from tests.deadline import (  # noqa: F401 (hooks: no test can hang the run)
    pytest_keyboard_interrupt,
    pytest_runtest_protocol,
    pytest_sessionfinish,
    pytest_timeout_cancel_timer,
    pytest_timeout_set_timer,
    pytest_unconfigure,
)
from tests.fakediscord import FakeDiscord, launch_bot

POSTGRES_URL = os.environ.get("TTT_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")


@asynccontextmanager
async def postgres_schema() -> AsyncIterator[tuple[str, str]]:
    """A fresh schema in the test PostgreSQL, removed afterwards: ``(url, schema)``.

    Without a reachable server the test is skipped with the reason, unless
    TTT_REQUIRE_POSTGRES=1 (as in CI), where that is a failure.
    """
    import asyncpg

    schema = f"ttt_test_{uuid.uuid4().hex[:12]}"
    try:
        admin = await asyncpg.connect(POSTGRES_URL, timeout=5)
    except (OSError, asyncpg.PostgresError) as error:
        reason = f"PostgreSQL is not reachable at {POSTGRES_URL}: {error}"
        if os.environ.get("TTT_REQUIRE_POSTGRES") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        yield POSTGRES_URL, schema
    finally:
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()


# --- the real bot process against the fake Discord of tests/fakediscord.py -------------
@pytest.fixture
async def fake():
    server = await FakeDiscord().start()
    yield server
    await server.stop()


@pytest.fixture
async def bot(fake, tmp_path):
    """``python bot.py`` running against ``fake``, until the test ends: its database's path."""
    process = await launch_bot(fake, tmp_path, env={"DATABASE_PATH": "ttt.sqlite3"})
    await asyncio.wait_for(fake.ready.wait(), WORK_SECONDS)
    await asyncio.wait_for(fake.synced.wait(), WORK_SECONDS)
    yield tmp_path / "ttt.sqlite3"
    process.terminate()
    await process.wait()
