"""Each server's memory, read from the store once and kept, with the lock that orders
every change to it (learning from a game, a reset, an import, a training's merge)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from data import Store
from engine import LiveAnalysis, Memory


@dataclass
class _Server:
    memory: Memory | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    analysis: LiveAnalysis | None = None  # of ``memory``, kept up to date as it learns


class ServerMemories:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._servers: dict[int, _Server] = {}

    async def get(self, guild_id: int) -> Memory:
        """This server's memory, for reading (choosing a move, stats, a preview)."""
        server = self._servers.setdefault(guild_id, _Server())
        if server.memory is None:
            async with server.lock:
                return await self._loaded(guild_id, server)
        return server.memory

    def cached(self, guild_id: int) -> Memory | None:
        """The memory held for a server, if it has been read (for checks and tests)."""
        server = self._servers.get(guild_id)
        return server.memory if server is not None else None

    @asynccontextmanager
    async def changing(self, guild_id: int) -> AsyncIterator[Memory]:
        """Hold the server's lock and yield its current memory, to change and store it.

        If the block fails, the cached memory is dropped and read afresh next time, so a
        change that did not reach the store is never kept in the cache alone.
        """
        server = self._servers.setdefault(guild_id, _Server())
        async with server.lock:
            memory = await self._loaded(guild_id, server)
            try:
                yield memory
            except BaseException:
                server.memory = None
                raise

    def analysis(self, guild_id: int, memory: Memory) -> LiveAnalysis:
        """The live analysis of ``memory``, this server's current memory: the ways to beat
        it, recounted only where what it learned can change them."""
        server = self._servers.setdefault(guild_id, _Server())
        if server.analysis is None or server.analysis.memory is not memory:
            server.analysis = LiveAnalysis(memory)
        return server.analysis

    def replace(self, guild_id: int, memory: Memory) -> None:
        """Hold ``memory`` as the server's (inside :meth:`changing`, after it is stored)."""
        self._servers.setdefault(guild_id, _Server()).memory = memory

    async def _loaded(self, guild_id: int, server: _Server) -> Memory:
        if server.memory is None:
            server.memory = Memory(await self.store.load_facts(guild_id))
        return server.memory
