"""Each server's memory, read from the store when first needed and kept while it is
among the most recently used, with the lock that orders every change to it (learning
from a game, a reset, an import, a training's merge).

A memory is a 191-byte table, so a cached server costs about half a kilobyte; the cache
holds at most ``kept`` servers (``MEMORY_CACHE_SERVERS``) and reads any other one back
from the store, which gives exactly the same memory.

The servers used most recently are held as :class:`Memory` objects, the same one for every
request; the others as their bare tables, which Python's garbage collector does not track
(100,000 tracked memories would lengthen each of its full collections, and make them come
with more garbage each: ``python -m bench.scale``). A table is wrapped again when its server
is next used.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager

from data import Store
from engine import LiveAnalysis, Mark, Memory, analyse

MEMORIES_KEPT = 100_000  # about 50 MB
HOT_KEPT = 1_000  # of them, as Memory objects

# Live analyses kept, for the servers that taught the bot most recently. One costs tens
# of KB (a count for every position of the bot's games) and its first count costs more
# than a full analysis (about 0.3 ms), so a server gets one only when it teaches again
# while it is still among the last ANALYSES_KEPT to have taught: a busy server.
ANALYSES_KEPT = 64


class ServerMemories:
    def __init__(
        self,
        store: Store,
        *,
        kept: int = MEMORIES_KEPT,
        hot_kept: int = HOT_KEPT,
        analyses_kept: int = ANALYSES_KEPT,
    ) -> None:
        if kept < 1:
            raise ValueError("the memory cache must hold at least 1 server")
        self.store = store
        self.kept = kept
        self._hot_kept = max(1, min(hot_kept, kept))
        # least recently used first: the last used as Memory objects, then as bare tables
        self._memories: OrderedDict[int, Memory] = OrderedDict()
        self._tables: OrderedDict[int, bytearray] = OrderedDict()
        # each cached memory's version in the store (see Store.memory_version): another
        # process's reset or import bumps it, and learning checks it
        self._versions: dict[int, int] = {}
        # a server's lock and how many hold or await it; only while anyone does
        self._locks: dict[int, list] = {}
        self._analyses: OrderedDict[int, LiveAnalysis] = OrderedDict()
        self._recent: OrderedDict[int, None] = OrderedDict()  # taught once, lately
        self._analyses_kept = analyses_kept

    def __len__(self) -> int:
        return len(self._memories) + len(self._tables)

    async def get(self, guild_id: int) -> Memory:
        """This server's memory, for reading (choosing a move, stats, a preview)."""
        memory = self._held(guild_id)
        if memory is not None:
            return memory
        async with self._lock(guild_id):
            return await self._loaded(guild_id)

    def version(self, guild_id: int) -> int:
        """The store's version of the cached memory (0 if the server has never been reset
        or imported into)."""
        return self._versions.get(guild_id, 0)

    def cached(self, guild_id: int) -> Memory | None:
        """The memory held for a server, if it is held (for checks and tests)."""
        table = self._tables.get(guild_id)
        return Memory.over(table) if table is not None else self._memories.get(guild_id)

    @asynccontextmanager
    async def changing(self, guild_id: int) -> AsyncIterator[Memory]:
        """Hold the server's lock and yield its current memory, to change and store it.

        If the block fails, the cached memory is dropped and read afresh next time, so a
        change that did not reach the store is never kept in the cache alone.
        """
        async with self._lock(guild_id):
            memory = await self._loaded(guild_id)
            try:
                yield memory
            except BaseException:
                self._forget(guild_id)
                raise

    @asynccontextmanager
    async def _lock(self, guild_id: int) -> AsyncIterator[None]:
        entry = self._locks.get(guild_id)
        if entry is None:
            entry = self._locks[guild_id] = [asyncio.Lock(), 0]
        entry[1] += 1  # holding or waiting for it
        try:
            async with entry[0]:
                yield
        finally:
            entry[1] -= 1
            if entry[1] == 0:
                del self._locks[guild_id]  # nobody holds or awaits it: a new one next time

    def ways_to_beat(
        self, guild_id: int, memory: Memory, learned: Iterable[str] = ()
    ) -> tuple[int, int]:
        """The ways to beat the bot with ``memory`` (this server's current memory) as X
        and as O; ``learned``: the positions of the facts it has just learned."""
        analysis = self._analyses.get(guild_id)
        if analysis is not None and analysis.memory is memory:
            self._analyses.move_to_end(guild_id)
            analysis.learned(learned)
        elif guild_id in self._recent:  # it teaches often: keep a live analysis from now on
            del self._recent[guild_id]
            analysis = self._analyses[guild_id] = LiveAnalysis(memory)
            if len(self._analyses) > self._analyses_kept:
                self._analyses.popitem(last=False)
        else:
            self._recent[guild_id] = None
            self._recent.move_to_end(guild_id)
            if len(self._recent) > self._analyses_kept:
                self._recent.popitem(last=False)
            return analyse(memory, Mark.X).losing_lines, analyse(memory, Mark.O).losing_lines
        return analysis.losing_lines(Mark.X), analysis.losing_lines(Mark.O)

    def replace(self, guild_id: int, memory: Memory, version: int) -> None:
        """Hold ``memory`` as the server's, at the store's ``version`` (inside
        :meth:`changing`, after it is stored)."""
        self._tables.pop(guild_id, None)
        self._keep(guild_id, memory)
        self._set_version(guild_id, version)

    def _held(self, guild_id: int) -> Memory | None:
        """The cached memory, now the most recently used (a bare table is wrapped again);
        ``None`` if it must be read from the store."""
        memory = self._memories.get(guild_id)
        if memory is not None:
            self._memories.move_to_end(guild_id)
            return memory
        table = self._tables.pop(guild_id, None)
        if table is None:
            return None
        memory = Memory.over(table)
        self._keep(guild_id, memory)
        return memory

    async def _loaded(self, guild_id: int) -> Memory:
        memory = self._held(guild_id)
        if memory is None:
            facts, version = await self.store.load_memory(guild_id)
            memory = Memory(facts)
            self._set_version(guild_id, version)
            self._keep(guild_id, memory)
        return memory

    def _keep(self, guild_id: int, memory: Memory) -> None:
        self._memories[guild_id] = memory
        self._memories.move_to_end(guild_id)
        while len(self._memories) > self._hot_kept:
            # the least recently used that nobody is changing: one being changed stays
            # this Memory object until it is done, so nobody wraps its table in another
            cooled = next((g for g in self._memories if g not in self._locks), None)
            if cooled is None:
                break
            self._tables[cooled] = self._memories.pop(cooled).table  # still cached
        while len(self) > self.kept:
            # the least recently used goes; if it is being changed right now, its lock
            # still orders that change before anyone reads it back from the store
            cache = self._tables or self._memories
            evicted, _ = cache.popitem(last=False)
            self._versions.pop(evicted, None)

    def _set_version(self, guild_id: int, version: int) -> None:
        if version:
            self._versions[guild_id] = version
        else:
            self._versions.pop(guild_id, None)  # most servers: nothing to keep

    def _forget(self, guild_id: int) -> None:
        self._memories.pop(guild_id, None)
        self._tables.pop(guild_id, None)
        self._versions.pop(guild_id, None)
