"""The per-server memory cache: bounded, least recently used first, and exact."""

import asyncio
import gc

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


TICTACTOE = "tictactoe"


def servers(cache) -> list[int]:
    """The servers of a cache's tic-tac-toe memories, least recently used first."""
    return [guild_id for guild_id, game in cache if game == TICTACTOE]


async def test_beyond_the_last_used_servers_the_cache_keeps_bare_tables_out_of_gc(store):
    """The most recently used servers are Memory objects; the rest of the cache holds their
    tables, untracked by the garbage collector, and wraps one again, exactly, when used."""
    games = [[0, 3, 1, 4, 2], [4, 0, 8, 2, 1, 6, 7], [0, 4, 1, 2, 8, 6], [0, 1, 3, 4, 6]]
    expected = {g: await taught(store, g, [games[g - 1]]) for g in (1, 2, 3, 4)}
    memories = ServerMemories(store, kept=4, hot_kept=2)
    for guild_id in (1, 2, 3, 4):
        await memories.get(guild_id)
    assert len(memories) == 4 and servers(memories._memories) == [3, 4]
    assert servers(memories._tables) == [1, 2]
    assert not any(gc.is_tracked(table) for table in memories._tables.values())
    table = memories._tables[1, TICTACTOE]
    again = await memories.get(1)  # no store read: its own table, wrapped
    assert again.table is table and again == expected[1] and len(again) == len(expected[1])
    assert await memories.get(1) is again  # the same object while it is among the last used
    assert servers(memories._tables) == [2, 3]


async def test_what_a_server_learns_stays_through_its_table_and_back(store):
    memories = ServerMemories(store, kept=3, hot_kept=1)
    async with memories.changing(1) as memory:
        lessons = memory.learn([0, 3, 1, 4, 2])
    await memories.get(2)  # server 1 is now a bare table
    assert (1, TICTACTOE) in memories._tables
    back = await memories.get(1)
    assert back is not memory and back == memory and len(back) == len(lessons) > 0


async def test_a_server_being_changed_stays_one_memory_object(store):
    """Nobody may wrap a table in a second Memory while its change is under way."""
    memories = ServerMemories(store, kept=5, hot_kept=1)
    async with memories.changing(1) as memory:
        for other in (2, 3, 4):
            await memories.get(other)
        assert memories._memories.get((1, TICTACTOE)) is memory
        assert (1, TICTACTOE) not in memories._tables
        memory.learn([0, 3, 1, 4, 2])
    await memories.get(5)  # once the change is done, it may cool like any other
    assert (1, TICTACTOE) in memories._tables


async def test_each_game_of_a_server_has_its_own_memory_and_the_cache_is_bounded_in_bytes(
    store,
):
    import engine

    four = engine.Memory(game="connect4")
    engine.train(four, 2_000, seed=1)
    await store.add_facts(1, [(f.position, f.outcome.value) for f in four], game="connect4", now=1)
    memories = ServerMemories(store, kept=10, hot_kept=1, bytes_kept=four.nbytes)
    tic = await memories.get(1)
    loaded = await memories.get(1, "connect4")
    assert tic.game.name == TICTACTOE and len(tic) == 0
    assert loaded == four and loaded.game.name == "connect4"
    # server 1's memories cool to bare tables, 191 bytes too many: the older one goes
    await memories.get(2)
    assert list(memories._tables) == [(1, "connect4")]
    assert memories._table_bytes == four.nbytes and len(memories) == 2
    assert await memories.get(1, "connect4") == four
    assert await memories.get(1) == tic  # read back from the store
