"""The game flow under load: ``python -m bench.bot``

1,000 servers play 10,000 games at once through the real game flow (``GameService``)
on a real SQLite file: a person's move, the bot's reply, learning, storing. Discord
itself is not in the loop: this measures our side of each move.

Three runs:

* **paced**: each person pauses before each move (uniform 0..2x ``--think`` seconds), as
  people do; this is the latency a server sees under that load;
* **flat out**: nobody pauses, so 1,000 moves always wait in line; this is the most
  moves per second one process can store;
* **flat out, synchronous=FULL**: the same with SQLite's fsync on every commit, which
  would also keep the last moves through a power loss: the price of that promise.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from data import Store
from data.store import SYNCHRONOUS
from gameflow import GameService


async def play_server(service, server: int, games: int, think: float, rng, latencies) -> None:
    for _ in range(games):
        turn = await service.start(server, server, server, bot_first=rng.random() < 0.5)
        board = turn.game.board
        while turn.game.running:
            if think:
                await asyncio.sleep(rng.uniform(0, 2 * think))
            cell = rng.choice(board.legal_moves) + 1
            started = time.perf_counter()
            turn = await service.move(server, server, cell)
            latencies.append(time.perf_counter() - started)
            board = turn.game.board


async def run(
    servers: int, games: int, think: float, seed: int, synchronous: str = SYNCHRONOUS
) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3", synchronous=synchronous)
        service = GameService(store, timeout_seconds=3600)
        rng = random.Random(seed)
        latencies: list[float] = []
        per_server = [games // servers + (i < games % servers) for i in range(servers)]
        started = time.perf_counter()
        await asyncio.gather(*(
            play_server(service, s + 1, n, think, random.Random(rng.random()), latencies)
            for s, n in enumerate(per_server)
        ))  # fmt: skip
        elapsed = time.perf_counter() - started
        record = await store.record(1)
        facts = sum([len(await service.memory(s + 1)) for s in range(servers)])
        stored = sum([(await store.record(s + 1)).games for s in range(servers)])
        await store.close()
    latencies.sort()
    return {
        "moves": len(latencies),
        "games": stored,
        "seconds": elapsed,
        "p50": statistics.median(latencies) * 1000,
        "p99": latencies[int(len(latencies) * 0.99)] * 1000,
        "max": latencies[-1] * 1000,
        "moves_per_s": len(latencies) / elapsed,
        "facts": facts,
        "first_server": record,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=1000)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--think", type=float, default=1.0, help="mean pause before a move (s)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.servers < 1 or args.games < args.servers or args.think < 0:
        parser.error("need at least 1 server, at least one game per server, and think >= 0")

    print(f"{args.servers} servers, {args.games} games, one SQLite file (WAL), one process;"
          f" synchronous={SYNCHRONOUS} unless named")  # fmt: skip
    print(f"{'run':30} {'moves':>7} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'moves/s':>8}")
    runs = (
        (f"paced (mean pause {args.think:g} s)", args.think, SYNCHRONOUS),
        ("flat out", 0.0, SYNCHRONOUS),
        # the durability choice: FULL also survives a power loss, at this price per move
        ("flat out, synchronous=FULL", 0.0, "FULL"),
    )
    for label, think, synchronous in runs:
        r = asyncio.run(run(args.servers, args.games, think, args.seed, synchronous))
        assert r["games"] == args.games, "every game must be stored"
        print(f"{label:30} {r['moves']:>7} {r['p50']:>7.2f} {r['p99']:>7.2f} {r['max']:>7.1f} "
              f"{r['moves_per_s']:>8.0f}")  # fmt: skip
    print("targets: p99 <= 10 ms per move (paced); at least 500 moves/s")


if __name__ == "__main__":
    main()
