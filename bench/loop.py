"""Connect Four's costs on the event loop (issue 23): ``python -m bench.loop``

For 4x4 and 5x4 memories of about 3,000 and 27,000 lessons (taught by games of random moves, kept on
disk under the temp dir so that a second run starts at once), through the real game flow
on a real SQLite file, after a restart (nothing cached, not even the positions' moves;
the start-up objects frozen out of the garbage collector's sight, as the bot does):

* the first game's start and move: the longest the event loop stalled meanwhile;
* the first ``/connect4 stats`` (cold), then 40 more: their p50 and p99, and the longest
  loop stall over all of them.

A probe task wakes every 2 ms; a stall is how much later than asked it woke. Target: no
stall over 20 ms, and stats p99 <= 20 ms on both boards.

And a 5x4 memory of 285,000 lessons (250,000 games of self-play, as in issue 23) moved
between servers: its file's size in version 2 and in version 1, the time to check each
through ``/ttt-admin import``'s game flow, and the longest loop stall meanwhile.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path

from bench._common import StallProbe, percentile, trained
from bot import freeze_start_up_objects
from data import Store
from engine import Memory, export_memory, get_game
from gameflow import GameService
from gameflow.brain import document_file

SIZES = (
    ("connect4", 3_000),
    ("connect4", 27_000),
    ("connect4-5x4", 3_000),
    ("connect4-5x4", 27_000),
)


async def measure(game: str, memory: Memory, asks: int = 40) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        facts = [(fact.position, fact.outcome.value) for fact in memory]
        await store.add_facts(1, facts, game=game, replace=True, now=0)
        rules = get_game(game)
        rules._cache.clear()  # a restart: no position's moves known yet
        rules._winners.clear()
        service = GameService(store, timeout_seconds=3600)
        freeze_start_up_objects()  # as the bot does once started
        with StallProbe() as probe:
            await asyncio.sleep(0.01)
            probe.take()
            turn = await service.start(1, 1, 7, bot_first=False, game=game)
            await service.move(1, 7, turn.game.board.legal_moves[0] + 1)
            await asyncio.sleep(0.01)
            first_play = probe.take()
            service.memories.forget_server(1)  # the stats of a server not read yet
            started = time.perf_counter()
            await service.scoreboard.stats(1, 7, game)
            cold = (time.perf_counter() - started) * 1000
            await asyncio.sleep(0.01)
            cold_stall = probe.take()
            timings = []
            for _ in range(asks):
                started = time.perf_counter()
                await service.scoreboard.stats(1, 7, game)
                timings.append(time.perf_counter() - started)
                await asyncio.sleep(0.005)
            stall = probe.take()
        await store.close()
    return {
        "lessons": len(memory),
        "first_play_stall": first_play,
        "cold_ms": cold,
        "cold_stall": cold_stall,
        "p50": percentile(timings, 0.5),
        "p99": percentile(timings, 0.99),
        "stall": stall,
    }


async def import_figures(memory: Memory) -> list[str]:
    game = memory.game.name
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        service = GameService(store, timeout_seconds=3600)
        lines = []
        with StallProbe() as probe:
            for label, data in (
                ("version 2", document_file(memory)),
                ("version 1", json.dumps(export_memory(memory, compact=False), indent=1).encode()),
            ):
                told: list[int] = []
                probe.take()
                started = time.perf_counter()
                plan = await service.brain.plan_import(
                    1, data, "replace", game, lambda done, total, told=told: told.append(done)
                )
                seconds = time.perf_counter() - started
                assert plan.document == memory
                lines.append(
                    f"import of a {game} memory of {len(memory):,} lessons, {label}: "
                    f"{len(data) / 1e6:.1f} MB, checked in {seconds:.1f} s ({len(told)} "
                    f"progress reports), longest loop stall {probe.take():.1f} ms"
                )
        await store.close()
    return lines


def report(sizes=SIZES, big: int = 285_000) -> list[str]:
    lines = []
    for game, lessons in sizes:
        memory = trained(game, lessons)
        r = asyncio.run(measure(game, memory))
        lines.append(
            f"{game} memory of {r['lessons']:,} lessons: first play after a restart stalls "
            f"the loop {r['first_play_stall']:.1f} ms; first stats {r['cold_ms']:.1f} ms "
            f"(stall {r['cold_stall']:.1f} ms); stats p50 {r['p50']:.1f} ms, p99 "
            f"{r['p99']:.1f} ms, longest stall {r['stall']:.1f} ms"
        )
    lines.append("targets: no stall over 20 ms; stats p99 <= 20 ms")
    if big:
        lines.extend(asyncio.run(import_figures(trained("connect4-5x4", big, step=5_000))))
    return lines


def main(argv: list[str] | None = None) -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args(argv)
    for line in report():
        print(line)


if __name__ == "__main__":
    main()
