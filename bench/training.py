"""Training inside the bot while everyone plays: ``python -m bench.training``

1,000 servers play through the real game flow on a real SQLite file, each person
pausing before each move (uniform 0..2x ``--think`` seconds), for as long as one server
trains ``--games`` games in its worker process. Printed for that run and for the same
play without a training:

* the longest event-loop stall (a watcher asks for a 5 ms sleep, again and again, and
  records how late it wakes) and the move latency percentiles;
* the training's throughput inside the bot, beside ``engine.train`` run directly;
* for comparison, the stall of training on the event loop itself, as before.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

import engine
from data import Store
from engine import Memory
from gameflow import GameService

TICK = 0.005


async def watch_loop(stop: asyncio.Event, lateness: list[float]) -> None:
    while not stop.is_set():
        asked = time.perf_counter()
        await asyncio.sleep(TICK)
        lateness.append(time.perf_counter() - asked - TICK)


async def play(service, server: int, think: float, rng, latencies, stop: asyncio.Event) -> None:
    while not stop.is_set():
        turn = await service.start(server, server, server, bot_first=rng.random() < 0.5)
        while turn.game.running:
            await asyncio.sleep(rng.uniform(0, 2 * think))
            cell = rng.choice(turn.game.board.legal_moves) + 1
            started = time.perf_counter()
            turn = await service.move(server, server, cell)
            latencies.append(time.perf_counter() - started)


async def run(
    servers: int, think: float, seconds: float | None, train: tuple[str, int] | None
) -> dict:
    """Play until ``seconds`` pass, or until the training (opponent, games) ends."""
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        service = GameService(store, timeout_seconds=3600)
        stop = asyncio.Event()
        latencies: list[float] = []
        lateness: list[float] = []
        rng = random.Random(1)
        tasks = [asyncio.create_task(watch_loop(stop, lateness))] + [
            asyncio.create_task(
                play(service, s + 1, think, random.Random(rng.random()), latencies, stop)
            )
            for s in range(servers)
        ]
        await asyncio.sleep(2 * think)  # everyone is playing
        lateness.clear()
        latencies.clear()
        final = None
        if train is None:
            await asyncio.sleep(seconds)
        else:
            run_ = await service.trainer.start(servers + 1, 0, 0, *train)
            updates = [progress async for progress in run_.updates()]
            final = updates[-1]
        stop.set()
        await asyncio.gather(*tasks)
        await store.close()
    latencies.sort()
    return {
        "moves": len(latencies),
        "p50": statistics.median(latencies) * 1000,
        "p99": latencies[int(len(latencies) * 0.99)] * 1000,
        "stall": max(lateness) * 1000,
        "training": final,
    }


def direct_rate(opponent: str, games: int) -> float:
    report = engine.train(Memory(), games, opponent=opponent, seed=1)
    return report.games_per_second


def loop_stall_of_training_on_the_loop(opponent: str, games: int) -> float:
    async def measure() -> float:
        stop, lateness = asyncio.Event(), []
        watcher = asyncio.create_task(watch_loop(stop, lateness))
        await asyncio.sleep(0.05)
        engine.train(Memory(), games, opponent=opponent, seed=1)  # what the bot must not do
        await asyncio.sleep(0.05)
        stop.set()
        await watcher
        return max(lateness)

    return asyncio.run(measure())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=1000)
    parser.add_argument("--think", type=float, default=1.0, help="mean pause before a move (s)")
    parser.add_argument("--opponent", choices=("random", "self", "teacher"), default="random")
    parser.add_argument("--games", type=int, default=1_000_000)
    args = parser.parse_args(argv)

    print(f"{args.servers} servers playing (mean pause {args.think:g} s), one process")
    training = asyncio.run(run(args.servers, args.think, None, (args.opponent, args.games)))
    progress = training["training"]
    assert progress.state == "done" and progress.played == args.games
    alone = asyncio.run(run(args.servers, args.think, progress.seconds, None))
    print(f"{'run':44} {'moves':>7} {'p50 ms':>7} {'p99 ms':>7} {'stall ms':>9}")
    for label, r in (
        (f"while one server trains {args.games:,} ({args.opponent})", training),
        ("the same play, no training", alone),
    ):
        print(f"{label:44} {r['moves']:>7} {r['p50']:>7.2f} {r['p99']:>7.2f} {r['stall']:>9.1f}")
    direct = direct_rate(args.opponent, min(args.games, 200_000))
    print(
        f"training inside the bot: {progress.games_per_second:,.0f} games/s "
        f"({progress.learned} lessons); engine.train directly: {direct:,.0f} games/s "
        f"(ratio {progress.games_per_second / direct:.2f})"
    )
    on_loop_games = min(args.games, 100_000)
    stall = loop_stall_of_training_on_the_loop(args.opponent, on_loop_games)
    print(
        f"for comparison, {on_loop_games:,} games trained on the event loop stall it {stall:.2f} s"
    )
    print("targets: longest stall <= 50 ms while training; move p99 <= 10 ms")


if __name__ == "__main__":
    main()
