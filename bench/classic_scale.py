"""The classic board (Connect Four 7×6) at a big server's scale (issue 34), for
``python -m bench.scale --classic`` and ``python -m bench.bot --only-classic``:

* the bytes a 7×6 fact takes on disk: SQLite (vacuumed, indexes included, a Discord-sized
  server id), beside the rows of 42 characters it took before; and on PostgreSQL;
* the bytes a fact takes in the bot's process (RSS), read back from the store the bot's
  way, for memories of 44,000 and 200,000 facts;
* ``/connect4 stats`` (the game flow's part, with the curve's and the losses' queries) on
  a server with 100,000 finished games and 200,000 facts, asked every 100 ms while 200
  other servers play: its p99, the longest event-loop callback, how long a small query
  waited meanwhile, and the other members' moves' p99, beside the same run without it.

The facts are the positions of random games, each given an outcome and (mostly) plies:
what is measured is the storage, not the truth of a fact.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import random
import sqlite3
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

from engine import get_game
from engine.tables import stored_entries

CLASSIC = "connect4-7x6"
GUILD = 1_180_000_000_000_000_001  # the size of a Discord server's id: 8 bytes
BATCH = 70  # facts a game teaches, about: its post-mortem's


def classic_facts(count: int, seed: int = 1) -> list[tuple[int, int, int | None]]:
    """``count`` facts ``(key, value, plies or None)`` about distinct positions of random
    games of 7×6 (7 in 10 with plies, as after post-mortems)."""
    rules, rng = get_game(CLASSIC), random.Random(seed)
    facts: dict[int, tuple[int, int | None]] = {}
    while len(facts) < count:
        code = rules.empty
        while (options := rules.moves(code)) and len(facts) < count:
            _move, code, key = rng.choice(options)
            if key not in facts:
                facts[key] = (rng.choice((1, 2)), rng.randrange(43) if rng.random() < 0.7 else None)
    return [(key, value, plies) for key, (value, plies) in facts.items()]


def batches(facts: list[tuple], first_game: int = 1) -> list[tuple]:
    """Rows of ``classic_facts``: a batch of :data:`BATCH` facts per game, as taught."""
    return [
        (GUILD, CLASSIC, first_game + n, float(n), len(chunk), stored_entries(chunk))
        for n, chunk in enumerate(facts[at : at + BATCH] for at in range(0, len(facts), BATCH))
    ]


def _file_bytes(path: Path) -> int:
    """The file's size, vacuumed, with nothing left in a write-ahead log."""
    db = sqlite3.connect(path)
    try:
        db.execute("PRAGMA journal_mode = DELETE")
        db.execute("VACUUM")
    finally:
        db.close()
    return path.stat().st_size


def sqlite_bytes(count: int) -> tuple[float, float]:
    """Bytes a fact on disk, vacuumed, indexes included: packed, and as before (a row of
    42 characters a fact, its primary key and its index by game)."""
    from data import Store

    facts = classic_facts(count)
    rules = get_game(CLASSIC)
    sizes = []
    with tempfile.TemporaryDirectory() as folder:
        for label in ("empty", "packed", "rows"):
            path = Path(folder) / f"{label}.sqlite3"
            asyncio.run(_schema(Store, path))
            with contextlib.closing(sqlite3.connect(path)) as db, db:
                if label == "packed":
                    db.executemany(
                        "INSERT INTO classic_facts (guild_id, game, game_id, learned_at, taught,"
                        " facts) VALUES (?, ?, ?, ?, ?, ?)",
                        batches(facts),
                    )
                elif label == "rows":
                    db.executemany(
                        "INSERT INTO facts (guild_id, game, position, outcome, learned_at,"
                        " game_id, plies) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (
                            (GUILD, CLASSIC, rules.spell(key), ("win", "loss")[value - 1],
                             1.7e9 + n, 1 + n // BATCH, plies)
                            for n, (key, value, plies) in enumerate(facts)
                        ),
                    )  # fmt: skip
            sizes.append(_file_bytes(path))
    empty, packed, rows = sizes
    return (packed - empty) / count, (rows - empty) / count


