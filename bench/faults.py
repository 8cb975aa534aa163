"""The project's fault tests, run for longer: ``python -m bench.faults``

* **sequences**: the stateful property test of ``tests/cogs/test_stateful.py`` (random
  commands, clicks, resets, clock jumps and restarts through SimCord, every invariant
  checked after every step), for many more sequences;
* **kills**: ``python bot.py`` as a real process against the fake Discord of
  ``tests/fakediscord.py``, SIGKILLed mid-game again and again, with every announced move,
  result and lesson checked in the database after each kill;
* **races**: two processes' game flows on one database, each sent the same game's next
  move at the same moment (an overlapping deploy), plus double moves and double
  challenges inside one process: exactly one of each pair may apply. On a SQLite file,
  then on PostgreSQL (two connection pools, as two processes hold);
* **outages**: games played on PostgreSQL through a proxy that cuts the connections and
  pauses them at random (``tests/pgproxy.py``), then with the server ending the bot's
  connections at random (``pg_terminate_backend``, as a failover does); every answer is
  compared at once with what the database holds.

The summary counts, for every part, what was lost (announced but not stored),
double-applied (one of a pair, both applied), unanswered (a request that got no true
answer: an unforeseen error) and untrue (told "nothing changed" while it was stored);
each must be 0. Every part stops at the first failure with its assertion.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import tempfile
import time
from pathlib import Path

from data import Store, StoreUnavailableError
from gameflow import GameError, GameService
from gameflow.errors import DATABASE_LOST_MIDWAY
from tests.cogs import test_stateful
from tests.conftest import postgres_schema
from tests.engine.oracle import true_outcome
from tests.fakediscord import FakeDiscord
from tests.pgproxy import Proxy
from tests.test_faults import crash_run

SUMMARY = dict.fromkeys(("lost", "double-applied", "unanswered", "untrue"), 0)


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


async def races(count: int, seed: int, postgres: bool = False) -> None:
    rng = random.Random(seed)
    started = time.perf_counter()
    async with contextlib.AsyncExitStack() as stack:
        if postgres:
            url, schema = await stack.enter_async_context(postgres_schema())
            first = await Store.connect(url, schema=schema)
            second = await Store.connect(url, schema=schema)
        else:
            folder = stack.enter_context(tempfile.TemporaryDirectory())
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
            SUMMARY["double-applied"] += sum(not isinstance(r, GameError) for r in pair) > 1
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
            SUMMARY["double-applied"] += sum(not isinstance(r, GameError) for r in pair) > 1
            assert sum(isinstance(r, GameError) for r in pair) == 1, pair
            applied, refused = applied + 1, refused + 1
        for channel in range(1, 2 * count + 1):  # play every game out, so that they teach
            while (game := one.running.running_game(channel)) is not None:
                await one.move(channel, game.player_id, rng.choice(game.board.legal_moves) + 1)
        facts = await first._fetch("SELECT position, outcome FROM facts")
        (busiest,) = (
            await first._fetch(
                "SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM games"
                " WHERE result = 'running' GROUP BY channel_id) AS busy"
            )
        )[0]
        await first.close()
        await second.close()
    assert all(true_outcome(p) == o for p, o in facts) and (busiest or 0) <= 1
    where = "PostgreSQL, two pools" if postgres else "SQLite"
    print(
        f"races on {where}: {3 * count} simultaneous pairs ({count} across two processes, "
        f"{count} double moves, {count} double challenges): {applied} applied once, "
        f"{refused} refused, {len(facts)} facts all true ({time.perf_counter() - started:.0f} s)"
    )


async def outages(channels: int, seconds: float, seed: int, *, terminate: bool = False) -> None:
    """Players play on PostgreSQL while its connections fail at random, and every answer
    is compared at once with what a connection of its own reads back.

    The failures: a proxy that cuts and pauses the connections (PostgreSQL killed or
    paused, the network gone); or, with ``terminate``, the server ending the bot's
    connections (``pg_terminate_backend``: a failover, a pooler restart).
    """
    import asyncpg

    rng = random.Random(seed)
    started = time.perf_counter()
    tally = dict.fromkeys(("moves", "refused", "uncertain", "cuts", "pauses", "ended"), 0)
    announced: dict[int, tuple[int, ...]] = {}  # game id -> the moves last announced
    uncertain: set[int] = set()  # games with a write that may or may not have landed
    name = f"ttt_faults_{seed}"  # the bot's connections, as the server lists them
    async with postgres_schema() as (url, schema):
        proxy = await Proxy(url).start()
        bot_url = f"{url}?application_name={name}" if terminate else proxy.url
        store = await Store.connect(bot_url, schema=schema)
        checker = await Store.connect(url, schema=schema)  # beside the failures
        admin = await asyncpg.connect(url)
        service = GameService(store, timeout_seconds=3600)
        stop = asyncio.Event()

        async def chaos() -> None:
            while not stop.is_set():
                await asyncio.sleep(rng.uniform(0.2, 0.8))
                if terminate:
                    tally["ended"] += await admin.fetchval(
                        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                        " WHERE application_name = $1",
                        name,
                    )
                elif rng.random() < 0.5:
                    tally["cuts"] += 1
                    await proxy.cut()
                    await asyncio.sleep(rng.uniform(0.1, 0.6))
                    proxy.restore()
                else:
                    tally["pauses"] += 1
                    proxy.pause()
                    await asyncio.sleep(rng.uniform(0.1, 1.0))
                    proxy.resume()

        async def stored(channel: int) -> tuple[int | None, tuple[int, ...]]:
            """The channel's running game as the database holds it: (id, moves)."""
            game = await checker.running_game(channel)
            return (game.id, game.moves) if game else (None, ())

        # channels with a write whose outcome the bot could not know: until it answers
        # there again, that write may still land (a commit held up in a stalled network)
        unsettled: set[int] = set()

        def unchanged(channel: int, before: tuple, after: tuple) -> None:
            """Told that nothing changed: the database must agree."""
            if before != after and channel not in unsettled:
                SUMMARY["untrue"] += 1

        async def player(channel: int) -> None:
            while not stop.is_set():
                await asyncio.sleep(rng.uniform(0, 0.02))
                before = await stored(channel)
                try:
                    game = await service.running.find_game(channel)
                    if game is None:
                        game = (await service.start(1, channel, channel, bot_first=False)).game
                        announced[game.id] = game.moves
                        unsettled.discard(channel)
                        if await stored(channel) != (game.id, game.moves):
                            SUMMARY["untrue"] += 1  # announced a game that is not stored
                        continue
                # refused truthfully: the database cannot be reached (a read raises the
                # store's error, which the cogs say as such)
                except (GameError, StoreUnavailableError) as error:
                    tally["refused"] += 1
                    if getattr(error, "message", None) is DATABASE_LOST_MIDWAY:  # either is true
                        tally["uncertain"] += 1
                        unsettled.add(channel)
                    else:
                        unchanged(channel, before, await stored(channel))
                    continue
                except Exception:
                    SUMMARY["unanswered"] += 1
                    raise
                try:
                    turn = await service.move(
                        channel, channel, rng.choice(game.board.legal_moves) + 1
                    )
                except GameError as error:
                    tally["refused"] += 1
                    if getattr(error, "message", None) is DATABASE_LOST_MIDWAY:  # either is true
                        tally["uncertain"] += 1
                        uncertain.add(game.id)
                        unsettled.add(channel)
                    else:
                        unchanged(channel, before, await stored(channel))
                    continue
                except StoreUnavailableError:
                    tally["refused"] += 1
                    unchanged(channel, before, await stored(channel))
                    continue
                except Exception:
                    SUMMARY["unanswered"] += 1
                    raise
                tally["moves"] += 1
                announced[turn.game.id] = turn.game.moves
                uncertain.discard(turn.game.id)
                unsettled.discard(channel)
                now = await stored(channel)
                if not turn.game.running:
                    if now[0] == turn.game.id:
                        SUMMARY["untrue"] += 1  # announced over, stored as running
                elif now != (turn.game.id, turn.game.moves):
                    SUMMARY["untrue"] += 1

        tasks = [asyncio.create_task(chaos())]
        tasks += [asyncio.create_task(player(c)) for c in range(1, channels + 1)]
        await asyncio.sleep(seconds)
        stop.set()
        await asyncio.gather(*tasks)
        proxy.restore()
        proxy.resume()
        rows = await checker._fetch("SELECT id, moves FROM games")
        for open_ in (store, checker, admin):
            await open_.close()
        await proxy.stop()
    stored_moves = {game_id: tuple(int(c) for c in moves) for game_id, moves in rows}
    for game_id, moves in announced.items():
        kept = stored_moves.get(game_id)
        if kept == moves:
            continue
        if game_id in uncertain:
            continue  # told it could not be known: either is true
        if kept is None or kept[: len(moves)] != moves:
            SUMMARY["lost"] += 1
        else:
            SUMMARY["untrue"] += 1  # stored beyond what was announced, while told unchanged
    failures = (
        f"the server ended the bot's connections {tally['ended']} times"
        if terminate
        else f"{tally['cuts']} cuts and {tally['pauses']} pauses"
    )
    print(
        f"outages on PostgreSQL: {failures} in {seconds:.0f} s, {channels} players: "
        f"{tally['moves']:,} moves announced and stored, {tally['refused']:,} refused "
        f"truthfully ({tally['uncertain']} said uncertain), every answer compared with the "
        f"database, {len(announced):,} games checked ({time.perf_counter() - started:.0f} s)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sequences", type=int, default=500)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--kills", type=int, default=60)
    parser.add_argument("--races", type=int, default=700, help="pairs of each kind")
    parser.add_argument("--outage-seconds", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if min(args.sequences, args.steps, args.kills, args.races) < 1:
        parser.error("every count must be at least 1")
    asyncio.run(races(args.races, args.seed))
    asyncio.run(races(args.races, args.seed, postgres=True))
    asyncio.run(outages(20, args.outage_seconds, args.seed))
    asyncio.run(outages(20, args.outage_seconds, args.seed, terminate=True))
    asyncio.run(kills(args.kills, args.seed))
    sequences(args.sequences, args.steps)
    print("summary: " + ", ".join(f"{count} {what}" for what, count in SUMMARY.items()))
    assert not any(SUMMARY.values()), SUMMARY


if __name__ == "__main__":
    main()
