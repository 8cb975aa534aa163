"""For every test folder: a PostgreSQL schema of its own, for the tests that run on both
storage backends."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

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