async def _schema(store_class, path: Path) -> None:
    await (await store_class.open(path)).close()


async def postgres_bytes(url: str, schema: str, count: int) -> float:
    """Bytes a fact in PostgreSQL's ``classic_facts``, its TOAST and indexes, vacuumed."""
    import asyncpg

    from data import Store

    store = await Store.connect(url, schema=schema)
    await store.close()
    db = await asyncpg.connect(url, server_settings={"search_path": schema})
    try:
        await db.executemany(
            "INSERT INTO classic_facts (guild_id, game, game_id, learned_at, taught, facts)"
            " VALUES ($1, $2, $3, $4, $5, $6)",
            batches(classic_facts(count)),
        )
        await db.execute("VACUUM FULL classic_facts")
        size = await db.fetchval("SELECT pg_total_relation_size('classic_facts')")
    finally:
        await db.close()
    return size / count


def _rss_per_fact(count: int, servers: int = 4) -> tuple[float, float, float, int]:
    """In a process of its own: the RSS each memory of ``count`` facts adds once read back
    from the store the bot's way (``ServerMemories``), over ``servers`` servers after a
    first one (whose read also grows the thread's heap once: that first growth is given
    apart), and the bytes of its table."""

    async def measure() -> tuple[float, float, float, int]:
        from bench._common import rss_bytes
        from data import Store
        from gameflow.memories import ServerMemories

        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "rss.sqlite3"
            await _schema(Store, path)
            rows = batches(classic_facts(count))
            with contextlib.closing(sqlite3.connect(path)) as db, db:
                for server in range(servers + 1):
                    db.executemany(
                        "INSERT INTO classic_facts (guild_id, game, game_id, learned_at,"
                        " taught, facts) VALUES (?, ?, ?, ?, ?, ?)",
                        [(GUILD + server, *row[1:]) for row in rows],
                    )
            del rows
            store = await Store.open(path)
            # the database's page cache (2 MB) full, as a running bot's is
            await store._fetch("SELECT SUM(length(facts)) FROM classic_facts")
            memories = ServerMemories(store)
            gc.collect()
            before = rss_bytes()
            memory = await memories.get(GUILD, CLASSIC)
            gc.collect()
            first = rss_bytes() - before
            before = rss_bytes()
            for server in range(1, servers + 1):
                await memories.get(GUILD + server, CLASSIC)
            gc.collect()
            grown = rss_bytes() - before
            await store.close()
            known = len(memory)
            return grown / (servers * known), first / known, memory.nbytes / known, known

    return asyncio.run(measure())


def rss_per_fact(count: int, servers: int = 4) -> tuple[float, float, float, int]:
    with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:
        return pool.submit(_rss_per_fact, count, servers).result()


def size_figures(postgres: str | None) -> list[str]:
    lines = []
    count = 200_000
    packed, rows = sqlite_bytes(count)
    lines.append(
        f"a 7×6 fact on disk, SQLite, vacuumed, indexes included, {count:,} facts of a "
        f"Discord-sized server in batches of {BATCH}: {packed:.1f} bytes (target <= 24); "
        f"as a row of 42 characters, as before: {rows:.1f} bytes"
    )
    if postgres:
        from bench._common import postgres_schema

        async def on_postgres() -> float:
            async with postgres_schema(postgres) as schema:
                return await postgres_bytes(postgres, schema, count)

        lines.append(
            f"  on PostgreSQL (the table, its TOAST and indexes, VACUUM FULL): "
            f"{asyncio.run(on_postgres()):.1f} bytes"
        )
    for facts in (44_000, 200_000):
        grown, first, own, known = rss_per_fact(facts)
        lines.append(
            f"7×6 memories of {known:,} facts read back the bot's way, 4 servers after a "
            f"first: {grown:.1f} bytes a fact of the process's RSS each (target <= 10), its "
            f"table {own:.1f}; the first one {first:.1f} (the reading thread's heap grows "
            f"once)"
        )
    return lines


