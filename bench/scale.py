"""Scale: ``python -m bench.scale``

Prints each figure with its target (issue 9):

* the RAM one cached server costs, as the growth of this process's RSS while the memory
  cache fills with ``--servers`` servers (their memories trained, about 450 lessons each);
* training speed against each opponent, and the cost of ``choose_move``, ``learn`` and
  ``analyse`` (medians), which the compact memory must not slow down.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import time

import engine
from engine import Board, Mark, Memory
from gameflow.memories import ServerMemories


def rss_bytes() -> int:
    with open(f"/proc/{os.getpid()}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS in /proc: this benchmark needs Linux")


def trained_memories(kinds: int = 8, games: int = 2000) -> list[Memory]:
    memories = []
    for seed in range(kinds):
        memory = Memory()
        engine.train(memory, games, opponent="random", seed=seed)
        memories.append(memory)
    return memories


def bytes_per_cached_server(servers: int) -> tuple[float, float]:
    """RSS growth per server while a memory cache fills; and the mean lessons held."""
    templates = trained_memories()
    cache = ServerMemories(store=None, kept=servers)  # filled directly: no store needed
    gc.collect()
    before = rss_bytes()
    for guild_id in range(servers):
        cache.replace(guild_id, templates[guild_id % len(templates)].copy())
    gc.collect()
    grown = rss_bytes() - before
    lessons = statistics.mean(len(m) for m in templates)
    assert len(cache) == servers
    return grown / servers, lessons


def training_speed(opponent: str, games: int, repeats: int = 3) -> float:
    rates = []
    for seed in range(repeats):
        memory = Memory()
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


def engine_costs() -> dict[str, float]:
    memory = trained_memories(kinds=1)[0]
    rng = random.Random(1)
    boards = []
    for _ in range(200):
        board = Board()
        for _ in range(rng.randrange(0, 7)):
            board.push(rng.choice(board.legal_moves))
            if board.is_game_over():
                board.pop()
                break
        boards.append(board)
    games = []
    for _ in range(200):
        board, moves = Board(), []
        while not board.is_game_over():
            moves.append(rng.choice(board.legal_moves))
            board.push(moves[-1])
        games.append(moves)
    picks = iter(range(10**9))
    return {
        "choose_move": microseconds(lambda: engine.choose_move(memory, boards[next(picks) % 200])),
        "learn (a copy of a trained memory)": microseconds(
            lambda: memory.copy().learn(games[next(picks) % 200])
        ),
        "analyse (X and O)": microseconds(
            lambda: (engine.analyse(memory, Mark.X), engine.analyse(memory, Mark.O)), 300
        ),
    }


def full_collection_ms(repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        gc.collect()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def start_up_collection() -> tuple[int, float, float]:
    """A bot built as ``python bot.py`` builds it: its tracked objects, and a full
    garbage collection's time before and after ``bot.freeze_start_up_objects``."""
    import bot

    bot.create_bot(env={"DISCORD_TOKEN": "not-used"})
    tracked = len(gc.get_objects())
    before = full_collection_ms()
    bot.freeze_start_up_objects()
    after = full_collection_ms()
    gc.unfreeze()
    return tracked, before, after


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=20_000, help="games per training run")
    args = parser.parse_args(argv)
    if args.servers < 1 or args.games < 1:
        parser.error("need at least 1 server and 1 game")

    tracked, before, after = start_up_collection()
    print(f"full garbage collection of a started bot ({tracked:,} objects): {before:.1f} ms, "
          f"{after:.2f} ms after gc.freeze() (medians of 5)")  # fmt: skip
    per_server, lessons = bytes_per_cached_server(args.servers)
    print(f"RAM per cached server, {args.servers:,} servers of about {lessons:.0f} lessons: "
          f"{per_server:,.0f} bytes (target <= 1,024)")  # fmt: skip
    for opponent in ("random", "self", "teacher"):
        games = args.games if opponent != "teacher" else args.games // 4
        rate = training_speed(opponent, games)
        target = " (target >= 110,000, the dict-based memory's)" if opponent == "random" else ""
        print(f"training against {opponent}: {rate:,.0f} games/s, median of 3{target}")
    for name, cost in engine_costs().items():
        print(f"{name}: {cost:.1f} µs (median)")


if __name__ == "__main__":
    main()
