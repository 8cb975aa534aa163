"""Scale: ``python -m bench.scale``

Prints each figure with its target (issue 9):

* the RAM one cached server costs, as the growth of this process's RSS while the memory
  cache fills with ``--servers`` servers (their memories trained, about 450 lessons each);
* training speed against each opponent, and the cost of ``choose_move``, ``learn`` and
  ``analyse`` (medians), which the compact memory must not slow down;
* the lean path: the real bot process through discord.py against a fake Discord on
  loopback (``bench.lean``), beside discord.py's own floor;
* moves per second and latency through the game flow, flat out, on SQLite, on
  PostgreSQL from one process, and from two processes sharing one PostgreSQL;
* start-up time (loading the running games) with 10,000 games running;
* Connect Four (issue 15): RAM per cached 4x4 and 5x4 server, training speed, the costs of
  ``choose_move``, ``learn``, ``analyse`` and a cold load beside tic-tac-toe's, and the
  teacher's best response (``--connect4`` prints this part alone);
* Connect Four on the event loop (issue 23, ``bench.loop``): the longest loop stall and
  the stats p99 for 4x4 and 5x4 memories of about 3,000 and 27,000 lessons (``--loop``
  prints this part alone);
* the classic board at a big server's scale (issue 34, ``bench/classic_scale.py``;
  ``--classic`` prints this part alone): the bytes a 7×6 fact takes on disk (SQLite and
  PostgreSQL) and in the process's RSS, and the first 5x4 stats after a restart with the
  longest loop callback meanwhile.

PostgreSQL runs need ``--postgres URL`` (default: the test server at 127.0.0.1); each run
works in a schema of its own, removed afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import multiprocessing
import random
import statistics
import tempfile
import time
from pathlib import Path

import engine
from bench._common import percentile, play_server, postgres_schema, rss_bytes, run_benchmark
from bot import create_bot, freeze_start_up_objects
from data import Store
from engine import Board, Mark, Memory
from gameflow import GameService
from gameflow.memories import HOT_KEPT, ServerMemories


def trained_memories(kinds: int = 8, games: int = 2000, game: str = "tictactoe") -> list[Memory]:
    memories = []
    for seed in range(kinds):
        memory = Memory(game=game)
        engine.train(memory, games, opponent="random", seed=seed)
        memories.append(memory)
    return memories


def cached_servers(
    servers: int,
    hot_kept: int = HOT_KEPT,
    game: str = "tictactoe",
    games: int = 2000,
    kinds: int = 8,
) -> tuple[float, float, float]:
    """A memory cache filled with ``servers`` servers (``hot_kept`` of them as Memory
    objects), each with a memory of ``game`` trained for ``games`` games: the RSS growth
    per server, the mean lessons held, and the time of a full garbage collection with the
    cache full, after the start-up objects were frozen."""
    templates = trained_memories(kinds, games, game)
    thresholds = gc.get_threshold()
    freeze_start_up_objects()
    cache = ServerMemories(store=None, kept=servers, bytes_kept=1 << 40, hot_kept=hot_kept)
    before = rss_bytes()
    for guild_id in range(servers):
        cache.replace(guild_id, templates[guild_id % len(templates)].copy(), version=0)
    gc.collect()
    grown = rss_bytes() - before
    collection = full_collection_ms()
    lessons = statistics.mean(len(m) for m in templates)
    assert len(cache) == servers
    del cache
    gc.unfreeze()
    gc.set_threshold(*thresholds)
    gc.collect()
    return grown / servers, lessons, collection


def training_speed(opponent: str, games: int, repeats: int = 3, game: str = "tictactoe") -> float:
    rates = []
    for seed in range(repeats):
        memory = Memory(game=game)
        started = time.perf_counter()
        engine.train(memory, games, opponent=opponent, seed=seed)
        rates.append(games / (time.perf_counter() - started))
    return statistics.median(rates)


def microseconds(call, repeats: int = 2000) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1e6


def engine_costs(game: str = "tictactoe", games: int = 2000) -> dict[str, float]:
    """Medians in µs of the engine's calls on a memory of ``game`` trained for ``games``
    random games (the keys name the call, and ``{n}`` the stored facts of a cold load)."""
    memory = trained_memories(kinds=1, games=games, game=game)[0]
    rng = random.Random(1)
    boards = []
    for _ in range(200):
        board = Board(game=game)
        for _ in range(rng.randrange(0, 7)):
            board.push(rng.choice(board.legal_moves))
            if board.is_game_over():
                board.pop()
                break
        boards.append(board)
    played = []
    for _ in range(200):
        board, moves = Board(game=game), []
        while not board.is_game_over():
            moves.append(rng.choice(board.legal_moves))
            board.push(moves[-1])
        played.append(moves)
    picks = iter(range(10**9))
    stored = [(fact.position, fact.outcome.value) for fact in memory]  # as the store has them
    copies = iter([memory.copy() for _ in range(300)])  # learn's cost, not a copy's
    return {
        "choose_move": microseconds(lambda: engine.choose_move(memory, boards[next(picks) % 200])),
        "learn (into a trained memory)": microseconds(
            lambda: next(copies).learn(played[next(picks) % 200]), 300
        ),
        "analyse (X and O)": microseconds(
            lambda: (engine.analyse(memory, Mark.X), engine.analyse(memory, Mark.O)),
            300 if game == "tictactoe" else 20,
        ),
        f"a cold load of {len(stored):,} stored facts": microseconds(
            lambda: Memory.stored(stored, game=game), 300 if game == "tictactoe" else 20
        ),
    }


def teacher_response_ms(games: int = 300, repeats: int = 20) -> float:
    """Median milliseconds of the teacher's best response on 4x4 right after the bot
    learned something (its search starts afresh at each change of the memory)."""
    from engine.training import _teacher

    memory = trained_memories(kinds=1, games=games, game="connect4")[0]
    game, rng = memory.game, random.Random(2)
    version = [0]
    teach = _teacher(game, memory.known, lambda: version[0], lambda code, moves: moves[0])
    codes = []
    while len(codes) < repeats:
        board = Board(game=game)
        for _ in range(rng.randrange(0, 6)):
            board.push(rng.choice(board.legal_moves))
        if not board.is_game_over():
            codes.append(board.code)
    times = []
    for code in codes:
        version[0] += 1  # as after a lesson
        started = time.perf_counter()
        teach(code, game.moves(code))
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def connect4_figures() -> list[str]:
    lines = []
    for game, games, servers, target in (
        ("connect4", 20_000, 2_000, "target <= 24 KB"),
        ("connect4-5x4", 100_000, 200, "target <= 4 bytes a lesson"),
    ):
        per_server, lessons, _ = cached_servers(servers, game=game, games=games, kinds=2)
        lines.append(
            f"RAM per cached {game} server, {servers:,} servers of about {lessons:,.0f} "
            f"lessons ({games:,} random games): {per_server:,.0f} bytes, "
            f"{per_server / lessons:.1f} bytes a lesson ({target})"
        )
    rate = training_speed("random", 20_000, game="connect4")
    lines.append(f"training connect4 against random: {rate:,.0f} games/s (target >= 20,000)")
    tictactoe = engine_costs()
    for game, games in (("connect4", 20_000), ("connect4-5x4", 100_000)):
        for (name, cost), base in zip(engine_costs(game, games).items(), tictactoe.values(),
                                      strict=True):  # fmt: skip
            lines.append(f"{game} {name}: {cost:,.1f} µs, {cost / base:.1f}x tic-tac-toe's")
    lines.append(
        f"the teacher's best response on 4x4 after a lesson: {teacher_response_ms():.1f} ms "
        "(median; target < 10 ms)"
    )
    return lines


def full_collection_ms(repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        gc.collect()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def start_up_collection() -> tuple[int, float, float]:
    """A bot built as ``python bot.py`` builds it: its tracked objects, and a full
    garbage collection's time before and after ``freeze_start_up_objects``."""
    create_bot(env={"DISCORD_TOKEN": "not-used"})
    tracked = len(gc.get_objects())
    before = full_collection_ms()
    thresholds = gc.get_threshold()
    freeze_start_up_objects()
    after = full_collection_ms()
    gc.unfreeze()
    gc.set_threshold(*thresholds)
    return tracked, before, after