# --- /connect4 stats on a big server, under play ------------------------------------
def add_classic_history(path: Path, guild_id: int, games: int, facts: int) -> None:
    """A 7×6 server with ``games`` finished games against the bot (a third lost, each of
    those a point of the curve) and ``facts`` facts in batches credited to its games,
    straight through SQLite (the counters' and blocks' triggers included)."""
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.executemany(
            "INSERT INTO games (guild_id, channel_id, player_id, bot_mark, moves, result,"
            " started_at, updated_at, game) VALUES (?, ?, ?, 'O', '3', 'running', 0, 0, ?)",
            ((guild_id, -1 - n, 1 + n % 500, CLASSIC) for n in range(games)),
        )
        db.execute(
            "UPDATE games SET result = CASE id % 3 WHEN 0 THEN 'bot_won' WHEN 1 THEN 'draw'"
            " ELSE 'player_won' END, ended_at = 1, lessons_after = CASE id % 3 WHEN 2"
            " THEN id ELSE NULL END WHERE guild_id = ?",
            (guild_id,),
        )
        ((first,),) = db.execute("SELECT MIN(id) FROM games WHERE guild_id = ?", (guild_id,))
        db.executemany(
            "INSERT INTO classic_facts (guild_id, game, game_id, learned_at, taught, facts)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [(guild_id, *row[1:]) for row in batches(classic_facts(facts), first)],
        )


class CallbackProbe:
    """Times every callback the running loop runs: the longest, and how many over 20 ms,
    by the clock and by the loop thread's own CPU (the bot process's probe in
    ``bench.lean``, in this process)."""

    def __enter__(self) -> CallbackProbe:
        self.longest, self.over, self.longest_cpu = 0.0, 0, 0.0
        self._run = asyncio.events.Handle._run
        probe = self

        def timed(handle) -> None:
            started, cpu = time.perf_counter(), time.thread_time()
            probe._run(handle)
            took = (time.perf_counter() - started) * 1000
            probe.longest = max(probe.longest, took)
            probe.longest_cpu = max(probe.longest_cpu, (time.thread_time() - cpu) * 1000)
            probe.over += took > 20

        asyncio.events.Handle._run = timed
        return self

    def __exit__(self, *exc) -> None:
        asyncio.events.Handle._run = self._run


async def _ask(service, guild_id: int, record: dict, stop: asyncio.Event) -> None:
    """``/connect4 stats`` every 100 ms: the game flow's stats, then the curve's and the
    losses' queries its picture needs."""
    while not stop.is_set():
        started = time.perf_counter()
        await service.scoreboard.stats(guild_id, 7, CLASSIC)
        record["stats"].append(time.perf_counter() - started)
        await service.scoreboard.curve(guild_id, CLASSIC)
        await service.scoreboard.losses_by_block(guild_id, CLASSIC)
        record["with_curve"].append(time.perf_counter() - started)
        await asyncio.sleep(0.1)


async def _probe_queries(store, record: list, stop: asyncio.Event) -> None:
    """A small query every 10 ms (a server's record): how long each one waited."""
    while not stop.is_set():
        started = time.perf_counter()
        await store.record(1)
        record.append(time.perf_counter() - started)
        await asyncio.sleep(0.01)


