"""Each server's memory of each game, read from the store when first needed and kept
while it is among the most recently used, with the lock that orders every change to it
(learning from a game, a reset, an import, a training's merge). A memory is named by its
server and its game (``engine.GAMES``: tic-tac-toe by default).

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
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager

import engine
from data import ClassicFacts, ClassicRuns, Store
from engine import LiveAnalysis, Mark, Memory, analyse
from engine.memory import VALUES
from engine.ordering import BoardModel, fit_memory, refit_memory
from engine.tables import stored_entries

TICTACTOE = "tictactoe"
Key = tuple[int, str]  # (server, game)

MEMORIES_KEPT = 100_000  # about 50 MB of tic-tac-toe memories
# and at most this many bytes of cold tables: a Connect Four memory takes 4 bytes a lesson
# (12 KB for a 4x4 memory of 3,000 lessons, 180 KB for a 5x4 one of 45,000)
MEMORY_BYTES_KEPT = 128 << 20
HOT_KEPT = 1_000  # of them, as Memory objects

# Live analyses kept, for the servers that taught the bot most recently. One costs tens
# of KB (a count for every position of the bot's games) and its first count costs more
# than a full analysis (about 0.3 ms), so a server gets one only when it teaches again
# while it is still among the last ANALYSES_KEPT to have taught: a busy server.
ANALYSES_KEPT = 64

# A memory of more facts than this is read, and first counted for its stats, in a thread:
# parsing 27,000 Connect Four facts takes about 150 ms, a first count of them as long, and
# either would stall every game of the process on the event loop (issue 23). Smaller
# ones (every tic-tac-toe memory) stay on the loop, where they cost well under a
# millisecond. The store hands the rows over as they came from the database, so the loop
# never makes anything a row at a time (issue 34); the classic board's are its packed
# batches, each unpacked in the thread in short steps that leave the loop the GIL.
IN_THREAD_FROM = 2_000


def store_form(game: str, facts: Iterable[tuple]) -> list[tuple] | ClassicFacts:
    """New facts of ``game`` as the store takes them: ``(position, outcome)`` rows (each
    position as the engine spells it), or on the classic board packed (``ClassicFacts``),
    from ``(position or key, outcome[, plies or None])``."""
    if not engine.get_game(game).classic:
        return [(position, outcome) for position, outcome, *_ in facts]
    return classic_facts(game, facts)


def classic_facts(
    game: str, taught: Iterable[tuple], upgrades: Iterable[tuple[int, str, int]] = ()
) -> ClassicFacts:
    """The classic board's new facts (``(position or key, outcome[, plies or None])``, the
    outcome as a word or a table's value) and the plies of facts known before without them
    (``(key, outcome, plies)``), packed."""
    rules = engine.get_game(game)

    def keyed(facts: Iterable[tuple]) -> list[tuple[int, int, int | None]]:
        return [
            (
                key if type(key) is int else rules.key(rules.parse(key, checked=False)),
                VALUES[engine.Outcome(outcome)] if isinstance(outcome, str) else outcome,
                plies[0] if plies else None,
            )
            for key, outcome, *plies in facts
        ]

    return ClassicFacts(stored_entries(keyed(taught)), stored_entries(keyed(upgrades)))


def fitted(entries: bytes, game: str) -> BoardModel:
    """A classic memory's board model, fitted from scratch on a copy of its table's
    entries (:func:`engine.ordering.fit_memory`; in a thread: numpy's steps are short)."""
    return fit_memory(Memory.over(_table_of(entries), game))


def _table_of(entries: bytes):
    from array import array

    table = array("Q")
    table.frombytes(entries)
    return table


def stored_memory(stored: list[tuple[str, str]] | ClassicRuns, game: str) -> Memory:
    """A memory from what :meth:`data.Store.load_memory` read (in a thread if big)."""
    if isinstance(stored, ClassicRuns):
        return Memory.from_stored(stored.runs, game=game)
    return Memory.stored(stored, game=game)


def known_in(memory: Memory) -> Callable[[int], tuple[str, int | None] | None]:
    """A classic memory's facts by key, ``(outcome, plies or None)``: as
    :func:`engine.puzzles.column_values` and a replay's lesson read them."""
    known, plies = memory.known, memory.plies

    def fact(key: int) -> tuple[str, int | None] | None:
        value = known(key)
        if not value:
            return None
        return ("win" if value == 1 else "loss", plies(key))

    return fact


class ServerMemories:
    def __init__(
        self,
        store: Store,
        *,
        kept: int = MEMORIES_KEPT,
        bytes_kept: int = MEMORY_BYTES_KEPT,
        hot_kept: int = HOT_KEPT,
        analyses_kept: int = ANALYSES_KEPT,
    ) -> None:
        if kept < 1:
            raise ValueError("the memory cache must hold at least 1 server")
        self.store = store
        self.kept = kept
        self.bytes_kept = bytes_kept
        self._table_bytes = 0  # of the bare tables: they do not change while bare
        self._hot_kept = max(1, min(hot_kept, kept))
        # least recently used first: the last used as Memory objects, then as bare tables
        self._memories: OrderedDict[Key, Memory] = OrderedDict()
        self._tables: OrderedDict[Key, bytearray] = OrderedDict()
        # each cached memory's version in the store (see Store.memory_version): another
        # process's reset or import bumps it, and learning checks it
        self._versions: dict[Key, int] = {}
        # a memory's lock and how many hold or await it; only while anyone does
        self._locks: dict[Key, list] = {}
        # the classic board's facts a store holds twice (two processes taught the same one
        # at once): its count is then above the memory's, by this; rare, so only kept if so
        self._twice: dict[Key, int] = {}
        self._analyses: OrderedDict[Key, LiveAnalysis] = OrderedDict()
        self._recent: OrderedDict[Key, None] = OrderedDict()  # taught once, lately
        self._analyses_kept = analyses_kept
        # the classic board's models (engine.ordering), each with the memory it was fitted
        # to, for the memories held as Memory objects (a cooled one's is dropped and fitted
        # again when next asked); and the fits from scratch under way
        self._models: dict[Key, tuple[Memory, BoardModel]] = {}
        self._fitting: dict[Key, asyncio.Future] = {}

    def __len__(self) -> int:
        return len(self._memories) + len(self._tables)

    async def get(self, guild_id: int, game: str = TICTACTOE) -> Memory:
        """This server's memory of ``game``, for reading (choosing a move, stats, a
        preview)."""
        key = (guild_id, game)
        memory = self._held(key)
        if memory is not None:
            return memory
        async with self._lock(key):
            return await self._loaded(key)

    async def current(self, guild_id: int, game: str = TICTACTOE) -> Memory:
        """:meth:`get`, read afresh if the store holds another count of facts: another
        process's games on this server teach the store, not this cache (a count is one
        indexed read; figures people see must not lag)."""
        memory = await self.get(guild_id, game)
        key = (guild_id, game)
        stored = len(memory) + self._twice.get(key, 0)
        if await self.store.count_facts(guild_id, game) != stored:
            async with self._lock(key):
                self._forget(key)
                memory = await self._loaded(key)
        await self._warm(key, memory)
        return memory

    async def _warm(self, key: Key, memory: Memory) -> None:
        """Give a big memory of a game counted after every game a live analysis, counted
        in a thread on a copy, so that :meth:`ways_to_beat` answers at once on the loop.
        If the memory changes meanwhile, nothing is kept (it is counted as before)."""
        if not memory.game.searchable_per_game or len(memory) < IN_THREAD_FROM:
            return
        analysis = self._analyses.get(key)
        if analysis is not None and analysis.memory is memory:
            return
        changes = memory.changes
        counted = await asyncio.to_thread(_counted, LiveAnalysis(memory.copy()))
        if memory.changes == changes and self._held(key) is memory:
            self._recent.pop(key, None)
            self._analyses[key] = counted.over(memory)
            self._analyses.move_to_end(key)
            if len(self._analyses) > self._analyses_kept:
                self._analyses.popitem(last=False)

    async def model(self, guild_id: int, game: str = TICTACTOE) -> BoardModel | None:
        """The board model of this server's classic memory (``None`` on other boards): kept
        with the memory while it is held, and fitted from scratch on its facts, in a
        thread, when the memory was read back, replaced (a reset, an import) or never
        fitted here. Concurrent askers share one fit."""
        if not engine.get_game(game).classic:
            return None
        key = (guild_id, game)
        memory = await self.get(guild_id, game)
        while True:
            entry = self._models.get(key)
            if entry is not None and entry[0] is memory:
                return entry[1]
            fitting = self._fitting.get(key)
            if fitting is None:
                break
            await asyncio.shield(fitting)
            memory = await self.get(guild_id, game)
        fitting = self._fitting[key] = asyncio.get_running_loop().create_future()
        try:
            entries = bytes(memory.table)  # a copy, on the loop: learning may go on meanwhile
            model = await asyncio.to_thread(fitted, entries, game)
            if self._held(key) is memory:
                self._models[key] = (memory, model)
            return model
        finally:
            del self._fitting[key]
            fitting.set_result(None)

    def held_model(self, guild_id: int, game: str = TICTACTOE) -> BoardModel | None:
        """The model kept for the server's memory now held, if any (for checks and tests)."""
        key = (guild_id, game)
        entry = self._models.get(key)
        memory = self._memories.get(key)
        return entry[1] if entry is not None and entry[0] is memory else None

    async def refit(self, guild_id: int, memory: Memory, taught: list[int]) -> None:
        """After ``memory`` (this server's, held, its lock held by the caller) learned the
        facts of ``taught`` (canonical keys): its model's refit, in a thread, if it has
        one (a memory without one gets it fitted from scratch when next asked)."""
        key = (guild_id, memory.game.name)
        entry = self._models.get(key)
        if not taught or entry is None or entry[0] is not memory:
            return
        model = await asyncio.to_thread(refit_memory, entry[1], memory, taught)
        if self._models.get(key) is entry:
            self._models[key] = (memory, model)

    def forget_server(self, guild_id: int) -> None:
        """Drop every memory of a server whose data was deleted."""
        for key in [k for k in (*self._memories, *self._tables) if k[0] == guild_id]:
            self._forget(key)
        for cache in (self._analyses, self._recent):
            for key in [k for k in cache if k[0] == guild_id]:
                del cache[key]

    def version(self, guild_id: int, game: str = TICTACTOE) -> int:
        """The store's version of the cached memory (0 if the server has never been reset
        or imported into)."""
        return self._versions.get((guild_id, game), 0)

    def cached(self, guild_id: int, game: str = TICTACTOE) -> Memory | None:
        """The memory held for a server, if it is held (for checks and tests)."""
        key = (guild_id, game)
        table = self._tables.get(key)
        return Memory.over(table, game) if table is not None else self._memories.get(key)

    @asynccontextmanager
    async def changing(self, guild_id: int, game: str = TICTACTOE) -> AsyncIterator[Memory]:
        """Hold the memory's lock and yield it as it is now, to change and store it.

        If the block fails, the cached memory is dropped and read afresh next time, so a
        change that did not reach the store is never kept in the cache alone.
        """
        key = (guild_id, game)
        async with self._lock(key):
            memory = await self._loaded(key)
            try:
                yield memory
            except BaseException:
                self._forget(key)
                raise

    @asynccontextmanager
    async def _lock(self, key: Key) -> AsyncIterator[None]:
        entry = self._locks.get(key)
        if entry is None:
            entry = self._locks[key] = [asyncio.Lock(), 0]
        entry[1] += 1  # holding or waiting for it
        try:
            async with entry[0]:
                yield
        finally:
            entry[1] -= 1
            if entry[1] == 0:
                del self._locks[key]  # nobody holds or awaits it: a new one next time

    def ways_to_beat(
        self, guild_id: int, memory: Memory, learned: Iterable[str] = ()
    ) -> tuple[int, int] | tuple[None, None]:
        """The ways to beat the bot with ``memory`` (this server's current memory of its
        game) as X and as O; ``learned``: the positions of the facts it has just learned.
        ``None`` for a game too large to search after every game (see
        ``engine.Game.searchable_per_game``)."""
        if not memory.game.searchable_per_game:
            return None, None
        key = (guild_id, memory.game.name)
        analysis = self._analyses.get(key)
        if analysis is not None and analysis.memory is memory:
            self._analyses.move_to_end(key)
            analysis.learned(learned)
        elif key in self._recent:  # it teaches often: keep a live analysis from now on
            del self._recent[key]
            analysis = self._analyses[key] = LiveAnalysis(memory)
            if len(self._analyses) > self._analyses_kept:
                self._analyses.popitem(last=False)
        else:
            self._recent[key] = None
            self._recent.move_to_end(key)
            if len(self._recent) > self._analyses_kept:
                self._recent.popitem(last=False)
            return analyse(memory, Mark.X).losing_lines, analyse(memory, Mark.O).losing_lines
        return analysis.losing_lines(Mark.X), analysis.losing_lines(Mark.O)

    def replace(self, guild_id: int, memory: Memory, version: int) -> None:
        """Hold ``memory`` as the server's of its game, at the store's ``version`` (inside
        :meth:`changing`, after it is stored)."""
        key = (guild_id, memory.game.name)
        self._pop_table(key)
        self._models.pop(key, None)  # fitted afresh on the new facts when next asked
        self._keep(key, memory)
        self._set_version(key, version)

    def _held(self, key: Key) -> Memory | None:
        """The cached memory, now the most recently used (a bare table is wrapped again);
        ``None`` if it must be read from the store."""
        memory = self._memories.get(key)
        if memory is not None:
            self._memories.move_to_end(key)
            return memory
        table = self._pop_table(key)
        if table is None:
            return None
        memory = Memory.over(table, key[1])
        self._keep(key, memory)
        return memory

    async def _loaded(self, key: Key) -> Memory:
        memory = self._held(key)
        if memory is None:
            stored, version = await self.store.load_memory(*key)
            if len(stored) < IN_THREAD_FROM:
                memory = stored_memory(stored, key[1])
            else:
                memory = await asyncio.to_thread(stored_memory, stored, key[1])
            if len(stored) != len(memory):
                self._twice[key] = len(stored) - len(memory)
            else:
                self._twice.pop(key, None)
            self._set_version(key, version)
            self._keep(key, memory)
        return memory

    def _keep(self, key: Key, memory: Memory) -> None:
        self._memories[key] = memory
        self._memories.move_to_end(key)
        while len(self._memories) > self._hot_kept:
            # the least recently used that nobody is changing: one being changed stays
            # this Memory object until it is done, so nobody wraps its table in another
            cooled = next((g for g in self._memories if g not in self._locks), None)
            if cooled is None:
                break
            table = self._tables[cooled] = self._memories.pop(cooled).table  # still cached
            self._table_bytes += memoryview(table).nbytes
            self._models.pop(cooled, None)
        while len(self) > self.kept or (self._tables and self._table_bytes > self.bytes_kept):
            # the least recently used goes; if it is being changed right now, its lock
            # still orders that change before anyone reads it back from the store
            if self._tables:
                evicted = next(iter(self._tables))
                self._pop_table(evicted)
            else:
                evicted, _ = self._memories.popitem(last=False)
                self._models.pop(evicted, None)
            self._versions.pop(evicted, None)
            self._twice.pop(evicted, None)

    def _pop_table(self, key: Key):
        table = self._tables.pop(key, None)
        if table is not None:
            self._table_bytes -= memoryview(table).nbytes
        return table

    def _set_version(self, key: Key, version: int) -> None:
        if version:
            self._versions[key] = version
        else:
            self._versions.pop(key, None)  # most servers: nothing to keep

    def _forget(self, key: Key) -> None:
        self._memories.pop(key, None)
        self._models.pop(key, None)
        self._pop_table(key)
        self._versions.pop(key, None)
        self._twice.pop(key, None)


def _counted(analysis: LiveAnalysis) -> LiveAnalysis:
    """``analysis`` with both roles counted (run in a thread)."""
    analysis.losing_lines(Mark.X)
    analysis.losing_lines(Mark.O)
    return analysis
