"""PostgreSQL connections that the server drops between requests (a failover, a pooler
restart, ``pg_terminate_backend``) are replaced: the request is answered, and what it
wrote is stored and said to be, not refused as if the database were gone."""

import asyncio
import uuid

import asyncpg

from data import Store
from tests.conftest import POSTGRES_URL, postgres_schema


async def test_connections_dropped_while_idle_are_replaced_and_answers_stay_true():
    async with postgres_schema() as (url, schema):
        name = f"ttt_failover_{uuid.uuid4().hex[:8]}"  # how to find this store's connections
        store = await Store.connect(f"{url}?application_name={name}", schema=schema)
        admin = await asyncpg.connect(POSTGRES_URL)

        async def drop_the_pools_connections() -> None:
            dropped = await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE application_name = $1",
                name,
            )
            assert dropped >= 1
            await asyncio.sleep(0.2)  # the server's goodbye reaches the idle connection

        try:
            game = await store.start_game(1, 10, 100, "O", (), now=1.0)
            await drop_the_pools_connections()
            assert (await store.game(game.id)).moves == ()  # a read, on a fresh connection
            await drop_the_pools_connections()
            await store.record_moves(game.id, (), (4, 0), now=2.0)  # a write: stored
            await drop_the_pools_connections()
            assert (await store.game(game.id)).moves == (4, 0)
        finally:
            await admin.close()
            await store.close()


async def test_a_write_whose_connection_drops_before_its_commit_is_written_once_anew():
    """Dropped mid-transaction, before COMMIT was sent, the server rolls the write back:
    asking it again on a fresh connection is safe, and the request is answered."""
    async with postgres_schema() as (url, schema):
        name = f"ttt_failover_{uuid.uuid4().hex[:8]}"
        store = await Store.connect(f"{url}?application_name={name}", schema=schema)
        admin = await asyncpg.connect(POSTGRES_URL)
        try:
            game = await store.start_game(1, 10, 100, "O", (), now=1.0)

            async def drop_it_mid_transaction() -> int:
                while True:  # as soon as the write's first statement is running
                    dropped = await admin.fetchval(
                        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                        " WHERE application_name = $1 AND query LIKE '%pg_sleep%'",
                        name,
                    )
                    if dropped:
                        return dropped
                    await asyncio.sleep(0.01)

            dropping = asyncio.create_task(drop_it_mid_transaction())
            await store._write(
                [
                    ("SELECT pg_sleep(0.5)", ()),
                    ("UPDATE games SET moves = ? WHERE id = ?", ("40", game.id)),
                ]
            )
            assert await dropping == 1  # dropped once; the second try ran to its end
            assert (await store.game(game.id)).moves == (4, 0)
        finally:
            await admin.close()
            await store.close()


async def test_a_started_game_comes_back_from_its_own_write(tmp_path):
    """A game started (or an invitation accepted) is read back in the write itself: a read
    after it, on a connection lost in between, said "nothing was played" of a stored game."""
    store = await Store.connect(tmp_path / "store.sqlite3")
    try:

        async def no_second_request(*_args, **_kwargs):
            raise AssertionError("read again after the write")

        store._fetch = no_second_request
        game = await store.start_game(1, 10, 100, "O", (4,), now=1.0)
        assert (game.channel_id, game.moves, game.result) == (10, (4,), "running")
        challenge = await store.open_challenge(1, 11, 100, 200, "me", now=1.0, expires_at=60.0)
        accepted = await store.accept_challenge(challenge.id, 100, 200, "X", now=2.0)
        assert (accepted.channel_id, accepted.opponent_id) == (11, 200)
    finally:
        await store.close()
