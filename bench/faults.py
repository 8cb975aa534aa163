"""The project's fault tests, run for longer: ``python -m bench.faults``

* **sequences**: the stateful property test of ``tests/cogs/test_stateful.py`` (random
  commands, clicks, resets, clock jumps and restarts through SimCord, every invariant
  checked after every step), for many more sequences;
* **kills**: ``python bot.py`` as a real process against the fake Discord of
  ``tests/fakediscord.py``, SIGKILLed mid-game again and again, with every announced move,
  result and lesson checked in the database after each kill;
* **races**: two processes' game flows on one database file, each sent the same game's
  next move at the same moment (an overlapping deploy), plus double moves and double
  challenges inside one process: exactly one of each pair may apply.

Every part stops at the first failure with its assertion; figures print as it goes.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import tempfile
import time
from pathlib import Path

from data import Store
from gameflow import GameError, GameService
from tests.cogs import test_stateful
from tests.engine.oracle import true_outcome
from tests.fakediscord import FakeDiscord
from tests.test_faults import crash_run


def sequences(count: int, steps: int) -> None:
    started = time.perf_counter()
    test_stateful.run_machine(count, steps)
    tally = test_stateful.TALLY
    print(
        f"sequences: {tally['sequences']} sequences (up to {steps} steps), "
        f"{tally['interactions']} interactions, {tally['restarts']} restarts, "
        f"{tally['time jumps']} clock jumps, {tally['resets']} resets, "
        f"{tally['games finished']} games finished, {tally['facts checked']} fact checks: "
        f"every invariant held ({time.perf_counter() - started:.0f} s)"
    )


async def kills(count: int, seed: int) -> None:
    started = time.perf_counter()
    fake = await FakeDiscord().start()
    try:
        with tempfile.TemporaryDirectory() as home:
            figures = await crash_run(fake, Path(home), count, random.Random(seed))
    finally:
        await fake.stop()
    print(
        f"kills: {figures['kills']} SIGKILLs, {figures['requests']} requests, "
        f"{figures['announcements']} announced boards: all stored "
        f"({time.perf_counter() - started:.0f} s)"
    )


async def races(count: int, seed: int) -> None:
    rng = random.Random(seed)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "races.sqlite3"
        first, second = await Store.open(path), await Store.open(path)
        one = GameService(first, timeout_seconds=3600)
        other = GameService(second, timeout_seconds=3600)
        applied = refused = 0
        # across processes: both hold the game, both try the next move
        for channel in range(1, count + 1):
            await one.start(1, channel, 7, bot_first=False)
        await other.load()
        results = await asyncio.gather(*(
            asyncio.gather(one.move(c, 7, 1), other.move(c, 7, 9), return_exceptions=True)
            for c in range(1, count + 1)
        ))  # fmt: skip
        for pair in results:
            assert sum(isinstance(r, GameError) for r in pair) == 1, pair
            applied, refused = applied + 1, refused + 1
        for channel in range(1, count + 1):  # what is stored is what the winner announced
            winner = next(r for r in results[channel - 1] if not isinstance(r, GameError))
            assert (await first.running_game(channel)).moves == winner.game.moves
        # inside one process: double moves, then double challenges in fresh channels
        await one.load()
        doubles = await asyncio.gather(*(
            asyncio.gather(*(one.move(c, 7, cell) for cell in rng.sample((3, 4, 6, 7), 2)),
                           return_exceptions=True)
            for c in range(1, count + 1)
        ))  # fmt: skip
        challenges = await asyncio.gather(*(
            asyncio.gather(one.start(1, c, 7, bot_first=False), one.start(1, c, 8, bot_first=True),
                           return_exceptions=True)
            for c in range(count + 1, 2 * count + 1)
        ))  # fmt: skip
        for pair in doubles + challenges:
            assert sum(isinstance(r, GameError) for r in pair) == 1, pair
            applied, refused = applied + 1, refused + 1
        for channel in range(1, 2 * count + 1):  # play every game out, so that they teach
            while (game := one.running_game(channel)) is not None:
                await one.move(channel, game.player_id, rng.choice(game.board.legal_moves) + 1)
        await first.close()
        await second.close()
        with sqlite3.connect(path) as db:
            facts = list(db.execute("SELECT position, outcome FROM facts"))
            (busiest,) = db.execute(
                "SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM games"
                " WHERE result = 'running' GROUP BY channel_id)"
            ).fetchone()
    assert all(true_outcome(p) == o for p, o in facts) and (busiest or 0) <= 1
    print(
        f"races: {3 * count} simultaneous pairs ({count} across two processes, {count} double "
        f"moves, {count} double challenges): {applied} applied once, {refused} refused, "
        f"{len(facts)} facts all true ({time.perf_counter() - started:.0f} s)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sequences", type=int, default=500)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--kills", type=int, default=60)
    parser.add_argument("--races", type=int, default=700, help="pairs of each kind")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if min(args.sequences, args.steps, args.kills, args.races) < 1:
        parser.error("every count must be at least 1")
    asyncio.run(races(args.races, args.seed))
    asyncio.run(kills(args.kills, args.seed))
    sequences(args.sequences, args.steps)


if __name__ == "__main__":
    main()