async def play_flat_out(
    url: str, schema: str | None, servers: range, games: int, seed: int
) -> tuple[list[float], float]:
    """Play ``games`` games spread over ``servers`` at once, nobody pausing; return each
    move's latency and the seconds it all took."""
    store = await Store.connect(url, schema=schema)
    try:
        service = GameService(store, timeout_seconds=3600)
        rng = random.Random(seed)
        latencies: list[float] = []
        count = len(servers)
        per_server = [games // count + (i < games % count) for i in range(count)]
        started = time.perf_counter()
        await asyncio.gather(*(
            play_server(service, s, n, 0.0, random.Random(rng.random()), latencies)
            for s, n in zip(servers, per_server, strict=True)
        ))  # fmt: skip
        return latencies, time.perf_counter() - started
    finally:
        await store.close()


def _play_in_a_process(args: tuple) -> tuple[list[float], float]:
    return asyncio.run(play_flat_out(*args))


def throughput(label: str, latencies: list[float], seconds: float) -> str:
    return (
        f"{label:38} {len(latencies) / seconds:>7,.0f} moves/s, p50 "
        f"{percentile(latencies, 0.5):.1f} ms, p99 {percentile(latencies, 0.99):.1f} ms"
    )


async def database_runs(postgres: str, servers: int, games: int) -> list[str]:
    lines = []
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "bench.sqlite3")
        lines.append(throughput("SQLite, one process", *await play_flat_out(
            path, None, range(1, servers + 1), games, 1
        )))  # fmt: skip
    async with postgres_schema(postgres) as schema:
        lines.append(throughput("PostgreSQL, one process", *await play_flat_out(
            postgres, schema, range(1, servers + 1), games, 1
        )))  # fmt: skip
    async with postgres_schema(postgres) as schema:
        await Store.connect(postgres, schema=schema)  # migrated once, before both start
        half = servers // 2
        jobs = [
            (postgres, schema, range(1, half + 1), games // 2, 1),
            (postgres, schema, range(half + 1, servers + 1), games - games // 2, 2),
        ]
        with multiprocessing.get_context("spawn").Pool(2) as pool:
            results = pool.map(_play_in_a_process, jobs)
        latencies = [t for moves, _ in results for t in moves]
        lines.append(throughput(
            "PostgreSQL, two processes", latencies, max(s for _, s in results)
        ))  # fmt: skip
    return lines


async def start_up_seconds(url: str, schema: str | None, running: int) -> float:
    """Seconds for a new process's game flow to load ``running`` running games."""
    store = await Store.connect(url, schema=schema)
    for n in range(running):
        await store.start_game(1 + n % 1000, 10_000 + n, 7, "O", [4, 0], now=1.0)
    await store.close()
    store = await Store.connect(url, schema=schema)
    try:
        service = GameService(store, timeout_seconds=3600)
        started = time.perf_counter()
        loaded = await service.load()
        assert len(loaded) == running
        return time.perf_counter() - started
    finally:
        await store.close()


async def start_ups(postgres: str, running: int) -> list[str]:
    with tempfile.TemporaryDirectory() as folder:
        sqlite = await start_up_seconds(str(Path(folder) / "s.sqlite3"), None, running)
    async with postgres_schema(postgres) as schema:
        pg = await start_up_seconds(postgres, schema, running)
    return [
        f"start-up with {running:,} running games: SQLite {sqlite * 1000:.0f} ms, "
        f"PostgreSQL {pg * 1000:.0f} ms"
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=20_000, help="games per training run")
    parser.add_argument(
        "--postgres", default="postgresql://postgres@127.0.0.1:5432/test", help="PostgreSQL URL"
    )
    parser.add_argument("--played", type=int, default=2000, help="games in each database run")
    parser.add_argument("--running", type=int, default=10_000, help="running games at start-up")
    parser.add_argument("--connect4", action="store_true", help="only the Connect Four figures")
    parser.add_argument("--loop", action="store_true", help="only Connect Four's loop stalls")
    parser.add_argument(
        "--classic", action="store_true",
        help="only the classic board's sizes (a fact on disk and in RSS) and the first 5x4 stats",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.servers < 1 or args.games < 1:
        parser.error("need at least 1 server and 1 game")
    if args.connect4:
        for line in connect4_figures():
            print(line)
        return
    if args.loop:
        run_benchmark("bench.loop")
        return
    if args.classic:
        for line in classic_figures(args.postgres):
            print(line)
        return

    tracked, before, after = start_up_collection()
    print(f"full garbage collection of a started bot ({tracked:,} objects): {before:.1f} ms, "
          f"{after:.2f} ms after gc.freeze() (medians of 5)")  # fmt: skip
    per_server, lessons, collection = cached_servers(args.servers)
    print(f"RAM per cached server, {args.servers:,} servers of about {lessons:.0f} lessons: "
          f"{per_server:,.0f} bytes (target <= 1,024)")  # fmt: skip
    _, _, all_objects = cached_servers(args.servers, hot_kept=args.servers)
    print(f"a full garbage collection with them cached: {collection:.1f} ms ({HOT_KEPT:,} "
          f"as Memory objects, the rest as bare tables); {all_objects:.1f} ms with every "
          "one a Memory object (medians of 5)")  # fmt: skip
    for opponent in ("random", "self", "teacher"):
        games = args.games if opponent != "teacher" else args.games // 4
        rate = training_speed(opponent, games)
        target = " (target >= 110,000, the dict-based memory's)" if opponent == "random" else ""
        print(f"training against {opponent}: {rate:,.0f} games/s, median of 3{target}")
    for name, cost in engine_costs().items():
        print(f"{name}: {cost:.1f} µs (median)")
    print("the lean path through discord.py, half the moves by button, half by /ttt move:")
    run_benchmark("bench.lean", "--players", "100", "--games", "5", "--seed", "1", indent="  ")
    print(f"the game flow flat out, 200 servers, {args.played:,} games:")
    for line in asyncio.run(database_runs(args.postgres, 200, args.played)):
        print(f"  {line}")
    for line in asyncio.run(start_ups(args.postgres, args.running)):
        print(line)
    print("Connect Four:")
    for line in connect4_figures():
        print(f"  {line}")
    print("Connect Four on the event loop:")
    run_benchmark("bench.loop", indent="  ")
    print("The classic board at a big server's scale:")
    for line in classic_figures(args.postgres):
        print(f"  {line}")


def classic_figures(postgres: str) -> list[str]:
    """Issue 34's sizes, and the first 5x4 stats after a restart with the longest loop
    callback meanwhile."""
    from bench.classic_scale import first_stats_after_a_restart, size_figures

    lines = size_figures(postgres)
    for _ in range(3):  # each in a fresh loop: a restart
        r = asyncio.run(first_stats_after_a_restart("connect4-5x4", 27_000))
        lines.append(
            f"the first /connect4 stats board:5x4 after a restart, a memory of "
            f"{r['lessons']:,} lessons: {r['ms']:.0f} ms; the loop's longest callback "
            f"meanwhile {r['longest']:.1f} ms by the clock, {r['longest_cpu']:.1f} ms by its "
            f"own CPU; {r['over']} over 20 ms (target: none)"
        )
    return lines


if __name__ == "__main__":
    main()
