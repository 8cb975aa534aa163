"""The per-server memory cache: bounded, least recently used first, and exact."""

import asyncio

import pytest

from data import Store
from engine import Memory
from gameflow.memories import ServerMemories


@pytest.fixture
async def store(tmp_path):
    s = await Store.open(tmp_path / "memories.sqlite3")
    yield s
    await s.close()


async def taught(store, guild_id: int, games: list[list[int]]) -> Memory:
    """Teach a server through the store, as finished games would; return its memory."""
    memory = Memory()
    for moves in games:
        memory.learn(moves)
    await store.add_facts(guild_id, [(f.position, f.outcome.value) for f in memory], now=1.0)
    return memory


async def test_the_cache_keeps_the_most_recently_used_servers_and_reads_others_back(store):
    expected = {
        1: await taught(store, 1, [[0, 3, 1, 4, 2]]),
        2: await taught(store, 2, [[4, 0, 8, 2, 1, 6, 7]]),
        3: await taught(store, 3, [[0, 4, 1, 2, 8, 6]]),
    }
    memories = ServerMemories(store, kept=2)
    for guild_id in (1, 2, 1, 3):  # 2 is the least recently used when 3 arrives
        assert await memories.get(guild_id) == expected[guild_id]
    assert len(memories) == 2
    assert memories.cached(2) is None and memories.cached(1) is not None
    again = await memories.get(2)  # read back from the store: exactly the same memory
    assert again == expected[2] and len(again) == len(expected[2])
    assert memories.cached(1) is None and memories.cached(3) is not None  # 3 was used later


async def test_a_change_to_an_evicted_server_is_seen_by_the_next_reader(store):
    memories = ServerMemories(store, kept=1)
    await taught(store, 1, [[0, 3, 1, 4, 2]])
    reader = None
    async with memories.changing(1) as memory:
        lessons = memory.learn([4, 0, 8, 2, 1, 6, 7])
        facts = [(f.position, f.outcome.value) for f in memory]
        await memories.get(2)  # evicts server 1 while it is being changed
        reader = asyncio.create_task(memories.get(1))  # must wait for the change
        await asyncio.sleep(0)
        assert not reader.done()
        await store.add_facts(1, facts, now=2.0)
    assert lessons and await reader == memory
    assert memories._locks == {}  # no lock is kept once nobody holds or awaits it
