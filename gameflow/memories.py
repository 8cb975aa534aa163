"""Each server's memory, read from the store once and kept, with the lock that orders
every change to it (learning from a game, a reset, an import, a training's merge)."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from data import Store
from engine import LiveAnalysis, Mark, Memory, analyse


@dataclass
class _Server:
    memory: Memory | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


# Live analyses kept, for the servers that taught the bot most recently. One costs tens
# of KB (a count for every position of the bot's games) and its first count costs more
# than a full analysis (about 0.3 ms), so a server gets one only when it teaches again
# while it is still among the last ANALYSES_KEPT to have taught: a busy server.
ANALYSES_KEPT = 64


class ServerMemories:
    def __init__(self, store: Store, *, analyses_kept: int = ANALYSES_KEPT) -> None:
        self.store = store
        self._servers: dict[int, _Server] = {}
        self._analyses: OrderedDict[int, LiveAnalysis] = OrderedDict()
        self._recent: OrderedDict[int, None] = OrderedDict()  # taught once, lately
        self._analyses_kept = analyses_kept

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

    def replace(self, guild_id: int, memory: Memory) -> None:
        """Hold ``memory`` as the server's (inside :meth:`changing`, after it is stored)."""
        self._servers.setdefault(guild_id, _Server()).memory = memory

    async def _loaded(self, guild_id: int, server: _Server) -> Memory:
        if server.memory is None:
            server.memory = Memory(await self.store.load_facts(guild_id))
        return server.memory