async def stats_under_play(
    history: int, facts: int, servers: int, games: int, think: float, asking: bool
) -> dict:
    from bench._common import play_server
    from bot import freeze_start_up_objects
    from data import Store
    from gameflow import GameService

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        await _schema(Store, path)
        hot = GUILD
        with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:
            pool.submit(add_classic_history, path, hot, history, facts).result()
        store = await Store.open(path)
        service = GameService(store, timeout_seconds=3600)
        freeze_start_up_objects()
        rng = random.Random(1)
        moves: list[float] = []
        record: dict[str, list[float]] = {"stats": [], "with_curve": [], "queries": []}
        stop = asyncio.Event()
        with CallbackProbe() as probe:
            side = [asyncio.ensure_future(_probe_queries(store, record["queries"], stop))]
            if asking:
                side.append(asyncio.ensure_future(_ask(service, hot, record, stop)))
            per_server = [games // servers + (i < games % servers) for i in range(servers)]
            await asyncio.gather(*(
                play_server(service, s + 1, n, think, random.Random(rng.random()), moves)
                for s, n in enumerate(per_server)
            ))  # fmt: skip
            stop.set()
            await asyncio.gather(*side)
        await store.close()
    return {
        "moves": moves,
        "longest": probe.longest,
        "longest_cpu": probe.longest_cpu,
        "over": probe.over,
        **record,
    }


def stats_figures(history: int = 100_000, facts: int = 200_000) -> list[str]:
    from bench._common import percentile

    runs = {
        asking: asyncio.run(stats_under_play(history, facts, 200, 2000, 1.0, asking))
        for asking in (False, True)
    }
    quiet, asked = runs[False], runs[True]
    return [
        f"/connect4 stats on a 7×6 server with {history:,} finished games and {facts:,} "
        f"facts, asked every 100 ms while 200 servers play 2,000 games (paced): "
        f"{len(asked['stats'])} asked (the first one reads the memory back), p50 "
        f"{percentile(asked['stats'], 0.5):.2f} ms, p99 {percentile(asked['stats'], 0.99):.2f}"
        f" ms (target <= 20); with the curve's and the losses' queries p99 "
        f"{percentile(asked['with_curve'], 0.99):.2f} ms",
        f"  longest event-loop callback {asked['longest']:.1f} ms by the clock, "
        f"{asked['longest_cpu']:.1f} ms by its own CPU, {asked['over']} over 20 ms by the clock"
        f" (without stats: {quiet['longest']:.1f} ms, {quiet['longest_cpu']:.1f} ms, "
        f"{quiet['over']})",
        f"  a small query meanwhile waited at most {max(asked['queries']) * 1000:.1f} ms, p99 "
        f"{percentile(asked['queries'], 0.99):.2f} ms (target: never 20 ms; without stats: "
        f"at most {max(quiet['queries']) * 1000:.1f} ms, p99 "
        f"{percentile(quiet['queries'], 0.99):.2f} ms)",
        f"  other members' moves: p50 {percentile(asked['moves'], 0.5):.2f} ms, p99 "
        f"{percentile(asked['moves'], 0.99):.2f} ms; without stats p50 "
        f"{percentile(quiet['moves'], 0.5):.2f} ms, p99 {percentile(quiet['moves'], 0.99):.2f}"
        f" ms: ratio of the p99s "
        f"{percentile(asked['moves'], 0.99) / percentile(quiet['moves'], 0.99):.2f}",
    ]


async def first_stats_after_a_restart(game: str, lessons: int) -> dict:
    """The first ``/connect4 stats`` of a server after a restart (nothing cached, not even
    the positions' moves; the start-up objects frozen, as the bot does), on a memory of
    about ``lessons`` lessons: how long it took, and the loop's longest callback meanwhile."""
    from bench._common import trained
    from bot import freeze_start_up_objects
    from data import Store
    from gameflow import GameService

    memory = trained(game, lessons)
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        facts = [(fact.position, fact.outcome.value) for fact in memory]
        await store.add_facts(1, facts, game=game, replace=True, now=0)
        rules = get_game(game)
        rules._cache.clear()
        rules._winners.clear()
        service = GameService(store, timeout_seconds=3600)
        freeze_start_up_objects()
        with CallbackProbe() as probe:
            started = time.perf_counter()
            await service.scoreboard.stats(1, 7, game)
            took = time.perf_counter() - started
        await store.close()
    return {
        "lessons": len(memory),
        "ms": took * 1000,
        "longest": probe.longest,
        "longest_cpu": probe.longest_cpu,
        "over": probe.over,
    }
